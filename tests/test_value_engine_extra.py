"""The values of a hand's annotated decisions (games/analysis/value_pass.py): every variant's bot
hands priced, losses and severities consistent with their intervals and thresholds,
explanations built from the rows' own numbers, claims, passes and 定缺 played out at the
table, the same answer for the same seed."""

from __future__ import annotations

from typing import Any

import pytest

from games.analysis.annotation import analyze_hand
from games.analysis.value_pass import (
    BIG,
    SMALL,
    Priced,
    loss_interval,
    severity,
    summary,
    value_hand,
)
from games.bots.simulation import simulate
from games.records.match import Replayer

_CACHE: dict[tuple[str, int], tuple[Any, list[dict[str, Any]]]] = {}


# Enough shuffles and redeals for mistakes of both severities to show (their thresholds and
# intervals are checked); where only the models used or the determinism are checked, the
# fewest that still give each choice an interval.
CHECKED_SAMPLES = (40, 6)
FEWEST_SAMPLES = (4, 2)


def _valued(variant: str, seed: int, seats: set[int],
            samples: tuple[int, int] = CHECKED_SAMPLES) -> tuple[dict[str, Any],
                                                                 list[dict[str, Any]]]:
    match = simulate(variant, 1, seed)
    hand = match.hands[0]
    decisions = analyze_hand(Replayer(match).begin(1, hand), hand.events, 1).to_json()[
        "decisions"]
    values = value_hand(Replayer(match).begin(1, hand), hand.events, 1, decisions, seats,
                        seed=seed, solo_samples=samples[0], table_samples=samples[1])
    return values, decisions


@pytest.mark.parametrize("variant", ["jiaxing", "putian", "sichuan"])
def test_it_prices_every_variants_decisions_consistently(variant: str) -> None:
    values, decisions = _valued(variant, 7, {0, 1})
    by_event = {(d["event"], d["seat"]): d for d in decisions}
    assert values["decisions"], "a bot hand has decisions to price"
    for valued in values["decisions"]:
        decision = by_event[(valued["event"], valued["seat"])]
        assert valued["seat"] in (0, 1)
        rows = valued["alternatives"]
        assert len(rows) >= 2
        if valued["no_winning_line"]:  # nothing wins: no best, no mistake
            assert valued["best"] is None and not valued["mistake"]
            assert all(r["win_probability"] == 0 and r["severity"] == "none" for r in rows)
        else:
            assert rows[0]["index"] == valued["best"]
        assert [r["expected_points"] for r in rows] == sorted(
            (r["expected_points"] for r in rows), reverse=True)
        assert {r["index"] for r in rows} <= set(range(len(decision["alternatives"])))
        for row in rows:
            low, high = row["loss_ci95"]
            assert low <= row["loss"] + 1e-6 <= high + 2e-6
            assert 0 <= row["win_probability"] <= 1
            if row["severity"] != "none":
                assert low > 0 and row["loss"] >= SMALL * valued["unit"] - 1e-6
            if row["severity"] == "big":
                assert row["loss"] >= BIG * valued["unit"] - 1e-6
        if valued["model"] == "solo":
            assert decision["kind"] == "turn"
        assert valued["mistake"] == (valued["severity"] != "none")
        if valued["mistake"]:
            params = valued["explanation"]["params"]
            actual = next(r for r in rows if r["index"] == valued["actual"])
            assert params["loss"] == round(actual["loss"], 2)
            assert params["win_actual"] == round(100 * actual["win_probability"], 1)
            assert params["points_best"] == round(rows[0]["expected_points"], 2)
    for row in values["summary"]:
        mine = [d for d in values["decisions"] if d["seat"] == row["seat"]]
        assert row["mistakes"] == sum(d["mistake"] for d in mine)
        assert row["points_lost"] == pytest.approx(sum(d["loss"] for d in mine if d["mistake"]))


def test_it_plays_claims_passes_and_void_suits_out_at_the_table() -> None:
    values, _ = _valued("sichuan", 5, {0, 1, 2, 3}, FEWEST_SAMPLES)
    kinds = {(d["kind"], d["model"]) for d in values["decisions"]}
    assert ("dingque", "table") in kinds
    assert ("claim", "table") in kinds
    assert ("turn", "solo") in kinds


def test_it_answers_the_same_for_the_same_seed() -> None:
    first, _ = _valued("jiaxing", 3, {2}, FEWEST_SAMPLES)
    again, _ = _valued("jiaxing", 3, {2}, FEWEST_SAMPLES)
    assert first == again


def test_it_pairs_the_loss_sample_by_sample() -> None:
    # The same luck in both: the difference is constant, its interval has no width.
    best = Priced(0, 0.5, 3.0, (0, 1), (1.0, 5.0), False, ([1, 0, 1, 0], [5, 1, 5, 1]))
    worse = Priced(1, 0.5, 2.0, (0, 1), (0.0, 4.0), False, ([1, 0, 1, 0], [4, 0, 4, 0]))
    assert loss_interval(best, worse) == (1.0, 1.0, 1.0)
    # Unpaired, the two intervals overlap and nothing could be said.
    assert best.points_ci[0] < worse.points_ci[1]


def test_it_grades_severity_by_the_thresholds_and_the_interval() -> None:
    unit = 10.0
    assert severity(SMALL * unit * 0.99, unit, (0.01, 1)) == "none"
    assert severity(SMALL * unit, unit, (0.01, 1)) == "small"
    assert severity(BIG * unit, unit, (0.01, 2)) == "big"
    assert severity(BIG * unit, unit, (0.0, 2)) == "none"  # the interval holds zero


def test_it_sums_a_seats_summary() -> None:
    rows = [{"seat": 1, "best": 0, "actual": 0, "mistake": False, "loss": 0.0,
             "severity": "none", "valued_actual": True},
            {"seat": 1, "best": 0, "actual": 2, "mistake": True, "loss": 1.25,
             "severity": "big", "valued_actual": True},
            {"seat": 1, "best": 0, "actual": 3, "mistake": False, "loss": 0.0,
             "severity": "none", "valued_actual": False}]
    assert summary(rows, 1) == {"seat": 1, "decisions": 2, "best_taken": 1, "mistakes": 1,
                                "big": 1, "points_lost": 1.25, "no_line": 0}
