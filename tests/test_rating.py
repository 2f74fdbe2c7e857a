"""Glicko-2 (games/training/rating.py) against Glickman's worked example, worked by hand."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.training.rating import (
    MIN_DEVIATION,
    SCALE,
    Game,
    Rating,
    RatingError,
    answer,
    update,
)

PAPER_OPPONENTS = [Game(Rating(1400, 30), 1), Game(Rating(1550, 100), 0),
                   Game(Rating(1700, 300), 0)]


def test_it_reproduces_the_papers_worked_example() -> None:
    after = update(Rating(1500, 200, 0.06), PAPER_OPPONENTS)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    # The paper prints σ' cut (not rounded) to five places: 0.05999.
    assert 0.05999 <= after.volatility < 0.06
    assert after.volatility == pytest.approx(0.059996, abs=1e-6)


def test_it_matches_the_papers_intermediate_steps() -> None:
    """Step 2 μ = 0, φ = 1.1513; step 3 g and E per opponent; step 3 v = 1.7785;
    step 4 Δ = −0.4834 (the paper's table)."""
    player = Rating(1500, 200, 0.06)
    assert player.mu == 0
    assert player.phi == pytest.approx(1.1513, abs=1e-4)
    g = [1 / math.sqrt(1 + 3 * (o.opponent.phi ** 2) / math.pi ** 2) for o in PAPER_OPPONENTS]
    assert g == pytest.approx([0.9955, 0.9531, 0.7242], abs=1e-4)
    e = [player.expected(o.opponent) for o in PAPER_OPPONENTS]
    assert e == pytest.approx([0.639, 0.432, 0.303], abs=1e-3)
    v = 1 / sum(gj * gj * ej * (1 - ej) for gj, ej in zip(g, e, strict=True))
    assert v == pytest.approx(1.7785, abs=1e-3)
    delta = v * sum(gj * (o.score - ej) for gj, ej, o in zip(g, e, PAPER_OPPONENTS,
                                                             strict=True))
    assert delta == pytest.approx(-0.4834, abs=1e-3)
    # Step 7: μ' = −0.2069, φ' = 0.8722 → r' = 1464.06, RD' = 151.52
    after = update(player, PAPER_OPPONENTS)
    assert after.mu == pytest.approx(-0.2069, abs=1e-4)
    assert after.phi == pytest.approx(0.8722, abs=1e-4)


def test_it_computes_a_single_answer_by_hand() -> None:
    """A new player (1500, 350) solves a 1500/250 puzzle. By hand: φ = 350 / 173.7178
    = 2.01476, φ_puzzle = 1.43912, g = 1 / √(1 + 3 · 1.43912² / π²) = 0.78337, E = 0.5,
    v = 1 / (0.78337² · 0.25) = 6.5182, the volatility stays 0.06 (to 4 places),
    φ* = √(2.01476² + 0.06²) = 2.01565, φ' = 1 / √(1/φ*² + 1/v) = 1.58203,
    μ' = φ'² · 0.78337 · 0.5 = 0.98032, r' = 1500 + 173.7178 · 0.98032 = 1670.30,
    RD' = 173.7178 · 1.58203 = 274.83."""
    out = answer(Rating(1500, 350), Rating(1500, 250), solved=True)
    assert out.player.volatility == pytest.approx(0.06, abs=1e-4)
    assert out.player.rating == pytest.approx(1670.30, abs=0.05)
    assert out.player.deviation == pytest.approx(274.83, abs=0.05)
    # The puzzle lost to a player of 350 RD: it drops, by less (the player is uncertain).
    assert out.puzzle.rating < 1500
    assert 1500 - out.puzzle.rating < out.player.rating - 1500


def test_it_grows_the_deviation_without_games() -> None:
    after = update(Rating(1500, 200, 0.06), [])
    assert after.deviation == pytest.approx(SCALE * math.sqrt((200 / SCALE) ** 2 + 0.06 ** 2))
    assert after.rating == 1500


def test_it_refuses_nonsense() -> None:
    with pytest.raises(RatingError, match="deviation must be positive"):
        Rating(1500, 0)
    with pytest.raises(RatingError, match="score is 0, 0.5 or 1"):
        Game(Rating(), 2)
    with pytest.raises(RatingError, match="difficulty must be 1, 2 or 3"):
        Rating.for_puzzle(4)


def test_it_starts_puzzles_from_their_difficulty() -> None:
    assert [Rating.for_puzzle(d).rating for d in (1, 2, 3)] == [1200, 1500, 1800]


ratings = st.builds(Rating, st.floats(600, 2800), st.floats(MIN_DEVIATION, 350),
                    st.floats(0.03, 0.1))


@given(ratings, ratings)
def test_it_moves_up_on_a_solve_and_down_on_a_miss(player: Rating, puzzle: Rating) -> None:
    solved = answer(player, puzzle, solved=True)
    missed = answer(player, puzzle, solved=False)
    assert solved.player.rating > player.rating > missed.player.rating
    assert solved.puzzle.rating < puzzle.rating < missed.puzzle.rating
    for after in (solved.player, missed.player, solved.puzzle, missed.puzzle):
        assert MIN_DEVIATION <= after.deviation <= 350
