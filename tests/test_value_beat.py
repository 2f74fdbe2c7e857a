"""Stuck values tasks are requeued by the beat (issue 17), as stuck annotation tasks are
(``replays.tasks.requeue_stuck``): a match whose values have waited longer than
VALUES_STUCK_MINUTES with no values row written gets only its missing (hand, seat) tasks
sent again, once per period, not while the broker has a backlog; a match whose rows are
all there is marked done."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from games.analysis.annotation import ENGINE_VERSION
from games.analysis.value_pass import VALUE_MODEL_VERSION
from replays import health
from replays.annotation import values
from replays.models import HandValues, Match

from .test_beat_tasks import store

pytestmark = [pytest.mark.django_db, pytest.mark.filterwarnings("ignore:No directory at")]


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """The (hand, seat) tasks ``value_hand`` is sent for (to a broker that keeps them)."""
    tasks: list[tuple[int, int]] = []
    monkeypatch.setattr(values.value_hand, "delay", lambda hand, seat: tasks.append(
        (hand, seat)))
    return tasks


def _waiting(match: Match, minutes: float, seats: list[int],
             status: str = Match.Status.RUNNING) -> None:
    Match.objects.filter(pk=match.pk).update(
        values_status=status, values_seats=seats,
        values_queued_at=timezone.now() - dt.timedelta(minutes=minutes))


def _valued(match: Match, number: int, seat: int, age: float) -> None:
    row = HandValues.objects.create(hand=match.hands.get(number=number), seat=seat,
                                    engine_version=ENGINE_VERSION,
                                    value_version=VALUE_MODEL_VERSION, data=[],
                                    summary={"seat": seat})
    HandValues.objects.filter(pk=row.pk).update(
        created_at=timezone.now() - dt.timedelta(minutes=age))


def _requeue(capture: Any) -> int:
    with capture(execute=True):
        return int(values.requeue_stuck_values.delay().get())


def test_it_stamps_when_the_values_were_sent(sent: list[tuple[int, int]]) -> None:
    match = store(61, hands=2, uploader_seat=1)
    before = timezone.now()
    assert values.queue_values(match.pk) == 2
    match.refresh_from_db()
    assert before <= match.values_queued_at <= timezone.now()
    assert sent == [(h, 1) for h in match.hands.order_by("number").values_list("pk",
                                                                                flat=True)]


def test_it_requeues_only_the_missing_values_of_a_stuck_match(
        sent: list[tuple[int, int]], settings: Any,
        django_capture_on_commit_callbacks: Any) -> None:
    settings.VALUES_STUCK_MINUTES = 20
    match = store(62, hands=3)
    _waiting(match, 30, [0, 2])
    _valued(match, 1, 0, age=40)
    _valued(match, 2, 2, age=40)
    HandValues.objects.create(hand=match.hands.get(number=3), seat=0, data=[], summary={},
                              engine_version=ENGINE_VERSION, value_version="values-0")
    HandValues.objects.filter(value_version="values-0").update(
        created_at=timezone.now() - dt.timedelta(minutes=40))  # an older model's: to do
    before = timezone.now()

    hand = {n: match.hands.get(number=n).pk for n in (1, 2, 3)}
    assert _requeue(django_capture_on_commit_callbacks) == 4
    assert sent == [(hand[1], 2), (hand[2], 0), (hand[3], 0), (hand[3], 2)]
    match.refresh_from_db()
    assert match.values_queued_at >= before, "its clock restarts"
    assert match.values_status == Match.Status.RUNNING

    sent.clear()
    assert _requeue(django_capture_on_commit_callbacks) == 0, "not again within the period"
    assert sent == []


def test_it_leaves_a_match_alone_while_its_values_are_written_or_wait_their_turn(
        sent: list[tuple[int, int]], settings: Any, monkeypatch: pytest.MonkeyPatch,
        django_capture_on_commit_callbacks: Any) -> None:
    settings.VALUES_STUCK_MINUTES = 20
    busy = store(63, hands=2)
    _waiting(busy, 30, [0])
    _valued(busy, 1, 0, age=5)  # a row written within the period: not stuck
    recent = store(64, hands=2)
    _waiting(recent, 10, [0], status=Match.Status.QUEUED)  # queued within the period
    assert _requeue(django_capture_on_commit_callbacks) == 0

    stuck = store(65, hands=2)
    _waiting(stuck, 30, [0])
    monkeypatch.setattr(health, "queue_length",
                        lambda queue=None: health.QueueLength(3, 1, health.OK))
    assert _requeue(django_capture_on_commit_callbacks) == 0, "a backlog is not a loss"
    assert sent == []


def test_it_marks_done_a_stuck_match_whose_values_are_all_there(
        sent: list[tuple[int, int]], settings: Any,
        django_capture_on_commit_callbacks: Any) -> None:
    settings.VALUES_STUCK_MINUTES = 20
    match = store(66, hands=2)
    _waiting(match, 30, [3])
    for number in (1, 2):
        _valued(match, number, 3, age=40)
    assert _requeue(django_capture_on_commit_callbacks) == 0
    match.refresh_from_db()
    assert match.values_status == Match.Status.DONE and sent == []


def test_a_requeued_match_is_valued_to_the_end(settings: Any,
                                               django_capture_on_commit_callbacks: Any
                                               ) -> None:
    settings.VALUES_STUCK_MINUTES = 20
    settings.VALUES_SOLO_SAMPLES, settings.VALUES_TABLE_SAMPLES = 10, 2
    match = store(67, hands=2)
    _waiting(match, 30, [0])
    assert _requeue(django_capture_on_commit_callbacks) == 2  # in-process: no broker
    match.refresh_from_db()
    assert match.values_status == Match.Status.DONE
    assert values.progress(match) == (2, 2)


def test_the_beat_sends_it(settings: Any) -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["requeue-stuck-values"]
    assert entry["task"] == values.requeue_stuck_values.name
    assert entry["schedule"] == settings.CELERY_BEAT_SCHEDULE[
        "requeue-stuck-annotations"]["schedule"]
