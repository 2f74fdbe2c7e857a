"""Sichuan house rules that change play at the table (RULES.md SC-H1–SC-H3): 换三张,
血流成河, 呼叫转移, through the table, the log, the bots, simulate and the play matches.

The hands are built with :mod:`tests.logbuild`; the expectations come from RULES.md.
"""

from __future__ import annotations

import json
import random
from typing import Any

import jsonschema
import pytest

from games.bots.simulation import coverage, simulate
from games.commands.cli import main
from games.core.table import Phase, RuleViolation
from games.core.tiles import Tile
from games.play.bot_match import IllegalAction, PlayMatch, play_randomly, verify
from games.play.room_match import RoomMatch, play_scripted
from games.records.log import Event, LogError, read_log, schema, write_log
from games.records.match import replay
from tests.logbuild import (
    SC_WAIT_1,
    HandBuilder,
    document,
    rejection,
    run,
    single,
    table_after,
)
from tests.test_engine_consistency import replay_checking

EXCHANGE = {"exchange_three": True}
BLOOD = {"blood_flow": True}
TRANSFER = {"call_transfer": True}
ALL = {**EXCHANGE, **BLOOD, **TRANSFER}

# Each seat holds three tiles of s that say whose they were: Ann 1s, Ben 2s, Cal 3s, Dee 4s.
MARKED = ["111s123456789m12p", "222s123456789m1p", "333s123456789p1m", "444s123456789p2m"]


def marked_hand(dice: tuple[int, int] = (3, 4)) -> HandBuilder:
    return HandBuilder("sichuan", MARKED, dice=dice)


def all_four(hand: HandBuilder) -> HandBuilder:
    return (hand.exchange(0, "111s").exchange(1, "222s").exchange(2, "333s")
            .exchange(3, "444s"))


def s_held(doc: dict[str, Any]) -> list[int]:
    """Which marked s tile each seat holds three of after the exchange (1 for Ann's 1s…)."""
    table = table_after(doc)
    return [next(n + 1 for n in range(4) if table.seats[seat].hand[18 + n] == 3)
            for seat in range(4)]


# -- SC-H1 换三张 ----------------------------------------------------------------------


@pytest.mark.parametrize(("dice", "step"), [((3, 4), 1), ((3, 5), 3), ((3, 3), 2)])
def test_it_passes_the_three_tiles_by_the_dice_sum_sc_h1(dice: tuple[int, int],
                                                         step: int) -> None:
    """s mod 3 = 1: to the next player; 2: to the previous one; 0: across."""
    doc = single(all_four(marked_hand(dice)).end("abandoned"), rules=EXCHANGE)
    held = s_held(doc)
    for giver in range(4):
        assert held[(giver + step) % 4] == giver + 1


def test_it_plays_a_hand_with_the_exchange_then_void_suits_sc_h1() -> None:
    hand = all_four(marked_hand()).dingques("sssp")
    hand.discard(0, "4s").draw(1).discard(1, "1s")
    result = run(single(hand.end("abandoned"), rules=EXCHANGE))
    assert result.hands[0].table.received[1] == tuple(Tile.parse(t) for t in "1s 1s 1s".split())


def test_the_dealer_chooses_from_fourteen_sc_h1() -> None:
    table = table_after(single(marked_hand().end("abandoned"), rules=EXCHANGE))
    assert table.phase is Phase.EXCHANGE
    options = table.legal_actions()
    assert {a.seat for a in options} == {0}
    assert all(len({t.kind // 9 for t in a.event.tiles}) == 1 for a in options)
    # 1s 1s 1s, and the m and p threes: all 84 sets of three of 123456789m, 1p 2p none
    assert len(options) == 1 + 84


@pytest.mark.parametrize(("build", "event", "words"), [
    (lambda h: h.exchange(0, "11s1m"), 1, "must all be of one suit"),
    (lambda h: h.exchange(0, "999s"), 1, "they hold 0 of 9s"),
    (lambda h: h.exchange(1, "222s"), 1, "Ann is next"),
    # a fourth exchange (Dee's) before the third (Cal's)
    (lambda h: h.exchange(0, "111s").exchange(1, "222s").exchange(3, "444s"), 3,
     "Cal is next"),
    (lambda h: h.exchange(0, "111s").exchange(1, "222s").exchange(2, "333s").dingque(3, "s"),
     4, "can't name a void suit yet"),
    (lambda h: all_four(h).exchange(0, "123m"), 5, "can't exchange tiles now"),
], ids=["two_suits", "not_held", "wrong_actor", "fourth_before_third", "dingque_first",
        "twice"])
def test_it_refuses_a_wrong_exchange_sc_h1(build: Any, event: int, words: str) -> None:
    error = rejection(single(build(marked_hand()).end("abandoned"), rules=EXCHANGE))
    assert (error.rule, error.hand, error.event) == ("SC-H1", 1, event)
    assert words in error.message


def test_it_refuses_an_exchange_when_the_option_is_off_sc_h1() -> None:
    error = rejection(single(marked_hand().exchange(0, "111s").end("abandoned")))
    assert error.rule == "SC-H1" and "exchange_three is off" in error.message


def test_it_reads_and_checks_the_exchange_event_sc_h1() -> None:
    doc = single(all_four(marked_hand()).dingques("ssss").end("abandoned"), rules=EXCHANGE)
    jsonschema.Draft202012Validator(schema()).validate(doc)
    assert write_log(read_log(doc)) == doc
    short = json.loads(json.dumps(doc))
    short["hands"][0]["events"][0]["tiles"] = ["1s", "1s"]
    with pytest.raises(LogError) as caught:
        read_log(short)
    assert caught.value.rule == "SC-H1" and caught.value.event == 1
    jiaxing = document("jiaxing", HandBuilder("jiaxing", ["", "", "", ""])
                       .add({"type": "exchange", "actor": 0, "tiles": ["1m", "1m", "1m"]})
                       .end("abandoned"))
    with pytest.raises(LogError) as caught:
        read_log(jiaxing)
    assert caught.value.rule == "SC-H1" and "sichuan only" in caught.value.message


# -- SC-H2 血流成河 ---------------------------------------------------------------------

CAL = "3m5m7m9m5m9m2p4p6p8p1p3p6m"
"""Cal: far from ready, m and p."""
DEE = "1m2m2m4m6m9m1p3p4p6p7p8p9p"
"""Dee: far from ready, m and p, one 1m (the fourth: Ben holds three)."""


def blood_hand() -> HandBuilder:
    """Ann discards 5p and Ben (SC_WAIT_1) wins on it, and stays. Cal discards the 1s he
    draws, Dee draws 2p and discards 1m."""
    hand = HandBuilder("sichuan", ["5p", SC_WAIT_1, CAL, DEE], front="1s2p2s3s4s5s6s5p",
                       pad="mp")
    hand.dingques("ssss").discard(0, "5p").ron(1)
    return hand.draw(2).discard(2).draw(3).discard(3, "1m")


def to_the_second_5p(hand: HandBuilder) -> HandBuilder:
    """Ann, Ben (his locked hand discards the 3s it draws), Cal and Dee discard what they
    draw, Ann too; Ben draws the last 5p (not his first draw: no 地胡, SC-5.12)."""
    hand.draw(0).discard(0).draw(1).discard(1).draw(2).discard(2).draw(3).discard(3)
    return hand.draw(0).discard(0).draw(1)


def test_a_winner_stays_and_wins_again_until_the_wall_ends_sc_h2() -> None:
    hand = to_the_second_5p(blood_hand()).hu(1)
    doc = single(hand.exhaust(2).end("exhausted"), rules=BLOOD)
    result = run(doc)
    table = result.hands[0].table
    assert [(w.seat, w.target) for w in table.wins] == [(1, 0), (1, None)]
    assert [w.deltas for w in table.wins] == [[-1, 1, 0, 0], [-2, 6, -2, -2]]  # all three pay
    assert table.won_tiles[1] == [Tile.parse("5p"), Tile.parse("5p")]  # set aside
    assert table.seats[1].size == 13 and not table.seats[1].won
    # SC-6.4 counts Ben, a winner, as ready and not a 花猪: whoever isn't ready pays him.
    lines = [s.line for s in table.payments if s.line.rule.startswith("SC-6.4")]
    assert not any(line.payer == 1 for line in lines)
    not_ready = [s for s in (0, 2, 3) if table.best_wait_points(s) == 0]
    assert sorted(line.payer for line in lines if line.rule == "SC-6.4b"
                  and line.payee == 1) == not_ready != []


def test_a_locked_hand_claims_no_pung_sc_h2() -> None:
    error = rejection(single(blood_hand().peng(1).end("abandoned"), rules=BLOOD))
    assert (error.rule, error.event) == ("SC-H2", 11)
    assert "claims nothing but wins" in error.message


def test_a_locked_hand_discards_what_it_draws_sc_h2() -> None:
    hand = blood_hand().draw(0).discard(0).draw(1).discard(1, "2m")
    error = rejection(single(hand.end("abandoned"), rules=BLOOD))
    assert (error.rule, error.event) == ("SC-H2", 14)
    assert "discard the tile they drew, 3s" in error.message


def test_a_locked_hand_makes_no_kong_and_is_offered_only_the_win_or_the_drawn_tile_sc_h2(
        ) -> None:
    doc = single(to_the_second_5p(blood_hand()).end("abandoned"), rules=BLOOD)
    table = table_after(doc)
    assert [a.event.type for a in table.legal_actions()] == ["hu", "discard"]
    assert table.legal_actions()[1].event.tile == Tile.parse("5p")
    with pytest.raises(RuleViolation) as caught:
        table.apply(Event("gang", 1, tile=Tile.parse("1m"), kind="concealed"))
    assert caught.value.rule == "SC-H2" and "makes no kong" in caught.value.message


def test_the_hand_ends_only_at_the_wall_s_end_sc_h2() -> None:
    hand = to_the_second_5p(blood_hand()).hu(1)
    error = rejection(single(hand.end("win"), rules=BLOOD))
    assert error.rule == "SC-H2" and "ends only when the wall is exhausted" in error.message


def test_without_the_option_the_winner_leaves_sc_3_2() -> None:
    error = rejection(single(blood_hand().draw(0).discard(0).draw(1).end("abandoned")))
    assert error.rule == "SC-3.2"


# -- SC-H3 呼叫转移 ---------------------------------------------------------------------

KONGER = "8888m1p3p4p6p8p2m3m5m6m7m"
"""Ann: a concealed kong of 8m on her dealt hand."""
DEE_ON_5P = "234m567m99m123p46p"
"""Dee, void s: ready on 5p only (234m 567m 123p 99m + 46p)."""


def transfer_hand() -> HandBuilder:
    """Ann konges 8m (Ben, Cal, Dee pay 2 each, SC-6.3), draws 5p from the back and
    discards it: Ben and Dee both win on it (杠上炮, 2 fan, 2 points each)."""
    hand = HandBuilder("sichuan", [KONGER, SC_WAIT_1, "", DEE_ON_5P], back="5p", pad="mp")
    hand.dingques("ssss").gang(0, "concealed", "8m").draw(0, back=True).discard(0, "5p")
    return hand.ron(1).ron(3)


def test_the_kong_s_takings_are_shared_by_two_winners_sc_h3() -> None:
    result = run(single(transfer_hand().draw(0).end("abandoned"), rules=TRANSFER))
    # kong +6/-2/-2/-2; wins 2 each from Ann; the transfer 6 ÷ 2 = 3 each from Ann
    assert result.hands[0].deltas == [-4, 3, -2, 3]
    lines = [p for p in result.to_json()["payments"][0] if p["rule"] == "SC-H3"]
    assert [(p["payer"], p["payee"], p["amount"], p["cause"]) for p in lines] == [
        (0, 1, 3, "call_transfer"), (0, 3, 3, "call_transfer")]
    assert lines[0]["formula"]["text"] == "呼叫转移 6 ÷ 2 → 3"
    assert {p["event"] for p in lines} == {9}  # paid as the discard passes: the next draw (0-based)


def test_a_transferred_kong_is_not_refunded_at_the_end_sc_h3() -> None:
    """Ann is not ready at the wall's end: without SC-H3 she gives back her 6 (SC-6.4c);
    with it she no longer holds them."""
    hand = transfer_hand()
    seat = 0  # Ann and Cal play on (血战: Ben and Dee have won)
    while hand.left:
        hand.draw(seat).discard(seat)
        seat = 2 - seat
    hand.end("exhausted")
    plain = run(single(hand)).hands[0].table
    moved = run(single(hand, rules=TRANSFER)).hands[0].table
    assert sum(s.line.amount for s in plain.payments if s.line.rule == "SC-6.4c"
               and s.line.payer == 0) == 6
    assert not any(s.line.rule == "SC-6.4c" and s.line.payer == 0 for s in moved.payments)
    assert not any(s.line.rule == "SC-H3" for s in plain.payments)


def test_a_single_winner_takes_it_all_when_the_hand_ends_there_sc_h3() -> None:
    hand = HandBuilder("sichuan", [KONGER, SC_WAIT_1, "", ""], back="5p", pad="mp")
    hand.dingques("ssss").gang(0, "concealed", "8m").draw(0, back=True).discard(0, "5p")
    result = run(single(hand.ron(1).end("abandoned"), rules=TRANSFER))
    lines = [p for p in result.to_json()["payments"][0] if p["rule"] == "SC-H3"]
    assert [(p["payer"], p["payee"], p["amount"]) for p in lines] == [(0, 1, 6)]


# -- the engine agrees with itself, the bots and simulate -----------------------------


@pytest.mark.parametrize("rules", [ALL, BLOOD, {**EXCHANGE, **TRANSFER}],
                         ids=["all", "blood_flow", "exchange_transfer"])
def test_it_settles_every_bot_win_as_score_says_with_the_house_rules(
        rules: dict[str, Any]) -> None:
    checked = replay_checking(simulate("sichuan", 40, 1, rules=rules))
    assert checked.wins >= 40 and checked.exhausted > 0


def test_the_bots_play_every_option_legally_and_simulate_covers_them() -> None:
    """200 hands of seed 1 with every option: the log validates, and the coverage shows
    each option: the exchanges, repeated wins, call transfers."""
    code, out = _cli(["simulate", "--variant", "sichuan", "--hands", "200", "--seed", "1",
                      "--rule", "exchange_three=true", "--rule", "blood_flow=true",
                      "--rules", '{"call_transfer": true}'])
    assert code == 0
    match = read_log(out)
    result = replay(match)
    assert len(result.hands) == 200
    found = coverage([match])
    assert found["events"]["exchange"] == 800 and "end:win" not in found["events"]
    assert found["settlement"]["SC-H2 repeated wins"] > 0
    assert found["settlement"]["SC-H3 呼叫转移"] > 0
    assert _cli(["validate", "-"], json.dumps(out))[0] == 0


def test_a_bot_sets_aside_three_of_its_shortest_suit_sc_h1() -> None:
    match = simulate("sichuan", 5, 3, rules=EXCHANGE)
    for hand in match.hands:
        held = [list(tiles) for tiles in hand.deal]
        for event in hand.events[:4]:
            assert event.type == "exchange" and event.actor is not None
            mine = held[event.actor]
            by_suit = [sum(1 for t in mine if t.kind // 9 == s) for s in range(3)]
            suit = event.tiles[0].kind // 9
            assert by_suit[suit] == min(n for n in by_suit if n >= 3)


def test_simulate_refuses_an_unknown_or_wrong_rules_option() -> None:
    code, out = _cli(["simulate", "--variant", "sichuan", "--rule", "blood_flow=3"])
    assert code == 2 and "must be true or false" in out["error"]
    code, out = _cli(["simulate", "--variant", "sichuan", "--rule", "flood=true"])
    assert code == 2 and "unknown sichuan rules option" in out["error"]


def _cli(argv: list[str], stdin: str = "") -> tuple[int, Any]:
    import io
    out = io.StringIO()
    code = main(argv, io.StringIO(stdin), out)
    return code, json.loads(out.getvalue())


# -- the play matches --------------------------------------------------------------------


def test_a_human_exchanges_three_tiles_in_any_order_and_sees_only_their_own_sc_h1() -> None:
    match = PlayMatch.start("sichuan", seat=1, hands=1, seed="ex", rules=ALL)
    assert match.pending is not None and match.pending.kind == "exchange"
    legal = match.legal()
    assert all(option["type"] == "exchange" and len(option["tiles"]) == 3 for option in legal)
    with pytest.raises(IllegalAction) as caught:
        match.act(match.step, {"type": "exchange", "tiles": ["1m", "1p", "1s"]})
    assert caught.value.rule == "SC-H1"
    with pytest.raises(IllegalAction) as caught:
        match.leave(match.step)
    assert caught.value.rule == "SC-H1"
    chosen = legal[-1]["tiles"]
    entries = match.act(match.step, {"type": "exchange", "tiles": chosen[::-1]})
    exchanges = [e["event"] for e in entries if e["event"]["type"] == "exchange"]
    assert exchanges[0]["actor"] == 1
    assert all("tiles" not in e for e in exchanges if e["actor"] != 1)
    assert exchanges[0]["tiles"] == sorted(chosen, key=lambda t: Tile.parse(t).kind)
    assert len(match.view()["you"]["received"]) == 3
    play_randomly(match, random.Random(2))
    assert match.over and verify(match.log(), "ex") is None


def test_a_table_with_two_people_plays_every_option_to_the_end() -> None:
    room = RoomMatch.start_room("sichuan", seed="house", humans=(0, 2), hands=2, rules=ALL)
    assert {p.kind for p in room.pendings.values()} == {"exchange"}
    play_scripted(room, lambda match, seat: match.default_action(seat))
    assert room.over
    replay(read_log(write_log(room.log())))


def test_a_second_win_is_never_heavenly_or_earthly_sc_h2() -> None:
    """Ann wins on her dealt 14 (天胡, SC-5.11), stays, and before any discard of hers
    self-draws the last 5p: 平胡 + 自摸, not 天胡 again."""
    hand = HandBuilder("sichuan", ["111m234m567p789p55p", "", "", ""], front="1s2s3s5p",
                       pad="mp")
    hand.dingques("ssss").hu(0, "5p").draw(1).discard(1).draw(2).discard(2).draw(3).discard(3)
    hand.draw(0).hu(0)
    table = table_after(single(hand.end("abandoned"), rules=BLOOD))
    first, second = table.wins
    assert "SC-5.11" in [h.pattern.id for h in first.score.patterns]
    assert [h.pattern.id for h in second.score.patterns] == ["SC-5.1", "SC-5.15"]
    assert second.deltas == [6, -2, -2, -2]


def test_a_remainder_goes_to_the_first_winner_after_the_discarder_sc_h3() -> None:
    """Ann pungs Cal's 8m, later adds the drawn 8m to a kong (1 from each of the three,
    SC-6.3: takings 3), draws 5p from the back and discards it: Ben and Dee win on it.
    3 ÷ 2: Ben, the first after Ann, gets 2, Dee 1."""
    hand = HandBuilder("sichuan", ["88m1p9p", SC_WAIT_1, "", DEE_ON_5P],
                       front="1s8m2s3s4s8m", back="5p", pad="mp")
    hand.dingques("ssss").discard(0, "9p").draw(1).discard(1).draw(2).discard(2, "8m")
    hand.peng(0).discard(0, "1p").draw(1).discard(1).draw(2).discard(2).draw(3).discard(3)
    hand.draw(0).gang(0, "added", "8m").draw(0, back=True).discard(0, "5p").ron(1).ron(3)
    result = run(single(hand.draw(0).end("abandoned"), rules=TRANSFER))
    lines = [p for p in result.to_json()["payments"][0] if p["rule"] == "SC-H3"]
    assert [(p["payer"], p["payee"], p["amount"], p["formula"]["text"]) for p in lines] == [
        (0, 1, 2, "呼叫转移 3 ÷ 2 → 2"), (0, 3, 1, "呼叫转移 3 ÷ 2 → 1")]


def test_validate_refuses_an_exchange_of_two_suits_naming_sc_h1() -> None:
    doc = single(marked_hand().exchange(0, "11s1m").end("abandoned"), rules=EXCHANGE)
    code, out = _cli(["validate", "-"], json.dumps(doc))
    assert code == 1 and out["ok"] is False
    assert (out["error"]["rule"], out["error"]["hand"], out["error"]["event"]) == ("SC-H1", 1, 1)


def test_nobody_leaves_during_the_exchange_sc_h1() -> None:
    error = rejection(single(marked_hand().exchange(0, "111s").leave(2).end("abandoned"),
                             rules=EXCHANGE))
    assert (error.rule, error.event) == ("SC-H1", 2)
    table = table_after(single(marked_hand().end("abandoned"), rules=EXCHANGE))
    assert not any(a.event.type == "leave" for a in table.legal_actions(leaving=True))
