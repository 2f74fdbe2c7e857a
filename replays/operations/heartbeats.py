"""Workers last seen, for the staff dashboard.

Written from the worker's own signals: when it is ready, with its event heartbeat (every
# few seconds, in the main process), after each task (in the pool's processes) and when it
shuts down — at most once per WORKER_HEARTBEAT_SECONDS per process and worker. The
worker imports this module through ``mahjong_site/celery.py`` (``autodiscover_tasks``).
"""

from __future__ import annotations

import contextlib
import logging
import math
import time
from typing import Any

from celery.signals import heartbeat_sent, task_postrun, worker_ready, worker_shutdown
from django.conf import settings
from django.db import DatabaseError, connection
from django.utils import timezone

from replays.models import WorkerHeartbeat

log = logging.getLogger(__name__)

_last_written: dict[str, float] = {}


def worker_seen(hostname: str, *, started: bool = False, stopped: bool = False,
                processed: int | None = None, active: int | None = None,
                close: bool = False) -> bool:
    """Record that a worker is alive (or stopped); returns whether a row was written."""
    if not hostname:
        return False
    moment = time.monotonic()
    forced = started or stopped
    if not forced and moment - _last_written.get(hostname, -math.inf) < (
            settings.WORKER_HEARTBEAT_SECONDS):
        return False
    _last_written[hostname] = moment
    now = timezone.now()
    values: dict[str, Any] = {"last_seen": now, "stopped_at": now if stopped else None}
    if started:
        values.update(started_at=now, processed=0, active=0)
    if processed is not None:
        values["processed"] = processed
    if active is not None:
        values["active"] = active
    try:
        WorkerHeartbeat.objects.update_or_create(hostname=hostname[:200], defaults=values)
    except DatabaseError as error:  # a heartbeat must never take a worker down
        log.warning("could not record worker %s: %s", hostname, error)
        return False
    finally:
        if close:  # the worker's main process keeps no connection open between beats
            with contextlib.suppress(Exception):
                connection.close()
    return True


@worker_ready.connect
def _worker_ready(sender: Any = None, **kwargs: Any) -> None:
    worker_seen(getattr(sender, "hostname", ""), started=True, close=True)


@heartbeat_sent.connect
def _heartbeat_sent(sender: Any = None, **kwargs: Any) -> None:
    from celery.worker.state import active_requests, all_total_count

    eventer = getattr(sender, "eventer", None)
    worker_seen(getattr(eventer, "hostname", ""), processed=all_total_count[0],
                active=len(active_requests), close=True)


@task_postrun.connect
def _task_postrun(sender: Any = None, task: Any = None, **kwargs: Any) -> None:
    request = getattr(task, "request", None)
    if request is None or request.is_eager:
        return  # in-process: no worker
    worker_seen(getattr(request, "hostname", "") or "")


@worker_shutdown.connect
def _worker_shutdown(sender: Any = None, **kwargs: Any) -> None:
    worker_seen(getattr(sender, "hostname", ""), stopped=True, close=True)

