"""Annotation on Celery: one task per hand, taking primary keys (docs/analysis.md).

Tasks are idempotent — one annotation per hand and engine version, replaced
atomically when rerun — acknowledged late (a worker killed mid-hand leaves the
message for another), retried with backoff, and limited in time.

Fairness (issue 16): a match's hands are not all queued at once. ``queue_match`` sends
the first ``ANNOTATION_WINDOW`` hands, and each hand that finishes sends the match's next
one, so a match never has more than that many hands on the broker: a 4-hand upload made
right after a 500-hand one waits for a few hands, not 500 (``manage.py bench_fairness``).
A broker outage loses nothing: the match is stored and marked waiting (no queued time),
and beat's ``send_waiting`` queues it within ``BEAT_SEND_WAITING_SECONDS`` of the broker's
return — beat's tasks have a queue of their own (``CELERY_MAINTENANCE_QUEUE``), so a
backlog of analysis doesn't hold them (issue 24).

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
from django.db.models import Exists, F, OuterRef
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.analysis.annotation import ENGINE_VERSION
from replays import health
from replays.annotation.engine import annotate
from replays.annotation.services import store_steps
from replays.annotation.signals import annotated
from replays.inprocess import sends_in_turn
from replays.models import Annotation, Hand, Match
from replays.retries import FailsItsMatch

log = logging.getLogger(__name__)


def queue_match(match_id: int) -> bool:
    """Start a new annotation run of a match (call after the upload commits): its first
    hands go to the workers, the others follow as hands finish. False when the broker
    could not be reached: the match then waits for ``send_waiting`` (nothing is lost)."""
    hands = list(Hand.objects.filter(match_id=match_id).order_by("number").values_list(
        "pk", "number"))
    first = hands[:window(len(hands))]
    Match.objects.filter(pk=match_id).update(
        annotation_status=Match.Status.QUEUED, annotation_error="",
        annotation_queued_at=timezone.now(), annotation_run=F("annotation_run") + 1,
        annotation_sent=first[-1][1] if first else 0)
    try:
        for hand_id, _number in first:
            annotate_hand.delay(hand_id)
    except Exception as error:  # noqa: BLE001 - any broker failure: retried by beat
        log.warning("match %s waits for the broker: %s: %s", match_id,
                    type(error).__name__, error)
        Match.objects.filter(pk=match_id).update(annotation_queued_at=None)
        return False
    return True


def window(hand_count: int) -> int:
    """How many of a match's hands may wait on the broker (or the web process's pool) at
    once. Where tasks run as they are queued (commands, tests) all of them are: there a
    chain of hands would recurse."""
    if not sends_in_turn():
        return hand_count
    return max(1, settings.ANNOTATION_WINDOW)


def _send_next(match: Match) -> None:
    """Inside the finishing hand's transaction (the match row locked): send the match's
    next hand not yet annotated in this run. Sent before the commit, so a worker killed in
    between sends it again when its own hand is redelivered (at least once; the task is
    idempotent)."""
    following = (Hand.objects.filter(match_id=match.pk, number__gt=match.annotation_sent)
                 .exclude(Exists(_annotated_in(match.annotation_run)))
                 .order_by("number").values_list("pk", "number").first())
    if following is None:
        return
    Match.objects.filter(pk=match.pk).update(annotation_sent=following[1])
    annotate_hand.delay(following[0])


class AnnotateHand(FailsItsMatch):
    doing = "annotating"
    status_field = "annotation_status"
    error_field = "annotation_error"


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
        locked = Match.objects.select_for_update().filter(pk=match.pk).only(
            "pk", "annotation_run", "annotation_sent").first()
        if locked is None:
            return  # deleted meanwhile
        annotation, _created = Annotation.objects.update_or_create(
            hand=hand, engine_version=ENGINE_VERSION,
            defaults={"data": data, "run": locked.annotation_run})
        store_steps(annotation)
        _send_next(locked)
        done = annotated_in_run(locked).count()
        if done >= match.hand_count:
            finished = Match.objects.filter(pk=match.pk).exclude(
                annotation_status__in=[Match.Status.FAILED, Match.Status.DONE]).update(
                annotation_status=Match.Status.DONE)
            if finished:
                transaction.on_commit(lambda: annotated.send(sender=Match, match_id=match.pk))
            if finished and settings.VALUES_AFTER_ANNOTATION:
                transaction.on_commit(lambda: _queue_values(match.pk))


def _queue_values(match_id: int) -> None:
    """The second pass, once the first is done (replays/annotation/values.py); a broker
    failure leaves the values unqueued (the owner's button queues them again)."""
    from replays.annotation.values import queue_values

    try:
        queue_values(match_id)
    except Exception as error:  # noqa: BLE001 - the annotation itself is stored
        log.warning("values of match %s not queued: %s: %s", match_id,
                    type(error).__name__, error)


def _annotated_in(run: int) -> Any:
    """A subquery: the outer hand's annotation by the current engine in that run."""
    return Annotation.objects.filter(hand=OuterRef("pk"), engine_version=ENGINE_VERSION,
                                     run=run)


def annotated_in_run(match: Match) -> Any:
    """The match's annotations by the current engine written in its current run."""
    return Annotation.objects.filter(hand__match_id=match.pk, engine_version=ENGINE_VERSION,
                                     run=match.annotation_run)


def progress(match: Match) -> tuple[int, int]:
    """Hands annotated in the match's current run (a re-run counts the hands it has really
    annotated again, not those of the run before), and hands in all."""
    return annotated_in_run(match).count(), match.hand_count


def waiting_for_broker(match: Match) -> bool:
    """Stored and queued, but not sent yet: the broker was down (``send_waiting``)."""
    return (match.annotation_status == Match.Status.QUEUED
            and match.annotation_queued_at is None)


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
        run = Match.objects.filter(pk=match_id).values_list("annotation_run", flat=True)[0]
        missing_hands = list(Hand.objects.filter(match_id=match_id).exclude(
            Exists(_annotated_in(run))).order_by("number").values_list("pk", "number"))
        if not missing_hands:
            Match.objects.filter(pk=match_id).update(annotation_status=Match.Status.DONE)
            log.warning("requeue_stuck: match %s was annotated already: marked done", match_id)
            transaction.on_commit(lambda: annotated.send(sender=Match, match_id=match_id))
            return 0
        # The first hands go now, the others follow as they finish (as queue_match does).
        missing = [pk for pk, _number in missing_hands[:window(len(missing_hands))]]
        Match.objects.filter(pk=match_id).update(
            annotation_queued_at=now, annotation_sent=missing_hands[len(missing) - 1][1])
        log.warning("requeue_stuck: match %s waited since before %s; %d hands requeued",
                    match_id, cutoff.isoformat(timespec="seconds"), len(missing))

        def send() -> None:
            for hand_id in missing:
                annotate_hand.delay(hand_id)

        transaction.on_commit(send)
    return len(missing)


SEND_WAITING_BATCH = 200  # matches sent per run of send_waiting


@shared_task(name="replays.tasks.send_waiting", acks_late=True, ignore_result=True)
def send_waiting() -> int:
    """Queue the matches stored while the broker was down (queued, never sent), and the
    values the broker refused; returns how many matches were sent. Beat sends this every
    ``BEAT_SEND_WAITING_SECONDS`` on the maintenance queue, which analysis never fills: its
    message reaches a worker within that time of the broker's return however many hands
    wait on the analysis queue (issue 24)."""
    from replays.annotation.values import send_waiting_values, waiting_values

    waiting = list(Match.objects.filter(
        annotation_status=Match.Status.QUEUED, annotation_queued_at__isnull=True)
        .order_by("uploaded_at", "pk").values_list("pk", flat=True)[:SEND_WAITING_BATCH])
    sent = sum(queue_match(match_id) for match_id in waiting)
    if waiting:
        log.warning("send_waiting: %d of %d matches that waited for the broker sent", sent,
                    len(waiting))
    valuing = list(waiting_values().order_by("uploaded_at", "pk").values_list(
        "pk", flat=True)[:SEND_WAITING_BATCH])
    valued = sum(send_waiting_values(match_id) > 0 for match_id in valuing)
    if valuing:
        log.warning("send_waiting: the values of %d of %d matches that waited for the broker "
                    "sent", valued, len(valuing))
    return sent + valued


# The values pass's task lives beside its services; importing it here registers it with the
# workers (Celery discovers ``replays.annotation.tasks``).
from replays.annotation import values as _values  # noqa: E402,F401
