"""``value`` on a point in a log: the ``table`` model, and the ``solo`` model's log form.

The table model plays every choice a seat had out to the end of the hand with
the engine's bots (:mod:`games.bots`) at all four seats. What the seat can't see
(the other seats' concealed tiles and the wall) is dealt again at random from
the tiles it can't see, once per sample; every choice is played from the same
deals with the same bot dice, so the differences between choices are paired.
A choice's ``expected_points`` is the seat's mean net result for the hand, as the
settlement counts it (C-6).

The redeal keeps every count a seat can see (hand sizes, melds, rivers, laid-out
whites, the wall's length) but not what the others' play implies about their
hands: a seat that declined a pung may be dealt that pair.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from games.bots import Bot, play_hand
from games.log import Event, LogError, Match, read_log
from games.match import Replayer
from games.position import Position
from games.table import Action, Phase, Table
from games.tiles import KINDS, TILES, Tile
from games.value import (
    DEFAULT_SAMPLES,
    MAX_SAMPLES,
    Valuation,
    ValueInputError,
    mean_and_half_width,
    sampled_choice,
    solo_values,
)

CLAIMS = ("hu", "peng", "chi", "gang")


def log_values(data: dict[str, Any], model: str, samples: int | None, seed: int) -> Valuation:
    """The ``value`` of a request naming a log, a hand, an event and a seat."""
    point = LogPoint.from_request(data)
    if model == "solo":
        return point.solo(samples, seed, data.get("draws_left"))
    return table_values(point, DEFAULT_SAMPLES if samples is None else samples, seed)


@dataclass
class LogPoint:
    """The table just before event ``event`` (1-based) of hand ``hand``, for ``seat``."""

    table: Table
    hand: int
    event: int
    seat: int

    @classmethod
    def from_request(cls, data: dict[str, Any]) -> LogPoint:
        try:
            match = read_log(data["log"])
        except LogError as error:
            raise ValueInputError(f"the log: {error}") from None
        hand, event, seat = (_int_field(data, name) for name in ("hand", "event", "seat"))
        return cls.at(match, hand, event, seat)

    @classmethod
    def at(cls, match: Match, hand: int, event: int, seat: int) -> LogPoint:
        if not 1 <= hand <= len(match.hands):
            raise ValueInputError(f"hand {hand}: the log has hands 1 to {len(match.hands)}")
        events = match.hands[hand - 1].events
        if not 1 <= event <= len(events):
            raise ValueInputError(f"event {event}: hand {hand} has events 1 to {len(events)}")
        if not 0 <= seat <= 3:
            raise ValueInputError(f"seat must be 0 to 3, not {seat} (C-2)")
        replayer = Replayer(match)
        try:
            for number in range(1, hand):
                replayer.play(number, match.hands[number - 1])
            table = replayer.begin(hand, match.hands[hand - 1])
            for index, item in enumerate(events[: event - 1], start=1):
                if item.type == "end":
                    raise ValueInputError(f"event {index} of hand {hand} ends the hand")
                table.apply(item)
        except LogError as error:
            raise ValueInputError(f"the log: {error}") from None
        except ValueError as error:  # a RuleViolation: the log is not valid
            raise ValueInputError(f"the log, hand {hand}: {error}") from None
        return cls(table, hand, event, seat)

    def choices(self) -> list[Action | None]:
        """The seat's choices here; ``None`` is passing on a claim or a win."""
        actions: list[Action | None] = [a for a in self.table.legal_actions()
                                        if a.seat == self.seat]
        claims = [a for a in actions if a is not None and a.event.type in CLAIMS]
        if self.table.phase in (Phase.DISCARDED, Phase.ROBBABLE):
            actions = [*claims, None] if claims else []
        elif self.table.phase is Phase.DRAW or self.table.phase is Phase.FLOWERS:
            actions = []
        if not actions:
            raise ValueInputError(
                f"seat {self.seat} has no choice before event {self.event} of hand "
                f"{self.hand} (the table is in its {self.table.phase.value} phase)")
        return actions

    def solo(self, samples: int | None, seed: int, draws_left: Any) -> Valuation:
        """The solo model at a discard of this seat (draws from the wall count)."""
        table = self.table
        if table.phase is not Phase.TURN or table.turn != self.seat:
            raise ValueInputError(f"the solo model values a discard: it is not seat "
                                  f"{self.seat}'s turn before event {self.event}")
        position = position_of(self)
        if draws_left is None:
            draws_left = table.tiles_left // max(len(table.players_in()), 1)
        return solo_values(position, draws_left, samples, seed)


def _int_field(data: dict[str, Any], name: str) -> int:
    value = data.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueInputError(f"a value request on a log needs {name!r} as an integer")
    return value


def seen_by(table: Table, seat: int) -> list[Tile]:
    """Tiles ``seat`` sees outside its own hand, melds and whites: rivers, the others'
    melds and whites, Sichuan winners' hands (SC-3.2) and the Jiaxing indicator."""
    seen: list[Tile] = []
    for other, state in enumerate(table.seats):
        seen.extend(tile for tile, claimed in state.river if not claimed)
        if other == seat:
            continue
        seen.extend(t for meld in state.melds for t in meld.tiles)
        seen.extend([TILES[31]] * state.flowers)
        if state.won and table.PLAY_ON:
            seen.extend(state.tiles())
    if table.setup.indicator is not None:
        seen.append(table.setup.indicator)
    return seen


# -- the table model -------------------------------------------------------------------------------


def hidden_tiles(table: Table, seat: int) -> list[Tile]:
    """The tiles ``seat`` can't see: the others' concealed tiles and the wall."""
    tiles: list[Tile] = []
    for other, state in enumerate(table.seats):
        if other != seat and not (state.won and table.PLAY_ON):
            tiles.extend(state.tiles())
    if table.wall is not None:
        tiles.extend(table.wall[table.front : table.back])
    else:
        limits = table._copy_limits
        for kind in range(KINDS):
            tiles.extend([TILES[kind]] * (limits[kind] - table.used[kind]))
    return tiles


def redeal(table: Table, seat: int, rng: random.Random) -> Table:
    """A copy of the table with the hidden tiles dealt again at random: uniformly among
    the deals that keep to what the table shows of each seat (:meth:`Table.kinds_ruled_out`:
    a Sichuan seat whose last discard wasn't of its void suit holds none of it, SC-2)."""
    hidden = hidden_tiles(table, seat)
    rng.shuffle(hidden)
    dealt = copy.deepcopy(table, {id(table.setup): table.setup})
    takers = [(other, state.size, table.kinds_ruled_out(other))
              for other, state in enumerate(table.seats)
              if other != seat and not (state.won and table.PLAY_ON)]
    if any(barred for _, _, barred in takers):
        hands, wall = _deal_keeping(table, hidden, takers, rng)
    else:
        hands, start = {}, 0
        for other, size, _ in takers:
            hands[other] = hidden[start : start + size]
            start += size
        wall = hidden[start:]
    for other, tiles in hands.items():
        state = dealt.seats[other]
        state.hand = [0] * KINDS
        for tile in tiles:
            state.hand[tile.kind] += 1
    if len(wall) != table.tiles_left:
        raise AssertionError("the redealt wall must hold the tiles left")
    dealt.wall, dealt.front, dealt.back = wall, 0, len(wall)
    dealt.used = list(dealt._copy_limits)  # every copy is placed: draws count nothing
    return dealt


def _deal_keeping(table: Table, hidden: list[Tile],
                  takers: Sequence[tuple[int, int, frozenset[int]]],
                  rng: random.Random) -> tuple[dict[int, list[Tile]], list[Tile]]:
    """Shuffled ``hidden`` tiles dealt so that no seat gets a kind ruled out for it.

    The seats with kinds ruled out take the first tiles they may hold, the others the
    next ones; when that runs short, the table's own deal (which keeps to the rules) is
    the start instead. Random swaps that keep every seat's rule then make the deal
    uniform among the allowed ones (a swap chain whose moves are symmetric)."""
    pool = list(hidden)
    hands: dict[int, list[Tile]] = {}
    for other, size, barred in sorted(takers, key=lambda t: not t[2]):
        picked: list[Tile] = []
        rest: list[Tile] = []
        for tile in pool:
            (picked if len(picked) < size and tile.kind not in barred else rest).append(tile)
        if len(picked) < size:
            hands = {o: table.seats[o].tiles() for o, _, _ in takers}
            pool = list(hidden)
            for tiles in hands.values():
                for tile in tiles:
                    pool.remove(tile)
            rng.shuffle(pool)
            break
        hands[other] = picked
        pool = rest
    slots: list[Tile] = []
    owners: list[frozenset[int]] = []
    bounds: list[tuple[int, int]] = []
    for other, _, barred in takers:
        bounds.append((len(slots), len(slots) + len(hands[other])))
        slots.extend(hands[other])
        owners.extend([barred] * len(hands[other]))
    wall_start = len(slots)
    slots.extend(pool)
    owners.extend([frozenset()] * len(pool))
    count = len(slots)
    for _ in range(count * max(count.bit_length(), 1)):
        i, j = rng.randrange(count), rng.randrange(count)
        a, b = slots[i], slots[j]
        if a.kind not in owners[j] and b.kind not in owners[i]:
            slots[i], slots[j] = b, a
    dealt = {other: slots[low:high] for (other, _, _), (low, high) in zip(takers, bounds,
                                                                           strict=True)}
    return dealt, slots[wall_start:]


@dataclass(frozen=True)
class Result:
    """One choice played out on one redeal, from the seat's side: whether it won (and by
    self-draw), its net for the hand (C-6), and its net by the cause of each payment made
    from the choice on (``win``, ``kong``, ``not_ready``, ``flower_pig``, ...)."""

    won: bool
    net: int
    self_drawn: bool
    causes: tuple[tuple[str, int], ...]


@dataclass
class Playout:
    """A choice's results over the samples: whether the seat won, its net points, and
    each sample's :class:`Result` (where kept)."""

    wins: list[float]
    points: list[float]
    results: list[Result] = field(default_factory=list)


def play_choice(table: Table, seat: int, choice: Action | None, bot_seed: int) -> tuple[bool, int]:
    """Play ``choice`` (None: pass) on a copy of ``table`` and the hand to its end."""
    result = play_out(table, seat, choice, bot_seed)
    return result.won, result.net


def play_out(table: Table, seat: int, choice: Action | None, bot_seed: int) -> Result:
    """:func:`play_choice` with what the seat's points came from."""
    played = copy.deepcopy(table, {id(table.setup): table.setup})
    paid_before = len(played.payments)
    bots = [Bot(random.Random(bot_seed * 4 + s)) for s in range(4)]
    if choice is None:
        others = [a for a in played.legal_actions()
                  if not (a.seat == seat and a.event.type in CLAIMS)]
        action = bots[others[0].seat].choose(played, others)
        _apply(played, action.event)
    else:
        _apply(played, choice.event)
    if not played.ended:
        play_hand(played, bots)
    causes: dict[str, int] = {}
    for settled in played.payments[paid_before:]:
        line = settled.line
        if line.payee is None:  # to the house: outside the deltas (C-6)
            continue
        if line.payee == seat:
            causes[line.cause] = causes.get(line.cause, 0) + line.amount
        elif line.payer == seat:
            causes[line.cause] = causes.get(line.cause, 0) - line.amount
    own = [w for w in played.wins if w.seat == seat]
    return Result(bool(own), played.deltas[seat], any(w.target is None for w in own),
                  tuple(sorted(causes.items())))


def _apply(table: Table, event: Event) -> None:
    if event.type == "end":
        table.finish(event.reason or "exhausted")
    else:
        table.apply(event)


def table_values(point: LogPoint, samples: int, seed: int) -> Valuation:
    """Every choice of the seat played out from the same ``samples`` redeals."""
    if not 1 <= samples <= MAX_SAMPLES:
        raise ValueInputError(f"samples must be from 1 to {MAX_SAMPLES}, not {samples}")
    choices = point.choices()
    results = [Playout([], []) for _ in choices]
    _play_samples(point, choices, results, random.Random(seed), samples)
    return _valuation(choices, results, point.seat)


def table_values_within(point: LogPoint, half_width: float, seed: int, batch: int = 50,
                        most: int = MAX_SAMPLES) -> Valuation:
    """Samples in batches until every choice's win-chance interval is at most
    ± ``half_width`` (or ``most`` samples): what a decision costs at a given precision."""
    choices = point.choices()
    results = [Playout([], []) for _ in choices]
    rng = random.Random(seed)
    while True:
        _play_samples(point, choices, results, rng, min(batch, most - len(results[0].wins)))
        widest = max(mean_and_half_width(r.wins)[1] for r in results)
        if widest <= half_width or len(results[0].wins) >= most:
            return _valuation(choices, results, point.seat)


def _play_samples(point: LogPoint, choices: Sequence[Action | None],
                  results: Sequence[Playout], rng: random.Random, samples: int) -> None:
    for _ in range(samples):
        dealt = redeal(point.table, point.seat, rng)
        bot_seed = rng.randrange(2**31)
        for choice, result in zip(choices, results, strict=True):
            played = play_out(dealt, point.seat, choice, bot_seed)
            result.wins.append(float(played.won))
            result.points.append(float(played.net))
            result.results.append(played)


def _valuation(choices: Sequence[Action | None], results: Sequence[Playout],
               seat: int) -> Valuation:
    samples = len(results[0].wins)
    valued = [sampled_choice(r.wins, r.points, action=_action_event(c, seat))
              for c, r in zip(choices, results, strict=True)]
    order = sorted(range(len(valued)), key=lambda i: valued[i].sort_key())
    best = results[order[0]]
    for index in order:
        valued[index].extra["vs_best"] = paired_difference(results[index], best)
    return Valuation("table", samples, [valued[i] for i in order])


def _action_event(choice: Action | None, seat: int) -> Event:
    return choice.event if choice is not None else Event("pass", seat)


def paired_difference(choice: Playout, best: Playout) -> dict[str, Any]:
    """This choice minus the best one, sample by sample, with 95% intervals."""
    out: dict[str, Any] = {}
    for name, mine, theirs in (("win_probability", choice.wins, best.wins),
                               ("expected_points", choice.points, best.points)):
        mean, half = mean_and_half_width([a - b for a, b in zip(mine, theirs, strict=True)])
        out[name] = round(mean, 4)
        out[f"{name}_ci95"] = [round(mean - half, 4), round(mean + half, 4)]
    return out


def position_of(point: LogPoint) -> Position:
    """The seat's position at the point, with what it has seen (for the solo model)."""
    return replace(point.table.seat_position(point.seat),
                   seen=tuple(seen_by(point.table, point.seat)))
