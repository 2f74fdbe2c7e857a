"""No request waits for the analysis (issue 24, finding 9): without a broker, a web process
runs the Celery tasks a request queues beside it, in a bounded pool of its own
(replays/inprocess.py), instead of inside it (a played match's last action froze 12–32 s,
a 4-hand upload 44–49 s).

The annotation is held at a gate here until the test opens it: the request has answered
by then, and the page shows the progress it polls; once the gate opens the pool does the
work. The queue is bounded: a task queued when it is full is refused as a broker outage
refuses it, the upload is stored and waits, and the pool's own ``send_waiting`` sends it
once there is room. The WSGI module turns the pool on; commands and the test suite run
tasks where they are queued. (The suite keeps that eager execution elsewhere.)
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from replays import inprocess
from replays.annotation import tasks
from replays.annotation import values as values_pass
from replays.models import Annotation, HandValues, Match, PlayedMatch

from .conftest import ROOT, bot_document, wait_for
from .test_play_site import act, start, state

pytestmark = pytest.mark.filterwarnings("ignore:No directory at:UserWarning")


@pytest.fixture
def beside_requests(transactional_db: None,
                    monkeypatch: pytest.MonkeyPatch) -> Iterator[inprocess.Pool]:
    """Tasks run beside the requests, as mahjong_site/wsgi.py makes them in a web process
    without a broker: a pool of the test's own, one thread, three tasks waiting at most, no
    periodic tasks."""
    from mahjong_site.celery import app

    assert app.conf.task_always_eager, "no broker: tasks run in-process"
    pool = inprocess.Pool(1, 3, schedule={})
    monkeypatch.setattr(inprocess, "_pool", pool)
    monkeypatch.setattr(inprocess, "_switched_on", True)
    yield pool
    pool.wait_until_idle(120)
    pool.stop(wait=30)


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[SimpleNamespace]:
    """Each hand's annotation waits here until the test opens the gate (30 s at most)."""
    opened, reached = threading.Event(), threading.Event()
    annotate = tasks.annotate

    def held(match: Match, number: int) -> dict[str, object]:
        reached.set()
        opened.wait(30)
        return annotate(match, number)

    monkeypatch.setattr(tasks, "annotate", held)
    yield SimpleNamespace(open=opened.set, reached=reached)
    opened.set()


def upload(client: Client, raw: bytes, **fields: str) -> Any:
    return client.post("/upload/", {"files": [SimpleUploadedFile("m.json", raw)],
                                    "title": "", "visibility": "public", "text": "", **fields})


def test_it_answers_an_upload_before_its_analysis_and_then_does_it(
        beside_requests: inprocess.Pool, gate: SimpleNamespace, client: Client) -> None:
    response = upload(client, bot_document(91, hands=2))
    assert response.status_code == 200 and "open the replay" in response.content.decode()
    match = Match.objects.get()
    assert match.annotation_status in (Match.Status.QUEUED, Match.Status.RUNNING)
    assert not Annotation.objects.filter(hand__match=match).exists(), \
        "the request answered before the analysis"

    assert gate.reached.wait(30), "the pool took the match's first hand"
    fragment = client.get(f"/replays/{match.public_id}/progress/").content.decode()
    assert "Annotating 0 of 2 hands" in fragment and 'hx-trigger="every 2s"' in fragment
    polled = client.get(f"/replays/{match.public_id}/progress/", HTTP_HX_REQUEST="true",
                        HTTP_HX_CURRENT_URL=f"http://testserver{match.get_absolute_url()}"
                        "?hand=2&step=5").content.decode()
    assert f'href="{match.get_absolute_url()}?hand=2&amp;step=5">Refresh' in polled, \
        "the polled fragment's Refresh link reloads the page, not the fragment"
    page = client.get(match.get_absolute_url()).content.decode()
    assert '<noscript><meta http-equiv="refresh"' in page, "without JavaScript it reloads"

    gate.open()
    assert beside_requests.wait_until_idle(120)
    match.refresh_from_db()
    assert match.annotation_status == Match.Status.DONE
    assert tasks.progress(match) == (2, 2)
    page = client.get(match.get_absolute_url()).content.decode()
    assert "Every decision is annotated." in page and 'http-equiv="refresh"' not in page
    # The page polling since the upload reloads itself now: its analysis panel and values
    # line come with the page (a poll answered with the fragment alone left them out).
    polled = client.get(f"/replays/{match.public_id}/progress/", HTTP_HX_REQUEST="true")
    assert polled["HX-Refresh"] == "true"
    assert "HX-Refresh" not in client.get(f"/replays/{match.public_id}/progress/")


def test_it_values_the_uploaders_seat_beside_the_requests_a_window_at_a_time(
        beside_requests: inprocess.Pool, client: Client, settings: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    settings.VALUES_AFTER_ANNOTATION, settings.VALUES_WINDOW = True, 1
    settings.VALUES_SOLO_SAMPLES, settings.VALUES_TABLE_SAMPLES = 10, 2
    waiting: list[int] = []  # at each values task sent, the match's values tasks waiting
    counts = {"sent": 0, "started": 0}
    submit, compute = beside_requests.submit, values_pass.compute

    def counted(task: Any, args: Any, kwargs: Any) -> Any:
        if task.name == values_pass.value_hand.name:
            waiting.append(counts["sent"] - counts["started"])
            counts["sent"] += 1
        return submit(task, args, kwargs)

    def started(*args: Any) -> Any:
        counts["started"] += 1
        return compute(*args)

    monkeypatch.setattr(values_pass, "compute", started)
    monkeypatch.setattr(beside_requests, "submit", counted)
    upload(client, bot_document(92, hands=3), seat="1")
    assert beside_requests.wait_until_idle(240)
    match = Match.objects.get()
    assert (match.annotation_status, match.values_status) == (Match.Status.DONE,
                                                              Match.Status.DONE)
    assert sorted(HandValues.objects.filter(hand__match=match).values_list(
        "hand__number", "seat")) == [(1, 1), (2, 1), (3, 1)]
    assert waiting == [0, 0, 0], "one values task of the match waited at a time"


def test_it_answers_a_played_matchs_last_action_before_its_analysis(
        beside_requests: inprocess.Pool, gate: SimpleNamespace, client: Client) -> None:
    pid = start(client, "sichuan", hands=1)
    rng = random.Random(3)
    data = state(client, pid)
    while not data["over"]:
        response = act(client, pid, data["step"], rng.choice(data["legal"]))
        assert response.status_code == 200, response.content
        data = response.json()
    replay = PlayedMatch.objects.get(public_id=pid).replay
    assert replay is not None
    assert replay.annotation_status in (Match.Status.QUEUED, Match.Status.RUNNING), \
        "the last action answered before the analysis"

    gate.open()
    assert beside_requests.wait_until_idle(120)
    replay.refresh_from_db()
    assert replay.annotation_status == Match.Status.DONE


def test_a_full_queue_refuses_more_and_the_upload_waits_for_room(
        transactional_db: None, gate: SimpleNamespace, client: Client,
        monkeypatch: pytest.MonkeyPatch) -> None:
    pool = inprocess.Pool(1, 1, schedule={"send-waiting": {
        "task": tasks.send_waiting.name, "schedule": 0.2}})
    monkeypatch.setattr(inprocess, "_pool", pool)
    monkeypatch.setattr(inprocess, "_switched_on", True)
    try:
        first = upload(client, bot_document(93))
        assert gate.reached.wait(30), "the first upload's hand runs"
        second = upload(client, bot_document(94))  # waits its turn
        third = upload(client, bot_document(95))  # one more than the queue holds
        assert pool.counts() == (1, 1)
        for response in (first, second, third):
            assert response.status_code == 200
        assert "analysis will start shortly" not in second.content.decode()
        assert "analysis will start shortly" in third.content.decode()
        waiting = Match.objects.get(annotation_queued_at__isnull=True)

        gate.open()
        wait_for(lambda: not Match.objects.exclude(annotation_status=Match.Status.DONE)
                 .exists(), 120, "every upload to be annotated")
        waiting.refresh_from_db()
        assert waiting.annotation_queued_at is not None, "sent by the pool's send_waiting"
    finally:
        gate.open()
        pool.wait_until_idle(120)
        pool.stop(wait=30)


def test_the_queue_holds_any_follow_up_of_a_task_of_the_pool(transactional_db: None) -> None:
    """A match's next hand, sent by the hand that finished, is never refused: the windows
    bound those; only new work from outside waits for room."""
    pool = inprocess.Pool(1, 1, schedule={})
    pool.stop()  # its thread ends at once: the queue only fills
    pool.submit(tasks.send_waiting, (), {})
    with pytest.raises(inprocess.QueueFull):
        pool.submit(tasks.send_waiting, (), {})
    inprocess._local.continuing = True
    try:
        pool.submit(tasks.send_waiting, (), {})
    finally:
        inprocess._local.continuing = False
    assert pool.counts() == (2, 0)


def _site_process(script: str, **env: str) -> str:
    environment = {key: value for key, value in os.environ.items()
                   if key != "CELERY_BROKER_URL"}
    environment.update(DJANGO_SETTINGS_MODULE="mahjong_site.settings", **env)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=environment,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip()


def test_the_web_process_runs_tasks_beside_requests_and_commands_where_queued() -> None:
    web = ("import mahjong_site.wsgi, threading; from replays import inprocess; "
           "print(inprocess.beside_requests(), "
           "any(t.name.startswith('in-process-tasks') for t in threading.enumerate()))")
    assert _site_process(web) == "True True"
    assert _site_process(web, CELERY_BROKER_URL="redis://127.0.0.1:1/0") == "False False"
    assert _site_process(web, IN_PROCESS_THREADS="0") == "False False"
    command = ("import django; django.setup(); from replays import inprocess; "
               "print(inprocess.beside_requests())")
    assert _site_process(command) == "False"


def test_it_finds_every_periodic_task_in_a_web_process_that_imported_none() -> None:
    """``make run``'s beat runs by name tasks whose modules no page had imported yet (the
    played matches' expiry stopped the pool's thread with ``NotRegistered``)."""
    script = ("import django; django.setup(); from django.conf import settings; "
              "from mahjong_site.celery import app; from replays import inprocess; "
              "names = [e['task'] for e in settings.CELERY_BEAT_SCHEDULE.values()]; "
              "before = sorted(n for n in names if n not in app.tasks); "
              "pool = inprocess.Pool(1, 1, schedule={}); pool._ensure_registered(names); "
              "print(bool(before), sorted(n for n in names if n not in app.tasks))")
    assert _site_process(script) == "True []"


def test_a_failing_periodic_task_leaves_the_pools_thread_working(
        monkeypatch: pytest.MonkeyPatch) -> None:
    logged: list[str] = []
    monkeypatch.setattr(inprocess.log, "exception", lambda text, *args: logged.append(
        text % args))
    pool = inprocess.Pool(1, 1, schedule={"broken": {"task": "replays.tasks.no_such_task",
                                                     "schedule": 0}})
    pool._maintain()  # logged, not raised: the thread that runs it goes on
    assert logged == ["in-process beat: broken (replays.tasks.no_such_task) failed"]


def test_sqlite_writers_wait_for_each_other(tmp_path: Any) -> None:
    """``make run``'s SQLite: the pool's thread and the requests' write in turn."""
    script = ("import django; django.setup(); from django.conf import settings; "
              "o = settings.DATABASES['default']['OPTIONS']; "
              "print(o['transaction_mode'], o['timeout'], o['init_command'])")
    found = _site_process(script, DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    assert found == "IMMEDIATE 20 PRAGMA journal_mode=WAL;"
