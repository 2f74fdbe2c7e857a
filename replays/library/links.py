"""Every step of a replay is a URL: building them (the viewer, the analysis panel and the
puzzles link to moments of replays)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.urls import reverse

from replays.models import Match


def step_url(match: Match, hand: int, step: int, seat: int | None,
             spoilers: bool = True, bottom: int | None = None) -> str:
    """The bookmarkable URL of one step (keeping the seat's view, the seat drawn at the bottom
    when every seat is shown, and spoiler-free mode)."""
    query: dict[str, int] = {"hand": hand, "step": step}
    if seat is not None:
        query["seat"] = seat
    elif bottom:
        query["bottom"] = bottom
    if not spoilers:
        query["spoilers"] = 0
    return f"{match.get_absolute_url()}?{urlencode(query)}"


def viewer_links(match: Match, board: Any, seat: int | None,
                 spoilers: bool = True) -> dict[str, str | None]:
    """The viewer's controls: first/previous/next/last step and hand, each seat's view, the
    spoiler-free mode (or back) and the match overview."""
    bottom = board.bottom if seat is None else None

    def url(hand: int, step: int, viewer_seat: int | None = seat) -> str:
        return step_url(match, hand, step, viewer_seat, spoilers, bottom)

    hand, step, steps = board.hand_number, board.step, board.steps
    links: dict[str, str | None] = {
        "first": url(hand, 0) if step > 0 else None,
        "previous": url(hand, step - 1) if step > 0 else None,
        "next": url(hand, step + 1) if step < steps else None,
        "last": url(hand, steps) if step < steps else None,
        "previous_hand": url(hand - 1, 0) if hand > 1 else None,
        "next_hand": url(hand + 1, 0) if hand < board.hand_count else None,
        "all_seats": step_url(match, hand, step, None, spoilers, seat),
        "spoilers": step_url(match, hand, step, seat, not spoilers, bottom),
        "overview": reverse("overview", args=[match.public_id]),
    }
    for s in range(4):
        links[f"seat{s}"] = url(hand, step, s)
    return links
