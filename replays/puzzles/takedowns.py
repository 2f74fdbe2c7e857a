"""Takedowns reach puzzles (issue 16): a replay hidden by staff, made unlisted or private by
its owner, or deleted takes its puzzles off the site; so does a player who stops letting
the site make puzzles of their played matches (issue 18), for those matches' puzzles.

Hidden and private replays keep their puzzle rows, shown nowhere (``shown_puzzles``) and
back if the replay is made public again; a deleted replay's puzzles are deleted with it.
Either way a daily puzzle taken from it, today's or a later day's, is rolled again: a day's
puzzle is the same for everyone, but never one showing a hand its owner took down.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from replays.models import DailyPuzzle, Match, Puzzle
from replays.puzzles import services

log = logging.getLogger(__name__)


def take_down(match_ids: Iterable[int]) -> int:
    """After matches stopped being public (hidden, unlisted, private): re-roll the daily
    puzzles taken from them, today's and later. Returns how many days were rolled again."""
    ids = list(match_ids)
    taken = Match.objects.filter(pk__in=ids).exclude(
        visibility=Match.Visibility.PUBLIC, hidden=False).values_list("pk", flat=True)
    return _reroll(DailyPuzzle.objects.filter(puzzle__match_id__in=list(taken),
                                              day__gte=services.puzzle_day()))


def take_down_played(user_id: int) -> int:
    """After a player stopped letting the site make puzzles of their played matches (the
    puzzles are hidden by ``shown_puzzles`` at once): re-roll the daily puzzles taken from
    them, today's and later. Returns how many days were rolled again."""
    return _reroll(DailyPuzzle.objects.filter(
        puzzle__source=Puzzle.Source.PLAYED, puzzle__match__owner_id=user_id,
        day__gte=services.puzzle_day()))


def delete_puzzles_of(sender: Any, instance: Match, **kwargs: Any) -> None:
    """``pre_delete`` of a match: its puzzles (with their attempts) and every daily row
    naming them go; today's and later days are rolled again (in the deletion's transaction:
    all of it happens, or none)."""
    dailies = DailyPuzzle.objects.filter(puzzle__match=instance)
    days = list(dailies.filter(day__gte=services.puzzle_day()).values_list("day", "variant"))
    dailies.delete()
    Puzzle.objects.filter(match=instance).delete()
    _roll(days)


def _reroll(rows: Any) -> int:
    days = list(rows.values_list("day", "variant"))
    rows.delete()
    _roll(days)
    return len(days)


def _roll(days: list[tuple[Any, str]]) -> None:
    for day, variant in days:
        chosen = services.daily(variant, day)
        log.warning("takedown: the %s daily puzzle of %s was rolled again: now %s", variant,
                    day, chosen.puzzle.public_id)
