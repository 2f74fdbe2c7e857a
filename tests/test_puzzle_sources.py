"""Puzzles from finished played matches, with the player's consent (issue 18, "Sources").

alice lets the site make puzzles of her matches, bob doesn't, charlie (anonymous) sees
only what is public: the puzzle's position, never alice's name or her private replay.
"""

from __future__ import annotations

import datetime as dt
import html
import json
from typing import Any

import pytest
from django.test import Client

from games.play.bot_match import PlayMatch
from games.records.log import loads
from games.training import puzzles as engine
from games.variants.positions import read_position
from replays.models import DailyPuzzle, Match, PlayedMatch, PlaySettings, Puzzle, shown_puzzles
from replays.play import services as play
from replays.puzzles import services as puzzles
from replays.puzzles import tasks
from tests.conftest import PASSWORD, with_password
from tests.test_puzzle_site import MONDAY, answer_url, right_answer, text_of, today

__all__ = ["today"]  # the puzzle calendar's fixture, pinned to MONDAY

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
SEEDS = [f"sources-{n}" for n in range(40)]  # the first with a ready spot at the seat is used


def consent(client: Client, allowed: bool) -> Any:
    return client.post("/play/puzzle-consent", {"consent": "on"} if allowed else {})


def best_action(match: PlayMatch) -> dict[str, Any]:
    """The hint's first-ranked action (so the player gets ready now and then)."""
    options = match.hint()["options"]
    legal = match.legal()
    chosen = min(options, key=lambda o: o.get("rank", 99))["action"] if options else legal[0]
    return chosen if chosen in legal else legal[0]


def play_a_match(client: Client, monkeypatch: pytest.MonkeyPatch, capture: Any,
                 variant: str = "sichuan") -> PlayedMatch:
    """A one-hand match played through the site (JSON interface) well enough to get ready
    at the player's seat, finished, stored and annotated (the commit hooks run)."""
    for seed in SEEDS:
        probe = PlayMatch.start(variant, seed=seed, seat=0, hands=1)
        while not probe.over:
            probe.act(probe.step, best_action(probe))
        if not any(s.seat == 0 for s in engine.ready_spots(probe.log())):
            continue
        monkeypatch.setattr(play, "new_seed", lambda seed=seed: seed)
        response = client.post("/play/", {"variant": variant, "seat": "0", "hands": 1,
                                          "speed": 0})
        assert response.status_code == 302
        pid = str(response["Location"]).strip("/").split("/")[-1]
        row = PlayedMatch.objects.get(public_id=pid)
        with capture(execute=True):
            while not row.over:
                match = play.restored(row)
                sent = client.post(f"/play/{pid}/act", json.dumps(
                    {"step": match.step, "action": best_action(match)}),
                    content_type="application/json")
                assert sent.status_code == 200, sent.content
                row.refresh_from_db()
        assert row.replay is not None
        return row
    pytest.fail("no seed gave a ready hand at the player's seat")


def stored_played(owner: Any, make_match: Any, *, seed: int = 1002, signed_in: bool = True,
                  variant: str = "sichuan", hands: int = 3) -> tuple[PlayedMatch, int]:
    """A finished played match stored as its player's private replay (the bots' document
    of a seed), the player at the seat with the most ready spots."""
    match = make_match(owner, visibility="private", seed=seed, variant=variant, hands=hands)
    spots = list(engine.ready_spots(loads(bytes(match.document).decode())))
    seat = max(range(4), key=lambda s: sum(1 for spot in spots if spot.seat == s))
    assert any(spot.seat == seat for spot in spots)
    row = PlayedMatch.objects.create(
        owner=owner, signed_in=signed_in, variant=variant, state={"seat": seat},
        hands=hands, commitment="0" * 64, over=True, replay=match)
    return row, seat


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_setting_is_off_by_default_and_worded_in_both_languages(
        client: Client, alice: Any) -> None:
    assert client.get("/play/").status_code == 200
    assert "puzzle-consent" not in client.get("/play/").content.decode()  # charlie: none
    refused = consent(client, True)
    assert refused.status_code == 302 and "/accounts/login/" in refused["Location"]
    assert not PlaySettings.objects.exists()
    hers = logged_in(alice)
    page = hers.get("/play/").content.decode()
    assert "Let the site make puzzles from my finished played matches" in page
    assert 'name="consent" value="on">' in page  # not checked
    chinese = hers.get("/play/", headers={"Accept-Language": "zh-hans"}).content.decode()
    assert "允许本站用我已结束的对局出题" in chinese
    assert not play.puzzles_consent(alice)
    assert hers.get("/play/puzzle-consent").status_code == 405
    saved = consent(hers, True)
    assert saved.status_code == 302 and saved["Location"].endswith("/play/#puzzle-consent")
    assert play.puzzles_consent(alice)
    assert 'name="consent" value="on" checked>' in hers.get("/play/").content.decode()


def test_a_consenting_players_finished_match_gives_puzzles_from_her_seat_only(
        client: Client, alice: Any, monkeypatch: pytest.MonkeyPatch,
        django_capture_on_commit_callbacks: Any) -> None:
    hers = logged_in(alice)
    consent(hers, True)
    row = play_a_match(hers, monkeypatch, django_capture_on_commit_callbacks)
    replay = row.replay
    assert replay is not None and replay.visibility == Match.Visibility.PRIVATE
    assert replay.annotation_status == Match.Status.DONE
    made = list(Puzzle.objects.filter(source=Puzzle.Source.PLAYED, match=replay))
    assert made, "the annotation's end harvested nothing"
    assert len(made) <= puzzles.SPOTS_PER_MATCH
    spots = [s for s in engine.ready_spots(loads(bytes(replay.document).decode()))
             if s.seat == 0]
    for puzzle in made:
        assert puzzle.seat == 0 and puzzle.hand_number == 1
        assert (puzzle.hand_number, puzzle.event_number) in {(s.hand, s.event) for s in spots}
        event = replay.hands.get(number=1).events[puzzle.event_number - 1]
        assert event["type"] == "discard" and event["actor"] == 0
        fresh = engine.solve(read_position(puzzle.position)).to_json()
        assert fresh == puzzle.answer
    # Charlie (anonymous) can answer it; he sees where it comes from, never whose it is.
    chosen = made[0]
    before = client.get(chosen.get_absolute_url())
    assert before.status_code == 200
    words = text_of(before.content.decode())
    assert "From a match played against the bots on this site" in words
    after = client.post(answer_url(chosen), right_answer(chosen), headers=HTMX).content.decode()
    assert "Solved!" in after
    page = client.get(chosen.get_absolute_url()).content.decode()
    assert "alice" not in page and replay.public_id not in page
    assert client.get(f"/replays/{replay.public_id}/").status_code == 404
    # Alice, after answering, is led to that moment of her replay, from her seat.
    step = (f"/replays/{replay.public_id}/?hand=1&amp;step={chosen.event_number}"
            f"&amp;seat=0")
    assert step not in hers.get(chosen.get_absolute_url()).content.decode()
    hers.post(answer_url(chosen), right_answer(chosen), headers=HTMX)
    markup = hers.get(chosen.get_absolute_url()).content.decode()
    assert "From your match against the bots, hand 1." in text_of(markup)
    assert step in markup and "See the moment in the replay" in markup
    assert hers.get(html.unescape(step)).status_code == 200
    # Harvesting again finds the same puzzles.
    assert sorted(p.pk for p in puzzles.harvest_played(replay)) == sorted(p.pk for p in made)


def test_a_player_who_does_not_consent_gives_no_puzzles(
        bob: Any, make_match: Any, monkeypatch: pytest.MonkeyPatch,
        django_capture_on_commit_callbacks: Any) -> None:
    his = logged_in(bob)
    row = play_a_match(his, monkeypatch, django_capture_on_commit_callbacks)
    assert row.replay is not None and row.replay.annotation_status == Match.Status.DONE
    stored, _seat = stored_played(bob, make_match)
    assert not puzzles.may_harvest(stored.replay)
    assert puzzles.harvest_played(stored.replay) == []
    tasks.harvest_puzzles.delay(stored.replay.pk)
    tasks.harvest_played_puzzles.delay(bob.pk)
    assert not Puzzle.objects.filter(source=Puzzle.Source.PLAYED).exists()
    # Turned off (as it was) says so and changes nothing.
    assert not play.set_puzzles_consent(bob, False)


def test_turning_it_on_harvests_the_finished_matches_and_off_hides_them(
        client: Client, alice: Any, make_match: Any, today: Any,
        django_capture_on_commit_callbacks: Any) -> None:
    row, seat = stored_played(alice, make_match)
    unfinished = PlayedMatch.objects.create(owner=alice, signed_in=True, variant="sichuan",
                                            state={"seat": 0}, hands=1, commitment="0" * 64)
    hers = logged_in(alice)
    with django_capture_on_commit_callbacks(execute=True):
        consent(hers, True)
    made = list(Puzzle.objects.filter(source=Puzzle.Source.PLAYED))
    assert made and {p.match_id for p in made} == {row.replay_id}
    assert {p.seat for p in made} == {seat}
    assert not unfinished.over
    shown = set(shown_puzzles().values_list("pk", flat=True))
    assert {p.pk for p in made} <= shown
    chosen = made[0]
    assert client.get(chosen.get_absolute_url()).status_code == 200
    day = next(MONDAY + dt.timedelta(days=n) for n in range(7)
               if puzzles.day_difficulty(MONDAY + dt.timedelta(days=n)) == chosen.difficulty)
    DailyPuzzle.objects.filter(day=day, variant="sichuan").delete()
    daily = puzzles.daily("sichuan", day)
    assert daily.puzzle.source == Puzzle.Source.PLAYED  # the day prefers a real game's
    # Off: every puzzle of her matches leaves the site at once, the day is rolled again,
    # and a match finished afterwards makes none.
    with django_capture_on_commit_callbacks(execute=True):
        consent(hers, False)
    for who in (client, hers):
        assert who.get(chosen.get_absolute_url()).status_code == 404
    assert not shown_puzzles().filter(source=Puzzle.Source.PLAYED).exists()
    assert puzzles.daily("sichuan", day).puzzle.source != Puzzle.Source.PLAYED
    later, _seat = stored_played(alice, make_match, seed=1001, variant="putian")
    assert not puzzles.may_harvest(later.replay)
    tasks.harvest_puzzles.delay(later.replay.pk)
    assert not Puzzle.objects.filter(match=later.replay).exists()
    # On again: they come back (the same rows), and the later match is harvested too.
    with django_capture_on_commit_callbacks(execute=True):
        consent(hers, True)
    assert client.get(chosen.get_absolute_url()).status_code == 200
    assert Puzzle.objects.filter(source=Puzzle.Source.PLAYED, match=later.replay).exists()
    assert Puzzle.objects.filter(match=row.replay).count() == len(made)
    # Hidden by staff or deleted by her, a replay takes its puzzles along.
    Match.objects.filter(pk=row.replay_id).update(hidden=True)
    assert client.get(chosen.get_absolute_url()).status_code == 404
    row.replay.delete()
    assert not Puzzle.objects.filter(pk=chosen.pk).exists()


def test_an_anonymous_players_match_is_never_harvested_even_after_log_in(
        client: Client, alice: Any, make_match: Any,
        django_capture_on_commit_callbacks: Any) -> None:
    row, _seat = stored_played(None, make_match, signed_in=False)
    session_client = client
    session_client.get("/play/")
    visitor = "a" * 32
    session = session_client.session
    session[puzzles.VISITOR_KEY] = visitor
    session.save()
    PlayedMatch.objects.filter(pk=row.pk).update(visitor=visitor)
    assert not puzzles.may_harvest(row.replay)
    with_password(alice)
    response = session_client.post("/accounts/login/", {"username": "alice",
                                                        "password": PASSWORD})
    assert response.status_code == 302
    row.refresh_from_db()
    assert row.owner == alice and row.replay.owner == alice and not row.signed_in
    with django_capture_on_commit_callbacks(execute=True):
        consent(session_client, True)
    assert not puzzles.may_harvest(row.replay)
    assert not Puzzle.objects.filter(source=Puzzle.Source.PLAYED).exists()


def test_one_puzzle_per_position_whatever_its_source(alice: Any, make_match: Any) -> None:
    public = make_match(None, visibility="public", seed=1002, variant="sichuan", hands=3,
                        players=("Ann", "Ben", "Cai", "Dee"))  # the same game, uploaded
    from_replay = puzzles.harvest(public, limit=100)
    row, seat = stored_played(alice, make_match)
    play.set_puzzles_consent(alice, True)
    made = puzzles.harvest_played(row.replay, limit=100)
    assert made and seat in {p.seat for p in from_replay}
    assert any(p.source == Puzzle.Source.REPLAY for p in made)  # found, not made again
    keys = {p.position_key for p in from_replay}
    for puzzle in made:
        if puzzle.position_key in keys:
            assert puzzle.source == Puzzle.Source.REPLAY and puzzle.match == public
    assert not Puzzle.objects.filter(source=Puzzle.Source.PLAYED,
                                     position_key__in=keys).exists()
    shown_keys = list(shown_puzzles().values_list("position_key", flat=True))
    assert len(shown_keys) == len(set(shown_keys))
