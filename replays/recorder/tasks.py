"""Beat's upkeep of recordings (docs/recorder.md): anonymous drafts nobody came back to.

``expire_stale_recordings`` deletes the unfinished recordings of anonymous recorders
untouched for ``RECORD_ANONYMOUS_EXPIRE_HOURS`` (their session may be long gone), a batch
at a time, each batch its own transaction and a bounded number per run; the condition is
checked again as the rows go, so a draft saved meanwhile is kept. Signed-in recorders'
drafts and finished recordings (the replay is a stored match) are never expired.
"""

from __future__ import annotations

import datetime as dt
import logging

from celery import shared_task
from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from replays.expiry import delete_in_batches
from replays.models import SeatRecord

log = logging.getLogger(__name__)
EXPIRE_BATCH = 500  # recordings deleted per transaction
EXPIRE_BATCHES = 20  # batches per run: the rest waits for the next run


def stale(now: dt.datetime | None = None) -> QuerySet[SeatRecord]:
    """Anonymous unfinished recordings untouched for ``RECORD_ANONYMOUS_EXPIRE_HOURS``."""
    hours = settings.RECORD_ANONYMOUS_EXPIRE_HOURS
    cutoff = (now or timezone.now()) - dt.timedelta(hours=hours)
    return SeatRecord.objects.filter(owner__isnull=True, match__isnull=True,
                                     updated_at__lt=cutoff)


@shared_task(name="replays.tasks.expire_stale_recordings", acks_late=True, ignore_result=True)
def expire_stale_recordings(batch: int = EXPIRE_BATCH, batches: int = EXPIRE_BATCHES) -> int:
    """Delete stale anonymous drafts, ``batch`` at a time, at most ``batches`` times;
    returns how many were deleted."""
    now = timezone.now()
    deleted = delete_in_batches(lambda: stale(now), batch, batches)
    if deleted:
        log.info("expire_stale_recordings: %d anonymous drafts untouched for %d hours deleted",
                 deleted, settings.RECORD_ANONYMOUS_EXPIRE_HOURS)
    return deleted
