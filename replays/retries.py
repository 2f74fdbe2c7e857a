"""How the site's Celery tasks retry: Celery's own ``autoretry_for``/``retry_backoff``.

On a worker a failing task is retried after 1, 2 and 4 seconds, then fails for good, and
its ``on_failure`` records why. In-process (no broker, ``CELERY_TASK_ALWAYS_EAGER``) a
failure is final at once: the request that queued the task does not run it four times.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from celery.exceptions import Retry

from replays.inprocess import SiteTask

MAX_RETRIES = 3


class RetriedWithBackoff(SiteTask):
    """Retried on any exception, after 1, 2, 4 s (no jitter: the waits are documented)."""

    autoretry_for = (Exception,)
    retry_backoff = True
    retry_jitter = False
    max_retries = MAX_RETRIES
    acks_late = True
    ignore_result = True
    # A final failure is logged once, with its traceback, by the task's on_failure (which
    # says which hand or match); Celery then notes it at INFO instead of a second traceback.
    throws = (Exception,)

    def retry(self, args: tuple[Any, ...] | None = None, kwargs: dict[str, Any] | None = None,
              exc: Exception | None = None, throw: bool = True,
              eta: dt.datetime | None = None, countdown: float | None = None,
              max_retries: int | None = None, **options: Any) -> Retry:
        if self.request.is_eager and exc is not None:
            raise exc  # in-process: final at once (on_failure records it)
        return super().retry(args, kwargs, exc, throw, eta, countdown, max_retries, **options)


class FailsItsMatch(RetriedWithBackoff):
    """A task on one hand (its first argument, ``hand_id``) whose final failure fails its
    match's pass: ``status_field`` becomes failed and ``error_field`` names the hand and
    the error. ``doing`` words the pass for the log ("annotating", "valuing")."""

    doing = "running"
    status_field = ""
    error_field = ""

    def on_failure(self, exc: Exception, task_id: str, args: tuple[Any, ...],
                   kwargs: dict[str, Any], einfo: Any) -> None:
        """Retried in vain: the match's pass is failed, naming the hand and the error."""
        from replays.models import Hand, Match

        hand_id = int(kwargs.get("hand_id", args[0] if args else 0))
        logging.getLogger(type(self).__module__).error(
            "%s hand %s failed", self.doing, hand_id, exc_info=exc)
        hand = Hand.objects.filter(pk=hand_id).only("number", "match_id").first()
        if hand is not None:
            Match.objects.filter(pk=hand.match_id).update(**{
                self.status_field: Match.Status.FAILED,
                self.error_field: f"hand {hand.number}: {type(exc).__name__}: {exc}"[:2000]})
