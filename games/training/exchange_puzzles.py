"""Puzzles: "which three to pass?" (换三张, SC-H1) — a dealt hand at a table playing the
exchange, and the sets of three tiles of one suit it may pass on.

The tiles coming in are unknown when the choice is made, so the engine measures each
set as the annotation does (:mod:`games.analysis.annotation`): the shanten of the tiles
kept (the void suit, SC-2, still to be named: the best one), then how many unseen tiles
would improve them. The answer lists every set with its measure; the best sets are all
those measured first (passing any three of the suit one will void anyway often ties).
A position is a puzzle only when the best sets are of one suit and a set of another
suit is measurably worse: the question is then which suit to break, and which of its
tiles.

Positions come from bot matches at a table with the exchange (a variant's preset whose
rules turn it on): the hand each seat held when it set its three aside.

>>> data, answer = generate("sichuan", 1, "doc")
>>> (data, answer) == generate("sichuan", 1, "doc")
True
>>> solve(data["position"]) == answer
True
>>> check(answer, answer["best"][0], 1).solved
True
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.bots.simulation import simulate
from games.core.position import Position
from games.core.tiles import Tile
from games.records.log import MatchLog
from games.records.match import Replayer
from games.training.puzzles import POINTS_PER_LEVEL, OnePick, PuzzleError, position_json
from games.variants.positions import read_position
from games.variants.registry import variant_named

RULE = "SC-H1"
TRIES = 200  # bot matches played before the closest difficulty found is kept
EASY_STEPS = 2  # the best set of another suit keeps the hand this many steps further
MEDIUM_TILES = 8  # … or as near but this many improving tiles fewer: medium; else hard


def _text(tiles: Sequence[Tile]) -> str:
    return " ".join(str(t) for t in sorted(tiles, key=lambda t: t.kind))


def measure(position: Position, passed: Sequence[Tile]) -> tuple[int, int]:
    """The shanten of the tiles kept after passing ``passed`` on (the best void suit),
    and the unseen tiles that would lower it (the passed ones count as seen).

    >>> data = {"variant": "sichuan", "hand": "1239m456p789s1122s",
    ...         "rules": {"exchange_three": True}}
    >>> position = read_position(data)
    >>> measure(position, [Tile.parse(t) for t in ("1m", "2m", "3m")])
    (3, 62)
    """
    variant = position.variant
    kept = list(position.hand)
    for tile in passed:
        kept.remove(tile)
    counts, wild = variant.split(position, kept)
    now, after = variant.shanten_after_each(position, counts, wild)
    held = variant.visible(position, position.hand)
    accepted = sum(max(variant.copies(position, t.kind) - held[t.kind], 0)
                   for t in variant.drawable(position) if after[t.kind] < now)
    return now, accepted


def solve(data: Mapping[str, Any]) -> dict[str, Any]:
    """Every set the hand may pass on, best first, and the best sets (SC-H1)."""
    position = read_position(dict(data))
    choices = position.variant.sets_to_pass(position)
    if len(choices) < 2:
        raise PuzzleError(f"this position has no choice of three tiles to pass on ({RULE}: "
                          "a table playing 换三张, a hand with three tiles of a suit)")
    rows: list[dict[str, Any]] = []
    for tiles in choices:
        shanten, accepted = measure(position, tiles)
        rows.append({"tiles": _text(tiles), "suit": "mps"[tiles[0].kind // 9],
                     "shanten": shanten, "accepted": accepted})
    rows.sort(key=lambda r: (r["shanten"], -r["accepted"], r["tiles"]))
    first = (rows[0]["shanten"], rows[0]["accepted"])
    best = [r["tiles"] for r in rows if (r["shanten"], r["accepted"]) == first]
    return {"rule": RULE, "rules": sorted({RULE, "SC-2"}), "best": best, "choices": rows}


def difficulty_of(answer: Mapping[str, Any]) -> int | None:
    """1 easy when the best set of another suit keeps the hand ``EASY_STEPS`` or more
    further from ready, 2 medium when one step or ``MEDIUM_TILES`` improving tiles fewer,
    3 hard below; None when the best sets are of two suits or nothing is worse."""
    rows = answer["choices"]
    suits = {r["suit"] for r in rows if r["tiles"] in answer["best"]}
    if len(suits) != 1:
        return None
    others = [r for r in rows if r["suit"] not in suits]
    if not others:
        return None
    best, other = rows[0], others[0]
    steps = other["shanten"] - best["shanten"]
    gap = best["accepted"] - other["accepted"] if steps == 0 else 0
    if steps >= EASY_STEPS:
        return 1
    if steps == 1 or gap >= MEDIUM_TILES:
        return 2
    return 3 if gap > 0 else None


@dataclass(frozen=True)
class ExchangeVerdict(OnePick):
    """The set picked, whether it is among the best, and the points it scores."""

    picked: str
    best: tuple[str, ...]
    points: int
    bonus: None = None

    @property
    def solved(self) -> bool:
        return self.picked in self.best

    @property
    def missed(self) -> tuple[str, ...]:
        return () if self.solved else self.best[:1]


def check(answer: Mapping[str, Any], picked: str, difficulty: int) -> ExchangeVerdict:
    """Mark a picked set (tiles as text, any order): a best one scores 10 × difficulty.

    >>> check({"best": ["1m 2m 3m"]}, "3m 1m 2m", 2).points
    20
    """
    try:
        shown = _text([Tile.parse(t) for t in picked.split()])
    except ValueError:
        raise PuzzleError(f"{picked!r} is not three tiles ({RULE})") from None
    best = tuple(answer["best"])
    return ExchangeVerdict(shown, best, POINTS_PER_LEVEL * difficulty if shown in best else 0)


# -- positions from bot matches ---------------------------------------------------------


def exchange_positions(match: MatchLog) -> Iterator[tuple[int, int, int, dict[str, Any]]]:
    """(hand, event, seat, position JSON) of every set passed on in a match: the seat's
    hand just before it set its three tiles aside."""
    replayer = Replayer(match)
    for number, hand in enumerate(match.hands, start=1):
        table = replayer.begin(number, hand)
        for index, event in enumerate(hand.events, start=1):
            if event.type == "end":
                break
            if event.type == "exchange" and event.actor is not None:
                data = position_json(table.seat_position(event.actor))
                data.pop("self_draw", None)
                yield number, index, event.actor, data
            table.apply(event)
        replayer.play(number, hand)


def exchange_rules(variant_name: str) -> dict[str, int | str | bool]:
    """The first preset of the variant whose table plays the exchange (SC-H1)."""
    variant = variant_named(variant_name)
    for preset in variant.PRESETS.values():
        if preset.rules.get("exchange_three"):
            return dict(preset.rules)
    raise PuzzleError(f"{variant.name} has no table that passes three tiles on ({RULE})")


def generate(variant_name: str, difficulty: int, seed: int | str
             ) -> tuple[dict[str, Any], dict[str, Any]]:
    """A "which three to pass?" puzzle (``position`` JSON and the ``source`` match to
    replay, and the answer) of a difficulty, the same for the same seed everywhere, from
    bot matches at a table playing the exchange."""
    if difficulty not in (1, 2, 3):
        raise PuzzleError(f"difficulty must be 1, 2 or 3, not {difficulty!r}")
    rules = exchange_rules(variant_name)
    key = f"exchange/{variant_name}/{difficulty}/{seed}".encode("utf-8", "backslashreplace")
    rng = random.Random(key.decode())
    fallback: tuple[int, dict[str, Any], dict[str, Any]] | None = None
    for _ in range(TRIES):
        match_seed = rng.randrange(2**31)
        match = simulate(variant_name, 1, match_seed, rules=rules)
        for number, index, seat, data in exchange_positions(match):
            answer = solve(data)
            got = difficulty_of(answer)
            if got is None:
                continue
            made = {"position": data, "source": {"match_seed": match_seed, "hands": 1,
                                                 "hand": number, "event": index,
                                                 "seat": seat}}
            if got == difficulty:
                return made, answer
            if fallback is None or abs(got - difficulty) < fallback[0]:
                fallback = (abs(got - difficulty), made, answer)
    if fallback is None:  # pragma: no cover - bots always pass tiles on
        raise PuzzleError(f"no {variant_name} exchange puzzle found for seed {seed!r}")
    return fallback[1], fallback[2]
