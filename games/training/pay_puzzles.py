"""Puzzles: "how much does it pay?" — a won hand, its context, and the table's settlement.

A pay puzzle is a winning position as the table scored it (the hand with the winning
tile, the melds, the wildcard or golds, the winds, the dealer, the carried fans,
laid-out whites, the void, how it was won) and the table around it: who was robbed or
discarded, the contracts (承包, JX-9) and who gave up, who is still in (Sichuan), every
seat's flower points (算花, PT-7.4), the kongs already paid this hand (刮风下雨, SC-6.3).
The player counts what the variant's class says a player can count by hand
(``Variant.PAY_ASKS``: Jiaxing tai and fan, Sichuan fan, Putian points) and, as a bonus,
what the winner collects; the answer is the engine's ``score`` and the table's
itemised payment lines for that win.

Puzzles are made by bots playing hands to a win (:func:`games.bots.simulation.simulate`), so the
answer *is* what the table settled: :func:`win_spots` reads every win of a match with
the lines its settlement wrote, and :func:`generate` keeps the first win of the wanted
difficulty from matches seeded by the puzzle's seed (the same seed gives the same
puzzle everywhere, and the source says which match, hand and event to replay).

>>> puzzle = generate("sichuan", 1, "doc")
>>> puzzle == generate("sichuan", 1, "doc")
True
>>> answer = solve(puzzle)
>>> answer["asks"], sorted(answer["values"]) == ["fan"]
(['fan'], True)
>>> check(answer, {"fan": answer["values"]["fan"]}, None, 1).solved
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.bots.simulation import simulate
from games.core.position import FLAGS, Position
from games.core.settlement import Payment
from games.core.table import Table, Win
from games.records.log import MatchLog
from games.records.match import Replayer
from games.training.puzzles import POINTS_PER_LEVEL, PuzzleError, position_json
from games.variants.positions import read_position
from games.variants.registry import variant_named

MATCH_HANDS = 3  # hands per generated match: later hands carry fans and streaks
TRIES = 300  # matches played before the closest difficulty found is kept

# -- reading wins off a played match ----------------------------------------------------


@dataclass(frozen=True)
class WinSpot:
    """One win in a match: the hand number, the ``hu`` event (1-based), the winner, the
    puzzle (position and table) and the answer the table gave."""

    hand: int
    event: int
    seat: int
    puzzle: dict[str, Any] = field(hash=False)
    answer: dict[str, Any] = field(hash=False)


def win_spots(match: MatchLog) -> Iterator[WinSpot]:
    """Every win of a match, as the table scored and settled it (with what a 呼叫转移
    paid the winner once the discard passed, SC-H3)."""
    replayer = Replayer(match)
    for number, hand in enumerate(match.hands, start=1):
        table = replayer.begin(number, hand)
        waiting: list[WinSpot] = []  # this discard's wins: a transfer is paid after them
        for index, event in enumerate(hand.events, start=1):
            if event.type == "end":
                break
            if event.type != "hu":
                before = len(table.payments)
                table.apply(event)
                yield from _with_transfers(waiting, table.payments[before:])
                waiting = []
                continue
            before = len(table.payments)
            context = _table_context(table)
            table.apply(event)
            win = table.wins[-1]
            lines = [settled.line for settled in table.payments[before:]]
            kongs = [settled.line for settled in table.payments[:before]
                     if settled.line.cause == "kong"]
            if win.position is None:  # pragma: no cover - every win path scores a position
                continue
            puzzle = {"position": win_position_json(win.position),
                      "table": _table_json(table, win, context, kongs)}
            spot = WinSpot(number, index, win.seat, puzzle,
                           {**_answer(win, lines), "kongs_paid": len(kongs)})
            if table.ended:
                yield from _with_transfers([*waiting, spot], ())
                waiting = []
            else:
                waiting.append(spot)
        yield from waiting
        replayer.play(number, hand)


def _with_transfers(spots: list[WinSpot], paid: Sequence[Any]) -> Iterator[WinSpot]:
    """The spots with the 呼叫转移 lines (SC-H3) ``paid`` to their winners added."""
    for spot in spots:
        extra = [settled.line for settled in paid
                 if settled.line.cause == "call_transfer" and settled.line.payee == spot.seat]
        if not extra:
            yield spot
            continue
        answer = dict(spot.answer)
        lines = [*answer["lines"], *(line.to_json() for line in extra)]
        answer["lines"] = lines
        answer["rules"] = sorted({*answer["rules"], *(line.rule for line in extra)})
        answer["collects"] += sum(line.amount for line in extra)
        yield WinSpot(spot.hand, spot.event, spot.seat, spot.puzzle, answer)


@dataclass(frozen=True)
class _Before:
    """What the table says just before the win: who is still in, the flower points."""

    still_in: tuple[int, ...]
    flower_points: tuple[int, ...] | None


def _table_context(table: Table) -> _Before:
    flowers = None
    if table.variant.SHOWS_FLOWER_POINTS:
        flowers = tuple(table.flower_points(seat) for seat in range(4))
    return _Before(tuple(table.players_in()), flowers)


def win_position_json(position: Position) -> dict[str, Any]:
    """A winning position as JSON: the context :func:`games.training.puzzles.position_json` writes,
    the winning tile and every flag saying how the hand was won."""
    data = position_json(position)
    if position.win_tile is not None:
        data["win_tile"] = str(position.win_tile)
    for flag in FLAGS:
        if getattr(position, flag):
            data[flag] = True
        else:
            data.pop(flag, None)
    return data


def _table_json(table: Table, win: Win, before: _Before,
                kongs: list[Payment]) -> dict[str, Any]:
    out: dict[str, Any] = {"how": win.how or ("self_draw" if win.target is None else
                                              "discard"),
                           "discarder": win.target, "base": table.rule("base")
                           if "base" in table.variant.OPTIONS else 1}
    if table.contracts:
        out["contracts"] = [list(pair) for pair in table.contracts]
    gave_up = [s for s in range(4) if table.seats[s].gave_up]
    if gave_up:
        out["gave_up"] = gave_up
    if table.PLAY_ON:
        out["still_in"] = list(before.still_in)
    if before.flower_points is not None:  # the winner's are counted from the tiles
        out["flower_points"] = [None if seat == win.seat else points
                                for seat, points in enumerate(before.flower_points)]
    if kongs:
        out["kongs"] = [line.to_json() for line in kongs]
    return out


def _answer(win: Win, lines: list[Payment]) -> dict[str, Any]:
    assert win.position is not None
    score = win.score.to_json()
    asks = list(win.position.variant.PAY_ASKS)
    collects = sum(line.amount for line in lines if line.payee == win.seat) - sum(
        line.amount for line in lines if line.payer == win.seat)
    return {"asks": asks, "values": {name: int(score[name]) for name in asks},
            "score": score, "lines": [line.to_json() for line in lines],
            "rules": sorted({line.rule for line in lines}), "collects": collects}


# -- the answer -------------------------------------------------------------------------


def solve(puzzle: Mapping[str, Any]) -> dict[str, Any]:
    """The answer to a pay puzzle: its win played again from the source, with the score
    and the payment lines the table wrote, and what the winner collects.

    Raises :class:`PuzzleError` when the position's own ``score`` disagrees with the
    table's (the engine must never disagree with itself).
    """
    spot = replayed(puzzle)
    position = read_position(puzzle["position"])
    fresh = position.variant.score(position).to_json()
    if fresh != spot.answer["score"] or spot.puzzle["position"] != puzzle["position"]:
        raise PuzzleError("the position's score differs from what the table scored")
    return spot.answer


@dataclass(frozen=True)
class PayVerdict:
    """A counted answer: each asked field right or wrong, and the bonus (what the winner
    collects; None when not answered)."""

    right: tuple[str, ...]
    wrong: tuple[str, ...]
    bonus: bool | None
    points: int
    given: tuple[tuple[str, int | None], ...] = ()  # what was typed, field by field
    collects: int | None = None  # the typed bonus

    @property
    def solved(self) -> bool:
        return not self.wrong

    @property
    def missed(self) -> tuple[str, ...]:
        return self.wrong

    def to_json(self) -> dict[str, Any]:
        return {"right": list(self.right), "wrong": list(self.wrong), "solved": self.solved,
                "bonus": self.bonus, "points": self.points}


def check(answer: Mapping[str, Any], given: Mapping[str, Any], collects: int | None,
          difficulty: int) -> PayVerdict:
    """Mark typed numbers: solved when every asked field is right (10 × difficulty); the
    right total the winner collects adds 5 × difficulty.

    >>> answer = {"asks": ["tai", "fan"], "values": {"tai": 4, "fan": 2}, "collects": 144}
    >>> check(answer, {"tai": 4, "fan": 1}, 144, 2).to_json()
    {'right': ['tai'], 'wrong': ['fan'], 'solved': False, 'bonus': True, 'points': 10}
    """
    right = tuple(name for name in answer["asks"] if given.get(name) == answer["values"][name])
    wrong = tuple(name for name in answer["asks"] if name not in right)
    bonus = None if collects is None else collects == answer["collects"]
    points = POINTS_PER_LEVEL * difficulty if not wrong else 0
    if bonus:
        points += POINTS_PER_LEVEL // 2 * difficulty
    typed = tuple((name, given.get(name)) for name in answer["asks"])
    return PayVerdict(right, wrong, bonus, points, typed, collects)


# -- difficulty -------------------------------------------------------------------------


def weight(puzzle: Mapping[str, Any], answer: Mapping[str, Any]) -> int:
    """What there is to count: each pattern (a repeated one once per count past the
    first counts again), and each thing that moves the payments — a contract or a seat
    that gave up (JX-9), a robbed kong (JX-8), the dealer paying more or a streak
    (PT-7.1/7.2), 算花 among the losers (PT-7.4), a bomb (PT-7.3), a capped score (SC-5)."""
    patterns = answer["score"].get("patterns", [])
    count = sum(min(int(p.get("count", 1)), 2) for p in patterns)
    table = puzzle["table"]
    lines = answer["lines"]
    count += bool(table.get("contracts")) + bool(table.get("gave_up"))
    count += table.get("how") in ("robbing_kong", "rob_gold", "bomb")
    count += len({line["rule"] for line in lines}) > 1
    count += len({line["amount"] for line in lines if line["cause"] == "win"}) > 1
    count += bool(puzzle["position"].get("dealer_streak"))
    return count


def difficulty_of(puzzle: Mapping[str, Any], answer: Mapping[str, Any]) -> int:
    """1 easy, 2 medium, 3 hard, by the variant's bands of :func:`weight`
    (``Variant.PAY_DIFFICULTY``: a Putian win always counts golds, 算花 and the dealer)."""
    easy, medium = read_position(puzzle["position"]).variant.PAY_DIFFICULTY
    found = weight(puzzle, answer)
    return 1 if found <= easy else 2 if found <= medium else 3


# -- the generator ----------------------------------------------------------------------


def generate(variant_name: str, difficulty: int, seed: int | str,
             rules: Mapping[str, int | str | bool] | None = None,
             wanted: Callable[[WinSpot], bool] | None = None) -> dict[str, Any]:
    """A pay puzzle of a difficulty from bot matches seeded by ``seed`` (the same seed
    gives the same puzzle everywhere): the position, the table, the payment lines the
    table wrote and the source (``match_seed``, ``hands``, ``hand``, ``event``, and the
    table's ``rules`` when it played house rules such as Sichuan's SC-H1–H8) to replay.
    ``wanted`` keeps only some wins (a theme's, say).
    """
    variant = variant_named(variant_name)
    if difficulty not in (1, 2, 3):
        raise PuzzleError(f"difficulty must be 1, 2 or 3, not {difficulty!r}")
    checked = variant.check_rules(dict(rules or {}))
    key = f"pay/{variant.name}/{difficulty}/{seed}".encode("utf-8", "backslashreplace")
    rng = random.Random(key.decode())
    fallback: tuple[int, dict[str, Any]] | None = None
    for _ in range(TRIES):
        match_seed = rng.randrange(2**31)
        match = simulate(variant.name, MATCH_HANDS, match_seed, rules=checked)
        for spot in win_spots(match):
            if wanted is not None and not wanted(spot):
                continue
            got = difficulty_of(spot.puzzle, spot.answer)
            made = {**spot.puzzle,
                    "source": {"match_seed": match_seed, "hands": MATCH_HANDS,
                               "hand": spot.hand, "event": spot.event,
                               **({"rules": dict(checked)} if checked else {})}}
            if got == difficulty:
                return made
            if fallback is None or abs(got - difficulty) < fallback[0]:
                fallback = (abs(got - difficulty), made)
    if fallback is None:  # pragma: no cover - bots always win some hands
        raise PuzzleError(f"no {variant.name} win found for seed {seed!r}")
    return fallback[1]


def replayed(puzzle: Mapping[str, Any]) -> WinSpot:
    """The win a generated puzzle came from, played again from its source: what the
    table scores and settles there (tests compare it with the stored answer)."""
    source = puzzle["source"]
    variant = read_position(puzzle["position"]).variant
    match = simulate(variant.name, int(source["hands"]), int(source["match_seed"]),
                     rules=source.get("rules"))
    for spot in win_spots(match):
        if (spot.hand, spot.event) == (source["hand"], source["event"]):
            return spot
    raise PuzzleError(f"no win at hand {source['hand']}, event {source['event']}")
