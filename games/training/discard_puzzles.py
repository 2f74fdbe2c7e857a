"""Puzzles: "what to discard?" (何切る) — a hand a tile too many where one discard is
clearly best by the values (docs/analysis.md).

A discard puzzle is a position with a tile to discard, and its answer every valued
choice's win chance and expected points in the solo model (``games.analysis.value``). One
discard is *clearly* best when the paired interval of its advantage over every other
valued discard excludes zero and the runner-up's loss passes the ``BIG`` threshold of
the values pass (``games.analysis.value_pass``: 0.10 win units) — :func:`clear_answer` decides.

Two sources: the values pass of real or played games (:func:`answer_from_values`, with
the annotation's alternatives naming each choice's tile; the site harvests them), and
:func:`generate`, which draws one tile onto a generated ready hand and values every
discard that leaves it ready or one tile away — exact sums, a few milliseconds a hand
(Putian hands with whites to come are sampled, as the values pass samples them).

>>> data, answer = generate("sichuan", 1, "doc")
>>> (data, answer) == generate("sichuan", 1, "doc")
True
>>> check(answer, answer["best"], 1).solved
True
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.analysis.value import Valuation, ValueInputError, solo_values
from games.analysis.value_pass import Priced, loss_interval, severity
from games.core.position import Position, PositionError
from games.core.table import Table
from games.core.tiles import Tile
from games.records.log import MatchLog
from games.records.match import Replayer
from games.training import puzzles as wins
from games.training.puzzles import POINTS_PER_LEVEL, OnePick, PuzzleError, position_json
from games.variants.positions import read_position
from games.variants.registry import variant_named

SAMPLES = 100  # shuffles where a discard is sampled (the values pass's SOLO_SAMPLES)
BUDGET = 120  # hands valued exactly before the closest difficulty found is kept …
SAMPLED_COST = 6  # … a hand whose discards had to be sampled counts as this many
EASY_SHARE = 0.5  # the runner-up loses half a win or more: easy
MEDIUM_SHARE = 0.25  # a quarter or more: medium; less (down to BIG): hard


@dataclass(frozen=True)
class DiscardVerdict(OnePick):
    """The tile picked, whether it is the best discard, and the points it scores."""

    picked: str
    best: str
    points: int
    bonus: None = None

    @property
    def solved(self) -> bool:
        return self.picked == self.best

    @property
    def missed(self) -> tuple[str, ...]:
        return () if self.solved else (self.best,)

    def to_json(self) -> dict[str, Any]:
        return {"picked": self.picked, "best": self.best, "solved": self.solved,
                "points": self.points}


def check(answer: Mapping[str, Any], tile: str, difficulty: int) -> DiscardVerdict:
    """Mark a picked discard: the best one scores 10 × difficulty.

    >>> check({"best": "5m"}, "5m", 2).points, check({"best": "5m"}, "9p", 2).solved
    (20, False)
    """
    best = str(answer["best"])
    return DiscardVerdict(tile, best, POINTS_PER_LEVEL * difficulty if tile == best else 0)


# -- the answer -----------------------------------------------------------------------


def clear_answer(rows: Sequence[Mapping[str, Any]], unit: float, **fields: Any
                 ) -> dict[str, Any] | None:
    """The answer of valued discards (best first: ``tile``, ``win_probability``,
    ``expected_points``, ``loss``, ``loss_ci95`` …), or None unless one is clearly best:
    every other's loss interval excludes zero and the runner-up's loss is ``big``.

    >>> rows = [{"tile": "5m", "loss": 0.0, "loss_ci95": [0.0, 0.0]},
    ...         {"tile": "9p", "loss": 0.5, "loss_ci95": [0.5, 0.5]}]
    >>> clear_answer(rows, 2.0)["best"], clear_answer(rows, 10.0)
    ('5m', None)
    """
    if len(rows) < 2 or unit <= 0:
        return None
    best, runner_up = rows[0], rows[1]
    if any(row["loss_ci95"][0] <= 0 for row in rows[1:]):
        return None
    if severity(float(runner_up["loss"]), unit,
                (float(runner_up["loss_ci95"][0]), float(runner_up["loss_ci95"][1]))) != "big":
        return None
    choices = [{**row, "best": index == 0} for index, row in enumerate(rows)]
    return {"best": best["tile"], "runner_up": runner_up["tile"],
            "runner_up_loss": round(float(runner_up["loss"]), 4), "unit": round(unit, 4),
            "choices": choices, **fields}


def difficulty_of(answer: Mapping[str, Any]) -> int:
    """1 easy when the runner-up loses half a win or more, 2 medium from a quarter, 3 hard
    (down to ``BIG``, a tenth of a win)."""
    share = float(answer["runner_up_loss"]) / float(answer["unit"])
    return 1 if share >= EASY_SHARE else 2 if share >= MEDIUM_SHARE else 3


def answer_from_values(decision: Mapping[str, Any], alternatives: Sequence[Mapping[str, Any]],
                       draws: int | None = None) -> dict[str, Any] | None:
    """A values-pass decision (``games.analysis.value_pass.judged``) as a puzzle answer, or None:
    only a discard among discards (the solo model) with one clearly best discard. The
    annotation's ``alternatives`` name each choice's tile."""
    if (decision.get("model") != "solo" or decision.get("kind") != "turn"
            or decision.get("best") is None):  # no winning line: nothing is best
        return None
    rows = []
    for row in decision["alternatives"]:
        action = alternatives[row["index"]]["action"]
        if action.get("type") != "discard":
            return None
        rows.append({"tile": action["tile"], **_row_fields(row),
                     "shanten": alternatives[row["index"]].get("shanten"),
                     "accepted": alternatives[row["index"]].get("accepted_count")})
    return clear_answer(rows, float(decision["unit"]), model="solo",
                        samples=decision.get("samples"), draws=draws)


def _row_fields(row: Mapping[str, Any]) -> dict[str, Any]:
    return {name: row[name] for name in ("win_probability", "expected_points", "ci95",
                                         "exact", "loss", "loss_ci95")}


def value_position(position: Position, draws: int, seed: int,
                   only: set[Tile] | None = None) -> dict[str, Any] | None:
    """Value a hand's discards in the solo model (as the values pass does: best by expected
    points, paired losses) and return the answer if one discard is clearly best."""
    return _answer(solo_values(position, draws, SAMPLES, seed, only=only), draws, seed)


def _answer(valuation: Valuation, draws: int, seed: int) -> dict[str, Any] | None:
    priced = [(str(c.discard), c.shanten, Priced.of(i, c))
              for i, c in enumerate(valuation.choices)]
    priced.sort(key=lambda p: (-round(p[2].points, 6), -round(p[2].win, 6), p[2].index))
    if len(priced) < 2:
        return None
    best = priced[0][2]
    unit = best.unit() or max((p[2].unit() for p in priced), default=0.0) or 1.0
    rows = []
    for tile, shanten, p in priced:
        loss, low, high = loss_interval(best, p)
        rows.append({"tile": tile, "win_probability": round(p.win, 4),
                     "expected_points": round(p.points, 4),
                     "ci95": {"win_probability": [round(p.win_ci[0], 4), round(p.win_ci[1], 4)],
                              "expected_points": [round(p.points_ci[0], 4),
                                                  round(p.points_ci[1], 4)]},
                     "exact": p.exact, "loss": round(loss, 4),
                     "loss_ci95": [round(low, 4), round(high, 4)], "shanten": shanten})
    return clear_answer(rows, unit, model="solo",
                        samples=valuation.samples, draws=draws, seed=seed)


# -- the generator --------------------------------------------------------------------


def generate(variant_name: str, difficulty: int, seed: int | str
             ) -> tuple[dict[str, Any], dict[str, Any]]:
    """A discard puzzle (position JSON and answer) of a difficulty, the same for the same
    seed everywhere: a generated ready hand ("what wins here?") draws one more tile, and
    the discards that leave it ready or one tile away are valued exactly."""
    variant = variant_named(variant_name)
    if difficulty not in (1, 2, 3):
        raise PuzzleError(f"difficulty must be 1, 2 or 3, not {difficulty!r}")
    key = f"discard/{variant.name}/{difficulty}/{seed}".encode("utf-8", "backslashreplace")
    rng = random.Random(key.decode())
    fallback: tuple[int, dict[str, Any], dict[str, Any]] | None = None
    spent = attempt = 0
    while spent < BUDGET:
        attempt += 1
        data, answer, sampled = _candidate(variant_name, rng, attempt)
        spent += SAMPLED_COST if sampled else 1
        if data is None or answer is None:
            continue
        got = difficulty_of(answer)
        if got == difficulty:
            return data, answer
        if fallback is None or abs(got - difficulty) < fallback[0]:
            fallback = (abs(got - difficulty), data, answer)
    if fallback is None:
        raise PuzzleError(f"no clear {variant.name} discard found for seed {seed!r}")
    return fallback[1], fallback[2]


def _candidate(variant_name: str, rng: random.Random, attempt: int
               ) -> tuple[dict[str, Any] | None, dict[str, Any] | None, bool]:
    """A generated ready hand with one tile drawn, its clear answer (or None), and
    whether valuing it needed samples."""
    ready = read_position(wins.generate(variant_name, rng.choice((1, 1, 2, 3)),
                                             f"{rng.random()}/{attempt}"))
    variant = ready.variant
    drawn = rng.choice(list(variant.drawable(ready)))
    hand = (*ready.hand, drawn)
    if sum(1 for t in hand if t == drawn) > variant.copies(ready, drawn.kind):
        return None, None, False
    data = position_json(ready.with_hand(hand, None))
    data.pop("self_draw", None)
    draws, seed = rng.randrange(6, 19), rng.randrange(2**31)
    try:
        position = read_position(data)
        after = {t: variant.shanten(position, _without(position.hand, t))
                 for t in variant.legal_discards(position)}
        # Discards that stay ready are valued exactly in every variant; one tile away is
        # exact too except where whites or golds are still to come (Putian, sampled).
        near = {t for t, n in after.items() if n <= 0}
        if len(near) < 2:
            near = {t for t, n in after.items() if n <= 1}
        valuation = solo_values(position, draws, SAMPLES, seed, only=near)
    except (PositionError, ValueInputError):
        return None, None, False
    return data, _answer(valuation, draws, seed), valuation.samples > 0


def _without(hand: Sequence[Tile], tile: Tile) -> list[Tile]:
    rest = list(hand)
    rest.remove(tile)
    return rest


def revalued(data: Mapping[str, Any], answer: Mapping[str, Any]) -> dict[str, Any] | None:
    """A generated puzzle valued again from its position, draws and seed (tests compare
    it with the stored answer)."""
    position = read_position(data)
    only = {Tile.parse(c["tile"]) for c in answer["choices"]}
    return value_position(position, int(answer["draws"]), int(answer["seed"]), only)


# -- positions from real or played games ----------------------------------------------


@dataclass(frozen=True)
class DiscardSpot:
    """A valued discard in a game with one clearly best choice: the hand number, the event
    it leads to (1-based), the seat, the position before it and the answer."""

    hand: int
    event: int
    seat: int
    position: dict[str, Any] = field(hash=False)
    answer: dict[str, Any] = field(hash=False)


Valued = Mapping[tuple[int, int, int], tuple[Mapping[str, Any], Sequence[Mapping[str, Any]]]]


def discard_spots(match: MatchLog, valued: Valued) -> Iterator[DiscardSpot]:
    """The valued decisions (keyed by hand, event and seat: the values pass's decision and
    the annotation's alternatives) whose discard is clearly best, with the seat's position
    as it stood — its tiles, melds, context and what it could see on the table."""
    if not valued:
        return
    replayer = Replayer(match)
    last_hand = max(key[0] for key in valued)
    for number, hand in enumerate(match.hands, start=1):
        if number > last_hand:
            break
        table = replayer.begin(number, hand)
        for index, event in enumerate(hand.events, start=1):
            if event.type == "end":
                break
            for seat in range(4):
                found = valued.get((number, index, seat))
                if found is not None:
                    spot = _spot(table, number, index, seat, *found)
                    if spot is not None:
                        yield spot
            table.apply(event)
        replayer.play(number, hand)


def _spot(table: Table, number: int, index: int, seat: int, decision: Mapping[str, Any],
          alternatives: Sequence[Mapping[str, Any]]) -> DiscardSpot | None:
    draws = min(table.tiles_left // max(len(table.players_in()), 1), 40)  # as price_solo
    answer = answer_from_values(decision, alternatives, draws)
    if answer is None:
        return None
    data = position_json(table.seat_position(seat), seen=table.public_tiles(seat))
    data.pop("self_draw", None)
    return DiscardSpot(number, index, seat, data, answer)
