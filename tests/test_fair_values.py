"""The values pass takes turns (issue 24, finding 1): one anonymous 500-hand upload used to
queue 2,000 values tasks at once, two hours of a worker ahead of everyone.

A match never has more than ``VALUES_WINDOW`` values tasks on the broker: each finished
task sends the match's next one, as the annotation's hands do; ``requeue_stuck_values``
and a request for more seats keep to the window. Only the uploader's seat is valued by
default (no seat when the upload didn't say, until the owner or staff asks), and a match
without an owner gets only its first ``VALUES_ANONYMOUS_HANDS`` hands valued unless staff
asks for every hand.
"""

from __future__ import annotations

import datetime as dt
from collections import deque
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.analysis.annotation import ENGINE_VERSION
from games.analysis.value_pass import VALUE_MODEL_VERSION
from replays.annotation import values
from replays.models import HandValues, Match

from .conftest import configured_broker
from .test_beat_tasks import store

pytestmark = [pytest.mark.django_db, pytest.mark.filterwarnings("ignore:No directory at")]


@pytest.fixture
def one_worker(monkeypatch: pytest.MonkeyPatch) -> Iterator[deque[tuple[int, int]]]:
    """Values tasks go to a first-in, first-out list instead of a broker (the test plays
    the one worker that takes them in turn); a task's pricing is instant."""
    queue: deque[tuple[int, int]] = deque()
    monkeypatch.setattr(values.value_hand, "delay", lambda hand, seat: queue.append(
        (hand, seat)))
    monkeypatch.setattr(values, "compute", lambda match, hand, seat: {
        "decisions": [], "summary": [{"seat": seat, "decisions": 0, "best_taken": 0,
                                      "mistakes": 0, "big": 0, "points_lost": 0.0}]})
    with configured_broker("memory://localhost/"):
        yield queue


def work(queue: deque[tuple[int, int]], times: int | None = None) -> list[tuple[int, int]]:
    """Run the queue's tasks in turn (all of them, or ``times``); returns what ran."""
    ran = []
    while queue and (times is None or len(ran) < times):
        task = queue.popleft()
        values.value_hand(*task)
        ran.append(task)
    return ran


def hand_ids(match: Match) -> dict[int, int]:
    return dict(match.hands.values_list("number", "pk"))


def test_it_sends_a_matchs_values_a_window_at_a_time(one_worker: deque[tuple[int, int]],
                                                     settings: Any, alice: Any) -> None:
    settings.VALUES_WINDOW = 2
    big = store(71, hands=12, owner=alice, uploader_seat=1)
    small = store(72, hands=2, uploader_seat=3)
    assert values.queue_values(big.pk) == 2
    hand = hand_ids(big)
    assert list(one_worker) == [(hand[1], 1), (hand[2], 1)], "two tasks, not twelve"
    assert values.queue_values(small.pk) == 2

    ran = work(one_worker, 5)
    assert len(one_worker) == 2, "each finished task of the big match sent its next"
    small_hands = set(hand_ids(small).values())
    assert {task for task in ran if task[0] in small_hands} == {
        (pk, 3) for pk in small_hands}, "the small match was valued among the big one's"
    assert Match.objects.get(pk=small.pk).values_status == Match.Status.DONE

    work(one_worker)
    big.refresh_from_db()
    assert big.values_status == Match.Status.DONE
    assert sorted(HandValues.objects.filter(hand__match=big).values_list(
        "hand__number", "seat")) == [(n, 1) for n in range(1, 13)]


def test_it_values_no_seat_when_the_upload_did_not_say_which(
        one_worker: deque[tuple[int, int]], alice: Any) -> None:
    match = store(73, hands=3, owner=alice)
    assert values.queue_values(match.pk) == 0
    match.refresh_from_db()
    assert (match.values_status, match.values_seats) == ("", [])
    assert not one_worker

    owner = Client()
    owner.force_login(alice)
    page = owner.get(match.get_absolute_url()).content.decode()
    assert "No seat's choices are valued" in page
    assert 'name="seat"' in page, "the owner may name a seat"
    response = owner.post(f"{match.get_absolute_url()}values/all-seats/", {"seat": "2"})
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.values_seats == [2] and match.values_hands is None
    assert owner.post(f"{match.get_absolute_url()}values/all-seats/",
                      {"seat": "7"}).status_code == 400


def test_the_upload_form_says_no_seat_is_valued_unless_one_is_named(client: Client) -> None:
    page = client.get("/upload/").content.decode()
    assert "not said (no seat is valued)" in page
    assert "value every seat" not in page


def test_it_values_only_the_first_hands_of_an_anonymous_upload(
        one_worker: deque[tuple[int, int]], settings: Any, staff: Any) -> None:
    settings.VALUES_ANONYMOUS_HANDS, settings.VALUES_WINDOW = 3, 2
    match = store(74, hands=5, uploader_seat=0)  # no owner
    values.queue_values(match.pk)
    work(one_worker)
    match.refresh_from_db()
    assert match.values_status == Match.Status.DONE
    assert sorted(HandValues.objects.filter(hand__match=match).values_list(
        "hand__number", flat=True)) == [1, 2, 3]
    assert values.progress(match) == (3, 3)
    page = Client().get(match.get_absolute_url()).content.decode()
    assert "done for the first 3 of 5 hands" in page

    asking = Client()
    asking.force_login(staff)
    assert "Value this seat" in asking.get(match.get_absolute_url()).content.decode()
    asking.post(f"{match.get_absolute_url()}values/all-seats/", {"seat": "0"})
    work(one_worker)
    match.refresh_from_db()
    assert match.values_status == Match.Status.DONE and match.values_hands is None
    assert values.progress(match) == (5, 5)


def test_an_owners_upload_is_valued_whole(one_worker: deque[tuple[int, int]], settings: Any,
                                          alice: Any) -> None:
    settings.VALUES_ANONYMOUS_HANDS = 1
    match = store(75, hands=3, owner=alice, uploader_seat=2)
    values.queue_values(match.pk)
    work(one_worker)
    assert values.progress(Match.objects.get(pk=match.pk)) == (3, 3)


def test_asking_for_more_seats_while_valuing_keeps_the_window(
        one_worker: deque[tuple[int, int]], settings: Any, alice: Any) -> None:
    settings.VALUES_WINDOW = 2
    match = store(76, hands=4, owner=alice, uploader_seat=0)
    values.queue_values(match.pk)
    work(one_worker, 1)
    assert len(one_worker) == 2
    for _again in range(3):  # pressed three times
        assert values.queue_values(match.pk, [0, 1, 2, 3]) == 0, "nothing more on the broker"
    assert len(one_worker) == 2
    work(one_worker)
    match.refresh_from_db()
    assert match.values_status == Match.Status.DONE
    assert HandValues.objects.filter(hand__match=match).count() == 4 * 4


def test_it_requeues_a_stuck_match_a_window_at_a_time(
        one_worker: deque[tuple[int, int]], settings: Any,
        django_capture_on_commit_callbacks: Any, alice: Any) -> None:
    settings.VALUES_WINDOW, settings.VALUES_STUCK_MINUTES = 2, 20
    match = store(77, hands=6, owner=alice)
    Match.objects.filter(pk=match.pk).update(
        values_status=Match.Status.RUNNING, values_seats=[0, 1],
        values_queued_at=timezone.now() - dt.timedelta(minutes=30))
    HandValues.objects.create(hand=match.hands.get(number=1), seat=0, data=[], summary={},
                              engine_version=ENGINE_VERSION, value_version=VALUE_MODEL_VERSION)
    HandValues.objects.filter(hand__match=match).update(
        created_at=timezone.now() - dt.timedelta(minutes=40))
    with django_capture_on_commit_callbacks(execute=True):
        assert values.requeue_stuck_values() == 2
    hand = hand_ids(match)
    assert list(one_worker) == [(hand[1], 1), (hand[2], 0)]
    work(one_worker)
    match.refresh_from_db()
    assert match.values_status == Match.Status.DONE
    assert HandValues.objects.filter(hand__match=match).count() == 12


def test_values_the_broker_refused_are_sent_by_send_waiting(
        one_worker: deque[tuple[int, int]], monkeypatch: pytest.MonkeyPatch,
        alice: Any) -> None:
    from replays.annotation import tasks

    match = store(78, hands=3, owner=alice, uploader_seat=1)
    Match.objects.filter(pk=match.pk).update(annotation_status=Match.Status.DONE)

    def refused(hand: int, seat: int) -> None:
        raise ConnectionError("the broker is down")

    with monkeypatch.context() as patch:
        patch.setattr(values.value_hand, "delay", refused)
        assert values.queue_values(match.pk) == 0
    match.refresh_from_db()
    assert (match.values_status, match.values_queued_at) == (Match.Status.QUEUED, None)

    assert tasks.send_waiting() == 1
    assert len(one_worker) == min(3, 2)
    work(one_worker)
    assert Match.objects.get(pk=match.pk).values_status == Match.Status.DONE
    assert tasks.send_waiting() == 0


def test_a_values_poll_that_finds_them_done_reloads_the_page(client: Client) -> None:
    """The values line polls while they run; the poll that finds them done (or failed)
    reloads the page, whose panel then shows them."""
    match = store(31, hands=1)
    url = f"/replays/{match.public_id}/values/"
    Match.objects.filter(pk=match.pk).update(values_status=Match.Status.RUNNING)
    running = client.get(url, HTTP_HX_REQUEST="true")
    assert "HX-Refresh" not in running and 'hx-trigger="every 3s"' in running.content.decode()
    Match.objects.filter(pk=match.pk).update(values_status=Match.Status.DONE)
    assert client.get(url, HTTP_HX_REQUEST="true")["HX-Refresh"] == "true"
