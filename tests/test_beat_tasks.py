"""Celery beat's periodic tasks and the workers' heartbeat.

* ``roll_daily_puzzles``: today's and tomorrow's puzzle of every variant, idempotent, a
  staff pin kept;
* ``requeue_stuck``: the hands of a match waiting longer than ANNOTATION_STUCK_MINUTES go
  back on the queue — only hands without an annotation by the current engine, only once
  per period, not while annotations are being written or the broker has a backlog;
* the beat schedule names tasks that exist;
* ``worker_seen``: throttled writes from the worker's signals, and a real worker (Redis
  ``BEAT_TEST_REDIS_URL``, default db 13, and the PostgreSQL test database) recording
  itself when ready, with its heartbeat and when it stops.

Tasks run eagerly here (no broker), as the settings make them without CELERY_BROKER_URL.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.db import connection
from django.utils import timezone

from games.analysis.annotation import ENGINE_VERSION
from replays import health
from replays.annotation import tasks
from replays.matches import services
from replays.models import Annotation, DailyPuzzle, Match, WorkerHeartbeat
from replays.operations import heartbeats
from replays.puzzles import services as puzzles
from replays.puzzles import tasks as puzzle_tasks

from .conftest import bot_document, forget_connections, redis_or_skip, wait_for

ROOT = Path(__file__).resolve().parent.parent
REDIS_URL = os.environ.get("BEAT_TEST_REDIS_URL", "redis://127.0.0.1:6379/13")
pytestmark = pytest.mark.filterwarnings("ignore:No directory at:UserWarning")


def store(seed: int, hands: int = 2, **kwargs: Any) -> Match:
    """A match stored without being queued (as if its messages were lost)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(services, "_queue", lambda match_id: None)
        return services.store_document(bot_document(seed, hands=hands), **kwargs)


def waited(match: Match, minutes: float) -> Match:
    Match.objects.filter(pk=match.pk).update(
        annotation_queued_at=timezone.now() - dt.timedelta(minutes=minutes))
    match.refresh_from_db()
    return match


def annotate(match: Match, number: int, engine: str = ENGINE_VERSION, age: float = 60) -> None:
    """Give one hand an annotation written ``age`` minutes ago."""
    row = Annotation.objects.create(hand=match.hands.get(number=number), engine_version=engine,
                                    data={"decisions": []})
    Annotation.objects.filter(pk=row.pk).update(
        created_at=timezone.now() - dt.timedelta(minutes=age))


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The hands ``annotate_hand`` is sent for (to a broker that keeps them)."""
    hands: list[int] = []
    monkeypatch.setattr(tasks.annotate_hand, "delay", hands.append)
    return hands


def requeue(capture: Any) -> int:
    with capture(execute=True):
        return int(tasks.requeue_stuck.delay().get())


# -- the schedule ---------------------------------------------------------------------------


def test_the_beat_schedule_names_real_tasks(settings: Any) -> None:
    from mahjong_site.celery import app

    schedule = app.conf.beat_schedule
    assert set(schedule) == {"roll-daily-puzzles", "requeue-stuck-annotations",
                             "send-waiting-annotations", "requeue-stuck-values",
                             "expire-stale-play", "tend-upload-checks",
                             "apply-table-deadlines", "expire-stale-recordings"}
    app.loader.import_default_modules()
    for name, entry in schedule.items():
        task = app.tasks[entry["task"]]  # KeyError: no such task
        assert task.acks_late and task.ignore_result, name
        assert 0 < entry["schedule"] <= 3600, name
        assert entry["options"]["expires"] <= entry["schedule"], (
            "a run the workers could not take before the next one is dropped")
    assert schedule["roll-daily-puzzles"]["task"] == puzzle_tasks.roll_daily_puzzles.name
    assert schedule["requeue-stuck-annotations"]["task"] == tasks.requeue_stuck.name
    # Matches stored during a broker outage are sent within a minute of its end (issue 16).
    assert schedule["send-waiting-annotations"]["task"] == tasks.send_waiting.name
    assert schedule["send-waiting-annotations"]["schedule"] <= 60
    assert tasks.requeue_stuck.soft_time_limit == settings.CELERY_TASK_SOFT_TIME_LIMIT


def test_every_beat_task_goes_to_the_maintenance_queue(settings: Any) -> None:
    """Issue 24: beat's messages expired unread behind a backlog of analysis. Each periodic
    task, this one and any added later, is sent to a queue of its own."""
    from mahjong_site.celery import app

    maintenance = settings.CELERY_MAINTENANCE_QUEUE
    assert maintenance and maintenance != app.conf.task_default_queue
    app.loader.import_default_modules()
    for name, entry in app.conf.beat_schedule.items():
        assert entry["options"]["queue"] == maintenance, name
        route = app.amqp.router.route(dict(entry["options"]), entry["task"])
        assert route["queue"].name == maintenance, name


def test_the_schedule_follows_the_environment() -> None:
    script = ("import django; django.setup(); from mahjong_site.celery import app; "
              "s = app.conf.beat_schedule; from django.conf import settings as x; "
              "print(s['roll-daily-puzzles']['schedule'], "
              "s['requeue-stuck-annotations']['schedule'], x.ANNOTATION_STUCK_MINUTES, "
              "s['send-waiting-annotations']['options']['queue'])")
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "mahjong_site.settings",
                   "BEAT_ROLL_PUZZLES_MINUTES": "30", "BEAT_REQUEUE_STUCK_MINUTES": "2",
                   "ANNOTATION_STUCK_MINUTES": "40", "CELERY_MAINTENANCE_QUEUE": "upkeep"}
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=environment,
                            capture_output=True, text=True, timeout=60, check=True)
    assert result.stdout.split() == ["1800.0", "120.0", "40", "upkeep"]


def test_the_deployment_guide_documents_every_environment_variable() -> None:
    """docs/deploy.md's reference names every variable mahjong_site/settings.py reads."""
    import re

    settings_py = (ROOT / "mahjong_site" / "settings.py").read_text()
    read = set(re.findall(r'env_(?:str|bool|int|list)\(\s*"([A-Z0-9_]+)"', settings_py))
    read |= set(re.findall(r'os\.environ\.get\(\s*"([A-Z0-9_]+)"', settings_py))
    assert {"DATABASE_URL", "CELERY_BROKER_URL", "ANNOTATION_STUCK_MINUTES"} <= read
    guide = (ROOT / "docs" / "deploy.md").read_text()
    table = guide[guide.index("## Environment variables"):]
    documented = set(re.findall(r"^\| `([A-Z0-9_]+)` \|", table, re.M))
    assert read - documented == set(), "undocumented in docs/deploy.md"
    assert documented - read == set(), "documented but never read"


# -- rolling the daily puzzles ---------------------------------------------------------------


def test_it_rolls_today_and_tomorrow_once(db: None, staff: Any,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    today = dt.date(2026, 3, 2)  # a Monday: easy puzzles, quick to make
    monkeypatch.setattr(puzzles, "puzzle_day", lambda moment=None: today)
    tomorrow = today + dt.timedelta(days=1)
    pinned = puzzles.generated_puzzle("putian", 2, "staff-choice")
    puzzles.pin_daily(pinned, tomorrow, staff)

    assert puzzle_tasks.roll_daily_puzzles.delay().get() == 6
    rows = {(row.day, row.variant): row.puzzle_id for row in DailyPuzzle.objects.all()}
    assert set(rows) == {(day, variant) for day in (today, tomorrow)
                         for variant in ("jiaxing", "putian", "sichuan")}
    assert rows[(tomorrow, "putian")] == pinned.pk, "a staff pin is kept"

    puzzle_tasks.roll_daily_puzzles.delay()
    again = {(row.day, row.variant): row.puzzle_id for row in DailyPuzzle.objects.all()}
    assert again == rows


# -- requeueing stuck matches ----------------------------------------------------------------


def test_queueing_a_match_stamps_the_time(db: None, sent: list[int]) -> None:
    match = store(31)
    assert match.annotation_queued_at is None
    before = timezone.now()
    tasks.queue_match(match.pk)
    match.refresh_from_db()
    assert before <= match.annotation_queued_at <= timezone.now()
    assert sorted(sent) == sorted(match.hands.values_list("pk", flat=True))


def test_it_requeues_only_the_missing_hands_of_a_stuck_match(
        db: None, sent: list[int], settings: Any,
        django_capture_on_commit_callbacks: Any) -> None:
    settings.ANNOTATION_STUCK_MINUTES = 15
    match = waited(store(32, hands=3), 20)
    annotate(match, 1)
    annotate(match, 2, engine="0")  # an older engine's: still to do
    before = timezone.now()

    assert requeue(django_capture_on_commit_callbacks) == 2
    assert sent == [match.hands.get(number=n).pk for n in (2, 3)]
    match.refresh_from_db()
    assert match.annotation_queued_at >= before, "its clock restarts"
    assert match.annotation_status == Match.Status.QUEUED

    sent.clear()
    assert requeue(django_capture_on_commit_callbacks) == 0, "not again within the period"
    assert sent == []


def test_a_requeued_match_is_annotated_to_the_end(db: None, settings: Any,
                                                  django_capture_on_commit_callbacks: Any
                                                  ) -> None:
    settings.ANNOTATION_STUCK_MINUTES = 15
    match = waited(store(33, hands=2), 30)
    Match.objects.filter(pk=match.pk).update(annotation_status=Match.Status.RUNNING)
    assert requeue(django_capture_on_commit_callbacks) == 2  # run in-process: no broker
    match.refresh_from_db()
    assert (match.annotation_status, tasks.progress(match)) == (Match.Status.DONE, (2, 2))


def test_a_match_without_its_time_counts_from_its_upload(
        db: None, sent: list[int], django_capture_on_commit_callbacks: Any) -> None:
    """Matches stored before annotation_queued_at existed."""
    match = store(34, hands=1)
    Match.objects.filter(pk=match.pk).update(uploaded_at=timezone.now() - dt.timedelta(hours=2))
    assert requeue(django_capture_on_commit_callbacks) == 1
    assert sent == [match.hands.get().pk]


def test_it_leaves_waiting_matches_that_are_not_stuck(
        db: None, sent: list[int], settings: Any,
        django_capture_on_commit_callbacks: Any) -> None:
    settings.ANNOTATION_STUCK_MINUTES = 15
    young = waited(store(35), 10)  # not long enough
    busy = waited(store(36), 60)
    annotate(busy, 1, age=2)  # a worker wrote one a moment ago: it is moving
    failed = waited(store(37), 60)
    done = waited(store(38), 60)
    Match.objects.filter(pk=failed.pk).update(annotation_status=Match.Status.FAILED)
    Match.objects.filter(pk=done.pk).update(annotation_status=Match.Status.DONE)

    assert requeue(django_capture_on_commit_callbacks) == 0
    assert sent == []
    for match in (young, busy, failed, done):
        before = match.annotation_queued_at
        match.refresh_from_db()
        assert match.annotation_queued_at == before


def test_a_stuck_match_with_every_hand_annotated_is_marked_done(
        db: None, sent: list[int], django_capture_on_commit_callbacks: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    match = waited(store(39, hands=2), 60)
    annotate(match, 1)
    annotate(match, 2)
    harvested: list[int] = []
    monkeypatch.setattr(puzzle_tasks.harvest_puzzles, "delay", harvested.append)
    assert requeue(django_capture_on_commit_callbacks) == 0
    match.refresh_from_db()
    assert match.annotation_status == Match.Status.DONE
    assert sent == [] and harvested == [match.pk], "a public match gets its puzzles"


def test_a_broker_backlog_is_not_a_loss(db: None, sent: list[int],
                                        monkeypatch: pytest.MonkeyPatch,
                                        django_capture_on_commit_callbacks: Any) -> None:
    match = waited(store(40), 60)
    monkeypatch.setattr(health, "queue_length", lambda: health.QueueLength(25, 2, "ok"))
    assert requeue(django_capture_on_commit_callbacks) == 0
    assert sent == []
    monkeypatch.setattr(health, "queue_length", lambda: health.QueueLength(0, 2, "ok"))
    assert requeue(django_capture_on_commit_callbacks) == 2
    assert sorted(sent) == sorted(match.hands.values_list("pk", flat=True))


# -- workers last seen ----------------------------------------------------------------------


@pytest.fixture
def fresh_beats(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heartbeats, "_last_written", {})


def test_worker_heartbeats_are_throttled(db: None, fresh_beats: None, settings: Any) -> None:
    settings.WORKER_HEARTBEAT_SECONDS = 30
    assert heartbeats.worker_seen("celery@one", started=True)
    row = WorkerHeartbeat.objects.get()
    assert (row.hostname, row.processed, row.stopped_at) == ("celery@one", 0, None)
    assert row.started_at == row.last_seen
    assert not heartbeats.worker_seen("celery@one", processed=5), "within 30 s: no write"
    assert heartbeats.worker_seen("celery@two"), "each worker has its own clock"

    heartbeats._last_written["celery@one"] -= 31
    assert heartbeats.worker_seen("celery@one", processed=5, active=1)
    row.refresh_from_db()
    assert (row.processed, row.active) == (5, 1) and row.last_seen > row.started_at
    assert heartbeats.worker_seen("celery@one", stopped=True), "a shutdown is always written"
    row.refresh_from_db()
    assert row.stopped_at == row.last_seen
    assert WorkerHeartbeat.objects.count() == 2
    assert not heartbeats.worker_seen("")


def test_tasks_run_in_process_record_no_worker(db: None, fresh_beats: None) -> None:
    tasks.annotate_hand.delay(10 ** 9)
    tasks.requeue_stuck.delay()
    assert not WorkerHeartbeat.objects.exists()


def test_a_heartbeat_never_breaks_the_worker(db: None, fresh_beats: None,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from django.db import DatabaseError

    def broken(**kwargs: Any) -> Any:
        raise DatabaseError("the database went away")

    monkeypatch.setattr(WorkerHeartbeat.objects, "update_or_create", broken)
    assert heartbeats.worker_seen("celery@one") is False


# -- a real worker --------------------------------------------------------------------------


def _database_url() -> str:
    settings = connection.settings_dict
    user = quote(settings.get("USER") or "", safe="")
    host = settings.get("HOST") or "localhost"
    port = f":{settings['PORT']}" if settings.get("PORT") else ""
    return f"postgres://{user + '@' if user else ''}{host}{port}/{quote(settings['NAME'])}"


@pytest.fixture
def redis_client() -> Iterator[Any]:
    client = redis_or_skip(REDIS_URL, socket_connect_timeout=3, socket_timeout=10)
    yield client
    client.close()


def test_a_worker_records_when_it_starts_beats_and_stops(
        transactional_db: None, redis_client: Any, tmp_path: Path) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("a worker process cannot share an SQLite test database")
    from mahjong_site.celery import app

    queue = f"beattest-{uuid.uuid4().hex[:12]}"
    name = f"{queue}@test"
    log = tmp_path / "worker.log"
    environment = {**os.environ, "CELERY_BROKER_URL": REDIS_URL, "DATABASE_URL": _database_url(),
                   "DJANGO_SETTINGS_MODULE": "mahjong_site.settings", "PYTHONUNBUFFERED": "1",
                   "WORKER_HEARTBEAT_SECONDS": "1"}
    with open(log, "wb") as output:
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "mahjong_site", "worker", "--pool=solo",
             "-Q", queue, "-n", name, "--without-mingle", "--without-gossip", "-l", "info"],
            cwd=ROOT, env=environment, stdout=output, stderr=subprocess.STDOUT,
            start_new_session=True)

    def logs() -> str:
        return log.read_text(errors="replace")[-4000:]

    saved = {key: app.conf[key] for key in ("task_always_eager", "broker_url")}
    try:
        started = wait_for(lambda: WorkerHeartbeat.objects.filter(
            hostname=name, started_at__isnull=False).first(), 60, "the worker to be ready", logs)
        assert started.stopped_at is None

        app.conf.update(task_always_eager=False, broker_url=REDIS_URL)
        forget_connections(app)
        tasks.annotate_hand.apply_async(args=[10 ** 9], queue=queue)  # no such hand: a no-op
        beat = wait_for(lambda: WorkerHeartbeat.objects.filter(
            hostname=name, processed__gte=1).first(), 60, "a heartbeat after the task", logs)
        assert beat.last_seen > started.last_seen

        worker.send_signal(signal.SIGTERM)  # a warm shutdown
        worker.wait(timeout=60)
        stopped = WorkerHeartbeat.objects.get(hostname=name)
        assert stopped.stopped_at is not None, logs()
    finally:
        app.conf.update(saved)
        forget_connections(app)
        if worker.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(worker.pid, signal.SIGKILL)
            worker.wait(timeout=30)
        for key in redis_client.scan_iter(match=f"*{queue}*"):
            redis_client.delete(key)


def _start(command: list[str], log: Path, **env: str) -> subprocess.Popen[bytes]:
    """A Celery process (worker or beat) of its own session, its output in ``log``."""
    environment = {**os.environ, "CELERY_BROKER_URL": REDIS_URL, "DATABASE_URL": _database_url(),
                   "DJANGO_SETTINGS_MODULE": "mahjong_site.settings", "PYTHONUNBUFFERED": "1",
                   **env}
    with open(log, "wb") as output:
        return subprocess.Popen([sys.executable, "-m", "celery", "-A", "mahjong_site", *command],
                                cwd=ROOT, env=environment, stdout=output,
                                stderr=subprocess.STDOUT, start_new_session=True)


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=30)


def test_matches_stored_during_an_outage_are_sent_within_a_minute_behind_a_backlog(
        transactional_db: None, redis_client: Any, tmp_path: Path) -> None:
    """Issue 24: beat's ``send_waiting`` went to the analysis queue and expired unread
    behind its backlog. Here the analysis queue holds 300 messages no worker gets to (every
    one is busy); beat, sending every 2 s, and the maintenance worker the deployment guide
    runs (``make worker-maintenance``) queue the match stored during the outage within the
    minute all the same."""
    if connection.vendor != "postgresql":
        pytest.skip("a worker process cannot share an SQLite test database")
    from mahjong_site.celery import app

    from .conftest import configured_broker, remove_queue_keys

    token = f"outagetest-{uuid.uuid4().hex[:12]}"
    analysis, maintenance = f"{token}-analysis", f"{token}-maintenance"
    match = store(43, hands=2)  # stored while the broker was down: queued, never sent
    assert (match.annotation_status, match.annotation_queued_at) == ("queued", None)
    processes: list[subprocess.Popen[bytes]] = []
    logs = [tmp_path / "maintenance-worker.log", tmp_path / "beat.log"]

    def tails() -> str:
        return "\n".join(f"--- {log.name} ---\n{log.read_text(errors='replace')[-3000:]}"
                         for log in logs if log.exists())

    try:
        with configured_broker(REDIS_URL):
            forget_connections(app)
            for _ in range(300):  # hands of other matches, waiting their turn
                app.send_task("replays.tasks.annotate_hand", args=[10 ** 9], queue=analysis)
        forget_connections(app)
        env = {"CELERY_QUEUE": analysis, "CELERY_MAINTENANCE_QUEUE": maintenance,
               "BEAT_SEND_WAITING_SECONDS": "2"}
        processes.append(_start(
            ["worker", "--pool=solo", "--concurrency=1", "--prefetch-multiplier=1",
             "-Q", maintenance, "-n", f"{maintenance}@test", "--without-mingle",
             "--without-gossip", "-l", "info"], logs[0], **env))
        processes.append(_start(
            ["beat", "-l", "info", "--schedule", str(tmp_path / "beat-schedule")], logs[1],
            **env))

        def sent() -> bool:
            for process in processes:
                if process.poll() is not None:
                    pytest.fail(f"a Celery process exited with {process.returncode}\n{tails()}")
            return Match.objects.get(pk=match.pk).annotation_queued_at is not None

        wait_for(sent, 60, "the match stored during the outage to be queued", tails)
        # The row is marked queued as its hands are sent: on a loaded machine the test may
        # look between the two, so it waits (briefly) for both hands behind the backlog.
        wait_for(lambda: redis_client.llen(analysis) >= 300 + 2, 15,
                 "its hands to wait behind the backlog", tails)
        assert redis_client.llen(analysis) == 300 + 2, "its hands wait behind the backlog"
    finally:
        for process in processes:
            _stop(process)
        forget_connections(app)
        remove_queue_keys(redis_client, token)
