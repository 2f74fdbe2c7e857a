"""What each discard is worth: win chance and expected points (ENGINE-CLI.md ``value``).

The ``solo`` model: the tiles the player can't see are in random order and the
player alone draws the next ``draws_left`` of them, winning by self-draw as soon
as a drawn tile completes a legal win (scored as an ordinary self-draw). Until
ready, a drawn tile that lowers the shanten is kept and the player discards as
the engine's ranking prefers (fewest shanten, then most tiles accepted, then the
best wait value); any other drawn tile goes straight back, as in the annotation's
counterfactual. Once ready, the wait is kept.

Shanten here counts the steps toward a hand that may win, not just the shape
(:meth:`~games.core.variant.Variant.aimed_shanten_of`): in Jiaxing the nearest of one
suit with honours or all pungs (JX-5.3), wildcards (百搭) filling either, so a hand off
a flush track plays toward the legal shape and keeps its wildcards for it; a shape
that is complete but may not win is not "ready".

A ready hand is valued exactly: with ``U`` unseen tiles, ``k`` of them winning
and ``n`` draws, P(win) = 1 − C(U−k, n)/C(U, n), and each winning tile counts
with its chance of being the first winner drawn. A hand further away is valued
by Monte Carlo over shuffles of the unseen tiles, the same shuffles for every
discard (so differences are paired); each playout switches to the exact formula
the moment its hand becomes ready, which removes most of the noise.

>>> from games.variants import read_position
>>> p = read_position({"variant": "sichuan", "hand": "123456789m1155p9s", "void": "s",
...                         "seat": 1})
>>> best = solo_values(p, draws_left=10).choices[0]
>>> str(best.discard), round(best.win_probability, 4), round(best.expected_points, 4)
('9s', 0.3673, 0.7345)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from games.core.position import FLAGS, Position, PositionError
from games.core.tiles import KINDS, TILES, Tile, counts_of
from games.core.variant import Score
from games.records.log import Event

WHITE = 31
DEFAULT_SAMPLES = 400
MAX_SAMPLES = 20_000
MAX_DRAWS = 40
Z95 = 1.959963984540054

# The fields of a ``value`` request that are not part of the position.


class ValueInputError(PositionError):
    """A ``value`` request that can't be answered; the message names the problem."""


@dataclass(frozen=True)
class Interval:
    """A 95% interval (equal ends when the value is exact)."""

    low: float
    high: float

    def to_json(self) -> list[float]:
        return [round(self.low, 4), round(self.high, 4)]


@dataclass
class Choice:
    """One choice and what it is worth."""

    win_probability: float
    expected_points: float
    win_interval: Interval
    points_interval: Interval
    exact: bool
    discard: Tile | None = None
    shanten: int | None = None
    action: Event | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    # Per-sample (win, points) of a Monte Carlo choice, for paired differences between
    # choices valued on the same shuffles (not part of the JSON).
    per_sample: tuple[list[float], list[float]] | None = field(
        default=None, repr=False, compare=False)

    def sort_key(self) -> tuple[float, float, int]:
        """Best first: more expected points, then a better win chance."""
        kind = self.discard.kind if self.discard is not None else 99
        return (-round(self.expected_points, 6), -round(self.win_probability, 6), kind)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.discard is not None:
            out["discard"] = str(self.discard)
        if self.action is not None:
            out["action"] = self.action.to_json()
        if self.shanten is not None:
            out["shanten"] = self.shanten
        out["win_probability"] = round(self.win_probability, 4)
        out["expected_points"] = round(self.expected_points, 4)
        out["ci95"] = {"win_probability": self.win_interval.to_json(),
                       "expected_points": self.points_interval.to_json()}
        out["exact"] = self.exact
        out.update(self.extra)
        return out


@dataclass
class Valuation:
    """The answer of ``value``: the model, the samples drawn, the choices best first."""

    model: str
    samples: int
    choices: list[Choice]
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"model": self.model, "samples": self.samples, **self.extra,
                "choices": [c.to_json() for c in self.choices]}


def exact_choice(win: float, points: float, **fields: Any) -> Choice:
    return Choice(win, points, Interval(win, win), Interval(points, points), True, **fields)


def sampled_choice(wins: Sequence[float], points: Sequence[float], **fields: Any) -> Choice:
    """A Monte Carlo estimate with normal 95% intervals of its means."""
    win, win_half = mean_and_half_width(wins)
    mean, half = mean_and_half_width(points)
    return Choice(win, mean, Interval(max(win - win_half, 0.0), min(win + win_half, 1.0)),
                  Interval(mean - half, mean + half), False,
                  per_sample=(list(wins), list(points)), **fields)


def mean_and_half_width(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the half width of its 95% interval.

    >>> mean_and_half_width([1.0, 0.0, 1.0, 0.0])
    (0.5, 0.5658)
    """
    count = len(values)
    mean = sum(values) / count
    if count < 2:
        return mean, 0.0
    variance = sum((v - mean) ** 2 for v in values) / (count - 1)
    return mean, round(Z95 * math.sqrt(variance / count), 4)


# -- the pool of unseen tiles ------------------------------------------------------------------


def solo_context(position: Position) -> Position:
    """The position's context for the solo model's wins: an ordinary self-draw."""
    flags: dict[str, Any] = {flag: False for flag in FLAGS}
    flags["self_draw"] = True
    return replace(position, **flags)


def whites_are_flowers(position: Position) -> bool:
    """Putian whites that aren't gold are laid out and replaced at once (PT-3)."""
    return WHITE in position.variant.FLOWER_KINDS and WHITE not in position.wildcards


def unseen(position: Position) -> list[int]:
    """Copies of each kind the player can't see (hand, melds, ``seen``, own whites).

    >>> from games.variants import read_position
    >>> p = read_position({"variant": "sichuan", "hand": "123456789m1155p9s", "void": "s"})
    >>> sum(unseen(p))
    94
    """
    variant = position.variant
    visible = variant.visible(position, position.hand)
    pool = [0] * KINDS
    for kind in range(KINDS):  # every tile of the game, a Sichuan void suit's too
        if kind < 27 or kind in variant.HONOURS:
            pool[kind] = variant.remaining(position, kind, visible)
    if whites_are_flowers(position):
        pool[WHITE] = max(4 - position.flowers - visible[WHITE], 0)
    return pool


# -- the exact value of a ready hand ------------------------------------------------------------


def ready_value(context: Position, rest: Sequence[Tile], pool: Sequence[int],
                draws: int) -> tuple[float, float]:
    """(P(win), expected points) of a ready hand ``rest`` drawing ``draws`` tiles from
    ``pool``; in Putian unseen whites are flowers drawn past (their points counted).

    >>> from games.variants import read_position
    >>> p = read_position({"variant": "sichuan", "hand": "123456789m1155p9s",
    ...                         "void": "s"})
    >>> win, points = ready_value(solo_context(p), p.hand[:-1], unseen(p), 10)
    >>> round(win, 4), round(points, 4)
    (0.3673, 0.7345)
    """
    waits = _waits(context, rest)
    flowers = pool[WHITE] if whites_are_flowers(context) else 0
    total = sum(pool) - flowers
    winners = [(w.tile, pool[w.tile.kind]) for w in waits if pool[w.tile.kind] > 0]
    k = sum(n for _, n in winners)
    draws = min(draws, total)
    if k == 0 or draws <= 0:
        return 0.0, 0.0
    p_win = 1.0 - math.comb(total - k, draws) / math.comb(total, draws)
    scores = {w.tile: w.score for w in waits}
    if not flowers:
        mean = sum(n * scores[tile].points for tile, n in winners) / k
        return p_win, p_win * mean
    # Wins scored with the same patterns (golds, whites, kongs, bombs) score alike with
    # more whites too: each such group is scored again once.
    again: dict[tuple[Any, ...], list[int]] = {}
    by_whites = [0.0] * (flowers + 1)
    for tile, n in winners:
        score = scores[tile]
        key = tuple(score.patterns)
        if key not in again:
            again[key] = [_with_whites(context, rest, tile, score, extra).points
                          for extra in range(flowers + 1)]
        for extra, points in enumerate(again[key]):
            by_whites[extra] += n * points / k
    return p_win, _points_with_flowers(by_whites, k, total, flowers, draws)


_WAITS: dict[tuple[Any, ...], Any] = {}  # (context, hand) -> waits: a pure cache
_WAITS_AT_MOST = 20_000


def _waits(context: Position, rest: Sequence[Tile]) -> Any:
    """The ready hand's waits with their scores, cached: the playouts of a solo value
    reach the same ready hands again and again (bounded, emptied when full)."""
    key = (context.context_key(), tuple(sorted(t.kind for t in rest)))
    found = _WAITS.get(key)
    if found is None:
        if len(_WAITS) >= _WAITS_AT_MOST:
            _WAITS.clear()
        found = _WAITS[key] = context.variant.waits_of(context, rest).waits
    return found


def _with_whites(context: Position, rest: Sequence[Tile], tile: Tile, score: Score,
                 extra: int) -> Score:
    """The win's score with ``extra`` whites more laid out: the reading already found is
    scored again (the value never depends on the reading, PT-7), else the whole hand."""
    if not extra:
        return score
    if score.read_as is not None:
        position, reading = score.read_as
        return context.variant.best_value(
            replace(position, flowers=position.flowers + extra), [reading])
    more = replace(context, flowers=context.flowers + extra)
    return context.variant.score(more.with_hand((*rest, tile), tile))


def _points_with_flowers(by_whites: Sequence[float], k: int, total: int, flowers: int,
                         draws: int) -> float:
    """Expected points when ``flowers`` unseen whites are drawn past on the way (a win's
    mean points with x whites more is ``by_whites[x]``): the first winner is the j-th
    real tile with the negative hypergeometric chance, and the whites before it follow
    the negative hypergeometric law of whites before it."""
    expected = 0.0
    none_yet = 1.0  # P(no winner among the first j - 1 real tiles)
    whole = math.comb(total + flowers, flowers)
    for j in range(1, draws + 1):
        first_here = none_yet * k / (total - j + 1)
        spread = sum(math.comb(x + j - 1, x) * math.comb(flowers - x + total - j, flowers - x)
                     * by_whites[x] for x in range(flowers + 1)) / whole
        expected += first_here * spread
        none_yet *= (total - k - j + 1) / (total - j + 1)
    return expected


# -- the exact value of a 1-shanten hand -----------------------------------------------------


def one_shanten_value(context: Position, policy: Policy, rest: Sequence[Tile],
                      pool: Sequence[int], draws: int) -> tuple[float, float] | None:
    """(P(win), expected points) of a 1-shanten hand by summing over the draws, or None
    where that isn't exact (Putian whites still to come, or golds enough for a bomb).

    Until a drawn tile is accepted (lowers the shanten) every draw goes straight back,
    so the first accepted tile comes at draw j with kind a with the negative
    hypergeometric chance; the policy's discard then leaves a ready hand whose waits
    are known. Only its winners among the kinds not accepted can have gone by in
    the j − 1 draws before: m of them with the hypergeometric chance, taken from each
    winning kind in proportion (so its expected points stay linear in m). The ready
    hand's exact value over the tiles and draws left completes the sum.
    """
    variant = context.variant
    counts, wild = variant.split(context, rest)
    # Flower points (PT-6) make a win's value depend on the whites and golds drawn on the way.
    if variant.HAS_FLOWERS and (
            (whites_are_flowers(context) and pool[WHITE]) or wild >= 2):
        return None
    now, after = variant.aimed_shanten_after_each(context, counts, wild)
    if now != 1:
        return None
    total = sum(pool)
    accepted = [kind for kind in range(KINDS) if pool[kind] and after[kind] < now]
    rejected = total - sum(pool[kind] for kind in accepted)
    branches = []
    for kind in accepted:
        branch = _ready_after(context, policy, counts, rest, kind, pool, accepted)
        if branch is None:
            return None
        branches.append((pool[kind], branch))
    win = points = 0.0
    none_yet = 1.0  # P(the first j − 1 draws were all rejected)
    # Past j = rejected + 1 draws some draw was accepted for sure: no first acceptance
    # is left to sum (and no way to choose j − 1 rejected tiles from fewer).
    for j in range(1, min(draws, total, rejected + 1) + 1):
        for copies, (spread, value_per_m) in branches:
            first_here = none_yet * copies / (total - j + 1)
            for gone in range(0, min(j - 1, spread) + 1):
                chance = (math.comb(spread, gone) * math.comb(rejected - spread, j - 1 - gone)
                          / math.comb(rejected, j - 1))
                if chance:
                    w, p = value_per_m(gone, total - j, draws - j)
                    win += first_here * chance * w
                    points += first_here * chance * p
        none_yet *= (rejected - j + 1) / (total - j + 1)
    return win, points


def _ready_after(context: Position, policy: Policy, counts: Sequence[int],
                 rest: Sequence[Tile], kind: int, pool: Sequence[int],
                 accepted: Sequence[int]) -> tuple[int, ReadyValue] | None:
    """After drawing ``kind``: how many of the ready hand's winning copies are of kinds
    that go back when drawn (they may be gone), and its value given m of those gone,
    U tiles unseen and n draws left (None: the policy leaves no ready hand)."""
    variant = context.variant
    tile = TILES[kind]
    wild_tiles = [t for t in rest if context.is_wild(t)]
    grown = list(counts)
    if context.is_wild(tile):
        wild_tiles.append(tile)
    else:
        grown[kind] += 1
    discard, left = policy.choose(grown, wild_tiles)
    if left != 0:
        return None
    hand = list(rest) + [tile]
    hand.remove(TILES[discard] if TILES[discard] in hand else wild_tiles[-1])
    waits = variant.waits_of(context, hand).waits
    copies = {w.tile.kind: pool[w.tile.kind] - (w.tile.kind == kind) for w in waits}
    points_of = {w.tile.kind: w.score.points for w in waits}
    winners = sum(copies.values())
    passing = [w for w in copies if w not in accepted]
    spread = sum(copies[w] for w in passing)
    weighted = sum(copies[w] * points_of[w] for w in copies)
    passing_weighted = sum(copies[w] * points_of[w] for w in passing)

    def value(gone: int, unseen_left: int, draws_left: int) -> tuple[float, float]:
        k = winners - gone
        if k <= 0 or draws_left <= 0:
            return 0.0, 0.0
        n = min(draws_left, unseen_left)
        p_win = 1.0 - math.comb(unseen_left - k, n) / math.comb(unseen_left, n)
        mean = (weighted - (gone * passing_weighted / spread if gone else 0.0)) / k
        return p_win, p_win * mean

    return spread, value


ReadyValue = Callable[[int, int, int], tuple[float, float]]


def tiles_of(counts: Sequence[int], wild_tiles: Sequence[Tile]) -> tuple[Tile, ...]:
    """A hand from its real tiles' counts and its wildcards (their faces kept)."""
    return tuple(t for k in range(KINDS) for t in [TILES[k]] * counts[k]) + tuple(wild_tiles)


# -- the policy before ready ---------------------------------------------------------------------


class Policy:
    """The discard the engine's ranking prefers for a hand a tile too many: fewest
    shanten, then most tiles accepted, then the best wait value; remembered per hand.

    Acceptance counts the copies not visible at the decision (the player's later
    discards aren't subtracted: the ranking is the engine's, not a perfect memory).
    """

    def __init__(self, context: Position, visible_outside: Sequence[int]) -> None:
        self.context = context
        self.variant = context.variant
        self.outside = list(visible_outside)  # melds, seen, discarded: not the hand
        self.memo: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, int]] = {}
        self.drawable = [t.kind for t in self.variant.drawable(context)]
        self.can_draw = [kind in self.drawable for kind in range(KINDS)]

    def choose(self, counts: list[int], wild_tiles: list[Tile]) -> tuple[int, int]:
        """(kind to discard, shanten it leaves) for real ``counts`` and wildcards held."""
        key = (tuple(counts), tuple(sorted(t.kind for t in wild_tiles)))
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = self._rank(counts, wild_tiles)
        return found

    def _rank(self, counts: list[int], wild_tiles: list[Tile]) -> tuple[int, int]:
        variant, context = self.variant, self.context
        hand = tiles_of(counts, wild_tiles)
        options = variant.legal_discards(context.with_hand(hand, None))
        keyed: list[tuple[tuple[int, int, int], int, int]] = []
        # Copies of each kind not visible while the whole hand is held (0: not drawable);
        # a discard shows one copy fewer of its own kind, and only that entry changes.
        seen = [a + b for a, b in zip(self.outside, counts_of(hand), strict=True)]
        left = [0] * KINDS
        for kind in self.drawable:
            left[kind] = variant.remaining(context, kind, seen)
        for tile in options:
            kind = tile.kind
            real = list(counts)
            wild = len(wild_tiles)
            if context.is_wild(tile):
                wild -= 1
            else:
                real[kind] -= 1
            now, after = variant.aimed_shanten_after_each(context, real, wild)
            accepted = sum([n for n, a in zip(left, after, strict=True) if a < now])
            if self.can_draw[kind] and after[kind] < now:
                seen[kind] -= 1
                accepted += variant.remaining(context, kind, seen) - left[kind]
                seen[kind] += 1
            keyed.append(((now, -accepted, 0), kind, now))
        best = min(key[:2] for key, _, _ in keyed)
        tied = [(key, kind, now) for key, kind, now in keyed if key[:2] == best]
        if len(tied) > 1 and best[0] == 0:
            tied = [((k[0], k[1], -self._best_wait(hand, kind)), kind, now)
                    for k, kind, now in tied]
        _, kind, now = min(tied)
        return kind, now

    def _best_wait(self, hand: Sequence[Tile], kind: int) -> int:
        rest = list(hand)
        rest.remove(TILES[kind])
        waits = self.variant.waits_of(self.context, rest).waits
        return max((w.score.points for w in waits), default=0)


# -- Monte Carlo playouts ------------------------------------------------------------------------


class Playout:
    """One shuffle of the unseen tiles played from a 13-tile (or 16-tile) hand."""

    def __init__(self, context: Position, policy: Policy, rest: Sequence[Tile],
                 shanten: int) -> None:
        self.context, self.policy, self.variant = context, policy, context.variant
        self.counts = self.variant.split(context, rest)[0]
        self.wild_tiles = [t for t in rest if context.is_wild(t)]
        self.shanten = shanten
        self.flowers = context.flowers
        self.after: list[int] | None = None  # the shanten after drawing each kind
        self.keeps_golds = not self.variant.WILDCARDS_DISCARDABLE  # PT-2: golds stay

    def run(self, order: Sequence[Tile], pool: Sequence[int], draws: int) -> tuple[float, float]:
        """(win chance, expected points) of this shuffle: 0/1 and the points until the
        hand is ready, then the exact value over the tiles still unseen."""
        left = list(pool)
        flowers = whites_are_flowers(self.context)
        position = 0
        done = 0
        while done < draws and position < len(order):
            tile = order[position]
            position += 1
            left[tile.kind] -= 1
            if flowers and tile.kind == WHITE:
                self.flowers += 1  # laid out; the replacement is the same turn's draw
                continue
            done += 1
            points = self._draw(tile)
            if points is not None:
                return 1.0, float(points)
            if self.shanten == 0:
                context = replace(self.context, flowers=self.flowers)
                return ready_value(context, self._hand(), left, draws - done)
        return 0.0, 0.0

    def _hand(self) -> tuple[Tile, ...]:
        return tiles_of(self.counts, self.wild_tiles)

    def _draw(self, tile: Tile) -> int | None:
        """Take the tile: the points when it wins; a tile that doesn't lower the shanten
        goes straight back (a Putian gold is kept, PT-2), else the policy discards."""
        context, variant = self.context, self.variant
        wild = context.is_wild(tile)
        if self.after is None:
            self.after = variant.aimed_shanten_after_each(context, self.counts,
                                                          len(self.wild_tiles))[1]
        grown = self.after[tile.kind]
        if grown >= self.shanten and not (wild and self.keeps_golds):
            return None
        if wild:
            self.wild_tiles.append(tile)
        else:
            self.counts[tile.kind] += 1
        hand = self._hand()
        if variant.could_win(context, hand, grown):
            position = replace(context, flowers=self.flowers).with_hand(hand, tile)
            score = variant.score(position)
            if score.win:
                return score.points
        kind, self.shanten = self.policy.choose(self.counts, self.wild_tiles)
        self.after = None
        if context.is_wild(TILES[kind]):
            face = TILES[kind]
            self.wild_tiles.remove(face if face in self.wild_tiles else self.wild_tiles[-1])
        else:
            self.counts[kind] -= 1
        return None


# -- the solo model ------------------------------------------------------------------------------


def solo_values(position: Position, draws_left: int, samples: int | None = None,
                seed: int = 0, only: Collection[Tile] | None = None,
                exact_one_shanten: bool = True) -> Valuation:
    """Every legal discard of a hand a tile too many (or those in ``only``), valued in
    the solo model: exact when ready or 1-shanten (unless ``exact_one_shanten`` is off),
    Monte Carlo otherwise."""
    variant = position.variant
    variant._check_size(position, [variant.concealed_size(position)], "value")
    if not 0 <= draws_left <= MAX_DRAWS:
        raise ValueInputError(f"draws_left must be from 0 to {MAX_DRAWS}, not {draws_left}")
    count = DEFAULT_SAMPLES if samples is None else samples
    if not 1 <= count <= MAX_SAMPLES:
        raise ValueInputError(f"samples must be from 1 to {MAX_SAMPLES}, not {count}")
    context = solo_context(position)
    pool = unseen(position)
    outside = _outside(position)
    orders: list[list[Tile]] | None = None
    choices: list[Choice] = []
    for tile in variant.legal_discards(position):
        if only is not None and tile not in only:
            continue
        rest = list(position.hand)
        rest.remove(tile)
        shanten = variant.aimed_shanten_of(context, *variant.split(context, rest))
        if shanten <= 0:
            win, points = ready_value(context, rest, pool, draws_left)
            choices.append(exact_choice(win, points, discard=tile, shanten=max(shanten, 0)))
            continue
        policy = Policy(context, [o + (t.kind == tile.kind) for t, o in
                                  zip(TILES, outside, strict=True)])
        if shanten == 1 and exact_one_shanten:
            found = one_shanten_value(context, policy, rest, pool, draws_left)
            if found is not None:
                choices.append(exact_choice(*found, discard=tile, shanten=1))
                continue
        if orders is None:
            orders = shuffles(pool, count, seed)
        choices.append(sampled_value(context, policy, rest, shanten, pool, orders, draws_left,
                                     discard=tile, shanten=shanten))
    choices.sort(key=Choice.sort_key)
    return Valuation("solo", 0 if orders is None else count, choices)


def _outside(position: Position) -> list[int]:
    """What the player sees outside the concealed hand: melds, ``seen``."""
    return counts_of([*(t for m in position.melds for t in m.tiles), *position.seen])


def shuffles(pool: Sequence[int], count: int, seed: int) -> list[list[Tile]]:
    """``count`` random orders of the pool's tiles, the same for the same seed."""
    if not 1 <= count <= MAX_SAMPLES:
        raise ValueInputError(f"samples must be from 1 to {MAX_SAMPLES}, not {count}")
    rng = random.Random(seed)
    tiles = [TILES[k] for k in range(KINDS) for _ in range(pool[k])]
    orders = []
    for _ in range(count):
        order = list(tiles)
        rng.shuffle(order)
        orders.append(order)
    return orders


def sampled_value(context: Position, policy: Policy, rest: Sequence[Tile], start: int,
                  pool: Sequence[int], orders: Sequence[Sequence[Tile]], draws: int,
                  **fields: Any) -> Choice:
    """A Monte Carlo choice: one playout per shuffle."""
    wins: list[float] = []
    points: list[float] = []
    for order in orders:
        win, gained = Playout(context, policy, rest, start).run(order, pool, draws)
        wins.append(win)
        points.append(gained)
    return sampled_choice(wins, points, **fields)


def monte_carlo_ready(position: Position, discard: Tile, draws_left: int, samples: int,
                      seed: int = 0) -> Choice:
    """A ready discard valued by plain playouts, no exact switch (checks the formula)."""
    context = solo_context(position)
    pool = unseen(position)
    rest = list(position.hand)
    rest.remove(discard)
    outside = _outside(position)
    outside[discard.kind] += 1
    policy = Policy(context, outside)
    wins: list[float] = []
    points: list[float] = []
    for order in shuffles(pool, samples, seed):
        playout = Playout(context, policy, rest, shanten=1)  # never switches to exact
        win, gained = _plain_run(playout, order, draws_left, whites_are_flowers(context))
        wins.append(win)
        points.append(gained)
    return sampled_choice(wins, points, discard=discard, shanten=0)


def _plain_run(playout: Playout, order: Sequence[Tile], draws: int,
               flowers: bool) -> tuple[float, float]:
    """A ready hand drawing until it wins, discarding every other tile it draws."""
    done = 0
    for tile in order:
        if done == draws:
            break
        if flowers and tile.kind == WHITE:
            playout.flowers += 1
            continue
        done += 1
        context = replace(playout.context, flowers=playout.flowers)
        hand = (*tiles_of(playout.counts, playout.wild_tiles), tile)
        variant = context.variant
        if variant.could_win(context, hand, variant.shanten(context, hand)):
            score = variant.score(context.with_hand(hand, tile))
            if score.win:
                return 1.0, float(score.points)
    return 0.0, 0.0
