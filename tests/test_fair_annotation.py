"""Fair annotation, broker outages and honest progress (issue 16, findings 1, 6 and 10).

A match never has more than ``ANNOTATION_WINDOW`` hands on the broker: each finished hand
sends the next, so a small upload made right after a big one is annotated after a few of
the big one's hands, not all of them. A broker outage loses nothing: every file of the
request is stored, the page says analysis will start shortly, and ``send_waiting`` (beat,
every minute) queues the matches once the broker is back. A re-run's progress counts the
hands it really annotated again.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from replays.annotation import tasks
from replays.models import Annotation, Match

from .conftest import bot_document, configured_broker, forget_connections

pytestmark = pytest.mark.filterwarnings("ignore:No directory at:UserWarning")
NO_BROKER = "redis://127.0.0.1:1/0"  # nothing listens on port 1: refused at once


@pytest.fixture
def one_worker(monkeypatch: pytest.MonkeyPatch) -> Iterator[deque[int]]:
    """Tasks go to a first-in, first-out list instead of a broker (the test plays the one
    worker that takes them in turn)."""
    queue: deque[int] = deque()
    monkeypatch.setattr(tasks.annotate_hand, "delay", queue.append)
    with configured_broker("memory://localhost/"):
        yield queue


def test_it_annotates_a_small_match_after_a_few_hands_of_a_big_one(
        make_match: Any, one_worker: deque[int], settings: Any) -> None:
    settings.ANNOTATION_WINDOW = 2
    big = make_match(visibility="private", hands=30, variant="putian")
    small = make_match(visibility="private", hands=4, variant="putian")
    tasks.queue_match(big.pk)
    tasks.queue_match(small.pk)
    assert len(one_worker) == 4, "two hands of each match on the broker, not 34"

    taken = 0
    while Match.objects.get(pk=small.pk).annotation_status != Match.Status.DONE:
        tasks.annotate_hand(one_worker.popleft())
        taken += 1
    assert taken <= 4 + 2 * 3, f"the small match waited for {taken - 4} of the big one's hands"

    while one_worker:
        tasks.annotate_hand(one_worker.popleft())
    big.refresh_from_db()
    assert big.annotation_status == Match.Status.DONE
    assert Annotation.objects.filter(hand__match=big).count() == 30


def upload(client: Client, *documents: bytes) -> Any:
    return client.post("/upload/", {
        "files": [SimpleUploadedFile(f"m{n}.json", raw) for n, raw in enumerate(documents)],
        "title": "", "visibility": "public", "text": ""})


@pytest.mark.django_db(transaction=True)
def test_it_stores_every_file_during_a_broker_outage_and_queues_them_when_it_is_back(
        client: Client) -> None:
    from mahjong_site.celery import app

    with configured_broker(NO_BROKER):
        forget_connections(app)
        try:
            response = upload(client, *(bot_document(30 + n) for n in range(3)))
        finally:
            forget_connections(app)

    assert response.status_code == 200
    text = response.content.decode()
    assert text.count("open the replay") == 3 and text.count("analysis will start shortly") == 3
    stored = list(Match.objects.order_by("pk"))
    assert len(stored) == 3
    for match in stored:
        assert (match.annotation_status, match.annotation_queued_at) == ("queued", None)
        progress = client.get(f"/replays/{match.public_id}/progress/").content.decode()
        assert "analysis will start shortly" in progress

    # The broker is back (here: in-process); beat's next send_waiting queues them all.
    assert tasks.send_waiting() == 3
    assert set(Match.objects.values_list("annotation_status", flat=True)) == {"done"}
    assert tasks.send_waiting() == 0


def test_it_counts_only_the_hands_a_rerun_annotated_again(
        client: Client, make_match: Any, alice: Any) -> None:
    match = make_match(alice, hands=3)
    tasks.queue_match(match.pk)  # in-process: annotated at once
    match.refresh_from_db()
    assert match.annotation_status == "done" and tasks.progress(match) == (3, 3)

    with configured_broker(NO_BROKER):
        from mahjong_site.celery import app

        forget_connections(app)
        try:
            assert tasks.queue_match(match.pk) is False  # a Retry while the broker is down
        finally:
            forget_connections(app)
    match.refresh_from_db()
    assert match.annotation_status == "queued"
    assert tasks.progress(match) == (0, 3), "nothing was annotated again yet"

    tasks.annotate_hand(match.hands.get(number=2).pk)
    match.refresh_from_db()
    assert tasks.progress(match) == (1, 3) and match.annotation_status != "done"
