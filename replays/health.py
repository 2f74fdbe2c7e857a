"""Reachability of the database and the broker: ``/healthz`` for load balancers, and the
broker's queue length for the staff dashboard (docs/deploy.md).

Nothing here writes to the database or waits long: the broker is given
``HEALTHZ_TIMEOUT_SECONDS`` (2 s) to answer, once, without retries.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import connection

log = logging.getLogger(__name__)

OK = "ok"
IN_PROCESS = "in-process"
# kombu's Redis transport keeps a queue as one list per priority step: the queue's own
# name for the default priority, then NAME + "\x06\x16" + step for the others.
PRIORITY_SEPARATOR = "\x06\x16"
PRIORITY_STEPS = (3, 6, 9)


def _app() -> Any:
    from mahjong_site.celery import app

    return app


def _timeout() -> float:
    return float(settings.HEALTHZ_TIMEOUT_SECONDS)


def in_process() -> bool:
    """No broker: tasks run in the web process as they are queued (CELERY_BROKER_URL unset)."""
    return bool(_app().conf.task_always_eager)


def broker_url() -> str:
    return str(_app().conf.broker_url or "")


def _is_redis(url: str) -> bool:
    return urlsplit(url).scheme in ("redis", "rediss")


def _redis(url: str) -> Any:
    """A Redis client that gives up after the timeout, without retrying."""
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    return redis.Redis.from_url(url, socket_connect_timeout=_timeout(),
                                socket_timeout=_timeout(), retry=Retry(NoBackoff(), 0))


def _problem(error: BaseException, detail: bool) -> str:
    """``error: Type`` (public: no host names), or with the message's first line (staff)."""
    text = str(error).strip().splitlines()[0] if detail and str(error).strip() else ""
    return f"error: {type(error).__name__}{': ' + text if text else ''}"[:300]


def database_status(detail: bool = False) -> str:
    """``ok``, or ``error: …``: one ``SELECT 1`` on the default database."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:  # noqa: BLE001 - any failure is the answer
        log.warning("health check: database unreachable: %s", error)
        # A broken connection is not reused by the next request.
        with contextlib.suppress(Exception):
            connection.close_if_unusable_or_obsolete()
        return _problem(error, detail)
    return OK


def broker_status(detail: bool = False) -> str:
    """``ok``, ``in-process`` (no broker configured) or ``error: …``."""
    if in_process():
        return IN_PROCESS
    url = broker_url()
    try:
        if _is_redis(url):
            client = _redis(url)
            try:
                client.ping()
            finally:
                client.close()
        else:
            with _app().connection_for_write() as broker:
                broker.ensure_connection(max_retries=1, timeout=_timeout())
    except Exception as error:  # noqa: BLE001 - any failure is the answer
        log.warning("health check: broker unreachable: %s", error)
        return _problem(error, detail)
    return OK


@dataclass(frozen=True)
class QueueLength:
    """Messages waiting in the broker's default queue, and taken but not acknowledged
    (being worked on); ``None`` where the broker could not say."""

    waiting: int | None
    unacked: int | None
    state: str  # "ok", "in-process", "unknown" (not Redis) or "error: …"

    @property
    def known(self) -> bool:
        return self.waiting is not None


def queue_length(queue: str | None = None) -> QueueLength:
    """LLEN of the default queue (``celery``) when the broker is Redis; never raises.
    Without a broker: the web process's own queue (replays/inprocess.py), when it has one."""
    if in_process():
        from replays.inprocess import counts

        found = counts()
        if found is None:
            return QueueLength(None, None, IN_PROCESS)
        return QueueLength(found[0], found[1], IN_PROCESS)
    url = broker_url()
    if not _is_redis(url):
        return QueueLength(None, None, "unknown")
    name = queue or str(_app().conf.task_default_queue or "celery")
    keys = [name, *(f"{name}{PRIORITY_SEPARATOR}{step}" for step in PRIORITY_STEPS)]
    try:
        client = _redis(url)
        try:
            pipeline = client.pipeline(transaction=False)
            for key in keys:
                pipeline.llen(key)
            pipeline.hlen("unacked")
            *lengths, unacked = pipeline.execute()
        finally:
            client.close()
    except Exception as error:  # noqa: BLE001 - the dashboard shows "unknown"
        log.warning("dashboard: broker queue length unknown: %s", error)
        return QueueLength(None, None, _problem(error, detail=True))
    return QueueLength(int(sum(lengths)), int(unacked), OK)
