"""The Django admin: every page renders for staff (never a 500), non-staff are kept out,
and the actions do what they say — re-annotate (queued on commit), hide and unhide, make
puzzles from a replay or from one hand, pin a puzzle as today's or tomorrow's daily.

``editor`` is a staff user with the replays app's permissions (a realistic staff group);
``root`` a superuser; ``staff`` (conftest.py) is staff without any permission.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.analysis.annotation import ENGINE_VERSION
from replays.annotation import tasks
from replays.models import (
    Annotation,
    Attempt,
    DailyPuzzle,
    Hand,
    Match,
    Puzzle,
    WorkerHeartbeat,
)
from replays.puzzles import services as puzzles

pytestmark = pytest.mark.filterwarnings("ignore:No directory at:UserWarning")

# A Sichuan match of 3 hands with ready positions (the puzzle harvest tests use it too).
VARIANT, HANDS, SEED = "sichuan", 3, 1002


@pytest.fixture
def editor(django_user_model: Any) -> Any:
    user = django_user_model.objects.create_user("eve", "eve@example.org", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(content_type__app_label="replays"))
    return user


@pytest.fixture
def root(django_user_model: Any) -> Any:
    return django_user_model.objects.create_superuser("root", "root@example.org")


def logged_in(client: Client, user: Any) -> Client:
    client.force_login(user)
    return client


@pytest.fixture
def data(alice: Any, bob: Any, make_match: Any) -> dict[str, Any]:
    """One of everything: an annotated public match with puzzles, a daily puzzle, an
    attempt, a failed private match, a worker."""
    match = make_match(alice, variant=VARIANT, hands=HANDS, seed=SEED,
                       title="Blood <battle> & co")
    tasks.queue_match(match.pk)  # no broker: annotated in-process
    made = puzzles.harvest(match)
    assert made, "the match has ready positions"
    daily = puzzles.pin_daily(made[0], puzzles.puzzle_day(), None)
    attempt = Attempt.objects.create(puzzle=made[0], user=bob, picked=["1p"], solved=False)
    failed = make_match(alice, visibility="private", title="Broken")
    Match.objects.filter(pk=failed.pk).update(annotation_status=Match.Status.FAILED,
                                              annotation_error="hand 1: KeyError: 'x'")
    worker = WorkerHeartbeat.objects.create(hostname="celery@w1", last_seen=timezone.now())
    match.refresh_from_db()
    assert match.annotation_status == Match.Status.DONE
    return {"match": match, "puzzle": made[0], "daily": daily, "attempt": attempt,
            "failed": failed, "worker": worker,
            "annotation": Annotation.objects.filter(hand__match=match).first(),
            "hand": match.hands.get(number=1)}


def action(client: Client, model: str, name: str, *objects: Any, **extra: Any) -> Any:
    return client.post(reverse(f"admin:replays_{model}_changelist"), {
        "action": name, "_selected_action": [o.pk for o in objects], **extra}, follow=True)


def messages_of(response: Any) -> list[str]:
    return [str(m) for m in response.context["messages"]]


# -- every page -----------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["editor", "root"])
def test_it_renders_every_admin_page(client: Client, data: dict[str, Any], who: str,
                                     request: pytest.FixtureRequest) -> None:
    user = request.getfixturevalue(who)
    logged_in(client, user)
    assert client.get("/admin/").status_code == 200
    checked = 0
    for model, model_admin in admin.site._registry.items():
        if who == "editor" and model._meta.app_label != "replays":
            continue
        info = (model._meta.app_label, model._meta.model_name)
        changelist = reverse("admin:{}_{}_changelist".format(*info))
        for query in ("", "?q=battle", "?q=%3Cscript%3E", "?o=1", "?p=2",
                      "?annotated=yes", "?annotated=no", "?annotation_status__exact=failed",
                      "?variant__exact=sichuan", "?solved__exact=0", "?source__exact=replay"):
            response = client.get(changelist + query)
            assert response.status_code in (200, 302), (changelist + query, response.status_code)
        for field in model_admin.list_filter:
            if isinstance(field, str):
                response = client.get(changelist, {f"{field}__isnull": "False"})
                assert response.status_code in (200, 302), (changelist, field)
        obj = model._default_manager.first()
        if obj is not None:
            for page in ("change", "history", "delete"):
                url = reverse("admin:{}_{}_{}".format(*info, page), args=[obj.pk])
                response = client.get(url)
                assert response.status_code in (200, 403), (url, response.status_code)
                if page == "change":
                    assert response.status_code == 200, url
        if model_admin.has_add_permission(type("R", (), {"user": user})()):
            url = reverse("admin:{}_{}_add".format(*info))
            assert client.get(url).status_code == 200, url
        checked += 1
    assert checked >= 7


def test_the_change_pages_show_what_staff_need(client: Client, editor: Any,
                                               data: dict[str, Any]) -> None:
    logged_in(client, editor)
    match = data["match"]
    page = client.get(reverse("admin:replays_match_change", args=[match.pk])).content.decode()
    assert "Blood &lt;battle&gt; &amp; co" in page and "<battle>" not in page
    assert f"{HANDS} / {HANDS} (engine {ENGINE_VERSION})" in page
    assert match.get_absolute_url() in page
    assert 'name="document"' not in page, "the stored bytes are never edited"
    assert 'name="visibility"' in page and 'name="hidden"' in page
    page = client.get(reverse("admin:replays_annotation_change",
                              args=[data["annotation"].pk])).content.decode()
    assert '<pre class="admin-json"' in page and '"decisions"' in page.replace("&quot;", '"')
    assert 'name="_save"' not in page, "annotations are read-only"
    page = client.get(reverse("admin:replays_puzzle_change",
                              args=[data["puzzle"].pk])).content.decode()
    assert data["puzzle"].get_absolute_url() in page
    assert data["daily"].day.isoformat() in page
    changelist = client.get(reverse("admin:replays_match_changelist")).content.decode()
    assert "Blood &lt;battle&gt; &amp; co" in changelist and "Broken" in changelist


def test_read_only_models_refuse_changes(client: Client, editor: Any,
                                         data: dict[str, Any]) -> None:
    logged_in(client, editor)
    attempt = data["attempt"]
    url = reverse("admin:replays_attempt_change", args=[attempt.pk])
    assert client.post(url, {"solved": "on", "points": 99}).status_code == 403
    attempt.refresh_from_db()
    assert (attempt.solved, attempt.points) == (False, 0)
    assert client.get(reverse("admin:replays_match_add")).status_code == 403
    assert client.get(reverse("admin:replays_annotation_add")).status_code == 403


def test_staff_without_permissions_get_no_error(client: Client, staff: Any,
                                                data: dict[str, Any]) -> None:
    logged_in(client, staff)
    assert client.get("/admin/").status_code == 200
    assert client.get(reverse("admin:replays_match_changelist")).status_code == 403


@pytest.mark.parametrize("who", ["alice", "charlie"])
def test_non_staff_are_sent_to_the_admin_log_in(client: Client, data: dict[str, Any],
                                                who: str,
                                                request: pytest.FixtureRequest) -> None:
    if who == "alice":
        client.force_login(request.getfixturevalue("alice"))
    for url in ("/admin/", reverse("admin:replays_match_changelist")):
        response = client.get(url)
        assert response.status_code == 302 and "/admin/login/" in response["Location"]


# -- match actions --------------------------------------------------------------------------


def test_reannotate_queues_the_matches_when_the_transaction_commits(
        client: Client, editor: Any, data: dict[str, Any],
        django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[int] = []
    monkeypatch.setattr(tasks.annotate_hand, "delay", sent.append)
    match, failed = data["match"], data["failed"]
    logged_in(client, editor)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = action(client, "match", "reannotate", match, failed)
        assert sent == [], "nothing is sent before the commit"
    assert "2 matches queued for annotation." in messages_of(response)
    for callback in callbacks:
        callback()
    expected = list(Hand.objects.filter(match__in=[match, failed]).values_list("pk", flat=True))
    assert sorted(sent) == sorted(expected)
    for one in (match, failed):
        one.refresh_from_db()
        assert (one.annotation_status, one.annotation_error) == (Match.Status.QUEUED, "")
        assert one.annotation_queued_at is not None


def test_hide_and_unhide(client: Client, editor: Any, data: dict[str, Any]) -> None:
    match = data["match"]
    logged_in(client, editor)
    response = action(client, "match", "hide", match)
    assert "1 replay hidden." in messages_of(response)
    match.refresh_from_db()
    assert match.hidden
    assert Client().get(match.get_absolute_url()).status_code == 404
    action(client, "match", "unhide", match)
    match.refresh_from_db()
    assert not match.hidden
    assert Client().get(match.get_absolute_url()).status_code == 200


def test_make_puzzles_from_public_replays_only(client: Client, editor: Any,
                                               data: dict[str, Any]) -> None:
    match, failed = data["match"], data["failed"]
    Puzzle.objects.filter(match=match).exclude(pk=data["puzzle"].pk).delete()
    logged_in(client, editor)
    response = action(client, "match", "make_puzzles", match, failed)
    shown = messages_of(response)
    assert any("Private, unlisted and hidden replays were skipped" in m for m in shown)
    made = Puzzle.objects.filter(match=match)
    assert 1 <= made.count() <= puzzles.SPOTS_PER_MATCH
    assert f"{made.count()} puzzle" in " ".join(shown)
    assert not Puzzle.objects.filter(match=failed).exists()


def test_make_puzzles_from_one_hand(client: Client, editor: Any,
                                    data: dict[str, Any]) -> None:
    match = data["match"]
    Puzzle.objects.filter(match=match).exclude(pk=data["puzzle"].pk).delete()
    from games.training import puzzles as engine
    from replays.matches.board import replayed_match

    spots = list(engine.ready_spots(replayed_match(match).match))
    number = spots[-1].hand  # a hand with ready positions
    hand = match.hands.get(number=number)
    before = set(Puzzle.objects.values_list("pk", flat=True))
    logged_in(client, editor)
    response = action(client, "hand", "make_puzzles", hand)
    made = Puzzle.objects.exclude(pk__in=before)
    of_hand = Puzzle.objects.filter(match=match, hand_number=number).count()
    assert 1 <= of_hand <= 3
    assert f"{of_hand} puzzle" in " ".join(messages_of(response))
    for puzzle in Puzzle.objects.filter(match=match, hand_number=number):
        assert puzzle.source == Puzzle.Source.REPLAY and puzzle.variant == VARIANT
        assert (puzzle.hand_number, puzzle.event_number, puzzle.seat) in {
            (s.hand, s.event, s.seat) for s in spots}
    assert set(made.values_list("hand_number", flat=True)) <= {number}
    assert any("from the selected hands" in m for m in messages_of(response))
    count = Puzzle.objects.count()
    action(client, "hand", "make_puzzles", hand)
    assert Puzzle.objects.count() == count, "made once, found again"

    private = data["failed"].hands.get()
    response = action(client, "hand", "make_puzzles", private)
    assert any("not a public replay" in m for m in messages_of(response))


# -- pinning daily puzzles ------------------------------------------------------------------


def test_pin_as_today_and_tomorrow(client: Client, editor: Any, data: dict[str, Any]) -> None:
    other = puzzles.generated_puzzle(VARIANT, 1, "pin-me")
    logged_in(client, editor)
    today = puzzles.puzzle_day()
    response = action(client, "puzzle", "pin_today", other)
    assert f"{other.public_id} is the Sichuan 血战到底 puzzle of {today.isoformat()}." in (
        messages_of(response))
    pinned = DailyPuzzle.objects.get(day=today, variant=VARIANT)
    assert (pinned.puzzle, pinned.pinned_by) == (other, editor)
    assert Client().get(f"/puzzles/daily/?variant={VARIANT}", follow=True).content.decode().count(
        other.public_id) >= 1

    action(client, "puzzle", "pin_tomorrow", data["puzzle"])
    tomorrow = DailyPuzzle.objects.get(day=today + dt.timedelta(days=1), variant=VARIANT)
    assert tomorrow.puzzle == data["puzzle"] and tomorrow.pinned_by == editor


def test_pinning_two_puzzles_of_one_variant_on_one_day_is_refused(
        client: Client, editor: Any, data: dict[str, Any]) -> None:
    one = puzzles.generated_puzzle(VARIANT, 1, "one")
    two = puzzles.generated_puzzle(VARIANT, 1, "two")
    logged_in(client, editor)
    response = action(client, "puzzle", "pin_tomorrow", one, two)
    assert any("at most one puzzle per variant" in m for m in messages_of(response))
    assert not DailyPuzzle.objects.filter(day=puzzles.puzzle_day() + dt.timedelta(days=1))\
        .exists()


def test_a_daily_puzzle_added_in_the_admin_must_match_its_variant(
        client: Client, editor: Any, data: dict[str, Any]) -> None:
    logged_in(client, editor)
    url = reverse("admin:replays_dailypuzzle_add")
    day = puzzles.puzzle_day() + dt.timedelta(days=5)
    response = client.post(url, {"day": day.isoformat(), "variant": "jiaxing",
                                 "puzzle": data["puzzle"].pk})
    assert response.status_code == 200
    assert "That puzzle is a Sichuan 血战到底 puzzle." in response.content.decode()
    response = client.post(url, {"day": day.isoformat(), "variant": VARIANT,
                                 "puzzle": data["puzzle"].pk})
    assert response.status_code == 302
    assert DailyPuzzle.objects.get(day=day).pinned_by == editor


def test_the_worker_list_shows_their_age(client: Client, editor: Any,
                                         data: dict[str, Any]) -> None:
    WorkerHeartbeat.objects.filter(pk=data["worker"].pk).update(
        last_seen=timezone.now() - dt.timedelta(minutes=5))
    page = logged_in(client, editor).get(
        reverse("admin:replays_workerheartbeat_changelist")).content.decode()
    assert "celery@w1" in page and re.search(r"5\xa0minutes ago", page)
