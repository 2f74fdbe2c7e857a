"""``value`` on a point in a log: the ``table`` model, and the ``solo`` model's log form.

The table model plays every choice a seat had out to the end of the hand with
the engine's ``strong`` bots (:data:`PLAYOUT_LEVEL`, :mod:`games.bots.strong`) at all four seats. What the seat can't see
(the other seats' concealed tiles and the wall) is dealt again at random from
the tiles it can't see, once per sample; every choice is played from the same
deals with the same bot dice, so the differences between choices are paired.
A choice's ``expected_points`` is the seat's mean net result for the hand, as the
settlement counts it (C-6).

The redeal keeps every count a seat can see (hand sizes, melds, rivers, laid-out
whites, the wall's length) but not what the others' play implies about their
hands: a seat that declined a pung may be dealt that pair. Three tiles another seat has
set aside for 换三张 (SC-H1) are dealt again with the rest, and set aside again by the bots'
rule; the three the seat passed on stay in the receiver's hand until seen leaving it.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from games.analysis.value import (
    DEFAULT_SAMPLES,
    MAX_SAMPLES,
    Valuation,
    ValueInputError,
    mean_and_half_width,
    sampled_choice,
    solo_values,
)
from games.bots.basic import exchange_choice
from games.bots.claims import pass_after_wins
from games.bots.levels import make_bot
from games.bots.simulation import next_events, play_hand
from games.core.position import Position
from games.core.table import Action, Phase, RuleViolation, Table
from games.core.tiles import KINDS, TILES, Tile
from games.records.log import EngineFault, Event, LogError, Match, read_log
from games.records.match import Replayer

CLAIMS = ("hu", "peng", "chi", "gang")
# Who plays every seat after the choice being valued: the strongest level fast enough for
# thousands of playouts (docs/bots.md), so a choice is judged against sensible play.
PLAYOUT_LEVEL = "strong"


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
        except Exception as error:
            raise EngineFault.of(error, hand=hand, event=event) from error
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
        # No wall in the log (a hand recorded from one seat): the unseen tiles are the
        # variant's set less those used, and a variant without honours has none of them.
        limits = table._copy_limits
        for kind in range(KINDS):
            if TILES[kind].is_honour and kind not in table.variant.HONOURS:
                continue
            tiles.extend([TILES[kind]] * (limits[kind] - table.used[kind]))
    return tiles


def redeal(table: Table, seat: int, rng: random.Random) -> Table:
    """A copy of the table with the hidden tiles dealt again at random: uniformly among
    the deals that keep to what the table shows of each seat (:meth:`Table.kinds_ruled_out`
    and :meth:`Table.hand_rule`: a Sichuan seat that has discarded outside its void suit
    holds none of it, SC-2; a Putian seat holds no white after laying them out, PT-3.2,
    and a ready hand once it declared ready, PT-5.3)."""
    hidden = hidden_tiles(table, seat)
    # What the others set aside face down (SC-H1) is unseen too: dealt back into their
    # hands, then set aside again as the bots choose.
    aside = {other: tiles for other, tiles in table.set_aside().items() if other != seat}
    hidden.extend(tile for tiles in aside.values() for tile in tiles)
    # What the seat knows another holds (its own three, passed on in 换三张) stays there.
    known = {other: tiles for other, tiles in table.known_held(seat).items()
             if other != seat and not (table.seats[other].won and table.PLAY_ON)}
    for tiles in known.values():
        for tile in tiles:
            hidden.remove(tile)
    rng.shuffle(hidden)
    dealt = copy.deepcopy(table, {id(table.setup): table.setup})
    takers = [Taker(other, state.size + len(aside.get(other, ())) - len(known.get(other, ())),
                    table.kinds_ruled_out(other), _with_known(table.hand_rule(other),
                                                              known.get(other, ())))
              for other, state in enumerate(table.seats)
              if other != seat and not (state.won and table.PLAY_ON)]
    if any(t.barred or t.rule for t in takers):
        held = {t.seat: _without([*table.seats[t.seat].tiles(), *aside.get(t.seat, ())],
                                 known.get(t.seat, ())) for t in takers}
        hands, wall = _deal_keeping(held, hidden, takers, rng)
    else:
        hands, start = {}, 0
        for taker in takers:
            hands[taker.seat] = hidden[start : start + taker.size]
            start += taker.size
        wall = hidden[start:]
    for other, tiles in hands.items():
        tiles = [*tiles, *known.get(other, ())]
        state = dealt.seats[other]
        state.hand = [0] * KINDS
        for tile in tiles:
            state.hand[tile.kind] += 1
    for other in sorted(aside, key=lambda s: (s - table.dealer) % 4):
        dealt.set_aside_again(other, exchange_choice)
    if len(wall) != table.tiles_left:
        raise AssertionError("the redealt wall must hold the tiles left")
    dealt.wall, dealt.front, dealt.back = wall, 0, len(wall)
    dealt.used = list(dealt._copy_limits)  # every copy is placed: draws count nothing
    return dealt


def _without(tiles: list[Tile], taken: Sequence[Tile]) -> list[Tile]:
    rest = list(tiles)
    for tile in taken:
        rest.remove(tile)
    return rest


def _with_known(rule: Callable[[Sequence[int]], bool] | None, known: Sequence[Tile]
                ) -> Callable[[Sequence[int]], bool] | None:
    """A seat's hand test asked of the tiles dealt to it with the tiles known it holds."""
    if rule is None or not known:
        return rule
    extra = _counts(known)

    def test(counts: Sequence[int]) -> bool:
        return rule([a + b for a, b in zip(counts, extra, strict=True)])

    return test


@dataclass(frozen=True)
class Taker:
    """A seat to deal to: how many tiles, the kinds it can't hold, a test its hand passes."""

    seat: int
    size: int
    barred: frozenset[int]
    rule: Callable[[Sequence[int]], bool] | None


def _deal_keeping(held: dict[int, list[Tile]], hidden: list[Tile], takers: Sequence[Taker],
                  rng: random.Random) -> tuple[dict[int, list[Tile]], list[Tile]]:
    """Shuffled ``hidden`` tiles dealt so that every seat keeps to its rules.

    The seats with kinds ruled out take the first tiles they may hold, the others the
    next ones; when that runs short or a hand fails its seat's test, the table's own
    deal (``held``: the tiles each seat really holds among ``hidden``, which keep to the
    rules) is the start instead. Random swaps of two tiles
    that keep every seat's rules then make the deal uniform among the allowed ones (a
    swap chain whose moves are symmetric); a seat's test is asked only when a swap
    changes its hand."""
    pool = list(hidden)
    hands: dict[int, list[Tile]] = {}
    for taker in sorted(takers, key=lambda t: not t.barred):
        picked: list[Tile] = []
        rest: list[Tile] = []
        for tile in pool:
            (picked if len(picked) < taker.size and tile.kind not in taker.barred
             else rest).append(tile)
        if len(picked) < taker.size or (taker.rule and not taker.rule(_counts(picked))):
            hands = {t.seat: list(held[t.seat]) for t in takers}
            pool = list(hidden)
            for tiles in hands.values():
                for tile in tiles:
                    pool.remove(tile)
            rng.shuffle(pool)
            break
        hands[taker.seat] = picked
        pool = rest
    slots: list[Tile] = []
    owner: list[int] = []  # index into takers, or -1 for the wall
    for number, taker in enumerate(takers):
        slots.extend(hands[taker.seat])
        owner.extend([number] * taker.size)
    wall_start = len(slots)
    slots.extend(pool)
    owner.extend([-1] * len(pool))
    counts = [_counts(hands[t.seat]) for t in takers]
    count = len(slots)
    for _ in range(count * max(count.bit_length(), 1)):
        i, j = rng.randrange(count), rng.randrange(count)
        a, b = slots[i], slots[j]
        first, second = owner[i], owner[j]
        if first == second or a.kind == b.kind:
            if first == second == -1:  # the wall's order is part of the deal
                slots[i], slots[j] = b, a
            continue
        if not _may_take(takers, counts, second, b, a):
            continue
        if not _may_take(takers, counts, first, a, b):
            if second >= 0:  # undo the other side's change
                counts[second][b.kind] += 1
                counts[second][a.kind] -= 1
            continue
        slots[i], slots[j] = b, a
    dealt = {}
    start = 0
    for taker in takers:
        dealt[taker.seat] = slots[start : start + taker.size]
        start += taker.size
    return dealt, slots[wall_start:]


def _counts(tiles: Sequence[Tile]) -> list[int]:
    counts = [0] * KINDS
    for tile in tiles:
        counts[tile.kind] += 1
    return counts


def _may_take(takers: Sequence[Taker], counts: list[list[int]], number: int, out: Tile,
              into: Tile) -> bool:
    """Whether taker ``number`` (-1: the wall) may give ``out`` for ``into``; when it may,
    its counts are changed (a rejected swap leaves them as they were)."""
    if number < 0:
        return True
    taker = takers[number]
    if into.kind in taker.barred:
        return False
    hand = counts[number]
    hand[out.kind] -= 1
    hand[into.kind] += 1
    if taker.rule is None or taker.rule(hand):
        return True
    hand[out.kind] += 1
    hand[into.kind] -= 1
    return False


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
    bots = [make_bot(PLAYOUT_LEVEL, random.Random(bot_seed * 4 + s)) for s in range(4)]
    if choice is None:  # the seat passes; the others answer for themselves
        for event in next_events(played, bots, played.legal_actions(), passing={seat}):
            if not played.ended:
                _apply(played, event)
        after = pass_after_wins(played)
        if after is not None:
            _apply(played, after)
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


REDRAWS = 4  # redeals tried per sample wanted, when some fail


def _play_samples(point: LogPoint, choices: Sequence[Action | None],
                  results: Sequence[Playout], rng: random.Random, samples: int) -> None:
    """``samples`` more redeals on which every choice plays out. A redeal on which the bots
    can't play some choice through is dropped for every choice (the rest stay paired) and
    another is drawn, a bounded number of times; with none left, the engine has failed."""
    kept = 0
    for _ in range(samples * REDRAWS):
        if kept == samples:
            return
        dealt = redeal(point.table, point.seat, rng)
        bot_seed = rng.randrange(2**31)
        row = [played_or_none(dealt, point.seat, choice, bot_seed) for choice in choices]
        if any(played is None for played in row):
            continue
        kept += 1
        for played, result in zip(row, results, strict=True):
            assert played is not None
            result.wins.append(float(played.won))
            result.points.append(float(played.net))
            result.results.append(played)
    if not results[0].wins:
        raise EngineFault(RuntimeError(f"no redeal of {samples * REDRAWS} played every choice "
                                       "out"), hand=point.hand, event=point.event)


def played_or_none(dealt: Table, seat: int, choice: Action | None,
                   bot_seed: int) -> Result | None:
    """:func:`play_out`, or None when the bots can't play it through on this redeal (a
    redeal contradicting what the table showed, or a seat left without a legal move)."""
    try:
        return play_out(dealt, seat, choice, bot_seed)
    except (RuleViolation, IndexError):
        return None


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
