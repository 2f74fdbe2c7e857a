"""Invalid hand histories: each document breaks one rule and must be rejected.

Every test builds a ``mahjong-log/1`` document (with :mod:`tests.logbuild`, or
by mutating a bot-played one), replays it (``replay(read_log(doc))``) and checks
the :class:`games.records.log.LogError`: the rule id of RULES.md that is broken, the
1-based hand and event where it is broken and a fragment of the sentence. The
expected rule comes from RULES.md and LOG-FORMAT.md, not from the engine.

Unless a test says otherwise: seat 0 (Ann) deals, the others are Ben, Cal and
Dee; Jiaxing's indicator is 8s and its wildcard 9s; Putian's golds are 9p and
9s; the wall is complete and its tiles are drawn in order.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from typing import Any

import pytest

from games.bots.simulation import simulate
from games.records.log import LogError, loads, write_log

from .conftest import ROOT
from .logbuild import (
    EARTHLY,
    HandBuilder,
    document,
    jx_added_kong,
    jx_contract,
    jx_earthly,
    rejection,
    sc_discard_5p,
    sc_exhausted,
    single,
    table_after,
    tables_before_events,
)

Doc = dict[str, Any]


def assert_rejected(doc: Doc | HandBuilder, rule: str, *, hand: int | None = 1,
                    event: int | None | bool = False, words: str = "") -> LogError:
    """The document is rejected for ``rule`` at ``hand``/``event`` (False: any event)."""
    if isinstance(doc, HandBuilder):
        doc = single(doc)
    error = rejection(doc)
    assert error.rule == rule, f"expected {rule}, got: {error}"
    assert error.hand == hand, f"expected hand {hand}, got: {error}"
    if event is not False:
        assert error.event == event, f"expected event {event}, got: {error}"
    assert words.lower() in error.message.lower(), f"expected {words!r} in: {error}"
    # docs/log-format.md: the message is "one sentence ... without the place and rule".
    assert f"({rule})" not in error.message, f"the message repeats the rule: {error}"
    return error


def table_before(hand: HandBuilder, event: int) -> Any:
    """The table of a hand built so far, just before its event ``event`` (1-based)."""
    return table_after(single(copy.deepcopy(hand).end("abandoned")), 1, event - 1)


def jx(deal: list[str], **fields: Any) -> HandBuilder:
    return HandBuilder("jiaxing", deal, **fields)


def pt(deal: list[str], **fields: Any) -> HandBuilder:
    return HandBuilder("putian", deal, **fields)


def sc(deal: list[str], **fields: Any) -> HandBuilder:
    return HandBuilder("sichuan", deal, **fields)


def stop(hand: HandBuilder) -> HandBuilder:
    """End a broken hand (the replay stops before it anyway)."""
    return hand.end("abandoned")


# == Common ground: tiles, turns, the wall (C-1, C-2, C-5) ==========================


@pytest.mark.parametrize("variant", ["jiaxing", "putian", "sichuan"])
def test_a_fifth_copy_in_the_deal_c_1(variant: str) -> None:
    """C-1: four copies of each kind. Ann is dealt 1m 1m 1m 1m and Ben a fifth 1m.
    (No wall, so only the deal is counted.)"""
    hand = stop(HandBuilder(variant, ["1111m", "", "", ""], pad="ps", wall=False))
    doc = single(hand)
    doc["hands"][0]["deal"][1][0] = "1m"
    assert_rejected(doc, "C-1", event=None, words="1m")


def test_a_fourth_copy_of_the_indicator_kind_jx_4() -> None:
    """JX-4: the turned-up indicator (8s) is out of play, so only three 8s are left;
    a deal holding four of them is impossible."""
    hand = stop(jx(["888s", "", "", ""], pad="mp", wall=False))
    doc = single(hand)
    doc["hands"][0]["deal"][1][0] = "8s"
    assert_rejected(doc, "JX-4", event=None, words="8s")


def test_a_fourth_copy_of_a_gold_kind_pt_2() -> None:
    """PT-2: one tile of each gold kind is turned up and out of play: 3 copies of 9p
    are in play, and the deal holds four."""
    hand = stop(pt(["9p9p9p", "", "", ""], pad="ms", wall=False))
    doc = single(hand)
    doc["hands"][0]["deal"][1][0] = "9p"
    assert_rejected(doc, "PT-2", event=None, words="9p")


def test_a_fifth_copy_drawn_without_a_wall_c_1() -> None:
    """C-1: with no wall recorded, draws are still counted. Ann holds four 1m and
    Ben draws a fifth."""
    hand = jx(["1111m", "", "", ""], pad="ps", wall=False)
    hand.discard(0, "1m")
    bad = hand.next
    hand.draw(1, "1m")
    assert_rejected(stop(hand), "C-1", event=bad, words="1m")


def test_a_wall_of_the_wrong_size_c_5() -> None:
    """C-5 / LOG-FORMAT: the wall is every tile left after the deal and the indicator
    (136 − 53 − 1 = 82); one tile short is rejected before play."""
    doc = single(stop(jx(["", "", "", ""])))
    doc["hands"][0]["wall"].pop()
    assert_rejected(doc, "C-5", event=None, words="82")


def test_a_draw_that_is_not_the_front_of_the_wall_c_5() -> None:
    """C-5: normal draws come from the front of the wall. The front holds 1p; Ben
    records drawing 2p."""
    hand = jx(["", "", "", ""], front="1p")
    hand.discard(0, hand.deal[0][0])
    bad = hand.next
    hand.draw(1, "2p")
    assert_rejected(stop(hand), "C-5", event=bad, words="front")


def test_a_normal_draw_from_the_back_c_5() -> None:
    """C-5: a turn's normal draw is from the front; Ben takes the back tile instead."""
    hand = jx(["", "", "", ""])
    hand.discard(0, hand.deal[0][0])
    bad = hand.next
    hand.draw(1, back=True)
    assert_rejected(stop(hand), "C-5", event=bad, words="front")


def test_a_kong_replacement_from_the_front_c_5() -> None:
    """C-5, JX-2.5: after a concealed kong the replacement comes from the back.
    Ann makes a concealed kong of 5m and draws from the front."""
    hand = jx(["5555m", "", "", ""], front="1p", back="2p")
    hand.gang(0, "concealed", "5m")
    bad = hand.next
    hand.draw(0)
    assert_rejected(stop(hand), "C-5", event=bad, words="back")


def test_a_kong_replacement_that_is_not_the_back_tile_c_5() -> None:
    """C-5: the replacement must be the wall's last tile (2p here), not 3p."""
    hand = jx(["5555m", "", "", ""], back="2p", avoid="3p")
    hand.gang(0, "concealed", "5m")
    bad = hand.next
    hand.draw(0, "3p", back=True)
    assert_rejected(stop(hand), "C-5", event=bad, words="2p")


def test_drawing_after_the_wall_is_empty_c_5() -> None:
    """C-5: all 82 tiles are drawn and discarded; one more draw is impossible (the
    hand is exhausted)."""
    hand = jx(["", "", "", ""], pad="mps")
    hand.discard(0, hand.deal[0][0]).cycle(1, 82)
    assert hand.left == 0
    bad = hand.next
    hand.draw(3, "1z")
    assert_rejected(hand.end("exhausted"), "C-5", event=bad, words="empty")


def test_ending_as_exhausted_with_tiles_left_c_5() -> None:
    """C-5: the hand is exhausted only when a draw is due and no tile is left; here
    one tile is still in the wall."""
    hand = jx(["", "", "", ""], pad="mps")
    hand.discard(0, hand.deal[0][0]).cycle(1, 81)
    bad = hand.next
    hand.end("exhausted")
    assert_rejected(hand, "C-5", event=bad, words="1 tile")


def test_ending_as_a_win_without_a_winner_c_5() -> None:
    """LOG-FORMAT end: ``reason: win`` needs a win; this exhausted hand has none."""
    hand = jx(["", "", "", ""], pad="mps")
    hand.discard(0, hand.deal[0][0]).cycle(1, 82)
    bad = hand.next
    hand.end("win")
    assert_rejected(hand, "C-5", event=bad, words="nobody has won")


def test_a_draw_by_the_wrong_seat_c_2() -> None:
    """C-2: after Ann's discard the next seat, Ben, draws; Cal draws instead."""
    hand = jx(["", "", "", ""])
    hand.discard(0, hand.deal[0][0])
    bad = hand.next
    hand.draw(2)
    assert_rejected(stop(hand), "C-2", event=bad, words="Ben")


def test_a_discard_by_the_wrong_seat_c_2() -> None:
    """C-2, JX-2: the dealer discards first; Ben discards instead."""
    hand = jx(["", "", "", ""])
    hand.discard(1, hand.deal[1][0])
    assert_rejected(stop(hand), "C-2", event=1, words="Ann")


def test_discarding_a_tile_not_held_c_1() -> None:
    """C-1 (tile accounting): Ann discards 2m, which she doesn't hold."""
    hand = jx(["", "", "", ""], avoid="2m")
    hand.discard(0, "2m")
    assert_rejected(stop(hand), "C-1", event=1, words="2m")


def test_a_hu_on_a_tile_other_than_the_one_drawn_c_2() -> None:
    """A self-drawn win is on the tile just drawn (JX-5.1). Ben draws 6p but
    claims a win on 5p (he holds one)."""
    hand = jx(["", EARTHLY, "", ""], front="6p", pad="mz")
    hand.discard(0, hand.deal[0][0]).draw(1)
    bad = hand.next
    hand.hu(1, "5p")
    assert_rejected(hand.end("win"), "C-2", event=bad, words="6p")


def test_an_event_after_the_hand_is_won_c_5() -> None:
    """After a Jiaxing win the hand is over (JX-5): Ann's later discard is refused."""
    hand = jx_earthly()
    bad = hand.next
    hand.discard(2, hand.deal[2][0])
    assert_rejected(hand.end("win"), "C-5", event=bad, words="over")


def test_events_after_the_end_event() -> None:
    """LOG-FORMAT: ``end`` is the hand's last event; a discard follows it here. The
    reader places the problem at the end event of hand 1."""
    hand = jx_earthly().end("win", [-28, 84, -28, -28])
    doc = single(hand)
    doc["hands"][0]["events"].append({"type": "discard", "actor": 2, "tile": "1m"})
    error = rejection(doc)
    assert (error.hand, error.event) == (1, len(hand.events))
    assert "last event" in error.message


def test_a_leave_ends_a_jiaxing_hand_jx_10_6() -> None:
    """JX-10.6: a player who leaves ends the hand; nobody plays on after it."""
    hand = jx(["", "", "", ""])
    hand.discard(0, hand.deal[0][0]).leave(2)
    bad = hand.next
    hand.draw(1)
    assert_rejected(stop(hand), "C-5", event=bad, words="over")


# == Jiaxing claims (JX-2) ==========================================================


def test_a_chow_from_the_wrong_seat_jx_2_1() -> None:
    """JX-2.1: only the discarder's next seat may chow. Dee (seat 3, before Ann)
    chows Ann's 1m with 2m 3m."""
    hand = jx(["1m", "", "", "23m"])
    hand.discard(0, "1m")
    bad = hand.next
    hand.chi(3, "23m")
    assert_rejected(stop(hand), "JX-2.1", event=bad, words="next seat")


def test_a_chow_of_tiles_that_are_not_consecutive_c_3() -> None:
    """C-3: a chow is three consecutive tiles of one suit; 1m 2m 4m is not."""
    hand = jx(["1m", "24m", "", ""])
    hand.discard(0, "1m")
    bad = hand.next
    hand.chi(1, "24m")
    assert_rejected(stop(hand), "C-3", event=bad, words="chow")


def test_a_chow_across_suits_c_3() -> None:
    """C-3: one suit only: 1m 2m 3p is no chow."""
    hand = jx(["1m", "2m3p", "", ""])
    hand.discard(0, "1m")
    bad = hand.next
    hand.chi(1, "2m3p")
    assert_rejected(stop(hand), "C-3", event=bad, words="chow")


def test_a_chow_showing_a_tile_not_held_c_1() -> None:
    """JX-2.1: the two chow tiles come from hand; Ben holds 2m but no 3m."""
    hand = jx(["1m", "2m", "", ""], avoid="3m")
    hand.discard(0, "1m")
    bad = hand.next
    hand.chi(1, "23m")
    assert_rejected(stop(hand), "C-1", event=bad, words="3m")


def test_a_chow_of_an_older_discard_c_2() -> None:
    """JX-2.1: a chow takes the discard just made. Ann discarded 1m, Ben drew and
    discarded; Cal can't chow the old 1m any more."""
    hand = jx(["1m", "", "23m", ""])
    hand.discard(0, "1m").draw(1).discard(1)
    bad = hand.next
    hand.chi(2, "23m", target=0, tile="1m")
    assert_rejected(stop(hand), "C-2", event=bad)


def test_a_pung_without_two_tiles_jx_2_2() -> None:
    """JX-2.2: a pung needs two of the discarded kind in hand; Cal holds one 7z."""
    hand = jx(["7z", "", "7z", ""])
    hand.discard(0, "7z")
    bad = hand.next
    hand.peng(2)
    assert_rejected(stop(hand), "JX-2.2", event=bad, words="two")


def test_an_exposed_kong_without_three_jx_2_3() -> None:
    """JX-2.3: an exposed kong needs three of the discarded kind; Cal holds two."""
    hand = jx(["7z", "", "77z", ""])
    hand.discard(0, "7z")
    bad = hand.next
    hand.gang(2, "exposed")
    assert_rejected(stop(hand), "JX-2.3", event=bad, words="three")


def test_a_concealed_kong_without_four_jx_2_4() -> None:
    """JX-2.4: a concealed kong is four of a kind in hand; Ann holds three 5m."""
    hand = jx(["555m", "", "", ""])
    hand.gang(0, "concealed", "5m")
    assert_rejected(stop(hand), "JX-2.4", event=1, words="5m")


def test_an_added_kong_without_a_pung_jx_2_4() -> None:
    """JX-2.4: an added kong adds the fourth tile to one's exposed pung; Ann has
    three 5m in hand but no pung."""
    hand = jx(["555m", "", "", ""])
    hand.gang(0, "added", "5m")
    assert_rejected(stop(hand), "JX-2.4", event=1, words="pung")


def test_a_concealed_kong_on_another_players_turn_c_2() -> None:
    """JX-2.4: a concealed kong is made on one's own turn; Cal declares one while
    Ben is due to draw."""
    hand = jx(["", "", "5555m", ""])
    hand.discard(0, hand.deal[0][0])
    bad = hand.next
    hand.gang(2, "concealed", "5m")
    assert_rejected(stop(hand), "C-2", event=bad)


def test_a_draw_after_a_pung_jx_2_7() -> None:
    """JX-2.7: after a pung the claimer discards without drawing; Cal draws."""
    hand = jx(["7z", "", "77z", ""])
    hand.discard(0, "7z").peng(2)
    bad = hand.next
    hand.draw(2)
    assert_rejected(stop(hand), "JX-2.7", event=bad)


def test_a_pung_once_the_last_four_tiles_are_reached_jx_2_8() -> None:
    """JX-2.8: claims need at least 4 tiles in the wall. After 79 draws 3 tiles are
    left; Dee discards 7z and Ben pungs it."""
    hand = jx(["", "77z", "", "7z"], pad="mps")
    hand.discard(0, hand.deal[0][0]).cycle(1, 78)
    hand.draw(3).discard(3, "7z")
    assert hand.left == 3
    bad = hand.next
    hand.peng(1)
    assert_rejected(stop(hand), "JX-2.8", event=bad, words="four")


def test_a_chow_once_the_last_four_tiles_are_reached_jx_2_8() -> None:
    """JX-2.8: the same for a chow: 3 tiles left, Dee discards 1m, Ann chows."""
    hand = jx(["23m", "", "", "1m"], pad="psz")
    hand.discard(0, hand.deal[0][2]).cycle(1, 78)
    hand.draw(3).discard(3, "1m")
    assert hand.left == 3
    bad = hand.next
    hand.chi(0, "23m")
    assert_rejected(stop(hand), "JX-2.8", event=bad, words="four")


def test_an_exposed_kong_once_the_last_four_tiles_are_reached_jx_2_8() -> None:
    """JX-2.8: no kong of a discard either once 3 tiles are left."""
    hand = jx(["", "777z", "", "7z"], pad="mps")
    hand.discard(0, hand.deal[0][0]).cycle(1, 78)
    hand.draw(3).discard(3, "7z")
    bad = hand.next
    hand.gang(1, "exposed")
    assert_rejected(stop(hand), "JX-2.8", event=bad, words="four")


def test_a_concealed_kong_with_no_tile_left_to_replace_it_c_5() -> None:
    """C-5, JX-2.5: a kong needs a replacement from the wall. Cal draws the last
    tile and declares a concealed kong of the 5m he holds."""
    hand = jx(["", "", "5555m", ""], pad="psz")
    hand.discard(0, hand.deal[0][0]).cycle(1, 81).draw(2)
    assert hand.left == 0
    bad = hand.next
    hand.gang(2, "concealed", "5m")
    assert_rejected(stop(hand), "C-5", event=bad, words="replacement")


def test_a_pung_of_the_wildcard_jx_2_9() -> None:
    """JX-2.9: a wildcard (9s) can't be claimed: Cal pungs Ann's discarded 9s."""
    hand = jx(["9s", "", "9s9s", ""])
    hand.discard(0, "9s")
    bad = hand.next
    hand.peng(2)
    assert_rejected(stop(hand), "JX-2.9", event=bad, words="wildcard")


def test_a_chow_showing_the_wildcard_jx_2_9() -> None:
    """JX-2.9: a wildcard can't be one of the tiles a claimer shows. The wildcard is
    3m (indicator 2m); Ben chows Ann's 1m with 2m and the wildcard 3m."""
    hand = jx(["1m", "2m3m", "", ""], indicator="2m", wildcards=["3m"])
    hand.discard(0, "1m")
    bad = hand.next
    hand.chi(1, "23m")
    assert_rejected(stop(hand), "JX-2.9", event=bad, words="wildcard")


def test_a_concealed_kong_of_the_wildcard_jx_2_9() -> None:
    """JX-2.9: no kong of wildcards. The wildcard is 9s (indicator 7s, so four 9s
    are in play) and Ann holds all four."""
    hand = jx(["9999s", "", "", ""], indicator="7s", wildcards=["9s"])
    hand.gang(0, "concealed", "9s")
    assert_rejected(stop(hand), "JX-2.9", event=1, words="wildcard")


# == Jiaxing wins (JX-5, JX-8) ======================================================


def test_a_win_on_a_discard_in_jiaxing_jx_5_1() -> None:
    """JX-5.1: Jiaxing wins only by self-draw or robbing a kong. Ben, ready on 5p,
    claims Ann's discarded 5p."""
    hand = jx(["5p", EARTHLY, "", ""], pad="mz")
    hand.discard(0, "5p")
    bad = hand.next
    hand.ron(1)
    assert_rejected(hand.end("win"), "JX-5.1", event=bad, words="discard")


def test_a_complete_hand_without_the_jiaxing_requirement_jx_5_3() -> None:
    """JX-5.3: 123m 456p 789s 123p 55m is four sets and a pair, but not one suit,
    not one suit with honours, not all honours and not all pungs."""
    hand = jx(["", "123m456p789s123p5m", "", ""], front="5m")
    hand.discard(0, hand.deal[0][0]).draw(1)
    bad = hand.next
    hand.hu(1)
    assert_rejected(hand.end("win"), "JX-5.3", event=bad)


def test_a_hu_that_is_no_win_at_all_jx_5_2() -> None:
    """JX-5.2: Ben's 14 tiles are no four sets and a pair."""
    hand = jx(["", "1357m2468p1357s1z", "", ""], front="3z")
    hand.discard(0, hand.deal[0][0]).draw(1)
    bad = hand.next
    hand.hu(1)
    assert_rejected(hand.end("win"), "JX-5.2", event=bad)


def test_a_heavenly_hand_on_a_tile_not_held_c_1() -> None:
    """JX-7.7: the dealer's dealt hand wins on one of its tiles; Ann names 6m, which
    she doesn't hold."""
    hand = jx(["111m222m333m444m55m", "", "", ""])
    hand.hu(0, "6m")
    assert_rejected(hand.end("win"), "C-1", event=1, words="6m")


def test_seven_pairs_are_no_jiaxing_win_jx_5_2() -> None:
    """JX-5.2: seven pairs does not count in Jiaxing (even of one suit)."""
    hand = jx(["", "1133557799m224p", "", ""], front="4p")
    hand.discard(0, hand.deal[0][0]).draw(1)
    bad = hand.next
    hand.hu(1)
    assert_rejected(hand.end("win"), "JX-5.2", event=bad)


def test_robbing_with_a_hand_that_wins_on_every_tile_jx_8() -> None:
    """JX-8: Dee holds 111m 222m 333m 555m and a wildcard 9s: any tile pairs with the
    wildcard and the four pungs meet JX-5.3, so she may not rob Cal's added 4m."""
    hand = jx_added_kong("111m222m333m555m9s")
    bad = hand.next
    hand.hu(3, "4m", target=2, how="robbing_kong")
    assert_rejected(hand.end("win"), "JX-8", event=bad, words="every tile")


def test_robbing_a_kong_of_the_wrong_player_jx_8() -> None:
    """JX-8: only the player who just added a kong (Cal) can be robbed, not Ben."""
    hand = jx_added_kong("111m222m333m56m77z")
    bad = hand.next
    hand.hu(3, "4m", target=1, how="robbing_kong")
    assert_rejected(hand.end("win"), "JX-8", event=bad)


def test_robbing_a_concealed_kong_jx_8() -> None:
    """JX-8: only an added kong can be robbed. Ann makes a concealed kong of 4m and
    Ben, waiting on 4m, claims it."""
    hand = jx(["4444m", "111m222m333m56m77z", "", ""], back="1p")
    hand.gang(0, "concealed", "4m")
    bad = hand.next
    hand.hu(1, "4m", target=0, how="robbing_kong")
    assert_rejected(hand.end("win"), "JX-8", event=bad, words="added kong")


# == Jiaxing contracts (JX-9) =======================================================


def test_contract_answers_out_of_order_jx_9() -> None:
    """JX-9: Cal and Dee answer in playing order after Ben, Cal first; Dee answers
    first here."""
    hand = jx_contract((None, None))
    bad = hand.next
    hand.contract(3, "persist")
    assert_rejected(stop(hand), "JX-9", event=bad, words="Cal")


def test_contract_answers_missing_jx_9() -> None:
    """JX-9: play pauses until both others answer; Ben discards before any answer."""
    hand = jx_contract((None, None))
    bad = hand.next
    hand.discard(1, "5z")
    assert_rejected(stop(hand), "JX-9", event=bad, words="contract")


def test_a_second_contract_answer_missing_jx_9() -> None:
    """JX-9: Cal answered but Dee did not before Ben discards."""
    hand = jx_contract(("persist", None))
    bad = hand.next
    hand.discard(1, "5z")
    assert_rejected(stop(hand), "JX-9", event=bad, words="Dee")


def test_a_contract_answer_without_a_contract_jx_9() -> None:
    """JX-9: answers follow the claim that forms a contract; here there is none."""
    hand = jx(["1m", "", "", ""])
    hand.discard(0, "1m")
    bad = hand.next
    hand.contract(2, "persist")
    assert_rejected(stop(hand), "JX-9", event=bad, words="no contract")


def test_a_contract_answer_by_a_contract_partner_jx_9() -> None:
    """JX-9: the two *other* players answer; Ann, Ben's partner, can't."""
    hand = jx_contract((None, None))
    bad = hand.next
    hand.contract(0, "persist")
    assert_rejected(stop(hand), "JX-9", event=bad)


def test_a_player_who_gave_up_pungs_jx_9() -> None:
    """JX-9: Cal gave up: he only draws and discards. He pungs Ben's 5z anyway."""
    hand = jx_contract(("give_up", "persist"), seat2="55z")
    hand.discard(1, "5z")
    bad = hand.next
    hand.peng(2)
    assert_rejected(stop(hand), "JX-9", event=bad, words="gave up")


def test_a_player_who_gave_up_wins_jx_9() -> None:
    """JX-9: Cal gave up, so he can't win this hand, even on a legal self-draw."""
    hand = jx_contract(("give_up", "persist"), seat2=EARTHLY, tail="5p")
    hand.discard(1, "5z").draw(2)
    bad = hand.next
    hand.hu(2)
    assert_rejected(hand.end("win"), "JX-9", event=bad, words="gave up")


def test_a_player_who_gave_up_makes_a_concealed_kong_jx_9() -> None:
    """JX-9: no kongs after giving up: Cal holds four 7z but gave up."""
    hand = jx_contract(("give_up", "persist"), seat2="7777z")
    hand.discard(1, "5z").draw(2)
    bad = hand.next
    hand.gang(2, "concealed", "7z")
    assert_rejected(stop(hand), "JX-9", event=bad, words="gave up")


# == Jiaxing across hands (JX-3, JX-7.11) ===========================================


def two_jiaxing_hands(second: HandBuilder) -> Doc:
    """Hand 1: Ben wins an earthly hand (Ann deals), so Ben deals hand 2 (JX-3)."""
    first = jx_earthly(0).end("win", [-28, 84, -28, -28])
    return document("jiaxing", first, second)


def test_the_wrong_dealer_after_a_non_dealer_win_jx_3() -> None:
    """JX-3: Ben won hand 1, which Ann dealt, so Ben deals hand 2 — not Ann."""
    second = stop(jx(["", "", "", ""], dealer=0, indicator="1m", wildcards=["2m"]))
    assert_rejected(two_jiaxing_hands(second), "JX-3", hand=2, words="dealer")


def test_the_wrong_dealer_after_a_dealer_win_jx_3() -> None:
    """JX-3: the dealer stays after a dealer win (Ann's 天和), so Ann deals again."""
    first = jx(["111m222m333m444m55m", "", "", ""]).hu(0, "5m")
    first.end("win", [84, -28, -28, -28])
    second = stop(jx(["", "", "", ""], dealer=1, indicator="1p", wildcards=["2p"]))
    assert_rejected(document("jiaxing", first, second), "JX-3", hand=2, words="dealer")


def test_the_wrong_dealer_after_an_exhausted_hand_jx_3() -> None:
    """JX-3: the dealer stays after an exhausted hand."""
    first = jx(["", "", "", ""], pad="mps")
    first.discard(0, first.deal[0][0]).cycle(1, 82).end("exhausted", [0, 0, 0, 0])
    second = stop(jx(["", "", "", ""], dealer=1, indicator="1p", wildcards=["2p"],
                     bank=["huangfan"]))
    assert_rejected(document("jiaxing", first, second), "JX-3", hand=2, words="dealer")


def test_the_wrong_round_wind_jx_3() -> None:
    """JX-3: the round wind moves on only when the deal returns to seat 0; hand 2
    (Ben deals) is still East, not South."""
    second = stop(jx(["", "", "", ""], dealer=1, round_wind="S", indicator="1m",
                     wildcards=["2m"]))
    assert_rejected(two_jiaxing_hands(second), "JX-3", hand=2, words="round wind")


def test_a_wrong_carried_fan_bank_jx_7_11() -> None:
    """JX-7.11: hand 1 rolls doubles (包子 banked) and is exhausted (黄番 banked),
    so hand 2 starts with [baozi, huangfan], oldest first — not the reverse."""
    first = jx(["", "", "", ""], pad="mps", dice=(3, 3))
    first.discard(0, first.deal[0][0]).cycle(1, 82).end("exhausted", [0, 0, 0, 0])
    second = stop(jx(["", "", "", ""], indicator="1p", wildcards=["2p"],
                     bank=["huangfan", "baozi"]))
    assert_rejected(document("jiaxing", first, second), "JX-7.11", hand=2, words="baozi")


def test_a_bank_that_forgets_the_used_fan_jx_7_11() -> None:
    """JX-7.11: a win uses the oldest banked fan and removes it. Hand 1 (doubles,
    so [baozi]) is won by Ben; hand 2 must start with an empty bank."""
    first = jx_earthly(0, dice=(4, 4)).end("win", [-56, 168, -56, -56])
    second = stop(jx(["", "", "", ""], dealer=1, indicator="1p", wildcards=["2p"],
                     bank=["baozi"]))
    assert_rejected(document("jiaxing", first, second), "JX-7.11", hand=2)


# == Jiaxing settlement (JX-10) =====================================================


def test_wrong_deltas_of_a_plain_self_draw_jx_10_1() -> None:
    """JX-10.1: Ben's earthly hand is 清一色 4 + 对对和 2 + 无百搭 1 = 7 tai and
    地和 2 fan, 7 × 4 = 28 from each of the three others; the log says 27 from Ann."""
    hand = jx_earthly().end("win", [-27, 83, -28, -28])
    assert_rejected(hand, "JX-10.1", event=len(hand.events), words="deltas")


def test_wrong_deltas_with_the_winner_in_a_contract_jx_10_2() -> None:
    """JX-10.2: Ben (in contract with Ann) wins 混一色 2 + East pung 1 + 无百搭 1 = 4
    tai: Ann pays ×5 = 20, Cal and Dee persisted and pay ×2 = 8. The log has
    everyone paying ×1."""
    hand = jx_contract(tail="7s1p2p2z")
    hand.discard(1, "5z").cycle(2, 3).draw(1).hu(1)
    hand.end("win", [-4, 12, -4, -4])
    assert_rejected(hand, "JX-10.2", event=len(hand.events), words="settlement")


def test_wrong_deltas_with_the_winner_outside_the_contract_jx_10_3() -> None:
    """JX-10.3: Cal wins outside the Ann–Ben contract (7 tai, no fan: 7): Ann and
    Ben pay ×2 = 14, Dee pays ×1 = 7. The log has Dee paying ×2 too."""
    hand = jx_contract(seat2=EARTHLY, tail="5p")
    hand.discard(1, "5z").draw(2).hu(2)
    hand.end("win", [-14, -14, 42, -14])
    assert_rejected(hand, "JX-10.3", event=len(hand.events), words="settlement")


def test_wrong_deltas_of_a_robbed_kong_jx_10_4() -> None:
    """JX-10.4: Dee robs Cal's added 4m with 111m 222m 333m 456m 77z: 混一色 2 +
    无百搭 1 = 3 tai. No contract: the robbed Cal pays ×3 = 9, the others nothing.
    The log makes everyone pay 3."""
    hand = jx_added_kong("111m222m333m56m77z")
    hand.hu(3, "4m", target=2, how="robbing_kong").end("win", [-3, -3, -3, 9])
    assert_rejected(hand, "JX-10.4", event=len(hand.events), words="settlement")


# == Putian (PT) ====================================================================

PT_READY = "111m222m333m444m555m6m"
"""Putian, 16 tiles ready on 6m (the pair)."""


@pytest.mark.parametrize(("event", "words"), [
    ({"type": "peng", "actor": 1, "target": 0, "tile": "1m"}, "peng"),
    ({"type": "chi", "actor": 1, "target": 0, "tile": "1m", "tiles": ["2m", "3m"]}, "chi"),
    ({"type": "gang", "actor": 1, "kind": "exposed", "target": 0, "tile": "1m"}, "exposed"),
    ({"type": "gang", "actor": 0, "kind": "added", "tile": "1m"}, "added"),
])
def test_putian_has_no_chow_pung_or_exposed_kong_pt_4(event: dict[str, Any],
                                                      words: str) -> None:
    """PT-4: no chow, no pung, and so no exposed or added kong."""
    hand = pt(["1m", "11m23m", "", ""], pad="ps")
    if event["type"] != "gang" or event["kind"] != "added":
        hand.discard(0, "1m")
    bad = hand.next
    hand.add(event)
    assert_rejected(stop(hand), "PT-4", event=bad, words=words)


def test_discarding_a_gold_pt_2() -> None:
    """PT-2: golds (9p, 9s) can never be discarded."""
    hand = pt(["9p", "", "", ""], pad="mps")
    hand.discard(0, "9p")
    assert_rejected(stop(hand), "PT-2", event=1, words="gold")


def test_a_concealed_kong_of_golds_pt_2() -> None:
    """PT-2, PT-4: golds are wildcards and never form a kong. The golds are 1m and
    9s; Ann holds the three 1m in play and declares a concealed kong of 1m."""
    hand = pt(["1m1m1m", "", "", ""], pad="ps", wildcards=["1m", "9s"])
    hand.gang(0, "concealed", "1m")
    assert_rejected(stop(hand), "PT-2", event=1, words="gold")


def test_discarding_a_white_pt_3_2() -> None:
    """PT-3.2: a white drawn in play is laid out and replaced at once; Ben draws a
    white and discards it."""
    hand = pt(["", "", "", ""], pad="mps", front="5z")
    hand.discard(0, hand.deal[0][0]).draw(1)
    bad = hand.next
    hand.discard(1, "5z")
    assert_rejected(stop(hand), "PT-3.2", event=bad, words="white")


def test_discarding_while_holding_a_white_pt_3_2() -> None:
    """PT-3.2: Ben draws a white and discards another tile instead of laying it out."""
    hand = pt(["", "", "", ""], pad="mps", front="5z")
    hand.discard(0, hand.deal[0][0]).draw(1)
    bad = hand.next
    hand.discard(1, hand.deal[1][0])
    assert_rejected(stop(hand), "PT-3.2", event=bad, words="white")


def test_an_in_play_replacement_from_the_front_c_5() -> None:
    """PT-3.2, C-5: the white's replacement comes from the back of the wall."""
    hand = pt(["", "", "", ""], pad="mps", front="5z")
    hand.discard(0, hand.deal[0][0]).draw(1).flower(1)
    bad = hand.next
    hand.draw(1)
    assert_rejected(stop(hand), "C-5", event=bad, words="back")


def test_the_opening_passes_out_of_order_pt_3_1() -> None:
    """PT-3.1: the opening replacements start with the dealer: Ann lays out her
    white before Cal lays out his."""
    hand = pt(["5z", "", "5z5z", ""], pad="mps", back="1m2m3m")
    hand.flower(2)
    assert_rejected(stop(hand), "PT-3.1", event=1, words="Ann")


def test_a_white_drawn_in_the_first_pass_waits_pt_3_1() -> None:
    """PT-3.1: a white drawn during a pass waits until all four have replaced once.
    Ann's replacement is a white; she lays it out before Cal's turn."""
    hand = pt(["5z", "", "5z", ""], pad="mps", back="5z2m3m")
    hand.flower(0).draw(0, back=True)
    bad = hand.next
    hand.flower(0)
    assert_rejected(stop(hand), "PT-3.1", event=bad, words="Cal")


def test_discarding_before_the_opening_passes_are_done_pt_3_1() -> None:
    """PT-3.1: Ann holds a white after the deal; she discards without laying it out
    (the opening replacements come before the first discard)."""
    hand = pt(["5z", "", "", ""], pad="mps")
    hand.discard(0, hand.deal[0][1])
    assert_rejected(stop(hand), "PT-3.1", event=1)


def test_laying_out_a_white_that_is_gold_pt_3_4() -> None:
    """PT-3.4: when white is gold (golds 5z and 9s), whites are never laid out."""
    hand = pt(["5z", "", "", ""], pad="mps", wildcards=["5z", "9s"])
    hand.flower(0)
    assert_rejected(stop(hand), "PT-3", event=1, words="gold")


def test_discarding_another_tile_after_declaring_ready_pt_5_3() -> None:
    """PT-5.3: once ready, the drawn tile is discarded unless it wins. Ben declares
    ready (waiting on 1p), later draws 6m and discards 1m instead."""
    hand = pt(["", "111m222m333m444m555m7m", "", ""], pad="ps", front="1p2p3p4p6m")
    hand.discard(0, hand.deal[0][0]).draw(1).ready(1).discard(1, "7m")
    hand.cycle(2, 3).draw(1)
    bad = hand.next
    hand.discard(1, "1m")
    assert_rejected(stop(hand), "PT-5.3", event=bad, words="6m")


def test_declaring_ready_with_a_hand_that_is_not_ready_pt_5_3() -> None:
    """PT-5.3: after discarding 7m, Ben's 111m 222m 333m 444m 5m 1p 2p 4p is still a
    tile short of ready (no pair in sight for 5m), so he can't declare ready."""
    hand = pt(["", "111m222m333m444m57m24p", "", ""], pad="ms", front="1p")
    hand.discard(0, hand.deal[0][0]).draw(1).ready(1)
    hand.discard(1, "7m")
    error = assert_rejected(stop(hand), "PT-5.3", words="not ready")
    assert error.event in (len(hand.events) - 2, len(hand.events) - 1)


def test_a_concealed_kong_after_declaring_ready_pt_5_3() -> None:
    """PT-5.3: after the declaration the drawn tile wins or is discarded: no kong. Ben
    declares ready (111m 222m 333m 444m 555m 1p, waiting on 1p), later draws a fourth 1m
    and declares a concealed kong of it."""
    hand = pt(["", "111m222m333m444m555m7m", "", ""], pad="ps", front="1p2p3p4p1m")
    hand.discard(0, hand.deal[0][0]).draw(1).ready(1).discard(1, "7m")
    hand.cycle(2, 3).draw(1)
    bad = hand.next
    table = table_before(hand, bad)
    offered = {(a.event.type, str(a.event.tile)) for a in table.legal_actions()}
    assert offered == {("discard", "1m")}  # the drawn tile, and no kong of 1m
    hand.gang(1, "concealed", "1m")
    assert_rejected(stop(hand), "PT-5.3", event=bad, words="kong")


def test_a_declaration_no_discard_can_follow_is_not_offered_pt_5_3() -> None:
    """PT-5.3: Ben's 111m 222m 333m 444m 57m 24p + 1p is not ready after any discard, so
    the table offers no ready declaration, and refuses one at the declaration itself."""
    hand = pt(["", "111m222m333m444m57m24p", "", ""], pad="ms", front="1p")
    hand.discard(0, hand.deal[0][0]).draw(1)
    bad = hand.next
    assert "ready" not in {a.event.type for a in table_before(hand, bad).legal_actions()}
    hand.ready(1)
    assert_rejected(stop(hand), "PT-5.3", event=bad, words="not ready")


def test_declaring_ready_twice_pt_5_3() -> None:
    """PT-5.3: a player declares ready once."""
    hand = pt(["", "111m222m333m444m555m7m", "", ""], pad="ps", front="1p2p3p4p6m")
    hand.discard(0, hand.deal[0][0]).draw(1).ready(1).discard(1, "7m")
    hand.cycle(2, 3).draw(1)
    bad = hand.next
    hand.ready(1)
    assert_rejected(stop(hand), "PT-5.3", event=bad, words="already")


def test_a_flower_without_a_white_pt_3() -> None:
    """PT-3: only a white is laid out; Ben holds none."""
    hand = pt(["", "", "", ""], pad="mps")
    hand.discard(0, hand.deal[0][0]).draw(1)
    bad = hand.next
    hand.flower(1)
    assert_rejected(stop(hand), "PT-3", event=bad, words="white")


def test_robbing_the_gold_after_the_dealers_first_discard_pt_5_5() -> None:
    """PT-5.5: the gold can be robbed only before the dealer's first discard."""
    hand = pt(["", PT_READY, "", ""], pad="ps")
    hand.discard(0, hand.deal[0][0])
    bad = hand.next
    hand.hu(1, "9p", how="rob_gold")
    assert_rejected(hand.end("win"), "PT-5.5", event=bad)


def test_robbing_the_gold_with_a_hand_not_ready_pt_5_5() -> None:
    """PT-5.5: only a ready hand may rob the gold; Ben's is not."""
    hand = pt(["", "111m222m333m444m57m24p", "", ""], pad="ms")
    hand.hu(1, "9p", how="rob_gold")
    assert_rejected(hand.end("win"), "PT-5.5", event=1, words="ready")


def test_robbing_a_tile_that_is_not_gold_pt_5_5() -> None:
    """PT-5.5: robbing the gold takes one of the turned-up golds, not 6m."""
    hand = pt(["", PT_READY, "", ""], pad="ps")
    hand.hu(1, "6m", how="rob_gold")
    assert_rejected(hand.end("win"), "PT-5.5", event=1)


def test_a_bomb_without_enough_golds_pt_5_6() -> None:
    """PT-5.6: a bomb needs three golds of one kind or four golds. Ben has 9p 9p and
    draws 9s: three golds, but of two kinds."""
    hand = pt(["", "9p9p", "", ""], pad="mps", front="9s")
    hand.discard(0, hand.deal[0][0]).draw(1)
    bad = hand.next
    hand.hu(1, how="bomb")
    assert_rejected(hand.end("win"), "PT-5.6", event=bad, words="bomb")


def test_a_putian_hu_that_is_no_win_pt_5_1() -> None:
    """PT-5.1: 5 sets and a pair; Ben's 17 tiles after Ann's 7m are not."""
    hand = pt(["7m", "111m222m333m444m56m13p", "", ""], pad="ms")
    hand.discard(0, "7m")
    bad = hand.next
    hand.ron(1)
    assert_rejected(hand.end("win"), "PT-5.1", event=bad)


def putian_heavenly(dealer: int, streak: int | None, deltas: list[int]) -> HandBuilder:
    """Putian: the dealer's dealt 17 tiles are five pungs and a pair (天胡, PT-5.4)."""
    deal = ["", "", "", ""]
    deal[dealer] = "111m222m333m444m555m66m"
    hand = pt(deal, dealer=dealer, dealer_streak=streak, pad="ps")
    return hand.hu(dealer, "6m").end("win", deltas)


def test_the_wrong_putian_dealer_after_a_dealer_win_pt_1() -> None:
    """PT-1: Ben dealt and won hand 1, so he deals hand 2 too."""
    first = putian_heavenly(1, None, [-2, 6, -2, -2])
    second = stop(pt(["", "", "", ""], dealer=2, pad="mps"))
    assert_rejected(document("putian", first, second), "PT-1", hand=2, words="dealer")


def test_the_wrong_putian_dealer_after_a_non_dealer_win_pt_1() -> None:
    """PT-1: Ann dealt and Ben won on her discard: Ben deals hand 2, not Ann."""
    first = pt(["6m", PT_READY, "", ""], pad="ps")
    first.discard(0, "6m").ron(1).end("win", [-4, 8, -2, -2])
    second = stop(pt(["", "", "", ""], dealer=0, pad="mps"))
    assert_rejected(document("putian", first, second), "PT-1", hand=2, words="dealer")


def test_the_wrong_dealer_streak_pt_7_1() -> None:
    """PT-7.1: Ben dealt hand 1 and won, so hand 2 is his 2nd in a row: streak 1."""
    first = putian_heavenly(1, None, [-2, 6, -2, -2])
    second = stop(pt(["", "", "", ""], dealer=1, dealer_streak=0, pad="mps"))
    assert_rejected(document("putian", first, second), "PT-7.1", hand=2, words="streak")


def test_wrong_deltas_of_a_putian_win_pt_7_2() -> None:
    """PT-7.2: Ben wins on Ann's 6m with no flower points: each loser pays (1 + 0)
    × 2 = 2 and the dealer 2 more. The log leaves out the dealer's extra 2."""
    hand = pt(["6m", PT_READY, "", ""], pad="ps")
    hand.discard(0, "6m").ron(1).end("win", [-2, 6, -2, -2])
    assert_rejected(hand, "PT-7.2", event=len(hand.events), words="settlement")


def test_wrong_deltas_of_a_big_bomb_pt_7_3() -> None:
    """PT-7.3: five golds (9p 9p 9p 9s + 9s) are a 大炸弹: each loser pays 50, the
    dealer no more. The log adds the dealer's 2."""
    hand = pt(["", "9p9p9p9s", "", ""], pad="mps", front="9s")
    hand.discard(0, hand.deal[0][0]).draw(1).hu(1, how="bomb")
    hand.end("win", [-52, 152, -50, -50])
    assert_rejected(hand, "PT-7.3", event=len(hand.events), words="settlement")


def test_wrong_deltas_of_an_exhausted_putian_hand_pt_7_5() -> None:
    """PT-7.5: an exhausted hand pays nothing."""
    hand = pt(["", "", "", ""], pad="mps")
    hand.discard(0, hand.deal[0][0]).exhaust(1)
    hand.end("exhausted", [1, -1, 0, 0])
    assert_rejected(hand, "PT-7.5", event=len(hand.events), words="settlement")


# == Sichuan (SC) ===================================================================


def test_a_chow_in_sichuan_sc_3() -> None:
    """SC-3: Sichuan has no chow."""
    hand = sc(["1m", "23m", "", ""], pad="mp").dingques("ssss")
    hand.discard(0, "1m")
    bad = hand.next
    hand.chi(1, "23m")
    assert_rejected(stop(hand), "SC-3", event=bad, words="chi")


def test_a_discard_outside_the_void_suit_while_holding_it_sc_2() -> None:
    """SC-2: Ann named s void and holds 1s; every discard must be s until it is gone."""
    hand = sc(["1s", "", "", ""], pad="mp").dingques("spps")
    bad = hand.next
    hand.discard(0, hand.deal[0][1])
    assert_rejected(stop(hand), "SC-2", event=bad, words="void")


def test_a_pung_of_the_void_suit_sc_2() -> None:
    """SC-2: Cal named s void; he may not pung Ann's 1s even holding two."""
    hand = sc(["1s", "", "11s", ""], pad="mp").dingques("ssss")
    hand.discard(0, "1s")
    bad = hand.next
    hand.peng(2)
    assert_rejected(stop(hand), "SC-2", event=bad, words="void")


def test_a_concealed_kong_of_the_void_suit_sc_2() -> None:
    """SC-2: no kong of the void suit either: Ann holds 1s 1s 1s 1s, void s."""
    hand = sc(["1111s", "", "", ""], pad="mp").dingques("ssss")
    bad = hand.next
    hand.gang(0, "concealed", "1s")
    assert_rejected(stop(hand), "SC-2", event=bad, words="void")


def test_a_win_while_holding_the_void_suit_sc_4_2() -> None:
    """SC-4.2: Ben named p void; 111m 222m 333m 444m 1p 1p is a complete shape but
    holds his void suit."""
    hand = sc(["", "111m222m333m444m1p", "", ""], pad="mp", front="1p").dingques("sppp")
    hand.discard(0, hand.deal[0][0]).draw(1)
    bad = hand.next
    hand.hu(1)
    assert_rejected(hand.end("win"), "SC-4.2", event=bad, words="void")


def test_a_discard_win_while_holding_the_void_suit_sc_4_2() -> None:
    """SC-4.2: the same on a discard: Ben (void p) holds 111m 222m 333m 444m 1p and
    claims Ann's 1p for the pair."""
    hand = sc(["1p", "111m222m333m444m1p", "", ""], pad="mp").dingques("sppp")
    hand.discard(0, "1p")
    bad = hand.next
    hand.ron(1)
    assert_rejected(hand.end("win"), "SC-4.2", event=bad, words="void")


def test_a_missing_dingque_sc_2() -> None:
    """SC-2: every player names a void suit after the deal; Dee has not when Ann
    discards."""
    hand = sc(["", "", "", ""], pad="mp")
    hand.dingque(0, "s").dingque(1, "s").dingque(2, "s")
    bad = hand.next
    hand.discard(0, hand.deal[0][0])
    assert_rejected(stop(hand), "SC-2", event=bad, words="void")


def test_a_second_dingque_sc_2() -> None:
    """SC-2: one void suit per player; Ben names a second one."""
    hand = sc(["", "", "", ""], pad="mp")
    hand.dingque(0, "s").dingque(1, "s")
    bad = hand.next
    hand.dingque(1, "m")
    assert_rejected(stop(hand), "SC-2", event=bad, words="already")


def test_a_dingque_during_play_sc_2() -> None:
    """SC-2: void suits are named right after the deal, not after the first discard."""
    hand = sc(["", "", "", ""], pad="mp").dingques("ssss")
    hand.discard(0, hand.deal[0][0])
    bad = hand.next
    hand.dingque(1, "m")
    assert_rejected(stop(hand), "SC-2", event=bad)


def test_a_pung_by_a_player_who_has_won_sc_3_2() -> None:
    """SC-3.2: Ben (111m 234m 567p 99m 55p) wins on Ann's 5p and leaves the hand;
    he still shows 9m 9m but may not pung Dee's 9m."""
    hand = sc(["5p", "111m234m567p99m55p", "", "9m"], pad="mp", front="8p8p")
    hand.dingques("ssss").discard(0, "5p").ron(1)
    hand.draw(2).discard(2).draw(3).discard(3, "9m")
    bad = hand.next
    hand.peng(1)
    assert_rejected(stop(hand), "SC-3.2", event=bad, words="won")


def test_a_second_win_by_the_same_player_sc_3_2() -> None:
    """SC-3.2: a winner leaves the hand; Ben can't win again on a later discard."""
    hand = sc_discard_5p(front="8m")
    hand.ron(1).draw(2).discard(2, "9p")
    bad = hand.next
    hand.ron(1)
    assert_rejected(hand.end("win"), "SC-3.2", event=bad, words="won")


def test_a_draw_by_a_player_who_has_won_sc_3_2() -> None:
    """SC-3.2: after Ben and Cal win on Ann's 5p, Ben (out of the hand) draws."""
    hand = sc_discard_5p(seat3="")
    hand.ron(1).ron(2)
    bad = hand.next
    hand.draw(1)
    assert_rejected(stop(hand), "SC-3.2", event=bad)


def test_the_wrong_next_turn_after_two_winners_sc_3_2() -> None:
    """SC-3.2: after Ben and Cal win on Ann's discard, play goes on from the seat after
    the last winner: Dee draws, not Ann; the refusal names SC-3.2, the rule that says whose
    turn it is once someone has won."""
    hand = sc_discard_5p(seat3="")
    hand.ron(1).ron(2)
    bad = hand.next
    hand.draw(0)
    assert_rejected(stop(hand), "SC-3.2", event=bad, words="Dee")


def test_a_draw_by_the_seat_after_the_first_winner_sc_3_2() -> None:
    """SC-3.2: Ben and Dee win on Ann's discard; the turn goes to the first player still in
    after the last winner (Ann), so Cal, the seat after the first winner, may not draw."""
    hand = sc_discard_5p()
    hand.ron(1).ron(3)
    bad = hand.next
    hand.draw(2)
    assert_rejected(stop(hand), "SC-3.2", event=bad, words="Ann")


def test_winners_on_one_discard_out_of_playing_order_sc_3_1() -> None:
    """SC-3.1: several winners on one discard are recorded in playing order after the
    discarder (Ben, then Cal); Cal comes first here."""
    hand = sc_discard_5p(seat3="")
    hand.ron(2)
    bad = hand.next
    hand.ron(1)
    assert_rejected(hand.end("win"), "SC-3.1", event=bad, words="order")


def test_a_pung_of_a_discard_that_was_won_sc_3_1() -> None:
    """SC-3.1: a win beats a pung: Ben wins on Ann's 9p, then Dee pungs it."""
    hand = sc(["9p", "111m234m678p789m9p", "", "99p"], pad="mp")
    hand.dingques("ssss").discard(0, "9p").ron(1)
    bad = hand.next
    hand.peng(3)
    assert_rejected(stop(hand), "SC-3.1", event=bad, words="win")


def test_ending_as_a_win_with_two_winners_sc_3_2() -> None:
    """SC-3.2: the others play on until three have won or the wall runs out; after
    two wins the hand can't end as a win."""
    hand = sc_discard_5p(seat3="").ron(1).ron(2)
    bad = hand.next
    hand.end("win", [-2, 1, 1, 0])
    assert_rejected(hand, "SC-3.2", event=bad)


def test_a_second_robber_recorded_as_a_discard_win_sc_5_18() -> None:
    """SC-5.18, SC-3.1: Ben adds a kong of 4m and Cal robs it; Dee, also waiting on
    4m, wins on the same kong tile — a second robbing (抢杠胡, +1 fan), not a win on a
    discard: Ben's last discard was another tile. A plain ``hu`` with a target (a win
    on a discard) is no record of it."""
    hand = sc(["4m35m111p222p333p99m", "44m", "56m555p666p777p88m", "23m888p999p777m66m"],
              pad="mp", front="1s2s3s4m")
    hand.dingques("ssss").discard(0, "4m").peng(1).discard(1, hand.deal[1][2])
    hand.cycle(2, 3).draw(1).gang(1, "added", "4m")
    hand.hu(2, "4m", target=1, how="robbing_kong")
    bad = hand.next
    hand.hu(3, "4m", target=1)
    error = rejection(single(hand.end("abandoned")))
    assert (error.hand, error.event) == (1, bad), str(error)
    assert error.rule in ("SC-5.18", "C-2"), str(error)


def test_robbing_a_concealed_kong_sc_5_18() -> None:
    """SC-5.18: a concealed kong can't be robbed. Ben declares one of 4m; Cal,
    waiting on 4m, claims it."""
    hand = sc(["", "444m", "111p222p333p56m77m", ""], pad="mp", front="4m", back="1s")
    hand.dingques("ssss").discard(0, hand.deal[0][0]).draw(1).gang(1, "concealed", "4m")
    bad = hand.next
    hand.hu(2, "4m", target=1, how="robbing_kong")
    assert_rejected(hand.end("win"), "SC-5.18", event=bad)


def test_a_sichuan_hu_that_is_no_win_sc_4_1() -> None:
    """SC-4.1: four sets and a pair, or seven pairs; Ben's tiles are neither."""
    hand = sc(["", "1357m2468p1357m", "", ""], pad="mp", front="9p")
    hand.dingques("ssss").discard(0, hand.deal[0][0]).draw(1)
    bad = hand.next
    hand.hu(1)
    assert_rejected(hand.end("win"), "SC-4.1", event=bad)


def test_wrong_deltas_of_three_winners_on_one_discard_sc_6_1() -> None:
    """SC-6.1: Ben, Cal and Dee each win 平胡 (1 fan = 1 point) on Ann's 5p, and the
    discarder pays each: [-3, 1, 1, 1]. The log makes Ann pay only Ben."""
    hand = sc_discard_5p().ron(1).ron(2).ron(3).end("win", [-1, 1, 0, 0])
    assert_rejected(hand, "SC-6.1", event=len(hand.events), words="settlement")


def test_wrong_deltas_of_a_self_draw_sc_6_2() -> None:
    """SC-6.2: after Ben and Cal win on Ann's 5p (1 each), Dee self-draws 9m on 666m
    777m 888m 123p 9m, her first draw with no pung or kong yet: 地胡 6 + 自摸 1,
    capped at 4 fan = 8 points, paid by every player still in — only Ann: deltas
    [-10, 1, 1, 8]. The log has Ben and Cal paying Dee too."""
    hand = sc_discard_5p(seat3="666m777m888m123p9m", front="9m")
    hand.ron(1).ron(2).draw(3)
    hand.hu(3).end("win", [-2, -2, -2, 6])
    assert_rejected(hand, "SC-6.2", event=len(hand.events), words="settlement")


def test_wrong_deltas_of_an_exhausted_hand_sc_6_4() -> None:
    """SC-6.4 (b) 查大叫: the wall runs out with Ben ready (111m 234m 567p 789p 5p:
    1 point at best) and the others neither ready nor 花猪: each pays Ben 1. The
    log says nobody pays."""
    hand = sc_exhausted().end("exhausted", [0, 0, 0, 0])
    assert_rejected(hand, "SC-6.4", event=len(hand.events), words="settlement")


# == Mutated bot logs ===============================================================


def bot_doc(variant: str, seed: int, hands: int = 1) -> Doc:
    return write_log(simulate(variant, hands, seed))


@pytest.mark.parametrize("variant", ["jiaxing", "putian", "sichuan"])
def test_a_bot_log_with_one_draw_changed_c_5(variant: str) -> None:
    """C-5: in a bot-played hand, the 5th normal draw is changed to a tile that is
    not the front of the wall."""
    doc = bot_doc(variant, 3)
    events = doc["hands"][0]["events"]
    draws = [i for i, e in enumerate(events) if e["type"] == "draw" and "from" not in e]
    index = draws[4]
    wall_tile = events[index]["tile"]
    events[index]["tile"] = "1m" if wall_tile != "1m" else "2m"
    assert_rejected(doc, "C-5", event=index + 1, words="front")


@pytest.mark.parametrize("variant", ["jiaxing", "putian", "sichuan"])
def test_a_bot_log_with_a_discard_removed_c_2(variant: str) -> None:
    """C-2: removing a discard from a bot-played hand leaves its player holding a
    tile too many when the next player draws."""
    doc = bot_doc(variant, 4)
    events = doc["hands"][0]["events"]
    index = next(i for i, e in enumerate(events)
                 if e["type"] == "discard" and i + 1 < len(events)
                 and events[i + 1]["type"] == "draw" and i > 10)
    del events[index]
    assert_rejected(doc, "C-2", event=index + 1)


@pytest.mark.parametrize("variant", ["jiaxing", "putian", "sichuan"])
def test_a_bot_log_with_wrong_deltas_names_a_settlement_rule(variant: str) -> None:
    """JX-10 / PT-7 / SC-6: a bot-played hand with one unit moved between two seats
    in ``end.deltas`` is rejected by a settlement rule of its variant."""
    doc = bot_doc(variant, 1)
    end = doc["hands"][0]["events"][-1]
    end["deltas"][0] += 1
    end["deltas"][1] -= 1
    prefix = {"jiaxing": "JX-10", "putian": "PT-7", "sichuan": "SC-6"}[variant]
    error = rejection(doc)
    assert (error.hand, error.event) == (1, len(doc["hands"][0]["events"]))
    assert error.rule is not None and error.rule.startswith(prefix), str(error)
    assert "settlement" in error.message


def test_a_bot_log_with_the_second_hand_dealt_by_the_wrong_seat_jx_3() -> None:
    """JX-3: a two-hand bot match with hand 2's dealer moved one seat on."""
    doc = bot_doc("jiaxing", 1, hands=2)
    hand = doc["hands"][1]
    hand["dealer"] = (hand["dealer"] + 1) % 4
    # keep the deal's sizes right for the new dealer: swap the two starting hands
    old = (hand["dealer"] + 3) % 4
    hand["deal"][old], hand["deal"][hand["dealer"]] = (hand["deal"][hand["dealer"]],
                                                       hand["deal"][old])
    assert_rejected(doc, "JX-3", hand=2, words="dealer")


def test_a_bot_hand_cut_short_has_no_end() -> None:
    """LOG-FORMAT: a hand's last event is ``end``; cutting a bot hand short is
    rejected by the reader, naming the hand and its last event."""
    doc = bot_doc("sichuan", 2)
    events = doc["hands"][0]["events"]
    del events[-1]
    with pytest.raises(LogError) as caught:
        loads(json.dumps(doc))
    assert (caught.value.hand, caught.value.event) == (1, len(events))
    assert "end" in caught.value.message


def test_the_validate_command_reports_the_first_problem() -> None:
    """ENGINE-CLI: ``python -m games validate FILE`` exits 1 and names hand, event,
    rule and message of the problem (here JX-2.2 at hand 1, event 2)."""
    hand = jx(["7z", "", "7z", ""])
    hand.discard(0, "7z").peng(2)
    doc = single(stop(hand))
    run = subprocess.run([sys.executable, "-m", "games", "validate", "-"],
                         input=json.dumps(doc), capture_output=True, text=True, cwd=ROOT,
                         timeout=60, check=False)
    assert run.returncode == 1, run.stdout + run.stderr
    answer = json.loads(run.stdout)
    assert answer["ok"] is False
    assert {k: answer["error"][k] for k in ("hand", "event", "rule")} == {
        "hand": 1, "event": 2, "rule": "JX-2.2"}
    assert "7z" in answer["error"]["message"]


def test_the_unmutated_bot_logs_are_valid() -> None:
    """Sanity check of the fixtures above: the unmutated bot logs are accepted and
    every event of them replays (so each rejection above is the mutation's)."""
    for variant in ("jiaxing", "putian", "sichuan"):
        for seed in (1, 3, 4):
            doc = bot_doc(variant, seed)
            original = copy.deepcopy(doc)
            assert sum(1 for _ in tables_before_events(doc)) > 0
            assert doc == original
