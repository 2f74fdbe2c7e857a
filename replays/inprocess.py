"""Tasks without a broker, beside the request: a bounded pool of threads in the web process.

Without ``CELERY_BROKER_URL`` Celery runs a task where it is queued
(``CELERY_TASK_ALWAYS_EAGER``). In a web process that made the request wait for the
analysis (issue 24: a played match's last action froze 12–32 s, a 4-hand upload 44–49 s).
The WSGI module (``mahjong_site/wsgi.py``: ``make run``'s runserver, or a gunicorn without
a broker) turns this module on: from then on :class:`SiteTask` — the Celery app's task
class — hands each task to :class:`Pool` instead, where ``IN_PROCESS_THREADS`` threads (1)
run the same Celery tasks in turn (``Task.apply``: retries, failures and time stamps as
in-process before), so the page answers at once and shows the progress it polls.

The pool is bounded: at most ``IN_PROCESS_QUEUE`` tasks wait. A task queued from a request
when the queue is full is refused with :class:`QueueFull`, as an unreachable broker
refuses it: an upload is stored all the same and waits for ``send_waiting``. Tasks queued
by a task of the pool (a match's next hand, its values, its puzzles) are always taken:
each match has at most its windows on the queue (``ANNOTATION_WINDOW``,
``VALUES_WINDOW``). The pool runs beat's schedule itself (``CELERY_BEAT_SCHEDULE``), so
waiting and stuck matches are sent again as on the workers; these runs are refused room
like a request when the queue is full.

Threads rather than processes: the tasks take primary keys and share nothing but the
database, which SQLite lets one writer use at a time (mahjong_site/settings.py makes
writers wait for each other instead of failing). The threads are daemons: a stopped
server drops what waits, and beat's ``requeue_stuck`` sends it again after the restart.

Management commands (``seed_demo``, ``reannotate``) and the test suite don't load the WSGI
module: there a task still runs where it is queued.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from celery import Task
from celery.utils import uuid
from django.conf import settings
from django.db import connections

log = logging.getLogger(__name__)

# How often an idle pool thread wakes to see whether a periodic task is due (seconds).
TICK_SECONDS = 1.0

_switched_on = False
_local = threading.local()


class QueueFull(Exception):
    """The in-process queue already holds ``IN_PROCESS_QUEUE`` tasks: the work is kept for
    later by its caller, as when the broker can't be reached."""


def run_beside_requests(on: bool = True) -> None:
    """From now on this process's tasks run in the pool (when there is no broker); called
    by the WSGI module, which also starts the pool so that its periodic tasks run."""
    global _switched_on
    _switched_on = on
    if on and beside_requests():
        pool().start()


def beside_requests() -> bool:
    """Does a task queued now go to the in-process pool? (A web process, no broker, and
    ``IN_PROCESS_THREADS`` above 0.)"""
    from mahjong_site.celery import app

    return (_switched_on and bool(app.conf.task_always_eager)
            and settings.IN_PROCESS_THREADS > 0)


def sends_in_turn() -> bool:
    """Does a task queued now wait for its turn (on a broker or in the pool), rather than
    run at once where it is queued? Only then are a match's tasks sent a few at a time:
    run at once, each one sending the next would recurse."""
    from mahjong_site.celery import app

    return not app.conf.task_always_eager or beside_requests()


class SiteTask(Task[..., Any]):
    """The site's Celery task class: beside the request (:func:`beside_requests`) a queued
    task goes to the pool; otherwise to the broker, or run at once without one."""

    def apply_async(self, args: tuple[Any, ...] | None = None,
                    kwargs: dict[str, Any] | None = None, task_id: str | None = None,
                    producer: Any = None, link: Any = None, link_error: Any = None,
                    shadow: str | None = None, **options: Any) -> Any:
        if beside_requests():
            return pool().submit(self, args or (), kwargs or {})
        return super().apply_async(args, kwargs, task_id, producer, link, link_error, shadow,
                                   **options)


@dataclass(frozen=True)
class Job:
    task: Task[..., Any]
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    task_id: str = field(default_factory=uuid)


class Pool:
    """``threads`` threads taking queued tasks in turn, at most ``limit`` waiting; beat's
    ``schedule`` (``{name: {"task": ..., "schedule": seconds}}``) run by them as well."""

    def __init__(self, threads: int, limit: int,
                 schedule: dict[str, dict[str, Any]] | None = None) -> None:
        self.threads = max(1, threads)
        self.limit = max(1, limit)
        self.schedule = dict(settings.CELERY_BEAT_SCHEDULE if schedule is None else schedule)
        self._jobs: queue.SimpleQueue[Job] = queue.SimpleQueue()
        self._state = threading.Condition()
        self._waiting = 0
        self._running = 0
        self._workers: list[threading.Thread] = []
        self._maintaining = threading.Lock()
        self._stopped = threading.Event()
        started = time.monotonic()
        # As beat: a periodic task first runs one period after the start.
        self._last_run = dict.fromkeys(self.schedule, started)

    # -- queueing -------------------------------------------------------------------------

    def submit(self, task: Task[..., Any], args: tuple[Any, ...] | list[Any],
               kwargs: dict[str, Any]) -> Any:
        """Queue a task; :class:`QueueFull` when ``limit`` tasks wait and the caller is not
        a task of the pool. The arguments travel as JSON, as they would on a broker."""
        sent_args, sent_kwargs = json.loads(json.dumps([list(args), kwargs]))
        job = Job(task, tuple(sent_args), sent_kwargs)
        with self._state:
            if not in_pool_task() and self._waiting >= self.limit:
                raise QueueFull(f"{self._waiting} tasks already wait in this process "
                                f"(IN_PROCESS_QUEUE={self.limit})")
            self._waiting += 1
            self._start_locked()
        self._jobs.put(job)
        return task.AsyncResult(job.task_id)

    def counts(self) -> tuple[int, int]:
        """Tasks waiting, and tasks running."""
        with self._state:
            return self._waiting, self._running

    def wait_until_idle(self, timeout: float) -> bool:
        """Wait until nothing waits or runs; False when ``timeout`` seconds passed first."""
        deadline = time.monotonic() + timeout
        with self._state:
            while self._waiting or self._running:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._state.wait(left)
        return True

    def start(self) -> None:
        with self._state:
            self._start_locked()

    def stop(self, wait: float = 0) -> None:
        """Let the threads end (at their next look at the queue, within ``TICK_SECONDS``),
        waiting up to ``wait`` seconds for them; what waits in the queue is dropped."""
        self._stopped.set()
        for worker in self._workers:
            worker.join(wait)

    def _start_locked(self) -> None:
        # Threads don't survive a fork (gunicorn --preload): start those that are missing.
        self._workers = [worker for worker in self._workers if worker.is_alive()]
        while len(self._workers) < self.threads:
            worker = threading.Thread(target=self._work, daemon=True,
                                      name=f"in-process-tasks-{len(self._workers) + 1}")
            worker.start()
            self._workers.append(worker)

    # -- the threads ------------------------------------------------------------------------

    def _work(self) -> None:
        while not self._stopped.is_set():
            try:
                job = self._jobs.get(timeout=TICK_SECONDS)
            except queue.Empty:
                self._maintain()
                continue
            with self._state:
                self._waiting -= 1
                self._running += 1
            try:
                _run(job.task, job.args, job.kwargs, job.task_id, continuing=True)
            finally:
                with self._state:
                    self._running -= 1
                    self._state.notify_all()
            self._maintain()

    def _maintain(self) -> None:
        """Run the periodic tasks that are due (one thread at a time)."""
        if not self._maintaining.acquire(blocking=False):
            return
        try:
            from mahjong_site.celery import app

            now = time.monotonic()
            for name, entry in self.schedule.items():
                if now - self._last_run[name] < float(entry["schedule"]):
                    continue
                self._last_run[name] = now
                try:
                    self._ensure_registered([entry["task"]])
                    _run(app.tasks[entry["task"]], (), {}, uuid(), continuing=False)
                except Exception:  # a broken periodic task must not stop the pool's thread
                    log.exception("in-process beat: %s (%s) failed", name, entry["task"])
        finally:
            self._maintaining.release()

    @staticmethod
    def _ensure_registered(names: list[str]) -> None:
        """A web process imports only the task modules its pages use; a worker imports them
        all at its start (the autodiscovery's signal): so here, before a task is named."""
        from mahjong_site.celery import app

        if any(name not in app.tasks for name in names):
            app.loader.import_default_modules()


def in_pool_task() -> bool:
    """Is this thread running a task of the pool (whose follow-up tasks are always taken)?"""
    return bool(getattr(_local, "continuing", False))


def _run(task: Task[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], task_id: str,
         continuing: bool) -> None:
    """Run one task as Celery runs it in-process (``apply``: failures recorded by the task,
    never raised here), then give back this thread's database connections."""
    _local.continuing = continuing
    try:
        task.apply(args, kwargs, task_id=task_id)
    except Exception:  # noqa: BLE001 - a broken task must not stop the pool
        log.exception("in-process task %s failed", task.name)
    finally:
        _local.continuing = False
        connections.close_all()


_pool: Pool | None = None
_pool_lock = threading.Lock()


def pool() -> Pool:
    """This process's pool (made on first use, with the settings of that moment)."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = Pool(settings.IN_PROCESS_THREADS, settings.IN_PROCESS_QUEUE)
        return _pool


def counts() -> tuple[int, int] | None:
    """The pool's tasks waiting and running, or None when tasks don't run beside requests."""
    if not beside_requests():
        return None
    return pool().counts()
