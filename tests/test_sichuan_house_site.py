"""A stored match played with the Sichuan house rules that change play (SC-H1–SC-H3) shows
on the site without an error: its viewer at every kind of moment, its hands and settlement.
How the pages word the exchange and the locked hands is the site's part of issue 29."""

from __future__ import annotations

import json
import random

import pytest
from django.test import Client
from django.utils import translation

from games.bots.simulation import simulate
from games.records.log import dumps
from replays.matches.services import store_document
from tests.test_play_site import play_out, start, state
from tests.test_site_i18n import last_step, page, text_of

pytestmark = [pytest.mark.django_db,
              pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]

ALL = {"exchange_three": True, "blood_flow": True, "call_transfer": True}


@pytest.mark.parametrize("headers", [{}, {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}],
                         ids=["en", "zh"])
def test_it_shows_a_stored_match_with_every_play_option(client: Client,
                                                        headers: dict[str, str]) -> None:
    match = store_document(dumps(simulate("sichuan", 2, 1, rules=ALL)).encode())
    url = match.get_absolute_url()
    end = last_step(match)
    for step in (0, 2, 5, end // 2, end):  # the deal, the exchanges, 定缺, play, the end
        assert page(client, f"{url}?step={step}", **headers)
    assert page(client, f"{url}hands/", **headers)


def test_a_play_table_with_every_play_option_asks_for_the_exchange_and_plays_out(
        client: Client) -> None:
    """The start form's options reach the match; the table page shows the exchange decision
    and a random player finishes the match (the site's wording of it is the site's part)."""
    options = {f"sichuan-{name}": "on" for name in ALL}
    pid = start(client, "sichuan", **options)
    data = state(client, pid)
    assert data["decision"]["kind"] == "exchange"
    assert all(a["type"] == "exchange" for a in data["legal"])
    assert client.get(f"/play/{pid}/").status_code == 200
    assert play_out(client, pid, random.Random(4))["over"]


# -- The site's part of issue 29: presets, the exchange at the table, words for it ------

def words(markup: str) -> str:
    """The visible text, a rule link's brackets closed up: "(SC-H1)", not "( SC-H1 )"."""
    return text_of(markup).replace("( ", "(").replace(" )", ")")


def _preset_rules(key: str) -> dict[str, object]:
    from games.variants.registry import VARIANTS
    return dict(VARIANTS["sichuan"].PRESETS[key].rules)


def _played_rules(pid: str) -> dict[str, object]:
    from replays.models import PlayedMatch
    from replays.play import services
    return dict(services.restored(PlayedMatch.objects.get(public_id=pid)).rules)


def test_it_offers_the_presets_spelled_out_in_both_languages(client: Client) -> None:
    english = text_of(page(client, "/play/"))
    assert "成都 血战 – Chengdu blood battle" in english
    assert "换三张 exchange three" in english and "Custom" in english
    chinese = text_of(page(client, "/play/", HTTP_ACCEPT_LANGUAGE="zh-hans"))
    assert "成都 血战" in chinese and "换三张、自摸加底、门清中张、金钩钓、海底、天地胡、封顶番数 4" in chinese
    assert "自定义" in chinese and "Chengdu" not in chinese


@pytest.mark.parametrize("key", ["chengdu", "blood_flow", "seed"])
def test_it_starts_a_play_match_with_a_presets_rules(client: Client, key: str) -> None:
    # A preset wins over the options it governs (here a box ticked by hand), not the rest.
    pid = start(client, "sichuan", **{"sichuan-preset": key, "sichuan-golden_hook": "off",
                                      "sichuan-call_transfer": "on", "sichuan-base": "2"})
    expected = {**_preset_rules(key), "base": 2}
    if "call_transfer" not in _preset_rules(key):
        expected["call_transfer"] = True
    assert _played_rules(pid) == expected


def test_it_keeps_the_options_one_by_one_when_the_rules_are_custom(client: Client) -> None:
    pid = start(client, "sichuan", **{"sichuan-preset": "custom",
                                      "sichuan-golden_hook": "on"})
    assert _played_rules(pid) == {"golden_hook": True}


def test_it_refuses_an_unknown_preset_naming_it(client: Client) -> None:
    response = client.post("/play/", {"variant": "sichuan", "seat": "0", "hands": 1,
                                      "sichuan-preset": "moon"})
    assert response.status_code == 400
    assert "moon" in response.content.decode() and "chengdu" in response.content.decode()


def test_it_creates_a_table_with_friends_with_a_presets_rules() -> None:
    from replays.models.tables import Room
    alice = Client()
    response = alice.post("/tables/", {"variant": "sichuan", "humans": 2, "hands": 1,
                                       "name": "Alice", "decision_seconds": 20,
                                       "bank_seconds": 30, "sichuan-preset": "blood_flow"})
    assert response.status_code == 302, response.content[:500]
    room = Room.objects.get(public_id=response["Location"].split("/")[2])
    assert room.rules == _preset_rules("blood_flow") and room.rules["blood_flow"] is True
    assert "血流成河" in text_of(page(alice, "/tables/new"))


def _exchange_table(client: Client) -> tuple[str, dict[str, object]]:
    pid = start(client, "sichuan", **{"sichuan-preset": "chengdu"})
    data = state(client, pid)
    assert data["decision"]["kind"] == "exchange"
    return pid, data


def test_it_asks_for_the_exchange_with_a_form_that_works_without_javascript(
        client: Client) -> None:
    pid, data = _exchange_table(client)
    markup = page(client, f"/play/{pid}/")
    text = words(markup)
    assert "Choose three tiles of one suit to pass (SC-H1)" in text
    assert markup.count('type="checkbox" name="exchange"') == len(data["you"]["hand"]) + (
        1 if data["you"].get("drawn") else 0)
    assert 'name="confirm" value="exchange"' in markup and "exchange-suggestion" in markup
    assert ">exchange<" not in markup  # no button per combination any more
    chinese = words(page(client, f"/play/{pid}/", HTTP_ACCEPT_LANGUAGE="zh-hans"))
    assert "换三张：选同一花色的三张牌 (SC-H1)" in chinese


def _three_of_one_suit(data: dict[str, object]) -> list[str]:
    legal = data["legal"]
    assert isinstance(legal, list)
    return list(legal[0]["tiles"])


def test_it_passes_three_ticked_tiles_of_one_suit_and_says_what_came_back(
        client: Client) -> None:
    pid, data = _exchange_table(client)
    tiles = _three_of_one_suit(data)
    response = client.post(f"/play/{pid}/act", {"step": data["step"], "confirm": "exchange",
                                                 "exchange": tiles})
    assert response.status_code == 302
    after = state(client, pid)
    assert after["decision"]["kind"] == "dingque" and len(after["you"]["received"]) == 3
    giver = after["seats"][after["you"]["received_from"]]["name"]
    text = words(page(client, f"/play/{pid}/"))
    assert f"from {giver} (SC-H1)" in text and "You received" in text
    assert "You pass" in text or "sets aside three tiles to pass" in text
    chinese = words(page(client, f"/play/{pid}/", HTTP_ACCEPT_LANGUAGE="zh-hans"))
    assert "你收到" in chinese and "exchange" not in chinese


def test_it_refuses_ticked_tiles_of_two_suits_naming_sc_h1(client: Client) -> None:
    pid, data = _exchange_table(client)
    you = data["you"]
    assert isinstance(you, dict)
    hand = [*you["hand"], *([you["drawn"]] if you.get("drawn") else [])]
    suits = {}
    for code in hand:
        suits.setdefault(code[-1], []).append(code)
    first, second = list(suits.values())[:2]
    mixed = [*first[:2], second[0]]
    response = client.post(f"/play/{pid}/act", {"step": data["step"], "confirm": "exchange",
                                                 "exchange": mixed})
    assert response.status_code == 400 and "SC-H1" in response.content.decode()
    two = client.post(f"/play/{pid}/act", {"step": data["step"], "confirm": "exchange",
                                           "exchange": first[:2]})
    assert two.status_code == 400 and "SC-H1" in two.content.decode()


@pytest.mark.parametrize("headers", [{}, {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}],
                         ids=["en", "zh"])
def test_it_words_the_exchange_and_the_call_transfer_in_the_viewer(
        client: Client, headers: dict[str, str]) -> None:
    # Seed 5's second hand has a win on the discard after a kong: a call transfer (SC-H3).
    match = store_document(dumps(simulate("sichuan", 6, 5, rules=ALL)).encode())
    url = match.get_absolute_url()
    for step in range(1, 5):  # the four exchanges
        text = text_of(page(client, f"{url}?step={step}", **headers))
        assert "换三张" in text and " exchange " not in f" {text} "
    # Seen from another seat, the three tiles a player sets aside are face down (SC-H1).
    mine = words(page(client, f"{url}?step=3&seat=0&spoilers=0", **headers))
    theirs = words(page(client, f"{url}?step=3&seat=1&spoilers=0", **headers))
    tiles = "四万 八万 九万" if headers else "4 Characters 8 Characters 9 Characters"
    assert tiles in mine and tiles not in theirs
    markup = page(client, f"{url}?hand=2&step=90", **headers)
    assert 'class="seat-won"' in markup  # SC-H2: the winner's tiles set aside, in sight
    text = text_of(markup)
    assert "呼叫转移" in text and "call_transfer" not in text and "transfer" not in text.replace(
        "call transfer", "")
    if headers:
        assert "呼叫转移" in text and "the kong's takings" not in text
    else:
        assert "call transfer (呼叫转移)" in text and "the kong's takings" in text


@pytest.mark.parametrize("headers", [{}, {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}],
                         ids=["en", "zh"])
def test_it_explains_sc_h1_to_h3_with_worked_examples_on_the_rules_page(
        client: Client, headers: dict[str, str]) -> None:
    markup = page(client, "/rules/sichuan/", **headers)
    for rule in ("SC-H", "SC-H1", "SC-H2", "SC-H3"):
        assert markup.count(f'id="{rule}"') == 1, rule  # the guide's, not the book's too
    text = words(markup)
    assert "True" not in text and "False" not in text
    if headers:
        assert "每组牌都给下家" in text and "再把杠得的 2 转给南" in text
        assert "开" in text and "关" in text and "Worked example" not in text
        assert "成都 血战" in text and "血流成河" in text
    else:
        assert "every set goes to the next player" in text
        assert "hands over the kong's 2 (SC-H3)" in text
        assert "Presets: the common sets of options" in text


def test_it_shows_a_blood_flow_winners_set_aside_tiles_at_the_play_table(
        client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    """血流成河 (SC-H2): once a seat has won, every view shows its winning tiles set aside
    and its hand locked, and the table page draws them (a fixed seed: the same walls)."""
    monkeypatch.setattr("replays.play.services.new_seed", lambda: "sichuan-house-site-1")
    pid = start(client, "sichuan", hands=4, **{"sichuan-preset": "blood_flow"})
    rng = random.Random(7)
    data = state(client, pid)
    while not data["over"] and not any(s.get("won_tiles") for s in data["seats"]):
        response = client.post(f"/play/{pid}/act", json.dumps(
            {"step": data["step"], "action": rng.choice(data["legal"])}),
            content_type="application/json")
        assert response.status_code == 200, response.content
        data = response.json()
    winner = next(s for s in data["seats"] if s.get("won_tiles"))
    assert winner["locked"] and len(winner["won_tiles"]) >= 1
    markup = page(client, f"/play/{pid}/")
    assert 'class="seat-won"' in markup and "locked hand" in markup


def test_it_words_repeated_wins_on_one_tile_each_with_its_own_points() -> None:
    """血流成河 (SC-H2): South wins on 5 Dots twice; each line reads its own win's points."""
    from replays.play.table import moves
    seats = [{"seat": n, "name": name} for n, name in enumerate(("Ada", "Bo", "Cy", "Di"))]
    wins = [{"seat": 1, "tile": "5p", "points": points, "score": {"patterns": []}}
            for points in (2, 8)]
    view = {"variant": "sichuan", "seat": 0, "seats": seats, "hand_number": 1,
            "over": False, "wins": wins, "you": {"hand": []}}
    entries = [{"hand": 1, "index": index, "event": {"type": "hu", "actor": 1, "tile": "5p"}}
               for index in (20, 41)]
    with translation.override("en"):
        texts = [move.text for move in moves(entries, view)]
    assert texts == ["Bo wins by self-draw on 5 Dots: 2 points",
                     "Bo wins by self-draw on 5 Dots: 8 points"]


def test_it_asks_for_the_exchange_at_a_table_with_friends_and_takes_the_ticked_tiles(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from tests import test_tables_page as tables
    monkeypatch.setattr("replays.tables.services.new_seed", lambda: tables.SEED)
    alice, bob, pid = tables.seated_pair(**{"sichuan-preset": "chengdu"})
    clients = {0: alice, 1: bob}
    seat, view = tables.play_until(
        clients, pid, lambda v: (v["decision"] or {}).get("kind") == "exchange")
    markup = tables.page(clients[seat], pid)
    assert "Choose three tiles of one suit to pass (SC-H1)" in words(markup)
    assert 'type="checkbox" name="exchange"' in markup
    answered = clients[seat].post(f"/tables/{pid}/act", {
        "step": str(view["step"]), "confirm": "exchange", "exchange": view["legal"][0]["tiles"]})
    assert answered.status_code == 302
    assert tables.state(clients[seat], pid)["step"] > view["step"]
