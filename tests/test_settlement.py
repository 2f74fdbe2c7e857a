"""Tests of games.core.settlement: money only (RULES C-6, JX-9/JX-10, PT-6/PT-7, SC-6)."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.core import settlement
from games.core.settlement import (
    BeanSettlement,
    SettlementError,
    jiaxing_fee_deltas,
    jiaxing_leave_deltas,
    jiaxing_multipliers,
    jiaxing_score,
    jiaxing_win_deltas,
    putian_base,
    putian_flower_points,
    putian_flower_settlement,
    putian_points,
    putian_win_deltas,
    sichuan_bean_deltas,
    sichuan_discard_win_deltas,
    sichuan_exhaustion_deltas,
    sichuan_kong_deltas,
    sichuan_self_draw_deltas,
)

ALL_IN = frozenset({0, 1, 2, 3})


def test_it_keeps_every_docstring_example_true_c6() -> None:
    """The doctests are part of the contract (C-6 and every rule they cite)."""
    result = doctest.testmod(settlement)
    assert result.attempted > 0
    assert result.failed == 0


def test_it_is_a_value_error_naming_the_rule_jx_9() -> None:
    """Errors subclass ValueError and start with the rule id (here JX-9)."""
    error = SettlementError("JX-9", "text")
    assert isinstance(error, ValueError)
    assert error.rule == "JX-9"
    assert str(error) == "JX-9: text"


# ---------------------------------------------------------------------------
# Jiaxing JX-10.5: the score


def test_it_scores_the_jx_10_5_seed_example() -> None:
    assert jiaxing_score(5, 3, 2) == 60


def test_it_scores_without_fan_jx_10() -> None:
    assert jiaxing_score(1, 4, 0) == 4
    assert jiaxing_score(2, 10, 3) == 160


@pytest.mark.parametrize(
    ("base", "tai", "fan", "rule"), [(-1, 1, 0, "JX-10"), (1, -1, 0, "JX-6"), (1, 1, -1, "JX-7")]
)
def test_it_rejects_a_negative_score_part_jx_10(base: int, tai: int, fan: int, rule: str) -> None:
    with pytest.raises(SettlementError, match=rule) as caught:
        jiaxing_score(base, tai, fan)
    assert caught.value.rule == rule


# ---------------------------------------------------------------------------
# Jiaxing JX-10.1–JX-10.4: every contract relation × robbing
#
# Each row: winner, contracts, gave_up, robbed, the expected multipliers.

JIAXING_CASES = [
    # JX-10.1: no contract.
    pytest.param(0, [], [], None, [0, 1, 1, 1], id="jx_10_1_no_contract"),
    pytest.param(2, [], [], None, [1, 1, 0, 1], id="jx_10_1_no_contract_other_winner"),
    # JX-10.4 without a contract: the robbed pays ×3 alone.
    pytest.param(0, [], [], 2, [0, 0, 3, 0], id="jx_10_4_robbed_no_contract"),
    # JX-10.2: winner in a contract.
    pytest.param(0, [(0, 1)], [], None, [0, 5, 2, 2], id="jx_10_2_winner_in_contract_all_persist"),
    pytest.param(0, [(1, 0)], [3], None, [0, 5, 2, 0], id="jx_10_2_winner_in_contract_one_gave_up"),
    pytest.param(
        0, [(0, 1)], [2, 3], None, [0, 5, 0, 0], id="jx_10_2_winner_in_contract_both_gave_up"
    ),
    # JX-10.2 + JX-10.4: the seed's example (robbed partner ×8, the others ×2).
    pytest.param(0, [(0, 1)], [], 1, [0, 8, 2, 2], id="jx_10_4_seed_robbed_partner_of_winner"),
    pytest.param(0, [(0, 1)], [3], 1, [0, 8, 2, 0], id="jx_10_4_robbed_partner_other_gave_up"),
    pytest.param(0, [(0, 1)], [], 2, [0, 5, 5, 2], id="jx_10_4_winner_in_contract_robbed_outside"),
    pytest.param(
        0, [(0, 1)], [3], 2, [0, 5, 5, 0], id="jx_10_4_winner_in_contract_robbed_outside_gave_up"
    ),
    # JX-10.3: winner not in a contract.
    pytest.param(2, [(0, 1)], [], None, [2, 2, 0, 1], id="jx_10_3_winner_outside_all_persist"),
    pytest.param(2, [(0, 1)], [3], None, [2, 2, 0, 0], id="jx_10_3_winner_outside_other_gave_up"),
    # JX-10.3 + JX-10.4.
    pytest.param(
        2, [(0, 1)], [], 1, [2, 5, 0, 1], id="jx_10_4_robbed_in_contract_with_someone_else"
    ),
    pytest.param(2, [(0, 1)], [3], 0, [5, 2, 0, 0], id="jx_10_4_robbed_in_other_contract_gave_up"),
    pytest.param(2, [(0, 1)], [], 3, [2, 2, 0, 4], id="jx_10_4_robbed_not_in_contract"),
    # Two contract pairs (JX-9 reading): the winner is always in one.
    pytest.param(3, [(0, 1), (2, 3)], [], None, [2, 2, 5, 0], id="jx_9_two_pairs"),
    pytest.param(3, [(0, 1), (3, 2)], [], 2, [2, 2, 8, 0], id="jx_9_two_pairs_robbed_partner"),
    pytest.param(3, [(0, 1), (2, 3)], [], 0, [5, 2, 5, 0], id="jx_9_two_pairs_robbed_other_pair"),
]


@pytest.mark.parametrize(("winner", "contracts", "gave_up", "robbed", "expected"), JIAXING_CASES)
def test_it_applies_jx_10_multipliers(
    winner: int,
    contracts: list[tuple[int, int]],
    gave_up: list[int],
    robbed: int | None,
    expected: list[int],
) -> None:
    assert (
        jiaxing_multipliers(winner, contracts=contracts, gave_up=gave_up, robbed=robbed) == expected
    )
    deltas = jiaxing_win_deltas(winner, 10, contracts=contracts, gave_up=gave_up, robbed=robbed)
    assert deltas == [
        10 * sum(expected) if seat == winner else -10 * m for seat, m in enumerate(expected)
    ]
    assert sum(deltas) == 0


def test_it_settles_the_jx_10_4_seed_example() -> None:
    """Score 60, the robbed player in contract with the winner pays 480, a persisting other 120."""
    assert jiaxing_win_deltas(1, 60, contracts=[(1, 3)], robbed=3) == [-120, 720, -120, -480]


def test_it_settles_the_jx_10_4_seed_example_with_the_fourth_seat_gone() -> None:
    """JX-9: a player who gave up pays nothing, even on a robbed kong (JX-10.4)."""
    assert jiaxing_win_deltas(1, 60, contracts=[(1, 3)], gave_up=[2], robbed=3) == [
        -120,
        600,
        0,
        -480,
    ]


def test_it_combines_jx_10_5_score_and_jx_10_1_payment() -> None:
    assert jiaxing_win_deltas(2, jiaxing_score(5, 3, 2)) == [-60, -60, 180, -60]


def test_it_counts_a_repeated_contract_pair_once_jx_9() -> None:
    assert jiaxing_multipliers(0, contracts=[(0, 1), (1, 0)]) == [0, 5, 2, 2]


def test_it_accepts_a_zero_score_jx_10() -> None:
    assert jiaxing_win_deltas(0, 0) == [0, 0, 0, 0]


@pytest.mark.parametrize(
    ("kwargs", "rule"),
    [
        pytest.param({"winner": 4}, "JX-10", id="winner_off_table"),
        pytest.param({"winner": 0, "contracts": [(0, 4)]}, "JX-9", id="contract_seat_off_table"),
        pytest.param({"winner": 0, "contracts": [(1, 1)]}, "JX-9", id="contract_with_itself"),
        pytest.param({"winner": 0, "contracts": [(0, 1, 2)]}, "JX-9", id="contract_of_three"),
        pytest.param(
            {"winner": 0, "contracts": [(0, 1), (0, 2)]}, "JX-9", id="seat_in_two_contracts"
        ),
        pytest.param(
            {"winner": 0, "contracts": [(0, 1), (2, 1)]}, "JX-9", id="partner_in_two_contracts"
        ),
        pytest.param({"winner": 0, "gave_up": [2]}, "JX-9", id="gave_up_without_contract"),
        pytest.param(
            {"winner": 2, "contracts": [(0, 1)], "gave_up": [2]}, "JX-9", id="winner_gave_up"
        ),
        pytest.param(
            {"winner": 2, "contracts": [(0, 1)], "gave_up": [1]}, "JX-9", id="contract_seat_gave_up"
        ),
        pytest.param(
            {"winner": 0, "contracts": [(0, 1)], "gave_up": [5]}, "JX-9", id="gave_up_off_table"
        ),
        pytest.param({"winner": 0, "robbed": 0}, "JX-8", id="robbed_self"),
        pytest.param({"winner": 0, "robbed": -1}, "JX-8", id="robbed_off_table"),
        pytest.param(
            {"winner": 0, "contracts": [(0, 1)], "gave_up": [2], "robbed": 2},
            "JX-9",
            id="gave_up_robbed",
        ),
    ],
)
def test_it_rejects_impossible_jx_9_jx_10_arguments(kwargs: dict[str, object], rule: str) -> None:
    with pytest.raises(SettlementError, match=rule) as caught:
        jiaxing_win_deltas(score=60, **kwargs)  # type: ignore[arg-type]
    assert caught.value.rule == rule


def test_it_rejects_a_negative_score_jx_10() -> None:
    with pytest.raises(SettlementError, match="JX-10"):
        jiaxing_win_deltas(0, -1)


# ---------------------------------------------------------------------------
# Jiaxing JX-10.6: fees and leaving (not zero-sum: the house takes them)


def test_it_charges_the_jx_10_6_fee_capped_by_balance() -> None:
    fees = jiaxing_fee_deltas([500, 30, 0, -20], 50)
    assert fees == [-50, -30, 0, 0]
    assert sum(fees) != 0  # C-6: fees leave the table.


def test_it_charges_nothing_with_the_default_jx_10_6_fee() -> None:
    assert jiaxing_fee_deltas([10, 10, 10, 10], 0) == [0, 0, 0, 0]


def test_it_charges_only_the_leaver_jx_10_6() -> None:
    assert jiaxing_leave_deltas(1, [500, 500, 500, 500], 50, 100) == [0, -150, 0, 0]
    assert jiaxing_leave_deltas(3, [500, 500, 500, 120], 50, 100) == [0, 0, 0, -120]
    assert jiaxing_leave_deltas(0, [0, 500, 500, 500], 50, 100) == [0, 0, 0, 0]


@pytest.mark.parametrize(
    "call",
    [
        lambda: jiaxing_fee_deltas([1, 2, 3], 5),
        lambda: jiaxing_fee_deltas([1, 2, 3, 4], -5),
        lambda: jiaxing_leave_deltas(4, [1, 2, 3, 4], 5, 5),
        lambda: jiaxing_leave_deltas(0, [1, 2, 3, 4], 5, -5),
    ],
)
def test_it_rejects_bad_jx_10_6_arguments(call: object) -> None:
    with pytest.raises(SettlementError, match="JX-10.6"):
        call()  # type: ignore[operator]


# ---------------------------------------------------------------------------
# Putian PT-6: flower points


def test_it_counts_the_pt_6_seed_example() -> None:
    """1 gold + 4 whites = 6."""
    assert putian_flower_points(1, 0, 4, 0) == 6


@pytest.mark.parametrize(("whites", "points"), [(0, 0), (1, 1), (2, 2), (3, 3), (4, 5)])
def test_it_counts_laid_out_whites_pt_6(whites: int, points: int) -> None:
    assert putian_flower_points(0, 0, whites, 0) == points


def test_it_counts_a_white_gold_as_two_pt_6() -> None:
    """Golds and white golds are separate counts: 1 gold + 2 white golds = 1 + 4."""
    assert putian_flower_points(1, 2, 0, 0) == 5
    assert putian_flower_points(0, 4, 0, 0) == 8


def test_it_counts_concealed_kongs_as_two_pt_6() -> None:
    assert putian_flower_points(2, 0, 1, 2) == 7


@pytest.mark.parametrize(
    ("args", "rule"),
    [
        ((-1, 0, 0, 0), "PT-6"),
        ((0, -1, 0, 0), "PT-6"),
        ((0, 0, 0, -1), "PT-6"),
        ((0, 5, 0, 0), "PT-6"),
        ((0, 0, 5, 0), "PT-6"),
        ((1, 1, 1, 0), "PT-3.4"),
    ],
)
def test_it_rejects_impossible_pt_6_flowers(args: tuple[int, int, int, int], rule: str) -> None:
    with pytest.raises(SettlementError, match=rule):
        putian_flower_points(*args)


# ---------------------------------------------------------------------------
# Putian PT-7.1: base


@pytest.mark.parametrize(("streak", "base"), [(0, 1), (1, 3), (2, 4), (5, 7)])
def test_it_raises_the_pt_7_1_base_with_the_dealer_streak(streak: int, base: int) -> None:
    assert putian_base(streak) == base


def test_it_rejects_a_negative_pt_7_1_streak() -> None:
    with pytest.raises(SettlementError, match="PT-7.1"):
        putian_base(-1)


# ---------------------------------------------------------------------------
# Putian PT-7.2–PT-7.4: wins


def test_it_pays_a_dealer_win_pt_7_2() -> None:
    """The dealer wins: each loser pays (1 + 2) × 2, no extra."""
    assert putian_win_deltas(1, 1, dealer_streak=0, flower_points=[0, 2, 0, 0]) == [-6, 18, -6, -6]


def test_it_charges_the_dealer_2_more_on_a_non_dealer_win_pt_7_2() -> None:
    assert putian_win_deltas(3, 1, dealer_streak=0, flower_points=[0, 0, 0, 2]) == [-6, -8, -6, 20]


@pytest.mark.parametrize(("streak", "stake"), [(0, 2), (1, 6), (2, 8)])
def test_it_applies_the_pt_7_1_base_to_every_loser(streak: int, stake: int) -> None:
    """Reading PT-7.1: the raised base applies to every payment, whoever wins."""
    deltas = putian_win_deltas(2, 0, dealer_streak=streak, flower_points=[0, 0, 0, 0])
    assert deltas == [-stake - 2, -stake, 3 * stake + 2, -stake]


@pytest.mark.parametrize(("bomb", "stake"), [("big", 50), ("super", 100)])
def test_it_pays_big_bombs_flat_pt_7_3(bomb: str, stake: int) -> None:
    """No dealer extra and no base: each loser pays the flat stake (winner +150 / +300)."""
    deltas = putian_win_deltas(1, 0, dealer_streak=3, flower_points=[0, 5, 0, 0], bomb=bomb)
    assert deltas == [-stake, 3 * stake, -stake, -stake]


def test_it_pays_a_small_bomb_as_pt_7_2() -> None:
    flowers = [0, 4, 1, 1]
    plain = putian_win_deltas(1, 0, dealer_streak=1, flower_points=flowers)
    assert putian_win_deltas(1, 0, dealer_streak=1, flower_points=flowers, bomb="small") == plain
    assert plain == [-18, 44, -13, -13]


def test_it_settles_pt_7_4_flowers_after_a_big_bomb() -> None:
    deltas = putian_win_deltas(0, 0, dealer_streak=0, flower_points=[6, 3, 1, 0], bomb="big")
    assert deltas == [150, -50 + 5, -50 - 1, -50 - 4]


def test_it_settles_the_pt_7_4_seed_example() -> None:
    """C wins; A 6, B 2, D 1 → D pays A 5, D pays B 1, B pays A 4."""
    a, b, c, d = 0, 1, 2, 3
    deltas = putian_flower_settlement(c, [6, 2, 99, 1])
    assert deltas[a] == 5 + 4
    assert deltas[b] == 1 - 4
    assert deltas[c] == 0
    assert deltas[d] == -5 - 1


def test_it_settles_the_pt_7_4_seed_example_in_full_with_a_non_dealer_winner() -> None:
    """PT-7.2 + PT-7.4: A deals, C wins with 3 flower points, each pays (1 + 3) × 2 = 8, A 2 more."""
    deltas = putian_win_deltas(2, 0, dealer_streak=0, flower_points=[6, 2, 3, 1])
    assert deltas == [-10 + 9, -8 - 3, 26, -8 - 6]
    assert deltas == [-1, -11, 26, -14]


def test_it_settles_the_pt_7_4_seed_example_in_full_with_a_dealer_winner() -> None:
    deltas = putian_win_deltas(2, 2, dealer_streak=0, flower_points=[6, 2, 3, 1])
    assert deltas == [-8 + 9, -8 - 3, 24, -8 - 6]


def test_it_gives_the_cli_points_pt_7_2() -> None:
    """The engine CLI example: one laid-out white, dealer wins: (1 + 1) × 2 = 4."""
    assert putian_points(0, 1) == 4
    assert putian_points(1, 1) == 8
    assert putian_points(0, 1, bomb="small") == 4
    assert putian_points(0, 1, bomb="big") == 50
    assert putian_points(0, 1, bomb="super") == 100


@pytest.mark.parametrize(
    ("call", "rule"),
    [
        (lambda: putian_points(0, 1, bomb="huge"), "PT-7.3"),
        (lambda: putian_points(0, -1), "PT-6"),
        (lambda: putian_win_deltas(4, 0, dealer_streak=0, flower_points=[0] * 4), "PT-7.2"),
        (lambda: putian_win_deltas(0, 4, dealer_streak=0, flower_points=[0] * 4), "PT-1"),
        (lambda: putian_win_deltas(0, 0, dealer_streak=0, flower_points=[0] * 3), "PT-6"),
        (lambda: putian_win_deltas(0, 0, dealer_streak=0, flower_points=[0, -1, 0, 0]), "PT-6"),
        (lambda: putian_win_deltas(0, 0, dealer_streak=-1, flower_points=[0] * 4), "PT-7.1"),
    ],
)
def test_it_rejects_bad_pt_7_arguments(call: object, rule: str) -> None:
    with pytest.raises(SettlementError, match=rule):
        call()  # type: ignore[operator]


# ---------------------------------------------------------------------------
# Sichuan SC-6.1 and SC-6.2: wins


def test_it_makes_the_discarder_pay_sc_6_1() -> None:
    assert sichuan_discard_win_deltas({3: 8}, 1) == [0, -8, 0, 8]


def test_it_makes_the_discarder_pay_every_winner_sc_6_1() -> None:
    """一炮多响 (SC-3.1): two and three winners on one discard."""
    assert sichuan_discard_win_deltas({0: 1, 2: 4}, 3) == [1, 0, 4, -5]
    assert sichuan_discard_win_deltas({0: 1, 1: 2, 3: 8}, 2) == [1, 2, -11, 8]


@pytest.mark.parametrize(
    ("winners", "discarder", "rule"),
    [
        ({}, 0, "SC-6.1"),
        ({0: 2}, 0, "SC-6.1"),
        ({1: 0}, 0, "SC-5"),
        ({4: 2}, 0, "SC-6.1"),
        ({1: 2}, 9, "SC-6.1"),
    ],
)
def test_it_rejects_bad_sc_6_1_arguments(
    winners: dict[int, int], discarder: int, rule: str
) -> None:
    with pytest.raises(SettlementError, match=rule):
        sichuan_discard_win_deltas(winners, discarder)


def test_it_makes_everyone_still_in_pay_a_self_draw_sc_6_2() -> None:
    assert sichuan_self_draw_deltas(0, 2, ALL_IN) == [6, -2, -2, -2]


def test_it_spares_players_who_already_won_sc_6_2() -> None:
    """血战到底 (SC-3.2): seats 1 and 2 have won and left the hand."""
    assert sichuan_self_draw_deltas(3, 4, {0, 3}) == [-4, 0, 0, 4]
    assert sichuan_self_draw_deltas(0, 4, [0, 2, 3]) == [8, 0, -4, -4]


@pytest.mark.parametrize(
    ("winner", "points", "still_in", "rule"),
    [
        (1, 2, {0, 2, 3}, "SC-6.2"),
        (1, 2, {1}, "SC-6.2"),
        (1, 0, ALL_IN, "SC-5"),
        (1, 2, {1, 7}, "SC-6.2"),
    ],
)
def test_it_rejects_bad_sc_6_2_arguments(
    winner: int, points: int, still_in: set[int], rule: str
) -> None:
    with pytest.raises(SettlementError, match=rule):
        sichuan_self_draw_deltas(winner, points, still_in)


# ---------------------------------------------------------------------------
# Sichuan SC-6.3: kongs


def test_it_makes_the_feeder_pay_an_exposed_kong_sc_6_3() -> None:
    assert sichuan_kong_deltas(1, "exposed", still_in=ALL_IN, feeder=3) == [0, 2, 0, -2]


def test_it_makes_only_the_feeder_pay_with_players_out_sc_6_3() -> None:
    assert sichuan_kong_deltas(0, "exposed", still_in={0, 2}, feeder=2) == [2, 0, -2, 0]


def test_it_makes_everyone_still_in_pay_an_added_kong_sc_6_3() -> None:
    assert sichuan_kong_deltas(2, "added", still_in=ALL_IN) == [-1, -1, 3, -1]
    assert sichuan_kong_deltas(2, "added", still_in={0, 2, 3}) == [-1, 0, 2, -1]


def test_it_makes_everyone_still_in_pay_a_concealed_kong_sc_6_3() -> None:
    assert sichuan_kong_deltas(1, "concealed", still_in=ALL_IN) == [-2, 6, -2, -2]
    assert sichuan_kong_deltas(1, "concealed", still_in={1, 3}) == [0, 2, 0, -2]


@pytest.mark.parametrize(
    ("konger", "kind", "still_in", "feeder"),
    [
        (0, "exposed", ALL_IN, None),
        (0, "exposed", ALL_IN, 0),
        (0, "exposed", {0, 1}, 2),
        (0, "exposed", ALL_IN, 4),
        (0, "added", ALL_IN, 1),
        (0, "concealed", ALL_IN, 1),
        (0, "robbed", ALL_IN, None),
        (0, "added", {1, 2}, None),
        (0, "added", {0}, None),
        (5, "added", ALL_IN, None),
    ],
)
def test_it_rejects_bad_sc_6_3_arguments(
    konger: int, kind: str, still_in: set[int], feeder: int | None
) -> None:
    with pytest.raises(SettlementError, match="SC-6.3"):
        sichuan_kong_deltas(konger, kind, still_in=still_in, feeder=feeder)


# ---------------------------------------------------------------------------
# Sichuan SC-6.4: exhausted hands


def test_it_settles_sc_6_4_flower_pig_big_call_and_refunds_together() -> None:
    """All four still in: 0 is a 花猪, 1 not ready, 2 ready for 4, 3 ready for 2.

    (a) 0 pays 1, 2, 3 the cap 8 each; (b) 1 pays 2 four and 3 two;
    (c) 0 gives back its exposed kong (2 from 3), 1 its concealed kong (2 each
    from 0, 2, 3); 2 is ready and keeps its added kong (1 each).
    """
    deltas = sichuan_exhaustion_deltas(
        still_in=ALL_IN,
        flower_pigs={0},
        ready_points={2: 4, 3: 2},
        cap_points=8,
        kong_income={0: [(3, 2)], 1: [(0, 2), (2, 2), (3, 2)], 2: [(0, 1), (1, 1), (3, 1)]},
    )
    pigs = [-24, 8, 8, 8]
    big_call = [0, -6, 4, 2]
    refunds = [-2 + 2, -6, 2, 2 + 2]
    assert deltas == [p + b + r for p, b, r in zip(pigs, big_call, refunds, strict=True)]
    assert deltas == [-24, -4, 14, 14]
    assert sum(deltas) == 0


def test_it_spares_flower_pigs_from_each_other_and_from_sc_6_4_b() -> None:
    """Two 花猪 pay the other two, not each other, and pay no 查大叫."""
    deltas = sichuan_exhaustion_deltas(
        still_in=ALL_IN, flower_pigs={0, 1}, ready_points={3: 4}, cap_points=8, kong_income={}
    )
    assert deltas == [-16, -16, 16 - 4, 16 + 4]


def test_it_leaves_players_who_won_out_of_sc_6_4() -> None:
    """Seat 3 won earlier: no 查花猪 for it, but a kong refund still reaches it."""
    deltas = sichuan_exhaustion_deltas(
        still_in={0, 1, 2},
        flower_pigs={0},
        ready_points={},
        cap_points=8,
        kong_income={3: [(0, 2)], 2: [(3, 2), (1, 2)]},
    )
    assert deltas == [-16, 8 + 2, 8 - 4, 2]


def test_it_only_refunds_when_nobody_is_ready_sc_6_4_c() -> None:
    deltas = sichuan_exhaustion_deltas(
        still_in={1, 2},
        flower_pigs=(),
        ready_points={},
        cap_points=8,
        kong_income={1: [(2, 1), (0, 1)]},
    )
    assert deltas == [1, -2, 1, 0]


def test_it_pays_nothing_when_everyone_still_in_is_ready_sc_6_4() -> None:
    deltas = sichuan_exhaustion_deltas(
        still_in={0, 1},
        flower_pigs=(),
        ready_points={0: 8, 1: 2},
        cap_points=8,
        kong_income={0: [(1, 2)]},
    )
    assert deltas == [0, 0, 0, 0]


@pytest.mark.parametrize(
    ("kwargs", "rule"),
    [
        pytest.param({"still_in": {2}}, "SC-6.4", id="one_still_in"),
        pytest.param({"flower_pigs": {3}, "still_in": {0, 1}}, "SC-6.4", id="pig_already_won"),
        pytest.param(
            {"ready_points": {3: 2}, "still_in": {0, 1}}, "SC-6.4", id="ready_already_won"
        ),
        pytest.param({"flower_pigs": {1}, "ready_points": {1: 2}}, "SC-4.2", id="pig_ready"),
        pytest.param({"ready_points": {1: 16}}, "SC-5", id="ready_above_cap"),
        pytest.param({"ready_points": {1: 0}}, "SC-5", id="ready_zero"),
        pytest.param({"cap_points": 0}, "SC-5", id="cap_zero"),
        pytest.param({"kong_income": {1: [(1, 2)]}}, "SC-6.3", id="paid_own_kong"),
        pytest.param({"kong_income": {1: [(0, 0)]}}, "SC-6.3", id="zero_kong_payment"),
        pytest.param({"kong_income": {1: [(0, 2, 3)]}}, "SC-6.4", id="bad_kong_payment"),
        pytest.param({"kong_income": {4: [(0, 2)]}}, "SC-6.4", id="kong_owner_off_table"),
        pytest.param({"kong_income": {1: [(6, 2)]}}, "SC-6.4", id="kong_payer_off_table"),
    ],
)
def test_it_rejects_bad_sc_6_4_arguments(kwargs: dict[str, object], rule: str) -> None:
    arguments: dict[str, object] = {
        "still_in": ALL_IN,
        "flower_pigs": (),
        "ready_points": {},
        "cap_points": 8,
        "kong_income": {},
    }
    arguments.update(kwargs)
    with pytest.raises(SettlementError, match=rule):
        sichuan_exhaustion_deltas(**arguments)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# Sichuan SC-6.5: beans


def test_it_settles_the_sc_6_5_seed_example() -> None:
    """N 200, 54 points from three losers of 18: +10800, −3600 each, fee 400 each apart."""
    beans = sichuan_bean_deltas([54, -18, -18, -18], 200, 400)
    assert beans == BeanSettlement([10800, -3600, -3600, -3600], [-400, -400, -400, -400])
    deltas, fees = beans
    assert sum(deltas) == 0
    assert beans.totals == [10400, -4000, -4000, -4000]


def test_it_never_takes_a_balance_below_zero_for_the_sc_6_5_fee() -> None:
    beans = sichuan_bean_deltas([-3, 1, 1, 1], 100, 50, balances=[320, 0, 10, -500])
    assert beans.deltas == [-300, 100, 100, 100]
    assert beans.fees == [-20, -50, -50, 0]


@pytest.mark.parametrize(
    ("args", "rule"),
    [
        (([1, -1, 0], 1, 0, None), "SC-6.5"),
        (([1, 0, 0, 0], 1, 0, None), "C-6"),
        (([1, -1, 0, 0], -1, 0, None), "SC-6.5"),
        (([1, -1, 0, 0], 1, -1, None), "SC-6.5"),
        (([1, -1, 0, 0], 1, 0, [1, 2]), "SC-6.5"),
    ],
)
def test_it_rejects_bad_sc_6_5_arguments(
    args: tuple[list[int], int, int, list[int] | None], rule: str
) -> None:
    with pytest.raises(SettlementError, match=rule):
        sichuan_bean_deltas(*args)


# ---------------------------------------------------------------------------
# C-6: every settlement sums to zero (hypothesis)

seats = st.integers(min_value=0, max_value=3)


@st.composite
def jiaxing_hands(draw: st.DrawFn) -> tuple[int, list[tuple[int, int]], list[int], int | None]:
    order = draw(st.permutations([0, 1, 2, 3]))
    pairs = draw(st.integers(min_value=0, max_value=2))
    contracts = [(order[0], order[1]), (order[2], order[3])][:pairs]
    in_contract = {seat for pair in contracts for seat in pair}
    winner = draw(seats)
    free = [seat for seat in range(4) if seat not in in_contract and seat != winner]
    gave_up = draw(st.lists(st.sampled_from(free), unique=True)) if contracts and free else []
    robbable = [seat for seat in range(4) if seat != winner and seat not in gave_up]
    robbed = draw(st.none() | st.sampled_from(robbable))
    return winner, contracts, gave_up, robbed


@given(jiaxing_hands(), st.integers(min_value=0, max_value=10**6))
def test_it_sums_jiaxing_wins_to_zero_c6(
    hand: tuple[int, list[tuple[int, int]], list[int], int | None], score: int
) -> None:
    winner, contracts, gave_up, robbed = hand
    deltas = jiaxing_win_deltas(winner, score, contracts=contracts, gave_up=gave_up, robbed=robbed)
    assert sum(deltas) == 0
    assert deltas[winner] >= 0
    assert all(deltas[seat] == 0 for seat in gave_up)  # JX-9


@given(
    seats,
    seats,
    st.integers(min_value=0, max_value=30),
    st.lists(st.integers(min_value=0, max_value=40), min_size=4, max_size=4),
    st.sampled_from([None, "small", "big", "super"]),
)
def test_it_sums_putian_wins_to_zero_c6(
    winner: int, dealer: int, streak: int, flowers: list[int], bomb: str | None
) -> None:
    deltas = putian_win_deltas(
        winner, dealer, dealer_streak=streak, flower_points=flowers, bomb=bomb
    )
    assert sum(deltas) == 0


@given(seats, st.dictionaries(seats, st.integers(min_value=1, max_value=64), min_size=1))
def test_it_sums_sichuan_discard_wins_to_zero_c6(discarder: int, winners: dict[int, int]) -> None:
    winners.pop(discarder, None)
    if winners:
        assert sum(sichuan_discard_win_deltas(winners, discarder)) == 0


@st.composite
def still_in_with(draw: st.DrawFn, seat: int) -> frozenset[int]:
    others = draw(st.sets(st.sampled_from([s for s in range(4) if s != seat]), min_size=1))
    return frozenset(others | {seat})


@given(st.data(), seats, st.integers(min_value=1, max_value=64))
def test_it_sums_sichuan_self_draws_to_zero_c6(
    data: st.DataObject, winner: int, points: int
) -> None:
    still_in = data.draw(still_in_with(winner))
    assert sum(sichuan_self_draw_deltas(winner, points, still_in)) == 0


@given(st.data(), seats, st.sampled_from(["exposed", "added", "concealed"]))
def test_it_sums_sichuan_kongs_to_zero_c6(data: st.DataObject, konger: int, kind: str) -> None:
    still_in = data.draw(still_in_with(konger))
    feeder = data.draw(st.sampled_from(sorted(still_in - {konger}))) if kind == "exposed" else None
    assert sum(sichuan_kong_deltas(konger, kind, still_in=still_in, feeder=feeder)) == 0


@st.composite
def exhausted_hands(draw: st.DrawFn) -> dict[str, object]:
    still_in = draw(st.sets(seats, min_size=2))
    cap = draw(st.sampled_from([1, 2, 4, 8, 16, 32]))
    pigs = draw(st.sets(st.sampled_from(sorted(still_in))))
    ready_seats = (
        draw(st.sets(st.sampled_from(sorted(still_in - pigs)))) if still_in - pigs else set()
    )
    ready = {seat: draw(st.integers(min_value=1, max_value=cap)) for seat in ready_seats}
    income = {
        seat: draw(
            st.lists(
                st.tuples(
                    st.sampled_from([s for s in range(4) if s != seat]), st.sampled_from([1, 2])
                ),
                max_size=6,
            )
        )
        for seat in draw(st.sets(seats))
    }
    return {
        "still_in": still_in,
        "flower_pigs": pigs,
        "ready_points": ready,
        "cap_points": cap,
        "kong_income": income,
    }


@given(exhausted_hands())
def test_it_sums_sichuan_exhausted_hands_to_zero_c6(hand: dict[str, object]) -> None:
    deltas = sichuan_exhaustion_deltas(**hand)  # type: ignore[arg-type]
    assert sum(deltas) == 0


@given(
    st.lists(st.integers(min_value=-100, max_value=100), min_size=3, max_size=3),
    st.integers(min_value=0, max_value=500),
    st.integers(min_value=0, max_value=1000),
    st.lists(st.integers(min_value=-1000, max_value=100_000), min_size=4, max_size=4),
)
def test_it_keeps_sc_6_5_beans_zero_sum_and_fees_within_balances(
    three: list[int], coefficient: int, fee: int, balances: list[int]
) -> None:
    deltas = [*three, -sum(three)]
    beans = sichuan_bean_deltas(deltas, coefficient, fee, balances=balances)
    assert sum(beans.deltas) == 0
    for balance, delta, paid in zip(balances, beans.deltas, beans.fees, strict=True):
        assert -fee <= paid <= 0
        assert paid == 0 or balance + delta + paid >= 0
