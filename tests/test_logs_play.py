"""Valid hand histories: each play rule accepted, with the effect RULES.md gives it.

The documents are written hand by hand with :mod:`tests.logbuild` (a chosen deal
and a complete wall) or played by the bots. Every expected number — who deals,
the round wind, the bank, each seat's delta — is worked out from RULES.md in
the test's docstring, never read from the engine. Besides each rule's own
check, every hand-written document here is also replayed event by event to
check that each event was among ``Table.legal_actions()`` just before it, and
that it survives ``write_log(read_log(doc)) == doc``.

Unless a test says otherwise: seat 0 (Ann) deals, then Ben, Cal and Dee; base 1;
Jiaxing's indicator is 8s and its wildcard 9s (no hand holds one); Putian's
golds are 9p and 9s; nobody holds a tile that changes the sums.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.bots.simulation import simulate
from games.core.table import Phase
from games.records.log import read_log, write_log
from games.records.match import MatchResult

from .logbuild import (
    EARTHLY,
    SC_WAIT_2,
    SC_WAIT_3,
    HandBuilder,
    document,
    jx_added_kong,
    jx_contract,
    jx_earthly,
    roundtrip,
    run,
    sc_discard_5p,
    sc_exhausted,
    sc_pig_and_kong,
    single,
    table_after,
    tables_before_events,
)

Doc = dict[str, Any]
VALID: dict[str, Callable[[], Doc]] = {}


def valid(factory: Callable[[], Doc]) -> Callable[[], Doc]:
    """Register a document factory for the legal-actions and round-trip checks."""
    VALID[factory.__name__] = factory
    return factory


def jx(deal: list[str], **fields: Any) -> HandBuilder:
    return HandBuilder("jiaxing", deal, **fields)


def pt(deal: list[str], **fields: Any) -> HandBuilder:
    return HandBuilder("putian", deal, **fields)


def sc(deal: list[str], **fields: Any) -> HandBuilder:
    return HandBuilder("sichuan", deal, **fields)


def deltas(result: MatchResult) -> list[list[int]]:
    return [hand.deltas for hand in result.hands]


def pattern_ids(result: MatchResult, hand: int = 1, win: int = 0) -> list[str]:
    return [hit.pattern.id for hit in result.hands[hand - 1].wins[win].score.patterns]


def exhausted(hand: HandBuilder, seat: int) -> HandBuilder:
    """Play on (draw, discard) from ``seat`` until the wall is empty, then end."""
    return hand.exhaust(seat).end("exhausted", [0, 0, 0, 0])


# == Jiaxing play (JX-2) ============================================================


@valid
def doc_jx_pung() -> Doc:
    """Ann discards 7z; Cal pungs it (skipping Ben) and discards 1p without drawing;
    Dee draws next; the hand runs out."""
    hand = jx(["7z", "", "77z1p", ""], pad="mps")
    hand.discard(0, "7z").peng(2).discard(2, "1p")
    return single(exhausted(hand, 3))


def test_a_pung_by_any_seat_then_a_discard_without_drawing_jx_2_2_jx_2_7() -> None:
    """JX-2.2, JX-2.7: the claimer discards at once (13 − 2 = 11 concealed, then 10
    after the discard, beside the pung), and the turn passes to the seat after him."""
    doc = doc_jx_pung()
    table = table_after(doc, events=3)
    cal = table.seats[2]
    assert [(m.type, str(m.first)) for m in cal.melds] == [("peng", "7z")]
    assert cal.size == 10
    assert table.phase is Phase.DISCARDED and table.last_discard is not None
    assert [a.event.to_json() for a in table.legal_actions() if a.note == "pass"] == [
        {"type": "draw", "actor": 3, "tile": doc["hands"][0]["events"][3]["tile"]}]
    assert deltas(run(doc)) == [[0, 0, 0, 0]]


@valid
def doc_jx_chow() -> Doc:
    """Ann discards 3m; Ben (her next seat) chows it with 4m 5m and discards 1z."""
    hand = jx(["3m", "45m1z", "", ""], pad="ps")
    hand.discard(0, "3m").chi(1, "45m").discard(1, "1z")
    return single(exhausted(hand, 2))


def test_a_chow_by_the_next_seat_jx_2_1() -> None:
    """JX-2.1: only the discarder's next seat chows; the chow 345m is Ben's meld."""
    doc = doc_jx_chow()
    table = table_after(doc, events=3)
    assert [(m.type, str(m.first)) for m in table.seats[1].melds] == [("chi", "3m")]
    run(doc)


@valid
def doc_jx_kong_bloom() -> Doc:
    """Ben holds 1111p 222p 333p 44p 5p. After one ordinary turn (1z drawn and
    discarded) he draws 6p, declares a concealed kong of 1p, draws 7p from the back
    and wins: 1111p 222p 333p 567p 44p."""
    hand = jx(["", "1111p222p333p44p5p", "", ""], front="1z2z3z4z6p", back="7p")
    hand.discard(0, hand.deal[0][0]).draw(1).discard(1).cycle(2, 3)
    hand.draw(1).gang(1, "concealed", "1p").draw(1, back=True).hu(1)
    return single(hand.end("win", [-10, 30, -10, -10]))


def test_a_kong_replacement_from_the_back_wins_with_kong_bloom_jx_2_5_jx_7_2() -> None:
    """JX-2.5, JX-7.2: the replacement comes from the back (7p); winning on it is
    杠上开花. 清一色 4 + 无百搭 1 = 5 tai (a chow: no 对对和), 1 fan: 10 from each."""
    result = run(doc_jx_kong_bloom())
    assert deltas(result) == [[-10, 30, -10, -10]]
    assert "JX-7.2" in pattern_ids(result)
    assert (result.hands[0].wins[0].score.tai, result.hands[0].wins[0].score.fan) == (5, 1)


@valid
def doc_jx_exposed_kong() -> Doc:
    """Ann discards 7z; Cal, holding three, makes an exposed kong, draws his
    replacement from the back and discards it."""
    hand = jx(["7z", "", "777z", ""], pad="mps", back="1z")
    hand.discard(0, "7z").gang(2, "exposed").draw(2, back=True).discard(2)
    return single(exhausted(hand, 3))


def test_an_exposed_kong_and_its_replacement_jx_2_3_jx_2_5() -> None:
    """JX-2.3, JX-2.5: the kong is Cal's meld and its replacement is the back tile."""
    doc = doc_jx_exposed_kong()
    table = table_after(doc, events=3)
    assert [(m.type, m.gang_kind, str(m.first)) for m in table.seats[2].melds] == [
        ("gang", "exposed", "7z")]
    assert table.seats[2].size == 13 - 3 + 1  # three from hand, the replacement drawn
    run(doc)


@valid
def doc_jx_added_kong() -> Doc:
    """Cal pungs 4m and later adds the fourth (JX-2.4); nobody robs (Dee holds
    nothing that wins on 4m); Cal draws the replacement and discards it."""
    hand = jx_added_kong("")
    hand.draw(2, back=True).discard(2)
    return single(exhausted(hand, 3))


def test_an_added_kong_jx_2_4() -> None:
    """JX-2.4: the pung of 4m becomes an added kong; the replacement is Cal's."""
    doc = doc_jx_added_kong()
    hand = doc["hands"][0]
    at = next(i for i, e in enumerate(hand["events"]) if e["type"] == "gang") + 2
    table = table_after(doc, events=at)
    assert [(m.type, m.gang_kind, str(m.first)) for m in table.seats[2].melds] == [
        ("gang", "added", "4m")]
    run(doc)


@valid
def doc_jx_robbing() -> Doc:
    """Dee, holding 111m 222m 333m 56m 77z, robs Cal's added 4m."""
    hand = jx_added_kong("111m222m333m56m77z")
    hand.hu(3, "4m", target=2, how="robbing_kong")
    return single(hand.end("win", [0, 0, -9, 9]))


def test_robbing_an_added_kong_jx_8_jx_10_4() -> None:
    """JX-8, JX-10.4: 111m 222m 333m 456m 77z is 混一色 2 + 无百搭 1 = 3 tai; with no
    contract the robbed Cal pays ×3 = 9 and nobody else pays. The kong does not
    happen: Cal keeps a pung of 4m."""
    doc = doc_jx_robbing()
    result = run(doc)
    assert deltas(result) == [[0, 0, -9, 9]]
    assert [(m.type, str(m.first)) for m in result.hands[0].table.seats[2].melds] == [
        ("peng", "4m")]


@valid
def doc_jx_last_claim() -> Doc:
    """After 78 draws 4 tiles are left; Cal discards 7z and Ann pungs it."""
    hand = jx(["77z", "", "7z", ""], pad="mps")
    hand.discard(0, hand.deal[0][2]).cycle(1, 77).draw(2).discard(2, "7z")
    assert hand.left == 4
    hand.peng(0).discard(0, hand.deal[0][3])
    return single(exhausted(hand, 1))


def test_a_claim_with_exactly_four_tiles_left_jx_2_8() -> None:
    """JX-2.8: claims are allowed while at least 4 tiles remain."""
    assert deltas(run(doc_jx_last_claim())) == [[0, 0, 0, 0]]


@valid
def doc_jx_wildcard_discard() -> Doc:
    """Ann discards the wildcard 9s on her first turn (JX-2.9 allows it)."""
    hand = jx(["9s", "", "", ""], pad="mpz")
    hand.discard(0, "9s")
    return single(exhausted(hand, 1))


def test_a_wildcard_may_be_discarded_jx_2_9() -> None:
    """JX-2.9: wildcards can't be claimed or melded, but may be discarded."""
    run(doc_jx_wildcard_discard())


# == Jiaxing wins (JX-5, JX-7) ======================================================


@valid
def doc_jx_heavenly() -> Doc:
    """Ann's dealt 14 tiles 111m 222m 333m 444m 55m win at once."""
    hand = jx(["111m222m333m444m55m", "", "", ""])
    return single(hand.hu(0, "5m").end("win", [84, -28, -28, -28]))


@valid
def doc_jx_last_tile() -> Doc:
    """Cal holds 111p 222p 333p 444p 5p; the wall's last tile is 5p, which Cal draws
    (the 82nd draw) and wins on."""
    hand = jx(["", "", EARTHLY, ""], back="5p", pad="mz")
    hand.discard(0, hand.deal[0][0]).cycle(1, 81).draw(2)
    assert hand.left == 0 and hand.last_drawn == "5p"
    return single(hand.hu(2).end("win", [-14, -14, 42, -14]))


def test_a_win_on_the_last_tile_jx_7_6() -> None:
    """JX-7.6: 7 tai, 海底捞月 1 fan: 14 from each."""
    result = run(doc_jx_last_tile())
    assert deltas(result) == [[-14, -14, 42, -14]]
    assert "JX-7.6" in pattern_ids(result)


def test_the_dealers_dealt_hand_wins_jx_7_7() -> None:
    """JX-7.7: 清一色 4 + 对对和 2 + 无百搭 1 = 7 tai, 天和 2 fan: 28 from each."""
    result = run(doc_jx_heavenly())
    assert deltas(result) == [[84, -28, -28, -28]]
    assert "JX-7.7" in pattern_ids(result)


@valid
def doc_jx_earthly() -> Doc:
    """Ben's first draw (5p) completes 111p 222p 333p 444p 55p."""
    return single(jx_earthly().end("win", [-28, 84, -28, -28]))


def test_a_self_drawn_win_jx_5_1_jx_7_8_jx_10_1() -> None:
    """JX-5.1, JX-7.8, JX-10.1: 7 tai (as above), 地和 2 fan: each other pays 28."""
    result = run(doc_jx_earthly())
    assert deltas(result) == [[-28, 84, -28, -28]]
    assert "JX-7.8" in pattern_ids(result)


@valid
def doc_jx_no_earthly_after_a_claim() -> Doc:
    """Ann discards 7z and Cal pungs it before Ben's first draw; Ben then draws 5p and
    wins with :data:`EARTHLY`."""
    hand = jx(["7z", EARTHLY, "77z", ""], front="1s2s5p", pad="mz")
    hand.discard(0, "7z").peng(2).discard(2, hand.deal[2][2]).cycle(3, 2).draw(1).hu(1)
    return single(hand.end("win", [-7, 21, -7, -7]))


def test_no_earthly_hand_once_a_claim_was_made_jx_7_8() -> None:
    """JX-7.8 (Reading: no claim made yet): Ben's first draw wins, but after Cal's
    pung it is no 地和: 7 tai, 0 fan, 7 from each."""
    result = run(doc_jx_no_earthly_after_a_claim())
    assert deltas(result) == [[-7, 21, -7, -7]]
    assert "JX-7.8" not in pattern_ids(result)


@valid
def doc_jx_double_wind() -> Doc:
    """Ann (East, in the East round) wins on her dealt 111z 222m 333m 444m 55m."""
    hand = jx(["111z222m333m444m55m", "", "", ""], pad="psz")
    return single(hand.hu(0, "5m").end("win", [84, -28, -28, -28]))


def test_an_east_pung_for_the_east_dealer_in_the_east_round_jx_6_4() -> None:
    """JX-6.4: the East pung is 1 for the round wind + 1 for the seat wind; with 混一色
    2, 对对和 2 and 无百搭 1 that is 7 tai; 天和 2 fan: 28 from each."""
    result = run(doc_jx_double_wind())
    assert deltas(result) == [[84, -28, -28, -28]]
    wind = [hit.value for hit in result.hands[0].wins[0].score.patterns
            if hit.pattern.id == "JX-6.4"]
    assert wind == [2]


@valid
def doc_jx_all_pungs_three_suits() -> Doc:
    """Ben: 111m 222p 333s 777z 5p, draws 5p at once."""
    hand = jx(["", "111m222p333s777z5p", "", ""], front="5p", pad="mz")
    hand.discard(0, hand.deal[0][0]).draw(1).hu(1)
    return single(hand.end("win", [-16, 48, -16, -16]))


def test_all_pungs_meets_the_requirement_in_three_suits_jx_5_3() -> None:
    """JX-5.3, JX-6: 对对和 2 + 红中刻 1 + 无百搭 1 = 4 tai, 地和 2 fan: 16 each."""
    assert deltas(run(doc_jx_all_pungs_three_suits())) == [[-16, 48, -16, -16]]


@valid
def doc_jx_wildcard_pair() -> Doc:
    """Ben: 111p 222p 333p 444p and the wildcard 9s; he draws 5p, which pairs with
    the wildcard."""
    hand = jx(["", "111p222p333p444p9s", "", ""], front="5p", pad="mz")
    hand.discard(0, hand.deal[0][0]).draw(1).hu(1)
    return single(hand.end("win", [-24, 72, -24, -24]))


def test_a_wildcard_stands_for_the_tile_it_completes_c_4_jx_5_3() -> None:
    """C-4, JX-5.3: the wildcard is read as 5p: 清一色 4 + 对对和 2 = 6 tai (no 无百搭),
    地和 2 fan: 24 from each."""
    assert deltas(run(doc_jx_wildcard_pair())) == [[-24, 72, -24, -24]]


@valid
def doc_jx_declined_win() -> Doc:
    """Ben (ready on 5p) draws 5p and discards it instead of winning; a round later he
    draws the next 5p and wins."""
    hand = jx(["", EARTHLY, "", ""], front="5p1z2z3z5p", pad="mz")
    hand.discard(0, hand.deal[0][0]).draw(1).discard(1, "5p").cycle(2, 3)
    hand.draw(1).hu(1)
    return single(hand.end("win", [-7, 21, -7, -7]))


def test_a_declined_win_lets_the_player_play_on() -> None:
    """LOG-FORMAT (declined wins are not recorded): the win was offered and passed
    over; the later win is no longer 地和 (Ben had discarded): 7 tai, 0 fan."""
    doc = doc_jx_declined_win()
    table = table_after(doc, events=2)
    assert {"type": "hu", "actor": 1, "tile": "5p"} in [
        a.event.to_json() for a in table.legal_actions()]
    assert deltas(run(doc)) == [[-7, 21, -7, -7]]


# == Jiaxing contracts and settlement (JX-9, JX-10) =================================


@valid
def doc_jx_contract_persist() -> Doc:
    """Ben chows Ann three times (a contract); Cal and Dee persist; Ben draws 2z and
    wins 123m 456m 789m 111z 22z."""
    hand = jx_contract(tail="7s1p2p2z")
    hand.discard(1, "5z").cycle(2, 3).draw(1).hu(1)
    return single(hand.end("win", [-20, 36, -8, -8]))


def test_a_contract_win_by_a_partner_jx_9_jx_10_2() -> None:
    """JX-9, JX-10.2: 混一色 2 + East (round wind) pung 1 + 无百搭 1 = 4 tai. The
    partner Ann pays ×5 = 20; Cal and Dee persisted and pay ×2 = 8."""
    result = run(doc_jx_contract_persist())
    assert deltas(result) == [[-20, 36, -8, -8]]
    assert result.hands[0].table.contracts == [(1, 0)]


@valid
def doc_jx_contract_give_up() -> Doc:
    """As above, but Dee gives up; she then only draws and discards."""
    hand = jx_contract(("persist", "give_up"), tail="7s1p2p2z")
    hand.discard(1, "5z").cycle(2, 3).draw(1).hu(1)
    return single(hand.end("win", [-20, 28, -8, 0]))


def test_a_player_who_gave_up_pays_nothing_jx_9() -> None:
    """JX-9, JX-10.2: Dee gave up and pays 0; the rest as above."""
    doc = doc_jx_contract_give_up()
    assert deltas(run(doc)) == [[-20, 28, -8, 0]]
    events = doc["hands"][0]["events"]
    dee_turn = next(i for i, e in enumerate(events)
                    if e["type"] == "draw" and e["actor"] == 3 and i > 20)
    table = table_after(doc, events=dee_turn + 1)
    assert {a.event.type for a in table.legal_actions()} == {"discard"}


@valid
def doc_jx_contract_outsider() -> Doc:
    """Ann–Ben contract; Cal (111p 222p 333p 444p 5p) then draws 5p and wins."""
    hand = jx_contract(seat2=EARTHLY, tail="5p")
    hand.discard(1, "5z").draw(2).hu(2)
    return single(hand.end("win", [-14, -14, 35, -7]))


def test_a_contract_win_by_an_outsider_jx_10_3() -> None:
    """JX-10.3: 清一色 4 + 对对和 2 + 无百搭 1 = 7 tai, no fan (Cal had discarded): the
    pair in the contract pay ×2 = 14 each, Dee ×1 = 7."""
    assert deltas(run(doc_jx_contract_outsider())) == [[-14, -14, 35, -7]]


# == Jiaxing across hands (JX-3, JX-7.11) ===========================================

WILD = [("8s", "9s"), ("1s", "2s"), ("6p", "7p"), ("3s", "4s"), ("5s", "6s"), ("7p", "8p")]
"""(indicator, wildcard) per hand, all different (so no 百搭连庄 is banked) and none
of them a tile of :data:`EARTHLY` (1p–5p)."""


@valid
def doc_jx_rotation() -> Doc:
    """Five hands: in each, the seat after the dealer wins an earthly hand (7 tai ×
    2² = 28 from each). Dealers 0, 1, 2, 3, then 0 again in the South round."""
    hands = []
    for number, dealer in enumerate([0, 1, 2, 3, 0]):
        indicator, wildcard = WILD[number]
        wind = "E" if number < 4 else "S"
        hand = jx_earthly(dealer, indicator=indicator, wildcard=wildcard, round_wind=wind)
        winner = (dealer + 1) % 4
        hand.end("win", [84 if seat == winner else -28 for seat in range(4)])
        hands.append(hand)
    return document("jiaxing", *hands)


def test_the_deal_passes_on_and_the_round_wind_turns_jx_3() -> None:
    """JX-3: a non-dealer win passes the deal to the next seat; when it returns to
    seat 0 after all four have dealt, the round wind moves from East to South."""
    result = run(doc_jx_rotation())
    assert [h.table.dealer for h in result.hands] == [0, 1, 2, 3, 0]
    assert [h.table.setup.round_wind for h in result.hands] == [0, 0, 0, 0, 1]
    # Ben won hands 1 and 5, Cal 2, Dee 3, Ann 4: +84 for a win, −28 otherwise.
    assert result.totals == [-28, 2 * 84 - 3 * 28, -28, -28]


@valid
def doc_jx_dealer_stays() -> Doc:
    """Hand 1: Ann's 天和; hand 2: Ann deals again and the wall runs out; hand 3: Ann
    still deals (bank [huangfan]); Ben wins an earthly hand with the banked 黄番."""
    first = jx(["111m222m333m444m55m", "", "", ""]).hu(0, "5m")
    first.end("win", [84, -28, -28, -28])
    second = jx(["", "", "", ""], pad="mps", indicator="1m", wildcards=["2m"], bank=[])
    second.discard(0, second.deal[0][0]).exhaust(1).end("exhausted", [0, 0, 0, 0])
    third = jx_earthly(0, indicator="1s", wildcard="2s", bank=["huangfan"])
    third.end("win", [-56, 168, -56, -56])
    return document("jiaxing", first, second, third)


def test_the_dealer_stays_after_a_dealer_win_or_an_exhausted_hand_jx_3_jx_7_4() -> None:
    """JX-3: Ann deals all three hands. JX-7.4, JX-7.11: the exhausted hand banks
    黄番, which Ben's win uses: 7 tai × 2^(2 + 1) = 56 from each."""
    result = run(doc_jx_dealer_stays())
    assert [h.table.dealer for h in result.hands] == [0, 0, 0]
    assert [h.bank_after for h in result.hands] == [(), ("huangfan",), ()]
    assert deltas(result)[2] == [-56, 168, -56, -56]
    assert "JX-7.4" in pattern_ids(result, hand=3)


@valid
def doc_jx_bank() -> Doc:
    """Hand 1 rolls 3-3 (包子) and runs out (黄番): the bank is [baozi, huangfan].
    Hand 2: Ben wins an earthly hand (uses 包子). Hand 3 (Ben deals, 5-5: another 包子)
    starts from [huangfan]; Cal wins an earthly hand (uses 黄番)."""
    first = jx(["", "", "", ""], pad="mps", dice=(3, 3))
    first.discard(0, first.deal[0][0]).exhaust(1).end("exhausted", [0, 0, 0, 0])
    second = jx_earthly(0, indicator="1s", wildcard="2s", bank=["baozi", "huangfan"])
    second.end("win", [-56, 168, -56, -56])
    third = jx_earthly(1, indicator="6p", wildcard="7p", dice=(5, 5), bank=["huangfan"])
    third.end("win", [-56, -56, 168, -56])
    return document("jiaxing", first, second, third)


def test_carried_fans_are_banked_and_used_oldest_first_jx_7_11() -> None:
    """JX-7.9, JX-7.4, JX-7.11: each win counts one banked fan, the oldest, and removes
    it: 7 tai × 2^(2 + 1) = 56 from each in hands 2 and 3; hand 3's own 包子 waits."""
    result = run(doc_jx_bank())
    assert [h.bank for h in result.hands] == [
        ("baozi",), ("baozi", "huangfan"), ("huangfan", "baozi")]
    assert [h.bank_after for h in result.hands] == [
        ("baozi", "huangfan"), ("huangfan",), ("baozi",)]
    assert "JX-7.9" in pattern_ids(result, hand=2)
    assert "JX-7.4" in pattern_ids(result, hand=3)
    assert deltas(result)[1:] == [[-56, 168, -56, -56], [-56, -56, 168, -56]]


@valid
def doc_jx_same_wildcard() -> Doc:
    """Hand 1: Ann's 天和 (wildcard 9s). Hand 2 has the same wildcard 9s: 百搭连庄 is
    banked at its start and Ben's earthly win uses it."""
    first = jx(["111m222m333m444m55m", "", "", ""]).hu(0, "5m")
    first.end("win", [84, -28, -28, -28])
    second = jx_earthly(0, bank=[]).end("win", [-56, 168, -56, -56])
    return document("jiaxing", first, second)


def test_the_same_wildcard_again_is_a_carried_fan_jx_7_10() -> None:
    """JX-7.10: 7 tai × 2^(2 + 1) = 56 from each in hand 2."""
    result = run(doc_jx_same_wildcard())
    assert deltas(result)[1] == [-56, 168, -56, -56]
    assert "JX-7.10" in pattern_ids(result, hand=2)


@valid
def doc_jx_honour_wildcard() -> Doc:
    """The indicator is 6z, so the wildcard is Red 7z (an honour: 老头黄, banked at
    the hand's start and usable at once). Ben wins an earthly hand."""
    return single(jx_earthly(indicator="6z", wildcard="7z").end("win", [-56, 168, -56, -56]))


def test_an_honour_wildcard_is_a_carried_fan_usable_at_once_jx_7_5() -> None:
    """JX-7.5, JX-7.11: 7 tai × 2^(2 + 1) = 56 from each."""
    result = run(doc_jx_honour_wildcard())
    assert deltas(result) == [[-56, 168, -56, -56]]
    assert "JX-7.5" in pattern_ids(result)


# == Putian (PT) ====================================================================

PT_READY = "111m222m333m444m555m6m"
"""Putian, 16 tiles ready on 6m (the pair)."""


@valid
def doc_pt_passes() -> Doc:
    """Opening: Ann lays out her white and draws another white (it waits); Cal lays
    out two whites, drawing 2m and 3m; the second pass: Ann lays out the waiting
    white and draws 4m. Ann then discards 6m and Ben (ready on 6m) wins on it."""
    hand = pt(["5z6m", PT_READY, "5z5z", ""], pad="ps", back="5z2m3m4m")
    hand.flower(0).draw(0, back=True).flower(2).draw(2, back=True)
    hand.flower(2).draw(2, back=True).flower(0).draw(0, back=True)
    hand.discard(0, "6m").ron(1)
    return single(hand.end("win", [-2, 8, 0, -6]))


def test_the_opening_replacement_passes_and_flower_settlement_pt_3_1_pt_7_4() -> None:
    """PT-3.1, PT-3.3, PT-7.2, PT-7.4: Ann and Cal have 2 laid-out whites each (2
    points), Ben and Dee none. Each loser pays (1 + 0) × 2 = 2, Ann 2 more; then the
    losers settle: Dee pays Ann 2 and Cal 2. Ann −4 + 2, Cal −2 + 2, Dee −2 − 4."""
    doc = doc_pt_passes()
    result = run(doc)
    assert deltas(result) == [[-2, 8, 0, -6]]
    table = result.hands[0].table
    assert [s.flowers for s in table.seats] == [2, 0, 2, 0]


@valid
def doc_pt_white_in_play() -> Doc:
    """Ben draws a white in play, lays it out, draws 7p from the back and discards it;
    later Ann discards 6m and Ben wins on it with 1 laid-out white."""
    hand = pt(["6m", PT_READY, "", ""], pad="ps", front="5z1s2s3s", back="7p")
    hand.discard(0, hand.deal[0][1]).draw(1).flower(1).draw(1, back=True).discard(1)
    hand.cycle(2, 2).draw(0).discard(0, "6m").ron(1)
    return single(hand.end("win", [-6, 14, -4, -4]))


def test_a_white_drawn_in_play_is_replaced_at_once_pt_3_2() -> None:
    """PT-3.2, PT-6: the white counts 1 flower point for Ben: each loser pays
    (1 + 1) × 2 = 4, Ann 2 more."""
    doc = doc_pt_white_in_play()
    events = doc["hands"][0]["events"]
    assert [e["type"] for e in events[1:5]] == ["draw", "flower", "draw", "discard"]
    result = run(doc)
    assert deltas(result) == [[-6, 14, -4, -4]]
    assert result.hands[0].table.seats[1].flowers == 1


@valid
def doc_pt_golds_among_losers() -> Doc:
    """Ann holds the gold 9p, Cal the golds 9s 9s; Ben wins on Ann's 6m."""
    hand = pt(["6m9p", PT_READY, "9s9s", ""], pad="ps")
    return single(hand.discard(0, "6m").ron(1).end("win", [-4, 8, 1, -5]))


def test_losers_settle_their_gold_points_pt_7_4() -> None:
    """PT-6, PT-7.4: flower points Ann 1, Cal 2, Dee 0 (Ben, the winner, 0). Each loser
    pays 2 and Ann 2 more; then Ann pays Cal 1, Dee pays Ann 1 and Cal 2:
    Ann −4 − 1 + 1, Cal −2 + 1 + 2, Dee −2 − 1 − 2."""
    assert deltas(run(doc_pt_golds_among_losers())) == [[-4, 8, 1, -5]]


@valid
def doc_pt_discard_win() -> Doc:
    hand = pt(["6m", PT_READY, "", ""], pad="ps")
    return single(hand.discard(0, "6m").ron(1).end("win", [-4, 8, -2, -2]))


def test_a_win_on_a_discard_pt_5_2_pt_7_2() -> None:
    """PT-5.2, PT-7.2: Ben wins on Ann's 6m; all three losers pay (1 + 0) × 2 = 2,
    the dealer 2 more."""
    assert deltas(run(doc_pt_discard_win())) == [[-4, 8, -2, -2]]


@valid
def doc_pt_declined() -> Doc:
    """Ben could win on Ann's 6m but draws instead; later he self-draws the next 6m."""
    hand = pt(["6m", PT_READY, "", ""], pad="ps", front="1p2p3p4p6m")
    hand.discard(0, "6m").draw(1).discard(1).cycle(2, 3).draw(1).hu(1)
    return single(hand.end("win", [-4, 8, -2, -2]))


def test_a_declined_putian_win_pt_5_2() -> None:
    """PT-5.2: a player may decline a win and keep playing; the self-draw pays as
    PT-7.2 too."""
    doc = doc_pt_declined()
    table = table_after(doc, events=1)
    assert {"type": "hu", "actor": 1, "target": 0, "tile": "6m"} in [
        a.event.to_json() for a in table.legal_actions()]
    assert deltas(run(doc)) == [[-4, 8, -2, -2]]


@valid
def doc_pt_rob_gold() -> Doc:
    hand = pt(["", PT_READY, "", ""], pad="ps")
    return single(hand.hu(1, "9p", how="rob_gold").end("win", [-6, 14, -4, -4]))


def test_robbing_the_gold_pt_5_5() -> None:
    """PT-5.5, PT-7.2: Ben's ready 16 tiles take a turned-up 9p before Ann's first
    discard; the gold counts 1 flower point: (1 + 1) × 2 = 4, Ann 2 more."""
    result = run(doc_pt_rob_gold())
    assert deltas(result) == [[-6, 14, -4, -4]]
    assert "PT-5.5" in pattern_ids(result)


@valid
def doc_pt_small_bomb() -> Doc:
    hand = pt(["", "9p9p", "", ""], pad="mps", front="9p")
    hand.discard(0, hand.deal[0][0]).draw(1).hu(1, how="bomb")
    return single(hand.end("win", [-10, 26, -8, -8]))


def test_a_small_bomb_pt_5_6() -> None:
    """PT-5.6, PT-7.2: three golds of one kind (9p) win at once whatever the shape;
    paid as PT-7.2 with 3 gold points: (1 + 3) × 2 = 8, Ann 2 more."""
    assert deltas(run(doc_pt_small_bomb())) == [[-10, 26, -8, -8]]


@valid
def doc_pt_big_bomb() -> Doc:
    hand = pt(["", "9p9p9p9s", "", ""], pad="mps", front="9s")
    hand.discard(0, hand.deal[0][0]).draw(1).hu(1, how="bomb")
    return single(hand.end("win", [-50, 150, -50, -50]))


def test_a_big_bomb_pt_7_3() -> None:
    """PT-7.3: five golds: each loser pays 50, nothing more for the dealer."""
    assert deltas(run(doc_pt_big_bomb())) == [[-50, 150, -50, -50]]


@valid
def doc_pt_ready() -> Doc:
    """Ben draws 1p, declares ready and discards 7m (waiting on 1p); his next draw
    (6m) is discarded; the one after (1p) wins."""
    hand = pt(["", "111m222m333m444m555m7m", "", ""], pad="ps",
              front="1p2p3p4p6m2s3s4s1p")
    hand.discard(0, hand.deal[0][0]).draw(1).ready(1).discard(1, "7m")
    hand.cycle(2, 3).draw(1).discard(1).cycle(2, 3).draw(1).hu(1)
    return single(hand.end("win", [-4, 8, -2, -2]))


def test_ready_discards_the_drawn_tile_then_wins_pt_5_3() -> None:
    """PT-5.3: after the declaration Ben's only discard is the drawn tile."""
    doc = doc_pt_ready()
    events = doc["hands"][0]["events"]
    second_draw = [i for i, e in enumerate(events)
                   if e["type"] == "draw" and e["actor"] == 1][1]
    table = table_after(doc, events=second_draw + 1)
    assert [a.event.to_json() for a in table.legal_actions() if a.event.type == "discard"] == [
        {"type": "discard", "actor": 1, "tile": "6m"}]
    assert deltas(run(doc)) == [[-4, 8, -2, -2]]


@valid
def doc_pt_kong() -> Doc:
    """Ben: 1111m 222m 333m 444m 55m 6m. He draws 7m, declares a concealed kong of
    1m, draws 8m from the back and wins: [1111m] 222m 333m 444m 678m 55m."""
    hand = pt(["", "1111m222m333m444m55m6m", "", ""], pad="ps", front="7m", back="8m")
    hand.discard(0, hand.deal[0][0]).draw(1).gang(1, "concealed", "1m")
    hand.draw(1, back=True).hu(1)
    return single(hand.end("win", [-8, 20, -6, -6]))


def test_a_concealed_kong_in_putian_pt_4_pt_6() -> None:
    """PT-4, PT-6: the kong is worth 2 flower points: (1 + 2) × 2 = 6, Ann 2 more."""
    assert deltas(run(doc_pt_kong())) == [[-8, 20, -6, -6]]


def pt_heavenly(dealer: int, streak: int | None) -> HandBuilder:
    deal = ["", "", "", ""]
    deal[dealer] = "111m222m333m444m555m66m"
    return pt(deal, dealer=dealer, dealer_streak=streak, pad="ps").hu(dealer, "6m")


@valid
def doc_pt_streak() -> Doc:
    """Ben deals and wins on his dealt hand (天胡) twice; in hand 3 (his third in a
    row) Cal wins on Ben's 6m; Cal deals hand 4, which runs out."""
    first = pt_heavenly(1, None).end("win", [-2, 6, -2, -2])
    second = pt_heavenly(1, 1).end("win", [-6, 18, -6, -6])
    third = pt(["", "6m", PT_READY, ""], dealer=1, dealer_streak=2, pad="ps")
    third.discard(1, "6m").ron(2).end("win", [-8, -10, 26, -8])
    fourth = pt(["", "", "", ""], dealer=2, dealer_streak=0, pad="mps")
    fourth.discard(2, fourth.deal[2][0]).exhaust(3).end("exhausted", [0, 0, 0, 0])
    return document("putian", first, second, third, fourth)


def test_the_dealer_streak_raises_the_base_pt_1_pt_7_1() -> None:
    """PT-1, PT-7.1, PT-5.4: base 1, then 3 (2nd hand in a row), then 4 (3rd): each
    loser pays base × 2, the dealer 2 more when another wins; a non-dealer win
    passes the deal on and the streak starts again; an exhausted hand pays nothing."""
    result = run(doc_pt_streak())
    assert deltas(result) == [[-2, 6, -2, -2], [-6, 18, -6, -6], [-8, -10, 26, -8],
                              [0, 0, 0, 0]]
    assert [h.table.setup.dealer_streak for h in result.hands] == [0, 1, 2, 0]


# == Sichuan (SC) ===================================================================


@valid
def doc_sc_two_winners() -> Doc:
    """Ann discards 5p; Ben and Cal win on it; Dee (666m 777m 888m 123p 9m) draws next
    and wins on 9m by self-draw — her first draw, with no pung or kong yet."""
    hand = sc_discard_5p(seat3="666m777m888m123p9m", front="9m")
    hand.ron(1).ron(2).draw(3).hu(3)
    return single(hand.end("win", [-10, 1, 1, 8]))


def test_two_winners_on_one_discard_then_the_next_seat_sc_3_1_sc_3_2() -> None:
    """SC-3.1, SC-3.2, SC-6.1, SC-6.2: Ben and Cal win 平胡 (1 point each) from Ann;
    play goes on with Dee, the first seat still in after Cal. Her 地胡 6 + 自摸 1 fan
    (SC-5.12, SC-5.15), capped at 4 = 8 points, is paid by every player still in:
    only Ann."""
    doc = doc_sc_two_winners()
    table = table_after(doc, events=7)
    assert [a.event.to_json() for a in table.legal_actions() if a.note == "pass"] == [
        {"type": "draw", "actor": 3, "tile": "9m"}]
    assert deltas(run(doc)) == [[-10, 1, 1, 8]]


def test_after_winners_the_turn_may_return_to_the_discarder_sc_3_2() -> None:
    """SC-3.2: Ben and Dee win on Ann's 5p (Cal passes): the first seat still in after
    Dee is Ann herself, who draws next."""
    hand = sc_discard_5p(front="1s").ron(1).ron(3).draw(0).discard(0).end("abandoned")
    table = table_after(single(hand), events=7)
    assert [a.event.to_json() for a in table.legal_actions() if a.note == "pass"] == [
        {"type": "draw", "actor": 0, "tile": "1s"}]
    assert table_after(single(hand)).seats[0].size == 13


def test_after_a_self_draw_the_next_seat_plays_sc_3_2() -> None:
    """SC-3.2: Ben self-draws 5p on his first draw (111m 234m 567p 789p 55p: 地胡 6 +
    自摸 1, capped at 4 fan = 8 points from each of the three others, SC-5.12, SC-6.2)
    and leaves; Cal, the next seat still in, draws."""
    hand = sc(["", "111m234m567p789p5p", "", ""], pad="mp", front="5p1s")
    hand.dingques("ssss").discard(0, hand.deal[0][0]).draw(1).hu(1)
    hand.draw(2).discard(2).end("abandoned")
    doc = single(hand)
    table = table_after(doc, events=7)
    assert table.deltas == [-8, 24, -8, -8]
    assert [a.event.to_json() for a in table.legal_actions()] == [
        {"type": "draw", "actor": 2, "tile": "1s"}]


@valid
def doc_sc_three_winners() -> Doc:
    """Ann discards 5p and Ben, Cal and Dee all win on it: three winners end the hand."""
    return single(sc_discard_5p().ron(1).ron(2).ron(3).end("win", [-3, 1, 1, 1]))


def test_three_winners_on_one_discard_end_the_hand_sc_3_1_sc_6_1() -> None:
    """SC-3.1, SC-3.2, SC-6.1: each winner's 平胡 is 1 point; the discarder pays each."""
    result = run(doc_sc_three_winners())
    assert deltas(result) == [[-3, 1, 1, 1]]
    assert [w.seat for w in result.hands[0].wins] == [1, 2, 3]


@valid
def doc_sc_seven_pairs() -> Doc:
    """As above, but Dee holds 33m 55m 99m 11p 22p 33p 5p: seven pairs on 5p."""
    hand = sc_discard_5p(seat3="33m55m99m11p22p33p5p")
    return single(hand.ron(1).ron(2).ron(3).end("win", [-6, 1, 1, 4]))


def test_seven_pairs_win_sc_4_1_sc_5_5() -> None:
    """SC-4.1, SC-5.5: 七对 is 3 fan = 4 points, paid by the discarder."""
    result = run(doc_sc_seven_pairs())
    assert deltas(result) == [[-6, 1, 1, 4]]
    assert "SC-5.5" in pattern_ids(result, win=2)


@valid
def doc_sc_kong() -> Doc:
    """Ben (999m 111m 234m 567p 5p) draws the last 9m and declares a concealed kong,
    draws 1s from the back and discards it; Cal and Dee draw and discard s tiles; Ann
    draws 1p and discards 5p, and Ben, Cal (:data:`SC_WAIT_2`) and Dee
    (:data:`SC_WAIT_3`) all win on it."""
    hand = sc(["5p", "999m111m234m567p5p", SC_WAIT_2, SC_WAIT_3], pad="mp",
              front="9m2s3s1p", back="1s")
    hand.dingques("ssss").discard(0, hand.deal[0][1]).draw(1).gang(1, "concealed", "9m")
    hand.draw(1, back=True).discard(1).cycle(2, 2).draw(0).discard(0, "5p")
    hand.ron(1).ron(2).ron(3)
    return single(hand.end("win", [-6, 8, -1, -1]))


def test_kong_payments_count_at_once_sc_6_3() -> None:
    """SC-6.3, SC-5.14: Ben's concealed kong takes 2 from each other player at once.
    Later his win on Ann's 5p is 平胡 1 + 根 1 = 2 fan = 2 points; Cal and Dee win 1
    each. Ann: −2 − 4; Ben: +6 + 2; Cal and Dee: −2 + 1."""
    doc = doc_sc_kong()
    table = table_after(doc, events=7)
    assert table.deltas == [-2, 6, -2, -2]
    assert deltas(run(doc)) == [[-6, 8, -1, -1]]


@valid
def doc_sc_exhausted() -> Doc:
    return single(sc_exhausted().end("exhausted", [-1, 3, -1, -1]))


def test_an_exhausted_hand_pays_the_ready_player_sc_6_4() -> None:
    """SC-6.4 (b): Ben is ready (1 point at best: 平胡 on 5p or 8p); Ann, Cal and Dee
    are neither ready nor 花猪 and each pay him 1. Along the way Ben passed over
    wins (SC-3.3): declined wins are not recorded."""
    doc = doc_sc_exhausted()
    assert deltas(run(doc)) == [[-1, 3, -1, -1]]
    offered = [(number, index) for number, index, table, event in tables_before_events(doc)
               if any(a.event.type == "hu" and a.seat == 1 for a in table.legal_actions())]
    assert offered, "Ben could have won along the way (a 5p or 8p went by)"


@valid
def doc_sc_pig_and_kong() -> Doc:
    return single(sc_pig_and_kong().end("exhausted", [7, 10, 7, -24]))


def test_an_exhausted_hand_with_a_flower_pig_and_a_refunded_kong_sc_6_4() -> None:
    """SC-6.3, SC-6.4: Ann's concealed kong takes 2 from each at once (+6). At the
    end (cap 4 fan = 8 points): (a) Dee, a 花猪, pays 8 to each of Ann, Ben and Cal;
    (b) Ann and Cal, not ready, pay the ready Ben 1 each; (c) Ann, not ready, gives
    back her kong income, 2 to each payer. Ann +6 + 8 − 1 − 6 = 7; Ben −2 + 8 + 2 +
    2 = 10; Cal −2 + 8 − 1 + 2 = 7; Dee −2 − 24 + 2 = −24."""
    doc = doc_sc_pig_and_kong()
    assert table_after(doc, events=5).deltas == [6, -2, -2, -2]
    assert deltas(run(doc)) == [[7, 10, 7, -24]]


@valid
def doc_sc_robbed_by_three() -> Doc:
    """Ben pungs Ann's 4m and later adds the fourth 4m; Cal (56m …), Dee (23m …) and
    Ann (35m …) are all waiting on 4m and rob it, in playing order after Ben."""
    hand = sc(["4m35m111p222p333p99m", "44m", "56m555p666p777p88m", "23m888p999p777m66m"],
              pad="mp", front="1s2s3s4m")
    hand.dingques("ssss").discard(0, "4m").peng(1).discard(1, hand.deal[1][2])
    hand.cycle(2, 3).draw(1).gang(1, "added", "4m")
    for robber in (2, 3, 0):
        hand.hu(robber, "4m", target=1, how="robbing_kong")
    return single(hand.end("win", [2, -6, 2, 2]))


def test_three_players_rob_one_added_kong_sc_5_18_sc_6_3() -> None:
    """SC-5.18, SC-3.1, SC-6.3: each robber wins 平胡 1 + 抢杠胡 1 = 2 fan = 2 points
    from Ben; the robbed kong pays nothing; three winners end the hand."""
    result = run(doc_sc_robbed_by_three())
    assert deltas(result) == [[2, -6, 2, 2]]
    assert [w.seat for w in result.hands[0].wins] == [2, 3, 0]


def test_a_win_on_an_exposed_kongs_replacement_sc_5_16_sc_6_3() -> None:
    """SC-5.16 (paid as a self-draw), SC-6.3: Cal makes an exposed kong of Ann's 7m
    (Ann pays 2 at once), draws 4p from the back and wins: [7777m] 111p 222p 333p
    44p is 对对胡 2 + 根 1 + 自摸 1 + 杠上花 1 = 5 fan, capped at 4 = 8 points from
    each player still in. Ann −2 − 8, Ben and Dee −8, Cal +2 + 24."""
    hand = sc(["7m", "", "777m111p222p333p4p", ""], pad="mp", back="4p")
    hand.dingques("ssss").discard(0, "7m").gang(2, "exposed").draw(2, back=True).hu(2)
    doc = single(hand.end("abandoned"))
    assert table_after(doc, events=6).deltas == [-2, 0, 2, 0]
    table = table_after(doc)
    assert table.deltas == [-10, -8, 26, -8]
    assert "SC-5.16" in [hit.pattern.id for hit in table.wins[0].score.patterns]


def test_the_void_suit_goes_first_sc_2() -> None:
    """SC-2: Ann named s void and holds 1s 2s: her only legal discards are 1s and 2s,
    and discarding 1s is accepted."""
    hand = sc(["12s", "", "", ""], pad="mp").dingques("smpm")
    hand.discard(0, "1s").end("abandoned")
    doc = single(hand)
    table = table_after(doc, events=4)
    assert {str(a.event.tile) for a in table.legal_actions() if a.event.type == "discard"} == {
        "1s", "2s"}
    assert table_after(doc).seats[0].size == 13


# == Every hand-written document: legal actions and round trip ======================


@pytest.mark.parametrize("name", sorted(VALID))
def test_every_event_is_a_legal_action(name: str) -> None:
    """Table.legal_actions(): every event of the document is among the actions just
    before it is applied (draws compared with the wall's tile)."""
    doc = VALID[name]()
    for hand, index, table, event in tables_before_events(doc):
        offered = [a.event.to_json() for a in table.legal_actions()]
        wanted = event.to_json()
        if wanted.get("from") == "front":
            del wanted["from"]
        assert wanted in offered, f"hand {hand}, event {index}: {wanted} not in {offered}"


@pytest.mark.parametrize("name", sorted(VALID))
def test_every_document_round_trips(name: str) -> None:
    doc = VALID[name]()
    assert roundtrip(doc) == doc
    run(doc)


# == Bot-played matches ==============================================================

BOT_MATCHES = [(variant, seed) for variant in ("jiaxing", "putian", "sichuan")
               for seed in (1, 2, 5)]


@pytest.mark.parametrize(("variant", "seed"), BOT_MATCHES)
def test_a_bot_match_round_trips(variant: str, seed: int) -> None:
    """docs/log-format.md: ``write_log(read_log(doc)) == doc`` for a valid document."""
    doc = write_log(simulate(variant, 3, seed))
    assert write_log(read_log(doc)) == doc
    run(doc)


@pytest.mark.parametrize(("variant", "seed"), BOT_MATCHES)
def test_every_bot_event_is_a_legal_action(variant: str, seed: int) -> None:
    """Every event the bots played was among ``legal_actions()`` just before it."""
    doc = write_log(simulate(variant, 3, seed))
    count = 0
    for hand, index, table, event in tables_before_events(doc):
        offered = [a.event.to_json() for a in table.legal_actions()]
        assert event.to_json() in offered, f"hand {hand}, event {index}: {event}"
        count += 1
    assert count > 30
