"""The values pass in words: a mistake's explanation, translated (docs/analysis.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import template
from django.utils.translation import gettext as _

from replays.templatetags.tiles import action_text

register = template.Library()


@register.filter
def explanation(found: dict[str, Any] | None) -> str:
    """The sentence for an explanation id and its parameters (all computed numbers)."""
    if not found:
        return ""
    params = dict(found["params"])
    params["best"] = action_text(params["best"])
    params["actual"] = action_text(params["actual"])
    sentence = SENTENCES.get(found["id"], SENTENCES["lower_value"])()
    return sentence % params


def _lower_value() -> str:
    return _("%(actual)s instead of %(best)s: win chance %(win_actual)s%% against "
             "%(win_best)s%%, %(points_actual)s points expected against %(points_best)s "
             "(%(loss)s lost).")


SENTENCES: dict[str, Callable[[], str]] = {
    "lower_value": _lower_value,
    "missed_win": lambda: _(
        "%(best)s wins now for %(win_points)s points; %(actual)s gives that up and is worth "
        "%(points_actual)s points expected against %(points_best)s."),
    "more_shanten": lambda: _(
        "%(actual)s leaves the hand %(steps)s step(s) further from ready than %(best)s: win "
        "chance %(win_actual)s%% against %(win_best)s%% (%(loss)s points lost)."),
    "fewer_tiles": lambda: _(
        "%(actual)s keeps %(tiles_actual)s tiles that improve the hand, %(best)s keeps "
        "%(tiles_best)s: win chance %(win_actual)s%% against %(win_best)s%% (%(loss)s points "
        "lost)."),
    "nearer_but_narrower": lambda: _(
        "%(actual)s is a step nearer to ready but keeps only %(tiles_actual)s tiles that "
        "improve the hand; %(best)s keeps %(tiles_best)s: win chance %(win_actual)s%% "
        "against %(win_best)s%% (%(loss)s points lost)."),
    "cheaper_wait": lambda: _(
        "%(actual)s waits for at most %(wait_actual)s points, %(best)s for %(wait_best)s: "
        "%(points_actual)s points expected against %(points_best)s."),
    "wildcard_spent": lambda: _(
        "%(actual)s throws a wildcard away; %(best)s keeps it: win chance %(win_actual)s%% "
        "against %(win_best)s%% (%(loss)s points lost)."),
    "void_suit": lambda: _(
        "%(actual)s instead of %(best)s: played out, the hand ends %(points_actual)s points "
        "on average against %(points_best)s (win chance %(win_actual)s%% against "
        "%(win_best)s%%)."),
    "contract": lambda: _(
        "Answering %(actual)s instead of %(best)s: played out, the hand ends %(points_actual)s "
        "points on average against %(points_best)s (JX-9)."),
    "play_on": lambda: _(
        "%(actual)s scores %(win_points)s points, paid by the discarder alone (SC-6.1), and "
        "takes you out of the hand (SC-3.2). Playing on instead (SC-3.3, %(best)s) won later "
        "in %(win_best)s%% of the redeals, %(self_draw)s%% by self-draw, which every player "
        "still in pays (SC-6.2), and kept a ready hand to the wall's end that collected 查大叫 "
        "from the players not ready (SC-6.4b) in %(ready_share)s%%: %(points_best)s points on "
        "average against %(points_actual)s for the hand. The redeals give the others random "
        "tiles, so they are ready less often than real players late in a hand: this favours "
        "playing on."),
    "flower_pig": lambda: _(
        "%(actual)s instead of %(best)s: played out, you still held a tile of your void suit "
        "when the wall ran out in %(pig_actual)s%% of the redeals against %(pig_best)s%% — a "
        "花猪 pays every other player still in the cap (查花猪, SC-6.4a). That cost "
        "%(pig_cost)s points on average of the %(loss)s lost (%(points_actual)s points "
        "against %(points_best)s)."),
    "claim": lambda: _(
        "%(actual)s instead of %(best)s: played out at the table, the hand ends "
        "%(points_actual)s points on average against %(points_best)s (win chance "
        "%(win_actual)s%% against %(win_best)s%%)."),
}


@register.filter
def percent(value: float | None) -> str:
    """A probability as a percentage with one decimal."""
    return "" if value is None else f"{100 * value:.1f}%"


@register.filter
def severity_name(severity: str) -> str:
    return {"none": _("none"), "small": _("small"), "big": _("big")}.get(severity, severity)
