"""What a screen reader is given (issue 32, docs/accessibility.md): every tile's accessible
name says what its face shows (the wildcard's star, the drawn tile, the last discard, a
claimed tile), whose turn it is in words, the move played in the decisions' table in words,
and one live region per page that stays outside the parts htmx swaps, fed from each part's
``data-announce``. Fast: the test client and the template tags, no browser."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from games.core.tiles import Tile
from replays.matches.board import SeatView, TileView
from replays.templatetags import tiles as tile_tags
from replays.templatetags.values import _alternative_row, _labels
from replays.tile_names import tile_label

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
HTMX = {"HTTP_HX_REQUEST": "true"}
LABEL = re.compile(r'aria-label="([^"]*)"')

pytestmark = pytest.mark.filterwarnings("ignore:No directory at:UserWarning")


def view(code: str, **flags: bool) -> TileView:
    return TileView(Tile.parse(code), **flags)


def label_of(markup: str) -> str:
    found = LABEL.search(str(markup))
    assert found, markup
    return html.unescape(found.group(1))


def test_it_names_every_state_a_tile_shows_in_english_and_chinese() -> None:
    with translation.override("en"):
        assert label_of(tile_tags.tile(view("5p", wild=True, drawn=True))) == (
            "5 Dots, wildcard, just drawn")
        assert label_of(tile_tags.tile(view("3s", last=True))) == "3 Bamboo, last discard"
        assert label_of(tile_tags.tile(view("7z", claimed=True))) == "Red, claimed"
        assert label_of(tile_tags.tile(view("1m", winning=True))) == (
            "1 Characters, the winning tile")
        assert label_of(tile_tags.tile(view("1m"))) == "1 Characters"
        assert label_of(tile_tags.tile(view("1m", hidden=True))) == "face-down tile"
    with translation.override("zh-hans"):
        assert label_of(tile_tags.tile(view("5p", wild=True, drawn=True))) == "五筒，万能牌，刚摸到"
        assert tile_label("3s", last=True) == "三条，最后打出"


def test_a_row_of_tiles_names_each_with_its_states() -> None:
    with translation.override("en"):
        row = tile_tags.tiles([view("2m"), view("9p", claimed=True), view("4s", last=True)])
    assert [html.unescape(x) for x in LABEL.findall(row)] == [
        "2 Characters", "9 Dots, claimed", "4 Bamboo, last discard"]


def seat(**fields: Any) -> SeatView:
    return SeatView(**{"seat": 1, "name": "Ada", "wind": "S", "score": 0, "hand": [],
                       "melds": [], "river": [], "flowers": [], **fields})


def test_whose_turn_it_is_is_said_in_words() -> None:
    with translation.override("en"):
        turn = str(tile_tags.seat_section(seat(is_turn=True), 0))
        other = str(tile_tags.seat_section(seat(), 0))
    assert 'aria-label="Ada, to play"' in turn and "(to play)" in turn
    assert 'aria-label="Ada"' in other and "to play" not in other
    with translation.override("zh-hans"):
        assert "Ada，轮到此家" in str(tile_tags.seat_section(seat(is_turn=True), 0))


def test_the_move_played_in_the_decisions_table_is_marked_in_words() -> None:
    alt = {"index": 0, "rank": 1, "action": {"type": "discard", "tile": "5p"}, "shanten": 1}
    with translation.override("en"):
        played = str(_alternative_row(alt, 0, False, _labels()))
        other = str(_alternative_row(alt, 1, False, _labels()))
    assert '<span aria-hidden="true">◀</span> played' in played
    assert "played" not in other and "◀" not in other
    with translation.override("zh-hans"):
        assert "实际打法" in str(_alternative_row(alt, 0, False, _labels()))


# -- the play table --------------------------------------------------------------------


@pytest.fixture
def fixed_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    counter = iter(range(1000))
    monkeypatch.setattr("replays.play.services.new_seed", lambda: f"a11y-{next(counter)}")


def start(client: Client) -> str:
    for _ in range(20):
        response = client.post("/play/", {"variant": "jiaxing", "seat": "2", "hands": 1,
                                           "speed": 0})
        assert response.status_code == 302
        pid = str(response["Location"]).strip("/").split("/")[-1]
        if client.get(f"/play/{pid}/state.json").json()["legal"]:
            return pid
    raise AssertionError("no match waited for the player")


def news_of(markup: str) -> dict[str, Any]:
    found = re.search(r'<div id="play-table"[^>]*data-announce="([^"]*)"', markup)
    assert found, markup[:500]
    news: dict[str, Any] = json.loads(html.unescape(found.group(1)))
    return news


def moves_of(markup: str) -> list[str]:
    items = re.findall(r"<li[^>]*>(.*?)</li>",
                       (re.search(r'<ol class="play-moves".*?</ol>', markup, re.S)
                        or re.search("", "")).group(0), re.S)  # type: ignore[union-attr]
    return [html.unescape(i) for i in items]


@pytest.mark.django_db
def test_the_table_has_one_live_region_outside_the_swapped_part(client: Client,
                                                                 fixed_seeds: None) -> None:
    pid = start(client)
    page = client.get(f"/play/{pid}/").content.decode()
    assert page.count('aria-live="polite"') == 1  # the prompt's own region is gone
    region = re.search(r'<div id="announcer"[^>]*>', page)
    assert region and 'role="status"' in region.group(0)
    table_at, region_at = page.index('<div id="play-table"'), page.index('id="announcer"')
    assert region_at > table_at and "</div>" in page[table_at:region_at]
    fragment = client.get(f"/play/{pid}/", **HTMX).content.decode()  # type: ignore[arg-type]
    assert "announcer" not in fragment and "data-announce=" in fragment
    assert 'shortcuts-switch' in page and 'shortcuts-switch' not in fragment


@pytest.mark.django_db
def test_an_answer_brings_the_bots_moves_and_the_question_in_the_readers_language(
        client: Client, fixed_seeds: None) -> None:
    pid = start(client)
    for headers in ({}, ZH):
        data = client.get(f"/play/{pid}/state.json").json()
        assert not data["over"]
        action = next((a for a in data["legal"] if a["type"] in ("discard", "pass")),
                      data["legal"][0])
        fragment = client.post(f"/play/{pid}/act", {
            "step": data["step"], "action": json.dumps(action)},
            **HTMX, **headers).content.decode()  # type: ignore[arg-type]
        news = news_of(fragment)
        # Every move the list shows since the answer, said in the same words.
        assert news["moves"] and news["moves"] == moves_of(fragment)
        after = client.get(f"/play/{pid}/state.json").json()
        kind = (after.get("decision") or {}).get("kind")
        if headers:
            assert news["sep"] == "。"
            assert any("打出" in m or "摸" in m for m in news["moves"]), news
            assert not re.search(r"[A-Za-z]{4,}", news["now"].replace("SC-", "")), news
        else:
            assert news["sep"] == ". "
            assert any(" discards " in m or " draws " in m for m in news["moves"]), news
            if kind == "turn":
                assert news["now"].startswith("Your turn: ") and "discard" in news["now"]
            elif kind == "claim":
                assert news["now"].endswith("pass?"), news
        assert news["now"], news


@pytest.mark.django_db
def test_the_hand_buttons_name_the_drawn_tile(client: Client, fixed_seeds: None) -> None:
    pid = start(client)
    data = client.get(f"/play/{pid}/state.json").json()
    while (data.get("decision") or {}).get("kind") != "turn" or not data["you"].get("drawn"):
        action = next((a for a in data["legal"] if a["type"] in ("discard", "pass")),
                      data["legal"][0])
        data = client.post(f"/play/{pid}/act", json.dumps(
            {"step": data["step"], "action": action}), content_type="application/json").json()
        assert not data["over"]
    page = client.get(f"/play/{pid}/").content.decode()
    drawn = re.search(r'<button type="submit" class="tile-button is-drawn-button"[^>]*>', page)
    assert drawn and re.search(r'aria-label="Discard [^"]+ \(([^"]*, )?just drawn\)"',
                               drawn.group(0)), drawn


@pytest.mark.django_db
def test_a_claimed_discard_in_the_viewer_names_who_claimed_it() -> None:
    from replays.matches.board import board_at, replayed

    from .conftest import bot_document

    data = replayed(bot_document(2, variant="sichuan", hands=1))
    events = data.match.hands[0].events
    at = next(i for i, e in enumerate(events, 1) if e.type in ("peng", "chi"))
    claim = events[at - 1]
    assert claim.target is not None and claim.actor is not None
    taken = board_at(data, 1, at).seats[claim.target].river[-1]
    name = data.match.players[claim.actor]
    assert taken.claimed and taken.claimed_by == name
    with translation.override("en"):
        assert label_of(tile_tags.tile(taken)).endswith(f", claimed by {name}")
    with translation.override("zh-hans"):
        assert label_of(tile_tags.tile(taken)).endswith(f"，被{name}吃碰杠")


@pytest.mark.django_db
def test_a_claimed_discard_on_the_table_names_who_claimed_it(client: Client,
                                                              fixed_seeds: None) -> None:
    pid = start(client)
    for _ in range(200):  # pass every claim, discard the drawn tile, until someone claims
        page = client.get(f"/play/{pid}/").content.decode()
        taken = re.findall(r'aria-label="([^"]*, claimed by [^"]*)"', page)
        if taken:
            names = re.findall(r'<span class="seat-name">([^<]+)</span>', page)
            assert all(html.unescape(t).rsplit("claimed by ", 1)[1] in names for t in taken)
            return
        data = client.get(f"/play/{pid}/state.json").json()
        if data["over"]:
            break
        action = next((a for a in data["legal"] if a["type"] in ("pass", "discard")),
                      data["legal"][0])
        client.post(f"/play/{pid}/act", json.dumps({"step": data["step"], "action": action}),
                    content_type="application/json")
    raise AssertionError("no discard was claimed in the hand")
