"""``/healthz`` for load balancers: the database and the broker, 200 when both answer and
503 when either doesn't — quickly, without logging in, and without writing anything.

The broker is pointed at a port nothing listens on (``redis://127.0.0.1:6390/0``) to be
"down"; the real Redis is ``HEALTHZ_TEST_REDIS_URL`` (default ``.../12``), skipped when
unreachable.
"""

from __future__ import annotations

import os
import time
from typing import Any

import pytest
from django.db import OperationalError, connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from replays import health

from .conftest import configured_broker, redis_or_skip

REDIS_URL = os.environ.get("HEALTHZ_TEST_REDIS_URL", "redis://127.0.0.1:6379/12")
UNUSED_PORT = "redis://127.0.0.1:6390/0"
pytestmark = pytest.mark.filterwarnings("ignore:No directory at:UserWarning")


def redis_reachable() -> None:
    redis_or_skip(REDIS_URL, socket_connect_timeout=3).close()


def test_it_is_healthy_without_a_broker(charlie: Client, db: None) -> None:
    response = charlie.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"database": "ok", "broker": "in-process"}
    assert response["Content-Type"] == "application/json"
    assert "no-cache" in response["Cache-Control"]


def test_it_is_healthy_with_redis(charlie: Client, db: None) -> None:
    redis_reachable()
    with configured_broker(REDIS_URL):
        response = charlie.get("/healthz")
    assert (response.status_code, response.json()) == (200, {"database": "ok", "broker": "ok"})


def test_it_reports_failure_when_the_broker_is_down(charlie: Client, db: None,
                                                    settings: Any) -> None:
    settings.HEALTHZ_TIMEOUT_SECONDS = 2
    started = time.monotonic()
    with configured_broker(UNUSED_PORT):
        response = charlie.get("/healthz")
    elapsed = time.monotonic() - started
    assert response.status_code == 503
    report = response.json()
    assert report["database"] == "ok"
    assert report["broker"] == "error: ConnectionError"
    assert "6390" not in response.content.decode(), "no addresses for the public"
    assert elapsed < 5, f"took {elapsed:.1f}s"


def test_it_gives_up_on_a_silent_broker_after_the_timeout(charlie: Client, db: None,
                                                          settings: Any) -> None:
    """A broker that accepts the connection and never answers."""
    import socket

    settings.HEALTHZ_TIMEOUT_SECONDS = 1
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        started = time.monotonic()
        with configured_broker(f"redis://127.0.0.1:{port}/0"):
            response = charlie.get("/healthz")
        elapsed = time.monotonic() - started
    assert response.status_code == 503
    assert response.json()["broker"].startswith("error: ")
    assert elapsed < 4, f"took {elapsed:.1f}s"


def test_it_checks_other_brokers_through_kombu(charlie: Client, db: None,
                                               settings: Any) -> None:
    settings.HEALTHZ_TIMEOUT_SECONDS = 1
    started = time.monotonic()
    with configured_broker("amqp://guest:guest@127.0.0.1:5673//"):
        response = charlie.get("/healthz")
    assert response.status_code == 503
    assert response.json()["broker"].startswith("error: ")
    assert time.monotonic() - started < 6


def test_it_reports_failure_when_the_database_is_down(charlie: Client, db: None,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    class Unreachable:
        def cursor(self) -> Any:
            raise OperationalError('connection to server at "10.0.0.9", port 5432 failed')

        def close_if_unusable_or_obsolete(self) -> None:
            pass

    monkeypatch.setattr(health, "connection", Unreachable())
    response = charlie.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"database": "error: OperationalError", "broker": "in-process"}
    assert "10.0.0.9" not in response.content.decode()
    assert health.database_status(detail=True).startswith(
        'error: OperationalError: connection to server at "10.0.0.9"')


def test_it_needs_no_login_and_writes_nothing(charlie: Client, db: None, staff: Any) -> None:
    with CaptureQueriesContext(connection) as queries:
        response = charlie.get("/healthz")
    assert response.status_code == 200
    assert [q["sql"] for q in queries.captured_queries] == ["SELECT 1"]
    assert not response.cookies, "no session or CSRF cookie"
    charlie.force_login(staff)
    assert charlie.get("/healthz").status_code == 200


def test_it_answers_get_and_head_only(charlie: Client, db: None) -> None:
    assert charlie.head("/healthz").status_code == 200
    assert charlie.post("/healthz").status_code == 405
