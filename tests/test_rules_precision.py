"""Rules precision (issue 12): leaving in Sichuan, 海底 on a replacement, two pungs of
one honour, the dealer after an abandoned hand, and which rule a refusal names.

Each test fails on the engine as it was before; the expected values come from
RULES.md (SC-6.6, JX-7.6, JX-6 Reading, JX-3, PT-1, PT-5.2, JX-8).
"""

from __future__ import annotations

from typing import Any

from games.core.position import Position
from games.core.tiles import Meld, parse_tiles
from games.variants.jiaxing import Jiaxing
from tests.logbuild import (
    SC_NOT_READY_0,
    SC_NOT_READY_2,
    SC_NOT_READY_3,
    SC_WAIT_1,
    HandBuilder,
    document,
    rejection,
    run,
    single,
)

NOT_READY_NO_8M = "1m2m2m4m6m9m1p3p5p6p7p8p9p"
"""Dee: m scraps beside 1p 3p 5p–9p, far from ready, two suits, no 8m."""

# Dee names m void but holds tiles of all three suits: a 花猪 (SC-6.4 a).
PIG = "1m2p5p7p9p1s3s5s7s9s2s4s6s"


def sc_pig_leaves() -> HandBuilder:
    """Sichuan: Ann, Ben and Cal name s void and hold no s; Dee is a 花猪. Ann
    discards, then Dee leaves while the three others are still in."""
    hand = HandBuilder("sichuan", ["", SC_WAIT_1, SC_NOT_READY_2, PIG], pad="mp")
    hand.dingques("sssm").discard(0, hand.deal[0][0]).leave(3)
    return hand


def sc_leaver_not_pig() -> HandBuilder:
    """Sichuan, everyone void s: Ben is ready (:data:`SC_WAIT_1`, 1 point at best), Ann,
    Cal and Dee are not; Ann discards, then Dee leaves."""
    hand = HandBuilder("sichuan", [SC_NOT_READY_0, SC_WAIT_1, SC_NOT_READY_2, SC_NOT_READY_3],
                       pad="mp")
    hand.dingques("ssss").discard(0, "2m").leave(3)
    return hand


# -- SC-6.6 leaving ---------------------------------------------------------------


def test_it_charges_the_leaver_the_house_charge_and_the_compensation_sc_6_6() -> None:
    """A 花猪 leaves three others, cap 8: 8 to each (what 查花猪 would make it pay),
    and 8 × 3 + 24 = 48 to the house on top: the leaver loses 72."""
    result = run(single(sc_pig_leaves().end("abandoned", [8, 8, 8, -24])))
    assert result.hands[0].deltas == [8, 8, 8, -24]
    assert result.fees == [0, 0, 0, 48]


def test_it_charges_a_leaver_who_had_not_won_by_sc_6_4_as_if_exhausted_now_sc_6_6() -> None:
    """Dee, not ready and no 花猪, leaves: she owes the ready Ben his best wait (1
    point) and Cal nothing; the house gets 8 × 3 + 1."""
    result = run(single(sc_leaver_not_pig().end("abandoned")))
    assert result.hands[0].deltas == [0, 1, 0, -1]
    assert result.fees == [0, 0, 0, 25]


def test_it_applies_a_non_default_correction_factor_and_minimum_sc_6_6() -> None:
    """X = 3, minimum 2: Ben gets 1 × 3, Ann and Cal the minimum 2 each; the house
    8 × 3 + 3 = 27 (above the minimum)."""
    doc = single(sc_leaver_not_pig().end("abandoned"),
                 rules={"escape_factor": 3, "escape_minimum": 2})
    result = run(doc)
    assert result.hands[0].deltas == [2, 3, 2, -7]
    assert result.fees == [0, 0, 0, 27]


def test_it_raises_the_charge_to_the_minimum_sc_6_6() -> None:
    doc = single(sc_leaver_not_pig().end("abandoned"), rules={"escape_minimum": 40})
    result = run(doc)
    assert result.hands[0].deltas == [40, 40, 40, -120]
    assert result.fees == [0, 0, 0, 40]


def test_it_splits_a_short_balance_between_charge_and_compensation_sc_6_6() -> None:
    """The 花猪 has 36 of the 72 she owes: the house gets 36 × 48 / 72 = 24, the
    others 12 in their ratio 1:1:1."""
    doc = single(sc_pig_leaves().end("abandoned", [4, 4, 4, -12]), rules={"start_balance": 36})
    result = run(doc)
    assert result.hands[0].deltas == [4, 4, 4, -12]
    assert result.fees == [0, 0, 0, 24]
    assert result.balances == [40, 40, 40, 0]


def test_it_splits_a_short_balance_in_beans_with_the_room_coefficient_sc_6_6() -> None:
    """N = 10: 360 beans are 36 points; the house charge is in beans like the rest."""
    doc = single(sc_pig_leaves().end("abandoned"),
                 rules={"start_balance": 360, "room_coefficient": 10})
    result = run(doc)
    assert result.hands[0].deltas == [4, 4, 4, -12]
    assert result.fees == [0, 0, 0, 240]
    assert result.balances == [400, 400, 400, 0]


def test_it_splits_the_compensation_in_the_others_ratio_sc_6_6() -> None:
    """X = 3, minimum 2 (compensation 2 : 3 : 2, charge 27, 34 in all) and a balance
    of 17: the house gets 17 × 27 // 34 = 13, the others 4 in the ratio 2 : 3 : 2,
    rounded down (1, 1, 1) with the point left over going to Ann, first after Dee."""
    doc = single(sc_leaver_not_pig().end("abandoned"),
                 rules={"escape_factor": 3, "escape_minimum": 2, "start_balance": 17})
    result = run(doc)
    assert result.hands[0].deltas == [2, 1, 1, -4]
    assert result.fees == [0, 0, 0, 13]
    assert result.balances == [19, 18, 18, 0]


def sc_kong_then_winner_leaves() -> HandBuilder:
    """Ann (void s) makes a concealed kong of 8m on her dealt hand (Ben, Cal and Dee
    pay 2 each, SC-6.3), draws 5p from the back and discards it: Ben wins on it (杠上炮,
    2 fan) and leaves the table. Ann, Cal and Dee discard what they draw until the
    wall is empty; nobody is ready at the end."""
    hand = HandBuilder("sichuan", ["8888m1p3p4p6p8p2m3m5m6m7m", SC_WAIT_1, SC_NOT_READY_2,
                                   NOT_READY_NO_8M], back="5p", pad="mp")
    hand.dingques("ssss").gang(0, "concealed", "8m").draw(0, back=True).discard(0, "5p")
    hand.ron(1).leave(1)
    seat = 2
    while hand.left:
        hand.draw(seat).discard(seat)
        seat = {2: 3, 3: 0, 0: 2}[seat]
    return hand


def test_it_refunds_nothing_to_a_winner_who_left_sc_6_6() -> None:
    """Ann is not ready at exhaustion and gives back her kong money (SC-6.4 c), but
    not Ben's 2: he won and left (SC-6.6). Kong +6/−2/−2/−2, Ben's 杠上炮 2 from Ann,
    refunds 2 to Cal and 2 to Dee."""
    result = run(single(sc_kong_then_winner_leaves().end("exhausted")))
    assert result.hands[0].deltas == [0, 0, 0, 0]
    table = result.hands[0].table
    assert table.fees == [0, 0, 0, 0]  # a winner who leaves is not charged


def test_it_refunds_nothing_to_a_leaver_who_had_not_won_sc_6_6() -> None:
    """Reading (docs/table.md): a leaver's part in the hand is settled when they
    leave, so Dee, who paid for Ann's kong and left, gets none of it back."""
    hand = HandBuilder("sichuan", ["8888m1p3p4p6p8p2m3m5m6m7m", SC_WAIT_1, SC_NOT_READY_2,
                                   NOT_READY_NO_8M], back="9m", pad="mp")
    hand.dingques("ssss").gang(0, "concealed", "8m").draw(0, back=True).discard(0, "9m")
    hand.leave(3)
    seat = 1
    while hand.left:
        hand.draw(seat).discard(seat)
        seat = {1: 2, 2: 0, 0: 1}[seat]
    result = run(single(hand.end("exhausted")))
    # Kong: Ann +6, others −2. Dee leaves: not ready, owes Ben (ready, 1 point) 1 and
    # pays the house 8 × 3 + 1. Exhaustion: Ann and Cal are not ready and pay Ben 1
    # each; Ann refunds Ben and Cal 2 each, Dee nothing.
    assert result.hands[0].deltas == [6 - 1 - 4, -2 + 1 + 1 + 1 + 2, -2 - 1 + 2, -2 - 1]
    assert result.fees == [0, 0, 0, 25]


def test_it_names_sc_6_6_when_deltas_disagree_in_a_hand_someone_left() -> None:
    """The old reading (the compensation taken out of the charge) is refused by SC-6.6."""
    error = rejection(single(sc_pig_leaves().end("abandoned", [8, 8, 7, -23])))
    assert error.rule == "SC-6.6"
    assert "don't match the settlement [8, 8, 8, -24]" in str(error)


# -- JX-7.6 海底 on a kong replacement -------------------------------------------------

KONG_ON_THE_LAST = "1111p222p333p444p"
"""Ben's hand: a concealed kong of 1p to make, then a pair of 5p to complete 清一色."""


def jx_kong_on_the_last_tile() -> HandBuilder:
    """Jiaxing: everyone discards what they draw until two tiles are left; Ben draws
    the first of them, 5p, makes a concealed kong of 1p and wins on the replacement,
    the last drawable tile (5p)."""
    hand = HandBuilder("jiaxing", ["", KONG_ON_THE_LAST, "", ""], back="5p", pad="msz",
                       avoid="5p")
    spare = hand.wall.index("5p")  # a 5p from the middle becomes the second-last tile
    hand.wall[spare], hand.wall[-2] = hand.wall[-2], hand.wall[spare]
    hand.discard(0, hand.deal[0][0]).cycle(1, len(hand.wall) - 2)
    assert hand.left == 2 and hand.peek() == "5p"
    hand.draw(1).gang(1, "concealed", "1p").draw(1, back=True).hu(1)
    return hand


def test_it_scores_haidi_on_a_kong_replacement_that_is_the_last_tile_jx_7_6() -> None:
    """清一色 4 + 对对和 2 + 无百搭 1 = 7 tai; 杠上开花 and 海底捞月 = 2 fan: 28 from each."""
    result = run(single(jx_kong_on_the_last_tile().end("win")))
    win = result.hands[0].wins[0]
    assert [h.pattern.id for h in win.score.patterns if h.pattern.unit == "fan"] == [
        "JX-7.2", "JX-7.6"]
    assert result.hands[0].deltas == [-28, 84, -28, -28]


def test_it_scores_haidi_and_gangshang_together_for_a_position_jx_7_6() -> None:
    """The same hand as a position: 杠上开花 and 海底捞月 together."""
    position = Position(variant=Jiaxing, hand=tuple(parse_tiles("222p333p444p55p")),
                        melds=(Meld.gang(parse_tiles("1p")[0], "concealed"),),
                        win_tile=parse_tiles("5p")[0], wildcards=frozenset({26}),
                        seat=1, dealer=0, self_draw=True, after_kong=True, last_tile=True)
    score = Jiaxing.score(position)
    assert (score.tai, score.fan, score.points) == (7, 2, 28)


# -- JX-6 two pungs of one honour ------------------------------------------------------


def east_twice(**context: Any) -> Position:
    """111z and three wildcards (5m) with 222z 333z 44z: the wildcards may stand
    for a second East pung although only one East is left (C-4)."""
    return Position(variant=Jiaxing, hand=tuple(parse_tiles("111z555m222z333z44z")),
                    win_tile=parse_tiles("4z")[0], wildcards=frozenset({4}), self_draw=True,
                    **context)


def test_it_counts_each_of_two_pungs_of_one_wind_jx_6_4() -> None:
    """East round, East seat: each East pung earns 2 tai (2 + 2), more than reading
    the wildcards as a dragon pung (1): 4 + 全老头 10 + 对对和 2 = 16 tai, 三百搭 1 fan."""
    score = Jiaxing.score(east_twice(seat=0, dealer=0, round_wind=0))
    assert [(h.pattern.id, h.value) for h in score.patterns if h.pattern.id == "JX-6.4"] == [
        ("JX-6.4", 2), ("JX-6.4", 2)]
    assert (score.tai, score.fan, score.points) == (16, 1, 32)
    assert score.reading.startswith("111z 111z")


def test_it_counts_each_of_two_dragon_pungs_jx_6_1() -> None:
    """A melded pung of Red, and the fourth Red with two wildcards (5m) as a second
    pung of Red: 1 + 1 tai."""
    position = Position(variant=Jiaxing, hand=tuple(parse_tiles("7z55m111p222p33p")),
                        melds=(Meld.peng(parse_tiles("7z")[0]),),
                        win_tile=parse_tiles("3p")[0], wildcards=frozenset({4}),
                        self_draw=True, seat=2, dealer=0, round_wind=0)
    score = Jiaxing.score(position)
    assert [h.pattern.id for h in score.patterns].count("JX-6.1") == 2


# -- JX-3 / PT-1 the dealer after an abandoned hand ----------------------------------


def jx_abandoned() -> HandBuilder:
    hand = HandBuilder("jiaxing", ["", "", "", ""], pad="mp")
    return hand.discard(0, hand.deal[0][0]).leave(2).end("abandoned")


def test_it_passes_the_deal_after_an_abandoned_hand_jx_3() -> None:
    second = HandBuilder("jiaxing", ["", "", "", ""], dealer=1, pad="mp")
    second.discard(1, second.deal[1][0]).leave(2).end("abandoned")
    result = run(document("jiaxing", jx_abandoned(), second))
    assert [h.table.dealer for h in result.hands] == [0, 1]


def test_it_refuses_the_same_dealer_after_an_abandoned_hand_jx_3() -> None:
    error = rejection(document("jiaxing", jx_abandoned(), jx_abandoned()))
    assert (error.rule, error.hand) == ("JX-3", 2)
    assert "the dealer should be Ben" in str(error)


def pt_abandoned(dealer: int, streak: int | None = None) -> HandBuilder:
    hand = HandBuilder("putian", ["", "", "", ""], dealer=dealer, dealer_streak=streak,
                       pad="mp")
    return hand.discard(dealer, hand.deal[dealer][0]).leave((dealer + 2) % 4).end("abandoned")


def test_it_passes_the_deal_and_ends_the_streak_after_an_abandoned_hand_pt_1() -> None:
    result = run(document("putian", pt_abandoned(0), pt_abandoned(1, 0)))
    assert [h.table.dealer for h in result.hands] == [0, 1]
    assert rejection(document("putian", pt_abandoned(0), pt_abandoned(0))).rule == "PT-1"
    assert rejection(document("putian", pt_abandoned(0), pt_abandoned(1, 1))).rule == "PT-7.1"


# -- Which rule a refusal names --------------------------------------------------------


def test_it_names_pt_5_2_for_a_second_win_on_one_discard() -> None:
    """Ben (111m–555m 6m) and Cal (666p 777p 888p 123s 456s 6m) can both win on Ann's
    6m; Ben, first after Ann, wins, and Cal's win is refused by PT-5.2."""
    hand = HandBuilder("putian", ["6m", "111m222m333m444m555m6m", "666p777p888p123s456s6m", ""],
                       pad="mp")
    hand.discard(0, "6m").ron(1).ron(2)
    error = rejection(single(hand.end("win")))
    assert (error.rule, error.event) == ("PT-5.2", 3)
    assert "only the first in playing order after the discarder wins" in str(error)


def test_it_names_jx_8_for_a_second_robber_of_one_kong() -> None:
    """Dee and Ben both wait on 4m (混一色); Dee, first after the konger Cal, robs it,
    and Ben's robbing is refused by JX-8."""
    hand = HandBuilder("jiaxing", ["4m", "56m789m111z222z33z", "44m", "111m222m333m56m77z"],
                       front="1p2p3p4m", pad="ps")
    hand.discard(0, "4m").peng(2).discard(2, hand.deal[2][2])
    hand.draw(3).discard(3).draw(0).discard(0).draw(1).discard(1)
    hand.draw(2).gang(2, "added", "4m")
    hand.hu(3, "4m", target=2, how="robbing_kong").hu(1, "4m", target=2, how="robbing_kong")
    error = rejection(single(hand.end("win")))
    assert error.rule == "JX-8"
    assert "rob the same kong" in str(error)


def test_it_names_pt_5_5_for_a_second_robber_of_the_gold() -> None:
    """Ben and Cal both hold ready hands; Ben robs the gold, and Cal's robbing is
    refused by PT-5.5 (the dealer first, then playing order): the hand is over."""
    ready = "111m222m333m444m555m6m"
    other = "666p777p888p123s456s6s"
    hand = HandBuilder("putian", ["", ready, other, ""], pad="ps")
    hand.hu(1, "9p", how="rob_gold").hu(2, "9s", how="rob_gold")
    error = rejection(single(hand.end("win")))
    assert (error.rule, error.event) == ("PT-5.5", 2)
