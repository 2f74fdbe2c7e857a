"""The duplicate arena: two levels of play measured on the same walls (issue 26).

Every wall is played five times: once by four seats of level B (the baseline), and four
times with level A in one seat (each seat in turn) against three B. A's points at seat
``s`` are compared with B's points at the same seat on the same wall in the baseline, so
the luck of the tiles cancels out: the difference of a wall is the mean over the four
seats of A's points minus B's, and the arena reports its mean over the walls with a 95%
interval (mean ± 1.96 sd/√n).

Everything is seeded: a wall's tiles and dealer come from a generator of its own
(``seed`` and the wall's number), and each seat decides with a generator seeded by the
wall and the seat only — never the level — so A against B with A the same level as B
plays the baseline five times over and the difference is exactly 0. The walls are
played in chunks on ``jobs`` processes and merged in wall order, so the figures are the
same for any number of jobs (the decision times apart: they are measured, with
:func:`time.perf_counter` around each ``choose``, and never steer play).

The seats are made by name from a mapping of factories (:func:`level_makers`: the
levels of :mod:`games.bots.levels`); a caller may add its own players, such as a seat
that follows the analysis's advice, as long as each factory is a module-level function
or class (the worker processes receive them pickled).

>>> result = arena("putian", "basic", "basic", walls=2, seed=1, jobs=1)
>>> result["format"], result["plays_per_wall"], result["difference"]["mean"]
('arena/1', 5, 0.0)
>>> sorted(result["levels"]["basic"])[:4]
['deal_in_rate', 'decision_ms', 'disasters', 'exhausted_share']
>>> arena("putian", "basic", "grandmaster", walls=1, seed=1, jobs=1)
Traceback (most recent call last):
...
ValueError: arena: no player named 'grandmaster' (known: ...)
"""

from __future__ import annotations

import math
import pickle
import random
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from games.bots.levels import LEVELS, Seat
from games.bots.simulation import Dealer, deal_hand, play_hand
from games.core.events import Event
from games.core.table import Action, Table
from games.records.log import HandLog, MatchLog
from games.records.match import Replayer
from games.variants.registry import variant_named

FORMAT = "arena/1"
PLAYS_PER_WALL = 5
MAX_WALLS = 1_000_000
MAX_JOBS = 64
CHUNKS_PER_JOB = 4  # smaller chunks than jobs keep every process busy to the end

Maker = Callable[[random.Random], Seat]
"""A factory of seats: given the seat's generator, a player with ``choose``."""


def level_makers() -> dict[str, Maker]:
    """The bots' levels by name, as seat factories (extend the copy to seat others)."""
    return {name: level.make for name, level in LEVELS.items()}


class Timed:
    """A seat whose decisions are timed; the time never reaches the seat's choice."""

    def __init__(self, seat: Seat) -> None:
        self.seat = seat
        self.seconds: list[float] = []

    def choose(self, table: Table, actions: Sequence[Action]) -> Action:
        start = time.perf_counter()
        action = self.seat.choose(table, actions)
        self.seconds.append(time.perf_counter() - start)
        return action


@dataclass(frozen=True)
class SeatResult:
    """One seat in one play of a wall: what it scored and how."""

    points: int
    won: bool
    self_drawn: bool
    win_points: int  # what the seat's win itself paid it (0 without a win)
    dealt_in: bool  # the seat's discard (or kong) was won on
    exhausted: bool  # the hand ended with the wall
    disasters: tuple[tuple[str, int], ...]  # label, points paid (negative)
    seconds: tuple[float, ...]  # each decision's time


@dataclass(frozen=True)
class WallResult:
    """A wall's five plays, seen from the seats compared: A at seat s in play s, and B
    at seat s in the baseline."""

    a: tuple[SeatResult, ...]
    b: tuple[SeatResult, ...]

    @property
    def difference(self) -> float:
        return sum(x.points - y.points for x, y in zip(self.a, self.b, strict=True)) / 4


@dataclass(frozen=True)
class _Chunk:
    variant: str
    makers: tuple[Maker, Maker]  # A, B
    seed: int
    first: int
    count: int


def wall_generator(seed: int, wall: int) -> random.Random:
    """The generator a wall is shuffled and dealt from (its dealer included)."""
    return random.Random(f"arena/{seed}/wall/{wall}")


def seat_generator(seed: int, wall: int, seat: int) -> random.Random:
    """The generator a seat decides with on a wall: the wall and the seat, never the level."""
    return random.Random(f"arena/{seed}/wall/{wall}/seat/{seat}")


def deal_wall(variant: str, seed: int, wall: int) -> tuple[Replayer, HandLog]:
    """Wall ``wall`` of the arena seeded ``seed``: one hand, dealt as a match's first."""
    rules_class = variant_named(variant)
    match = MatchLog(variant=variant, players=rules_class.BOT_NAMES, rules={},
                     title=f"Arena, seed {seed}, wall {wall}", played_at=None, hands=())
    replayer = Replayer(match)
    hand = deal_hand(replayer, Dealer(rules_class, wall_generator(seed, wall)), 1)
    return replayer, hand


def play_wall(variant: str, makers: tuple[Maker, Maker], seed: int, wall: int) -> WallResult:
    """The baseline and the four seatings of A on one wall."""
    replayer, hand = deal_wall(variant, seed, wall)
    maker_a, maker_b = makers
    baseline = _play(replayer, hand, [maker_b] * 4, seed, wall)
    seated = []
    for seat in range(4):
        chosen = [maker_a if s == seat else maker_b for s in range(4)]
        seated.append(_play(replayer, hand, chosen, seed, wall)[seat])
    return WallResult(tuple(seated), tuple(baseline))


def _play(replayer: Replayer, hand: HandLog, makers: Sequence[Maker], seed: int,
          wall: int) -> list[SeatResult]:
    table = replayer.begin(1, hand)
    seats = [Timed(make(seat_generator(seed, wall, s))) for s, make in enumerate(makers)]
    events = play_hand(table, seats)
    return [_seat_result(table, events, s, seats[s].seconds) for s in range(4)]


def _seat_result(table: Table, events: Sequence[Event], seat: int,
                 seconds: list[float]) -> SeatResult:
    own = [w for w in table.wins if w.seat == seat]
    return SeatResult(
        points=table.deltas[seat], won=bool(own),
        self_drawn=any(w.target is None for w in own),
        win_points=sum(w.deltas[seat] for w in own),
        dealt_in=any(w.target == seat for w in table.wins),
        exhausted=table.end_reason == "exhausted",
        disasters=_disasters(table, events, seat), seconds=tuple(seconds))


def _disasters(table: Table, events: Sequence[Event], seat: int) -> tuple[tuple[str, int], ...]:
    """The seat's payments the variant counts as disasters (``Variant.ARENA_DISASTERS``)."""
    labels = table.variant.ARENA_DISASTERS
    if not labels:
        return ()
    paid: dict[str, int] = {}
    for settled in table.payments:
        line = settled.line
        if line.payer != seat or line.payee is None:
            continue
        cause = events[settled.event] if settled.event < len(events) else None
        how = cause.how if cause is not None and cause.type == "hu" else None
        for key in (line.rule, line.cause, f"{line.cause}:{how}"):
            if key in labels:
                paid[labels[key]] = paid.get(labels[key], 0) - line.amount
                break
    return tuple(sorted(paid.items()))


def _play_chunk(chunk: _Chunk) -> list[WallResult]:
    return [play_wall(chunk.variant, chunk.makers, chunk.seed, wall)
            for wall in range(chunk.first, chunk.first + chunk.count)]


def play_walls(variant: str, makers: tuple[Maker, Maker], walls: int, seed: int,
               jobs: int) -> list[WallResult]:
    """Every wall's results, in wall order, played on ``jobs`` processes."""
    if jobs <= 1 or walls <= 1:
        return _play_chunk(_Chunk(variant, makers, seed, 0, walls))
    pieces = min(walls, jobs * CHUNKS_PER_JOB)
    bounds = [walls * i // pieces for i in range(pieces + 1)]
    chunks = [_Chunk(variant, makers, seed, bounds[i], bounds[i + 1] - bounds[i])
              for i in range(pieces)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return [wall for part in pool.map(_play_chunk, chunks) for wall in part]


def arena(variant: str, a: str, b: str, *, walls: int, seed: int, jobs: int = 2,
          makers: Mapping[str, Maker] | None = None) -> dict[str, Any]:
    """Level ``a`` against level ``b`` on ``walls`` walls: the ``arena/1`` document
    (docs/bots.md). ``makers`` resolves the names (default :func:`level_makers`)."""
    known = level_makers() if makers is None else dict(makers)
    for name in (a, b):
        if name not in known:
            raise ValueError(f"arena: no player named {name!r} (known: "
                             f"{', '.join(sorted(known))})")
    if not 1 <= walls <= MAX_WALLS:
        raise ValueError(f"arena: the number of walls must be from 1 to {MAX_WALLS}, not {walls}")
    if not 1 <= jobs <= MAX_JOBS:
        raise ValueError(f"arena: the number of jobs must be from 1 to {MAX_JOBS}, not {jobs}")
    if jobs > 1:
        _check_picklable({a: known[a], b: known[b]})
    rules_class = variant_named(variant)
    results = play_walls(variant, (known[a], known[b]), walls, seed, jobs)
    labels = sorted(set(rules_class.ARENA_DISASTERS.values()))
    levels = {a: level_stats([s for w in results for s in w.a], labels)}
    levels[b] = level_stats([s for w in results for s in w.b], labels)
    return {"format": FORMAT, "variant": variant, "bots": [a, b], "walls": walls, "seed": seed,
            "plays_per_wall": PLAYS_PER_WALL,
            "difference": interval([w.difference for w in results]), "levels": levels}


def _check_picklable(makers: Mapping[str, Maker]) -> None:
    """The worker processes receive the factories pickled: refuse one they can't get."""
    for name, make in makers.items():
        try:
            pickle.dumps(make)
        except (pickle.PicklingError, AttributeError, TypeError):
            raise ValueError(f"arena: the player {name!r} can't be sent to the worker "
                             f"processes: make its factory a module-level function or class, "
                             f"or play with one job") from None


def interval(values: Sequence[float]) -> dict[str, float]:
    """Mean, sample standard deviation and the 95% interval of the mean.

    >>> interval([1.0, 2.0, 3.0])
    {'mean': 2.0, 'low': 0.8684, 'high': 3.1316, 'sd': 1.0}
    >>> interval([4.0])
    {'mean': 4.0, 'low': 4.0, 'high': 4.0, 'sd': 0.0}
    """
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    return {"mean": round(mean, 4), "low": round(mean - half, 4), "high": round(mean + half, 4),
            "sd": round(sd, 4)}


def level_stats(seats: Sequence[SeatResult], labels: Sequence[str]) -> dict[str, Any]:
    """A level's figures over the seat-hands it played."""
    hands = len(seats)
    wins = [s for s in seats if s.won]
    disasters = {label: {"hands": 0, "points": 0} for label in labels}
    for seat in seats:
        for label, points in seat.disasters:
            disasters[label]["hands"] += 1
            disasters[label]["points"] += points
    seconds = sorted(t for s in seats for t in s.seconds)
    return {
        "hands": hands,
        "points_per_hand": _ratio(sum(s.points for s in seats), hands),
        "win_rate": _ratio(len(wins), hands),
        "deal_in_rate": _ratio(sum(s.dealt_in for s in seats), hands),
        "self_draw_share": _ratio(sum(s.self_drawn for s in wins), len(wins)),
        "points_per_win": _ratio(sum(s.win_points for s in wins), len(wins)),
        "exhausted_share": _ratio(sum(s.exhausted for s in seats), hands),
        "disasters": disasters,
        "decision_ms": {"mean": round(1000 * sum(seconds) / len(seconds), 3) if seconds else 0.0,
                        "p99": round(1000 * _quantile(seconds, 0.99), 3)},
    }


def _ratio(part: float, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def _quantile(ordered: Sequence[float], q: float) -> float:
    """The nearest-rank quantile of sorted values (0 for none)."""
    if not ordered:
        return 0.0
    return ordered[max(math.ceil(q * len(ordered)) - 1, 0)]


def describe(result: Mapping[str, Any]) -> str:
    """The arena's figures as a table to read (the JSON has them all)."""
    a, b = result["bots"]
    diff = result["difference"]
    lines = [f"arena {result['variant']}: {a} against {b}, {result['walls']} walls "
             f"(seed {result['seed']}), {result['plays_per_wall']} plays a wall",
             f"{a} − {b}, points a hand on the same wall and seat: {diff['mean']:+.2f} "
             f"(95% {diff['low']:+.2f} to {diff['high']:+.2f}; sd {diff['sd']:.2f})",
             f"{'level':<12}{'hands':>7}{'pts/hand':>10}{'win':>7}{'deal-in':>9}"
             f"{'self-draw':>11}{'pts/win':>9}{'exhausted':>11}{'ms mean':>9}{'ms p99':>9}"]
    for name in dict.fromkeys((a, b)):
        s = result["levels"][name]
        lines.append(f"{name:<12}{s['hands']:>7}{s['points_per_hand']:>10.2f}"
                     f"{s['win_rate']:>7.1%}{s['deal_in_rate']:>9.1%}{s['self_draw_share']:>11.1%}"
                     f"{s['points_per_win']:>9.2f}{s['exhausted_share']:>11.1%}"
                     f"{s['decision_ms']['mean']:>9.2f}{s['decision_ms']['p99']:>9.2f}")
        for label, seen in s["disasters"].items():
            lines.append(f"{'':<12}{label}: {seen['hands']} hands, {seen['points']} points")
    return "\n".join(lines) + "\n"
