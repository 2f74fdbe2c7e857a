"""Puzzles: "what wins here?" — a ready hand whose winning tiles the engine knows.

A puzzle is a :class:`~games.core.position.Position` one tile short of a complete
hand. :func:`solve` gives its :class:`Answer`: every tile that wins (with its
full score under the variant's rules: JX-5.3 and self-draw for Jiaxing, golds
for Putian, the void suit for Sichuan) and the *traps*, tiles that complete
the shape but don't win. :func:`check` marks a player's pick; :func:`generate`
makes positions by difficulty from a seed, so the same seed gives the same
puzzle everywhere; :func:`ready_spots` finds puzzles in real hands.

>>> answer = solve(read_position(
...     {"variant": "sichuan", "hand": "111234567m7899p", "void": "s"}))
>>> [str(w.tile) for w in answer.waits]
['6p', '9p']
>>> verdict = check(answer, parse_pick("69p"), bonus=None, difficulty=1)
>>> verdict.solved, verdict.points
(True, 10)
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.core.position import Position, PositionError
from games.core.table import Table
from games.core.tiles import TILES, Meld, NotationError, Tile, parse_tiles
from games.core.variant import Score, Variant, Waits
from games.records.log import MatchLog
from games.records.match import Replayer
from games.variants.positions import read_position
from games.variants.registry import variant_named

DIFFICULTIES = {1: "easy", 2: "medium", 3: "hard"}
POINTS_PER_LEVEL = 10  # a solved puzzle scores 10 × difficulty, the bonus 5 × difficulty


class PuzzleError(ValueError):
    """A position that can't be a puzzle, or a pick that can't be read."""


class PickError(PuzzleError):
    """A typed pick that isn't tile notation: the ``word`` and the 1-based ``position`` of
    the first character that can't be read in it."""

    def __init__(self, word: str, position: int, message: str) -> None:
        self.word, self.position = word, position
        super().__init__(message)


# -- answers ------------------------------------------------------------------


@dataclass(frozen=True)
class WinningTile:
    tile: Tile
    remaining: int
    score: Score

    def to_json(self) -> dict[str, Any]:
        return {"tile": str(self.tile), "remaining": self.remaining,
                "points": self.score.points, "score": self.score.to_json()}


@dataclass(frozen=True)
class Trap:
    """A tile that completes the shape and still doesn't win, with the rule that says so
    (``copies``: how many the game has, when the player holds them all, C-1/PT-2).

    >>> Trap(Tile.parse("5m"), "JX-5.3: needs 清一色, 混一色, 全老头 or 对对和").rule
    'JX-5.3'
    """

    tile: Tile
    reason: str
    copies: int | None = None

    @property
    def rule(self) -> str:
        """The rule id the reason starts with ("" when it names none)."""
        found = _RULE_ID.match(self.reason)
        return found.group(1) if found else ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"tile": str(self.tile), "reason": self.reason, "rule": self.rule}
        if self.copies is not None:
            out["copies"] = self.copies
        return out


_RULE_ID = re.compile(r"^((?:JX|PT|SC)-\d+(?:\.\d+)*|C-\d+):")


@dataclass(frozen=True)
class Answer:
    waits: tuple[WinningTile, ...]
    traps: tuple[Trap, ...] = ()

    @property
    def tiles(self) -> frozenset[str]:
        return frozenset(str(w.tile) for w in self.waits)

    @property
    def best(self) -> frozenset[str]:
        """The most valuable waits (several when they tie)."""
        top = max((w.score.points for w in self.waits), default=0)
        return frozenset(str(w.tile) for w in self.waits if w.score.points == top)

    def to_json(self) -> dict[str, Any]:
        return {"waits": [w.to_json() for w in self.waits],
                "best": sorted(self.best, key=_tile_order),
                "traps": [t.to_json() for t in self.traps]}


def _tile_order(text: str) -> int:
    return Tile.parse(text).kind


def solve(position: Position) -> Answer:
    """Every winning tile of a ready hand with its score, and the traps.

    Raises :class:`PuzzleError` when the hand is not one tile short or no tile wins.

    >>> answer = solve(read_position({"variant": "jiaxing", "hand": "1112345678999p",
    ...                                    "wildcards": ["5z"]}))
    >>> sorted(answer.tiles, key=_tile_order)
    ['1p', '2p', '3p', '4p', '5p', '6p', '7p', '8p', '9p', '5z']
    """
    variant: type[Variant] = position.variant
    try:
        result = variant.waits(position)
    except PositionError as error:
        raise PuzzleError(str(error)) from None
    if not isinstance(result, Waits):
        raise PuzzleError("a puzzle hand is one tile short of complete "
                          f"({variant.SHAPE_RULE}), not a hand with a tile to discard")
    # Waits never need a copy more than the game has (C-1): those are traps below.
    waits = tuple(WinningTile(w.tile, w.remaining, w.score) for w in result.waits)
    if not waits:
        raise PuzzleError("no tile wins this hand, so it can't be a puzzle")
    return Answer(waits, tuple(_traps(position, {w.tile.kind for w in waits})))


def _traps(position: Position, winning: set[int]) -> Iterator[Trap]:
    variant = position.variant
    context = variant.wait_context(position)
    hand = position.hand
    counts, wild = variant.split(context, hand)
    _, after = variant.shanten_after_each(context, counts, wild)
    held = variant.held_every_copy(context, hand)
    for tile in variant.drawable(context):
        kind = tile.kind
        if kind in winning or after[kind] != -1:
            continue
        if kind in held:  # the shape wants a copy that doesn't exist
            copies = variant.copies(context, kind)
            yield Trap(tile, f"{variant.copy_rule(context, kind)}: all {copies} copies of "
                             f"{tile} are in this hand already", copies)
            continue
        result = variant.score(context.with_hand((*hand, tile), tile))
        if not result.win:
            yield Trap(tile, result.reason or "no win")


# -- marking a pick -----------------------------------------------------------


def parse_pick(text: str) -> list[str]:
    """Tiles typed in notation, each kind once, in tile order.

    >>> parse_pick("3m 69p 6p")
    ['3m', '6p', '9p']
    >>> parse_pick("3x")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    PickError: can't read '3x': bad tile notation '3x': unexpected 'x' at position 2 (C-1)
    >>> parse_pick("3m, 6x")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    PickError: can't read '6x': bad tile notation '6x': unexpected 'x' at position 2 (C-1)
    """
    tiles: set[Tile] = set()
    for word in text.replace(",", " ").split():
        try:
            tiles.update(parse_tiles(word))
        except NotationError as error:
            raise PickError(word, error.position + 1, f"can't read {word!r}: {error}") from None
    return [str(t) for t in sorted(tiles, key=lambda t: t.kind)]


class OnePick:
    """A verdict on one picked choice (a discard, a set passed on): right when solved,
    else wrong; a verdict class gives ``picked`` and ``solved``."""

    picked: str

    @property
    def solved(self) -> bool:
        raise NotImplementedError

    @property
    def right(self) -> tuple[str, ...]:
        return (self.picked,) if self.solved else ()

    @property
    def wrong(self) -> tuple[str, ...]:
        return () if self.solved else (self.picked,)


@dataclass(frozen=True)
class Verdict:
    right: tuple[str, ...]
    missed: tuple[str, ...]
    wrong: tuple[str, ...]
    bonus: bool | None  # None: not answered
    points: int

    @property
    def solved(self) -> bool:
        return not self.missed and not self.wrong

    def to_json(self) -> dict[str, Any]:
        return {"right": list(self.right), "missed": list(self.missed),
                "wrong": list(self.wrong), "solved": self.solved, "bonus": self.bonus,
                "points": self.points}


def check(answer: Answer | dict[str, Any], picked: Iterable[str], bonus: str | None,
          difficulty: int) -> Verdict:
    """Mark a pick of winning tiles (and the bonus: the most valuable wait).

    A solved puzzle scores ``10 × difficulty``; a right bonus ``5 × difficulty`` more.

    >>> answer = {"waits": [{"tile": "6p"}, {"tile": "9p"}], "best": ["9p"]}
    >>> check(answer, ["6p", "3m"], "9p", 2).to_json()
    {'right': ['6p'], 'missed': ['9p'], 'wrong': ['3m'], 'solved': False, 'bonus': True, 'points': 10}
    """
    if isinstance(answer, Answer):
        answer = answer.to_json()
    winning = {w["tile"] for w in answer["waits"]}
    chosen = set(picked)
    verdict_bonus = None if not bonus else bonus in set(answer["best"])
    points = POINTS_PER_LEVEL * difficulty if chosen == winning else 0
    if verdict_bonus:
        points += POINTS_PER_LEVEL // 2 * difficulty
    return Verdict(tuple(sorted(chosen & winning, key=_tile_order)),
                   tuple(sorted(winning - chosen, key=_tile_order)),
                   tuple(sorted(chosen - winning, key=_tile_order)), verdict_bonus, points)


# -- difficulty ---------------------------------------------------------------


@dataclass(frozen=True)
class Features:
    waits: int
    wildcards: int
    traps: int
    values: int  # distinct values among the waits

    @property
    def difficulty(self) -> int:
        """1 easy (one or two waits, nothing hidden), 2 medium, 3 hard."""
        weight = sum(self.waits >= n for n in (3, 5, 7))
        weight += min(self.wildcards, 2) + min(self.traps, 1) + (self.values > 2)
        return 1 if weight == 0 else 2 if weight <= 2 else 3


def features(position: Position, answer: Answer) -> Features:
    """What makes a puzzle hard. Drawing a wildcard wins any ready hand whose shape is
    all that counts, so wildcard waits don't count as waits to find."""
    wild = sum(1 for t in position.hand if position.is_wild(t))
    natural = [w for w in answer.waits if not position.is_wild(w.tile)]
    return Features(len(natural), wild, len(answer.traps),
                    len({w.score.points for w in answer.waits}))


# -- the generator ------------------------------------------------------------


def generate(variant_name: str, difficulty: int, seed: int | str) -> dict[str, Any]:
    """A puzzle position (JSON) of a difficulty, the same for the same seed everywhere.

    >>> generate("sichuan", 1, "2026-11-30") == generate("sichuan", 1, "2026-11-30")
    True
    """
    variant = variant_named(variant_name)
    if difficulty not in DIFFICULTIES:
        raise PuzzleError(f"difficulty must be 1, 2 or 3, not {difficulty!r}")
    # Text seeds may hold anything a URL or a form can carry, lone surrogates included.
    key = f"{variant.name}/{difficulty}/{seed}".encode("utf-8", "backslashreplace").decode()
    rng = random.Random(key)
    ways = random.Random(f"{key}/way")  # its own stream: the hands stay what they were
    fallback: tuple[int, dict[str, Any]] | None = None
    for _ in range(2000):
        data = _candidate(variant, difficulty, rng)
        if data is None:
            continue
        data = _with_way(variant, data, ways)
        try:
            position = read_position(data)
            answer = solve(position)
        except (PuzzleError, PositionError):
            continue
        got = features(position, answer).difficulty
        if got == difficulty:
            return data
        if fallback is None or abs(got - difficulty) < fallback[0]:
            fallback = (abs(got - difficulty), data)
    if fallback is None:  # pragma: no cover - 2000 candidates always give a ready hand
        raise PuzzleError(f"no {variant.name} puzzle found for seed {seed!r}")
    return fallback[1]




def _candidate(variant: type[Variant], difficulty: int,
               rng: random.Random) -> dict[str, Any] | None:
    wild_kinds = _wildcard_kinds(variant, rng)
    natural = [k for k in _kinds_of(variant, difficulty, rng) if k not in wild_kinds]
    counts = [0] * 34
    melds: list[dict[str, Any]] = []
    groups: list[list[int]] = []
    if variant.SEVEN_PAIRS and rng.random() < 0.2:
        pairs = rng.sample(natural, 7) if len(natural) >= 7 else None
        if pairs is None:
            return None
        groups = [[k, k] for k in pairs]
    else:
        share = variant.PUZZLE_PUNGS_ONLY
        pungs_only = share > 0 and rng.random() < share
        for _ in range(variant.SETS):
            groups.append(_group(natural, rng, pungs_only))
        pair = rng.choice(natural)
        groups.append([pair, pair])
    exposed = 0
    if variant.HAS_PUNG and len(groups) == variant.SETS + 1:
        exposed = rng.choice((0, 0, 1, 2)) if difficulty < 3 else rng.choice((0, 0, 0, 1))
    for index, group in enumerate(groups):
        if index < exposed:
            melds.append(_meld_json(group))
        for kind in group:
            counts[kind] += 1
    if any(n > 4 for n in counts):
        return None
    hand = [k for index, group in enumerate(groups) if index >= exposed for k in group]
    hand.remove(rng.choice(hand))
    wild_count = _wild_count(variant, difficulty, rng)
    for _ in range(wild_count):
        hand.remove(rng.choice(hand))
        wild = rng.choice(sorted(wild_kinds))
        hand.append(wild)
    for kind in wild_kinds:
        if hand.count(kind) > variant.WILDCARD_COPIES:
            return None
    return _context(variant, rng, hand, melds, wild_kinds)


WAY_SHARE = 0.15  # how often a candidate is set in one of the variant's ways of winning


def _with_way(variant: type[Variant], data: dict[str, Any],
              rng: random.Random) -> dict[str, Any]:
    """Now and then the candidate set in one of the variant's ways of winning
    (``Variant.PUZZLE_WAYS``); unchanged when the way doesn't fit the hand. ``rng`` is
    drawn from the same number of times whatever happens, so one candidate's way never
    changes the next one's."""
    roll, pick, detail = rng.random(), rng.random(), rng.random()
    if not variant.PUZZLE_WAYS or roll >= WAY_SHARE:
        return data
    way = variant.PUZZLE_WAYS[int(pick * len(variant.PUZZLE_WAYS))]
    made = WAYS[way](variant, data, detail)
    return data if made is None else _sorted_hand(made)


def _after_kong(variant: type[Variant], data: dict[str, Any],
                detail: float) -> dict[str, Any] | None:
    """A pung (exposed, or three in hand) made a kong with its fourth copy, and the kong's
    replacement to draw: 杠上开花 (JX-7.2), 杠上花 (SC-5.16)."""
    wild = {Tile.parse(t).kind for t in data.get("wildcards", [])}
    hand = [t.kind for t in parse_tiles(data["hand"])]
    melds = list(data.get("melds", []))
    pungs = [i for i, m in enumerate(melds) if m["type"] == "peng"
             and Tile.parse(m["tile"]).kind not in wild
             and Tile.parse(m["tile"]).kind not in hand]
    if pungs:
        index = pungs[int(detail * len(pungs))]
        tile = melds[index]["tile"]
        melds[index] = {"type": "gang", "kind": "exposed" if detail < 0.5 else "added",
                        "tile": tile}
        return {**data, "melds": melds, "after_kong": True}
    held = sorted({k for k in hand if hand.count(k) == 3 and k not in wild} - {
        Tile.parse(m.get("tile") or m["tiles"][-2:]).kind for m in melds})
    if not held:
        return None
    kind = held[int(detail * len(held))]
    rest = [k for k in hand if k != kind]
    melds.append({"type": "gang", "kind": "concealed", "tile": str(TILES[kind])})
    return {**data, "hand": "".join(str(TILES[k]) for k in rest), "melds": melds,
            "after_kong": True}


def _robbing_gold(variant: type[Variant], data: dict[str, Any],
                  detail: float) -> dict[str, Any] | None:
    """Before the dealer's first discard: a ready hand may rob a turned-up gold (PT-5.5)."""
    if data.get("melds"):
        return None  # nothing is declared before the first discard
    return {**data, "robbing_gold": True}


def _bomb(variant: type[Variant], data: dict[str, Any],
          detail: float) -> dict[str, Any] | None:
    """Natural tiles swapped for golds up to four or five in hand: a bomb (PT-5.6) wins on
    any draw, and a fifth gold drawn makes the big one (PT-7.3)."""
    golds = sorted(Tile.parse(t).kind for t in data.get("wildcards", []))
    hand = [t.kind for t in parse_tiles(data["hand"])]
    wanted = 4 if detail < 0.6 else 5
    natural = sorted((k for k in hand if k not in golds), reverse=True)
    while sum(1 for k in hand if k in golds) < wanted and natural:
        room = [g for g in golds if hand.count(g) < variant.WILDCARD_COPIES]
        if not room:
            return None
        hand.remove(natural.pop(int(detail * len(natural))))
        hand.append(room[len(hand) % len(room)])
    if sum(1 for k in hand if k in golds) < wanted:
        return None
    return {**data, "hand": "".join(str(TILES[k]) for k in hand)}


Way = Callable[[type[Variant], dict[str, Any], float], "dict[str, Any] | None"]
WAYS: dict[str, Way] = {"after_kong": _after_kong, "robbing_gold": _robbing_gold,
                        "bomb": _bomb}
"""The ways of winning a generated puzzle may be set in (``Variant.PUZZLE_WAYS``): each
changes a candidate, or returns None when the hand has no room for it."""


def _wildcard_kinds(variant: type[Variant], rng: random.Random) -> list[int]:
    return variant.puzzle_wildcards(rng)


def _kinds_of(variant: type[Variant], difficulty: int, rng: random.Random) -> list[int]:
    """The kinds a hand is built from (the variant leans to what wins in it)."""
    return variant.puzzle_kinds(difficulty, rng)


def _group(kinds: Sequence[int], rng: random.Random, pungs_only: bool) -> list[int]:
    if not pungs_only and rng.random() < 0.6:
        starts = [k for k in kinds if k < 27 and k % 9 <= 6 and k + 1 in kinds and k + 2 in kinds]
        if starts:
            low = rng.choice(starts)
            return [low, low + 1, low + 2]
    kind = rng.choice(kinds)
    return [kind, kind, kind]


def _meld_json(group: Sequence[int]) -> dict[str, Any]:
    if group[0] == group[1]:
        return {"type": "peng", "tile": str(TILES[group[0]])}
    return {"type": "chi", "tiles": "".join(str(TILES[k])[0] for k in group) + str(
        TILES[group[0]])[1]}


def _wild_count(variant: type[Variant], difficulty: int, rng: random.Random) -> int:
    if not variant.WILDCARD_KINDS or difficulty == 1:
        return 0
    return rng.choice((0, 1) if difficulty == 2 else (1, 1, 2))


def _context(variant: type[Variant], rng: random.Random, hand: list[int],
             melds: list[dict[str, Any]], wild_kinds: list[int]) -> dict[str, Any]:
    data: dict[str, Any] = {
        "variant": variant.name,
        "hand": "".join(str(TILES[k]) for k in sorted(hand)),
        "melds": melds,
        "seat": rng.randrange(4),
        "dealer": rng.randrange(4),
        "self_draw": True,
    }
    if wild_kinds:
        data["wildcards"] = [str(TILES[k]) for k in wild_kinds]
    if "round_wind" in variant.HAND_FIELDS:
        data["round_wind"] = rng.choice("ESWN")
    if variant.HAS_FLOWERS and not set(variant.FLOWER_KINDS) & set(wild_kinds):
        data["flowers"] = rng.choice((0, 0, 1, 1, 2, 3))
    if variant.HAS_VOID:
        used = {k // 9 for k in hand} | {Tile.parse(m.get("tile") or m["tiles"][-2:]).kind // 9
                                           for m in melds}
        void = next(s for s in (0, 1, 2) if s not in used) if len(used) < 3 else None
        if void is None:
            return data
        data["void"] = "mps"[void]
    return _sorted_hand(data)


def _sorted_hand(data: dict[str, Any]) -> dict[str, Any]:
    tiles = parse_tiles(data["hand"])
    data["hand"] = _notation(tiles)
    return data


def _notation(tiles: Iterable[Tile]) -> str:
    """Compact notation: ``123m55z``."""
    out: list[str] = []
    suit = ""
    for tile in sorted(tiles, key=lambda t: t.kind):
        text = str(tile)
        if text[1] != suit and suit:
            out.append(suit)
        out.append(text[0])
        suit = text[1]
    if suit:
        out.append(suit)
    return "".join(out)


# -- puzzles from real hands --------------------------------------------------


@dataclass(frozen=True)
class Spot:
    """A ready hand in a real game: the hand number, the event after which it stands
    (1-based) and the seat, with the puzzle position."""

    hand: int
    event: int
    seat: int
    position: dict[str, Any] = field(hash=False)


def ready_spots(match: MatchLog, min_waits: int = 2) -> Iterator[Spot]:
    """Hands left ready by a discard, with at least ``min_waits`` winning tiles.

    The position is that seat's view: its tiles and melds, the context, and what it
    could see on the table (``seen``), so remaining counts are the player's own.
    """
    replayer = Replayer(match)
    for number, hand in enumerate(match.hands, start=1):
        table = replayer.begin(number, hand)
        found_for: set[tuple[int, str]] = set()
        for index, event in enumerate(hand.events, start=1):
            if event.type == "end":
                break
            table.apply(event)
            if event.type != "discard" or event.actor is None:
                continue
            spot = _spot(table, number, index, event.actor, min_waits)
            if spot is not None and (event.actor, spot.position["hand"]) not in found_for:
                found_for.add((event.actor, spot.position["hand"]))
                yield spot
        replayer.play(number, hand)


def _spot(table: Table, number: int, index: int, seat: int, min_waits: int) -> Spot | None:
    position = table.seat_position(seat)
    variant = position.variant
    if len(position.hand) != variant.concealed_size(position) - 1:
        return None
    if variant.shanten(position) != 0:
        return None
    data = position_json(position, seen=table.public_tiles(seat))
    try:
        answer = solve(read_position(data))
    except (PuzzleError, PositionError):
        return None
    if len(answer.waits) < min_waits:
        return None
    return Spot(number, index, seat, data)


def position_json(position: Position, seen: Sequence[Tile] = ()) -> dict[str, Any]:
    """A position as the JSON ``Position.from_json`` reads (ENGINE-CLI.md), context only
    where it differs from the defaults; ``seen`` capped so no kind exceeds its copies."""
    variant = position.variant
    data: dict[str, Any] = {"variant": variant.name, "hand": _notation(position.hand)}
    if position.melds:
        data["melds"] = [_meld_of(m) for m in position.melds]
    if position.wildcards:
        data["wildcards"] = [str(TILES[k]) for k in sorted(position.wildcards)]
    data["seat"] = position.seat
    data["dealer"] = position.dealer
    data["self_draw"] = True  # the question is always "what wins on your next draw?"
    for way in ("after_kong", "robbing_gold"):  # … or on a kong's replacement, or by 抢金
        if getattr(position, way):
            data[way] = True
    if "round_wind" in variant.HAND_FIELDS:
        data["round_wind"] = "ESWN"[position.round_wind]
        if position.bank:
            data["bank"] = list(position.bank)
    if position.flowers:
        data["flowers"] = position.flowers
    if position.void is not None:
        data["void"] = "mps"[position.void]
    if position.dealer_streak:
        data["dealer_streak"] = position.dealer_streak
    if position.rules:
        data["rules"] = dict(position.rules)
    if seen:
        held = variant.visible(position, position.hand)
        kept: list[Tile] = []
        for tile in sorted(seen, key=lambda t: t.kind):
            if held[tile.kind] < variant.seen_limit(position, tile.kind) - (
                    position.flowers if tile.kind == 31 else 0):
                held[tile.kind] += 1
                kept.append(tile)
        if kept:
            data["seen"] = _notation(kept)
    return data


def _meld_of(meld: Meld) -> dict[str, Any]:
    if meld.type == "chi":
        return {"type": "chi", "tiles": _notation(meld.tiles)}
    if meld.type == "peng":
        return {"type": "peng", "tile": str(meld.first)}
    return {"type": "gang", "kind": meld.gang_kind, "tile": str(meld.first)}


# -- the rank ladder (JX-11) --------------------------------------------------


@dataclass(frozen=True)
class Level:
    number: int
    title: str  # 级别名称
    grade: str  # 段位名称
    title_en: str
    next_at: int  # 下一级升级分: the points at which the next level starts


_LADDER_ROWS = (
    ("待业", "麻袋", "unemployed"), ("临时工", "街头一段", "temp"),
    ("合同工", "街头二段", "contract worker"), ("正式工", "街头三段", "staff"),
    ("助理主管", "街头霸王", "assistant supervisor"), ("副主管", "茶室一段", "deputy supervisor"),
    ("主管", "茶室二段", "supervisor"), ("助理经理", "茶室三段", "assistant manager"),
    ("副经理", "茶室不败", "deputy manager"), ("经理", "酒店一段", "manager"),
    ("助理总裁", "酒店二段", "assistant president"), ("副总裁", "酒店三段", "vice president"),
    ("总裁", "酒店至尊", "president"), ("董事", "县级大师", "director"),
    ("副董事长", "市级大师", "vice chair"), ("董事长", "省级大师", "chair"),
    ("赌王", "国家大师", "king of gamblers"), ("赌圣", "国际大师", "saint of gamblers"),
    ("赌神", "特级大师", "god of gamblers"), ("边锋首富", "麻将部长", "richest on the site"),
    ("中国首富", "麻将总理", "richest in China"), ("亚洲首富", "麻将总统", "richest in Asia"),
    ("世界首富", "麻将皇帝", "richest in the world"), ("财神", "麻将无敌", "god of wealth"),
)

LADDER = tuple(Level(n, title, grade, en, 100 * 2 ** (n - 1))
               for n, (title, grade, en) in enumerate(_LADDER_ROWS, start=1))


@dataclass(frozen=True)
class Standing:
    level: Level
    points: int

    @property
    def to_next(self) -> int | None:
        """Points still needed for the next level; None at the top (level 24)."""
        if self.level.number == len(LADDER):
            return None
        return self.level.next_at - self.points


def standing(points: int) -> Standing:
    """Where ``points`` stand on the JX-11 ladder: the 下一级升级分 of a level is the
    total at which the next level starts.

    >>> s = standing(0); s.level.number, s.level.title, s.level.grade, s.to_next
    (1, '待业', '麻袋', 100)
    >>> s = standing(250); s.level.number, s.level.title, s.to_next
    (3, '合同工', 150)
    >>> standing(10**12).level.title, standing(10**12).to_next
    ('财神', None)
    """
    reached = LADDER[0]
    for level in LADDER[:-1]:
        if points >= level.next_at:
            reached = LADDER[level.number]
    return Standing(reached, points)
