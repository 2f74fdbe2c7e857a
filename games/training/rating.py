"""Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2012).

Players and puzzles both carry a :class:`Rating`: a solved puzzle is a win for
the player and a loss for the puzzle. Each rated answer is one rating period
with one game (as on Lichess), so :func:`update` is called with a single
:class:`Game`; it takes several for the paper's worked example:

>>> player = Rating(1500, 200, 0.06)
>>> after = update(player, [Game(Rating(1400, 30), 1), Game(Rating(1550, 100), 0),
...                         Game(Rating(1700, 300), 0)])
>>> round(after.rating, 1), round(after.deviation, 2), round(after.volatility, 6)
(1464.1, 151.52, 0.059996)

(The paper's 1464.06 and 0.05999 come from its rounded intermediate steps; unrounded
arithmetic gives 1464.0506 and 0.0599960.)

Pure arithmetic: no clock, no storage. The site decides what counts as a game.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # the Glicko-2 scale factor: 400 / ln(10)
BASE = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
TAU = 0.5  # how fast volatility may change (the paper suggests 0.3 to 1.2)
EPSILON = 1e-6  # convergence of the volatility iteration (step 5.4 of the paper)
MIN_DEVIATION = 45.0  # kept above this so a long history still moves (Lichess: 45)
MAX_DEVIATION = DEFAULT_DEVIATION

# Where a new puzzle starts, by the generator's difficulty (games.training.puzzles.DIFFICULTIES).
DIFFICULTY_RATINGS = {1: 1200.0, 2: 1500.0, 3: 1800.0}
PUZZLE_DEVIATION = 250.0


class RatingError(ValueError):
    """A rating or a game result that Glicko-2 can't use."""


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating on the familiar (Glicko-1) scale.

    >>> Rating(1500).deviation
    350.0
    >>> Rating(1500, -1)  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    RatingError: a rating deviation must be positive, not -1
    """

    rating: float = BASE
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY

    def __post_init__(self) -> None:
        if not math.isfinite(self.rating):
            raise RatingError(f"a rating must be a finite number, not {self.rating!r}")
        if not self.deviation > 0 or not math.isfinite(self.deviation):
            raise RatingError(f"a rating deviation must be positive, not {self.deviation!r}")
        if not self.volatility > 0 or not math.isfinite(self.volatility):
            raise RatingError(f"a volatility must be positive, not {self.volatility!r}")

    @property
    def mu(self) -> float:
        return (self.rating - BASE) / SCALE

    @property
    def phi(self) -> float:
        return self.deviation / SCALE

    def expected(self, opponent: Rating) -> float:
        """The chance of beating ``opponent`` (E of the paper's step 3).

        >>> round(Rating(1500, 200).expected(Rating(1400, 30)), 3)
        0.639
        """
        return _expected(self.mu, opponent.mu, opponent.phi)

    @classmethod
    def for_puzzle(cls, difficulty: int) -> Rating:
        """A new puzzle's rating, from the difficulty its generator measured.

        >>> Rating.for_puzzle(3).rating
        1800.0
        """
        if difficulty not in DIFFICULTY_RATINGS:
            raise RatingError(f"difficulty must be 1, 2 or 3, not {difficulty!r}")
        return cls(DIFFICULTY_RATINGS[difficulty], PUZZLE_DEVIATION)


@dataclass(frozen=True)
class Game:
    """One result against an opponent: ``score`` 1 won, 0 lost (0.5 drawn)."""

    opponent: Rating
    score: float

    def __post_init__(self) -> None:
        if self.score not in (0, 0.5, 1):
            raise RatingError(f"a game's score is 0, 0.5 or 1, not {self.score!r}")


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(rating: Rating, games: Sequence[Game], tau: float = TAU) -> Rating:
    """The rating after one rating period of ``games`` (steps 2–8 of the paper).

    With no games only the deviation grows (step 6):

    >>> round(update(Rating(1500, 200), []).deviation, 2)
    200.27
    """
    mu, phi, sigma = rating.mu, rating.phi, rating.volatility
    if not games:
        return _bounded(rating.rating, math.sqrt(phi * phi + sigma * sigma) * SCALE, sigma)
    impact = 0.0  # the sum of g(φj)(sj − E) of steps 4 and 7
    information = 0.0  # 1 / v
    for game in games:
        g = _g(game.opponent.phi)
        e = _expected(mu, game.opponent.mu, game.opponent.phi)
        information += g * g * e * (1 - e)
        impact += g * (game.score - e)
    variance = 1 / information
    delta = variance * impact
    new_sigma = _volatility(phi, sigma, variance, delta, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / variance)
    new_mu = mu + new_phi * new_phi * impact
    return _bounded(BASE + SCALE * new_mu, SCALE * new_phi, new_sigma)


def _bounded(rating: float, deviation: float, volatility: float) -> Rating:
    return Rating(rating, min(max(deviation, MIN_DEVIATION), MAX_DEVIATION), volatility)


def _volatility(phi: float, sigma: float, variance: float, delta: float, tau: float) -> float:
    """σ′ by the Illinois algorithm (step 5 of the paper)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - variance - ex)
        bottom = 2 * (phi * phi + variance + ex) ** 2
        return top / bottom - (x - a) / (tau * tau)

    low = a
    if delta * delta > phi * phi + variance:
        high = math.log(delta * delta - phi * phi - variance)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > EPSILON:
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2
        high, f_high = c, f_c
    return math.exp(low / 2)


@dataclass(frozen=True)
class Outcome:
    """A player's and a puzzle's ratings after one answer."""

    player: Rating
    puzzle: Rating


def answer(player: Rating, puzzle: Rating, solved: bool) -> Outcome:
    """Rate one answer: a solve is the player's win and the puzzle's loss, each side
    rated against the other's rating from before the answer.

    >>> out = answer(Rating(1500, 350), Rating(1500, 250), solved=True)
    >>> out.player.rating > 1500 > out.puzzle.rating
    True
    """
    score = 1.0 if solved else 0.0
    return Outcome(update(player, [Game(puzzle, score)]),
                   update(puzzle, [Game(player, 1 - score)]))
