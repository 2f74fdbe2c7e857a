"""The room page of a table with friends is /play/'s table (issue 28): the same parts
(play/_table_*.html, replays.play.table.parts) drawn from the seat's view — the board with
every seat, the claim prompt naming the tile and the discarder, your hand and choices, the
moves since your last one — plus the room's own: who plays each seat, the clock, the
waiting room. The page's script fetches the table's part alone (htmx) at each new step.

alice (seat 0) and bob (seat 1) sit at a Sichuan table with two bots, on a fixed seed.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

SEED = "tables-page-28"


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("replays.tables.services.new_seed", lambda: SEED)


def seated_pair(variant: str = "sichuan", **extra: Any) -> tuple[Client, Client, str]:
    alice, bob = Client(), Client()
    response = alice.post("/tables/", {"variant": variant, "humans": 2, "hands": 1,
                                       "name": "Alice", "decision_seconds": 20,
                                       "bank_seconds": 30, **extra})
    assert response.status_code == 302, response.content[:500]
    pid = response["Location"].split("/")[2]
    assert bob.post(f"/tables/{pid}/join", {"name": "Bob"}).status_code == 302
    return alice, bob, pid


def state(client: Client, pid: str) -> dict[str, Any]:
    data: dict[str, Any] = client.get(f"/tables/{pid}/state.json").json()
    return data


def pick(view: dict[str, Any]) -> dict[str, Any]:
    """A win, else a pung, else the drawn tile (else the last discard offered), else the
    first choice: a hand that claims what it can."""
    legal = view["legal"]
    for kind in ("hu", "peng"):
        found = [a for a in legal if a["type"] == kind]
        if found:
            return found[0]
    discards = [a for a in legal if a["type"] == "discard"]
    drawn = view["you"]["drawn"]
    return next((a for a in discards if a["tile"] == drawn), discards[-1] if discards
                else legal[0])


def play_until(clients: dict[int, Client], pid: str, done: Any,
               limit: int = 200) -> tuple[int, dict[str, Any]]:
    """Answer for whoever is asked until ``done(view)`` holds for a seat's view."""
    for _ in range(limit):
        views = {seat: state(c, pid) for seat, c in clients.items()}
        for seat, view in views.items():
            if done(view):
                return seat, view
        assert not all(v["over"] for v in views.values()), "the match ended first"
        for seat, view in views.items():
            if view["legal"]:
                response = clients[seat].post(f"/tables/{pid}/act", json.dumps(
                    {"step": view["step"], "action": pick(view)}),
                    content_type="application/json")
                assert response.status_code in (200, 409), response.content[:300]
    raise AssertionError("not reached")


def page(client: Client, pid: str, language: str = "en", **headers: str) -> str:
    response = client.get(f"/tables/{pid}/", HTTP_ACCEPT_LANGUAGE=language, **headers)
    assert response.status_code == 200
    return response.content.decode()


def test_it_draws_the_board_with_every_seat_and_who_plays_it() -> None:
    alice, bob, pid = seated_pair()
    html = page(bob, pid)
    seats = re.findall(r'<section class="seat seat-(\d) place-(\w+)', html)
    assert sorted(seats) == [("0", "left"), ("1", "bottom"), ("2", "right"), ("3", "top")]
    assert len(re.findall(r'<div class="seat-river river-\w+" data-seat="\d"', html)) == 4
    assert html.count('<span class="seat-note">(bot)</span>') == 2  # seats 2 and 3
    assert 'class="play-actions"' in html and f'action="/tables/{pid}/act"' in html
    assert "s left (bank " in html or "Waiting for" in html
    chinese = page(bob, pid, "zh-hans")
    assert '<span class="seat-note">(机器人)</span>' in chinese


def test_it_names_the_tile_and_the_discarder_in_the_claim_prompt() -> None:
    alice, bob, pid = seated_pair()
    seat, view = play_until({0: alice, 1: bob}, pid,
                            lambda v: (v["decision"] or {}).get("kind") == "claim")
    last = view["last_discard"]
    name = view["seats"][last["seat"]]["name"]
    html = page((alice, bob)[seat], pid)
    prompt = re.search(r'<strong class="claim-text">([^<]*)</strong>', html)
    assert prompt is not None
    from replays.tile_names import tile_name

    assert prompt.group(1).startswith(f"{name} discards {tile_name(last['tile'])}: ")
    assert prompt.group(1).endswith(" or pass?")
    assert f'data-claim-seat="{last["seat"]}"' in html  # the tile is marked on the board
    assert 'value="{&quot;type&quot;:&quot;pass&quot;}"' in html  # and the pass


def _tile_codes(html: str) -> Counter[str]:
    return Counter(re.findall(r'data-tile="([^"]+)"', html))


def _visible_to(view: dict[str, Any]) -> Counter[str]:
    """Every tile face the seat may see, at most as often as it may see it: its own hand,
    every river, every exposed meld (a kong's four), the claimed tile in the prompt."""
    seen: Counter[str] = Counter(view["you"]["hand"])
    if view["you"]["drawn"]:
        seen[view["you"]["drawn"]] += 1
    for entry in view["seats"]:
        seen.update(d["tile"] for d in entry["river"])
        for meld in entry["melds"]:
            if "tile" in meld:
                seen[meld["tile"]] += 4
            elif "tiles" in meld:
                seen.update(re.findall(r"\d[a-z]", meld["tiles"]) or [meld["tiles"]])
    if view["last_discard"]:
        seen[view["last_discard"]["tile"]] += 1
    return seen


def test_it_never_shows_bob_alices_concealed_tiles_in_the_page_or_the_fragment() -> None:
    alice, bob, pid = seated_pair()
    _seat, _view = play_until({0: alice, 1: bob}, pid,
                              lambda v: v["seat"] == 1 and len(v["seats"][0]["river"]) >= 3)
    mine, hers = state(bob, pid), state(alice, pid)
    allowed = _visible_to(mine)
    for html in (page(bob, pid), page(bob, pid, HTTP_HX_REQUEST="true")):
        shown = _tile_codes(html)
        backs = shown.pop("back", 0)
        assert backs >= sum(s["concealed_count"] for s in mine["seats"] if s["seat"] != 1)
        too_many = {code: n for code, n in shown.items() if n > allowed[code]}
        assert not too_many, f"tiles bob may not see: {too_many}"
        unseen = {code for code in hers["you"]["hand"] if not allowed[code]}
        assert unseen, "alice holds kinds bob sees nowhere"
        assert not unseen & set(shown)


def test_it_answers_htmx_with_the_table_part_only() -> None:
    alice, bob, pid = seated_pair()
    response = bob.get(f"/tables/{pid}/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "HX-Request" in response["Vary"]
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="play-table" class="play-table room-table"')
    assert "<html" not in html and "<h1" not in html and 'id="room"' not in html
    assert 'class="board board-sichuan play-board"' in html
    full = page(bob, pid)
    assert '<div id="room"' in full and '<div id="play-table"' in full


def test_it_swaps_the_table_after_an_htmx_answer_and_redirects_without_javascript() -> None:
    alice, bob, pid = seated_pair()
    seat, view = play_until({0: alice, 1: bob}, pid,
                            lambda v: (v["decision"] or {}).get("kind") == "turn")
    client = (alice, bob)[seat]
    form = {"step": str(view["step"]),
            "action": json.dumps(pick(view), sort_keys=True, separators=(",", ":"))}
    stale = client.post(f"/tables/{pid}/act", {**form, "step": str(view["step"] + 7)},
                        HTTP_HX_REQUEST="true")
    assert stale.status_code == 409
    assert stale.content.decode().lstrip().startswith('<div id="play-table"')
    assert 'role="alert"' in stale.content.decode()
    answered = client.post(f"/tables/{pid}/act", form, HTTP_HX_REQUEST="true")
    assert answered.status_code == 200
    html = answered.content.decode()
    step = re.search(r'<div id="play-table"[^>]* data-step="(\d+)"', html)
    assert step is not None and int(step.group(1)) > view["step"]
    assert '<ol class="play-moves"' in html  # your move and what followed it, in words


def test_it_shows_the_waiting_room_as_the_table_part_before_the_start() -> None:
    alice = Client()
    response = alice.post("/tables/", {"variant": "jiaxing", "humans": 3, "hands": 1,
                                       "name": "Alice"})
    pid = response["Location"].split("/")[2]
    html = page(alice, pid, HTTP_HX_REQUEST="true")
    assert 'data-started="0"' in html and "room-waiting" in html and "<svg" in html


def test_it_shows_a_spectator_the_board_without_a_hand_or_choices() -> None:
    alice, bob, pid = seated_pair(spectators="on")
    html = page(Client(), pid)
    assert len(re.findall(r'<section class="seat seat-\d', html)) == 4
    assert 'name="action"' not in html and "play-actions" not in html
    assert "is-viewer" not in html


def test_it_frames_the_seats_the_table_waits_for_on_every_board() -> None:
    alice, bob, pid = seated_pair()
    seat, view = play_until({0: alice, 1: bob}, pid,
                            lambda v: (v["decision"] or {}).get("kind") == "turn")
    other = (alice, bob)[1 - seat]
    asked = state(other, pid)["waiting_for"]
    assert asked == [seat]
    html = page(other, pid)
    framed = re.findall(r'<section class="seat seat-(\d)[^"]*\bis-turn\b', html)
    assert framed == [str(seat)]
    assert "Waiting for " in html
