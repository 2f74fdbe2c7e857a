"""Every step of a replay is a URL: building them (the viewer, the analysis panel and the
puzzles link to moments of replays)."""

from __future__ import annotations

import functools
from typing import Any

from django.urls import reverse

from replays.models import Match


def step_url(match: Match, hand: int, step: int, seat: int | None,
             spoilers: bool = True, bottom: int | None = None, danger: bool = False) -> str:
    """The bookmarkable URL of one step (keeping the seat's view, the seat drawn at the bottom
    when every seat is shown, spoiler-free mode and the danger of the seat's tiles)."""
    query = f"hand={hand}&step={step}"
    if seat is not None:
        query += f"&seat={seat}"
    elif bottom:
        query += f"&bottom={bottom}"
    if not spoilers:
        query += "&spoilers=0"
    if danger and seat is not None:
        query += "&danger=1"
    return f"{viewer_path(match.public_id)}?{query}"


@functools.lru_cache(maxsize=4096)
def viewer_path(public_id: str) -> str:
    """The viewer's path for a match; a step's page builds a dozen links to it, and reversing
    each costs more than the rest of building them."""
    return reverse("viewer", args=[public_id])


def viewer_links(match: Match, board: Any, seat: int | None,
                 spoilers: bool = True, danger: bool = False) -> dict[str, str | None]:
    """The viewer's controls: first/previous/next/last step and hand, each seat's view, the
    spoiler-free mode (or back), the danger of the seat's tiles (on or off) and the match
    overview."""
    bottom = board.bottom if seat is None else None

    def url(hand: int, step: int, viewer_seat: int | None = seat) -> str:
        return step_url(match, hand, step, viewer_seat, spoilers, bottom, danger)

    hand, step, steps = board.hand_number, board.step, board.steps
    links: dict[str, str | None] = {
        "first": url(hand, 0) if step > 0 else None,
        "previous": url(hand, step - 1) if step > 0 else None,
        "next": url(hand, step + 1) if step < steps else None,
        "last": url(hand, steps) if step < steps else None,
        "previous_hand": url(hand - 1, 0) if hand > 1 else None,
        "next_hand": url(hand + 1, 0) if hand < board.hand_count else None,
        "all_seats": step_url(match, hand, step, None, spoilers, seat),
        "spoilers": step_url(match, hand, step, seat, not spoilers, bottom, danger),
        "danger": (step_url(match, hand, step, seat, spoilers, bottom, not danger)
                   if seat is not None else None),
        "overview": reverse("overview", args=[match.public_id]),
    }
    for s in range(4):
        links[f"seat{s}"] = url(hand, step, s)
    return links
