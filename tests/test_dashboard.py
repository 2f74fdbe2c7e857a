"""The staff dashboard, ``/dashboard/``: who may see it, what it counts, the htmx refresh,
the Retry button, the broker's queue length (known, unknown, in-process) and the charts.

alice is a user, charlie the anonymous client, staff a staff user (conftest.py). Matches
stored by ``make_match`` inside a test's transaction are never annotated (their queueing
waits for a commit that doesn't come), so they are "queued" with every hand waiting.
"""

from __future__ import annotations

import datetime as dt
import html
import os
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.analysis.annotation import ENGINE_VERSION
from replays import charts
from replays.annotation import tasks
from replays.models import Annotation, Attempt, Match, Puzzle, WorkerHeartbeat
from replays.operations import dashboard, views

from .conftest import configured_broker, redis_or_skip

HTMX = {"HX-Request": "true"}
REDIS_URL = os.environ.get("DASHBOARD_TEST_REDIS_URL", "redis://127.0.0.1:6379/11")
UNUSED_BROKER = "redis://127.0.0.1:6390/0"
# WhiteNoise looks for collected files (STATIC_ROOT) that tests do not need.
pytestmark = pytest.mark.filterwarnings("ignore:No directory at:UserWarning")


def text_of(markup: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def stat(markup: str, name: str) -> str:
    """The value of one summary card, as shown."""
    found = re.search(rf'<span class="stat-value" id="stat-{name}">(.*?)</span>', markup, re.S)
    assert found, f"no {name} card in:\n{markup[:3000]}"
    return text_of(found.group(1))


def note(markup: str, name: str) -> str:
    found = re.search(rf'id="stat-{name}">.*?</span>\s*<span class="stat-note">(.*?)</span>',
                      markup, re.S)
    assert found, f"no {name} note"
    return text_of(found.group(1))


def chart(markup: str, title: str) -> str:
    """The inline SVG chart titled ``title``, entities decoded."""
    for svg in re.findall(r'<svg class="chart".*?</svg>', markup, re.S):
        if re.search(rf'-title">{re.escape(html.escape(title))}</title>', svg):
            return html.unescape(svg)
    raise AssertionError(f"no chart titled {title!r}")


def as_staff(client: Client, staff: Any) -> Client:
    client.force_login(staff)
    return client


def fail(match: Match, error: str = "hand 1: LogError: boom") -> Match:
    Match.objects.filter(pk=match.pk).update(annotation_status=Match.Status.FAILED,
                                             annotation_error=error)
    match.refresh_from_db()
    return match


# -- who may see it -------------------------------------------------------------------------


def test_it_sends_anonymous_visitors_to_log_in(charlie: Client, db: None) -> None:
    response = charlie.get("/dashboard/?days=7")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/dashboard/%3Fdays%3D7"


def test_it_refuses_a_logged_in_user_who_is_not_staff(client: Client, alice: Any) -> None:
    client.force_login(alice)
    assert client.get("/dashboard/").status_code == 403
    assert client.get("/dashboard/", headers=HTMX).status_code == 403


def test_it_refuses_the_retry_to_anonymous_visitors_and_users(
        client: Client, alice: Any, make_match: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    match = fail(make_match(alice))
    queued: list[int] = []
    monkeypatch.setattr(views, "queue_match", queued.append)
    response = client.post(f"/dashboard/retry/{match.pk}/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    client.force_login(alice)
    assert client.post(f"/dashboard/retry/{match.pk}/").status_code == 403
    assert queued == []
    match.refresh_from_db()
    assert match.annotation_status == Match.Status.FAILED


def test_an_htmx_poll_after_the_session_ends_sends_the_page_to_log_in(charlie: Client,
                                                                       db: None) -> None:
    response = charlie.get("/dashboard/", headers=HTMX)
    assert response.status_code == 200
    assert response["HX-Redirect"] == "/accounts/login/?next=%2Fdashboard%2F"


def test_only_staff_see_the_dashboard_link(client: Client, alice: Any, staff: Any) -> None:
    client.force_login(alice)
    assert 'href="/dashboard/"' not in client.get("/").content.decode()
    client.force_login(staff)
    assert 'href="/dashboard/"' in client.get("/").content.decode()


def test_it_is_staff_only_by_the_flag_not_by_permissions(client: Client, staff: Any) -> None:
    staff.is_active = False
    staff.save()
    client.force_login(staff)  # an inactive account's session (force_login allows it)
    assert client.get("/dashboard/").status_code in (302, 403)


# -- the page -------------------------------------------------------------------------------


def test_it_shows_the_numbers_with_charts(client: Client, staff: Any, alice: Any,
                                          make_match: Any) -> None:
    make_match(alice, hands=2)
    make_match(alice, hands=3, title="Second")
    fail(make_match(alice, title="Broken <b>match</b>"), "hand 1: KeyError: '<script>'")
    markup = as_staff(client, staff).get("/dashboard/").content.decode()

    assert stat(markup, "uploads") == "3"
    assert note(markup, "uploads") == "3 matches, 6 hands in 14 days"
    assert stat(markup, "queue") == "5", "hands of queued matches with no annotation"
    assert stat(markup, "failed") == "1"
    assert stat(markup, "broker") == "in-process"
    assert stat(markup, "workers") == "—"
    assert "tasks run in-process" in note(markup, "workers")
    # The failure, with its error, escaped, and a Retry button posting with a CSRF token.
    failures = markup[markup.index('id="failures"'):]
    assert "Broken &lt;b&gt;match&lt;/b&gt;" in failures
    assert "KeyError: &#x27;&lt;script&gt;&#x27;" in failures
    assert "<b>match" not in markup and "'<script>'" not in markup
    form = re.search(r'<form method="post" action="/dashboard/retry/(\d+)/".*?</form>',
                     failures, re.S)
    assert form and "csrfmiddlewaretoken" in form.group(0) and "Retry" in form.group(0)
    # Charts drawn on the server, each with a title and tooltips, and no script.
    svgs = re.findall(r'<svg class="chart".*?</svg>', markup, re.S)
    assert len(svgs) == 7
    for svg in svgs:
        assert re.search(r"<title id=\"chart-\d+-title\">[^<]+</title>", svg)
    today = timezone.localdate().strftime("%m-%d")
    assert f"<title>{today}: 3 matches, 6 hands</title>" in chart(markup, "Uploads per day")
    # The refresh.
    numbers = re.search(r'<div id="dashboard-numbers"[^>]*>', markup).group(0)
    assert 'hx-get="/dashboard/?days=14"' in numbers
    assert 'hx-trigger="every 10s"' in numbers


def test_htmx_gets_only_the_numbers(client: Client, staff: Any, alice: Any,
                                    make_match: Any) -> None:
    make_match(alice)
    response = as_staff(client, staff).get("/dashboard/", {"days": 7}, headers=HTMX)
    markup = response.content.decode()
    assert response.status_code == 200
    assert markup.lstrip().startswith('<div id="dashboard-numbers"')
    assert "<html" not in markup and "site-header" not in markup
    assert 'hx-get="/dashboard/?days=7"' in markup
    assert stat(markup, "uploads") == "1"
    assert "HX-Request" in response["Vary"]
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]


@pytest.mark.parametrize(("given", "shown"), [
    ("", 14), ("7", 7), ("0", 1), ("-5", 1), ("1000", 90), ("abc", 14), ("30", 30)])
def test_the_period_is_bounded(client: Client, staff: Any, given: str, shown: int) -> None:
    response = as_staff(client, staff).get("/dashboard/", {"days": given})
    assert response.status_code == 200
    assert response.context["days"] == shown
    labels = re.findall(r'class="chart-bar"', re.findall(
        r'<svg class="chart".*?</svg>', response.content.decode(), re.S)[0])
    assert len(labels) == shown, "one bar per day"


def test_it_counts_uploads_and_hands_on_their_days(client: Client, staff: Any, alice: Any,
                                                   make_match: Any) -> None:
    now = timezone.now()
    old = make_match(alice, hands=2)
    older = make_match(alice, hands=1)
    gone = make_match(alice, hands=4)
    Match.objects.filter(pk=old.pk).update(uploaded_at=now - dt.timedelta(days=2))
    Match.objects.filter(pk=older.pk).update(uploaded_at=now - dt.timedelta(days=6))
    Match.objects.filter(pk=gone.pk).update(uploaded_at=now - dt.timedelta(days=40))
    data = dashboard.metrics(7, now)
    assert data["uploads_today"] == 0
    assert (data["uploads_total"], data["hands_total"]) == (2, 3)
    assert dashboard.metrics(60, now)["uploads_total"] == 3


def test_the_queue_counts_hands_waiting_for_this_engine(client: Client, staff: Any,
                                                        alice: Any, make_match: Any) -> None:
    waiting = make_match(alice, hands=3)
    running = make_match(alice, hands=2)
    done = make_match(alice, hands=2)
    Match.objects.filter(pk=running.pk).update(annotation_status=Match.Status.RUNNING)
    Match.objects.filter(pk=done.pk).update(annotation_status=Match.Status.DONE)
    first = waiting.hands.get(number=1)
    Annotation.objects.create(hand=first, engine_version=ENGINE_VERSION, data={})
    Annotation.objects.create(hand=waiting.hands.get(number=2), engine_version="old", data={})
    data = dashboard.metrics(14)
    assert data["queued_matches"] == 2
    assert data["queued_hands"] == 2 + 2, "3 - 1 annotated (the older engine's doesn't count)"
    assert data["annotated_last_hour"] == 2
    assert data["annotated_total"] == 2


def test_it_shows_the_oldest_waiting_job_and_its_age(client: Client, staff: Any, alice: Any,
                                                     make_match: Any) -> None:
    now = timezone.now()
    young = make_match(alice, title="Young")
    old = make_match(alice, title="Old one")
    Match.objects.filter(pk=young.pk).update(annotation_queued_at=now - dt.timedelta(minutes=3))
    Match.objects.filter(pk=old.pk).update(
        annotation_queued_at=now - dt.timedelta(hours=2, minutes=5))
    markup = as_staff(client, staff).get("/dashboard/").content.decode()
    assert stat(markup, "oldest") == "2 hours, 5 minutes"
    assert "Old one" in note(markup, "oldest")
    card = re.search(r'<div class="(stat[^"]*)">\s*<span class="stat-label">Oldest waiting',
                     markup)
    assert card and card.group(1) == "stat is-warn", "older than ANNOTATION_STUCK_MINUTES"
    Match.objects.filter(pk=old.pk).update(annotation_status=Match.Status.DONE)
    markup = client.get("/dashboard/").content.decode()
    assert stat(markup, "oldest") == "3 minutes"


def test_it_lists_workers_by_when_they_were_last_seen(client: Client, staff: Any,
                                                      settings: Any) -> None:
    settings.WORKER_HEARTBEAT_SECONDS = 30
    now = timezone.now()
    WorkerHeartbeat.objects.create(hostname="celery@alive", last_seen=now, processed=1234,
                                   active=2, started_at=now - dt.timedelta(hours=1))
    WorkerHeartbeat.objects.create(hostname="celery@silent",
                                   last_seen=now - dt.timedelta(minutes=10))
    WorkerHeartbeat.objects.create(hostname="celery@<gone>", last_seen=now - dt.timedelta(
        hours=3), stopped_at=now - dt.timedelta(hours=3))
    with configured_broker(UNUSED_BROKER):
        markup = as_staff(client, staff).get("/dashboard/").content.decode()
    assert stat(markup, "workers") == "1"
    rows = [text_of(row) for row in re.findall(
        r"<tr>.*?</tr>", markup.split('class="dashboard-table workers')[1].split(
            "</table>")[0], re.S)][1:]
    assert rows[0].startswith("celery@alive alive") and "1,234 2" in rows[0]
    assert rows[1].startswith("celery@silent silent 10 minutes ago")
    assert rows[2].startswith("celery@<gone> stopped 3 hours ago")
    assert "celery@&lt;gone&gt;" in markup


def test_the_puzzle_numbers_per_day_and_variant(client: Client, staff: Any, alice: Any,
                                                bob: Any) -> None:
    from replays.puzzles.services import puzzle_day

    def puzzle(variant: str, seed: str) -> Puzzle:
        return Puzzle.objects.create(variant=variant, difficulty=1, position={},
                                     answer={"waits": []}, engine_version="test", seed=seed)

    jx, pt = puzzle("jiaxing", "a"), puzzle("putian", "b")
    Attempt.objects.create(puzzle=jx, user=alice, picked=[], solved=True, points=3)
    Attempt.objects.create(puzzle=jx, user=bob, picked=[], solved=False)
    Attempt.objects.create(puzzle=jx, visitor="v1", picked=[], solved=True)
    yesterday = Attempt.objects.create(puzzle=pt, user=alice, picked=[], solved=False)
    Attempt.objects.filter(pk=yesterday.pk).update(
        created_at=timezone.now() - dt.timedelta(days=1))
    data = dashboard.metrics(14)
    table = {row["variant"]: row for row in data["puzzle_table"]}
    assert (table["jiaxing"]["attempts"], table["jiaxing"]["solved"]) == (3, 2)
    assert table["jiaxing"]["rate"] == 66.7
    assert (table["putian"]["attempts"], table["putian"]["rate"]) == (1, 0.0)
    assert table["sichuan"]["rate"] is None
    assert data["attempts_total"] == 4 and data["solve_rate"] == 50.0
    assert data["attempts_today"] == 3 + (1 if puzzle_day(
        timezone.now() - dt.timedelta(days=1)) == puzzle_day() else 0)
    markup = as_staff(client, staff).get("/dashboard/").content.decode()
    rate = chart(markup, "Puzzle solve rate per day")
    assert ": 66.7% solved of 3 attempts" in rate
    assert "Jiaxing" in rate and "Sichuan" in rate  # the legend


def test_it_names_the_variants_in_the_readers_language(client: Client, staff: Any,
                                                       alice: Any) -> None:
    jx = Puzzle.objects.create(variant="jiaxing", difficulty=1, position={},
                               answer={"waits": []}, engine_version="test", seed="a")
    Attempt.objects.create(puzzle=jx, user=alice, picked=[], solved=True, points=3)
    markup = as_staff(client, staff).get(
        "/dashboard/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    rate = chart(markup, "每日题目答对率")
    assert "嘉兴麻将" in rate and "四川血战到底" in rate  # the legend
    assert "嘉兴麻将：1 次作答，答对率 100%" in rate  # the tooltip finds the variant's count
    assert not re.search(r"\b(Jiaxing|Putian|Sichuan)\b", text_of(markup))


def test_it_counts_new_users_per_day(client: Client, staff: Any, alice: Any, bob: Any,
                                     django_user_model: Any) -> None:
    django_user_model.objects.filter(pk=bob.pk).update(
        date_joined=timezone.now() - dt.timedelta(days=30))
    data = dashboard.metrics(14)
    assert data["users_total"] == 2, "alice and staff joined today; bob before the period"
    assert data["users_today"] == 2


# -- the Retry button -----------------------------------------------------------------------


def test_retry_requeues_a_failed_match_and_shows_its_new_status(
        client: Client, staff: Any, alice: Any, make_match: Any) -> None:
    match = fail(make_match(alice, hands=2, title="Retry me"))
    as_staff(client, staff)
    before = timezone.now()
    response = client.post(f"/dashboard/retry/{match.pk}/", {"days": "7"}, follow=True)
    assert response.redirect_chain == [("/dashboard/?days=7", 302)]
    match.refresh_from_db()
    # No broker in tests: queue_match ran every hand's task in-process.
    assert (match.annotation_status, match.annotation_error) == (Match.Status.DONE, "")
    assert match.annotation_queued_at >= before
    assert tasks.progress(match) == (2, 2)
    markup = response.content.decode()
    assert "Requeued “Retry me”: now annotated." in text_of(markup)
    assert stat(markup, "failed") == "0"


def test_retry_over_htmx_swaps_the_numbers(client: Client, staff: Any, alice: Any,
                                           make_match: Any,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    match = fail(make_match(alice, title="Queued again"))
    other = fail(make_match(alice, title="Still failed"))
    sent: list[int] = []
    monkeypatch.setattr(tasks.annotate_hand, "delay", sent.append)  # a broker that holds it
    response = as_staff(client, staff).post(f"/dashboard/retry/{match.pk}/",
                                             {"days": "30"}, headers=HTMX)
    markup = response.content.decode()
    assert response.status_code == 200
    assert markup.lstrip().startswith('<div id="dashboard-numbers"')
    assert 'hx-get="/dashboard/?days=30"' in markup
    assert "Requeued “Queued again”: now queued." in text_of(markup)
    assert sent == list(match.hands.values_list("pk", flat=True))
    match.refresh_from_db()
    assert (match.annotation_status, match.annotation_error) == (Match.Status.QUEUED, "")
    assert stat(markup, "failed") == "1"
    assert "Still failed" in markup and f"/dashboard/retry/{other.pk}/" in markup
    assert f"/dashboard/retry/{match.pk}/" not in markup


def test_retry_of_a_match_that_fails_again_says_why(client: Client, staff: Any, alice: Any,
                                                    make_match: Any) -> None:
    match = fail(make_match(alice))
    Match.objects.filter(pk=match.pk).update(document=b"not json")
    response = as_staff(client, staff).post(f"/dashboard/retry/{match.pk}/", follow=True)
    match.refresh_from_db()
    assert match.annotation_status == Match.Status.FAILED
    assert "now failed. hand 1: LogError:" in text_of(response.content.decode())


@pytest.mark.parametrize("visibility", ["private", "public"])
def test_retry_is_a_404_for_staff_without_the_private_permission(
        client: Client, plain_staff: Any, alice: Any, make_match: Any, visibility: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 24: match ids are sequential, so staff without ``view_private_match`` could
    requeue any match and read its private title in the reply. Now every id is a 404 to
    them, nothing is queued, and the title appears nowhere."""
    match = fail(make_match(alice, visibility=visibility, title="Alice's secret game"))
    queued: list[int] = []
    monkeypatch.setattr(views, "queue_match", queued.append)
    as_staff(client, plain_staff)
    for headers in ({}, HTMX):
        response = client.post(f"/dashboard/retry/{match.pk}/", {"days": "7"},
                               headers=headers)
        assert response.status_code == 404
        assert "secret" not in response.content.decode()
    assert client.post("/dashboard/retry/999999/").status_code == 404
    assert queued == []
    match.refresh_from_db()
    assert match.annotation_status == Match.Status.FAILED


def test_the_dashboard_hides_private_titles_and_retry_from_staff_without_the_permission(
        client: Client, plain_staff: Any, staff: Any, alice: Any, make_match: Any) -> None:
    private = fail(make_match(alice, visibility="private", title="Alice's secret game"))
    hidden = fail(make_match(alice, hidden=True, title="Taken down game"))
    public = fail(make_match(alice, title="Open game"))
    as_staff(client, plain_staff)
    for response in (client.get("/dashboard/"), client.get("/dashboard/", headers=HTMX)):
        markup = response.content.decode()
        assert "secret" not in markup and "Taken down" not in markup
        assert f"private match #{private.pk}" in text_of(markup)
        assert f"private match #{hidden.pk}" in text_of(markup)
        assert "Open game" in markup
        assert "/dashboard/retry/" not in markup
    as_staff(client, staff)
    markup = client.get("/dashboard/").content.decode()
    assert "Alice&#x27;s secret game" in markup and "Taken down game" in markup
    for match in (private, hidden, public):
        assert f"/dashboard/retry/{match.pk}/" in markup


def test_retry_only_answers_a_post_with_a_csrf_token(staff: Any, alice: Any,
                                                     make_match: Any) -> None:
    match = fail(make_match(alice))
    client = Client(enforce_csrf_checks=True)
    client.force_login(staff)
    assert client.get(f"/dashboard/retry/{match.pk}/").status_code == 405
    assert client.post(f"/dashboard/retry/{match.pk}/").status_code == 403
    assert client.post("/dashboard/retry/999999/").status_code == 403  # CSRF first
    match.refresh_from_db()
    assert match.annotation_status == Match.Status.FAILED
    page = client.get("/dashboard/")
    token = page.cookies["csrftoken"].value
    response = client.post("/dashboard/retry/999999/", headers={"X-CSRFToken": token})
    assert response.status_code == 404


# -- the broker -----------------------------------------------------------------------------


def test_an_unreachable_broker_shows_unknown_not_an_error(client: Client, staff: Any,
                                                          settings: Any) -> None:
    settings.HEALTHZ_TIMEOUT_SECONDS = 1
    with configured_broker(UNUSED_BROKER):
        response = as_staff(client, staff).get("/dashboard/")
    markup = response.content.decode()
    assert response.status_code == 200
    assert stat(markup, "broker") == "unknown"
    assert note(markup, "broker").startswith("error: ConnectionError")
    assert stat(markup, "workers") == "0", "no worker reported"


def test_a_broker_other_than_redis_has_no_known_length(client: Client, staff: Any) -> None:
    with configured_broker("amqp://guest@127.0.0.1:5673//"):
        markup = as_staff(client, staff).get("/dashboard/").content.decode()
    assert stat(markup, "broker") == "unknown"


@pytest.fixture
def redis_broker() -> Iterator[Any]:
    client = redis_or_skip(REDIS_URL, socket_connect_timeout=3, socket_timeout=10)
    client.delete("celery", "celery\x06\x163", "unacked")
    try:
        yield client
    finally:
        client.delete("celery", "celery\x06\x163", "unacked")
        client.close()


def test_it_reads_the_redis_queue_length(client: Client, staff: Any, redis_broker: Any) -> None:
    redis_broker.rpush("celery", "a", "b", "c")
    redis_broker.rpush("celery\x06\x163", "d")  # a message of another priority
    redis_broker.hset("unacked", "tag", "message")
    with configured_broker(REDIS_URL):
        markup = as_staff(client, staff).get("/dashboard/").content.decode()
    assert stat(markup, "broker") == "4"
    assert note(markup, "broker") == "messages waiting; 1 taken by workers"


# -- the charts -----------------------------------------------------------------------------


def test_charts_escape_every_text_and_give_every_bar_a_tooltip() -> None:
    svg = charts.bar_chart("<Uploads> & more", ["a<b", "c"], [
        charts.Series("x\"y", [1, 2]), charts.Series("<z>", [0, 5])])
    assert "<Uploads>" not in svg and "&lt;Uploads&gt; &amp; more" in svg
    assert "a&lt;b" in svg and "&lt;z&gt;" in svg and "x&quot;y" in svg
    assert svg.count('<rect class="chart-bar"') == 4
    assert svg.count("<title>") == 4
    assert "c · &lt;z&gt;: 5" in svg
    assert svg.startswith('<svg class="chart" viewBox=') and svg.endswith("</svg>")


def test_line_charts_leave_gaps_where_there_is_no_value() -> None:
    svg = charts.line_chart("Rate", ["1", "2", "3", "4", "5"], [
        charts.Series("r", [50, 60, None, 70, 80])], unit="%", y_top=100)
    assert svg.count("<polyline") == 2
    assert svg.count("<circle") == 4
    assert ">100%</text>" in svg and ">0%</text>" in svg


@pytest.mark.parametrize(("top", "ticks"), [
    (0, [0, 1]), (1, [0, 1]), (3, [0, 1, 2, 3]), (7, [0, 2, 4, 6, 8]),
    (10, [0, 2, 4, 6, 8, 10]), (37, [0, 10, 20, 30, 40]), (100, [0, 20, 40, 60, 80, 100]),
    (1234, [0, 500, 1000, 1500])])
def test_ticks_are_round_numbers(top: float, ticks: list[float]) -> None:
    assert charts.nice_ticks(top) == ticks
