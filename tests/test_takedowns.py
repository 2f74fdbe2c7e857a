"""Takedowns reach puzzles, and owners and the admin can delete (issue 16, findings 3 and 4).

A replay hidden by staff, made private or unlisted by its owner, or deleted takes its
puzzles off the site — their pages, the answer form, the archive — and a daily puzzle taken
from it is rolled again. Owners change visibility and delete (after a confirmation page);
the admin's delete works (it failed with 403 because hands could not be deleted).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client

from replays.annotation import tasks
from replays.models import Annotation, DailyPuzzle, Hand, Match, Puzzle
from replays.puzzles import services as puzzles

pytestmark = pytest.mark.filterwarnings("ignore:No directory at:UserWarning")
MONDAY = dt.date(2026, 11, 30)


@pytest.fixture
def today(monkeypatch: pytest.MonkeyPatch) -> dt.date:
    monkeypatch.setattr(puzzles, "puzzle_day", lambda moment=None: MONDAY)
    return MONDAY


@pytest.fixture
def replay_with_daily(make_match: Any, alice: Any, today: dt.date) -> tuple[Match, Puzzle]:
    """Alice's public replay, its puzzles, and one of them as today's daily puzzle."""
    match = make_match(alice, variant="sichuan", hands=3, seed=1002, title="Blood battle")
    made = puzzles.harvest(match)
    assert made, "the bots' match gives puzzles"
    puzzles.pin_daily(made[0], today)
    return match, made[0]


def shows(client: Client, puzzle: Puzzle) -> dict[str, Any]:
    """Where a puzzle shows: its page, the answer form, the daily page and the archive."""
    archive = client.get("/puzzles/").content.decode()
    daily = client.get("/puzzles/daily/", {"variant": puzzle.variant}, follow=True).content.decode()
    answered = client.post(f"/puzzles/{puzzle.public_id}/answer/", {"notation": "1m"})
    return {"page": client.get(puzzle.get_absolute_url()).status_code,
            "answer": answered.status_code,
            "daily": puzzle.public_id in daily,
            "archive": puzzle.public_id in archive}


def test_it_shows_a_public_replays_daily_puzzle_everywhere(
        client: Client, replay_with_daily: tuple[Match, Puzzle]) -> None:
    _match, daily = replay_with_daily
    assert shows(client, daily) == {"page": 200, "answer": 302, "daily": True,
                                    "archive": True}


def test_it_takes_the_puzzles_down_with_a_replay_hidden_by_staff(
        client: Client, replay_with_daily: tuple[Match, Puzzle], django_user_model: Any,
        today: dt.date) -> None:
    match, daily = replay_with_daily
    admin_user = django_user_model.objects.create_superuser("root", "root@example.org", "x")
    client.force_login(admin_user)
    response = client.post("/admin/replays/match/", {
        "action": "hide", "_selected_action": [match.pk]})
    assert response.status_code == 302
    client.logout()

    assert shows(client, daily) == {"page": 404, "answer": 404, "daily": False,
                                    "archive": False}
    rolled = DailyPuzzle.objects.get(day=today, variant=daily.variant)
    assert rolled.puzzle.match_id != match.pk, "today's daily was rolled again"


@pytest.mark.parametrize("visibility", ["private", "unlisted"])
def test_it_takes_the_puzzles_down_when_the_owner_stops_sharing(
        client: Client, alice: Any, replay_with_daily: tuple[Match, Puzzle],
        visibility: str, today: dt.date) -> None:
    match, daily = replay_with_daily
    client.force_login(alice)
    response = client.post(f"/replays/{match.public_id}/visibility/",
                           {"visibility": visibility})
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.visibility == visibility
    client.logout()

    assert shows(client, daily) == {"page": 404, "answer": 404, "daily": False,
                                    "archive": False}
    assert not DailyPuzzle.objects.filter(day=today, puzzle__match=match).exists()


def test_it_offers_its_owner_alone_the_visibility_and_delete_controls(
        client: Client, alice: Any, bob: Any, make_match: Any) -> None:
    match = make_match(alice)
    client.force_login(bob)
    assert "/delete/" not in client.get(match.get_absolute_url()).content.decode()
    assert client.post(f"/replays/{match.public_id}/visibility/",
                       {"visibility": "private"}).status_code == 404
    assert client.get(f"/replays/{match.public_id}/delete/").status_code == 404
    assert client.post(f"/replays/{match.public_id}/delete/").status_code == 404
    match.refresh_from_db()
    assert match.visibility == "public"

    client.force_login(alice)
    page = client.get(match.get_absolute_url()).content.decode()
    assert f'action="/replays/{match.public_id}/visibility/"' in page
    assert f'href="/replays/{match.public_id}/delete/"' in page


def test_it_deletes_an_owners_match_after_a_confirmation(
        client: Client, alice: Any, replay_with_daily: tuple[Match, Puzzle],
        today: dt.date) -> None:
    match, daily = replay_with_daily
    client.force_login(alice)

    confirm = client.get(f"/replays/{match.public_id}/delete/")
    assert confirm.status_code == 200
    assert "Delete for good" in confirm.content.decode()
    assert Match.objects.filter(pk=match.pk).exists(), "a GET deletes nothing"

    response = client.post(f"/replays/{match.public_id}/delete/")
    assert response.status_code == 302 and response["Location"] == "/?mine=1"
    assert not Match.objects.filter(pk=match.pk).exists()
    assert not Hand.objects.filter(match_id=match.pk).exists()
    assert not Puzzle.objects.filter(pk=daily.pk).exists()
    assert client.get(match.get_absolute_url()).status_code == 404
    rolled = DailyPuzzle.objects.get(day=today, variant=daily.variant)
    assert rolled.puzzle_id != daily.pk


def test_it_lets_the_admin_delete_a_match_with_its_hands_and_analysis(
        client: Client, django_user_model: Any, make_match: Any, alice: Any) -> None:
    match = make_match(alice, hands=2)
    tasks.queue_match(match.pk)  # in-process: annotated at once
    assert Annotation.objects.filter(hand__match=match).count() == 2
    admin_user = django_user_model.objects.create_superuser("root", "root@example.org", "x")
    client.force_login(admin_user)
    url = f"/admin/replays/match/{match.pk}/delete/"

    assert client.get(url).status_code == 200
    response = client.post(url, {"post": "yes"})

    assert response.status_code == 302
    assert not Match.objects.filter(pk=match.pk).exists()
    assert not Annotation.objects.filter(hand__match_id=match.pk).exists()


def test_the_missed_puzzles_retry_page_does_not_show_a_taken_down_puzzle(
        client: Client, alice: Any, bob: Any, replay_with_daily: tuple[Match, Puzzle]) -> None:
    """Issue 24: bob missed a puzzle of alice's replay, then alice made it private: the
    retry page of that miss is a 404 like the puzzle's own page, GET and POST alike."""
    match, found = replay_with_daily
    client.force_login(bob)
    wins = {w["tile"] for w in found.answer["waits"]}
    miss = next(t for t in ("1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m")
                if t not in wins)
    assert client.post(f"/puzzles/{found.public_id}/answer/",
                       {"tile": [miss]}).status_code == 302
    url = f"/puzzles/train/missed/{found.public_id}/"
    assert client.get(url).status_code == 200
    owner = Client()
    owner.force_login(alice)
    owner.post(f"/replays/{match.public_id}/visibility/", {"visibility": "private"})

    assert url not in client.get("/puzzles/train/missed/").content.decode()
    assert client.get(url).status_code == 404
    assert client.post(url, {"tile": sorted(wins)}).status_code == 404
