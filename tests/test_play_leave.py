"""Leaving a played match (issue 14): a confirmation that says what leaving costs under the
match's rules (JX-10.6, SC-6.6; Putian charges nothing), then the leave: the charge is
applied by the engine, the match is over and stored, and no longer shows as in progress."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from games.play.bot_match import PlayMatch
from replays.models import Match, PlayedMatch
from tests.test_play_site import act, start, state
from tests.test_puzzle_site import text_of
from tests.test_settlement_page import lines_of

pytestmark = pytest.mark.django_db


def leave(client: Client, pid: str) -> Any:
    return client.post(f"/play/{pid}/leave")


def keep(client: Client, pid: str) -> Any:
    """Ask for a match one left to be kept and analysed (signed-in players only)."""
    return client.post(f"/play/{pid}/keep")


def engine_of(pid: str) -> PlayMatch:
    return PlayMatch.from_json(PlayedMatch.objects.get(public_id=pid).state)


def past_the_void(client: Client, pid: str) -> dict[str, Any]:
    """Name the void suit first when asked (SC-2): a leaver's charge is reckoned from it."""
    data = state(client, pid)
    while data["decision"] and data["decision"]["kind"] == "dingque":
        data = act(client, pid, data["step"], data["legal"][0]).json()
    return data


@pytest.mark.parametrize(("variant", "rules", "says"), [
    ("jiaxing", {"jiaxing-fee": "5", "jiaxing-escape_penalty": "20"},
     "The rule (JX-10.6): a player who leaves mid-hand pays the house the service fee and "
     "the escape penalty (in this match 5 and 20)"),
    ("sichuan", {"sichuan-escape_factor": "2"},
     "The rule (SC-6.6): a player who leaves pays the house the cap points for each player "
     "still in"),
    ("putian", {}, "These rules set no charge for leaving: the hand is abandoned and no "
                   "points move for it."),
])
def test_it_asks_first_and_says_what_leaving_costs(client: Client, variant: str,
                                                   rules: dict[str, str], says: str) -> None:
    pid = start(client, variant, **rules)
    if variant == "sichuan":
        past_the_void(client, pid)
    before = state(client, pid)
    table = client.get(f"/play/{pid}/").content.decode()
    assert f'href="/play/{pid}/leave"' in table and "Leave this match" in table
    page = client.get(f"/play/{pid}/leave")
    assert page.status_code == 200
    # The rule id is a link: its tags leave spaces around it in the text.
    text = text_of(page.content.decode()).replace(" : ", ": ").replace("( ", "(").replace(" )", ")")
    assert "Leave this match?" in text and says in text
    rule = says.split(":", 1)[0].removeprefix("The rule (").rstrip(")")
    if rule.startswith(("JX-", "SC-")):  # issue 27: the leave terms link their rule's anchor
        assert f'href="/rules/{variant}/#{rule}"' in page.content.decode()
    assert "No further hand is dealt." in text
    if variant == "sichuan":
        assert "(2 in this match)" in text and "but at least 0" in text
    assert state(client, pid) == before  # asking changes nothing


def test_it_shows_the_amount_a_sichuan_leaver_pays_before_they_leave(client: Client) -> None:
    """Issue 27: the confirmation names the amount (not only the formula), says nothing of
    compensation when none is owed, and the leave then takes exactly that amount."""
    pid = start(client, "sichuan", hands=2)
    past_the_void(client, pid)
    text = text_of(client.get(f"/play/{pid}/leave").content.decode())
    cost = engine_of(pid).leave_cost()
    house = cost["fees_after"] - cost["fees_before"]
    assert house >= 24
    assert f"To the house: {house} points." in text
    if cost["to_players"] == 0:
        assert "compensation" not in text.replace("To the other players: nothing", "")
        assert "To the other players: nothing" in text
    assert f"In all: {house + cost['to_players']} points." in text
    assert leave(client, pid).status_code == 302
    data = state(client, pid)
    assert data["result"]["fees"][data["seat"]] == house
    end = text_of(client.get(f"/play/{pid}/").content.decode())
    net = data["result"]["you"]["net"]
    shown = f"+{net}" if net > 0 else str(net)
    assert f"All told: {shown} points from the hands, and {house} paid to the house." in end


def test_it_shows_a_jiaxing_leavers_charge_from_their_balance(client: Client) -> None:
    pid = start(client, "jiaxing", hands=4, **{"jiaxing-fee": "5",
                                               "jiaxing-escape_penalty": "20",
                                               "jiaxing-start_balance": "100"})
    text = text_of(client.get(f"/play/{pid}/leave").content.decode())
    assert "To the house: 25, taken from your balance" in text
    without = start(client, "jiaxing", hands=4, **{"jiaxing-escape_penalty": "20"})
    text = text_of(client.get(f"/play/{without}/leave").content.decode())
    assert "Nothing: leaving now moves no points and takes nothing from you." in text


def test_it_says_up_front_that_leaving_waits_for_the_void_suit(client: Client) -> None:
    """SC-2: before the void suit is named the confirmation says so at once, and offers no
    button that would only be refused."""
    for _ in range(20):
        pid = start(client, "sichuan")
        if state(client, pid)["decision"]["kind"] == "dingque":
            break
    else:
        pytest.skip("no match asked for the void suit first")
    page = client.get(f"/play/{pid}/leave")
    assert page.status_code == 200
    text = text_of(page.content.decode())
    assert "You can't leave at this moment. SC-2: name your void suit first" in text
    assert f'action="/play/{pid}/leave"' not in page.content.decode()
    assert "Leave the match" not in text


def test_leaving_ends_the_match_and_it_is_no_longer_in_progress(client: Client,
                                                                alice: Any) -> None:
    for who in (client, Client()):
        if who is not client:
            who.force_login(alice)
        pid = start(who, "putian", hands=4)
        assert pid in who.get("/play/").content.decode().split("Your finished matches")[0]
        response = leave(who, pid)
        assert response.status_code == 302 and response["Location"] == f"/play/{pid}/"
        row = PlayedMatch.objects.get(public_id=pid)
        assert row.over and row.left and row.replay is None  # kept only when asked
        if who is client:
            page = text_of(who.get(f"/play/{pid}/").content.decode())
            assert "A match left before its end is not kept or analysed." in page
            assert keep(who, pid).status_code == 403
        else:
            assert keep(who, pid).status_code == 302
        row.refresh_from_db()
        assert (row.replay is None) == (who is client)
        listing = who.get("/play/").content.decode()
        playing, finished = listing.split("Your finished matches")
        assert pid not in playing and pid in finished
        data = state(who, pid)
        assert data["over"] and data["left_in"] == 1 and data["legal"] == []
        assert data["result"]["stopped"].endswith("left the table in hand 1")
        page = text_of(who.get(f"/play/{pid}/").content.decode())
        assert "You left the table in hand 1: the match ended there." in page
        assert "These rules set no charge for leaving" in page
        # PT: nothing is paid for the abandoned hand.
        assert data["result"]["hands"][-1]["reason"] == "abandoned"
        assert data["result"]["hands"][-1]["deltas"] == [0, 0, 0, 0]
        assert "That hand's result for you: 0; nothing was paid to the house." in page
        # Over: nothing more to play, and a second leave is refused.
        assert act(who, pid, data["step"], {"type": "pass"}).status_code == 400
        assert leave(who, pid).status_code == 409
        assert who.get(f"/play/{pid}/leave").status_code == 302
        replay = row.replay
        if who is not client:
            assert replay.owner == alice and replay.visibility == Match.Visibility.PRIVATE
            assert any(e["type"] == "leave" for e in replay.hands.last().events)


def test_a_jiaxing_leaver_pays_the_fee_and_the_escape_penalty(client: Client) -> None:
    """JX-10.6: with balances kept (a starting balance), the leaver pays F and the escape
    penalty; the hand ends with no other payment."""
    pid = start(client, "jiaxing", hands=4, **{"jiaxing-fee": "5",
                                               "jiaxing-escape_penalty": "20",
                                               "jiaxing-start_balance": "100"})
    leave(client, pid)
    data = state(client, pid)
    seat = data["seat"]
    result = data["result"]
    assert result["hands"][-1]["reason"] == "abandoned"
    assert result["hands"][-1]["deltas"] == [0, 0, 0, 0]
    assert result["fees"][seat] == 25 and result["balances"][seat] == 75
    assert [f for s, f in enumerate(result["fees"]) if s != seat] == [0, 0, 0]
    page = text_of(client.get(f"/play/{pid}/").content.decode())
    assert "paid to the house in the match (fees and the leaving charge): 25." in page
    row = PlayedMatch.objects.get(public_id=pid)
    assert row.net == result["you"]["net"] and row.points_won == result["you"]["points_won"]


def test_a_sichuan_leaver_is_charged_and_the_others_play_on(client: Client,
                                                            alice: Any) -> None:
    """SC-6.6: right after the void suits are named nobody has won, so the leaver's charge
    (to the house) is at least the cap points for each of the three still in; the
    compensation to the others only lowers the leaver's result further; the hand is
    played out without them. (Alice asks for the match she left to be kept.)"""
    from games.variants.registry import VARIANTS

    client.force_login(alice)
    pid = start(client, "sichuan", hands=4)
    past_the_void(client, pid)
    match = engine_of(pid)
    assert not match.view()["wins"]
    before = match.view()["hand_deltas"][match.seat]
    assert leave(client, pid).status_code == 302
    assert keep(client, pid).status_code == 302
    data = state(client, pid)
    seat = data["seat"]
    last = data["result"]["hands"][-1]
    options = VARIANTS["sichuan"].OPTIONS
    cap = int(options["base"].default) * 2 ** (int(options["cap_fan"].default) - 1)
    assert data["result"]["fees"][seat] >= 3 * cap
    assert [f for s, f in enumerate(data["result"]["fees"]) if s != seat] == [0, 0, 0]
    assert last["deltas"][seat] <= before
    assert data["result"]["you"]["net"] == sum(h["deltas"][seat]
                                               for h in data["result"]["hands"])
    assert data["result"]["stopped"].endswith("left the table in hand 1")
    page = text_of(client.get(f"/play/{pid}/").content.decode())
    assert (f"paid to the house in the match (fees and the leaving charge): "
            f"{data['result']['fees'][seat]}.") in page
    events = PlayedMatch.objects.get(public_id=pid).replay.hands.last().events
    leave_at = next(i for i, e in enumerate(events) if e["type"] == "leave")
    assert events[-1]["type"] == "end"
    assert all(e.get("actor") != seat for e in events[leave_at + 1:])  # played on without
    # The replay's lines: the charge goes to the house off the balance (C-6), so the running
    # totals, in points, end at the hand's deltas, as the board's scores do.
    replay = PlayedMatch.objects.get(public_id=pid).replay
    content = client.get(replay.get_absolute_url(), {
        "hand": replay.hand_count, "step": len(events)}).content.decode()
    rows = lines_of(content)
    house = [row for row in rows if "paid off the balance to the house" in row[1]]
    assert house and {row[0] for row in house} == {"SC-6.6"}
    assert sum(int(row[4]) for row in house) == data["result"]["fees"][seat]
    assert [int(total) for total in rows[-1][5:]] == last["deltas"]


def test_it_refuses_to_leave_before_the_void_suit_is_named(client: Client) -> None:
    for _ in range(20):
        pid = start(client, "sichuan")
        data = state(client, pid)
        if data["decision"]["kind"] == "dingque":
            break
    else:
        pytest.skip("no match asked for the void suit first")
    response = leave(client, pid)
    assert response.status_code == 400
    assert "SC-2: name your void suit first" in response.content.decode()
    assert state(client, pid) == data
    assert not PlayedMatch.objects.get(public_id=pid).over
    answered = client.post(f"/play/{pid}/leave", json.dumps({}),
                           content_type="application/json")
    assert answered.status_code == 400 and answered.json()["error"]["rule"] == "SC-2"


def test_the_json_interface_can_leave(client: Client, alice: Any) -> None:
    pid = start(client, "putian")
    response = client.post(f"/play/{pid}/leave", json.dumps({}),
                           content_type="application/json")
    assert response.status_code == 200
    data = response.json()
    assert data["over"] and data["left_in"] == 1 and data["replay"] is None
    refused = client.post(f"/play/{pid}/keep", json.dumps({}), content_type="application/json")
    assert refused.status_code == 403
    assert "Sign in to keep and analyse a match you left" in refused.json()["error"]["message"]
    client.force_login(alice)  # the anonymous match becomes hers; she may ask now
    kept = client.post(f"/play/{pid}/keep", json.dumps({}), content_type="application/json")
    assert kept.status_code == 200 and kept.json()["replay"].startswith("/replays/")


def test_only_the_player_can_leave(client: Client, alice: Any, bob: Any) -> None:
    owner = Client()
    owner.force_login(alice)
    pid = start(owner, "putian")
    intruder = Client()
    intruder.force_login(bob)
    for who in (intruder, client):
        assert who.get(f"/play/{pid}/leave").status_code == 404
        assert leave(who, pid).status_code == 404
    assert not PlayedMatch.objects.get(public_id=pid).over


@pytest.mark.parametrize("variant", ["jiaxing", "putian"])
def test_it_words_the_end_of_the_hand_left_in_the_moves(client: Client, variant: str) -> None:
    """The moves since the player's last one end with the hand's end in words, not the
    event's type ("end")."""
    import re

    pid = start(client, variant, hands=2)
    leave(client, pid)
    page = client.get(f"/play/{pid}/").content.decode()
    listed = re.search(r'<ol class="play-moves"[^>]*>(.*?)</ol>', page, re.S)
    assert listed, "no moves listed"
    assert re.findall(r"<li>(.*?)</li>", listed.group(1))[-2:] == [
        "You leave the table", "The hand was abandoned"]
    zh = client.get(f"/play/{pid}/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    listed = re.search(r'<ol class="play-moves"[^>]*>(.*?)</ol>', zh, re.S)
    assert listed and "<li>end</li>" not in listed.group(1)


def test_the_leave_pages_read_as_chinese(client: Client) -> None:
    from tests.test_site_i18n_complete import TILE_CODE, ZH, english_sentences, visible

    sentences = english_sentences()
    problems = []
    for variant in ("jiaxing", "putian", "sichuan"):
        pid = start(client, variant, hands=2)
        past_the_void(client, pid)
        for url in (f"/play/{pid}/leave", None):
            if url is None:
                client.post(f"/play/{pid}/leave", **ZH)  # type: ignore[arg-type]
                url = f"/play/{pid}/"
            text = visible(client.get(url, **ZH).content.decode())  # type: ignore[arg-type]
            english = [s for s in sentences if s in text]
            codes = sorted(set(TILE_CODE.findall(text)))
            if english or codes:
                problems.append((variant, url, english[:5], codes[:10]))
    assert not problems, problems


@pytest.mark.parametrize("variant", ["jiaxing", "putian", "sichuan"])
def test_leaving_at_any_moment_ends_a_match_that_restores_and_verifies(variant: str) -> None:
    """The engine side (``PlayMatch.leave``), at random moments of 40 matches a variant:
    the match is over, restores to the same result, and its log is dealt from its seed.
    (Sichuan plays on after a leave: the hand ends when fewer than two are still in, and a
    leaver on their own turn is charged from the best hand a discard would leave, SC-6.6.)"""
    import random

    from games.play.bot_match import IllegalAction, verify
    from games.records.log import dumps, loads

    left = 0
    for number in range(40):
        rng = random.Random(number)
        rules = {"start_balance": 100, "fee": 1} if variant != "putian" and number % 2 else {}
        match = PlayMatch.start(variant, seed=f"leave/{number}", seat=rng.randrange(4),
                                hands=3, rules=rules)
        for _ in range(rng.randrange(20)):
            if match.over:
                break
            match.act(match.step, rng.choice(match.legal()))
        if match.over:
            continue
        if match.pending is not None and match.pending.kind == "dingque":
            with pytest.raises(IllegalAction, match="name your void suit first"):
                match.leave(match.step)
            match.act(match.step, match.legal()[0])
        entries = match.leave(match.step)
        left += 1
        assert entries[0]["event"] == {"type": "leave", "actor": match.seat}
        assert match.over and match.legal() == [] and match.left_in is not None
        result = match.result()
        assert result["stopped"].endswith(f"left the table in hand {match.left_in}")
        assert len(result["hands"]) == match.left_in
        again = PlayMatch.from_json(match.to_json())
        assert again.over and again.result() == result
        verify(loads(dumps(match.log())), match.seed)
    assert left >= 10
