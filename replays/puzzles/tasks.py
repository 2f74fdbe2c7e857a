"""Puzzle tasks on Celery: harvesting puzzles from annotated public replays, and Celery
beat's daily roll (mahjong_site/settings.py CELERY_BEAT_SCHEDULE, docs/deploy.md).

The task names are the ones they had before the site was split into parts
(``replays.tasks.…``): queued messages, the beat schedule and task routes keep working.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task

from replays.models import Match, PlayedMatch
from replays.puzzles.services import harvest, harvest_played, roll_days
from replays.retries import RetriedWithBackoff

log = logging.getLogger(__name__)

class HarvestPuzzles(RetriedWithBackoff):
    def on_failure(self, exc: Exception, task_id: str, args: tuple[Any, ...],
                   kwargs: dict[str, Any], einfo: Any) -> None:
        """Retried in vain: logged only, since puzzles are optional."""
        match_id = kwargs.get("match_id", args[0] if args else None)
        log.error("harvesting puzzles from match %s failed", match_id, exc_info=exc)


@shared_task(name="replays.tasks.harvest_puzzles", base=HarvestPuzzles)
def harvest_puzzles(match_id: int) -> None:
    """Turn an annotated public replay's ready hands into puzzles (idempotent: one
    puzzle per replay spot), or a played match's from its player's seat when the player
    lets the site make them (``harvest_played`` checks); retried with backoff."""
    match = Match.objects.filter(pk=match_id, hidden=False).first()
    if match is None:
        return
    if match.publishable:
        harvest(match)
    else:
        harvest_played(match)


@shared_task(name="replays.tasks.harvest_played_puzzles", base=HarvestPuzzles)
def harvest_played_puzzles(user_id: int) -> None:
    """A player just let the site make puzzles of their played matches: harvest every
    finished one they played signed in (idempotent: a match harvested before finds its
    puzzles again; nothing is made if the player has turned it off again since)."""
    replays = PlayedMatch.objects.filter(owner_id=user_id, over=True, signed_in=True,
                                         replay__isnull=False).values_list("replay", flat=True)
    for match in Match.objects.filter(pk__in=list(replays), hidden=False).order_by("pk"):
        harvest_played(match)


@shared_task(name="replays.tasks.roll_daily_puzzles", acks_late=True, ignore_result=True)
def roll_daily_puzzles(days: int = 2) -> int:
    """Roll today's and tomorrow's daily puzzles of every variant; a day already rolled (or
    pinned by staff) is kept, so running it again changes nothing."""
    return len(roll_days(days))

