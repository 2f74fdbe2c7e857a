"""The second pass (issue 17): what each choice was worth, on the workers (docs/analysis.md).

After a match's annotation is done, :func:`queue_values` sends one task per hand and seat
(:func:`value_hand`, taking primary keys). A task is idempotent — one
:class:`~replays.models.HandValues` row per hand, seat, engine version and value-model
version, replaced in one transaction — acknowledged late, retried with backoff and limited
in time. Each finished task counts the match's rows under the match's lock (the counter of
a fan-out): the one that completes the set marks the match's values done.

Whose values: the uploader's seat when the upload said it (``Match.uploader_seat``),
otherwise every seat; all seats on request (the owner's or staff's button); a played
match's caller names the player's seat (``queue_values(match_id, [seat])``).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterable
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.analysis.annotation import ENGINE_VERSION
from games.analysis.value_pass import VALUE_MODEL_VERSION
from games.analysis.value_pass import value_hand as price_hand
from games.core.table import TABLES
from replays.library.board import replayed_match
from replays.models import Annotation, Hand, HandValues, Match
from replays.retries import FailsItsMatch

log = logging.getLogger(__name__)
SEATS = (0, 1, 2, 3)


def default_seats(match: Match) -> list[int]:
    """The uploader's seat when known, else every seat."""
    return [match.uploader_seat] if match.uploader_seat is not None else list(SEATS)


def current_values(match: Match) -> Any:
    """The match's values rows by the current engine and value model."""
    return HandValues.objects.filter(hand__match_id=match.pk, engine_version=ENGINE_VERSION,
                                     value_version=VALUE_MODEL_VERSION)


def queue_values(match_id: int, seats: Iterable[int] | None = None) -> int:
    """Value the match's hands for ``seats`` (None: the default seats), adding to the seats
    valued before; returns how many tasks were sent (rows that exist are kept)."""
    match = Match.objects.filter(pk=match_id).only("pk", "uploader_seat", "values_seats",
                                                   "hand_count").first()
    if match is None:
        return 0
    wanted = sorted({*match.values_seats, *(default_seats(match) if seats is None else seats)})
    if any(seat not in SEATS for seat in wanted):
        raise ValueError(f"seats must be 0 to 3, not {wanted} (C-2)")
    have = set(current_values(match).values_list("hand_id", "seat"))
    hands = list(Hand.objects.filter(match_id=match_id).order_by("number").values_list(
        "pk", flat=True))
    missing = [(hand, seat) for hand in hands for seat in wanted if (hand, seat) not in have]
    status = Match.Status.QUEUED if missing else Match.Status.DONE
    Match.objects.filter(pk=match_id).update(values_seats=wanted, values_status=status,
                                             values_error="", values_queued_at=timezone.now())
    for hand_id, seat in missing:
        value_hand.delay(hand_id, seat)
    return len(missing)


def missing_values(match_id: int, seats: Iterable[int]) -> list[tuple[int, int]]:
    """The (hand, seat) pairs of the match without a values row by the current engine
    and value model, in hand order."""
    match = Match.objects.only("pk").get(pk=match_id)
    have = set(current_values(match).values_list("hand_id", "seat"))
    hands = Hand.objects.filter(match_id=match_id).order_by("number").values_list(
        "pk", flat=True)
    return [(hand, seat) for hand in hands for seat in sorted(seats)
            if (hand, seat) not in have]


# -- Celery beat: stuck values (mahjong_site/settings.py CELERY_BEAT_SCHEDULE) ----------------

WAITING = (Match.Status.QUEUED, Match.Status.RUNNING)
REQUEUE_BATCH = 200  # matches looked at per run of requeue_stuck_values


def _stuck_values(cutoff: dt.datetime) -> Any:
    recent = HandValues.objects.filter(hand__match=OuterRef("pk"), created_at__gte=cutoff)
    return (Match.objects.filter(values_status__in=WAITING)
            .annotate(values_since=Coalesce("values_queued_at", "uploaded_at"))
            .filter(values_since__lt=cutoff).exclude(Exists(recent)))


@shared_task(name="replays.tasks.requeue_stuck_values", acks_late=True, ignore_result=True)
def requeue_stuck_values() -> int:
    """Put the values tasks of stuck matches back on the queue; returns how many tasks.

    As ``requeue_stuck`` does for the annotation: a match is stuck when its values have
    been queued or running for longer than ``VALUES_STUCK_MINUTES``, no values row of it
    was written meanwhile, and the broker has no message waiting (a backlog is not a
    loss). Only the missing (hand, seat) rows are sent again, and the match's clock
    restarts, so it is requeued at most once per period; a stuck match whose rows are
    all there (its last messages were lost after the work was done) is marked done.
    """
    from replays.operations import health

    backlog = health.queue_length()
    if backlog.waiting:
        log.info("requeue_stuck_values: %s messages still wait on the broker; nothing "
                 "requeued", backlog.waiting)
        return 0
    now = timezone.now()
    cutoff = now - dt.timedelta(minutes=settings.VALUES_STUCK_MINUTES)
    candidates = list(_stuck_values(cutoff).order_by("values_since", "pk").values_list(
        "pk", flat=True)[:REQUEUE_BATCH])
    return sum(_requeue_values(match_id, cutoff, now) for match_id in candidates)


def _requeue_values(match_id: int, cutoff: dt.datetime, now: dt.datetime) -> int:
    with transaction.atomic():
        # Locked and looked at again: another run (or a worker finishing it) may be first.
        match = _stuck_values(cutoff).select_for_update(skip_locked=True, of=("self",)).filter(
            pk=match_id).only("pk", "values_seats").first()
        if match is None:
            return 0
        missing = missing_values(match_id, match.values_seats)
        if not missing:
            Match.objects.filter(pk=match_id).update(values_status=Match.Status.DONE)
            log.warning("requeue_stuck_values: match %s was valued already: marked done",
                        match_id)
            return 0
        Match.objects.filter(pk=match_id).update(values_queued_at=now)
        log.warning("requeue_stuck_values: match %s waited since before %s; %d tasks "
                    "requeued", match_id, cutoff.isoformat(timespec="seconds"), len(missing))

        def send() -> None:
            for hand_id, seat in missing:
                value_hand.delay(hand_id, seat)

        transaction.on_commit(send)
    return len(missing)


def progress(match: Match) -> tuple[int, int]:
    """(hands valued, hands to value) over the seats asked for: "valuing k of N hands"."""
    seats = match.values_seats or []
    done = current_values(match).filter(seat__in=seats).count()
    return done // max(len(seats), 1), match.hand_count


class ValueHand(FailsItsMatch):
    soft_time_limit = settings.VALUES_SOFT_TIME_LIMIT
    time_limit = settings.VALUES_SOFT_TIME_LIMIT + 60
    doing = "valuing"
    status_field = "values_status"
    error_field = "values_error"


@shared_task(name="replays.tasks.value_hand", base=ValueHand)
def value_hand(hand_id: int, seat: int) -> None:
    """Value one hand's decisions for one seat (by primary key); safe to run twice."""
    hand = Hand.objects.select_related("match").defer("match__document").filter(
        pk=hand_id).first()
    if hand is None:
        return  # deleted since it was queued
    match = hand.match
    Match.objects.filter(pk=match.pk, values_status=Match.Status.QUEUED).update(
        values_status=Match.Status.RUNNING)
    result = compute(match, hand, seat)
    with transaction.atomic():
        locked = Match.objects.select_for_update().filter(pk=match.pk).only(
            "pk", "values_seats", "hand_count", "values_run").first()
        if locked is None:
            return
        HandValues.objects.update_or_create(
            hand=hand, seat=seat, engine_version=ENGINE_VERSION,
            value_version=VALUE_MODEL_VERSION,
            defaults={"data": result["decisions"], "summary": result["summary"][0],
                      "run": locked.values_run})
        done = current_values(locked).filter(seat__in=locked.values_seats).count()
        if done >= locked.hand_count * len(locked.values_seats):
            finished = Match.objects.filter(pk=match.pk).exclude(
                values_status=Match.Status.FAILED).update(values_status=Match.Status.DONE)
            if finished and match.publishable:  # "what to discard?" puzzles need values
                from replays.puzzles.tasks import harvest_puzzles

                transaction.on_commit(lambda: harvest_puzzles.delay(match.pk))


def compute(match: Match, hand: Hand, seat: int) -> dict[str, Any]:
    """The engine's values of one stored hand for one seat (its annotation read, or made
    when the first pass hasn't stored it)."""
    annotation = Annotation.objects.filter(hand=hand, engine_version=ENGINE_VERSION).only(
        "data").first()
    if annotation is not None:
        decisions = annotation.data.get("decisions", [])
    else:
        from replays.annotation.tasks import annotate

        decisions = annotate(match, hand.number).get("decisions", [])
    data = replayed_match(match)
    table = TABLES[data.match.variant](data.setups[hand.number - 1])
    return price_hand(table, data.match.hands[hand.number - 1].events, hand.number,
                      decisions, {seat}, seed=hand.number,
                      solo_samples=settings.VALUES_SOLO_SAMPLES,
                      table_samples=settings.VALUES_TABLE_SAMPLES)
