"""``{% ladder_standing as standing %}`` and ``{% play_progress standing %}``: the points won
in played matches on the progress page, the only points the JX-11 ladder counts (issue 18:
puzzle progress is the rating). Tags, so that the puzzles' page shows play's figures
without the puzzles importing play (tests/test_import_cycles.py)."""

from __future__ import annotations

from typing import Any

from django import template
from django.db.models import Count

from games.training.puzzles import Standing

register = template.Library()


@register.simple_tag(takes_context=True)
def ladder_standing(context: template.Context) -> Standing:
    """Where the visitor stands on the JX-11 ladder
    (:func:`replays.play.services.ladder_standing`)."""
    from replays.play.services import ladder_standing as standing_of

    return standing_of(context["request"])


@register.filter
def bot_level(level: str) -> str:
    """A played match's bots' level as the site names it (easy, normal, hard)."""
    from replays.play.levels import label_of

    return str(label_of(level))


@register.inclusion_tag("play/progress.html", takes_context=True)
def play_progress(context: template.Context, standing: Standing) -> dict[str, Any]:
    """The play section: matches finished, the points won in them and where those stand on
    the ladder (``standing``, from :func:`replays.play.services.ladder_standing`)."""
    from replays.play.levels import label_of
    from replays.play.services import mine

    request = context["request"]
    finished = mine(request).filter(over=True)
    counts = finished.values("level").annotate(n=Count("id")).order_by("level")
    return {"played": standing.points, "standing": standing, "matches": finished.count(),
            # The ladder adds up matches played at any level: which ones, it says.
            "by_level": [{"label": label_of(row["level"]), "n": row["n"]} for row in counts]}


@register.simple_tag(takes_context=True)
def table_announcement(context: template.Context) -> str:
    """The table's news for the page's live region (``data-announce`` on ``#play-table``,
    issue 32): the moves since the seat's last one and what is asked now, as JSON; empty
    before a table with friends starts."""
    from replays.play.table import announcement

    view = context.get("view") or {}
    if "moves" not in context or not view.get("seats"):
        return ""
    return announcement(list(context["moves"]), view, context.get("claim"),
                        str(context.get("waiting") or ""))
