"""Annotation on Celery: one task per hand, taking primary keys (docs/analysis.md).

Tasks are idempotent — one annotation per hand and engine version, replaced
atomically when rerun — acknowledged late (a worker killed mid-hand leaves the
message for another), retried with backoff, and limited in time.

The task names are the ones they had before the site was split into parts
(``replays.tasks.…``): queued messages, the beat schedule and task routes keep working.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.analysis import ENGINE_VERSION, analyze_hand
from games.table import TABLES
from replays.library.board import replayed_match
from replays.models import Annotation, Hand, Match
from replays.operations import health
from replays.puzzles.tasks import harvest_puzzles
from replays.retries import RetriedWithBackoff

log = logging.getLogger(__name__)


def queue_match(match_id: int) -> None:
    """Queue every hand of a match (call after the upload commits)."""
    Match.objects.filter(pk=match_id).update(annotation_status=Match.Status.QUEUED,
                                             annotation_error="",
                                             annotation_queued_at=timezone.now())
    for hand_id in Hand.objects.filter(match_id=match_id).values_list("pk", flat=True):
        annotate_hand.delay(hand_id)


class AnnotateHand(RetriedWithBackoff):
    def on_failure(self, exc: Exception, task_id: str, args: tuple[Any, ...],
                   kwargs: dict[str, Any], einfo: Any) -> None:
        """Retried in vain: the match is failed, with the hand and the error."""
        hand_id = int(kwargs.get("hand_id", args[0] if args else 0))
        log.error("annotating hand %s failed", hand_id, exc_info=exc)
        hand = Hand.objects.filter(pk=hand_id).only("number", "match_id").first()
        if hand is not None:
            Match.objects.filter(pk=hand.match_id).update(
                annotation_status=Match.Status.FAILED,
                annotation_error=f"hand {hand.number}: {type(exc).__name__}: {exc}"[:2000])


@shared_task(name="replays.tasks.annotate_hand", base=AnnotateHand)
def annotate_hand(hand_id: int) -> None:
    """Annotate one hand (by primary key); safe to run twice. Any failure is retried with
    backoff, then recorded on the match (:class:`AnnotateHand`).

    Time limits come from the settings (CELERY_TASK_SOFT_TIME_LIMIT / _TIME_LIMIT).
    """
    hand = Hand.objects.select_related("match").filter(pk=hand_id).first()
    if hand is None:
        return  # deleted since it was queued
    match = hand.match
    Match.objects.filter(pk=match.pk, annotation_status=Match.Status.QUEUED).update(
        annotation_status=Match.Status.RUNNING)
    data = annotate(match, hand.number)
    with transaction.atomic():
        # Lock the match so that tasks finishing its last hands together count in turn.
        Match.objects.select_for_update().filter(pk=match.pk).first()
        Annotation.objects.update_or_create(hand=hand, engine_version=ENGINE_VERSION,
                                            defaults={"data": data})
        done = Annotation.objects.filter(hand__match=match,
                                         engine_version=ENGINE_VERSION).count()
        if done >= match.hand_count:
            finished = Match.objects.filter(pk=match.pk).exclude(
                annotation_status__in=[Match.Status.FAILED, Match.Status.DONE]).update(
                annotation_status=Match.Status.DONE)
            if finished and match.visibility == Match.Visibility.PUBLIC:
                transaction.on_commit(lambda: harvest_puzzles.delay(match.pk))


def annotate(match: Match, number: int) -> dict[str, object]:
    """The analysis of one stored hand, as JSON."""
    data = replayed_match(match)
    table = TABLES[data.match.variant](data.setups[number - 1])
    return analyze_hand(table, data.match.hands[number - 1].events, number).to_json()


def progress(match: Match) -> tuple[int, int]:
    """Hands annotated by the current engine, and hands in all."""
    done = Annotation.objects.filter(hand__match=match, engine_version=ENGINE_VERSION).count()
    return done, match.hand_count


# -- Celery beat (mahjong_site/settings.py CELERY_BEAT_SCHEDULE, docs/deploy.md) ----------

WAITING = (Match.Status.QUEUED, Match.Status.RUNNING)
REQUEUE_BATCH = 200  # matches looked at per run of requeue_stuck



def waiting_since() -> Coalesce:
    """When a queued or running match was queued (matches stored before the field existed:
    their upload)."""
    return Coalesce("annotation_queued_at", "uploaded_at")


@shared_task(name="replays.tasks.requeue_stuck", acks_late=True, ignore_result=True)
def requeue_stuck() -> int:
    """Put the hands of stuck matches back on the queue; returns how many hands.

    A match is stuck when it has been queued or running for longer than
    ``ANNOTATION_STUCK_MINUTES``, none of its annotations was written meanwhile, and the
    broker has no message waiting (a backlog is not a loss: its matches wait their turn).
    Only its hands without an annotation by the current engine are queued again, and its
    clock restarts, so a match is requeued at most once per period. A stuck match whose
    hands are all annotated (its last messages were lost after the work was done) is
    marked done.
    """
    backlog = health.queue_length()
    if backlog.waiting:
        log.info("requeue_stuck: %s messages still wait on the broker; nothing requeued",
                 backlog.waiting)
        return 0
    now = timezone.now()
    cutoff = now - dt.timedelta(minutes=settings.ANNOTATION_STUCK_MINUTES)
    candidates = list(_stuck(cutoff).order_by("since", "pk").values_list(
        "pk", flat=True)[:REQUEUE_BATCH])
    return sum(_requeue(match_id, cutoff, now) for match_id in candidates)


def _stuck(cutoff: dt.datetime) -> Any:
    recent = Annotation.objects.filter(hand__match=OuterRef("pk"), created_at__gte=cutoff)
    return (Match.objects.filter(annotation_status__in=WAITING)
            .annotate(since=waiting_since()).filter(since__lt=cutoff)
            .exclude(Exists(recent)))


def _requeue(match_id: int, cutoff: dt.datetime, now: dt.datetime) -> int:
    with transaction.atomic():
        # Locked and looked at again: another run (or a worker finishing it) may be first.
        match = _stuck(cutoff).select_for_update(skip_locked=True, of=("self",)).filter(
            pk=match_id).only("pk", "visibility", "hidden").first()
        if match is None:
            return 0
        missing = list(Hand.objects.filter(match_id=match_id).exclude(
            annotations__engine_version=ENGINE_VERSION).order_by("number").values_list(
            "pk", flat=True))
        if not missing:
            Match.objects.filter(pk=match_id).update(annotation_status=Match.Status.DONE)
            log.warning("requeue_stuck: match %s was annotated already: marked done", match_id)
            if match.visibility == Match.Visibility.PUBLIC and not match.hidden:
                transaction.on_commit(lambda: harvest_puzzles.delay(match_id))
            return 0
        Match.objects.filter(pk=match_id).update(annotation_queued_at=now)
        log.warning("requeue_stuck: match %s waited since before %s; %d hands requeued",
                    match_id, cutoff.isoformat(timespec="seconds"), len(missing))

        def send() -> None:
            for hand_id in missing:
                annotate_hand.delay(hand_id)

        transaction.on_commit(send)
    return len(missing)
