"""Danger per tile: the chance that discarding a kind now deals in to each opponent.

Built only from what the seat sees: its own hand, every discard, the open melds, the
void suits named (SC-2), the wildcards shown, Putian ready declarations (PT-5.3) and
the hands of winners already out (SC-3.2). For each opponent still in,

    chance(kind) = P(the opponent is ready) × P(kind is among its waits | ready)

* **P(ready)** comes from a readiness table fitted on bot matches
  (``tools/calibrate_danger.py --fit`` writes :mod:`games.bots.danger_tables`): the
  share of opponents found ready after the same number of discards, with as many open
  melds, and (SC-2) whether their last discard was still of their void suit. A Putian
  seat that declared ready is ready (PT-5.3).
* **P(kind among the waits | ready)** weighs every way a ready hand can wait — a single
  tile (单吊), two pairs (双碰), two neighbours (两面), an edge (边张), a gap (嵌张), and
  with wildcards a wildcard beside a tile — by how many of its tiles are still unseen
  from the seat, the opponent's void suit excluded, and by the opponent's own discards
  (a bot rarely keeps what it threw; a Putian tile thrown under the ready lock was a
  drawn tile that did not win, so it is no wait). The fitted table then maps that
  share to the rate observed among ready bot hands.

That is the fast reading (``samples=0``, a few milliseconds, no randomness) the bots
use at every decision. With ``samples > 0`` the share is instead estimated by redeals:
ready hands are built from the unseen tiles (the waiting block drawn by the same
weights, the other sets and the pair dealt from what is left, wildcards among them),
and each hand's waits are worked out in full by the shape tables, so two-sided and
longer waits of whole hands count.

A variant where no discard can be won on (``Variant.DISCARD_WINS`` false: JX-5.1)
answers zero danger with that rule.

>>> from games.bots.simulation import simulate
>>> from games.records.match import Replayer
>>> match = simulate("sichuan", hands=1, seed=3)
>>> table = Replayer(match).begin(1, match.hands[0])
>>> for event in match.hands[0].events[:30]:
...     table.apply(event)
>>> reading = tile_danger(table, table.turn)
>>> 0.0 <= reading.total(reading.held[0]) < 1.0
True
>>> reading == tile_danger(table, table.turn)
True
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Sequence
from dataclasses import dataclass
from math import comb

from games.bots import danger_tables
from games.core import shapes
from games.core.messages import Message
from games.core.position import Position
from games.core.table import Table
from games.core.tiles import TILES
from games.core.variant import Variant
from games.records.log import LogError, MatchLog
from games.records.match import Replayer

# How much each way of waiting weighs against the others, per unseen-tile combination
# (a hand also needs its pair, which the single-tile wait does not: hence its extra
# weight). The fitted table corrects what these leave wrong.
SINGLE, PAIRS, SIDES, EDGE, GAP, WILD = 3.0, 1.0, 1.6, 0.5, 0.8, 2.0
KEPT_AFTER_THROWING = 0.5
"""A waiting block is this much less likely for every one of its tiles the opponent threw
(bots discard what they don't need; no rule stops them keeping one, C-3)."""
WAIT_AFTER_THROWING = 0.6
"""A wait the opponent threw before (there is no furiten in these rules: only weaker)."""
REDEAL_PRIOR = 10
"""How many redeals the weighted share of the waiting blocks counts for (see redeals)."""


@dataclass(frozen=True)
class DangerReading:
    """Per tile kind, per seat, the chance a discard of that kind deals in to that seat.

    ``chances[seat][kind]`` for the kinds in ``held`` (others read 0); the seat reading,
    seats out of the hand and seats that can't be ready read 0.
    ``ready[seat]`` is the readiness used; ``rule`` is set when discards can't be won on.
    """

    seat: int
    held: tuple[int, ...]
    chances: tuple[tuple[float, ...], ...]
    ready: tuple[float, ...]
    rule: str | None = None
    samples: int = 0
    several_winners: bool = False

    def chance(self, kind: int, opponent: int) -> float:
        return self.chances[opponent][kind]

    def total(self, kind: int) -> float:
        """The chance that a discard of ``kind`` deals in to anyone. Where every player who
        can win on it wins (SC-3.1) the seats' chances overlap; where the first in order
        takes it (PT-5.2) each seat's chance already leaves out the seats before it.

        >>> halves = ((0.0,) * 34, (0.5,) * 34, (0.5,) * 34, (0.0,) * 34)
        >>> DangerReading(0, (0,), halves, (0, 1, 1, 0), several_winners=True).total(0)
        0.75
        >>> DangerReading(0, (0,), halves, (0, 1, 1, 0)).total(0)
        1.0
        """
        if self.several_winners:
            missed = 1.0
            for seat in self.chances:
                missed *= 1.0 - seat[kind]
            return 1.0 - missed
        return min(sum(seat[kind] for seat in self.chances), 1.0)

    def opponents(self) -> list[int]:
        return [s for s in range(4) if s != self.seat]

    def to_json(self) -> dict[str, object]:
        tiles = []
        for kind in self.held:
            tiles.append({"tile": str(TILES[kind]), "total": round(self.total(kind), 4),
                          "by_seat": {str(s): round(self.chances[s][kind], 4)
                                      for s in self.opponents()}})
        out: dict[str, object] = {"seat": self.seat, "samples": self.samples,
                                  "ready": {str(s): round(self.ready[s], 4)
                                            for s in self.opponents()},
                                  "tiles": tiles}
        if self.rule is not None:
            out["rule"] = self.rule
            out["why"] = "no win on a discard: only a self-draw wins"
        return out


# -- what the seat sees ------------------------------------------------------------------


_COPIES: dict[tuple[str, frozenset[int]], tuple[int, ...]] = {}


def _copies(variant: type[Variant], wildcards: frozenset[int]) -> tuple[int, ...]:
    """Copies of each kind in play (C-1; a Putian gold kind's three, PT-2)."""
    key = (variant.name, wildcards)
    found = _COPIES.get(key)
    if found is None:
        stub = Position(variant=variant, hand=(), wildcards=wildcards)
        playable = set(variant.tile_kinds())
        found = _COPIES[key] = tuple(variant.copies(stub, k) if k in playable else 0
                                     for k in range(34))
    return found


def unseen(table: Table, seat: int) -> list[int]:
    """Copies of each kind ``seat`` can't see (flowers laid out are seen, PT-3.3)."""
    copies = _copies(table.variant, table.setup.wildcards)
    seen = table.visible_to(seat)
    pool = [max(c - s, 0) for c, s in zip(copies, seen, strict=True)]
    for kind in table.variant.FLOWER_KINDS:
        if kind not in table.setup.wildcards:
            pool[kind] = 0
    return pool


def ready_features(table: Table, opponent: int) -> tuple[int, int, int]:
    """What the readiness table is keyed by: discards made (up to 20), open melds (up to
    4), and 1 when the last discard was of the void suit or none was made (SC-2: a hand
    holding its void suit can't win)."""
    state = table.seats[opponent]
    turns = min(len(state.river), 20)
    melds = min(len(state.melds), 4)
    void_open = 0
    if state.void is not None:
        last = state.river[-1][0] if state.river else None
        void_open = int(last is None or (last.kind < 27 and last.kind // 9 == state.void))
    return turns, melds, void_open


def ready_chance(table: Table, opponent: int) -> float:
    """P(ready) of an opponent, from the fitted table (1 after a ready declaration)."""
    state = table.seats[opponent]
    if state.ready:
        return 1.0
    rates = danger_tables.READY.get(table.variant.name)
    if not rates:
        return 0.0
    turns, melds, void_open = ready_features(table, opponent)
    for key in ((turns, melds, void_open), (turns, min(melds, 2), void_open),
                (turns, 0, void_open)):
        found = rates.get(key)
        if found is not None:
            return found
    return 0.0


def wait_rate(variant: type[Variant], share: float, redeals: bool = False) -> float:
    """The fitted map from a kind's share of the weighted waits (or of the redealt hands)
    to the rate it was a wait among ready bot hands (piecewise linear between bin means)."""
    maps = danger_tables.WAIT_MAP_REDEALS if redeals else danger_tables.WAIT_MAP
    points = maps.get(variant.name)
    if not points:
        return share
    xs = [p[0] for p in points]
    index = bisect.bisect_left(xs, share)
    if index == 0:
        return points[0][1] * share / xs[0] if xs[0] > 0 else points[0][1]
    if index == len(points):
        return points[-1][1]
    (x0, y0), (x1, y1) = points[index - 1], points[index]
    return y0 + (y1 - y0) * (share - x0) / (x1 - x0) if x1 > x0 else y1


# -- the ways a ready hand waits -----------------------------------------------------------


@dataclass(frozen=True)
class _Block:
    """A waiting block: the tiles it holds and the kinds that complete the hand."""

    holds: tuple[int, ...]
    waits: tuple[int, ...]
    weight: float


def _suited_blocks() -> list[tuple[tuple[int, ...], tuple[int, ...], float]]:
    blocks: list[tuple[tuple[int, ...], tuple[int, ...], float]] = []
    for suit in range(3):
        base = suit * 9
        for n in range(8):  # neighbours n, n+1 (0-based numbers)
            a, b = base + n, base + n + 1
            if n == 0:
                blocks.append(((a, b), (base + 2,), EDGE))
            elif n == 7:
                blocks.append(((a, b), (base + 6,), EDGE))
            else:
                blocks.append(((a, b), (a - 1, b + 1), SIDES))
        for n in range(7):
            blocks.append(((base + n, base + n + 2), (base + n + 1,), GAP))
    return blocks


_SUITED = _suited_blocks()


def _neighbourhood(kind: int) -> tuple[int, ...]:
    """The kinds a wildcard beside ``kind`` can complete a set with."""
    if kind >= 27:
        return (kind,)
    low = kind // 9 * 9
    return tuple(k for k in range(kind - 2, kind + 3) if low <= k < low + 9)


_NEIGHBOURHOODS = tuple(_neighbourhood(k) for k in range(34))


def _blocks(pool: Sequence[int], allowed: Sequence[bool], thrown: Sequence[int],
            no_wait: Sequence[bool], wild_unseen: int, wild_total: int) -> list[_Block]:
    """Every waiting block the opponent could hold, weighted (see the module)."""
    held = [KEPT_AFTER_THROWING ** min(n, 2) for n in thrown]
    waited = [0.0 if not ok or bar else (WAIT_AFTER_THROWING if n else 1.0)
              for ok, bar, n in zip(allowed, no_wait, thrown, strict=True)]
    blocks: list[_Block] = []
    append = blocks.append
    pair_weights = [comb(pool[k], 2) if allowed[k] else 0 for k in range(34)]
    pairs_total = sum(pair_weights)
    for kind in range(34):
        if not (allowed[kind] and pool[kind]) or not waited[kind]:
            continue
        single = SINGLE * pool[kind] * held[kind] * waited[kind]
        append(_Block((kind,), (kind,), single))
        if pair_weights[kind]:
            # two pairs: this one and any other (the other side's weight summed)
            others = pairs_total - pair_weights[kind]
            weight = PAIRS * pair_weights[kind] * others / 2 * held[kind] ** 2 * waited[kind]
            if weight > 0:
                append(_Block((kind, kind), (kind,), weight))
    for holds, waits, prior in _SUITED:
        a, b = holds
        if not (allowed[a] and allowed[b] and pool[a] and pool[b]):
            continue
        factor = 1.0
        for wait in waits:
            factor *= waited[wait] if allowed[wait] else 1.0
        live = tuple(w for w in waits if allowed[w])
        if live and factor > 0:
            append(_Block(holds, live, prior * pool[a] * pool[b] * held[a] * held[b] * factor))
    if wild_unseen and wild_total:
        share = wild_unseen / wild_total
        for kind in range(34):
            if not (allowed[kind] and pool[kind]):
                continue
            around = _NEIGHBOURHOODS[kind]
            factor = 1.0
            for wait in around:
                factor *= waited[wait] if allowed[wait] else 1.0
            live = tuple(w for w in around if allowed[w])
            if live and factor > 0:
                append(_Block((kind,), live, WILD * share * pool[kind] * held[kind] * factor))
    return blocks


def _opponent_view(table: Table, seat: int, opponent: int, pool: list[int] | None = None
                   ) -> tuple[list[int], list[bool], list[int], list[bool], int, int]:
    variant = table.variant
    pool = unseen(table, seat) if pool is None else pool
    wild = table.setup.wildcards
    state = table.seats[opponent]
    allowed = [pool[k] >= 0 and k not in wild for k in range(34)]
    playable = set(variant.tile_kinds())
    for kind in range(34):
        if kind not in playable or (kind in variant.FLOWER_KINDS and kind not in wild):
            allowed[kind] = False
        if state.void is not None and kind < 27 and kind // 9 == state.void:
            allowed[kind] = False  # SC-2 / SC-4.2: no win holding the void suit
    thrown = [0] * 34
    no_wait = [False] * 34
    locked_from = state.locked_from if state.ready else None
    for index, (tile, _claimed) in enumerate(state.river):
        thrown[tile.kind] += 1
        if locked_from is not None and index >= locked_from:
            no_wait[tile.kind] = True  # PT-5.3: drawn under the lock and not a win
    wild_unseen = sum(pool[k] for k in wild)
    wild_total = sum(_copies(variant, wild)[k] for k in wild)
    natural = [0 if k in wild else pool[k] for k in range(34)]
    return natural, allowed, thrown, no_wait, wild_unseen, wild_total


def wait_shares(table: Table, seat: int, opponent: int,
                pool: list[int] | None = None) -> list[float]:
    """Each kind's share of the weighted waiting blocks of ``opponent`` (0–1); ``pool`` is
    :func:`unseen` when the caller has it already."""
    pool, allowed, thrown, no_wait, wild_unseen, wild_total = _opponent_view(
        table, seat, opponent, pool)
    return shares_of(pool, allowed, thrown, no_wait, wild_unseen, wild_total)


def shares_of(pool: Sequence[int], allowed: Sequence[bool], thrown: Sequence[int],
              no_wait: Sequence[bool], wild_unseen: int, wild_total: int) -> list[float]:
    """Each kind's share of the waiting blocks built from ``pool`` (unseen natural tiles):
    ``allowed`` kinds may be held and waited on, ``thrown`` counts the opponent's own
    discards, ``no_wait`` kinds are known not to win, and ``wild_unseen`` of the
    ``wild_total`` wildcards are unseen.

    >>> shares = shares_of([4] * 9 + [0] * 25, [True] * 9 + [False] * 25, [0] * 34,
    ...                    [False] * 34, 0, 0)
    >>> round(sum(shares[:9]), 2) > 1, shares[9]
    (True, 0.0)
    """
    blocks = _blocks(pool, allowed, thrown, no_wait, wild_unseen, wild_total)
    total = sum(b.weight for b in blocks)
    shares = [0.0] * 34
    if total <= 0:
        return shares
    for block in blocks:
        for kind in block.waits:
            shares[kind] += block.weight / total
    return [min(s, 1.0) for s in shares]


# -- redeals -------------------------------------------------------------------------------


def _deal_sets(pool: list[int], sets: int, allowed: Sequence[bool], hand: list[int],
               rng: random.Random) -> bool:
    """Deal ``sets`` sets from ``pool`` into ``hand`` (runs and pungs by unseen copies)."""
    for _ in range(sets):
        options: list[tuple[float, tuple[int, ...]]] = []
        for kind in range(34):
            if allowed[kind] and pool[kind] >= 3:
                options.append((comb(pool[kind], 3) * 0.5, (kind, kind, kind)))
            if kind < 27 and kind % 9 <= 6 and allowed[kind] and allowed[kind + 1] \
                    and allowed[kind + 2]:
                weight = pool[kind] * pool[kind + 1] * pool[kind + 2]
                if weight:
                    options.append((float(weight), (kind, kind + 1, kind + 2)))
        if not options:
            return False
        tiles = rng.choices([t for _, t in options], [w for w, _ in options])[0]
        for kind in tiles:
            pool[kind] -= 1
            hand[kind] += 1
    return True


def redealt_waits(table: Table, seat: int, opponent: int, rng: random.Random,
                   samples: int) -> list[float]:
    """Share of redealt ready hands (built, not rejection-sampled) waiting on each kind."""
    variant = table.variant
    pool0, allowed, thrown, no_wait, wild_unseen, wild_total = _opponent_view(
        table, seat, opponent)
    blocks = _blocks(pool0, allowed, thrown, no_wait, wild_unseen, wild_total)
    state = table.seats[opponent]
    sets_left = variant.SETS - len(state.melds)
    honours = bool(variant.HONOURS) and not variant.HAS_FLOWERS
    void = state.void
    weights = [b.weight for b in blocks]
    hits = [0.0] * 34
    dealt = 0
    if not blocks:
        return hits
    for _ in range(samples * 3):
        if dealt >= samples:
            break
        block = rng.choices(blocks, weights)[0]
        pool = list(pool0)
        hand = [0] * 34
        wilds = 1 if len(block.holds) == 1 and len(block.waits) > 1 else 0  # wildcard + tile
        for kind in block.holds:
            pool[kind] -= 1
            hand[kind] += 1
        if min(pool) < 0:
            continue
        need_sets = sets_left
        if len(block.holds) == 2 or wilds:
            # a block of two (or a wildcard beside a tile) and a pair besides
            need_sets -= 1
            pairs = [k for k in range(34) if allowed[k] and pool[k] >= 2]
            if not pairs:
                continue
            pair = rng.choices(pairs, [comb(pool[k], 2) for k in pairs])[0]
            pool[pair] -= 2
            hand[pair] += 2
        if not _deal_sets(pool, need_sets, allowed, hand, rng):
            continue
        waits = shapes.needed_after_each(hand, sets_left, void=void, honours=honours,
                                         step=1)[1]
        for kind in range(34):
            if allowed[kind] and not no_wait[kind] and waits[kind] <= wilds:
                hits[kind] += 1
        dealt += 1
    # The block weights stand as REDEAL_PRIOR redeals already made: a kind no redeal
    # happened to wait on keeps a little of its weighted share instead of reading 0.
    prior = shares_of(pool0, allowed, thrown, no_wait, wild_unseen, wild_total)
    return [(h + REDEAL_PRIOR * p) / (dealt + REDEAL_PRIOR) for h, p in zip(hits, prior,
                                                                         strict=True)]


# -- the reading ---------------------------------------------------------------------------


def tile_danger(table: Table, seat: int, rng: random.Random | None = None,
                samples: int = 0) -> DangerReading:
    """The danger of every kind ``seat`` holds, to each opponent still in the hand."""
    variant = table.variant
    held = tuple(k for k in range(34) if table.seats[seat].hand[k])
    zero = (0.0,) * 34
    if not variant.DISCARD_WINS:
        return DangerReading(seat, held, (zero,) * 4, (0.0,) * 4,
                             rule=variant.DISCARD_WIN_RULE, samples=samples)
    rng = rng or random.Random(0)
    chances: list[tuple[float, ...]] = []
    ready = [0.0] * 4
    pool = unseen(table, seat)
    for opponent in range(4):
        state = table.seats[opponent]
        if opponent == seat or state.out:
            chances.append(zero)
            continue
        ready[opponent] = ready_chance(table, opponent)
        if ready[opponent] <= 0:
            chances.append(zero)
            continue
        redeals = samples > 0
        shares = (redealt_waits(table, seat, opponent, rng, samples) if redeals
                  else wait_shares(table, seat, opponent, pool))
        row = [0.0] * 34
        for kind in held:  # only the kinds the seat could discard are read
            if shares[kind]:
                row[kind] = ready[opponent] * wait_rate(variant, shares[kind], redeals)
        chances.append(tuple(row))
    several = variant.SEVERAL_DISCARD_WINNERS
    if not several:
        chances = _first_in_order(chances, seat)
    return DangerReading(seat, held, tuple(chances), tuple(ready), samples=samples,
                         several_winners=several)


def _first_in_order(chances: list[tuple[float, ...]], seat: int) -> list[tuple[float, ...]]:
    """PT-5.2: the first player in order after the discarder who can win takes it."""
    out = list(chances)
    left = [1.0] * 34
    for step in (1, 2, 3):
        opponent = (seat + step) % 4
        row = chances[opponent]
        out[opponent] = tuple(left[k] * row[k] for k in range(34))
        left = [left[k] * (1 - row[k]) for k in range(34)]
    return out


# -- a point of a log ---------------------------------------------------------------------


def table_before(match: MatchLog, hand: int, event: int) -> Table:
    """The table of hand ``hand`` just before its event ``event`` (both 1-based), the
    earlier hands replayed (and so checked); a bad point raises :class:`LogError` naming it.

    >>> from games.bots.simulation import simulate
    >>> table_before(simulate("putian", hands=1, seed=2), 2, 1)
    Traceback (most recent call last):
    ...
    games.records.log.LogError: hand 2: the log has hands 1 to 1
    """
    if not 1 <= hand <= len(match.hands):
        raise LogError(Message("the log has hands 1 to {n}", n=len(match.hands)), hand=hand)
    events = match.hands[hand - 1].events
    if not 1 <= event <= len(events):
        raise LogError(Message("hand {hand} has events 1 to {n}", hand=hand, n=len(events)),
                       hand=hand, event=event)
    replayer = Replayer(match)
    for number in range(1, hand):
        replayer.play(number, match.hands[number - 1])
    table = replayer.begin(hand, match.hands[hand - 1])
    for index, item in enumerate(events[: event - 1], start=1):
        if item.type == "end":
            raise LogError(Message("the hand ended before this event"), hand=hand, event=index)
        try:
            table.apply(item)
        except ValueError as problem:  # a RuleViolation: the log is not valid
            rule = getattr(problem, "rule", None)
            raise LogError(getattr(problem, "message", str(problem)), hand=hand, event=index,
                           rule=rule) from None
    return table


def default_seat(match: MatchLog, table: Table, hand: int, event: int) -> int:
    """Whose danger a point is about when no seat is named: the actor of the event (a
    discard's discarder), else the seat whose turn it is."""
    actor = match.hands[hand - 1].events[event - 1].actor
    return actor if actor is not None else table.turn


# -- what actually happened (for fitting and tests: reads hidden hands) ----------------------


def true_waits(table: Table, opponent: int) -> frozenset[int]:
    """The kinds a discard of which ``opponent`` could win on now (their real hand)."""
    variant = table.variant
    state = table.seats[opponent]
    wild = table.setup.wildcards
    counts = list(state.hand)
    if state.void is not None and any(counts[state.void * 9: state.void * 9 + 9]):
        return frozenset()  # SC-4.2
    wilds = sum(counts[k] for k in wild)
    for kind in wild:
        counts[kind] = 0
    sets_left = variant.SETS - len(state.melds)
    honours = bool(variant.HONOURS) and not variant.HAS_FLOWERS
    if sum(counts) + wilds != 3 * sets_left + 1:
        return frozenset()
    waits = shapes.needed_after_each(counts, sets_left, void=state.void, honours=honours,
                                     step=1)[1]
    found = {k for k in range(34) if waits[k] <= wilds and k not in wild}
    if variant.SEVEN_PAIRS and not state.melds:
        for kind in range(34):
            if counts[kind] % 2 == 1:
                trial = list(counts)
                trial[kind] += 1
                if shapes.seven_pairs_shanten(trial, state.void) == -1:
                    found.add(kind)
    if state.void is not None:
        found = {k for k in found if k >= 27 or k // 9 != state.void}
    return frozenset(found)
