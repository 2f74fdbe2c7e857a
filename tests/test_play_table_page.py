"""The one-player table page, phone first (issue 28): the claim prompt names the tile and
the discarder and marks the tile on the board; every move in words, a Sichuan win in the
middle of a hand with its winner, tile and points (SC-5); during 定缺 (SC-2) the seat asked
is framed, not the dealer's; the keyboard help is for keyboards and fine pointers only."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from replays.tile_names import tile_name

pytestmark = pytest.mark.django_db

SEED = "tablepage-sichuan-0"  # seat 0 is the dealer; a pung offered within a few decisions
CSS = Path(__file__).resolve().parent.parent / "static" / "css" / "site.css"


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("replays.play.services.new_seed", lambda: SEED)


def start(client: Client, seat: str = "0") -> str:
    response = client.post("/play/", {"variant": "sichuan", "seat": seat, "hands": 1,
                                      "speed": 0})
    assert response.status_code == 302, response.content.decode()[:2000]
    return str(response["Location"]).strip("/").split("/")[-1]


def state(client: Client, pid: str) -> dict[str, Any]:
    response = client.get(f"/play/{pid}/state.json")
    assert response.status_code == 200
    data: dict[str, Any] = response.json()
    return data


def pick(view: dict[str, Any]) -> dict[str, Any]:
    """The browser tests' mouse: a win, else the last tile that may go, else the first
    button (a pung before a pass)."""
    legal = view["legal"]
    wins = [a for a in legal if a["type"] == "hu"]
    if wins:
        return wins[0]
    discards = {a["tile"]: a for a in legal if a["type"] == "discard"}
    if discards:
        you = view["you"]
        order = you["hand"] + ([you["drawn"]] if you["drawn"] else [])
        return [discards[c] for c in order if c in discards][-1]
    return legal[0]


def play_until(client: Client, pid: str, done: Any, limit: int = 40) -> dict[str, Any]:
    data = state(client, pid)
    for _ in range(limit):
        if done(data):
            return data
        assert not data["over"], "the match ended first"
        response = client.post(f"/play/{pid}/act", json.dumps(
            {"step": data["step"], "action": pick(data)}), content_type="application/json")
        assert response.status_code == 200, response.content
        data = response.json()
    raise AssertionError("not reached")


def page(client: Client, pid: str, language: str = "en") -> str:
    return client.get(f"/play/{pid}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()


def test_it_names_the_tile_and_the_discarder_in_the_claim_prompt(client: Client) -> None:
    pid = start(client)
    data = play_until(client, pid, lambda d: (d["decision"] or {}).get("kind") == "claim")
    last = data["last_discard"]
    name = data["seats"][last["seat"]]["name"]
    english = page(client, pid)
    assert (f'<strong class="claim-text">{name} discards '
            f'{tile_name(last["tile"])}: pung or pass?</strong>') in english
    assert f'data-claim-seat="{last["seat"]}"' in english  # the tile is marked on the board
    chinese = page(client, pid, "zh-hans")
    with translation.override("zh-hans"):
        tile = tile_name(last["tile"])
    assert f'<strong class="claim-text">{name} 打出{tile}：碰还是过？</strong>' in chinese
    assert "一筒" == tile  # tile names, not codes


def test_it_tells_a_bots_win_in_the_middle_of_a_sichuan_hand_in_words(client: Client) -> None:
    pid = start(client)
    data = play_until(client, pid, lambda d: bool(d["wins"]) and not d["over"])
    win = data["wins"][0]
    names = [s["name"] for s in data["seats"]]
    assert win["seat"] != data["seat"]
    english = page(client, pid)
    said = re.search(r'<li class="is-win"[^>]*>([^<]*)</li>', english)
    assert said is not None, "no win in the moves list"
    text = said.group(1).replace("&#x27;", "'")
    assert text.startswith(f"{names[win['seat']]} wins on ")
    assert tile_name(win["tile"]) in text
    assert f": {win['points']} points (" in text or f": {win['points']} point (" in text
    assert win["score"]["patterns"][0]["name"] in text
    chinese = page(client, pid, "zh-hans")
    said = re.search(r'<li class="is-win"[^>]*>([^<]*)</li>', chinese)
    assert said is not None
    with translation.override("zh-hans"):
        tile = tile_name(win["tile"])
    assert names[win["seat"]] in said.group(1) and tile in said.group(1)
    assert f"：{win['points']} 分（" in said.group(1)


def test_it_frames_the_seat_asked_for_its_void_suit_not_the_dealers(client: Client) -> None:
    for seat in "0123":
        pid = start(client, seat)
        data = state(client, pid)
        if data["dealer"] != data["seat"] and data["decision"]["kind"] == "dingque":
            break
    else:
        raise AssertionError("the player was the dealer at every seat")
    html = page(client, pid)
    framed = re.findall(r'<section class="seat seat-(\d)[^"]*\bis-turn\b', html)
    assert framed == [str(data["seat"])]


def test_it_offers_the_keyboard_help_to_keyboards_only(client: Client) -> None:
    pid = start(client)
    data = play_until(client, pid, lambda d: (d["decision"] or {}).get("kind") == "turn")
    assert data["decision"]["kind"] == "turn"
    html = page(client, pid)
    assert '<span class="play-keys">Keys: ← → and Enter' in html
    prompt = re.search(r'<p class="play-prompt"[^>]*>(.*?)<span class="play-keys">', html, re.S)
    assert prompt is not None and "←" not in prompt.group(1)
    css = CSS.read_text()
    assert ".play-keys { display: none;" in css
    shown = css.index("@media (hover: hover) and (pointer: fine) and (min-width: 700px)")
    assert css.index(".play-keys { display: inline; }") > shown
