"""Rule-by-rule tests of the Jiaxing variant's ``score`` and ``waits`` (RULES.md §0, §1).

Every expectation below is worked out by hand from RULES.md (C-*, JX-*), never taken
from the engine: the comment or docstring of each test shows the sum. Unless a test
says otherwise the winner sits at seat 2 with seat 0 dealing in the East round, so
the winner's seat wind is West (C-2), and the wildcard (百搭) kind is 8p, a tile the
hands don't hold. Money between players (JX-9/JX-10 multipliers) is tested in
tests/test_settlement.py; here JX-10 appears only through ``points``
(base × tai × 2^fan, what one ordinary loser pays).
"""

from __future__ import annotations

from typing import Any

import pytest

from games.core.position import Position, PositionError
from games.core.tiles import parse_tiles
from games.core.variant import Discard, DiscardTable, Score, Waits
from games.variants.positions import read_position

WILD = "8p"


def position(hand: str, win_tile: str | None = None, **fields: Any) -> Position:
    """A Jiaxing position: seat 2 (West), seat 0 deals, East round, wildcard 8p."""
    data: dict[str, Any] = {
        "variant": "jiaxing",
        "hand": hand,
        "melds": [],
        "wildcards": [WILD],
        "seat": 2,
        "dealer": 0,
        "round_wind": "E",
    }
    if win_tile is not None:
        data["win_tile"] = win_tile
    data.update(fields)
    return read_position(data)


def score(hand: str, win_tile: str | None = None, **fields: Any) -> Score:
    """Score a 14-tile (minus 3 per meld) hand; a self-draw unless the test says otherwise.

    ``win_tile`` defaults to the hand's last tile.
    """
    fields.setdefault("self_draw", True)
    if win_tile is None:
        win_tile = str(parse_tiles(hand)[-1])
    p = position(hand, win_tile, **fields)
    return p.variant.score(p)


def waits(hand: str, **fields: Any) -> Waits:
    fields.setdefault("self_draw", True)
    p = position(hand, **fields)
    result = p.variant.waits(p)
    assert isinstance(result, Waits)
    return result


def hits(result: Score) -> dict[str, int]:
    """Pattern id → value, summed over hits of the same id (JX-6.4 may come once per wind)."""
    out: dict[str, int] = {}
    for hit in result.patterns:
        out[hit.pattern.id] = out.get(hit.pattern.id, 0) + hit.value
    return out


def assert_win(result: Score, *, tai: int, fan: int, points: int | None = None) -> None:
    assert result.win, result.reason
    assert (result.tai, result.fan) == (tai, fan), hits(result)
    assert result.points == (tai * 2**fan if points is None else points)
    tai_hits = sum(h.value for h in result.patterns if h.pattern.unit == "tai")
    fan_hits = sum(h.value for h in result.patterns if h.pattern.unit == "fan")
    assert (tai_hits, fan_hits) == (tai, fan), "the listed patterns must add up"


def assert_no_win(result: Score, rule: str) -> None:
    assert not result.win
    assert result.reason is not None and rule in result.reason, result.reason
    assert result.points == 0


def wait_tiles(result: Waits) -> set[str]:
    return {str(w.tile) for w in result.waits}


# A plain 清一色 win used wherever only the context matters:
# 123m 234m 456m 789m + 55m → 清一色 4 + 无百搭 1 = 5 tai (JX-6.8, JX-6.5).
PURE = "123m 234m 456m 789m 55m"
PURE_TAI = 5


# ---------------------------------------------------------------------------
# C-3 / JX-5.2: the shape


def test_it_wins_on_four_sets_and_a_pair_jx_5_2() -> None:
    """JX-5.2/C-3: 123m 234m 456m 789m + pair 55m is 4 sets + a pair: a win, 5 tai."""
    result = score(PURE)
    assert_win(result, tai=PURE_TAI, fan=0)
    assert hits(result) == {"JX-6.8": 4, "JX-6.5": 1}


def test_it_counts_melds_as_sets_c_3() -> None:
    """C-3: declared melds are sets. Chow 123m + pung 7z on the table, 456m 789m 55m in hand:
    混一色 2 + 红中刻 1 + 无百搭 1 = 4 tai (JX-6.7, JX-6.1, JX-6.5)."""
    result = score("456m 789m 55m", "5m",
                   melds=[{"type": "chi", "tiles": "123m"}, {"type": "peng", "tile": "7z"}])
    assert_win(result, tai=4, fan=0)
    assert hits(result) == {"JX-6.7": 2, "JX-6.1": 1, "JX-6.5": 1}


@pytest.mark.parametrize("hand", ["11m 33m 55m 77m 99m 11z 44z", "11223344556677z"])
def test_it_refuses_seven_pairs_jx_5_2(hand: str) -> None:
    """JX-5.2: seven pairs does not count, even all honours (no 4-sets reading exists)."""
    assert_no_win(score(hand), "JX-5.2")


# ---------------------------------------------------------------------------
# JX-5.1: self-draw only


def test_it_refuses_a_win_on_a_discard_jx_5_1() -> None:
    """JX-5.1: neither self_draw nor robbing_kong means the tile was a discard: no win."""
    assert_no_win(score(PURE, self_draw=False, robbing_kong=False), "JX-5.1")


def test_it_refuses_the_earthly_hand_on_the_dealers_first_discard_jx_5_1() -> None:
    """JX-5.1 over JX-7.8: a non-dealer on the first turn who did not draw would be taking
    the dealer's first discard, which Jiaxing never allows."""
    assert_no_win(score(PURE, self_draw=False, first_turn=True, seat=1), "JX-5.1")


def test_it_accepts_a_self_draw_jx_5_1() -> None:
    assert_win(score(PURE, self_draw=True), tai=PURE_TAI, fan=0)


def test_it_accepts_a_win_on_the_kong_replacement_jx_5_1_jx_7_2() -> None:
    """JX-5.1 (the replacement draw is a self-draw) and JX-7.2 杠上开花 1 fan.
    Concealed kong of 1z, 123m 456m 789m 55m in hand: 混一色 2 + East kong in the East
    round 1 (seat West) + 无百搭 1 = 4 tai; 1 fan; 4 × 2 = 8 points."""
    result = score("123m 456m 789m 55m", "5m", after_kong=True,
                   melds=[{"type": "gang", "kind": "concealed", "tile": "1z"}])
    assert_win(result, tai=4, fan=1, points=8)
    assert hits(result) == {"JX-6.7": 2, "JX-6.4": 1, "JX-6.5": 1, "JX-7.2": 1}


def test_it_does_not_call_a_replacement_draw_a_discard_jx_5_1() -> None:
    """JX-5.1 "including the replacement draw after a kong": a position flagged as a win on
    a replacement draw (after_kong) but not flagged self_draw is either rejected as
    contradictory input or scored as the self-draw it is — never refused as a discard win.
    (Ambiguous input: ENGINE-CLI doesn't say whether after_kong implies self_draw.)"""
    try:
        result = score("123m 456m 789m 55m", "5m", self_draw=False, after_kong=True,
                       melds=[{"type": "gang", "kind": "concealed", "tile": "1z"}])
    except PositionError:
        return
    assert_win(result, tai=4, fan=1, points=8)


def test_it_accepts_robbing_an_added_kong_jx_5_1_jx_8() -> None:
    """JX-5.1/JX-8: robbing a kong wins; no self-draw fan applies. 清一色 4 + 无百搭 1."""
    result = score(PURE, "4m", self_draw=False, robbing_kong=True)
    assert_win(result, tai=PURE_TAI, fan=0)
    assert hits(result) == {"JX-6.8": 4, "JX-6.5": 1}


# ---------------------------------------------------------------------------
# JX-5.3: 清一色, 混一色, 全老头 or 对对和


def test_it_lets_pure_one_suit_satisfy_jx_5_3() -> None:
    """JX-5.3 via 清一色: and 清一色 is not also 混一色 (JX-6 Reading)."""
    result = score(PURE)
    assert result.win
    assert "JX-6.8" in hits(result) and "JX-6.7" not in hits(result)


def test_it_lets_half_flush_satisfy_jx_5_3() -> None:
    """JX-5.3 via 混一色: 123m 456m 789m 55m + pung 2z (South: neither the East round nor
    the West seat) → 混一色 2 + 无百搭 1 = 3 tai."""
    result = score("123m 456m 789m 55m 222z", "2z")
    assert_win(result, tai=3, fan=0)
    assert hits(result) == {"JX-6.7": 2, "JX-6.5": 1}


def test_it_lets_all_honours_satisfy_jx_5_3_and_stacks_jx_6_9() -> None:
    """JX-5.3 via 全老头, and the JX-6 Reading "all rows stack": 111z 222z 333z 555z 77z,
    East round, seat West: 全老头 10 + 对对和 2 + 白板刻 1 + East (round) 1 + West (seat) 1
    + 无百搭 1 = 16 tai; no 混一色 or 清一色 (no suited tile)."""
    result = score("111z 222z 333z 555z 77z", "7z")
    assert_win(result, tai=16, fan=0)
    assert hits(result) == {"JX-6.9": 10, "JX-6.6": 2, "JX-6.3": 1, "JX-6.4": 2, "JX-6.5": 1}


def test_it_lets_all_pungs_satisfy_jx_5_3_in_three_suits() -> None:
    """JX-5.3 via 对对和 alone: 111m 222p 333s 444z 55z (North pung: not round, not seat)
    → 对对和 2 + 无百搭 1 = 3 tai."""
    result = score("111m 222p 333s 444z 55z", "5z")
    assert_win(result, tai=3, fan=0)
    assert hits(result) == {"JX-6.6": 2, "JX-6.5": 1}


def test_it_refuses_a_complete_shape_without_the_requirement_jx_5_3() -> None:
    """JX-5.3: 234m 567p 789s 666z 55z is 4 sets + a pair but three suits with chows."""
    result = score("234m 567p 789s 55z 666z", "6z")
    assert_no_win(result, "JX-5.3")


def test_it_refuses_all_pungs_broken_by_a_chow_meld_jx_5_3() -> None:
    """JX-5.3: a chow meld (123p) rules out 对对和; m, p and s rule out the flushes."""
    result = score("111m 999m 222s 77z", "7z", melds=[{"type": "chi", "tiles": "123p"}])
    assert_no_win(result, "JX-5.3")


def test_it_reads_a_wildcard_as_the_suit_it_stands_for_jx_5_3() -> None:
    """JX-5.3 "wildcards count as whatever they stand for": the wildcard 5p stands for 5m
    (pair 55m), so 123m 234m 456m 789m + 5m + 5p is 清一色: 4 tai, no 无百搭."""
    result = score("123m 234m 456m 789m 5m 5p", "5p", wildcards=["5p"])
    assert_win(result, tai=4, fan=0)
    assert hits(result) == {"JX-6.8": 4}


def test_it_does_not_read_an_honour_faced_wildcard_as_an_honour_jx_5_3() -> None:
    """JX-5.3: with 7z wild, the 7z stands for 5m; the hand is 清一色 (4), not 混一色 (2),
    and there is no 红中刻."""
    result = score("123m 234m 456m 789m 5m 7z", "7z", wildcards=["7z"])
    assert_win(result, tai=4, fan=0)
    assert hits(result) == {"JX-6.8": 4}


def test_it_lets_a_suited_wildcard_complete_all_honours_jx_5_3_jx_6_9() -> None:
    """JX-5.3/JX-6.9 with 5m wild standing for 7z: 111z 222z 555z 666z 7z+5m →
    全老头 10 + 对对和 2 + 白 1 + 发 1 + East (round) 1 = 15 tai (a wildcard: no 无百搭)."""
    result = score("111z 222z 555z 666z 7z 5m", "5m", wildcards=["5m"])
    assert_win(result, tai=15, fan=0)
    assert hits(result) == {"JX-6.9": 10, "JX-6.6": 2, "JX-6.3": 1, "JX-6.2": 1, "JX-6.4": 1}


# ---------------------------------------------------------------------------
# JX-6: tai


@pytest.mark.parametrize(("dragon", "rule"), [("7z", "JX-6.1"), ("6z", "JX-6.2"),
                                              ("5z", "JX-6.3")])
def test_it_scores_a_dragon_pung_jx_6_1_to_6_3(dragon: str, rule: str) -> None:
    """JX-6.1 红中 / 6.2 发财 / 6.3 白板 pung 1 tai: 123m 456m 789m 55m + the pung →
    混一色 2 + dragon 1 + 无百搭 1 = 4."""
    result = score(f"123m 456m 789m 55m {dragon * 3}", dragon)
    assert_win(result, tai=4, fan=0)
    assert hits(result) == {"JX-6.7": 2, rule: 1, "JX-6.5": 1}


def test_it_counts_a_dragon_kong_as_a_pung_jx_6_1() -> None:
    """C-3: a kong counts as a pung. Exposed kong of 7z: 混一色 2 + 红中 1 + 无百搭 1 = 4."""
    result = score("123m 456m 789m 55m", "5m",
                   melds=[{"type": "gang", "kind": "exposed", "tile": "7z"}])
    assert_win(result, tai=4, fan=0)
    assert hits(result) == {"JX-6.7": 2, "JX-6.1": 1, "JX-6.5": 1}


@pytest.mark.parametrize(
    ("wind", "seat", "dealer", "round_wind", "wind_tai"),
    [
        ("1z", 2, 0, "E", 1),  # East pung, East round, seat West: round only
        ("1z", 0, 0, "S", 1),  # the dealer is East (C-2): seat only
        ("1z", 0, 0, "E", 2),  # East pung, East round, East seat: both (the seed's example)
        ("2z", 1, 0, "E", 1),  # seat 1 after the dealer is South
        ("1z", 3, 3, "S", 1),  # seat 3 dealing is East: seat wind follows the dealer
        ("4z", 1, 2, "E", 1),  # seat 2 deals, so seat 1 is North
        ("4z", 3, 0, "N", 2),  # North round, seat 3 with seat 0 dealing is North
        ("2z", 2, 0, "N", 0),  # South pung for a West seat in the North round: nothing
    ],
)
def test_it_scores_round_and_seat_wind_pungs_jx_6_4(
        wind: str, seat: int, dealer: int, round_wind: str, wind_tai: int) -> None:
    """JX-6.4 风刻: 1 for the round wind, 1 for the seat wind (C-2: dealer East, then S, W,
    N in playing order). 123m 456m 789m 55m + the wind pung: 混一色 2 + 无百搭 1 + wind."""
    result = score(f"123m 456m 789m 55m {wind * 3}", wind, seat=seat, dealer=dealer,
                   round_wind=round_wind)
    assert_win(result, tai=3 + wind_tai, fan=0)
    assert hits(result).get("JX-6.4", 0) == wind_tai


def test_it_counts_a_wind_kong_meld_jx_6_4() -> None:
    """JX-6.4 with an added kong of East, dealer in the East round: 2 + 混一色 2 + 无百搭 1."""
    result = score("123m 456m 789m 55m", "5m", seat=0, dealer=0,
                   melds=[{"type": "gang", "kind": "added", "tile": "1z"}])
    assert_win(result, tai=5, fan=0)
    assert hits(result)["JX-6.4"] == 2


def test_it_gives_nothing_for_a_wind_pair_jx_6_4() -> None:
    """JX-6.4 is for a pung/kong: a pair of East for the East dealer in the East round adds
    nothing. 123m 456m 789m 999m 11z: 混一色 2 + 无百搭 1 = 3."""
    result = score("123m 456m 789m 999m 11z", "1z", seat=0, dealer=0)
    assert_win(result, tai=3, fan=0)
    assert "JX-6.4" not in hits(result)


def test_it_gives_no_wildcard_tai_only_without_a_wildcard_jx_6_5() -> None:
    """JX-6.5 无百搭: the same tiles with 9m wild hold one wildcard (standing for its own
    face, still a wildcard tile): 清一色 4 only, instead of 4 + 1."""
    assert hits(score(PURE))["JX-6.5"] == 1
    result = score(PURE, wildcards=["9m"])
    assert_win(result, tai=4, fan=0)
    assert "JX-6.5" not in hits(result)


def test_it_stacks_all_pungs_with_pure_one_suit_jx_6_6_jx_6_8() -> None:
    """JX-6.6 + JX-6.8: 111m 333m 555m 777m 99m → 清一色 4 + 对对和 2 + 无百搭 1 = 7."""
    result = score("111m 333m 555m 777m 99m", "9m")
    assert_win(result, tai=7, fan=0)
    assert hits(result) == {"JX-6.8": 4, "JX-6.6": 2, "JX-6.5": 1}


def test_it_counts_kong_melds_for_all_pungs_jx_6_6() -> None:
    """JX-6.6 with kongs (C-3): kongs of 1m and 9p, pung 3s, 777s 44z in hand, m/p/s:
    only 对对和 2 + 无百搭 1 = 3."""
    result = score("777s 44z", "4z", melds=[
        {"type": "gang", "kind": "concealed", "tile": "1m"},
        {"type": "gang", "kind": "exposed", "tile": "9p"},
        {"type": "peng", "tile": "3s"},
    ])
    assert_win(result, tai=3, fan=0)
    assert hits(result) == {"JX-6.6": 2, "JX-6.5": 1}


def test_it_keeps_half_flush_apart_from_all_honours_and_pure_jx_6_7() -> None:
    """JX-6 Reading: 混一色 needs a suited tile and an honour, so it never comes with
    全老头 or 清一色."""
    assert "JX-6.7" not in hits(score("111z 222z 333z 555z 77z", "7z"))
    assert "JX-6.7" not in hits(score(PURE))
    assert "JX-6.8" not in hits(score("111z 222z 333z 555z 77z", "7z"))


# ---------------------------------------------------------------------------
# JX-7: fan


def test_it_gives_a_fan_for_three_wildcards_jx_7_1() -> None:
    """JX-7.1 三百搭: 123m 456m 789m 4m5m + three 9p wild (45m+W a chow, WW a pair of m):
    清一色 4 tai, 1 fan → 8."""
    result = score("123m 456m 789m 45m 999p", "9p", wildcards=["9p"])
    assert_win(result, tai=4, fan=1, points=8)
    assert hits(result) == {"JX-6.8": 4, "JX-7.1": 1}


def test_it_gives_one_fan_for_four_wildcards_jx_7_1() -> None:
    """JX-7.1 "three or more": four wildcards still give 1 fan. 123m 456m 789m 5m + 9999p
    (5m+W pair, WWW a pung of m) → 清一色 4, 1 fan → 8."""
    result = score("123m 456m 789m 5m 9999p", "9p", wildcards=["9p"])
    assert_win(result, tai=4, fan=1, points=8)
    assert hits(result)["JX-7.1"] == 1


def test_it_gives_no_fan_for_two_wildcards_jx_7_1() -> None:
    """JX-7.1 needs three: 123m 234m 456m 789m + 99p wild as a pair → 清一色 4, 0 fan."""
    result = score("123m 234m 456m 789m 99p", "9p", wildcards=["9p"])
    assert_win(result, tai=4, fan=0)


def test_it_counts_wildcards_standing_for_their_own_face_jx_7_1() -> None:
    """JX-7.1/JX-6.5: with 5m wild, the three 5m of 123m 234m 456m 789m 55m are wildcard
    tiles whatever they stand for: 清一色 4 (no 无百搭), 三百搭 1 fan → 8."""
    result = score(PURE, wildcards=["5m"])
    assert_win(result, tai=4, fan=1, points=8)
    assert hits(result) == {"JX-6.8": 4, "JX-7.1": 1}


def test_it_gives_a_fan_for_winning_on_the_kong_replacement_jx_7_2() -> None:
    """JX-7.2 杠上开花: see also the JX-5.1 test. Without after_kong, no JX-7.2."""
    melds = [{"type": "gang", "kind": "concealed", "tile": "1z"}]
    assert "JX-7.2" in hits(score("123m 456m 789m 55m", "5m", after_kong=True, melds=melds))
    assert "JX-7.2" not in hits(score("123m 456m 789m 55m", "5m", melds=melds))


def test_it_gives_no_kong_bloom_for_robbing_a_kong_jx_7_2() -> None:
    """JX-7.2 is the winner's own replacement draw; robbing someone's kong is not one."""
    result = score(PURE, "4m", self_draw=False, robbing_kong=True)
    assert "JX-7.2" not in hits(result)


def test_it_gives_a_fan_for_the_single_wait_after_four_melds_jx_7_3() -> None:
    """JX-7.3 单吊: four melds, 77z left in hand. 对对和 2 + 无百搭 1 (North pung: not the
    East round, not the West seat) = 3 tai, 1 fan → 6."""
    result = score("77z", "7z", melds=[
        {"type": "peng", "tile": "1m"},
        {"type": "peng", "tile": "2p"},
        {"type": "gang", "kind": "concealed", "tile": "3s"},
        {"type": "peng", "tile": "4z"},
    ])
    assert_win(result, tai=3, fan=1, points=6)
    assert hits(result) == {"JX-6.6": 2, "JX-6.5": 1, "JX-7.3": 1}


def test_it_gives_no_single_wait_fan_with_three_melds_jx_7_3() -> None:
    """JX-7.3 needs four melds: three pungs melded, 444z 7z7z in hand won on 7z → 3 tai, 0 fan."""
    result = score("444z 77z", "7z", melds=[
        {"type": "peng", "tile": "1m"}, {"type": "peng", "tile": "2p"},
        {"type": "peng", "tile": "3s"},
    ])
    assert_win(result, tai=3, fan=0)
    assert "JX-7.3" not in hits(result)


@pytest.mark.parametrize(("item", "rule"), [
    ("huangfan", "JX-7.4"), ("laotouhuang", "JX-7.5"), ("baozi", "JX-7.9"),
    ("baida_lianzhuang", "JX-7.10"),
])
def test_it_counts_a_banked_fan_jx_7_4_7_5_7_9_7_10(item: str, rule: str) -> None:
    """JX-7.4 黄番, 7.5 老头黄, 7.9 包子, 7.10 百搭连庄: 1 fan from the bank. 5 tai × 2 = 10."""
    result = score(PURE, bank=[item])
    assert_win(result, tai=PURE_TAI, fan=1, points=10)
    assert hits(result)[rule] == 1


@pytest.mark.parametrize(("bank", "rule"), [
    (["baozi", "huangfan", "laotouhuang"], "JX-7.9"),
    (["laotouhuang", "baozi"], "JX-7.5"),
    (["huangfan", "huangfan", "baida_lianzhuang"], "JX-7.4"),
])
def test_it_counts_only_the_oldest_banked_fan_jx_7_11(bank: list[str], rule: str) -> None:
    """JX-7.11: a win counts at most one banked fan, the oldest (first in the list)."""
    result = score(PURE, bank=bank)
    assert_win(result, tai=PURE_TAI, fan=1, points=10)
    carried = {"JX-7.4", "JX-7.5", "JX-7.9", "JX-7.10"}
    assert {i for i in hits(result) if i in carried} == {rule}


def test_it_infers_no_carried_fan_from_the_wildcard_jx_7_5() -> None:
    """JX-7.5 comes from the bank only (ENGINE-CLI: the bank is the complete list): an honour
    wildcard (1z, not in the hand) with an empty bank gives no 老头黄."""
    result = score(PURE, wildcards=["1z"], bank=[])
    assert_win(result, tai=PURE_TAI, fan=0)


def test_it_gives_a_fan_for_the_last_tile_jx_7_6() -> None:
    """JX-7.6 海底捞月: 5 tai, 1 fan → 10."""
    result = score(PURE, last_tile=True)
    assert_win(result, tai=PURE_TAI, fan=1, points=10)
    assert hits(result)["JX-7.6"] == 1


@pytest.mark.parametrize(("seat", "dealer"), [(0, 0), (2, 2)])
def test_it_gives_two_fan_for_the_heavenly_hand_jx_7_7(seat: int, dealer: int) -> None:
    """JX-7.7 天和: the dealer (whichever seat deals) wins before discarding: 2 fan.
    The dealer is East, so no wind tai here (no wind pung): 5 tai × 4 = 20."""
    result = score(PURE, first_turn=True, seat=seat, dealer=dealer)
    assert_win(result, tai=PURE_TAI, fan=2, points=20)
    assert hits(result)["JX-7.7"] == 2
    assert "JX-7.8" not in hits(result)


def test_it_accepts_the_dealers_dealt_hand_as_a_self_draw_jx_7_7() -> None:
    """JX-5.1/JX-7.7: the dealer's 14 dealt tiles hold no discard, so a 天和 position not
    flagged self_draw is still a win (the ENGINE-CLI first_turn flag says 天和 holds)."""
    result = score(PURE, first_turn=True, seat=0, dealer=0, self_draw=False)
    assert_win(result, tai=PURE_TAI, fan=2, points=20)
    assert hits(result)["JX-7.7"] == 2


@pytest.mark.parametrize(("seat", "dealer"), [(1, 0), (0, 3)])
def test_it_gives_two_fan_for_the_earthly_hand_jx_7_8(seat: int, dealer: int) -> None:
    """JX-7.8 地和: a non-dealer wins on the first draw: 2 fan, 5 tai × 4 = 20."""
    result = score(PURE, first_turn=True, seat=seat, dealer=dealer)
    assert_win(result, tai=PURE_TAI, fan=2, points=20)
    assert hits(result)["JX-7.8"] == 2
    assert "JX-7.7" not in hits(result)


def test_it_adds_up_several_fans_jx_7() -> None:
    """JX-7: fans add. Concealed kong of 5z, 123m 456m 78m + three 9p wild (78m+W a chow,
    WW a pair of m): 混一色 2 + 白板刻 1 = 3 tai (wildcards held: no 无百搭). Fans: 三百搭 1
    + 杠上开花 1 + 海底捞月 1 + 百搭连庄 1 = 4. Points 3 × 2^4 = 48."""
    result = score("123m 456m 78m 999p", "9p", wildcards=["9p"], after_kong=True,
                   last_tile=True, bank=["baida_lianzhuang"],
                   melds=[{"type": "gang", "kind": "concealed", "tile": "5z"}])
    assert_win(result, tai=3, fan=4, points=48)


# ---------------------------------------------------------------------------
# JX-10: points = base × tai × 2^fan


def test_it_scores_the_seed_example_jx_10_5() -> None:
    """JX-10.5: base 5, 3 tai, 2 fan → 5 × 3 × 2 × 2 = 60. 123m 234m 456m 789m 11z:
    混一色 2 + 无百搭 1 = 3 tai (a pair of East adds nothing); 海底捞月 1 + 包子 1 = 2 fan."""
    result = score("123m 234m 456m 789m 11z", "1z", rules={"base": 5}, last_tile=True,
                   bank=["baozi"])
    assert_win(result, tai=3, fan=2, points=60)
    assert result.to_json()["points"] == 60


def test_it_multiplies_by_the_base_without_fan_jx_10() -> None:
    """JX-10: base 2 × 5 tai × 2^0 = 10."""
    assert_win(score(PURE, rules={"base": 2}), tai=PURE_TAI, fan=0, points=10)


# ---------------------------------------------------------------------------
# C-4: wildcards


def test_it_lets_a_wildcard_be_a_fifth_copy_c_4() -> None:
    """C-4: all four 5m are in a concealed kong; 4m 6m + the 9p wildcard can only be 456m,
    the wildcard as a fifth 5m. 111z 222z 33z complete the hand: 混一色 2 + East pung in
    the East round 1 (South pung, seat West: 0) = 3 tai, no 无百搭."""
    result = score("46m 9p 111z 222z 33z", "9p", wildcards=["9p"],
                   melds=[{"type": "gang", "kind": "concealed", "tile": "5m"}])
    assert_win(result, tai=3, fan=0)
    assert hits(result) == {"JX-6.7": 2, "JX-6.4": 1}
    assert result.reading is not None and "456m" in result.reading


def test_it_picks_all_pungs_over_chows_c_4() -> None:
    """C-4: 111m 222m 333m 555m 99m reads as three chows 123m (清一色 4 + 无百搭 1 = 5) or as
    pungs (+ 对对和 2 = 7): the engine takes 7."""
    result = score("111222333555m 99m", "9m")
    assert_win(result, tai=7, fan=0)
    assert hits(result)["JX-6.6"] == 2


def test_it_picks_the_best_reading_of_a_wildcard_c_4() -> None:
    """C-4: 11m+W 222m 333m 555z 99m: W as 1m gives pungs (对对和 2 + 混一色 2 + 白 1 = 5);
    as 1m in three 123m chows only 混一色 2 + 白 1 = 3. The engine takes 5."""
    result = score("11m 9p 222m 333m 555z 99m", "9p", wildcards=["9p"])
    assert_win(result, tai=5, fan=0)
    assert hits(result) == {"JX-6.6": 2, "JX-6.7": 2, "JX-6.3": 1}


def test_it_lets_a_wildcard_make_the_better_honour_pung_c_4() -> None:
    """C-4/JX-6.3: 111m 222p 333s 44z 55z + W: W makes 444z (North: 0 tai) or 555z
    (白板刻 1); either way 对对和 2. Best: 3 tai."""
    result = score("111m 222p 333s 44z 55z 9m", "9m", wildcards=["9m"])
    assert_win(result, tai=3, fan=0)
    assert hits(result) == {"JX-6.6": 2, "JX-6.3": 1}


def test_it_lets_a_wildcard_complete_a_red_pung_c_4() -> None:
    """C-4/JX-6.1: 123m 456m 789m 55m 77z + W: W as 7z → 混一色 2 + 红中 1 = 3; as 5m
    (555m, pair 77z) only 2. Best: 3."""
    result = score("123m 456m 789m 55m 77z 9p", "9p", wildcards=["9p"])
    assert_win(result, tai=3, fan=0)
    assert hits(result) == {"JX-6.7": 2, "JX-6.1": 1}


def test_it_lets_three_wildcards_be_the_double_wind_pung_c_4_jx_6_4() -> None:
    """C-4/JX-6.4: the East dealer in the East round, 123m 456m 789m 77z + three 9p wild.
    WWW as an East pung: 混一色 2 + East (round and seat) 2 = 4 tai — better than as 7z
    (红中 1 → 3), 5z/6z (3) or m (2), and than 777z with WW a pair (3). 三百搭 1 fan → 8."""
    result = score("123m 456m 789m 77z 999p", "9p", wildcards=["9p"], seat=0, dealer=0)
    assert_win(result, tai=4, fan=1, points=8)
    assert hits(result) == {"JX-6.7": 2, "JX-6.4": 2, "JX-7.1": 1}


def test_it_reads_wildcards_of_a_wind_kind_as_that_wind_jx_6_4() -> None:
    """C-4/JX-6.4: with East (1z) wild, the East dealer's three 1z in 123m 456m 789m 22z 111z
    stand for an East pung (their own face): 混一色 2 + East round 1 + East seat 1 = 4 tai
    (no 无百搭), better than an m pung or a South pung (2); 三百搭 1 fan → 8."""
    result = score("123m 456m 789m 22z 111z", "1z", wildcards=["1z"], seat=0, dealer=0)
    assert_win(result, tai=4, fan=1, points=8)
    assert hits(result) == {"JX-6.7": 2, "JX-6.4": 2, "JX-7.1": 1}


def test_it_picks_the_legal_reading_c_4_jx_5_3() -> None:
    """C-4/JX-5.3: 111m 222m 333m 444p 55s as three 123m chows has no requirement (m, p, s),
    as pungs it is 对对和: the legal reading wins, 对对和 2 + 无百搭 1 = 3."""
    result = score("111m 222m 333m 444p 55s", "5s")
    assert_win(result, tai=3, fan=0)
    assert hits(result) == {"JX-6.6": 2, "JX-6.5": 1}


def test_it_cannot_rescue_a_second_suit_with_a_wildcard_jx_5_3() -> None:
    """JX-5.3: 123m 456m 789m 111z + 4p + W: the 4p has to pair with W (the only shape),
    which leaves m, p and honours with chows: no win."""
    assert_no_win(score("123m 456m 789m 111z 4p 9p", "9p", wildcards=["9p"]), "JX-5.3")


# ---------------------------------------------------------------------------
# JX-2.9: no wildcard in a meld


@pytest.mark.parametrize("meld", [
    {"type": "peng", "tile": "7z"},
    {"type": "gang", "kind": "exposed", "tile": "7z"},
    {"type": "gang", "kind": "concealed", "tile": "7z"},
])
def test_it_rejects_a_pung_or_kong_of_the_wildcard_jx_2_9(meld: dict[str, str]) -> None:
    with pytest.raises(PositionError):
        position("123m 456m 789m 55m", "5m", wildcards=["7z"], melds=[meld], self_draw=True)


def test_it_rejects_a_chow_holding_the_wildcard_jx_2_9() -> None:
    with pytest.raises(PositionError):
        position("123m 789m 111z 55z", "5z", wildcards=["5p"],
                 melds=[{"type": "chi", "tiles": "456p"}], self_draw=True)


# ---------------------------------------------------------------------------
# JX-8: robbing the kong


def test_it_lets_a_ready_hand_rob_a_kong_jx_8() -> None:
    """JX-8: 123m 456m 789m 23m 11z robs 4m: 混一色 2 + 无百搭 1 = 3 tai, a win."""
    result = score("123m 456m 789m 234m 11z", "4m", self_draw=False, robbing_kong=True)
    assert_win(result, tai=3, fan=0)


def test_it_refuses_a_hand_winning_on_every_tile_the_kong_jx_8() -> None:
    """JX-8: four pungs + a lone 9p wildcard wins on every kind (any tile pairs with W, and
    对对和 meets JX-5.3), so it may not rob the 9s kong. The same tiles drawn are a win."""
    hand = "111m 222p 333s 444z 9s 9p"
    assert_no_win(score(hand, "9s", wildcards=["9p"], self_draw=False, robbing_kong=True),
                  "JX-8")
    assert score(hand, "9s", wildcards=["9p"]).win


def test_it_refuses_two_wildcards_waiting_on_anything_the_kong_jx_8() -> None:
    """JX-8: 111m 222p 333s 44z + WW: any tile T gives TWW a pung (or 44z+W a pung and
    T+W the pair), always 对对和: wins on every kind, so it may not rob the 7s kong."""
    assert_no_win(score("111m 222p 333s 44z 99p 7s", "7s", wildcards=["9p"], self_draw=False,
                        robbing_kong=True), "JX-8")


def test_it_lets_a_lone_wildcard_rob_when_some_tiles_fail_jx_8() -> None:
    """JX-8 read literally ("would win on *every* tile kind"): pung 9m melded, 123m 456m 111z
    + lone W: a p or s tile would complete the shape without 混一色 (JX-5.3), so the hand does
    not win on every kind and may rob the 2m kong: 混一色 2 + East (round) 1 = 3 tai."""
    result = score("123m 456m 111z 9p 2m", "2m", wildcards=["9p"], self_draw=False,
                   robbing_kong=True, melds=[{"type": "peng", "tile": "9m"}])
    assert_win(result, tai=3, fan=0)


def test_it_refuses_a_lone_wildcard_after_four_melds_the_kong_jx_8() -> None:
    """JX-8: four pung melds + a lone 8p wildcard win on every kind (对对和 whatever the pair),
    so robbing the 6s kong is refused; drawing the same 6s is a win: 对对和 2 tai, 单吊 1 fan."""
    melds = [{"type": "peng", "tile": t} for t in ("1m", "2p", "3s", "4z")]
    assert_no_win(score("8p 6s", "6s", melds=melds, self_draw=False, robbing_kong=True), "JX-8")
    assert_win(score("8p 6s", "6s", melds=melds), tai=2, fan=1, points=4)


def test_it_refuses_robbing_a_tile_without_the_requirement_jx_8_jx_5_3() -> None:
    """JX-8 needs a legal win (JX-5): robbing 6z into 234m 567p 789s 55z 66z fails JX-5.3."""
    assert_no_win(score("234m 567p 789s 55z 666z", "6z", self_draw=False, robbing_kong=True),
                  "JX-5.3")


def test_it_never_robs_the_wildcard_kind_jx_2_9_jx_8() -> None:
    """JX-2.9: a wildcard never takes part in a kong, so there is no added kong of the
    wildcard kind to rob: no win (or the position is rejected)."""
    try:
        result = score("123m 234m 456m 789m 5m 5p", "5p", wildcards=["5p"], self_draw=False,
                       robbing_kong=True)
    except PositionError:
        return
    assert not result.win


# ---------------------------------------------------------------------------
# waits


def test_it_lists_only_waits_meeting_the_requirement_jx_5_3() -> None:
    """JX-5.3 in waits: 111m 222p 333s 44s 55s completes on 3s (33s 345s 345s), 4s (333s 444s
    55s), 5s (333s 44s 555s) and 6s (33s 345s 456s); only 4s and 5s are 对对和 — the chow
    readings are in three suits — so only they are listed, 2 unseen copies each, worth
    对对和 2 + 无百搭 1 = 3 tai; and the 8p wildcard kind (as 4s or 5s), 4 unseen, worth 2
    (a wildcard held: no 无百搭)."""
    result = waits("111m 222p 333s 44s 55s")
    assert result.shanten == 0
    assert {str(w.tile): w.remaining for w in result.waits} == {"4s": 2, "5s": 2, "8p": 4}
    assert {str(w.tile): w.score.tai for w in result.waits} == {"4s": 3, "5s": 3, "8p": 2}
    for wait in result.waits:
        assert wait.score.win and wait.score.fan == 0
        assert "JX-6.6" in hits(wait.score)


def test_it_lists_the_wildcard_kind_as_a_wait_c_4() -> None:
    """C-4: 123m 456m 789m 23m 11z waits on 1m (123m 123m), 4m (123m 234m), 7m (123m 234m
    567m 789m) — and on the 5p wildcard kind itself, which can be any of them.
    Unseen: 3 each of 1m/4m/7m (one in hand), all 4 of 5p. 混一色 2 + 无百搭 1 = 3 tai for
    the real tiles; 2 for the wildcard (no 无百搭)."""
    result = waits("123m 456m 789m 23m 11z", wildcards=["5p"])
    assert result.shanten == 0
    assert {str(w.tile): w.remaining for w in result.waits} == {"1m": 3, "4m": 3, "7m": 3,
                                                                 "5p": 4}
    tai = {str(w.tile): w.score.tai for w in result.waits}
    assert tai == {"1m": 3, "4m": 3, "7m": 3, "5p": 2}


def test_it_lists_a_lone_wildcards_legal_pairs_and_counts_unseen_copies() -> None:
    """JX-5.3 + remaining: pung 9m melded, 123m 456m 111z + a lone 9p wildcard. Any m or
    honour tile pairs with W into 混一色; p/s tiles would break it (listed: none), except the
    wildcard kind 9p (WW pair). Unseen copies: 1m–6m 3 (one in hand), 7m 8m 4, 9m 1 (three
    in the meld), 1z 1 (three in hand), 2z–7z 4, 9p 3 (one in hand)."""
    result = waits("123m 456m 111z 9p", wildcards=["9p"], melds=[{"type": "peng", "tile": "9m"}])
    assert result.shanten == 0
    expected = {
        "1m": 3, "2m": 3, "3m": 3, "4m": 3, "5m": 3, "6m": 3, "7m": 4, "8m": 4, "9m": 1,
        "9p": 3,
        "1z": 1, "2z": 4, "3z": 4, "4z": 4, "5z": 4, "6z": 4, "7z": 4,
    }
    assert {str(w.tile): w.remaining for w in result.waits} == expected


def test_it_lists_nothing_for_a_ready_shape_with_no_legal_win_jx_5_3() -> None:
    """JX-5.3: 123m 456m 789m 111z + 1p only completes as three suits with chows."""
    result = waits("123m 456m 789m 111z 1p")
    assert result.shanten == 0
    assert result.waits == []


def test_it_lists_nothing_for_a_hand_not_ready() -> None:
    result = waits("159m 159p 159s 1234z")
    assert result.shanten > 0
    assert result.waits == []


def test_it_gives_a_discard_table_for_a_hand_with_a_tile_too_many() -> None:
    """With 14 tiles, waits lists each discard: dropping 5s from 123m 456m 789m 23m 11z 5s
    leaves the 1m/4m/7m wait of the test above (wildcard 8p: 1m 4m 7m 8p)."""
    p = position("123m 456m 789m 23m 11z 5s", self_draw=True)
    table = p.variant.waits(p)
    assert isinstance(table, DiscardTable)
    assert table.shanten == 0
    by_tile: dict[str, Discard] = {str(d.tile): d for d in table.discards}
    assert wait_tiles(by_tile["5s"].after) == {"1m", "4m", "7m", "8p"}


def test_it_lists_every_kind_for_a_lone_wildcard_after_four_melds_jx_7_3() -> None:
    """A lone 8p wildcard after four pung melds (1m 2p 3s 4z) pairs with anything: all 34
    kinds win, each 对对和 2 tai (a wildcard held: no 无百搭) with 单吊 1 fan → 4 points.
    Unseen: 1 each of 1m/2p/3s/4z (three melded), 3 of 8p (one in hand), 4 of the rest."""
    melds = [{"type": "peng", "tile": t} for t in ("1m", "2p", "3s", "4z")]
    result = waits("8p", melds=melds)
    assert result.shanten == 0
    remaining = {str(w.tile): w.remaining for w in result.waits}
    assert len(remaining) == 34
    assert {k: v for k, v in remaining.items() if v != 4} == {"1m": 1, "2p": 1, "3s": 1,
                                                               "4z": 1, "8p": 3}
    for wait in result.waits:
        assert_win(wait.score, tai=2, fan=1, points=4)


def test_it_counts_the_third_wildcard_drawn_in_waits_jx_7_1() -> None:
    """JX-7.1 in waits: 123m 456m 789m 23m + two 8p wild. 23m+W is a chow and W pairs with
    any tile, so every m tile (清一色 4) and every honour (混一色 2) wins; p and s tiles would
    leave three suits (none listed); drawing a third 8p is 清一色 4 with 三百搭 1 fan → 8.
    Unseen: 2 of 2m/3m, 3 of the other m tiles, 4 of each honour, 2 of 8p."""
    result = waits("123m 456m 789m 23m 88p")
    assert result.shanten == 0
    by_tile = {str(w.tile): w for w in result.waits}
    honours = [f"{n}z" for n in range(1, 8)]
    assert set(by_tile) == {*(f"{n}m" for n in range(1, 10)), *honours, "8p"}
    for n in range(1, 10):
        wait = by_tile[f"{n}m"]
        assert wait.remaining == (2 if n in (2, 3) else 3)
        assert_win(wait.score, tai=4, fan=0)
    for tile in honours:
        assert by_tile[tile].remaining == 4
        assert_win(by_tile[tile].score, tai=2, fan=0)
    assert by_tile["8p"].remaining == 2
    assert_win(by_tile["8p"].score, tai=4, fan=1, points=8)
    assert "JX-7.1" in hits(by_tile["8p"].score)


def test_it_says_minus_one_for_a_complete_hand_with_a_tile_too_many() -> None:
    """ENGINE-CLI: shanten −1 when the hand is already complete (here the 14-tile PURE)."""
    p = position(PURE, self_draw=True)
    table = p.variant.waits(p)
    assert isinstance(table, DiscardTable)
    assert table.shanten == -1


# ---------------------------------------------------------------------------
# bad input


@pytest.mark.parametrize(("hand", "melds"), [
    ("11111m 234m 567m 789s", []),
    ("11m 234m 567m 999m", [{"type": "peng", "tile": "1m"}]),
    ("99999p 123m 456m 777z", []),  # five copies of the wildcard kind: C-4's fifth is virtual
])
def test_it_rejects_a_fifth_physical_copy_c_1(hand: str, melds: list[dict[str, str]]) -> None:
    with pytest.raises(PositionError):
        position(hand, "2m", melds=melds, wildcards=["9p"], self_draw=True)


@pytest.mark.parametrize(("hand", "melds"), [
    ("123m 234m 456m 789m 5m", []),  # 13 tiles to score
    ("123m 234m 456m 789m 555m", []),  # 15 tiles
    (PURE, [{"type": "peng", "tile": "7z"}]),  # 14 concealed tiles beside a meld
])
def test_it_rejects_a_wrong_tile_count_for_score_c_3(hand: str,
                                                     melds: list[dict[str, str]]) -> None:
    with pytest.raises(PositionError):
        score(hand, "2m", melds=melds)


def test_it_rejects_a_wrong_tile_count_for_waits_c_3() -> None:
    with pytest.raises(PositionError):
        waits("123m 234m 456m 78m")


def test_it_rejects_an_unknown_rules_option() -> None:
    with pytest.raises(PositionError):
        position(PURE, "5m", rules={"no_such_option": 1})


@pytest.mark.parametrize("wildcards", [[], ["5m", "6m"]])
def test_it_rejects_other_than_one_wildcard_kind_jx_4(wildcards: list[str]) -> None:
    with pytest.raises(PositionError):
        position(PURE, "5m", wildcards=wildcards)


def test_it_rejects_an_unknown_banked_fan_jx_7_11() -> None:
    with pytest.raises(PositionError):
        position(PURE, "5m", bank=["dice"])


def test_it_rejects_a_win_tile_outside_the_hand() -> None:
    with pytest.raises(PositionError):
        score(PURE, "9s")


# ---------------------------------------------------------------------------
# the CLI shape (ENGINE-CLI.md)


def test_it_answers_the_engine_cli_example_jx_6() -> None:
    """ENGINE-CLI/examples.json: 123456789p 111z 22z, East round, seat South, no wildcard held:
    混一色 2 + East pung (round) 1 + 无百搭 1 = 4 tai, base 1 → 4 points."""
    out = score("123456789p 11122z", "2z", wildcards=["9s"], seat=1).to_json()
    assert out["win"] is True
    assert (out["tai"], out["fan"], out["points"]) == (4, 0, 4)
    assert {p["id"] for p in out["patterns"]} == {"JX-6.7", "JX-6.4", "JX-6.5"}
    assert all({"id", "name", "en"} <= set(p) for p in out["patterns"])
    assert isinstance(out["reading"], str)


def test_it_names_the_rule_when_there_is_no_win_jx_5_3() -> None:
    out = score("234m 567p 789s 55z 666z", "6z", wildcards=["1m"]).to_json()
    assert out["win"] is False
    assert "JX-5.3" in out["reason"]
