"""Puzzle tasks on Celery: harvesting puzzles from annotated public replays, and Celery
beat's daily roll (mahjong_site/settings.py CELERY_BEAT_SCHEDULE, docs/deploy.md).

The task names are the ones they had before the site was split into parts
(``replays.tasks.…``): queued messages, the beat schedule and task routes keep working.
"""

from __future__ import annotations

import logging

from celery import shared_task

from replays.models import Match
from replays.puzzles.services import harvest, roll_days

log = logging.getLogger(__name__)

MAX_RETRIES = 3


@shared_task(name="replays.tasks.harvest_puzzles", bind=True, acks_late=True,
             ignore_result=True, max_retries=MAX_RETRIES)
def harvest_puzzles(self, match_id: int) -> None:  # type: ignore[no-untyped-def]
    """Turn an annotated public replay's ready hands into puzzles (idempotent: one
    puzzle per replay spot)."""
    match = Match.objects.filter(pk=match_id, visibility=Match.Visibility.PUBLIC,
                                 hidden=False).first()
    if match is None:
        return
    try:
        harvest(match)
    except Exception as error:  # noqa: BLE001 - retried, then logged; puzzles are optional
        if self.request.retries < MAX_RETRIES and not self.request.is_eager:
            raise self.retry(exc=error, countdown=2 ** self.request.retries) from error
        log.exception("harvesting puzzles from match %s failed", match_id)


@shared_task(name="replays.tasks.roll_daily_puzzles", acks_late=True, ignore_result=True)
def roll_daily_puzzles(days: int = 2) -> int:
    """Roll today's and tomorrow's daily puzzles of every variant; a day already rolled (or
    pinned by staff) is kept, so running it again changes nothing."""
    return len(roll_days(days))

