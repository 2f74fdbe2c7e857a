"""The annotation pipeline on Celery: uploads queue one task per hand, tasks are idempotent,
``reannotate`` fills the gaps, the viewer reports progress and failures.

Two halves:

* eager mode (the default in tests: no ``CELERY_BROKER_URL``), where a queued task runs
  in-process at once — the pipeline's bookkeeping, the ``reannotate`` command, the progress
  fragment and the failure message on the viewer;
* a real worker (``celery -A mahjong_site worker``, a subprocess) against Redis and the
  pytest-django test database — annotation by the worker, a worker SIGKILLed mid-match
  (acks_late: the message it held is delivered again and no hand is lost or annotated
  twice), and a task that keeps failing (retried with backoff, then the match is marked
  failed). These are skipped when Redis is unreachable or the tests do not run on
  PostgreSQL (a worker process cannot share an SQLite test database).

Every worker subprocess is killed in a finalizer, whatever the test's outcome. The Redis
database is ``ANNOTATION_TEST_REDIS_URL`` (default ``redis://127.0.0.1:6379/7``), and for
the kill test, whose workers run with a short visibility timeout, the next one
(``ANNOTATION_TEST_REDIS_KILL_URL``, default ``.../8``); each test uses its own queue name
and removes its own keys afterwards.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import html
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from io import StringIO
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.db.models import Count, Q

from games.analysis.annotation import ENGINE_VERSION
from replays.annotation import tasks
from replays.matches import services
from replays.models import Annotation, Hand, Match
from replays.retries import MAX_RETRIES

from .conftest import forget_connections, redis_or_skip, remove_queue_keys, wait_for

ROOT = Path(__file__).resolve().parent.parent
REDIS_URL = os.environ.get("ANNOTATION_TEST_REDIS_URL", "redis://127.0.0.1:6379/7")

# -- helpers ----------------------------------------------------------------------------

_DOCUMENTS: dict[tuple[str, int, int], bytes] = {}


def document(seed: int, variant: str = "sichuan", hands: int = 2) -> bytes:
    """A valid document played by the bots (played once per process)."""
    key = (variant, hands, seed)
    if key not in _DOCUMENTS:
        from games.bots.simulation import simulate
        from games.records.log import dumps

        _DOCUMENTS[key] = dumps(simulate(variant, hands, seed)).encode()
    return _DOCUMENTS[key]


def text_of(markup: str) -> str:
    """What a reader sees: the markup without tags, entities decoded, spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def status_paragraph(markup: str) -> str:
    """The ``<p id="annotation-status">`` element of a page or fragment."""
    found = re.search(r'<p id="annotation-status".*?</p>', markup, re.S)
    assert found, f"no annotation status in:\n{markup[:2000]}"
    return found.group(0)


def annotations_per_hand(match: Match) -> dict[int, int]:
    """Hand number -> how many annotations by the current engine it has (0 included)."""
    rows = Hand.objects.filter(match=match).order_by("number").values("number").annotate(
        n=Count("annotations", filter=Q(annotations__engine_version=ENGINE_VERSION)))
    return {row["number"]: row["n"] for row in rows}


# -- eager mode -------------------------------------------------------------------------


@pytest.fixture
def eager(db: None) -> Iterator[None]:
    """Tasks run in-process when queued (the test settings' default, enforced here)."""
    from mahjong_site.celery import app

    if not os.environ.get("CELERY_BROKER_URL"):
        assert app.conf.task_always_eager, "without a broker URL the settings run tasks eagerly"
    saved = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = saved


def upload_eagerly(capture: Any, raw: bytes, title: str = "") -> Match:
    """``store_document`` as one transaction, then its on-commit callbacks (the queueing)."""
    with capture(execute=True) as callbacks:
        with transaction.atomic():
            match = services.store_document(raw, title=title)
        assert Annotation.objects.filter(hand__match=match).count() == 0, \
            "nothing is annotated before the upload commits"
    # Later callbacks come from the tasks themselves (a finished match harvests puzzles).
    queued = [c for c in callbacks if c.__qualname__.startswith("store_document")]
    assert len(queued) == 1, "the upload queues its match once, on commit"
    match.refresh_from_db()
    return match


@pytest.mark.parametrize("via", ["service", "view"])
def test_it_upload_annotates_every_hand_once(eager: None, via: str, client: Any,
                                             django_capture_on_commit_callbacks: Any) -> None:
    raw = document(11, hands=3)
    if via == "service":
        match = upload_eagerly(django_capture_on_commit_callbacks, raw)
    else:
        from django.core.files.uploadedfile import SimpleUploadedFile

        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            response = client.post("/upload/", {
                "visibility": "public", "title": "", "text": "",
                "files": [SimpleUploadedFile("m.json", raw, content_type="application/json")]})
        assert response.status_code == 200
        assert [c.__qualname__.split(".")[0] for c in callbacks] == [
            "store_document", "annotate_hand"], "queued once; the last hand harvests puzzles"
        match = Match.objects.get()
    assert match.hand_count == 3
    assert annotations_per_hand(match) == {1: 1, 2: 1, 3: 1}
    assert Annotation.objects.filter(hand__match=match).count() == 3
    assert set(Annotation.objects.values_list("engine_version", flat=True)) == {ENGINE_VERSION}
    assert (match.annotation_status, match.annotation_error) == (Match.Status.DONE, "")
    assert tasks.progress(match) == (3, 3)

    page = client.get(match.get_absolute_url()).content.decode()
    assert text_of(status_paragraph(page)) == "Every decision is annotated."
    assert 'class="analysis-panel"' in page, "the viewer shows the analysis panel"


def test_it_rerunning_a_hand_replaces_its_annotation(
        eager: None, django_capture_on_commit_callbacks: Any) -> None:
    match = upload_eagerly(django_capture_on_commit_callbacks, document(12))
    hand = match.hands.get(number=1)
    before = Annotation.objects.get(hand=hand)
    other = Annotation.objects.get(hand__match=match, hand__number=2)
    Annotation.objects.filter(pk=before.pk).update(data={"stale": True})

    tasks.annotate_hand.delay(hand.pk)
    tasks.annotate_hand.apply(args=[hand.pk])  # and once more, for good measure

    after = Annotation.objects.get(hand=hand)  # .get(): still exactly one row
    assert after.pk == before.pk, "replaced in place, not deleted and added"
    assert after.engine_version == ENGINE_VERSION
    assert after.data == before.data, "the stale data is replaced by the analysis again"
    assert after.created_at >= before.created_at
    assert Annotation.objects.get(hand__match=match, hand__number=2) == other
    assert Annotation.objects.filter(hand__match=match).count() == 2
    match.refresh_from_db()
    assert match.annotation_status == Match.Status.DONE

    tasks.annotate_hand.delay(10 ** 9)  # a hand deleted since it was queued: nothing happens
    assert Annotation.objects.count() == 2


def test_it_reannotate_queues_only_hands_missing_the_current_engine(
        eager: None, django_capture_on_commit_callbacks: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    first = upload_eagerly(django_capture_on_commit_callbacks, document(13, hands=3))
    second = upload_eagerly(django_capture_on_commit_callbacks, document(14, hands=2))
    missing = first.hands.get(number=2)
    older = first.hands.get(number=3)
    Annotation.objects.filter(hand=missing).delete()
    Annotation.objects.filter(hand=older).update(engine_version="0")  # by an older engine
    untouched = {a.pk: (a.hand_id, a.data, a.created_at) for a in Annotation.objects.filter(
        engine_version=ENGINE_VERSION)}
    assert len(untouched) == 3

    queued: list[int] = []
    original = tasks.annotate_hand.delay

    def spy(hand_id: int) -> Any:
        queued.append(hand_id)
        return original(hand_id)

    monkeypatch.setattr(tasks.annotate_hand, "delay", spy)
    out = StringIO()
    call_command("reannotate", "--chunk", "1", stdout=out)

    assert sorted(queued) == sorted([missing.pk, older.pk])
    assert out.getvalue().strip().endswith(f"2 hands queued for engine version {ENGINE_VERSION}.")
    assert annotations_per_hand(first) == {1: 1, 2: 1, 3: 1}
    assert annotations_per_hand(second) == {1: 1, 2: 1}
    assert Annotation.objects.filter(hand=older, engine_version="0").exists(), \
        "the older engine's annotation is left alone"
    for pk, (hand_id, data, created_at) in untouched.items():
        row = Annotation.objects.get(pk=pk)
        assert (row.hand_id, row.data, row.created_at) == (hand_id, data, created_at)
    for match in (first, second):
        match.refresh_from_db()
        assert match.annotation_status == Match.Status.DONE

    queued.clear()
    out = StringIO()
    call_command("reannotate", stdout=out)
    assert queued == []
    assert f"0 hands queued for engine version {ENGINE_VERSION}." in out.getvalue()


def test_it_progress_fragment_counts_then_stops_polling(
        eager: None, client: Any, django_capture_on_commit_callbacks: Any) -> None:
    match = upload_eagerly(django_capture_on_commit_callbacks, document(15, hands=3))
    url = f"/replays/{match.public_id}/progress/"
    Annotation.objects.filter(hand__match=match, hand__number__gt=1).delete()

    for status in (Match.Status.QUEUED, Match.Status.RUNNING):
        Match.objects.filter(pk=match.pk).update(annotation_status=status)
        response = client.get(url)
        assert response.status_code == 200
        fragment = status_paragraph(response.content.decode())
        assert text_of(fragment).startswith("Annotating 1 of 3 hands"), fragment
        assert 'hx-trigger="every 2s"' in fragment
        assert f'hx-get="{url}"' in fragment

    Annotation.objects.filter(hand__match=match).delete()
    fragment = status_paragraph(client.get(url).content.decode())
    assert text_of(fragment).startswith("Annotating 0 of 3 hands"), fragment

    for hand in match.hands.all():
        tasks.annotate_hand.delay(hand.pk)
    match.refresh_from_db()
    assert match.annotation_status == Match.Status.DONE
    fragment = status_paragraph(client.get(url).content.decode())
    assert text_of(fragment) == "Every decision is annotated."
    assert "hx-trigger" not in fragment and "hx-get" not in fragment


def test_it_failing_task_marks_the_match_failed_and_the_viewer_says_why(
        eager: None, client: Any, monkeypatch: pytest.MonkeyPatch,
        django_capture_on_commit_callbacks: Any) -> None:
    calls: list[int] = []

    def broken(match: Match, number: int) -> dict[str, object]:
        calls.append(number)
        raise RuntimeError(f"engine exploded on hand {number}")

    monkeypatch.setattr(tasks, "annotate", broken)
    match = upload_eagerly(django_capture_on_commit_callbacks, document(16))

    assert sorted(calls) == [1, 2], "eagerly, each hand is tried once: no retry"
    assert match.annotation_status == Match.Status.FAILED
    assert re.fullmatch(r"hand (\d): RuntimeError: engine exploded on hand \1",
                        match.annotation_error), match.annotation_error
    assert not Annotation.objects.filter(hand__match=match).exists()

    page = client.get(match.get_absolute_url())
    assert page.status_code == 200
    shown = text_of(status_paragraph(page.content.decode()))
    assert shown == f"Annotation failed: {match.annotation_error}"
    assert 'class="analysis-panel"' not in page.content.decode()
    fragment = status_paragraph(client.get(f"/replays/{match.public_id}/progress/")
                                .content.decode())
    assert "hx-trigger" not in fragment
    assert match.annotation_error in text_of(fragment)


def test_it_reannotate_limit_leaves_unqueued_matches_alone(
        eager: None, client: Any, django_capture_on_commit_callbacks: Any) -> None:
    """``--limit`` stops part-way through a chunk: a match none of whose hands was queued
    keeps its status (marked queued, the viewer would poll it forever)."""
    first = upload_eagerly(django_capture_on_commit_callbacks, document(17, hands=1))
    second = upload_eagerly(django_capture_on_commit_callbacks, document(18, hands=1))
    Annotation.objects.all().delete()  # say, annotated by an engine since retired
    out = StringIO()
    call_command("reannotate", "--limit", "1", stdout=out)
    assert "1 hands queued (limit reached)." in out.getvalue()

    done, left = sorted((first, second), key=lambda match: match.hands.get().pk)
    done.refresh_from_db()
    left.refresh_from_db()
    assert annotations_per_hand(done) == {1: 1}
    assert done.annotation_status == Match.Status.DONE
    assert annotations_per_hand(left) == {1: 0}
    fragment = status_paragraph(client.get(f"/replays/{left.public_id}/progress/")
                                .content.decode())
    assert left.annotation_status == Match.Status.DONE, (
        f"no task was queued for it, yet it is {left.annotation_status!r}: "
        f"{text_of(fragment)!r}, polling: {'hx-trigger' in fragment}")


# -- a real worker against Redis ----------------------------------------------------------
#
# The kill test runs its workers with a visibility timeout of a couple of seconds. A worker
# starting up hands out again *every* message in its Redis database unacknowledged for
# longer than that — including the retry messages another test's worker holds until their
# countdown — so it gets a Redis database of its own (the next number).


@pytest.fixture
def broker_url() -> str:
    return REDIS_URL


@pytest.fixture
def redis_client(broker_url: str) -> Iterator[Any]:
    client = redis_or_skip(broker_url, socket_connect_timeout=3, socket_timeout=10)
    yield client
    client.close()


class Workers:
    """Celery worker subprocesses on one queue, against the test database; all killed at the
    end. Their output goes to files (a full pipe would block a worker)."""

    def __init__(self, broker_url: str, queue: str, database_url: str, folder: Path) -> None:
        self.broker_url = broker_url
        self.queue = queue
        self.database_url = database_url
        self.folder = folder
        self.started: list[tuple[subprocess.Popen[bytes], Path]] = []

    def start(self, pool: str = "solo", **env: str) -> subprocess.Popen[bytes]:
        number = len(self.started) + 1
        log = self.folder / f"worker-{number}.log"
        # CELERY_QUEUE: a finished hand sends its match's next one to this queue too.
        environment = {**os.environ, "CELERY_BROKER_URL": self.broker_url,
                       "DJANGO_SETTINGS_MODULE": "mahjong_site.settings",
                       "CELERY_QUEUE": self.queue,
                       "DATABASE_URL": self.database_url, "PYTHONUNBUFFERED": "1", **env}
        with open(log, "wb") as output:
            process = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "mahjong_site", "worker",
                 f"--pool={pool}", "--concurrency=1", "-Q", self.queue,
                 "-n", f"{self.queue}-{number}@%h",
                 "--without-heartbeat", "--without-mingle", "--without-gossip",
                 "-l", "warning"],
                cwd=ROOT, env=environment, stdout=output, stderr=subprocess.STDOUT,
                start_new_session=True)
        self.started.append((process, log))
        return process

    def check_alive(self, process: subprocess.Popen[bytes]) -> None:
        if process.poll() is not None:
            pytest.fail(f"a worker exited with {process.returncode}\n{self.logs()}")

    @staticmethod
    def kill(process: subprocess.Popen[bytes]) -> None:
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)  # its own session: the worker alone
            with contextlib.suppress(ProcessLookupError):
                process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=30)

    def kill_all(self) -> None:
        for process, _ in self.started:
            self.kill(process)

    def logs(self, tail: int | None = 4000) -> str:
        """The workers' logs, each cut to its last ``tail`` characters (for messages)."""
        parts = []
        for number, (_, log) in enumerate(self.started, start=1):
            text = log.read_text(errors="replace") if log.exists() else ""
            shown = text[-tail:] if tail else text
            parts.append(f"--- worker {number} ({log}) ---\n{shown}")
        return "\n".join(parts)


def _test_database_url() -> str:
    """The database pytest-django set up for this test process, as a DATABASE_URL."""
    settings = connection.settings_dict
    user = quote(settings.get("USER") or "", safe="")
    password = quote(settings.get("PASSWORD") or "", safe="")
    credentials = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = settings.get("HOST") or "localhost"
    port = f":{settings['PORT']}" if settings.get("PORT") else ""
    return f"postgres://{credentials}{host}{port}/{quote(settings['NAME'], safe='')}"


@pytest.fixture
def workers(transactional_db: None, broker_url: str, redis_client: Any,
            tmp_path: Path) -> Iterator[Workers]:
    """The test process sends to Redis on a queue of its own; ``workers.start()`` starts a
    worker for it. Workers see only committed rows, hence ``transactional_db``."""
    if connection.vendor != "postgresql":
        pytest.skip(f"a worker process cannot share the {connection.vendor} test database; "
                    "run with DATABASE_URL=postgres://...")
    with private_workers("annotest", ("replays.tasks.annotate_hand",), broker_url,
                         redis_client, tmp_path) as group:
        yield group


@contextlib.contextmanager
def private_workers(prefix: str, task_names: tuple[str, ...], broker_url: str,
                    redis_client: Any, tmp_path: Path) -> Iterator[Workers]:
    """The named tasks sent to Redis on a queue of the test's own, with workers for it on
    request; afterwards the app's settings are restored and the queue's keys removed."""
    from mahjong_site.celery import app

    queue = f"{prefix}-{uuid.uuid4().hex[:12]}"
    saved = {key: app.conf[key] for key in ("task_always_eager", "broker_url", "task_routes")}
    app.conf.update(task_always_eager=False, broker_url=broker_url,
                    task_routes={name: {"queue": queue} for name in task_names})
    app.amqp.flush_routes()
    forget_connections(app)
    group = Workers(broker_url, queue, _test_database_url(), tmp_path)
    try:
        yield group
    finally:
        group.kill_all()
        forget_connections(app)
        app.conf.update(saved)
        app.amqp.flush_routes()
        with contextlib.suppress(Exception):
            remove_queue_keys(redis_client, queue)


def _without_queueing(monkeypatch: pytest.MonkeyPatch, raw: bytes) -> Match:
    """Store a document without its on-commit queueing (the test queues it when ready)."""
    with monkeypatch.context() as patch:
        patch.setattr(services, "_queue", lambda match_id: None)
        match = services.store_document(raw)
    assert Match.objects.get(pk=match.pk).annotation_status == Match.Status.QUEUED
    return match


def _hand_of(message: dict[str, Any]) -> int:
    """The hand id a task message (Celery protocol 2, JSON) is for."""
    args, _kwargs, _embed = json.loads(base64.b64decode(message["body"]))
    return int(args[0])


def _unacked(client: Any, queue: str) -> dict[int, float]:
    """Hand id of each message on ``queue`` delivered but not acknowledged -> when (epoch)."""
    found: dict[int, float] = {}
    for tag, value in client.hgetall("unacked").items():
        message, _exchange, routing_key = json.loads(value)
        if routing_key == queue:
            found[_hand_of(message)] = client.zscore("unacked_index", tag) or 0.0
    return found


def _waiting(client: Any, queue: str) -> set[int]:
    """Hand ids of the messages still in ``queue``, not delivered yet."""
    return {_hand_of(json.loads(item)) for item in client.lrange(queue, 0, -1)}


def _settled(workers: Workers, worker: subprocess.Popen[bytes], match: Match) -> Callable[
        [], bool]:
    def settled() -> bool:
        workers.check_alive(worker)
        return Match.objects.get(pk=match.pk).annotation_status in (
            Match.Status.DONE, Match.Status.FAILED)

    return settled


def test_it_worker_annotates_an_upload(workers: Workers) -> None:
    worker = workers.start()
    match = services.store_document(document(21, hands=3))  # commits, then queues

    wait_for(_settled(workers, worker, match), 90, "the worker to annotate the upload",
             workers.logs)
    match.refresh_from_db()
    assert (match.annotation_status, match.annotation_error) == (Match.Status.DONE, ""), \
        workers.logs()
    assert annotations_per_hand(match) == {1: 1, 2: 1, 3: 1}
    assert Annotation.objects.filter(hand__match=match).count() == 3


def _next_database(url: str) -> str:
    base, _, number = url.rpartition("/")
    return f"{base}/{int(number or 0) + 1}" if number.isdigit() or not number else url


@pytest.mark.parametrize("broker_url", [
    os.environ.get("ANNOTATION_TEST_REDIS_KILL_URL", _next_database(REDIS_URL))],
    ids=["own-redis-db"])
def test_it_worker_killed_mid_hand_loses_no_hand(workers: Workers, redis_client: Any,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    visibility = 2  # seconds before a message held by a dead worker is handed out again
    # Prefork, not solo: a solo worker runs the task inside its event loop, so even an early
    # ack (acks_late=False) is only sent after the task — this test could not tell them apart.
    # The whole process group is killed: the pool's child and its parent.
    start = functools.partial(workers.start, "prefork",
                              CELERY_VISIBILITY_TIMEOUT=str(visibility))
    worker = start()  # boots meanwhile
    match = _without_queueing(monkeypatch, document(22, variant="jiaxing", hands=12))
    hands = match.hand_count
    tasks.queue_match(match.pk)

    def mid_hand() -> bool:
        """A tenth of a second into a hand (after the last annotation; every hand of this
        match takes longer), the worker holding a message for a hand not annotated: away from
        the moments a message is taken and acknowledged."""
        workers.check_alive(worker)
        written = [moment.timestamp() for moment in Annotation.objects.filter(
            hand__match=match).values_list("created_at", flat=True)]
        annotated = set(Annotation.objects.filter(hand__match=match).values_list(
            "hand_id", flat=True))
        now = time.time()
        return bool(written) and now - max(written) > 0.1 and any(
            hand_id not in annotated and now - since > 0.1
            for hand_id, since in _unacked(redis_client, workers.queue).items())

    # Kill it while it works on a hand. Rarely the hand ends between the look and the kill,
    # and the worker dies holding nothing: then a new worker is started and killed again.
    all_hands = set(match.hands.values_list("pk", flat=True))
    for _attempt in range(3):
        wait_for(mid_hand, 90, "a worker to be in the middle of a hand", workers.logs,
                 interval=0.005)
        workers.kill(worker)
        assert worker.returncode == -signal.SIGKILL
        held = _unacked(redis_client, workers.queue)
        annotated = set(Annotation.objects.filter(hand__match=match).values_list(
            "hand_id", flat=True))
        waiting = _waiting(redis_client, workers.queue)
        # Hands are sent a few at a time (issue 16): the later ones are not on the broker yet.
        unsent = set(match.hands.filter(number__gt=Match.objects.get(
            pk=match.pk).annotation_sent).values_list("pk", flat=True))
        assert annotated | set(held) | waiting | unsent == all_hands, (
            "a message taken by the killed worker vanished (acknowledged before its hand was "
            f"annotated): hands {sorted(all_hands - annotated - set(held) - waiting - unsent)}")
        if held:
            break
        worker = start()
    assert held, "a killed worker's message stays unacknowledged (acks_late)"
    assert 0 < len(annotated) < hands, "the worker was killed in the middle of the match"

    # Redis hands a dead worker's message out again once its visibility timeout has passed:
    # a worker starting after that restores it at once (later, only every few minutes).
    deadline = max(held.values()) + visibility + 0.5
    wait_for(lambda: time.time() > deadline, visibility + 30, "the visibility timeout")
    worker = start()

    wait_for(_settled(workers, worker, match), 90, "the second worker to finish the match",
             workers.logs)
    match.refresh_from_db()
    assert (match.annotation_status, match.annotation_error) == (Match.Status.DONE, ""), \
        workers.logs()
    assert annotations_per_hand(match) == dict.fromkeys(range(1, hands + 1), 1)
    assert Annotation.objects.filter(hand__match=match).count() == hands
    wait_for(lambda: not _unacked(redis_client, workers.queue), 30,
             "the redelivered message to be acknowledged", workers.logs)


def test_it_worker_retries_a_failing_task_then_marks_the_match_failed(
        workers: Workers, monkeypatch: pytest.MonkeyPatch) -> None:
    worker = workers.start(CELERY_TRACE_LOG_LEVEL="INFO")  # log retries; boots meanwhile
    match = _without_queueing(monkeypatch, document(23, hands=2))
    Match.objects.filter(pk=match.pk).update(document=b"not json")  # unreadable for the worker
    queued_at = time.monotonic()
    tasks.queue_match(match.pk)

    wait_for(_settled(workers, worker, match), 90, "the match to be marked failed",
             workers.logs)
    elapsed = time.monotonic() - queued_at
    match.refresh_from_db()
    assert match.annotation_status == Match.Status.FAILED, workers.logs()
    backoff = sum(2 ** n for n in range(MAX_RETRIES))  # 1 + 2 + 4 seconds
    assert elapsed >= backoff, f"failed after {elapsed:.1f}s: before the retries' backoff"
    assert re.fullmatch(r"hand [12]: LogError: .*not valid JSON.*", match.annotation_error,
                        re.S), match.annotation_error
    assert not Annotation.objects.filter(hand__match=match).exists()

    # Each hand's task is retried three times, after 1, 2 and 4 s, then fails for good once.
    hand_ids = list(match.hands.values_list("pk", flat=True))
    wait_for(lambda: all(f"annotating hand {pk} failed" in workers.logs(tail=None)
                         for pk in hand_ids),
             30, "both hands' final failures to be logged", workers.logs)
    logs = workers.logs(tail=None)
    retries: dict[str, list[str]] = {}
    for task_id, delay in re.findall(r"annotate_hand\[([0-9a-f-]+)\] retry: Retry in (\d+)s",
                                     logs):
        retries.setdefault(task_id, []).append(delay)
    assert sorted(retries.values()) == [["1", "2", "4"]] * len(hand_ids), logs
    for hand_id in hand_ids:
        assert logs.count(f"annotating hand {hand_id} failed") == 1, logs


def test_it_last_hands_finishing_together_mark_the_match_done(
        transactional_db: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two tasks (two worker processes, as with --concurrency 2) write the last two hands'
    annotations at the same time; whichever commits second must see both and mark the match
    done. Each task, once its row is written, waits for the other to write its own — or to
    wait for a lock this one holds (the tasks may serialize), seen in ``pg_locks``."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (pg_locks)")
    match = _without_queueing(monkeypatch, document(24, hands=2))
    hand_ids = list(match.hands.values_list("pk", flat=True))
    written = {pk: threading.Event() for pk in hand_ids}
    backends: dict[int, int] = {}
    upsert = Annotation.objects.update_or_create

    def in_step(*args: Any, **kwargs: Any) -> Any:
        row = upsert(*args, **kwargs)
        me = kwargs["hand"].pk
        other = next(pk for pk in hand_ids if pk != me)
        written[me].set()
        deadline = time.monotonic() + 30
        with connection.cursor() as cursor:
            while not written[other].wait(0.01) and time.monotonic() < deadline:
                cursor.execute("SELECT count(*) FROM pg_locks WHERE pid = %s AND NOT granted",
                               [backends[other]])
                if cursor.fetchone()[0]:
                    break  # the other waits for a lock this transaction holds
        return row

    monkeypatch.setattr(Annotation.objects, "update_or_create", in_step)
    errors: list[BaseException] = []
    ready = threading.Barrier(len(hand_ids), timeout=60)

    def run(hand_id: int) -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                backends[hand_id] = cursor.fetchone()[0]
            ready.wait()
            tasks.annotate_hand.apply(args=[hand_id], throw=True)
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(pk,)) for pk in hand_ids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=90)
    assert not errors and not any(thread.is_alive() for thread in threads), errors
    assert annotations_per_hand(match) == {1: 1, 2: 1}
    match.refresh_from_db()
    assert match.annotation_status == Match.Status.DONE, (
        f"every hand is annotated, yet the match is {match.annotation_status!r}")


def test_it_time_limit_settings_reach_the_annotation_task() -> None:
    script = ("import django; django.setup(); from replays.annotation.tasks import annotate_hand as t; "
              "print(t.soft_time_limit, t.time_limit)")
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "mahjong_site.settings",
                   "CELERY_SOFT_TIME_LIMIT": "30", "CELERY_TIME_LIMIT": "45"}
    environment.pop("CELERY_BROKER_URL", None)
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=environment,
                            capture_output=True, text=True, timeout=60, check=True)
    assert result.stdout.split() == ["30", "45"]



def test_it_replaces_worker_processes_that_grow_too_big() -> None:
    """The engine's tables grow with the hands met: the memory cap reaches Celery in KiB."""
    script = ("import django; django.setup(); from mahjong_site.celery import app; "
              "print(app.conf.worker_max_memory_per_child)")
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "mahjong_site.settings",
                   "CELERY_WORKER_MAX_MEMORY_MB": "300"}
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=environment,
                            capture_output=True, text=True, timeout=60, check=True)
    assert result.stdout.split() == [str(300 * 1024)]

# -- manage.py bench_annotation (the site's speed figures) --------------------------------


def _bench(*args: str) -> dict[str, Any]:
    out = StringIO()
    call_command("bench_annotation", *args, stdout=out)
    return json.loads(out.getvalue())


def _assert_bench_figures(figures: dict[str, Any], hands: int) -> None:
    for variant in ("jiaxing", "putian", "sichuan"):
        assert figures[variant]["hands"] == hands
        assert 0 < figures[variant]["upload_s"] <= figures[variant]["upload_to_done_s"]


def test_it_bench_times_uploads_annotated_in_process(transactional_db: None) -> None:
    from mahjong_site.celery import app

    saved = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        figures = _bench("--hands", "2", "--seed", "5")
    finally:
        app.conf.task_always_eager = saved
    assert figures["worker"] == "in-process"
    _assert_bench_figures(figures, 2)
    assert not Match.objects.exists(), "the bench deletes its matches"


def test_it_bench_starts_its_own_worker_and_cleans_up(
        workers: Workers, redis_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", workers.database_url)
    monkeypatch.setenv("CELERY_BROKER_URL", workers.broker_url)
    before = set(redis_client.keys("*bench-*"))

    figures = _bench("--hands", "2", "--seed", "6", "--timeout", "120")

    assert figures["worker"] == "1 (solo pool)"
    _assert_bench_figures(figures, 2)
    assert not Match.objects.exists(), "the bench deletes its matches"
    assert set(redis_client.keys("*bench-*")) == before, "its queue and bindings are gone"


def test_it_bench_refuses_nonsense() -> None:
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="--hands must be at least 1"):
        call_command("bench_annotation", "--hands", "0")
