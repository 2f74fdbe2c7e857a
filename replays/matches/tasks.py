"""Checking a large upload on the workers (issue 24), and beat's tending of those checks.

An upload above ``UPLOAD_SYNC_BYTES`` is kept as an :class:`UploadCheck` by the request
(its bytes paid from the uploader's budget) and checked here, away from the web workers:
:func:`check_upload` takes the row's primary key, is idempotent (a finished check is not
run again; the row is locked while it runs, so a redelivered message waits or finds it
done), acknowledged late, retried with backoff on a fault of the site and limited in time.
The document is stored whole with its match, or refused with the engine's sentence kept
as template and parameters; either way the row keeps the outcome for the page that polls
it, and its bytes are dropped. A fault that outlives the retries marks the check failed
(nothing is stored; the uploader is asked to upload again).

``tend_upload_checks`` (beat, ``BEAT_UPLOAD_CHECKS_SECONDS``) sends the checks kept while
the broker was down, fails those left open for longer than ``UPLOAD_CHECK_KEEP_HOURS`` and
deletes finished ones older than that, a batch at a time.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from replays import limits
from replays.matches.engine_refusals import to_json
from replays.matches.services import DuplicateUpload, UploadError, store_document
from replays.models import UploadCheck
from replays.retries import RetriedWithBackoff

log = logging.getLogger(__name__)
TEND_BATCH = 200  # checks sent, failed or deleted per run of tend_upload_checks


def send_check(check_id: int) -> bool:
    """Send a kept upload to the workers (after its row commits); False when the broker
    could not be reached: it waits, marked, for beat's ``tend_upload_checks``."""
    UploadCheck.objects.filter(pk=check_id).update(queued_at=timezone.now())
    try:
        check_upload.delay(check_id)
    except Exception as error:  # noqa: BLE001 - any broker failure: sent again by beat
        log.warning("upload check %s waits for the broker: %s: %s", check_id,
                    type(error).__name__, error)
        UploadCheck.objects.filter(pk=check_id, status__in=UploadCheck.OPEN).update(
            queued_at=None)
        return False
    return True


class ChecksAnUpload(RetriedWithBackoff):
    soft_time_limit = settings.UPLOAD_CHECK_SOFT_TIME_LIMIT
    time_limit = settings.UPLOAD_CHECK_SOFT_TIME_LIMIT + 30

    def on_failure(self, exc: Exception, task_id: str, args: tuple[Any, ...],
                   kwargs: dict[str, Any], einfo: Any) -> None:
        """Retried in vain: the check failed on the site's side; nothing was stored."""
        check_id = int(kwargs.get("check_id", args[0] if args else 0))
        log.error("checking upload %s failed", check_id, exc_info=exc)
        UploadCheck.objects.filter(pk=check_id, status__in=UploadCheck.OPEN).update(
            status=UploadCheck.Status.FAILED, document=b"", finished_at=timezone.now())


@shared_task(name="replays.tasks.check_upload", base=ChecksAnUpload)
def check_upload(check_id: int) -> None:
    """Check one kept upload (by primary key) and store it or record its refusal."""
    UploadCheck.objects.filter(pk=check_id, status=UploadCheck.Status.QUEUED).update(
        status=UploadCheck.Status.CHECKING)
    with transaction.atomic():
        # Locked while it is checked: a second delivery skips it (and finds it done later).
        check = (UploadCheck.objects.select_for_update(skip_locked=True)
                 .filter(pk=check_id, status__in=UploadCheck.OPEN).first())
        if check is None:
            return  # done, deleted, or being checked by another delivery
        with translation.override(check.language or settings.LANGUAGE_CODE):
            _check(check)
        check.document = b""
        check.finished_at = timezone.now()
        check.save()


def _check(check: UploadCheck) -> None:
    """Store the kept document or record why not, on ``check`` (saved by the caller)."""
    payer = limits.Payer(check.payer, check.owner_id)
    try:
        with transaction.atomic():  # the match and its hands, whole or not at all
            check.match = store_document(
                bytes(check.document), owner=check.owner, visibility=check.visibility,
                title=check.title, uploader_seat=check.uploader_seat, payer=payer)
        check.status = UploadCheck.Status.STORED
    except DuplicateUpload as duplicate:
        check.status, check.match, check.duplicate = (
            UploadCheck.Status.REFUSED, duplicate.existing, True)
        check.refusal = {"message": _("this document was uploaded before")}
    except UploadError as error:
        check.status = UploadCheck.Status.REFUSED
        check.refusal = {"message": to_json(error.message), "hand": error.hand,
                         "event": error.event, "rule": error.rule}
    except limits.BudgetSpent as spent:
        check.status = UploadCheck.Status.REFUSED
        check.refusal = {"message": str(spent)}
    except SoftTimeLimitExceeded:
        check.status = UploadCheck.Status.REFUSED
        check.refusal = {"message": _(
            "the document took longer than %(n)d seconds to check; the limit keeps the "
            "site's workers free for everyone: upload it in parts") % {
            "n": settings.UPLOAD_CHECK_SOFT_TIME_LIMIT}}


@shared_task(name="replays.tasks.tend_upload_checks", acks_late=True, ignore_result=True)
def tend_upload_checks() -> dict[str, int]:
    """Send the checks that waited for the broker, fail the ones open for too long and
    delete old finished ones; one batch of each per run (beat runs it every minute)."""
    cutoff = timezone.now() - dt.timedelta(hours=settings.UPLOAD_CHECK_KEEP_HOURS)
    waiting = list(UploadCheck.objects.filter(
        status=UploadCheck.Status.QUEUED, queued_at__isnull=True, created_at__gte=cutoff)
        .order_by("created_at", "pk").values_list("pk", flat=True)[:TEND_BATCH])
    sent = sum(send_check(check_id) for check_id in waiting)
    stale = list(UploadCheck.objects.filter(status__in=UploadCheck.OPEN, created_at__lt=cutoff)
                 .values_list("pk", flat=True)[:TEND_BATCH])
    failed = UploadCheck.objects.filter(pk__in=stale, status__in=UploadCheck.OPEN).update(
        status=UploadCheck.Status.FAILED, document=b"", finished_at=timezone.now())
    old = list(UploadCheck.objects.filter(finished_at__lt=cutoff)
               .values_list("pk", flat=True)[:TEND_BATCH])
    deleted, _kinds = UploadCheck.objects.filter(pk__in=old).delete()
    if sent or failed or deleted:
        log.info("tend_upload_checks: %d sent, %d failed as stale, %d deleted", sent,
                 failed, deleted)
    return {"sent": sent, "failed": failed, "deleted": deleted}
