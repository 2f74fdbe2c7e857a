"""The values pass in words: a mistake's explanation, translated (docs/analysis.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import template
from django.template.defaultfilters import floatformat
from django.utils.safestring import SafeString
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from replays.kept import Kept, in_each_language
from replays.markup import html
from replays.templatetags.tiles import action_text, score_title, score_value, tile_code, tile_name

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


@register.simple_tag
def alternative_rows(decision: dict[str, Any]) -> SafeString:
    """The rows of a decision's table of alternatives, best first.

    Built here rather than in the template: a step shows up to a dozen alternatives, each
    with its waits, and the template's loop over them was most of a step's render time."""
    labels = _labels()
    actual, values = decision.get("actual"), decision.get("values")
    cannot = frozenset(values.get("cannot", ())) if values else frozenset()
    # No winning line (issue 26): no row is shown as the best, the engine's first included.
    no_line = bool(values and values.get("no_winning_line"))
    return SafeString("".join(_alternative_row(alt, actual, bool(values), cannot, labels,
                                               no_line)
                              for alt in decision["alternatives"]))


@register.simple_tag
def alternatives_head(decision: dict[str, Any]) -> SafeString:
    """The head of a decision's table of alternatives (with the value columns when valued)."""
    return _head(bool(decision.get("values")))


@in_each_language(at_most=32)
def _head(valued: bool) -> SafeString:
    names = [_("Rank"), _("Choice"), _("Shanten"), _("Accepted"), _("Waits"),
             _("With the real wall")]
    if valued:
        names += [_("Win chance"), _("Expected points"), _("Against the best")]
    return html("<thead><tr>{}</tr></thead>", SafeString("".join(
        html("<th>{}</th>", name) for name in names)))


@in_each_language(at_most=16)
def _labels() -> dict[str, str]:
    """The table's fixed words in the reader's language."""
    return {"rank": _("Rank"), "shanten": _("Shanten"), "accepted": _("Accepted"),
            "waits": _("Waits"), "wall": _("With the real wall"), "win": _("Win chance"),
            "points": _("Expected points"), "against": _("Against the best"),
            "best_title": _("Best by value"), "best": _("best"), "wins": _("win"),
            "no_win": _("no win with these draws"), "not_played": _("not played out"),
            "cannot": _("not a choice here: no discard leaves the hand ready (PT-5.3)")}


def _alternative_row(alt: dict[str, Any], actual: int | None, valued: bool,
                     cannot: frozenset[int], labels: dict[str, str],
                     no_line: bool = False) -> SafeString:
    is_actual = alt["index"] == actual
    classes = ("best" if alt["rank"] == 1 and not no_line else "") + (
        " actual" if is_actual else "")
    action = alt["action"]
    value = alt.get("value")
    choice = html(
        "{}{}{}", html("{} ", tile_code(action["tile"]))
        if action.get("type") == "discard" else "", action_text(action),
        html(' <span class="best-value" title="{}">★ {}</span>', labels["best_title"],
             labels["best"]) if value and value.get("is_best") else "")
    win = alt.get("win")
    shanten = (f"{labels['wins']} ({win.get('points')})" if win
               else "–" if alt.get("shanten") is None else alt["shanten"])
    accepted = alt.get("accepted_count")
    cells = html(
        '<td data-label="{}">{}{}</td><td class="alt-choice">{}</td>'
        '<td data-label="{}">{}</td><td data-label="{}">{}</td>'
        '<td class="alt-waits" data-label="{}">{}</td><td class="alt-wall" data-label="{}">{}</td>',
        labels["rank"], alt["rank"], " ◀" if is_actual else "", choice,
        labels["shanten"], shanten, labels["accepted"], "" if accepted is None else accepted,
        labels["waits"], SafeString("".join(_wait(w) for w in alt.get("waits", []))),
        labels["wall"], _counterfactual(alt.get("counterfactual"), labels))
    if valued:
        cells = html("{}{}", cells, _value_cells(value, alt["index"] in cannot, labels))
    return html('<tr data-alternative="{}" class="{}">{}</tr>', alt["index"], classes, cells)


def _wait(wait: dict[str, Any]) -> SafeString:
    remaining = wait.get("remaining", 0)
    return html(
        '<span class="wait" title="{}">{} <span class="wait-value">{}</span> '
        '<span class="wait-left">{}</span></span> ', score_title(wait.get("score")),
        tile_code(wait["tile"]), score_value(wait.get("score")),
        ngettext("%(n)s left", "%(n)s left", remaining) % {"n": remaining})


def _counterfactual(found: dict[str, Any] | None, labels: dict[str, str]) -> str:
    if not found:
        return ""
    if not found.get("win"):
        return labels["no_win"]
    return _("wins on draw %(n)s (%(t)s) for %(p)s points") % {
        "n": found.get("draw"), "t": tile_name(str(found.get("tile", ""))),
        "p": found.get("points")}


def _value_cells(value: dict[str, Any] | None, not_a_choice: bool,
                 labels: dict[str, str]) -> SafeString:
    if not value:
        return html(
            '<td class="alt-win" data-label="{}">–</td><td class="alt-points" data-label="{}">'
            '–</td><td class="alt-value" data-label="{}">{}</td>', labels["win"],
            labels["points"], labels["against"],
            labels["cannot"] if not_a_choice else labels["not_played"])
    low, high = value["ci95"]["expected_points"]
    severity = value.get("severity", "")
    verdict = (labels["best"] if value.get("is_best") else "–" if value.get("no_line")
               else html('−{} <span class="severity severity-{}">{}</span>',
                         floatformat(value["loss"], 2), severity, severity_name(severity)))
    interval = _("95%% interval %(lo)s to %(hi)s") % {"lo": low, "hi": high}
    # The interval is a tooltip on wide screens; phones have no hover, so there it is shown.
    shown = "" if value.get("exact") else html(' ±<span class="alt-interval"> ({})</span>',
                                                interval)
    return html(
        '<td class="alt-win" data-label="{}">{}</td>'
        '<td class="alt-points" data-label="{}" title="{}">{}{}</td>'
        '<td class="alt-value" data-label="{}"><svg class="value-bar" viewBox="0 0 100 8" '
        'preserveAspectRatio="none" role="img" aria-label="{}%"><rect class="bar-track" '
        'width="100" height="8"/><rect class="severity-{}" width="{}" height="8"/></svg> {}</td>',
        labels["win"], percent(value.get("win_probability")), labels["points"], interval,
        floatformat(value["expected_points"], 2), shown,
        labels["against"], value["bar"], severity, value["bar"], verdict)


@register.simple_tag(takes_context=True)
def step_summaries(context: template.Context) -> SafeString:
    """The hand's and the match's summaries under the panel (``annotation/_summaries.html``).

    They are the same on every step of a hand, so once both passes are done (the panel's
    ``summary_key`` is set) each is drawn once per process and language, then reused."""
    key = context["analysis"].get("summary_key")
    if key is None:
        return _render_summaries(context)
    return _KEPT_SUMMARIES.get_or_make((*key, get_language()),
                                       lambda: _render_summaries(context))


def _render_summaries(context: template.Context) -> SafeString:
    assert context.template is not None
    summaries = context.template.engine.get_template("annotation/_summaries.html")
    with context.render_context.push_state(summaries):
        return SafeString(summaries.render(context))


# Drawn summaries by (panel's key, language), oldest first; bounded (a few kB each).
_KEPT_SUMMARIES: Kept[tuple[Any, ...], SafeString] = Kept(at_most=512)
