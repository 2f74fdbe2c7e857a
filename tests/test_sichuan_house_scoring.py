"""The Sichuan house rules that change a win's value (RULES.md SC-H4–SC-H8, issue 29).

Every expectation is worked out by hand from RULES.md: a hand's fan is its highest base
pattern (SC-5.1–5.13) plus the additions, the house rules' included (SC-H6–H8, each +1
fan, all before the cap ``cap_fan``); points = base × 2^(fan − 1), and under SC-H4
``self_draw_bonus: "base"`` (自摸加底) a self-draw adds no fan but each payer pays one base
more than the capped points.

Unless a test says otherwise: seat 1 (not the dealer), void suit s, a win on a discard.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from games.commands.cli import main
from games.core import settlement
from games.core.position import Position, PositionError
from games.core.variant import Score
from games.records.log import read_log
from games.variants.positions import read_position
from games.variants.sichuan import Sichuan, SichuanTable
from tests.logbuild import (
    SC_NOT_READY_0,
    SC_NOT_READY_2,
    SC_NOT_READY_3,
    SC_WAIT_1,
    HandBuilder,
    single,
    table_after,
)
from tests.test_engine_consistency import replay_checking
from tests.test_properties import (
    PROPERTY,
    SUITED,
    _check_waits,
    _text,
    complete_tiles,
    cut,
    replaced,
    sichuan_hand,
)

# 123m 456m 789m 234p 55p: 平胡 and nothing else (1s and 9s: no 中张).
PLAIN = "123m456m789m234p55p"
# 234m 456m 678m 234p 55p: 平胡, no 1 or 9 (中张).
MIDDLE = "234m456m678m234p55p"
ALL_ON: dict[str, Any] = {"self_draw_bonus": "base", "heavenly_earthly": True,
                          "concealed_middle": True, "golden_hook": True, "sea_bottom": True}


def position(**fields: Any) -> Position:
    data: dict[str, Any] = {"variant": "sichuan", "hand": PLAIN, "win_tile": "5p",
                            "seat": 1, "dealer": 0, "void": "s"}
    data.update(fields)
    return read_position(data)


def score(**fields: Any) -> Score:
    p = position(**fields)
    return p.variant.score(p)


def names(result: Score) -> list[tuple[str, str]]:
    """Each hit's rule id and Chinese name, in the breakdown's order."""
    return [(hit.pattern.id, hit.pattern.name) for hit in result.patterns]


# ---------------------------------------------------------------------------
# SC-H4 自摸加番 or 自摸加底


def test_it_adds_a_fan_for_a_self_draw_by_default_sc_h4() -> None:
    """Default ``fan``: 平胡 1 + 自摸 1 (SC-5.15) = 2 fan → 2 points."""
    result = score(self_draw=True)
    assert names(result) == [("SC-5.1", "平胡"), ("SC-5.15", "自摸加番")]
    assert (result.fan, result.points) == (2, 2)
    assert score(self_draw=True, rules={"self_draw_bonus": "fan"}).to_json() == result.to_json()


def test_it_adds_a_base_from_each_payer_instead_of_a_fan_sc_h4() -> None:
    """``base``: 平胡 1 fan → 1 point, + 1 base = 2 points from each payer; no SC-5.15."""
    result = score(self_draw=True, rules={"self_draw_bonus": "base"})
    assert names(result) == [("SC-5.1", "平胡"), ("SC-H4", "自摸加底")]
    assert (result.fan, result.points) == (1, 2)
    assert result.to_json()["patterns"][1] == {"id": "SC-H4", "name": "自摸加底",
                                               "en": "self-draw: a base more", "points": 1}


def test_it_adds_the_base_after_the_cap_sc_h4() -> None:
    """清七对 5 fan, self-drawn, ``base``: capped to 4 fan → 8 points, + 1 base = 9; with
    base 2: 2 × 8 + 2 = 18. The default would be 6 fan capped to 4 → 8."""
    pure_pairs = {"hand": "11223344556677m", "win_tile": "7m", "void": "p", "self_draw": True}
    assert score(**pure_pairs).points == 8
    result = score(**pure_pairs, rules={"self_draw_bonus": "base"})
    assert (result.fan, result.points, result.extra) == (4, 9, {"fan_uncapped": 5})
    assert score(**pure_pairs, rules={"self_draw_bonus": "base", "base": 2}).points == 18


def test_it_adds_no_base_to_a_win_on_a_discard_sc_h4() -> None:
    result = score(rules={"self_draw_bonus": "base"})
    assert names(result) == [("SC-5.1", "平胡")]
    assert result.points == 1


def test_it_keeps_the_kong_replacement_fan_with_the_base_sc_h4_sc_5_16() -> None:
    """杠上花 under ``base``: 平胡 1 + 杠上花 1 = 2 fan → 2 points, + 1 base = 3."""
    result = score(self_draw=True, after_kong=True, rules={"self_draw_bonus": "base"})
    assert [rule for rule, _ in names(result)] == ["SC-5.1", "SC-H4", "SC-5.16"]
    assert result.points == 3


def test_the_line_shows_the_base_apart_sc_h4() -> None:
    lines = settlement.sichuan_win_payments(1, 2, 3, discarder=None, still_in={0, 1, 2, 3},
                                            base_bonus=1)
    assert [(line.payer, line.amount) for line in lines] == [(0, 3), (2, 3), (3, 3)]
    assert lines[0].formula.text == "2 番 → 2 分 + 1 底 = 3"


def _self_draw_log(rules: dict[str, Any]) -> SichuanTable:
    """Ben (:data:`SC_WAIT_1`, 111m 234m 567p 789p + 5p) draws 5p and wins on it."""
    hand = HandBuilder("sichuan", [SC_NOT_READY_0, SC_WAIT_1, SC_NOT_READY_2, SC_NOT_READY_3],
                       front="5p")
    hand.dingques("ssss").discard(0, "2m").draw(1, "5p").hu(1).end("win")
    table = table_after(single(hand, rules=rules))
    assert isinstance(table, SichuanTable)
    return table


def test_the_table_settles_a_self_draw_with_the_base_as_score_says_sc_h4() -> None:
    """Ben's 平胡 + 门清 (SC-H6 on) self-drawn on his first draw, 地胡 left out (SC-H5 off):
    ``base`` → 2 fan = 2 points + 1 base = 3 from each of the three others; ``fan`` → 3 fan
    = 4 from each. With 地胡 (6) + 门清 under ``base``: 7 fan capped to 4 → 8 + 1 = 9."""
    for rules, each in (({"self_draw_bonus": "base", "heavenly_earthly": False}, 3),
                        ({"self_draw_bonus": "fan", "heavenly_earthly": False}, 4),
                        ({"self_draw_bonus": "base"}, 9)):
        table = _self_draw_log({**rules, "concealed_middle": True})
        win = table.wins[0]
        assert win.score.points == each
        assert win.deltas == [-each, 3 * each, -each, -each]
        assert win.position is not None and Sichuan.score(win.position).points == each


# ---------------------------------------------------------------------------
# SC-H5 天胡/地胡 on or off


@pytest.mark.parametrize(("seat", "rule"), [(0, "SC-5.11"), (2, "SC-5.12")])
def test_it_leaves_out_heavenly_and_earthly_hands_when_off_sc_h5(seat: int, rule: str) -> None:
    """On (default): 天胡/地胡 6 + 自摸 1 = 7 fan (cap 10 → 64 points). Off: the hand scores by
    its other patterns, 平胡 1 + 自摸 1 = 2 fan → 2 points."""
    first = {"seat": seat, "first_turn": True, "self_draw": True}
    on = score(**first, rules={"cap_fan": 10})
    assert names(on)[0][0] == rule and on.points == 64
    assert score(**first, rules={"cap_fan": 10, "heavenly_earthly": True}).points == 64
    off = score(**first, rules={"cap_fan": 10, "heavenly_earthly": False})
    assert [r for r, _ in names(off)] == ["SC-5.1", "SC-5.15"]
    assert off.points == 2


def test_it_keeps_the_best_other_pattern_when_heavenly_is_off_sc_h5() -> None:
    """The dealer's dealt 清一色 (3) + 自摸 1 = 4 fan with SC-H5 off."""
    result = score(hand="11122233345699m", win_tile="9m", void="p", seat=0, first_turn=True,
                   self_draw=True, rules={"heavenly_earthly": False})
    assert [r for r, _ in names(result)] == ["SC-5.3", "SC-5.15"]
    assert result.fan == 4


# ---------------------------------------------------------------------------
# SC-H6 门清中张


def test_it_adds_a_fan_for_a_concealed_hand_won_on_a_discard_sc_h6() -> None:
    """RULES SC-H6 names only melds (no pung, no exposed or added kong): the claimed winning
    tile makes no meld, so 平胡 on a discard is 门清: 1 + 1 = 2 fan → 2 points. PLAIN has 1s
    and 9s: no 中张."""
    result = score(rules={"concealed_middle": True})
    assert names(result) == [("SC-5.1", "平胡"), ("SC-H6", "门清")]
    assert result.points == 2


def test_it_adds_a_fan_for_no_1_or_9_with_a_pung_shown_sc_h6() -> None:
    """234m 456m 678m 55p + a pung of 3p: the pung rules out 门清; no 1 or 9 → 中张:
    平胡 1 + 中张 1 = 2 fan."""
    result = score(hand="234m456m678m55p", melds=[{"type": "peng", "tile": "3p"}],
                   rules={"concealed_middle": True})
    assert names(result) == [("SC-5.1", "平胡"), ("SC-H6", "中张")]
    assert result.points == 2


def test_it_adds_both_for_a_concealed_hand_of_middle_tiles_sc_h6() -> None:
    """平胡 1 + 门清 1 + 中张 1 = 3 fan → 4 points; off (default) 1 point."""
    result = score(hand=MIDDLE, rules={"concealed_middle": True})
    assert [name for _, name in names(result)] == ["平胡", "门清", "中张"]
    assert result.points == 4
    assert score(hand=MIDDLE).points == 1


@pytest.mark.parametrize(("kind", "concealed"), [("concealed", True), ("exposed", False),
                                                  ("added", False)])
def test_it_allows_only_a_concealed_kong_in_a_concealed_hand_sc_h6(kind: str,
                                                                   concealed: bool) -> None:
    """A kong of 2m beside 456m 678m 234p 55p: 平胡 1 + 根 1 (SC-5.14) + 中张 1, + 门清 1
    only for a concealed kong."""
    result = score(hand="456m678m234p55p", melds=[{"type": "gang", "kind": kind, "tile": "2m"}],
                   rules={"concealed_middle": True, "cap_fan": 10})
    assert (("SC-H6", "门清") in names(result)) == concealed
    assert result.fan == (4 if concealed else 3)


def test_it_counts_a_terminal_in_a_meld_against_middle_sc_h6() -> None:
    result = score(hand="234m456m678m55p", melds=[{"type": "peng", "tile": "9p"}],
                   rules={"concealed_middle": True})
    assert names(result) == [("SC-5.1", "平胡")]


# ---------------------------------------------------------------------------
# SC-H7 金钩钓

FOUR_PUNGS = [{"type": "peng", "tile": t} for t in ("2m", "4m", "6p", "8p")]


def test_it_adds_a_fan_for_a_single_tile_beside_four_melds_sc_h7() -> None:
    """Four pungs shown, 5m held, won on a discarded 5m: 对对胡 2 + 金钩钓 1 = 3 fan →
    4 points; off, 2 points."""
    hook = {"hand": "55m", "win_tile": "5m", "melds": FOUR_PUNGS}
    result = score(**hook, rules={"golden_hook": True})
    assert names(result) == [("SC-5.2", "对对胡"), ("SC-H7", "金钩钓")]
    assert result.points == 4
    assert score(**hook).points == 2


def test_it_gives_no_golden_hook_to_three_melds_sc_h7() -> None:
    result = score(hand="234p55m", win_tile="5m", melds=FOUR_PUNGS[:3],
                   rules={"golden_hook": True})
    assert "SC-H7" not in [rule for rule, _ in names(result)]


def test_it_counts_a_concealed_kong_among_the_four_melds_sc_h7() -> None:
    """Three pungs and a concealed kong of 8p (根 1): 对对胡 2 + 根 1 + 金钩钓 1 + 自摸 1 = 5."""
    melds = [*FOUR_PUNGS[:3], {"type": "gang", "kind": "concealed", "tile": "8p"}]
    result = score(hand="55m", win_tile="5m", melds=melds, self_draw=True,
                   rules={"golden_hook": True, "cap_fan": 10})
    assert [rule for rule, _ in names(result)] == ["SC-5.2", "SC-5.14", "SC-5.15", "SC-H7"]
    assert result.fan == 5


# ---------------------------------------------------------------------------
# SC-H8 海底


def test_it_adds_a_fan_for_a_self_draw_on_the_last_tile_sc_h8() -> None:
    """海底捞月: 平胡 1 + 自摸 1 + 海底 1 = 3 fan → 4 points; off, 2 points."""
    result = score(self_draw=True, last_tile=True, rules={"sea_bottom": True})
    assert names(result) == [("SC-5.1", "平胡"), ("SC-5.15", "自摸加番"), ("SC-H8", "海底")]
    assert result.points == 4
    assert score(self_draw=True, last_tile=True).points == 2


def test_it_adds_a_fan_for_a_win_on_the_discard_after_the_last_tile_sc_h8() -> None:
    """海底炮: 平胡 1 + 海底 1 = 2 fan → 2 points."""
    result = score(last_tile=True, rules={"sea_bottom": True})
    assert names(result) == [("SC-5.1", "平胡"), ("SC-H8", "海底")]
    assert result.points == 2


def test_it_gives_no_sea_bottom_before_the_last_tile_nor_to_robbing_a_kong_sc_h8() -> None:
    assert "SC-H8" not in [r for r, _ in names(score(self_draw=True, rules={"sea_bottom": True}))]
    robbing = score(robbing_kong=True, last_tile=True, rules={"sea_bottom": True})
    assert [r for r, _ in names(robbing)] == ["SC-5.1", "SC-5.18"]


def _last_tile_log(rules: dict[str, Any], *, ron: bool) -> SichuanTable:
    """The table after :func:`_last_tile_hand`."""
    table = table_after(single(_last_tile_hand(ron=ron), rules=rules))
    assert isinstance(table, SichuanTable)
    return table


def _last_tile_hand(*, ron: bool) -> HandBuilder:
    """The wall runs out: the last tile (5p) goes to Dee. With ``ron`` Dee (not ready)
    discards it and Ben (:data:`SC_WAIT_1`) wins on it (海底炮); otherwise Dee holds
    :data:`SC_WAIT_1` and wins on it (海底捞月)."""
    deal = ([SC_NOT_READY_0, SC_WAIT_1, SC_NOT_READY_2, SC_NOT_READY_3] if ron
            else [SC_NOT_READY_0, SC_NOT_READY_2, "2m4m6m8m1p3p7p9p2m6p8p6m9m", SC_WAIT_1])
    hand = HandBuilder("sichuan", deal, back="5p")
    hand.dingques("ssss").discard(0, "2m").cycle(1, 54)
    assert hand.left == 1
    hand.draw(3)
    if ron:
        hand.discard(3, "5p").ron(1)
    else:
        hand.hu(3)
    return hand.end("exhausted")


@pytest.mark.parametrize(("ron", "points", "deltas"),
                         [(False, 4, [-4, -4, -4, 12]), (True, 2, [0, 2, 0, -2])])
def test_the_table_flags_the_last_tile_for_both_sea_bottom_wins_sc_h8(
        ron: bool, points: int, deltas: list[int]) -> None:
    """海底捞月 (平胡 1 + 自摸 1 + 海底 1 = 3 fan → 4 from each) and 海底炮 (平胡 1 + 海底 1 =
    2 fan → 2 from Dee), settled by the table as ``score`` says."""
    table = _last_tile_log({"sea_bottom": True}, ron=ron)
    win = table.wins[0]
    assert "SC-H8" in [hit.pattern.id for hit in win.score.patterns]
    assert (win.score.points, win.deltas) == (points, deltas)


@pytest.mark.parametrize("ron", [False, True])
def test_the_sea_bottom_logs_settle_as_the_events_say_sc_h8(ron: bool) -> None:
    """The engine-consistency check (flags worked out from the events alone, then
    ``score``) agrees with the table on both logs, every house rule on."""
    checked = replay_checking(read_log(single(_last_tile_hand(ron=ron), rules=ALL_ON)))
    assert (checked.wins, checked.exhausted) == (1, 1)


# ---------------------------------------------------------------------------
# All together, past the cap; defaults; refusals


def test_it_counts_every_addition_before_the_cap_sc_h4_to_h8() -> None:
    """Pungs of 2m 3m 4m 6m shown, 5m self-drawn on the last tile: 清对 4 (SC-5.6) + 中张 1
    + 金钩钓 1 + 海底 1 = 7 fan, capped to 4 → 8 points, + 1 base (自摸加底) = 9; with the
    self-draw fan instead (8 fan) 8 points; cap 10: 2^6 + 1 = 65."""
    melds = [{"type": "peng", "tile": t} for t in ("2m", "3m", "4m", "6m")]
    hook = {"hand": "55m", "win_tile": "5m", "void": "p", "melds": melds, "self_draw": True,
            "last_tile": True}
    result = score(**hook, rules=ALL_ON)
    assert [r for r, _ in names(result)] == ["SC-5.6", "SC-H4", "SC-H6", "SC-H7", "SC-H8"]
    assert (result.fan, result.points, result.extra) == (4, 9, {"fan_uncapped": 7})
    assert score(**hook, rules={**ALL_ON, "self_draw_bonus": "fan"}).to_json()["fan_uncapped"] == 8
    assert score(**hook, rules={**ALL_ON, "cap_fan": 10}).points == 65


@pytest.mark.parametrize("fields", [
    {"self_draw": True}, {"self_draw": True, "last_tile": True}, {"last_tile": True},
    {"hand": MIDDLE}, {"hand": "55m", "win_tile": "5m", "melds": FOUR_PUNGS},
    {"seat": 0, "first_turn": True, "self_draw": True},
])
def test_it_scores_as_before_with_the_defaults_spelled_out_sc_h(fields: dict[str, Any]) -> None:
    defaults = {name: option.default for name, option in Sichuan.OPTIONS.items()}
    assert score(**fields, rules=defaults).to_json() == score(**fields).to_json()
    assert not any(r.startswith("SC-H") for r, _ in names(score(**fields)))


@pytest.mark.parametrize(("rules", "message"), [
    ({"self_draw_bonus": "double"}, "'self_draw_bonus' must be one of fan, base"),
    ({"self_draw_bonus": 1}, "'self_draw_bonus' must be one of fan, base"),
    ({"heavenly_earthly": "off"}, "'heavenly_earthly' must be true or false"),
    ({"concealed_middle": 1}, "'concealed_middle' must be true or false"),
    ({"golden_hook": None}, "'golden_hook' must be true or false"),
    ({"sea_bottom": "yes"}, "'sea_bottom' must be true or false"),
])
def test_it_refuses_bad_house_rule_values_naming_the_option_sc_h(rules: dict[str, Any],
                                                                  message: str) -> None:
    with pytest.raises(PositionError, match=message):
        position(rules=rules)


# The table's own options (SC-H1 exchange_three, SC-H2 blood_flow) come with the table's
# house rules; until they are in OPTIONS a preset may name them and nothing else unknown.
TABLE_OPTIONS = {"exchange_three", "blood_flow"}


def test_it_offers_the_presets_players_know_sc_h() -> None:
    presets = Sichuan.PRESETS
    assert list(presets) == ["seed", "chengdu", "blood_flow"]
    assert presets["seed"].rules == {}
    chengdu = presets["chengdu"].rules
    assert chengdu == {"exchange_three": True, "self_draw_bonus": "base",
                       "concealed_middle": True, "golden_hook": True, "sea_bottom": True,
                       "heavenly_earthly": True, "cap_fan": 4}
    assert presets["blood_flow"].rules == {**chengdu, "blood_flow": True}
    for preset in presets.values():
        assert preset.chinese and preset.english
        assert set(preset.rules) - set(Sichuan.OPTIONS) <= TABLE_OPTIONS
        known = {k: v for k, v in preset.rules.items() if k in Sichuan.OPTIONS}
        assert Sichuan.check_rules(known) == known


# ---------------------------------------------------------------------------
# Property: with any house rules, waits are exactly the winning draws (SC-4, SC-H)

house_rules = st.fixed_dictionaries({}, optional={
    "self_draw_bonus": st.sampled_from(("fan", "base")),
    "heavenly_earthly": st.booleans(), "concealed_middle": st.booleans(),
    "golden_hook": st.booleans(), "sea_bottom": st.booleans(),
    "cap_fan": st.integers(1, 8), "base": st.integers(1, 3)})


@st.composite
def melded_sichuan_hand(draw: st.DrawFn) -> tuple[dict[str, Any], list[int]]:
    """A Sichuan hand beside one to four pungs or kongs (four: a single tile held, 金钩钓)."""
    void = draw(st.integers(0, 2))
    kinds = [k for k in SUITED if k // 9 != void]
    count = draw(st.integers(1, 4))
    meld_kinds = draw(st.lists(st.sampled_from(kinds), min_size=count, max_size=count,
                               unique=True))
    melds: list[dict[str, Any]] = []
    for kind in meld_kinds:
        shape = draw(st.sampled_from(("peng", "exposed", "added", "concealed")))
        tile = _text([kind])
        melds.append({"type": "peng", "tile": tile} if shape == "peng"
                     else {"type": "gang", "kind": shape, "tile": tile})
    limits = {k: 0 for k in meld_kinds}
    tiles = draw(complete_tiles(4 - count, kinds, limits=limits))
    tiles = draw(cut(draw(replaced(tiles, kinds, 1, limits)), 13 - 3 * count))
    return ({"variant": "sichuan", "hand": _text(tiles), "void": "mps"[void], "melds": melds},
            [k for k in SUITED if k // 9 != void])


def _check_with_context(case: tuple[dict[str, Any], list[int]], rules: dict[str, Any],
                        flags: dict[str, bool]) -> None:
    obj, drawable = case
    obj = {**obj, **flags, "rules": rules}
    _check_waits(obj, drawable)
    found = Sichuan.waits(read_position(obj))
    additions = {hit.pattern.id for wait in getattr(found, "waits", ())
                 for hit in wait.score.patterns if hit.pattern.id.startswith("SC-H")}
    event(f"house additions in the waits: {', '.join(sorted(additions)) or 'none'}")


flags = st.fixed_dictionaries({"self_draw": st.booleans(), "last_tile": st.booleans(),
                               "first_turn": st.booleans(), "after_kong_discard": st.booleans(),
                               "seat": st.integers(0, 3)})


@PROPERTY
@given(sichuan_hand(13), house_rules, flags)
def test_it_lists_as_waits_exactly_the_winning_draws_with_house_rules_sc_h(
        case: tuple[dict[str, Any], list[int]], rules: dict[str, Any],
        context: dict[str, bool]) -> None:
    """SC-4 with SC-H4–H8: every wait of ``waits`` scores as a win with the same points, and
    every winning draw is a wait, whatever the house rules and the win's context."""
    if context["self_draw"]:
        context = {**context, "after_kong_discard": False}
    _check_with_context(case, rules, context)


@PROPERTY
@given(melded_sichuan_hand(), house_rules, flags)
def test_it_lists_the_waits_of_melded_hands_with_house_rules_sc_h(
        case: tuple[dict[str, Any], list[int]], rules: dict[str, Any],
        context: dict[str, bool]) -> None:
    """As above beside melds, 金钩钓's single tile among them (SC-H6, SC-H7)."""
    context = {**context, "first_turn": False}
    if context["self_draw"]:
        context = {**context, "after_kong_discard": False}
    _check_with_context(case, rules, context)


# ---------------------------------------------------------------------------
# docs/engine.md: its `python -m games score` examples print what it says

ENGINE_DOC = Path(__file__).resolve().parent.parent / "docs" / "engine.md"
COMMAND = re.compile(r"^\$ echo '(.*)' \| python -m games score\n(.*)$", re.M)


def test_the_engine_doc_shows_what_score_prints_for_the_house_rules_sc_h() -> None:
    examples = COMMAND.findall(ENGINE_DOC.read_text(encoding="utf-8"))
    shown = {rule for _position, printed in examples
             for rule in re.findall(r'"id": "(SC-H\d)"', printed)}
    assert {"SC-H4", "SC-H6", "SC-H7", "SC-H8"} <= shown
    for position, printed in examples:
        out = io.StringIO()
        status = main(["score"], stdin=io.StringIO(position), stdout=out)
        assert json.loads(out.getvalue()) == json.loads(printed), position
        assert status == (0 if '"win"' in printed else 1)
