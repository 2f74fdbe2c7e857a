"""The second pass (issue 17): what each choice was worth, on the workers (docs/analysis.md).

After a match's annotation is done, :func:`queue_values` values its hands: one task per hand
and seat (:func:`value_hand`, taking primary keys). A task is idempotent — one
:class:`~replays.models.HandValues` row per hand, seat, engine version and value-model
version, replaced in one transaction — acknowledged late, retried with backoff and limited
in time. Each finished task counts the match's rows under the match's lock (the counter of
a fan-out): the one that completes the set marks the match's values done.

Fairness (issue 24): a values task costs seconds, so a match's tasks are not all sent at
once (a 500-hand upload once queued 2,000 of them, two hours of a worker, ahead of
everyone). As the annotation's hands are, the first ``VALUES_WINDOW`` go to the broker and
each finished task sends the match's next one (``Match.values_sent``), so a match never has
more than that many on the broker; ``requeue_stuck_values`` and a request for more seats
keep to the window.

Whose values: the uploader's seat when the upload said it (``Match.uploader_seat``; a
played match's is the player's), otherwise none until the owner or staff asks (their
button names a seat or every seat). A match without an owner (an anonymous upload) gets its
first ``VALUES_ANONYMOUS_HANDS`` hands valued by default (``Match.values_hands``); a request
values every hand.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterable
from typing import Any, NamedTuple

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.db.models import Exists, F, OuterRef
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.analysis.annotation import ENGINE_VERSION
from games.analysis.value_pass import VALUE_MODEL_VERSION
from games.analysis.value_pass import value_hand as price_hand
from games.variants.registry import TABLE_CLASSES
from replays.annotation.engine import annotate
from replays.annotation.signals import valued
from replays.inprocess import sends_in_turn
from replays.matches.board import replayed_match
from replays.models import Annotation, Hand, HandValues, Match
from replays.retries import FailsItsMatch

log = logging.getLogger(__name__)
SEATS = (0, 1, 2, 3)
WAITING = (Match.Status.QUEUED, Match.Status.RUNNING)


def default_seats(match: Match) -> list[int]:
    """The uploader's seat when known; else none (a seat's values cost about what
    annotating the match does many times over: the owner or staff asks for them)."""
    return [match.uploader_seat] if match.uploader_seat is not None else []


def current_values(match: Match) -> Any:
    """The match's values rows by the current engine and value model."""
    return HandValues.objects.filter(hand__match_id=match.pk, engine_version=ENGINE_VERSION,
                                     value_version=VALUE_MODEL_VERSION)


def valued_hands(match: Match) -> int:
    """How many hands (the first ones) the match's values cover."""
    if match.values_hands is None:
        return match.hand_count
    return min(match.hand_count, match.values_hands)


def position(number: int, seat: int) -> int:
    """Where the (hand, seat) task comes in a match's values: by hand, then seat
    (``Match.values_sent`` is the last one sent)."""
    return number * len(SEATS) + seat


class Pending(NamedTuple):
    hand_id: int
    seat: int
    position: int


# What queueing and counting read of a match.
VALUES_FIELDS = ("pk", "owner", "uploader_seat", "hand_count", "values_status",
                 "values_seats", "values_hands", "values_sent", "values_run",
                 "values_queued_at")


def queue_values(match_id: int, seats: Iterable[int] | None = None) -> int:
    """Value the match's hands for ``seats``, adding to the seats valued before; returns how
    many tasks were sent now (rows that exist are kept).

    ``seats`` None: the default seats (:func:`default_seats`), and for a match without an
    owner its first ``VALUES_ANONYMOUS_HANDS`` hands only; seats named (the owner's, staff's
    or a player's request): every hand. The first ``VALUES_WINDOW`` missing rows are sent,
    and each finished task sends the next. While a run is under way nothing more is sent:
    its tasks send the added rows in turn (a second request never doubles the window).
    """
    in_turn = sends_in_turn()
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).only(
            *VALUES_FIELDS).first()
        if match is None:
            return 0
        wanted = sorted({*match.values_seats,
                         *(default_seats(match) if seats is None else seats)})
        if any(seat not in SEATS for seat in wanted):
            raise ValueError(f"seats must be 0 to 3, not {wanted} (C-2)")
        if not wanted:
            return 0  # nobody said which seat: nothing to value until someone asks
        match.values_hands = _hands_to_value(match, asked=seats is not None)
        match.values_seats = wanted
        missing = missing_values(match)
        under_way = (in_turn and bool(missing) and match.values_status in WAITING
                     and match.values_queued_at is not None)
        changes: dict[str, Any] = {"values_seats": wanted, "values_hands": match.values_hands,
                                   "values_error": "", "values_run": F("values_run") + 1}
        if under_way:
            first: list[Pending] = []
            changes["values_sent"] = min(match.values_sent, missing[0].position - 1)
        else:
            first = missing[:values_window(len(missing))]
            changes.update(values_status=Match.Status.QUEUED if missing else Match.Status.DONE,
                           values_queued_at=timezone.now(),
                           values_sent=first[-1].position if first else 0)
        Match.objects.filter(pk=match_id).update(**changes)
    return send_values(match_id, first)


def _hands_to_value(match: Match, asked: bool) -> int | None:
    """Every hand (None) when asked or when the match has an owner; a match without one,
    its first ``VALUES_ANONYMOUS_HANDS`` unless it was valued whole before."""
    if asked or match.owner_id is not None:
        return None
    if match.values_status:  # valued before: as far as it was then
        return match.values_hands
    return max(0, settings.VALUES_ANONYMOUS_HANDS)


def values_window(missing: int) -> int:
    """How many of a match's values tasks may wait on the broker (or the pool) at once;
    where tasks run as they are queued, all of them (a chain would recurse)."""
    if not sends_in_turn():
        return missing
    return max(1, settings.VALUES_WINDOW)


def send_values(match_id: int, pending: Iterable[Pending]) -> int:
    """Send the tasks; when the broker (or the in-process queue) refuses them, the match
    waits with no queued time, and ``send_waiting`` sends them again once it is back."""
    sent = 0
    try:
        for row in pending:
            value_hand.delay(row.hand_id, row.seat)
            sent += 1
    except Exception as error:  # noqa: BLE001 - any broker failure: retried by beat
        log.warning("values of match %s wait for the broker: %s: %s", match_id,
                    type(error).__name__, error)
        Match.objects.filter(pk=match_id).update(values_queued_at=None)
    return sent


def missing_values(match: Match, after: int = 0) -> list[Pending]:
    """The (hand, seat) rows of the match's values (its ``values_seats`` and valued hands)
    without a row by the current engine and value model, in order, after ``after``."""
    first_hand = after // len(SEATS)
    hands = Hand.objects.filter(match_id=match.pk, number__gte=first_hand,
                                number__lte=valued_hands(match)).order_by(
        "number").values_list("pk", "number")
    have = set(current_values(match).filter(hand__number__gte=first_hand).values_list(
        "hand_id", "seat"))
    seats = sorted(match.values_seats)
    return [Pending(hand, seat, position(number, seat)) for hand, number in hands
            for seat in seats
            if position(number, seat) > after and (hand, seat) not in have]


def waiting_values() -> Any:
    """Matches whose values were refused by the broker: waiting, with no queued time."""
    return Match.objects.filter(values_status__in=WAITING, values_queued_at__isnull=True)


def send_waiting_values(match_id: int) -> int:
    """Send again the first window of a match whose values waited for the broker."""
    with transaction.atomic():
        match = waiting_values().select_for_update(skip_locked=True).filter(
            pk=match_id).only(*VALUES_FIELDS).first()
        if match is None:
            return 0
        missing = missing_values(match)
        if not missing:
            Match.objects.filter(pk=match_id).update(values_status=Match.Status.DONE)
            return 0
        first = missing[:values_window(len(missing))]
        Match.objects.filter(pk=match_id).update(values_queued_at=timezone.now(),
                                                 values_sent=first[-1].position)
    return send_values(match_id, first)


# -- Celery beat: stuck values (mahjong_site/settings.py CELERY_BEAT_SCHEDULE) ----------------

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
    from replays import health

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
            pk=match_id).only(*VALUES_FIELDS).first()
        if match is None:
            return 0
        missing = missing_values(match)
        if not missing:
            Match.objects.filter(pk=match_id).update(values_status=Match.Status.DONE)
            log.warning("requeue_stuck_values: match %s was valued already: marked done",
                        match_id)
            return 0
        # The first tasks go now, the others follow as they finish (as queue_values does).
        first = missing[:values_window(len(missing))]
        Match.objects.filter(pk=match_id).update(values_queued_at=now,
                                                 values_sent=first[-1].position)
        log.warning("requeue_stuck_values: match %s waited since before %s; %d tasks "
                    "requeued", match_id, cutoff.isoformat(timespec="seconds"), len(first))
        transaction.on_commit(lambda: send_values(match_id, first))
    return len(first)


def progress(match: Match) -> tuple[int, int]:
    """(hands valued, hands to value) over the seats asked for: "valuing k of N hands"."""
    seats = match.values_seats or []
    done = current_values(match).filter(seat__in=seats,
                                        hand__number__lte=valued_hands(match)).count()
    return done // max(len(seats), 1), valued_hands(match)


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
            *VALUES_FIELDS).first()
        if locked is None:
            return
        HandValues.objects.update_or_create(
            hand=hand, seat=seat, engine_version=ENGINE_VERSION,
            value_version=VALUE_MODEL_VERSION,
            defaults={"data": result["decisions"], "summary": result["summary"][0],
                      "run": locked.values_run})
        _send_next(locked)
        hands = valued_hands(locked)
        done = current_values(locked).filter(seat__in=locked.values_seats,
                                             hand__number__lte=hands).count()
        if locked.values_seats and done >= hands * len(locked.values_seats):
            finished = Match.objects.filter(pk=match.pk).exclude(
                values_status=Match.Status.FAILED).update(values_status=Match.Status.DONE)
            if finished:  # "what to discard?" puzzles need values (replays.puzzles.receivers)
                transaction.on_commit(lambda: valued.send(sender=Match, match_id=match.pk))


def _send_next(match: Match) -> None:
    """Inside the finishing task's transaction (the match row locked): send the match's next
    row not valued yet. Sent before the commit, so a worker killed in between sends it again
    when its own task is redelivered (at least once; the task is idempotent)."""
    following = missing_values(match, after=match.values_sent)[:1]
    if not following:
        return
    Match.objects.filter(pk=match.pk).update(values_sent=following[0].position)
    value_hand.delay(following[0].hand_id, following[0].seat)


def compute(match: Match, hand: Hand, seat: int) -> dict[str, Any]:
    """The engine's values of one stored hand for one seat (its annotation read, or made
    when the first pass hasn't stored it)."""
    annotation = Annotation.objects.filter(hand=hand, engine_version=ENGINE_VERSION).only(
        "data").first()
    if annotation is not None:
        decisions = annotation.data.get("decisions", [])
    else:
        decisions = annotate(match, hand.number).get("decisions", [])
    data = replayed_match(match)
    table = TABLE_CLASSES[data.match.variant](data.setups[hand.number - 1])
    return price_hand(table, data.match.hands[hand.number - 1].events, hand.number,
                      decisions, {seat}, seed=hand.number,
                      solo_samples=settings.VALUES_SOLO_SAMPLES,
                      table_samples=settings.VALUES_TABLE_SAMPLES)
