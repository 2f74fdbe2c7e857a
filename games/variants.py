"""The three rule sets as classes with class-level switches (RULES.md).

Each variant answers two questions about a :class:`~games.position.Position`:
:meth:`Variant.score` (is this a win, and what is it worth?) and
:meth:`Variant.waits` (what wins here? which discard is best?).

>>> from games.position import Position
>>> p = Position.from_json({"variant": "sichuan", "hand": "111234567m78999p",
...     "win_tile": "9p", "void": "s", "seat": 1, "self_draw": True})
>>> result = p.variant.score(p)
>>> result.win, result.fan, result.points
(True, 2, 2)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

from games import settlement, tables
from games.position import Position, PositionError
from games.reading import Reading, readings, seven_pairs_reading
from games.tiles import KINDS, TILES, Meld, Tile, counts_of


@dataclass(frozen=True)
class Option:
    """A rules option of a variant (the log's ``rules`` object)."""

    name: str
    default: int | str | bool
    doc: str
    choices: tuple[str, ...] = ()
    minimum: int = 0
    maximum: int = 10**9


@dataclass(frozen=True)
class PatternDef:
    """One scoring rule: its id, Chinese and English names, unit and value."""

    id: str
    name: str
    en: str
    unit: str  # "tai", "fan" or "points"
    value: int | None  # None: depends on the hand (e.g. JX-6.4 wind pungs)
    note: str = ""
    key: str = ""  # where one rule id has several rows (PT-6's gold, whites, kongs)


class Hit(NamedTuple):
    """A pattern that applies to a win, with the value it adds."""

    pattern: PatternDef
    value: int
    times: int = 1

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.pattern.id, "name": self.pattern.name,
                               "en": self.pattern.en, self.pattern.unit: self.value}
        if self.times != 1:
            out["count"] = self.times
        return out


@dataclass
class Score:
    """The answer of ``score`` (ENGINE-CLI.md)."""

    win: bool
    points: int = 0
    patterns: list[Hit] = field(default_factory=list)
    tai: int | None = None
    fan: int | None = None
    reading: str | None = None
    reason: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    read_as: tuple[Position, Reading] | None = field(default=None, repr=False, compare=False)

    @classmethod
    def no_win(cls, reason: str) -> Score:
        return cls(False, reason=reason)

    def to_json(self) -> dict[str, Any]:
        if not self.win:
            return {"win": False, "reason": self.reason, "points": 0, "patterns": []}
        out: dict[str, Any] = {"win": True, "patterns": [h.to_json() for h in self.patterns]}
        if self.tai is not None:
            out["tai"] = self.tai
        if self.fan is not None:
            out["fan"] = self.fan
        out["points"] = self.points
        out["reading"] = self.reading
        out.update(self.extra)
        return out


@dataclass
class Wait:
    tile: Tile
    remaining: int
    score: Score

    def to_json(self) -> dict[str, Any]:
        return {"tile": str(self.tile), "remaining": self.remaining, "score": self.score.to_json()}


@dataclass
class Accepted:
    tile: Tile
    remaining: int

    def to_json(self) -> dict[str, Any]:
        return {"tile": str(self.tile), "remaining": self.remaining}


@dataclass
class Waits:
    """The answer of ``waits`` for a hand waiting for its last tile."""

    shanten: int
    waits: list[Wait]
    accepted: list[Accepted]

    def to_json(self) -> dict[str, Any]:
        return {
            "shanten": self.shanten,
            "waits": [w.to_json() for w in self.waits],
            "accepted": [a.to_json() for a in self.accepted],
            "accepted_count": sum(a.remaining for a in self.accepted),
        }


@dataclass
class Discard:
    """One discard of a hand with a tile too many, and what it leaves."""

    tile: Tile
    after: Waits

    def to_json(self) -> dict[str, Any]:
        return {"tile": str(self.tile), **self.after.to_json()}


@dataclass
class DiscardTable:
    shanten: int
    discards: list[Discard]

    def to_json(self) -> dict[str, Any]:
        return {"shanten": self.shanten, "discards": [d.to_json() for d in self.discards]}


def _patterns(*defs: PatternDef) -> dict[str, PatternDef]:
    return {d.key or d.id: d for d in defs}


class Variant:
    """What the three rule sets share; subclasses set the switches."""

    name: ClassVar[str]
    chinese: ClassVar[str]
    SETS: ClassVar[int] = 4
    WILDCARD_KINDS: ClassVar[int] = 0
    SEVEN_PAIRS: ClassVar[bool] = False
    HONOURS: ClassVar[frozenset[int]] = frozenset(range(27, 34))
    SHAPE_RULE: ClassVar[str] = "C-3"
    OPTIONS: ClassVar[dict[str, Option]] = {}
    PATTERNS: ClassVar[dict[str, PatternDef]] = {}

    # -- input checks ---------------------------------------------------------

    @classmethod
    def check_rules(cls, raw: Any) -> dict[str, int | str | bool]:
        if not isinstance(raw, dict):
            raise PositionError("rules must be an object of options")
        checked: dict[str, int | str | bool] = {}
        for name, value in raw.items():
            option = cls.OPTIONS.get(name)
            if option is None:
                known = ", ".join(cls.OPTIONS) or "none"
                raise PositionError(f"unknown {cls.name} rules option {name!r} (known: {known})")
            if option.choices:
                if value not in option.choices:
                    raise PositionError(f"rules option {name!r} must be one of "
                                        f"{', '.join(option.choices)}, not {value!r}")
            elif isinstance(option.default, bool):
                if not isinstance(value, bool):
                    raise PositionError(f"rules option {name!r} must be true or false")
            elif (not isinstance(value, int) or isinstance(value, bool)
                  or not option.minimum <= value <= option.maximum):
                raise PositionError(f"rules option {name!r} must be an integer from "
                                    f"{option.minimum} to {option.maximum}, not {value!r}")
            checked[name] = value
        return checked

    @classmethod
    def check_position(cls, position: Position) -> None:
        """Tiles the variant doesn't have, too many copies, wrong wildcards."""
        if len(position.wildcards) != cls.WILDCARD_KINDS:
            raise PositionError(
                f"{cls.name} has {cls.WILDCARD_KINDS or 'no'} wildcard "
                f"kind{'s' if cls.WILDCARD_KINDS != 1 else ''}, "
                f"but the position lists {len(position.wildcards)}"
            )
        tiles = [*position.hand, *(t for m in position.melds for t in m.tiles)]
        for tile in [*tiles, *position.seen]:
            cls.check_tile(position, tile)
        for meld in position.melds:
            cls.check_meld(position, meld)
        counts = counts_of([*tiles, *position.seen])
        counts[31] += position.flowers  # laid-out whites (PT-3.3)
        for kind, n in enumerate(counts):
            limit = cls.copies(position, kind)
            if n > limit:
                raise PositionError(f"{n} copies of {TILES[kind]}: the game has only {limit} "
                                    f"in play ({cls.copy_rule(position, kind)})")

    @classmethod
    def check_tile(cls, position: Position, tile: Tile) -> None:
        if tile.is_honour and tile.kind not in cls.HONOURS:
            raise PositionError(f"{tile} is not a {cls.name} tile ({cls.TILE_RULE})")

    TILE_RULE: ClassVar[str] = "C-1"

    @classmethod
    def check_meld(cls, position: Position, meld: Meld) -> None:
        pass

    @classmethod
    def copies(cls, position: Position, kind: int) -> int:
        """Physical copies of a kind in play."""
        return 4

    @classmethod
    def copy_rule(cls, position: Position, kind: int) -> str:
        return "C-1"

    @classmethod
    def held_every_copy(cls, position: Position, hand: Sequence[Tile]) -> frozenset[int]:
        """Kinds of which the hand and the melds hold every copy in play (C-1; a Putian
        gold kind's three, PT-2): a win on one would need a copy more than the game has.

        >>> from games.position import Position
        >>> position = Position.from_json({"variant": "putian", "hand": "1111m222p567s99s",
        ...                                "wildcards": ["2p", "7s"]})
        >>> [str(TILES[kind]) for kind in sorted(Putian.held_every_copy(position, position.hand))]
        ['1m', '2p']
        """
        own = counts_of([*hand, *(t for m in position.melds for t in m.tiles)])
        return frozenset(kind for kind, n in enumerate(own)
                         if n >= 3 and n >= cls.copies(position, kind))

    @classmethod
    def concealed_size(cls, position: Position) -> int:
        """Concealed tiles of a complete hand (C-3: kongs count as one set)."""
        return 3 * (cls.SETS - len(position.melds)) + 2

    @classmethod
    def _check_size(cls, position: Position, sizes: Sequence[int], what: str) -> int:
        size = len(position.hand)
        if size not in sizes:
            wanted = " or ".join(str(s) for s in sizes)
            raise PositionError(
                f"{what}: the hand has {size} concealed tiles, but with {len(position.melds)} "
                f"meld{'s' if len(position.melds) != 1 else ''} a {cls.name} hand needs {wanted} "
                f"({cls.SHAPE_RULE})"
            )
        return size

    # -- reading --------------------------------------------------------------

    @classmethod
    def split(cls, position: Position, hand: Iterable[Tile]) -> tuple[list[int], int]:
        """Real tile counts and the number of wildcards."""
        counts = [0] * KINDS
        wild = 0
        for tile in hand:
            if tile.kind in position.wildcards:
                wild += 1
            else:
                counts[tile.kind] += 1
        return counts, wild

    @classmethod
    def shanten(cls, position: Position, hand: Sequence[Tile] | None = None) -> int:
        """Shape shanten of the concealed tiles (−1 complete, 0 ready)."""
        counts, wild = cls.split(position, position.hand if hand is None else hand)
        return cls.shanten_of(position, counts, wild)

    @classmethod
    def shanten_of(cls, position: Position, counts: Sequence[int], wild: int) -> int:
        return tables.shanten(counts, cls.SETS - len(position.melds), wild,
                              honours=bool(cls.HONOURS))

    @classmethod
    def shanten_after_each(cls, position: Position, counts: Sequence[int],
                           wild: int) -> tuple[int, list[int]]:
        """Shanten now, and after drawing each kind (a wildcard kind adds a wildcard)."""
        now, after = tables.needed_after_each(counts, cls.SETS - len(position.melds),
                                              honours=bool(cls.HONOURS))
        limit = wild + 1  # max(n - limit, -1), without a call per kind
        grown = [n - limit if n >= limit else -1 for n in after]
        for kind in position.wildcards:
            grown[kind] = max(now - wild - 2, -1)
        return max(now - wild - 1, -1), grown

    @classmethod
    def shanten_steps(cls, position: Position, counts: Sequence[int],
                      wild: int) -> ShantenSteps:
        """Shanten now (:meth:`shanten_of`), and with one tile more (entries of
        :meth:`shanten_after_each`) or fewer of a kind, asked kind by kind."""
        return PlainShantenSteps(counts, cls.SETS - len(position.melds), bool(cls.HONOURS),
                                 wild, position.wildcards)

    @classmethod
    def readings(cls, position: Position) -> list[Reading]:
        counts, wild = cls.split(position, position.hand)
        return readings(counts, wild, cls.SETS - len(position.melds))

    # -- scoring --------------------------------------------------------------

    @classmethod
    def score(cls, position: Position) -> Score:
        """Is the hand a legal win on ``win_tile`` here, and for how much?"""
        cls._check_size(position, [cls.concealed_size(position)], "score")
        if position.win_tile is None:
            raise PositionError("score needs win_tile: the tile that completes the hand")
        if position.win_tile not in position.hand:
            raise PositionError(f"win_tile {position.win_tile} is not in the hand "
                                "(for score the hand includes the winning tile)")
        problem = cls.context_problem(position)
        if problem:
            return Score.no_win(problem)
        return cls.best_value(position, cls.readings(position))

    @classmethod
    def context_problem(cls, position: Position) -> str | None:
        return None

    @classmethod
    def best_value(cls, position: Position, found: Sequence[Reading]) -> Score:
        if not found:
            return Score.no_win(f"{cls.SHAPE_RULE}: the tiles don't form "
                                f"{cls.SETS} sets and a pair")
        best: Score | None = None
        failure: Score | None = None
        for reading in found:
            for result in cls.values(position, reading):
                if not result.win:
                    failure = failure or result
                elif best is None or cls.rank(result) > cls.rank(best):
                    best = result
        if best is not None and best.read_as is not None:
            # Formatting is slow next to scoring: only the chosen reading is shown.
            best.reading = _reading_text(*best.read_as)
        return best or failure or Score.no_win(f"{cls.SHAPE_RULE}: no legal reading")

    @classmethod
    def rank(cls, result: Score) -> tuple[int, ...]:
        return (result.points, result.fan or 0, result.tai or 0)

    @classmethod
    def values(cls, position: Position, reading: Reading) -> Iterator[Score]:
        raise NotImplementedError

    # -- waits ----------------------------------------------------------------

    @classmethod
    def drawable(cls, position: Position) -> list[Tile]:
        """Tile kinds that can arrive in this hand."""
        return [TILES[k] for k in range(KINDS) if k < 27 or k in cls.HONOURS]

    @classmethod
    def visible(cls, position: Position, hand: Sequence[Tile]) -> list[int]:
        """Copies of each kind the player can see: own tiles, melds, ``seen``."""
        return counts_of([*hand, *(t for m in position.melds for t in m.tiles), *position.seen])

    @classmethod
    def remaining(cls, position: Position, kind: int, visible: Sequence[int]) -> int:
        """Copies of a kind not visible in the position."""
        return max(cls.copies(position, kind) - visible[kind], 0)

    @classmethod
    def wait_context(cls, position: Position) -> Position:
        return position

    @classmethod
    def could_win(cls, position: Position, hand: Sequence[Tile], shanten: int) -> bool:
        """A fast, never-too-strict test before the full score."""
        return shanten == -1

    @classmethod
    def may_win(cls, position: Position, counts: Sequence[int], wild: int) -> bool:
        """Whether a complete hand of these real tiles (counts) and wildcards may win here,
        whatever its context: never too strict, False only when no reading can (lets the
        annotation skip hopeless full scores)."""
        return True

    @classmethod
    def waits(cls, position: Position) -> Waits | DiscardTable:
        """What wins here (13/16-tile hands) or every discard (a tile too many)."""
        size = cls.concealed_size(position)
        if cls._check_size(position, [size - 1, size], "waits") == size:
            return cls.discard_table(position)
        return cls.waits_of(cls.wait_context(position), position.hand)

    @classmethod
    def waits_of(cls, position: Position, hand: Sequence[Tile]) -> Waits:
        counts, wild = cls.split(position, hand)
        shanten, after = cls.shanten_after_each(position, counts, wild)
        visible = cls.visible(position, hand)
        held = cls.held_every_copy(position, hand)
        found: list[Wait] = []
        accepted: list[Accepted] = []
        for tile in cls.drawable(position):
            kind = tile.kind
            grown_shanten = after[kind]
            remaining = cls.remaining(position, kind, visible)
            if grown_shanten < shanten:
                accepted.append(Accepted(tile, remaining))
            grown = (*hand, tile)
            # C-1: a win that needs a copy more than the game has is no win.
            if kind not in held and cls.could_win(position, grown, grown_shanten):
                result = cls.score(position.with_hand(grown, tile))
                if result.win:
                    found.append(Wait(tile, remaining, result))
        return Waits(shanten, found, accepted)

    @classmethod
    def legal_discards(cls, position: Position) -> list[Tile]:
        return sorted(set(position.hand))

    @classmethod
    def discard_table(cls, position: Position) -> DiscardTable:
        context = cls.wait_context(position)
        options: list[Discard] = []
        for tile in cls.legal_discards(position):
            rest = list(position.hand)
            rest.remove(tile)
            options.append(Discard(tile, cls.waits_of(context, rest)))
        return DiscardTable(cls.shanten(position), options)


class ShantenSteps:
    """Shanten now, and with one tile more or fewer of a kind, asked kind by kind,
    computing only the kinds asked about (the annotation's counterfactuals ask about
    few): ``adding`` is entry by entry :meth:`Variant.shanten_after_each`."""

    __slots__ = ()
    now: int

    def adding(self, kind: int) -> int:
        """``shanten_after_each(...)[1][kind]``."""
        raise NotImplementedError

    def removing(self, kind: int) -> int:
        """The shanten after discarding one tile of ``kind`` (a wildcard kind: one
        wildcard); ``tables.INF`` for a kind not held."""
        raise NotImplementedError


class PlainShantenSteps(tables.OneTileOn, ShantenSteps):
    """:class:`ShantenSteps` of the plain shanten (sets and a pair, wildcards filling in)."""

    __slots__ = ("now", "_counts", "_wild", "_wildcards")

    def __init__(self, counts: Sequence[int], sets: int, honours: bool, wild: int,
                 wildcards: frozenset[int]) -> None:
        super().__init__(counts, sets, honours=honours)
        self.now = max(self.needed - wild - 1, -1)
        self._counts, self._wild, self._wildcards = tuple(counts), wild, wildcards

    def adding(self, kind: int) -> int:
        if kind in self._wildcards:
            return max(self.needed - self._wild - 2, -1)
        return max(self.after(kind, 1) - self._wild - 1, -1)

    def removing(self, kind: int) -> int:
        if self._wild and kind in self._wildcards:
            return max(self.needed - (self._wild - 1) - 1, -1)
        if not self._counts[kind]:
            return tables.INF
        return max(self.after(kind, -1) - self._wild - 1, -1)


class SichuanShantenSteps(ShantenSteps):
    """:class:`ShantenSteps` for Sichuan's shanten: the best over the possible void
    suits, seven pairs too without melds (as :meth:`Sichuan.shanten_after_each`; no
    wildcards)."""

    __slots__ = ("now", "_counts", "_voids", "_seven")

    def __init__(self, variant: type[Sichuan], position: Position,
                 counts: Sequence[int]) -> None:
        sets = variant.SETS - len(position.melds)
        self._counts = tuple(counts)
        self._seven = not position.melds
        self._voids: list[tuple[int, tables.OneTileOn, int, int]] = []
        best = tables.INF
        for void in variant._voids(position):
            assert void is not None
            needs = tables.OneTileOn(counts, sets, void=void, honours=False)
            pairs = singles = 0
            if self._seven:
                for kind in range(27):
                    if counts[kind] and kind // 9 != void:
                        pairs += counts[kind] >> 1
                        singles += counts[kind] & 1
                best = min(best, tables.seven_pairs_from(pairs, singles))
            best = min(best, needs.needed - 1)
            self._voids.append((void, needs, pairs, singles))
        self.now = max(best, -1)

    def adding(self, kind: int) -> int:
        best = tables.INF
        for void, needs, pairs, singles in self._voids:
            value = needs.after(kind, 1) - 1
            if self._seven and kind < 27 and kind // 9 != void:
                odd = self._counts[kind] & 1  # the tile pairs a single, or starts one
                value = min(value, max(tables.seven_pairs_from(pairs + odd,
                                                               singles - odd + (1 - odd)), -1))
            best = min(best, value)
        return max(best, -1)

    def removing(self, kind: int) -> int:
        if kind >= 27 or not self._counts[kind]:
            return tables.INF
        best = tables.INF
        for void, needs, pairs, singles in self._voids:
            in_void = kind // 9 == void
            value = (needs.needed if in_void else needs.after(kind, -1)) - 1
            if self._seven:
                if in_void:
                    seven = tables.seven_pairs_from(pairs, singles)
                else:
                    odd = self._counts[kind] & 1
                    seven = tables.seven_pairs_from(pairs - (1 - odd), singles - odd + (1 - odd))
                value = min(value, seven)
            best = min(best, max(value, -1))
        return best


# -- Jiaxing ------------------------------------------------------------------

_TaiFeatures = tuple[int, bool, tuple[int, ...]]
"""What a Jiaxing reading's tai depend on: suit bits, all pungs, honour pungs (one per pung)."""

JX_BANK = {
    "huangfan": PatternDef("JX-7.4", "黄番", "carried from an exhausted hand", "fan", 1),
    "laotouhuang": PatternDef("JX-7.5", "老头黄", "carried: an honour wildcard", "fan", 1),
    "baozi": PatternDef("JX-7.9", "包子", "carried: doubles on the dice", "fan", 1),
    "baida_lianzhuang": PatternDef("JX-7.10", "百搭连庄", "carried: the same wildcard again",
                                   "fan", 1),
}


class Jiaxing(Variant):
    """嘉兴麻将: one wildcard kind, self-draw only, base × tai × 2^fan (JX)."""

    name = "jiaxing"
    chinese = "嘉兴麻将"
    WILDCARD_KINDS = 1
    SHAPE_RULE = "JX-5.2"
    OPTIONS = {
        "base": Option("base", 1, "底分: the base of every score (JX-10)", minimum=1),
        "fee": Option("fee", 0, "service fee F every player pays after a hand (JX-10.6)"),
        "escape_penalty": Option("escape_penalty", 0, "paid by a player who leaves (JX-10.6)"),
        "start_balance": Option("start_balance", 0,
                                "each player's silver at the start, when balances are kept "
                                "(JX-10.6)"),
        "wildcard_method": Option("wildcard_method", "indicator_next",
                                  "how a new hand's wildcard is chosen (JX-4)",
                                  choices=("indicator_next", "indicator")),
    }
    PATTERNS = _patterns(
        PatternDef("JX-6.1", "红中刻", "pung of Red", "tai", 1),
        PatternDef("JX-6.2", "发财刻", "pung of Green", "tai", 1),
        PatternDef("JX-6.3", "白板刻", "pung of White", "tai", 1),
        PatternDef("JX-6.4", "风刻", "pung of the round or seat wind", "tai", None,
                   "1 for the round wind, 1 for the seat wind"),
        PatternDef("JX-6.5", "无百搭", "no wildcard", "tai", 1),
        PatternDef("JX-6.6", "对对和", "all pungs", "tai", 2),
        PatternDef("JX-6.7", "混一色", "half flush", "tai", 2),
        PatternDef("JX-6.8", "清一色", "pure one suit", "tai", 4),
        PatternDef("JX-6.9", "全老头", "all honours", "tai", 10),
        PatternDef("JX-7.1", "三百搭", "three wildcards", "fan", 1),
        PatternDef("JX-7.2", "杠上开花", "win on a kong replacement", "fan", 1),
        PatternDef("JX-7.3", "单吊", "four melds, won on the pair", "fan", 1),
        *JX_BANK.values(),
        PatternDef("JX-7.6", "海底捞月", "win on the last tile", "fan", 1),
        PatternDef("JX-7.7", "天和", "heavenly hand", "fan", 2),
        PatternDef("JX-7.8", "地和", "earthly hand", "fan", 2),
    )
    # One suited kind per suit and every honour: enough to score any
    # wildcard-only group, since suited tiles of one suit score alike here.
    FREE_KINDS = (TILES[0], TILES[9], TILES[18], *TILES[27:34])

    @classmethod
    def check_meld(cls, position: Position, meld: Meld) -> None:
        if any(position.is_wild(t) for t in meld.tiles):
            raise PositionError(f"meld {meld} holds the wildcard {meld.first}: a wildcard never "
                                "takes part in a chow, pung or kong (JX-2.9)")

    @classmethod
    def context_problem(cls, position: Position) -> str | None:
        assert position.win_tile is not None
        if position.self_draw and position.robbing_kong:
            raise PositionError("self_draw and robbing_kong can't both be true")
        if not position.own_draw and not position.robbing_kong:
            return "JX-5.1: Jiaxing wins only by self-draw or by robbing a kong, never on a discard"
        if position.robbing_kong:
            if position.is_wild(position.win_tile):
                return "JX-2.9: a wildcard is never part of a kong, so it can't be robbed"
            if cls._wins_on_everything(position):
                return ("JX-8: a hand that would win on every tile kind may not rob a kong")
        return None

    @classmethod
    def may_win(cls, position: Position, counts: Sequence[int], wild: int) -> bool:
        # JX-5.3 needs a flush, all honours or all pungs. With real tiles (or melds) of two
        # suits only all pungs is left: no chow meld, and every real kind in pungs and at
        # most one pair, wildcards filling them (n copies: ceil(n / 3) pungs, one fewer
        # tile when a kind of 1, 2 or 4 copies takes the pair). Wildcards left over make
        # sets and the pair alone.
        suits = 0
        for meld in position.melds:
            suits |= 1 << min(meld.first.kind // 9, 3)
        for suit in range(3):
            if any(counts[suit * 9 : suit * 9 + 9]):
                suits |= 1 << suit
        if suits & 7 in (0, 1, 2, 4):
            return True  # a flush or all honours may be read
        if any(meld.type == "chi" for meld in position.melds):
            return False
        slots, paired = 0, False
        for n in counts:
            if n:
                slots += 3 * ((n + 2) // 3)
                paired = paired or n % 3 != 0
        return slots - paired <= sum(counts) + wild

    @classmethod
    def _wins_on_everything(cls, position: Position) -> bool:
        assert position.win_tile is not None
        rest = list(position.hand)
        rest.remove(position.win_tile)
        drawn = position.with_hand((), None)
        for tile in cls.drawable(position):
            grown = (*rest, tile)
            trial = drawn.with_hand(grown, tile)
            if not cls.could_win(trial, grown, cls.shanten(trial, grown)) or not cls.best_value(
                    trial, cls.readings(trial)).win:
                return False
        return True

    @classmethod
    def wait_context(cls, position: Position) -> Position:
        if position.own_draw or position.robbing_kong:
            return position
        from dataclasses import replace
        return replace(position, self_draw=True)

    @classmethod
    def best_value(cls, position: Position, found: Sequence[Reading]) -> Score:
        # Fans depend on the context only, so the best reading is the one with most tai;
        # readings are compared by the few features tai depends on.
        if not found:
            return super().best_value(position, found)
        wild = sum(1 for t in position.hand if t.kind in position.wildcards)
        melds = cls._meld_features(position)
        tai_of: dict[_TaiFeatures, int] = {}
        best: tuple[int, _TaiFeatures, Reading] | None = None
        for reading in found:
            free = reading.free_sets + int(reading.free_pair)
            for kinds in itertools.product(cls.FREE_KINDS, repeat=free):
                features = cls._features(reading, kinds, melds)
                tai = tai_of.get(features)
                if tai is None:
                    tai = tai_of[features] = sum(h.value for h in cls._tai(position, features, wild))
                if tai and (best is None or tai > best[0]):
                    best = (tai, features, reading.with_free_kinds(kinds) if kinds else reading)
        if best is None:
            return Score.no_win("JX-5.3: needs 清一色, 混一色, 全老头 or 对对和")
        tai, features, reading = best
        if reading.free_kinds:
            reading = reading.with_free_kinds([_shown_kind(position, k) for k in reading.free_kinds])
        fans = cls._fans(position, wild)
        fan = sum(h.value for h in fans)
        points = settlement.jiaxing_score(int(position.rule("base")), tai, fan)
        return Score(True, points, cls._tai(position, features, wild) + fans, tai=tai, fan=fan,
                     reading=_reading_text(position, reading))

    @staticmethod
    def _meld_features(position: Position) -> _TaiFeatures:
        suits, all_pungs, honour_pungs = 0, True, []
        for meld in position.melds:
            suits |= 1 << min(meld.first.kind // 9, 3)
            if meld.type == "chi":
                all_pungs = False
            elif meld.first.kind >= 27:
                honour_pungs.append(meld.first.kind)
        return suits, all_pungs, tuple(sorted(honour_pungs))

    @staticmethod
    def _features(reading: Reading, free_kinds: Sequence[Tile],
                  melds: _TaiFeatures) -> _TaiFeatures:
        """What tai depends on: suits present (bits m, p, s, honours), all pungs, honour pungs.

        Honour pungs are a sorted tuple with one entry per pung, so that two pungs
        of one kind (wildcards standing for a kind whose copies are in use, C-4)
        each earn their row (JX-6 Reading).
        """
        parts = reading.parts
        suits, all_pungs, melded = melds
        honour_pungs = list(melded)
        for index in range(4):
            if parts[index].sets or parts[index].pairs:
                suits |= 1 << index
        all_pungs = all_pungs and parts[0].all_pungs and parts[1].all_pungs and parts[2].all_pungs
        honour_pungs.extend(27 + i for i in parts[3].pung_kinds)
        for index, kind in enumerate(free_kinds):
            suits |= 1 << min(kind.kind // 9, 3)
            if index < reading.free_sets and kind.kind >= 27:
                honour_pungs.append(kind.kind)
        return suits, all_pungs, tuple(sorted(honour_pungs))

    @classmethod
    def _tai(cls, position: Position, features: _TaiFeatures, wild: int) -> list[Hit]:
        """The tai of a reading's features (JX-6); nothing when JX-5.3 isn't met.

        Every honour pung earns its own row, two pungs of one kind included:

        >>> from games.position import Position
        >>> from games.tiles import parse_tiles
        >>> position = Position(variant=Jiaxing, hand=tuple(parse_tiles("11z")),
        ...                     wildcards=frozenset({0}), seat=0, dealer=0)
        >>> [(h.pattern.id, h.value) for h in Jiaxing._tai(position, (8, True, (27, 27)), 3)]
        [('JX-6.4', 2), ('JX-6.4', 2), ('JX-6.9', 10), ('JX-6.6', 2)]
        """
        p = cls.PATTERNS
        suits, all_pungs, honour_pungs = features
        requirement: list[Hit] = []
        if suits == 8:
            requirement.append(Hit(p["JX-6.9"], 10))
        elif suits & 7 in (1, 2, 4):
            requirement.append(Hit(p["JX-6.7"], 2) if suits & 8 else Hit(p["JX-6.8"], 4))
        if all_pungs:
            requirement.append(Hit(p["JX-6.6"], 2))
        if not requirement:
            return []
        hits: list[Hit] = []
        for kind, rule in ((33, "JX-6.1"), (32, "JX-6.2"), (31, "JX-6.3")):
            hits.extend(Hit(p[rule], 1) for _ in range(honour_pungs.count(kind)))
        for wind in range(4):
            tai = (wind == position.round_wind) + (wind == position.seat_wind)
            if tai:
                hits.extend(Hit(p["JX-6.4"], tai) for _ in range(honour_pungs.count(27 + wind)))
        if not wild:
            hits.append(Hit(p["JX-6.5"], 1))
        return hits + requirement

    @classmethod
    def _fans(cls, position: Position, wild: int) -> list[Hit]:
        p = cls.PATTERNS
        hits: list[Hit] = []
        if wild >= 3:
            hits.append(Hit(p["JX-7.1"], 1))
        if position.after_kong and position.own_draw:
            hits.append(Hit(p["JX-7.2"], 1))
        if len(position.melds) == 4 and len(position.hand) == 2:
            hits.append(Hit(p["JX-7.3"], 1))
        if position.bank:
            hits.append(Hit(JX_BANK[position.bank[0]], 1))
        if position.last_tile and position.own_draw:
            hits.append(Hit(p["JX-7.6"], 1))
        if position.first_turn and position.own_draw and not any(
                m.type != "gang" or m.gang_kind != "concealed" for m in position.melds):
            # JX-7.7/7.8: before the first discard, no claim made yet.
            hits.append(Hit(p["JX-7.7" if position.is_dealer else "JX-7.8"], 2))
        return hits


# -- Putian -------------------------------------------------------------------


class Putian(Variant):
    """莆田麻将: 17-tile hands, two gold kinds, whites as flowers (PT)."""

    name = "putian"
    chinese = "莆田麻将"
    SETS = 5
    WILDCARD_KINDS = 2
    HONOURS = frozenset({31})
    SHAPE_RULE = "PT-5.1"
    TILE_RULE = "PT-1: Putian plays the suited tiles and the four whites"
    OPTIONS = {
        "fee": Option("fee", 0, "house fee every player pays after a hand (C-6)"),
    }
    PATTERNS = _patterns(
        PatternDef("PT-5.4", "天胡", "heavenly hand", "points", 0, "paid as PT-7.2"),
        PatternDef("PT-5.5", "抢金", "robbing the gold", "points", 0, "paid as PT-7.2"),
        PatternDef("PT-5.6", "小炸弹", "small bomb: 3 golds of a kind or 4 golds", "points", 0,
                   "paid as PT-7.2"),
        PatternDef("PT-7.3", "大炸弹", "big bomb: 5 golds", "points", 50, "each loser pays 50",
                   key="big"),
        PatternDef("PT-7.3", "超级大炸弹", "super bomb: 6 golds", "points", 100,
                   "each loser pays 100", key="super"),
        PatternDef("PT-6", "金", "gold in hand", "points", 1, "a white that is gold: 2",
                   key="gold"),
        PatternDef("PT-6", "白板", "laid-out whites", "points", 1, "all four: 5", key="whites"),
        PatternDef("PT-6", "暗杠", "concealed kong", "points", 2, key="kong"),
        PatternDef("PT-7.1", "连庄", "dealer streak base", "points", None,
                   "base 1; the dealer's n-th hand in a row: n + 1"),
    )

    @classmethod
    def check_tile(cls, position: Position, tile: Tile) -> None:
        if tile.is_honour and tile.kind != 31:
            raise PositionError(f"{tile} is not a Putian tile (PT-1: the suited tiles and the "
                                "four whites)")

    @classmethod
    def check_position(cls, position: Position) -> None:
        super().check_position(position)
        white_gold = 31 in position.wildcards
        if not white_gold and any(t.kind == 31 for t in position.hand):
            raise PositionError("a white (5z) in the hand: whites are flowers, laid out and "
                                "replaced at once unless white is gold (PT-3)")
        if position.flowers > (0 if white_gold else 4):
            raise PositionError(f"{position.flowers} laid-out whites: there are "
                                f"{0 if white_gold else 4} to lay out (PT-3.4)")

    @classmethod
    def check_meld(cls, position: Position, meld: Meld) -> None:
        if not meld.is_concealed:
            raise PositionError(f"meld {meld}: Putian has no chow or pung, only concealed "
                                "kongs (PT-4)")
        if position.is_wild(meld.first):
            raise PositionError(f"meld {meld}: golds can't form a kong (PT-2)")

    @classmethod
    def copies(cls, position: Position, kind: int) -> int:
        # PT-2: one tile of each gold kind is turned up and out of play, unless it was
        # just robbed (PT-5.5).
        return 3 if kind in position.wildcards and not position.robbing_gold else 4

    @classmethod
    def copy_rule(cls, position: Position, kind: int) -> str:
        return "PT-2" if kind in position.wildcards else "PT-1"

    @classmethod
    def readings(cls, position: Position) -> list[Reading]:
        # PT-7: the value never depends on the reading, so one (to show) is enough.
        counts, wild = cls.split(position, position.hand)
        return readings(counts, wild, cls.SETS - len(position.melds), limit=1)

    @classmethod
    def drawable(cls, position: Position) -> list[Tile]:
        extra = [TILES[31]] if 31 in position.wildcards else []
        return [*TILES[:27], *extra]

    @classmethod
    def legal_discards(cls, position: Position) -> list[Tile]:
        return sorted({t for t in position.hand if not position.is_wild(t)})  # PT-2

    @classmethod
    def golds(cls, position: Position, hand: Iterable[Tile]) -> list[Tile]:
        return [t for t in hand if position.is_wild(t)]

    @classmethod
    def flower_points(cls, position: Position) -> tuple[int, list[Hit]]:
        p = cls.PATTERNS
        golds = cls.golds(position, position.hand)
        white_golds = sum(1 for t in golds if t.kind == 31)
        kongs = sum(1 for m in position.melds if m.is_concealed)
        hits: list[Hit] = []
        if golds:
            hits.append(Hit(p["gold"], len(golds) + white_golds, len(golds)))
        if position.flowers:
            hits.append(Hit(p["whites"], 5 if position.flowers == 4 else position.flowers,
                            position.flowers))
        if kongs:
            hits.append(Hit(p["kong"], 2 * kongs, kongs))
        total = settlement.putian_flower_points(len(golds) - white_golds, white_golds,
                                                position.flowers, kongs)
        return total, hits

    @classmethod
    def bomb(cls, position: Position) -> str | None:
        golds = cls.golds(position, position.hand)
        if len(golds) >= 6:
            return "super"
        if len(golds) == 5:
            return "big"
        if len(golds) == 4 or any(golds.count(t) >= 3 for t in set(golds)):
            return "small"
        return None

    @classmethod
    def context_problem(cls, position: Position) -> str | None:
        assert position.win_tile is not None
        if position.robbing_gold and not position.is_wild(position.win_tile):
            return "PT-5.5: robbing the gold takes one of the turned-up golds"
        own = position.own_draw or position.robbing_gold
        if not own and position.is_wild(position.win_tile):
            return "PT-2: golds are never discarded, so no one wins on a discarded gold"
        if position.bomb and not (position.own_draw and cls.bomb(position)):
            return ("PT-5.6: a bomb needs 3 golds of one kind or 4 or more golds, on one's "
                    "own turn")
        return None

    @classmethod
    def could_win(cls, position: Position, hand: Sequence[Tile], shanten: int) -> bool:
        if position.own_draw and len(cls.golds(position, hand)) >= 3:
            return True  # maybe a bomb (PT-5.6), whatever the shape
        return shanten == -1

    @classmethod
    def best_value(cls, position: Position, found: Sequence[Reading]) -> Score:
        normal = None if position.bomb else super().best_value(position, found)
        if position.own_draw and cls.bomb(position):
            bomb = cls._bomb_value(position)
            if normal is None or not normal.win or bomb.points > normal.points:
                return bomb
        assert normal is not None
        return normal

    @classmethod
    def _bomb_value(cls, position: Position) -> Score:
        p = cls.PATTERNS
        kind = cls.bomb(position)
        assert kind is not None
        rule = {"small": "PT-5.6", "big": "big", "super": "super"}[kind]
        flowers, hits = cls.flower_points(position)
        points = settlement.putian_points(position.dealer_streak, flowers,
                                          None if kind == "small" else kind)
        hits = [Hit(p[rule], p[rule].value or 0), *hits, *cls._streak(position)]
        return Score(True, points, hits, reading=" ".join(str(t) for t in sorted(position.hand)),
                     extra={"flower_points": flowers, "bomb": kind})

    @classmethod
    def _streak(cls, position: Position) -> list[Hit]:
        if not position.dealer_streak:
            return []
        return [Hit(cls.PATTERNS["PT-7.1"], settlement.putian_base(position.dealer_streak))]

    @classmethod
    def values(cls, position: Position, reading: Reading) -> Iterator[Score]:
        p = cls.PATTERNS
        flowers, hits = cls.flower_points(position)
        special: list[Hit] = []
        if position.first_turn and position.is_dealer and position.own_draw:
            special.append(Hit(p["PT-5.4"], 0))
        if position.robbing_gold:
            special.append(Hit(p["PT-5.5"], 0))
        points = settlement.putian_points(position.dealer_streak, flowers)
        face = min(position.wildcards)
        kinds = [TILES[face]] * (reading.free_sets + int(reading.free_pair))
        yield Score(True, points, [*special, *hits, *cls._streak(position)],
                    extra={"flower_points": flowers},
                    read_as=(position, reading.with_free_kinds(kinds)))


# -- Sichuan ------------------------------------------------------------------


class Sichuan(Variant):
    """血战到底: void suit, seven pairs, fan with a cap (SC)."""

    name = "sichuan"
    chinese = "血战到底"
    SEVEN_PAIRS = True
    HONOURS = frozenset()
    SHAPE_RULE = "SC-4.1"
    TILE_RULE = "SC-1: Sichuan plays the 108 suited tiles, no honours"
    OPTIONS = {
        "base": Option("base", 1, "the room's base unit (SC-6)", minimum=1),
        "cap_fan": Option("cap_fan", 4, "封顶: the most fan a win counts (SC-5)", minimum=1,
                          maximum=20),
        "room_coefficient": Option("room_coefficient", 1, "N: beans per point (SC-6.5)",
                                   minimum=1),
        "fee": Option("fee", 0, "A: beans every player pays each hand (SC-6.5)"),
        "min_balance": Option("min_balance", 0, "the least balance to start a hand (SC-6.5)"),
        "start_balance": Option("start_balance", 0,
                                "each player's beans at the start, when balances are kept "
                                "(SC-6.5)"),
        "escape_factor": Option("escape_factor", 1, "X: the correction factor of SC-6.6"),
        "escape_minimum": Option("escape_minimum", 0, "the least a leaver pays (SC-6.6)"),
    }
    PATTERNS = _patterns(
        PatternDef("SC-5.1", "平胡", "plain win", "fan", 1),
        PatternDef("SC-5.2", "对对胡", "all pungs", "fan", 2),
        PatternDef("SC-5.3", "清一色", "pure one suit", "fan", 3),
        PatternDef("SC-5.4", "带幺九", "terminals in every set", "fan", 3),
        PatternDef("SC-5.5", "七对", "seven pairs", "fan", 3),
        PatternDef("SC-5.6", "清对", "pure all pungs", "fan", 4),
        PatternDef("SC-5.7", "将对", "all pungs of 2, 5, 8", "fan", 4),
        PatternDef("SC-5.8", "龙七对", "seven pairs with four of a kind", "fan", 5,
                   "its four is not also a 根"),
        PatternDef("SC-5.9", "清七对", "pure seven pairs", "fan", 5),
        PatternDef("SC-5.10", "清幺九", "pure terminals in every set", "fan", 5),
        PatternDef("SC-5.11", "天胡", "heavenly hand", "fan", 6),
        PatternDef("SC-5.12", "地胡", "earthly hand", "fan", 6),
        PatternDef("SC-5.13", "清龙七对", "pure seven pairs with four of a kind", "fan", 6,
                   "its four is not also a 根"),
        PatternDef("SC-5.14", "根", "four of a kind held", "fan", 1),
        PatternDef("SC-5.15", "自摸加番", "self-draw", "fan", 1),
        PatternDef("SC-5.16", "杠上花", "win on a kong replacement", "fan", 1),
        PatternDef("SC-5.17", "杠上炮", "win on the discard after a kong", "fan", 1),
        PatternDef("SC-5.18", "抢杠胡", "robbing a kong", "fan", 1),
    )

    @classmethod
    def rank(cls, result: Score) -> tuple[int, ...]:
        # Past the cap many readings pay alike; show the one worth most before it.
        return (result.points, sum(h.value for h in result.patterns))

    @classmethod
    def check_meld(cls, position: Position, meld: Meld) -> None:
        if meld.type == "chi":
            raise PositionError(f"meld {meld}: Sichuan has no chow (SC-3)")

    @classmethod
    def check_position(cls, position: Position) -> None:
        super().check_position(position)
        if position.void is not None and any(
                m.first.kind // 9 == position.void for m in position.melds):
            raise PositionError(f"a meld of the void suit {'mps'[position.void]}: a player may "
                                "not pung or kong their void suit (SC-2)")

    @classmethod
    def _voids(cls, position: Position) -> list[int | None]:
        return [position.void] if position.void is not None else [0, 1, 2]

    @classmethod
    def shanten_of(cls, position: Position, counts: Sequence[int], wild: int) -> int:
        by_void = tables.needed_two_suits(counts, cls.SETS - len(position.melds))
        pairs = [0, 0, 0]
        singles = [0, 0, 0]
        if not position.melds:
            for kind in range(27):
                n = counts[kind]
                if n:
                    pairs[kind // 9] += n >> 1
                    singles[kind // 9] += n & 1
        best = tables.INF
        for void in cls._voids(position):
            assert void is not None
            best = min(best, by_void[void] - 1)
            if not position.melds:  # seven pairs (SC-4.1), void suit excluded
                best = min(best, tables.seven_pairs_from(sum(pairs) - pairs[void],
                                                         sum(singles) - singles[void]))
        return max(best, -1)

    @classmethod
    def shanten_after_each(cls, position: Position, counts: Sequence[int],
                           wild: int) -> tuple[int, list[int]]:
        """Shanten now and after each draw, the best over the suits that may be void;
        the seven-pairs shanten after a draw is taken once for kinds held an odd, once
        for kinds held an even number of times."""
        sets = cls.SETS - len(position.melds)
        seven = not position.melds
        best_now, best_after = tables.INF, [tables.INF] * KINDS
        for void in cls._voids(position):
            now, after = tables.needed_after_each(counts, sets, void=void, honours=False)
            best_now = min(best_now, now - 1)
            best_after = [b if b < n - 1 else n - 1 for b, n in zip(best_after, after, strict=True)]
            if seven:
                pairs = singles = 0
                for kind, n in enumerate(counts):
                    if n and kind // 9 != void:
                        pairs += n // 2
                        singles += n % 2
                best_now = min(best_now, tables.seven_pairs_from(pairs, singles))
                # The tile pairs a single (odd), or starts one (even).
                on_odd = max(tables.seven_pairs_from(pairs + 1, singles - 1), -1)
                on_even = max(tables.seven_pairs_from(pairs, singles + 1), -1)
                for kind in range(27):
                    if kind // 9 != void:
                        value = on_odd if counts[kind] % 2 else on_even
                        if value < best_after[kind]:
                            best_after[kind] = value
        return max(best_now, -1), [b if b > -1 else -1 for b in best_after]

    @classmethod
    def shanten_steps(cls, position: Position, counts: Sequence[int],
                      wild: int) -> ShantenSteps:
        return SichuanShantenSteps(cls, position, counts)

    @classmethod
    def drawable(cls, position: Position) -> list[Tile]:
        return [TILES[k] for k in range(27) if k // 9 != position.void]

    @classmethod
    def legal_discards(cls, position: Position) -> list[Tile]:
        void = [t for t in position.hand if t.kind // 9 == position.void]
        return sorted(set(void or position.hand))  # SC-2: the void suit goes first

    @classmethod
    def readings(cls, position: Position) -> list[Reading]:
        counts = counts_of(position.hand)
        found = readings(counts, 0, cls.SETS - len(position.melds))
        seven = seven_pairs_reading(counts) if not position.melds else None
        return [*found, seven] if seven else found

    @classmethod
    def context_problem(cls, position: Position) -> str | None:
        tiles = [*position.hand, *(t for m in position.melds for t in m.tiles)]
        suits = {t.kind // 9 for t in tiles}
        if position.void is not None and position.void in suits:
            return (f"SC-4.2: the hand holds its void suit {'mps'[position.void]}; "
                    "no win before it is gone")
        if len(suits) == 3:
            return "SC-4.2: a winning hand has at most two suits (缺一门)"
        if position.self_draw and position.robbing_kong:
            raise PositionError("self_draw and robbing_kong can't both be true")
        return None

    @classmethod
    def values(cls, position: Position, reading: Reading) -> Iterator[Score]:
        p = cls.PATTERNS
        tiles = [*position.hand, *(t for m in position.melds for t in m.tiles)]
        counts = counts_of(tiles)
        pure = len({t.kind // 9 for t in tiles}) == 1
        roots = sum(1 for n in counts if n == 4)
        bases: list[tuple[str, int]] = [("SC-5.1", 0)]
        if reading.seven_pairs:
            long = any(counts[t.kind] == 4 for t in position.hand)
            bases.append(("SC-5.5", 0))
            if pure:
                bases.append(("SC-5.9", 0))
            if long:
                bases.append(("SC-5.13" if pure else "SC-5.8", -1))
        else:
            pungs = all(s.all_pungs for s in reading.parts) and all(
                m.is_pung_like for m in position.melds)
            terminal = all(s.all_terminal for s in reading.parts) and all(
                _meld_terminal(m) for m in position.melds)
            if pungs:
                bases.append(("SC-5.6" if pure else "SC-5.2", 0))
                if all(t.number in (2, 5, 8) for t in tiles):
                    bases.append(("SC-5.7", 0))
            if terminal:
                bases.append(("SC-5.10" if pure else "SC-5.4", 0))
            if pure:
                bases.append(("SC-5.3", 0))
        if position.first_turn and position.own_draw and not position.melds:
            # SC-5.11/5.12: the dealt hand or the first draw, no pung or kong yet.
            bases.append(("SC-5.11" if position.is_dealer else "SC-5.12", 0))
        # The highest base pattern; on a tie (清龙七对 6 − 根 vs 清七对 5) the named one.
        rule, root_change = max(bases, key=lambda b: ((p[b[0]].value or 0) + b[1],
                                                      p[b[0]].value or 0))
        hits = [Hit(p[rule], p[rule].value or 0)]
        if roots + root_change > 0:
            hits.append(Hit(p["SC-5.14"], roots + root_change, roots + root_change))
        if position.own_draw:
            hits.append(Hit(p["SC-5.15"], 1))
            if position.after_kong:
                hits.append(Hit(p["SC-5.16"], 1))
        elif position.after_kong_discard:
            hits.append(Hit(p["SC-5.17"], 1))
        if position.robbing_kong:
            hits.append(Hit(p["SC-5.18"], 1))
        raw = sum(h.value for h in hits)
        cap = int(position.rule("cap_fan"))
        fan = min(raw, cap)
        points = int(position.rule("base")) * 2 ** (fan - 1)
        extra = {"fan_uncapped": raw} if raw > fan else {}
        yield Score(True, points, hits, fan=fan, extra=extra, read_as=(position, reading))


def _shown_kind(position: Position, kind: Tile) -> Tile:
    """For showing a wildcard-only group: a kind of the same suit the hand holds least of.

    Any kind of that suit scores alike (JX-6), so pick the least surprising one.
    """
    if kind.is_honour:
        return kind
    held = counts_of([*position.hand, *(t for m in position.melds for t in m.tiles)])
    suit = kind.kind // 9 * 9
    return min(TILES[suit : suit + 9], key=lambda t: (held[t.kind], t.kind))


def _meld_terminal(meld: Meld) -> bool:
    return any(t.is_terminal for t in meld.tiles)


def _reading_text(position: Position, reading: Reading) -> str:
    parts = [str(reading)] if any(reading.local) or reading.free_kinds else []
    parts.extend(f"[{m}]" for m in position.melds)
    return " ".join(parts)


VARIANTS: dict[str, type[Variant]] = {v.name: v for v in (Jiaxing, Putian, Sichuan)}


def variant_named(name: str) -> type[Variant]:
    """The variant class for a name, or a :class:`PositionError` naming the choices."""
    try:
        return VARIANTS[name]
    except KeyError:
        raise PositionError(
            f"unknown variant {name!r}: use jiaxing, putian or sichuan") from None

