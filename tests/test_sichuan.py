"""Rule-by-rule tests of the Sichuan 血战到底 variant (RULES.md section 3, SC-*).

Every expectation is worked out by hand from RULES.md, not read back from the
engine. A hand's fan is its one highest base pattern (SC-5.1–5.13) plus the
additions (SC-5.14–5.18); points = base × 2^(fan − 1) with the fan capped at
the rules option ``cap_fan`` (default 4 → at most 8 points), and ``fan`` is
reported after the cap (ENGINE-CLI.md).

Unless a test says otherwise: seat 1 (not the dealer), void suit s, a win on a
discard, default rules.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.core.position import Position, PositionError
from games.core.variant import DiscardTable, Score, Waits
from games.variants.positions import read_position

from .conftest import find_shared_rules

# 14 tiles, two suits: 123m 456m 789m 234p 55p — 平胡 and nothing else.
PLAIN = "123m456m789m234p55p"


def position(**fields: Any) -> Position:
    data: dict[str, Any] = {"variant": "sichuan", "hand": PLAIN, "win_tile": "5p",
                            "seat": 1, "dealer": 0, "void": "s"}
    data.update(fields)
    data = {k: v for k, v in data.items() if v is not None}
    return read_position(data)


def score(**fields: Any) -> Score:
    p = position(**fields)
    return p.variant.score(p)


def ids(result: Score) -> list[str]:
    return [hit.pattern.id for hit in result.patterns]


def hit(result: Score, rule: str) -> int | None:
    """The fan a pattern adds, or None when it doesn't apply."""
    for h in result.patterns:
        if h.pattern.id == rule:
            return h.value
    return None


def base_patterns(result: Score) -> list[str]:
    """The base patterns (SC-5.1–SC-5.13) among the hits: there must be one."""
    return [i for i in ids(result) if int(i.split(".")[1]) <= 13]


def waits_of(**fields: Any) -> Waits:
    p = position(win_tile=None, **fields)
    result = p.variant.waits(p)
    assert isinstance(result, Waits)
    return result


def wait_tiles(result: Waits) -> dict[str, int]:
    return {str(w.tile): w.remaining for w in result.waits}


# ---------------------------------------------------------------------------
# SC-1: the 108 suited tiles only.


@pytest.mark.parametrize("honour", ["1z", "4z", "5z", "7z"])
def test_it_rejects_honours_sc_1(honour: str) -> None:
    """SC-1: no winds, no dragons — not even white."""
    with pytest.raises(PositionError, match="SC-1"):
        position(hand="123m456m789m234p5p" + honour, win_tile="5p")


def test_it_rejects_an_honour_meld_sc_1() -> None:
    with pytest.raises(PositionError, match="SC-1"):
        position(hand="123m456m234p55p", melds=[{"type": "peng", "tile": "7z"}])


def test_it_rejects_wildcards_sc_1() -> None:
    """SC-1: Sichuan has no wildcard."""
    with pytest.raises(PositionError, match="wildcard"):
        position(wildcards=["5m"])


# ---------------------------------------------------------------------------
# SC-2 / SC-4.2: the void suit, 缺一门.


def test_it_refuses_a_win_while_holding_the_void_suit_sc_4_2() -> None:
    """SC-4.2: a complete two-suit hand still can't win holding its void suit (m)."""
    result = score(void="m")
    assert not result.win
    assert "SC-4.2" in (result.reason or "")
    assert result.to_json()["points"] == 0


def test_it_refuses_seven_pairs_holding_the_void_suit_sc_4_2() -> None:
    """SC-4.2 applies to every shape, seven pairs included."""
    result = score(hand="11m33m55m77m22p44p88p", win_tile="8p", void="p")
    assert not result.win
    assert "SC-4.2" in (result.reason or "")


def test_it_refuses_three_suits_without_a_void_sc_4_2() -> None:
    """SC-4.2: without `void`, a winning hand still has at most two suits."""
    result = score(hand="123m456m789p234s55s", win_tile="5s", void=None)
    assert not result.win
    assert "SC-4.2" in (result.reason or "")


def test_it_refuses_three_suits_with_a_void_sc_4_2() -> None:
    result = score(hand="123m456m789p234s55s", win_tile="5s", void="p")
    assert not result.win
    assert "SC-4.2" in (result.reason or "")


def test_it_accepts_two_suits_without_a_void_sc_4_2() -> None:
    result = score(void=None)
    assert result.win
    assert result.points == 1


@pytest.mark.parametrize("meld", [
    {"type": "peng", "tile": "1s"},
    {"type": "gang", "kind": "exposed", "tile": "1s"},
    {"type": "gang", "kind": "added", "tile": "1s"},
    {"type": "gang", "kind": "concealed", "tile": "1s"},
])
def test_it_rejects_a_meld_of_the_void_suit_sc_2(meld: dict[str, str]) -> None:
    """SC-2: a player may not pung or kong their void suit."""
    with pytest.raises(PositionError, match="SC-2"):
        position(hand="123m456m234p55p", melds=[meld])


def test_it_rejects_a_bad_void_sc_2() -> None:
    with pytest.raises(PositionError, match="SC-2"):
        position(void="z")


# ---------------------------------------------------------------------------
# SC-3: no chow.


def test_it_rejects_a_chow_meld_sc_3() -> None:
    with pytest.raises(PositionError, match="SC-3"):
        position(hand="456m789m234p55p", melds=[{"type": "chi", "tiles": "123m"}])


def test_it_accepts_pung_and_kong_melds_sc_3() -> None:
    """SC-3: pungs and the three kinds of kong are fine: 123m 456m 234p 55p + 999p."""
    for meld in ({"type": "peng", "tile": "9p"},
                 {"type": "gang", "kind": "exposed", "tile": "9p"},
                 {"type": "gang", "kind": "added", "tile": "9p"},
                 {"type": "gang", "kind": "concealed", "tile": "9p"}):
        result = score(hand="123m456m234p55p", melds=[meld])
        assert result.win, meld


# ---------------------------------------------------------------------------
# SC-4.1: shapes.


def test_it_refuses_a_hand_without_a_shape_sc_4_1() -> None:
    result = score(hand="123m456m789m234p59p", win_tile="9p")
    assert not result.win
    assert "SC-4.1" in (result.reason or "")


def test_it_counts_four_identical_tiles_as_two_pairs_sc_4_1() -> None:
    """SC-4.1: 1111m 33m 55m 22p 44p 66p is seven pairs (and so 龙七对, SC-5.8)."""
    result = score(hand="1111m33m55m22p44p66p", win_tile="6p", rules={"cap_fan": 10})
    assert result.win
    assert base_patterns(result) == ["SC-5.8"]


def test_it_refuses_pairs_with_a_meld_sc_4_1() -> None:
    """SC-4.1: seven pairs only without melds: 5 pairs and a tile + a pung is no win."""
    result = score(hand="11m33m55m77m22p4p", win_tile="4p",
                   melds=[{"type": "peng", "tile": "9p"}])
    assert not result.win


# ---------------------------------------------------------------------------
# SC-5.1–SC-5.13: one highest base pattern.

# (rule, hand, win tile, fan by hand). All on a discard, no 根, cap_fan 10.
BASES = [
    ("SC-5.1", PLAIN, "5p", 1),                       # 平胡
    ("SC-5.2", "111m333m555p777p99p", "9p", 2),       # 对对胡
    ("SC-5.3", "123m456m789m234m55m", "5m", 3),       # 清一色
    ("SC-5.4", "123m789m123p999p11p", "1p", 3),       # 带幺九
    ("SC-5.5", "11m33m55m77m22p44p88p", "8p", 3),     # 七对
    ("SC-5.6", "111m333m555m777m99m", "9m", 4),       # 清对, not 清一色 3 + 对对胡 2
    ("SC-5.7", "222m555m888m222p55p", "5p", 4),       # 将对, not 对对胡 2
    ("SC-5.8", "1111m33m55m22p44p66p", "6p", 5),      # 龙七对, its four no 根
    ("SC-5.9", "11m22m44m55m77m88m99m", "9m", 5),     # 清七对, not 七对 3 + 清一色 3
    ("SC-5.10", "123m789m789m789m11m", "1m", 5),      # 清幺九, not 清一色 3 + 带幺九 3
    ("SC-5.13", "1111m22m33m55m77m99m", "9m", 6),     # 清龙七对, its four no 根
]


@pytest.mark.parametrize(("rule", "hand", "win_tile", "fan"), BASES,
                         ids=[b[0] for b in BASES])
def test_it_takes_the_one_highest_base_pattern_sc_5(rule: str, hand: str, win_tile: str,
                                                    fan: int) -> None:
    """SC-5: the base patterns don't stack; only the highest counts."""
    result = score(hand=hand, win_tile=win_tile, rules={"cap_fan": 10})
    assert result.win
    assert base_patterns(result) == [rule]
    assert hit(result, rule) == fan
    assert hit(result, "SC-5.14") is None
    assert result.fan == fan
    assert result.points == 2 ** (fan - 1)


def test_it_needs_a_terminal_pair_for_daiyaojiu_sc_5_4() -> None:
    """SC-5.4: the pair too must hold a 1 or 9: 123m 789m 123p 999p 55p is 平胡 1."""
    result = score(hand="123m789m123p999p55p")
    assert base_patterns(result) == ["SC-5.1"]
    assert result.points == 1


def test_it_needs_a_258_pair_for_jiangdui_sc_5_7() -> None:
    """SC-5.7: every tile 2, 5 or 8: with a 99p pair it is only 对对胡 2."""
    result = score(hand="222m555m888m222p99p", win_tile="9p")
    assert base_patterns(result) == ["SC-5.2"]
    assert result.points == 2


def test_it_counts_melds_in_jiangdui_sc_5_7() -> None:
    """SC-5.7 with melds: pung 2p + kong 8m (根 1) + 222m 555m 55p → 将对 4 + 根 1 = 5."""
    result = score(hand="222m555m55p", win_tile="5p", rules={"cap_fan": 10},
                   melds=[{"type": "peng", "tile": "2p"},
                          {"type": "gang", "kind": "exposed", "tile": "8m"}])
    assert base_patterns(result) == ["SC-5.7"]
    assert hit(result, "SC-5.14") == 1
    assert result.fan == 5


def test_it_counts_a_kong_in_qingdui_sc_5_6() -> None:
    """SC-5.6: kong 1m + 333m 555m 777m 99m: 清对 4 + 根 1 = 5 → 16 at cap 10."""
    result = score(hand="333m555m777m99m", win_tile="9m", rules={"cap_fan": 10},
                   melds=[{"type": "gang", "kind": "concealed", "tile": "1m"}])
    assert base_patterns(result) == ["SC-5.6"]
    assert result.fan == 5
    assert result.points == 16


def test_it_prefers_seven_pairs_to_a_plain_reading_sc_5_5() -> None:
    """SC-5: 11m22m33m44p55p66p77p is also 123m 123m 44p 567p 567p (平胡 1);
    七对 3 is higher → 4 points."""
    result = score(hand="11m22m33m44p55p66p77p", win_tile="7p")
    assert base_patterns(result) == ["SC-5.5"]
    assert result.fan == 3
    assert result.points == 4


def test_it_scores_a_plain_pure_hand_at_3_not_4_sc_5_3() -> None:
    """SC-5.3 alone: 4 points at the default cap."""
    result = score(hand="123m456m789m234m55m", win_tile="5m")
    assert result.fan == 3
    assert result.points == 4


def test_it_scores_tianhu_for_the_dealer_sc_5_11() -> None:
    """SC-5.11 天胡 6, paid as a self-draw: + 自摸 1 (SC-5.15) = 7 → 64 at cap 10."""
    result = score(seat=0, dealer=0, first_turn=True, self_draw=True, rules={"cap_fan": 10})
    assert result.win
    assert base_patterns(result) == ["SC-5.11"]
    assert hit(result, "SC-5.11") == 6
    assert result.fan == 7
    assert result.points == 64


def test_it_scores_dihu_for_a_non_dealer_self_draw_sc_5_12() -> None:
    """SC-5.12 地胡 6 + 自摸 1 = 7."""
    result = score(seat=2, dealer=0, first_turn=True, self_draw=True, rules={"cap_fan": 10})
    assert result.win
    assert base_patterns(result) == ["SC-5.12"]
    assert result.fan == 7


def test_it_gives_no_dihu_on_a_discard_sc_5_12() -> None:
    """SC-5.12 needs a self-draw: a first-turn win on a discard is 平胡 1."""
    result = score(seat=2, dealer=0, first_turn=True, self_draw=False)
    assert result.win
    assert base_patterns(result) == ["SC-5.1"]
    assert result.points == 1


def test_it_gives_no_dihu_after_a_pung_sc_5_12() -> None:
    """SC-5.12: no 地胡 once anyone has punged; the player's own pung shows it."""
    try:
        result = score(hand="123m456m234p55p", melds=[{"type": "peng", "tile": "9p"}],
                       seat=2, dealer=0, first_turn=True, self_draw=True)
    except PositionError:
        return  # refusing the contradictory position is fine too
    assert "SC-5.12" not in ids(result)


# ---------------------------------------------------------------------------
# SC-5.14 根.


def test_it_adds_a_gen_for_four_in_the_hand_sc_5_14() -> None:
    """SC-5.14: 111m 123m 456p 789p 55p holds all four 1m: 平胡 1 + 根 1 = 2 → 2."""
    result = score(hand="111m123m456p789p55p")
    assert hit(result, "SC-5.14") == 1
    assert result.fan == 2
    assert result.points == 2


def test_it_adds_a_gen_for_a_kong_meld_sc_5_14() -> None:
    """SC-5.14 melds included: an exposed kong of 1p: 平胡 1 + 根 1 = 2."""
    result = score(hand="234m567m789p55p", melds=[{"type": "gang", "kind": "exposed",
                                                  "tile": "1p"}])
    assert result.win
    assert hit(result, "SC-5.14") == 1
    assert result.fan == 2
    assert result.points == 2


def test_it_adds_a_gen_for_a_pung_meld_and_the_fourth_in_hand_sc_5_14() -> None:
    """SC-5.14: a 5p pung + 567p in hand = all four 5p: 平胡 1 + 根 1 = 2."""
    result = score(hand="567p123m456m99m", win_tile="9m",
                   melds=[{"type": "peng", "tile": "5p"}])
    assert result.win
    assert hit(result, "SC-5.14") == 1
    assert result.fan == 2


def test_it_counts_a_kong_as_a_pung_and_a_gen_sc_5_2_sc_5_14() -> None:
    """C-3 / SC-5.2: kong 1p + 222m 555m 888p 99p is 对对胡 2 + 根 1 = 3 → 4."""
    result = score(hand="222m555m888p99p", win_tile="9p",
                   melds=[{"type": "gang", "kind": "concealed", "tile": "1p"}])
    assert base_patterns(result) == ["SC-5.2"]
    assert hit(result, "SC-5.14") == 1
    assert result.fan == 3
    assert result.points == 4


def test_it_counts_two_gen_sc_5_14() -> None:
    """SC-5.14: kongs of 1p and 9m + 234m 55m: 平胡 1 + 根 2 = 3 → 4."""
    result = score(hand="234m55m", win_tile="5m",
                   melds=[{"type": "gang", "kind": "exposed", "tile": "1p"},
                          {"type": "gang", "kind": "concealed", "tile": "9m"},
                          {"type": "peng", "tile": "7p"}],
                   rules={"cap_fan": 10})
    assert result.win
    assert hit(result, "SC-5.14") == 2
    assert result.fan == 3


def test_it_counts_the_second_four_of_longqidui_as_a_gen_sc_5_8_sc_5_14() -> None:
    """SC-5.8: 1111m 3333p 55m 77m 99p is 龙七对 5; one four is its own, the
    other a 根: 5 + 1 = 6 → 32 at cap 6."""
    result = score(hand="1111m3333p55m77m99p", win_tile="9p", rules={"cap_fan": 6})
    assert base_patterns(result) == ["SC-5.8"]
    assert hit(result, "SC-5.14") == 1
    assert result.fan == 6
    assert result.points == 32


def test_it_counts_the_second_four_of_qinglongqidui_as_a_gen_sc_5_13() -> None:
    """SC-5.13: 1111m 3333m 55m 77m 99m: 清龙七对 6 + 根 1 = 7 → 64 at cap 10."""
    result = score(hand="1111m3333m55m77m99m", win_tile="9m", rules={"cap_fan": 10})
    assert base_patterns(result) == ["SC-5.13"]
    assert hit(result, "SC-5.14") == 1
    assert result.fan == 7
    assert result.points == 64


# ---------------------------------------------------------------------------
# SC-5.15–SC-5.18: the other additions.


def test_it_adds_one_for_self_draw_sc_5_15() -> None:
    """SC-5.15: 平胡 1 + 自摸 1 = 2 → 2."""
    result = score(self_draw=True)
    assert hit(result, "SC-5.15") == 1
    assert result.fan == 2
    assert result.points == 2


def test_it_adds_gangshanghua_to_a_self_draw_after_a_kong_sc_5_16() -> None:
    """SC-5.16: concealed kong 1p, win on the replacement: 平胡 1 + 根 1 + 自摸 1
    + 杠上花 1 = 4 → 8."""
    result = score(hand="234m567m789p55p", melds=[{"type": "gang", "kind": "concealed",
                                                  "tile": "1p"}],
                   self_draw=True, after_kong=True)
    assert hit(result, "SC-5.16") == 1
    assert hit(result, "SC-5.15") == 1
    assert result.fan == 4
    assert result.points == 8


def test_it_adds_gangshangpao_on_a_discard_after_a_kong_sc_5_17() -> None:
    """SC-5.17: win on the discard after the discarder's kong: 平胡 1 + 1 = 2 → 2."""
    result = score(after_kong_discard=True)
    assert hit(result, "SC-5.17") == 1
    assert "SC-5.15" not in ids(result)
    assert result.fan == 2
    assert result.points == 2


def test_it_adds_one_for_robbing_the_kong_sc_5_18() -> None:
    """SC-5.18: robbing an added kong of 4p (three 4p seen in the pung): 平胡 1 + 1."""
    result = score(win_tile="4p", robbing_kong=True, seen="4p4p4p")
    assert hit(result, "SC-5.18") == 1
    assert "SC-5.15" not in ids(result)
    assert result.fan == 2
    assert result.points == 2


# ---------------------------------------------------------------------------
# The cap (封顶) and the base.


def test_it_caps_at_4_fan_8_points_by_default_sc_5() -> None:
    """SC-5: 清龙七对 6 + 自摸 1 = 7, default cap_fan 4 → fan 4, 8 points."""
    result = score(hand="1111m22m33m55m77m99m", win_tile="9m", self_draw=True)
    assert result.fan == 4
    assert result.points == 8
    assert result.to_json()["fan"] == 4
    assert result.to_json()["fan_uncapped"] == 7


def test_it_caps_at_the_rules_cap_fan_sc_5() -> None:
    """SC-5: the same 7 fan with cap_fan 6 → fan 6, 32 points."""
    result = score(hand="1111m22m33m55m77m99m", win_tile="9m", self_draw=True,
                   rules={"cap_fan": 6})
    assert result.fan == 6
    assert result.points == 32
    assert result.to_json()["fan_uncapped"] == 7


def test_it_caps_longqidui_with_a_gen_at_the_default_sc_5() -> None:
    """SC-5.8 + 根 = 6 fan → capped to 4: 8 points."""
    result = score(hand="1111m3333p55m77m99p", win_tile="9p")
    assert result.fan == 4
    assert result.points == 8
    assert result.to_json()["fan_uncapped"] == 6


def test_it_reports_no_uncapped_fan_under_the_cap_sc_5() -> None:
    result = score(self_draw=True)
    assert "fan_uncapped" not in result.to_json()


def test_it_multiplies_by_the_base_option_sc_6() -> None:
    """SC-6 `base`: 平胡 + 自摸 = 2 fan → 2 × 2 = 4."""
    result = score(self_draw=True, rules={"base": 2})
    assert result.points == 4


def test_it_multiplies_the_capped_points_by_the_base_sc_5_sc_6() -> None:
    """base 3, 7 fan capped to 4 → 3 × 8 = 24."""
    result = score(hand="1111m22m33m55m77m99m", win_tile="9m", self_draw=True,
                   rules={"base": 3})
    assert result.points == 24


@pytest.mark.parametrize("rules", [{"cap_fan": 0}, {"cap_fan": "4"}, {"base": 0},
                                   {"cap_fan": True}])
def test_it_rejects_bad_option_values_sc_5(rules: dict[str, Any]) -> None:
    with pytest.raises(PositionError, match="rules option"):
        position(rules=rules)


# ---------------------------------------------------------------------------
# examples.json


def _examples(variant: str) -> list[dict[str, Any]]:
    folder = find_shared_rules()  # read while collecting: no skip here
    if folder is None:
        return []
    return [e for e in json.loads((folder / "examples.json").read_text(encoding="utf-8"))
            if e["input"]["variant"] == variant]


@pytest.mark.parametrize("example", _examples("sichuan"), ids=lambda e: e["about"][:40])
def test_it_answers_the_sichuan_examples_sc_5(example: dict[str, Any]) -> None:
    """The shared examples (SC-5.1 + SC-5.15 = 2 fan; a two-sided wait)."""
    p = read_position(example["input"])
    if example["command"] == "score":
        out = p.variant.score(p).to_json()
        for key, value in example["output_includes"].items():
            assert out[key] == value, key
    else:
        result = p.variant.waits(p)
        assert isinstance(result, Waits)
        assert sorted(str(w.tile) for w in result.waits) == sorted(example["output_wait_tiles"])


# ---------------------------------------------------------------------------
# waits


def test_it_never_waits_on_the_void_suit_sc_2() -> None:
    """SC-2: 1112345678999m waits on every m tile, nothing else (void s)."""
    result = waits_of(hand="1112345678999m")
    assert result.shanten == 0
    assert sorted(wait_tiles(result)) == sorted(f"{n}m" for n in range(1, 10))


def test_it_has_no_waits_while_holding_the_void_suit_sc_4_2() -> None:
    """SC-4.2: the same nine-gate hand with void m can't win on anything."""
    result = waits_of(hand="1112345678999m", void="m")
    assert result.waits == []


def test_it_waits_on_the_seventh_pair_sc_4_1() -> None:
    """SC-4.1: six pairs + 8p wait on 8p; 3 left (one in hand); 七对 3 → 4 points."""
    result = waits_of(hand="11m33m55m77m22p44p8p")
    assert wait_tiles(result) == {"8p": 3}
    assert result.waits[0].score.points == 4


def test_it_waits_on_the_seventh_pair_with_a_four_sc_4_1_sc_5_8() -> None:
    """SC-4.1 / SC-5.8: 1111m 33m 55m 22p 44p 6p waits on 6p for 龙七对 (5, capped 4)."""
    result = waits_of(hand="1111m33m55m22p44p6p")
    assert wait_tiles(result) == {"6p": 3}
    assert result.waits[0].score.points == 8


def test_it_counts_remaining_with_seen_and_melds() -> None:
    """ENGINE-CLI `remaining`: pung 9p + 123m 456m 78m 55p waits on 3m (123 345 678;
    4 − 1 held = 3), 6m (4 − 1 held − 1 seen = 2) and 9m (4 − 0 = 4)."""
    result = waits_of(hand="123m456m78m55p", melds=[{"type": "peng", "tile": "9p"}],
                      seen="6m")
    assert wait_tiles(result) == {"3m": 3, "6m": 2, "9m": 4}


def test_it_counts_remaining_of_a_seven_pairs_wait_with_seen() -> None:
    result = waits_of(hand="11m33m55m77m22p44p8p", seen="8p8p")
    assert wait_tiles(result) == {"8p": 1}


def test_it_offers_only_void_tiles_as_discards_sc_2() -> None:
    """SC-2: while holding the void suit every discard must be of it."""
    p = position(hand="111234567m7899p1s", win_tile=None)
    table = p.variant.waits(p)
    assert isinstance(table, DiscardTable)
    assert [str(d.tile) for d in table.discards] == ["1s"]


# ---------------------------------------------------------------------------
# Bad input.


def test_it_rejects_an_unknown_variant() -> None:
    with pytest.raises(PositionError, match='unknown variant "szechuan"'):
        read_position({"variant": "szechuan", "hand": PLAIN})


def test_it_rejects_an_unknown_rules_option() -> None:
    with pytest.raises(PositionError, match="'gold'"):
        position(rules={"gold": 1})


def test_it_rejects_a_wrong_tile_count_for_score_sc_4_1() -> None:
    p = position(hand="123m456m789m234p5p")
    with pytest.raises(PositionError, match="needs 14"):
        p.variant.score(p)


def test_it_rejects_a_wrong_tile_count_with_a_meld_sc_4_1() -> None:
    p = position(melds=[{"type": "peng", "tile": "9p"}])
    with pytest.raises(PositionError, match="needs 11"):
        p.variant.score(p)


def test_it_rejects_a_fifth_copy_c_1() -> None:
    with pytest.raises(PositionError, match="5 copies of 5p"):
        position(hand="123m456m789m55555p")


def test_it_rejects_a_fifth_copy_across_a_meld_and_seen_c_1() -> None:
    with pytest.raises(PositionError, match="5 copies of 9p"):
        position(hand="123m456m234p55p", melds=[{"type": "gang", "kind": "exposed",
                                                "tile": "9p"}], seen="9p")


def test_it_rejects_self_draw_with_robbing_kong_sc_5_18() -> None:
    """A robbed kong tile is another player's, not a draw."""
    with pytest.raises(PositionError):
        score(self_draw=True, robbing_kong=True)
