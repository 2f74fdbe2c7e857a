"""The staff dashboard in a browser, with two weeks of data: screenshots at desktop and phone
widths (test-artifacts/dashboard-1280.png, -390.png), no horizontal scrolling, the numbers
refreshing themselves (htmx, every 10 s) and the Retry button swapping them in place.

The site sends its tasks to Redis (``DASHBOARD_TEST_REDIS_URL``, default db 11, on a queue
of this test's own, removed afterwards) when it is reachable, as in production; otherwise
they run in-process.

Run: DATABASE_URL=postgres://... .venv/bin/python -m pytest tests/test_browser_dashboard.py
"""

from __future__ import annotations

import datetime as dt
import os
import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# The live server and the ORM are used from the test thread while Playwright's sync API runs
# an event loop in it; Django must not refuse that as "async-unsafe".
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

from playwright.sync_api import Page, expect  # noqa: E402

from .conftest import bot_document, forget_connections, remove_queue_keys  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
REDIS_URL = os.environ.get("DASHBOARD_TEST_REDIS_URL", "redis://127.0.0.1:6379/11")

pytestmark = [pytest.mark.browser,
              pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]


@pytest.fixture
def queue() -> Iterator[str | None]:
    """Tasks go to Redis on a queue of their own (None: Redis unreachable, in-process)."""
    import redis

    from mahjong_site.celery import app

    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
    try:
        client.ping()
    except Exception:  # noqa: BLE001 - then tasks run in-process
        client.close()
        yield None
        return
    name = f"dashtest-{uuid.uuid4().hex[:12]}"
    saved = {key: app.conf[key] for key in ("task_always_eager", "broker_url",
                                            "task_default_queue")}

    app.conf.update(task_always_eager=False, broker_url=REDIS_URL, task_default_queue=name)
    app.amqp.flush_routes()
    forget_connections(app)
    try:
        yield name
    finally:
        app.conf.update(saved)
        app.amqp.flush_routes()
        forget_connections(app)
        remove_queue_keys(client, name)
        client.close()


@pytest.fixture
def filled(transactional_db: None, django_user_model: Any,
           monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Two weeks of a small site: uploads, annotations, failures, waiting matches, workers,
    puzzle attempts in three variants and sign-ups. Nothing is queued while it is made."""
    from django.utils import timezone

    from games.analysis.annotation import ENGINE_VERSION
    from replays.matches import services
    from replays.models import Annotation, Attempt, DailyPuzzle, Match, Puzzle, WorkerHeartbeat
    from replays.puzzles import services as puzzles

    monkeypatch.setattr(services, "_queue", lambda match_id: None)
    now = timezone.now()
    users = [django_user_model.objects.create_user(f"player{n}") for n in range(12)]
    for n, user in enumerate(users):
        django_user_model.objects.filter(pk=user.pk).update(
            date_joined=now - dt.timedelta(days=(n * 5) % 13, hours=n))

    variants = ("jiaxing", "putian", "sichuan")
    matches = []
    for n in range(14):
        variant = variants[n % 3]
        match = services.store_document(
            bot_document(3000 + n, variant=variant, hands=1 + n % 3),
            owner=users[n % len(users)], title=f"Club night {n + 1}")
        age = dt.timedelta(days=(n * 3) % 12, hours=n % 5)
        Match.objects.filter(pk=match.pk).update(
            uploaded_at=now - age, annotation_status=Match.Status.DONE,
            annotation_queued_at=now - age)
        for hand in match.hands.all():
            row = Annotation.objects.create(hand=hand, engine_version=ENGINE_VERSION, data={})
            Annotation.objects.filter(pk=row.pk).update(
                created_at=now - age + dt.timedelta(minutes=2 + hand.number))
        matches.append(match)
    for n in range(25):  # a busy last day
        hand = matches[n % len(matches)].hands.first()
        row = Annotation.objects.create(hand=hand, engine_version=f"0.{n}", data={})
        Annotation.objects.filter(pk=row.pk).update(
            created_at=now - dt.timedelta(hours=(n * 7) % 24, minutes=n))

    retry = matches[1]
    Annotation.objects.filter(hand__match=retry).delete()
    Match.objects.filter(pk=retry.pk).update(
        annotation_status=Match.Status.FAILED, title="Friday final",
        annotation_error="hand 2: SoftTimeLimitExceeded: the hand took longer than 120 s")
    broken = matches[4]
    Match.objects.filter(pk=broken.pk).update(
        annotation_status=Match.Status.FAILED,
        annotation_error="hand 1: LogError: <event 37> claim by seat 2 not allowed (JX-2.1)")
    for n, minutes in ((7, 26), (10, 4)):
        Annotation.objects.filter(hand__match=matches[n]).delete()
        Match.objects.filter(pk=matches[n].pk).update(
            annotation_status=Match.Status.QUEUED if n == 7 else Match.Status.RUNNING,
            annotation_queued_at=now - dt.timedelta(minutes=minutes))

    WorkerHeartbeat.objects.create(hostname="celery@worker-a.internal", last_seen=now,
                                   started_at=now - dt.timedelta(days=2), processed=18_204,
                                   active=1)
    WorkerHeartbeat.objects.create(hostname="celery@worker-b.internal",
                                   last_seen=now - dt.timedelta(seconds=12),
                                   started_at=now - dt.timedelta(days=2), processed=17_951)
    WorkerHeartbeat.objects.create(hostname="celery@worker-c.internal",
                                   last_seen=now - dt.timedelta(hours=3, minutes=10),
                                   stopped_at=now - dt.timedelta(hours=3, minutes=10),
                                   processed=911)

    made = {v: [Puzzle.objects.create(variant=v, difficulty=1 + n % 3, position={},
                                      answer={"waits": []}, engine_version="test",
                                      seed=f"b{n}") for n in range(6)] for v in variants}
    today = puzzles.puzzle_day()
    DailyPuzzle.objects.create(day=today, variant="jiaxing", puzzle=made["jiaxing"][0])
    DailyPuzzle.objects.create(day=today, variant="putian", puzzle=made["putian"][0],
                               pinned_by=users[0])
    DailyPuzzle.objects.create(day=today + dt.timedelta(days=1), variant="jiaxing",
                               puzzle=made["jiaxing"][1])
    count = 0
    for day in range(14):
        for v, variant in enumerate(variants):
            for n in range((day * (v + 2)) % 7 + v):
                attempt = Attempt.objects.create(  # anonymous visitors, one answer each
                    puzzle=made[variant][(day + n) % 6], visitor=f"d{day}v{v}n{n}", picked=[],
                    solved=(n + day + v) % 3 != 0, points=3)
                Attempt.objects.filter(pk=attempt.pk).update(
                    created_at=now - dt.timedelta(days=day, minutes=n))
                count += 1
    assert count > 40
    return {"retry": retry, "broken": broken}


@pytest.fixture
def staff_page(page: Page, live_server: Any, filled: dict[str, Any],
               django_user_model: Any) -> Page:
    """The browser logged in as a staff user who may retry (``view_private_match``; the
    session cookie of a test client)."""
    from django.contrib.auth.models import Permission
    from django.test import Client

    staff = django_user_model.objects.create_user("sam", is_staff=True)
    staff.user_permissions.add(Permission.objects.get(codename="view_private_match"))
    client = Client()
    client.force_login(staff)
    page.context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                               "url": live_server.url}])
    return page


def test_it_renders_the_dashboard_at_desktop_and_phone_widths(
        staff_page: Page, live_server: Any, artifacts: Path, queue: str | None) -> None:
    page = staff_page
    for width, height in ((1280, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{live_server.url}/dashboard/")
        expect(page.get_by_role("heading", name="Dashboard", exact=True)).to_be_visible()
        expect(page.locator("#stat-uploads")).to_have_text(re.compile(r"^\d+$"))
        expect(page.locator("#stat-failed")).to_have_text("2")
        expect(page.locator("#stat-oldest")).to_have_text(re.compile(r"^26\s+minutes$"))
        expect(page.locator("#stat-broker")).to_have_text("0" if queue else "in-process")
        if queue:
            expect(page.locator("#stat-workers")).to_have_text("2")
        charts = page.locator("svg.chart")
        expect(charts).to_have_count(7)
        for n in range(7):
            box = charts.nth(n).bounding_box()
            assert box and box["width"] > 300 and box["height"] > 150, box
        expect(page.locator("table.failures tbody tr")).to_have_count(2)
        expect(page.locator("table.failures")).to_contain_text("<event 37>")
        expect(page.locator("table.workers tbody tr")).to_have_count(3)
        expect(page.locator("nav.site-nav").get_by_role("link", name="Dashboard")).to_be_visible()
        page.screenshot(path=str(artifacts / f"dashboard-{width}.png"), full_page=True)
        scroll = page.evaluate("document.documentElement.scrollWidth")
        assert scroll <= width + 1, f"horizontal scroll at {width}px: scrollWidth {scroll}"


def test_the_numbers_refresh_and_retry_swaps_them(
        staff_page: Page, live_server: Any, filled: dict[str, Any], queue: str | None) -> None:
    from replays.models import Match

    page = staff_page
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{live_server.url}/dashboard/?days=7")
    expect(page.locator("#stat-failed")).to_have_text("2")

    # Another match fails meanwhile: the poll (every 10 s) shows it without a reload.
    Match.objects.filter(title="Club night 6").update(
        annotation_status=Match.Status.FAILED, annotation_error="hand 1: boom")
    expect(page.locator("#stat-failed")).to_have_text("3", timeout=15_000)
    assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
    expect(page.locator("nav.dashboard-range a[aria-current]")).to_have_text("7 days")

    row = page.locator("table.failures tbody tr", has_text="Friday final")
    row.get_by_role("button", name="Retry").click()
    status = "queued" if queue else "annotated"
    expect(page.locator(".dashboard-notice")).to_have_text(
        f"Requeued “Friday final”: now {status}.")
    expect(page.locator("#stat-failed")).to_have_text("2")
    expect(page.locator("table.failures tbody tr", has_text="Friday final")).to_have_count(0)
    retried = Match.objects.get(pk=filled["retry"].pk)
    assert retried.annotation_status == status.replace("annotated", "done")
    if queue:
        expect(page.locator("#stat-broker")).not_to_have_text("0")  # its hands wait in Redis
    assert page.url.endswith("/dashboard/?days=7")
