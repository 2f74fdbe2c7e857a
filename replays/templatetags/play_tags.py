"""``{% play_progress progress %}``: the points won in played matches on the progress page,
added to the puzzle points on the JX-11 ladder (issue 14)."""

from __future__ import annotations

from typing import Any

from django import template

from games.puzzles import standing

register = template.Library()


@register.inclusion_tag("play/progress.html", takes_context=True)
def play_progress(context: template.Context, progress: Any) -> dict[str, Any]:
    from replays.play.services import mine, points_of

    request = context["request"]
    played = points_of(request)
    puzzle_points = int(getattr(progress, "points", 0))
    return {"played": played, "puzzle_points": puzzle_points,
            "matches": mine(request).filter(over=True).count(),
            "standing": standing(puzzle_points + played)}
