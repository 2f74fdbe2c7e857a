"""Beat's upkeep of played matches (issue 24): anonymous matches nobody came back to.

``expire_stale_matches`` deletes the unfinished matches of anonymous players untouched for
``PLAY_ANONYMOUS_EXPIRE_HOURS``: their session may be long gone, and each holds a dealt
match's state. It is idempotent and goes a batch at a time (each batch its own
transaction, a bounded number per run); a match a player acts on meanwhile is kept (the
condition is checked again as the rows are deleted, and its row lock is waited for).
Signed-in players' matches and finished ones are never expired.
"""

from __future__ import annotations

import datetime as dt
import logging

from celery import shared_task
from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from replays.expiry import delete_in_batches
from replays.models import PlayedMatch

log = logging.getLogger(__name__)
EXPIRE_BATCH = 500  # matches deleted per transaction
EXPIRE_BATCHES = 20  # batches per run: the rest waits for the next run


def stale(now: dt.datetime | None = None) -> QuerySet[PlayedMatch]:
    """Anonymous unfinished matches untouched for ``PLAY_ANONYMOUS_EXPIRE_HOURS``."""
    cutoff = (now or timezone.now()) - dt.timedelta(hours=settings.PLAY_ANONYMOUS_EXPIRE_HOURS)
    return PlayedMatch.objects.filter(owner__isnull=True, over=False, updated_at__lt=cutoff)


@shared_task(name="replays.tasks.expire_stale_matches", acks_late=True, ignore_result=True)
def expire_stale_matches(batch: int = EXPIRE_BATCH, batches: int = EXPIRE_BATCHES) -> int:
    """Delete stale anonymous matches, ``batch`` at a time, at most ``batches`` times;
    returns how many were deleted."""
    now = timezone.now()
    deleted = delete_in_batches(lambda: stale(now), batch, batches)
    if deleted:
        log.info("expire_stale_matches: %d anonymous matches untouched for %d hours deleted",
                 deleted, settings.PLAY_ANONYMOUS_EXPIRE_HOURS)
    return deleted
