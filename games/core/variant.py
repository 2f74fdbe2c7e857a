"""The three rule sets as classes with class-level switches (RULES.md).

Each variant answers two questions about a :class:`~games.core.position.Position`:
:meth:`Variant.score` (is this a win, and what is it worth?) and
:meth:`Variant.waits` (what wins here? which discard is best?).

>>> from games.variants import read_position
>>> p = read_position({"variant": "sichuan", "hand": "111234567m78999p",
...     "win_tile": "9p", "void": "s", "seat": 1, "self_draw": True})
>>> result = p.variant.score(p)
>>> result.win, result.fan, result.points
(True, 2, 2)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from games.core import shapes
from games.core.messages import Message
from games.core.position import Position, PositionError
from games.core.reading import Reading, readings
from games.core.tiles import KINDS, TILES, Meld, Tile, counts_of

if TYPE_CHECKING:
    from games.core.recorded import RecordedHand
    from games.core.settlement import Payment


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
class Preset:
    """A named set of rules options players recognise (a region's or a room's way of
    playing): ``rules`` is the log's ``rules`` object it stands for.

    >>> Preset("seed", "种子规则", "the seed's rules", {}).rules
    {}
    """

    key: str
    chinese: str
    english: str
    rules: dict[str, int | str | bool] = field(default_factory=dict)


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


def pattern_table(*defs: PatternDef) -> dict[str, PatternDef]:
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
    PRESETS: ClassVar[dict[str, Preset]] = {}
    """Named sets of rules options, the default first (none: the options alone)."""
    PATTERNS: ClassVar[dict[str, PatternDef]] = {}

    # What a hand of the variant looks like in a log (LOG-FORMAT.md) and at the table.
    SETUP_RULE: ClassVar[str] = "C-1"
    """The rule of the deal (JX-1, PT-1, SC-1): tile counts, the wall."""
    TILES_RULE: ClassVar[str] = "C-1"
    """The rule saying which tiles the variant plays (C-1, PT-1, SC-1)."""
    TILES_PLAYED: ClassVar[str] = Message("all 136 tiles")
    """Which tiles the variant plays, as a sentence ends: "… plays {TILES_PLAYED}"."""
    WILDCARD_RULE: ClassVar[str] = "C-4"
    """The rule that picks the hand's wildcards (JX-4, PT-2)."""
    WILDCARDS_WANTED: ClassVar[str] = Message("no wildcards")

    """What a log's ``wildcards`` must list, as a sentence ends: "must list …"."""
    HAND_FIELDS: ClassVar[tuple[str, ...]] = ("dealer", "dice", "deal", "wall", "events")
    """The fields a log's hand has, in the order they are written."""
    REQUIRED_FIELDS: ClassVar[dict[str, str | None]] = {
        "dealer": None, "dice": None, "deal": None, "events": None}
    """Hand fields a log must give, each with the rule that needs it."""
    OWN_FIELDS: ClassVar[dict[str, str]] = {}
    """Hand fields only this variant has, each with its rule (a field of another variant
    is refused naming that variant and rule)."""
    MISSING_EVENTS: ClassVar[dict[str, str]] = {}
    """Event types of other variants this one lacks, each with the rule a log breaks
    by using it here."""
    MISSING_WINS: ClassVar[dict[str, str]] = {}
    """Kinds of win (a ``hu``'s ``how``) this variant lacks, each with its rule."""
    KONG_KINDS: ClassVar[tuple[str, ...]] = ("exposed", "added", "concealed")
    """The kinds of kong a player may declare (PT-4: Putian's are concealed only)."""
    KONG_RULE: ClassVar[str] = "C-3"
    """The rule that names the variant's kinds of kong."""
    DISCARD_WINS: ClassVar[bool] = True
    """Whether a player may win on a discard (JX-5.1: not in Jiaxing)."""
    DISCARD_WIN_RULE: ClassVar[str] = "C-5"
    """The rule about wins on a discard (JX-5.1; PT-5.2 and SC-6.1 allow them)."""
    SEVERAL_DISCARD_WINNERS: ClassVar[bool] = False
    """Whether every player who can win on a discard wins (SC-3.1); otherwise the first
    in playing order after the discarder takes it (PT-5.2)."""
    BOT_NAMES: ClassVar[tuple[str, str, str, str]] = ("North", "South", "East", "West")
    """The players' names in a bot-played match."""

    HAND_SIZE: ClassVar[int] = 13
    """Tiles dealt to a player other than the dealer (who gets one more): 3 × SETS + 1."""
    HAS_VOID: ClassVar[bool] = False
    """Whether each player names a void suit (SC-2)."""
    HAS_FLOWERS: ClassVar[bool] = False
    """Whether some tiles are laid out as flowers and replaced (PT-3)."""
    HAS_CONTRACTS: ClassVar[bool] = False
    """Whether three claims from one player form a contract (JX-9)."""
    WILDCARD_LABEL: ClassVar[str] = ""
    """What the variant calls its wildcards (百搭, 金), for pages that show them."""
    WILDCARD_NAME: ClassVar[str] = ""
    """Its wildcards in English words ("wildcard", "golds"), for pages to translate."""
    SCORE_UNIT: ClassVar[str] = "points"
    """The unit a win is counted in before points (tai, fan or points), for pages."""
    WIN_RULES: ClassVar[str] = "C-3"
    """The rules a winning tile must satisfy beyond the shape, cited by puzzle answers."""
    PAY_ASKS: ClassVar[tuple[str, ...]] = ("points",)
    """What a "how much does it pay?" puzzle asks for: the score's fields a player can
    count by hand from the tiles and the context (tai and fan, fan, or points)."""
    PAY_RULE: ClassVar[str] = "C-6"
    """The rules a pay puzzle's answer is counted by, cited on its page."""
    PAY_DIFFICULTY: ClassVar[tuple[int, int]] = (2, 4)
    """A pay puzzle's counting weight up to the first number is easy, up to the second
    medium, beyond it hard (each variant's wins carry a different number of things)."""
    SHOWS_FLOWER_POINTS: ClassVar[bool] = False
    """Every seat's flower points count in a win's settlement (算花, PT-7.4): a pay puzzle
    shows them (the table's ``flower_points``)."""
    HAS_CHOW: ClassVar[bool] = False
    """Whether the next seat may chow a discard (JX-2.1)."""
    HAS_PUNG: ClassVar[bool] = True
    """Whether discards may be punged or konged (PT-4: not in Putian)."""
    WILDCARDS_DISCARDABLE: ClassVar[bool] = True
    """Whether a wildcard may be discarded (JX-2.9: yes; PT-2: golds never are)."""
    WILDCARD_COPIES: ClassVar[int] = 4
    """Copies of a wildcard kind in play (PT-2: a gold kind's turned-up tile is out)."""
    FLOWER_KINDS: ClassVar[tuple[int, ...]] = ()
    """Kinds laid out as flowers when they are not wildcards (PT-3: White)."""
    FLOWER_RULE: ClassVar[str] = "C-1"
    """The rule that lays flowers out (PT-3), cited where a flower is held."""
    PUZZLE_PUNGS_ONLY: ClassVar[float] = 0.0
    """How often a generated puzzle hand is made of pungs only (a pattern, JX-5.3)."""
    LEAVE_CHARGE: ClassVar[str | None] = None
    """The rule that charges a player who leaves mid-hand (JX-10.6, SC-6.6); None: the
    rules charge a leaver nothing, and the hand is abandoned (PT)."""
    PUZZLE_WAYS: ClassVar[tuple[str, ...]] = ()
    """The ways of winning a generated puzzle may be set in, besides a plain self-draw
    (``games.training.puzzles.WAYS``: ``after_kong`` a kong replacement, ``robbing_gold`` 抢金,
    ``bomb`` four or five golds); only those the variant scores."""
    BOTS_AIM_AT_ONE_SUIT: ClassVar[bool] = False
    """Whether bots steer a hand toward one suit and honours (JX-5.3 needs a pattern)."""
    BOT_WIN_VALUE: ClassVar[float] = 10.0
    """Roughly what a win brings its winner, in points: what the strong bot weighs a
    hand's chance of winning by (games/bots/strong.py)."""
    BOT_PLAN_VALUES: ClassVar[dict[str, float]] = {"shape": 1.0}
    """The plans the strong bot steers toward (``shape`` the regular shape, ``seven``
    seven pairs, ``flush`` one suit, with honours where the variant has them, ``pungs``
    all pungs) and what a win by each is worth against ``BOT_WIN_VALUE``."""
    BOT_PAYS_READY_AT_THE_END: ClassVar[bool] = False
    """An exhausted wall makes a seat that isn't ready pay the ready ones (查大叫, SC-6.4b):
    the strong bot counts it in what playing on may bring."""
    BOT_KONG_REFUNDED: ClassVar[bool] = False
    """Kong payments come back from a seat not ready when the wall runs out (SC-6.4c):
    the strong bot weighs a kong's income by its chance of being ready."""
    BOT_CALIBRATED_DANGER: ClassVar[bool] = True
    """The strong bot reads each tile's danger with the calibrated estimator
    (``games.bots.danger``, its fast reading); False keeps its own heuristic
    (``games.bots.reading.tile_danger``), for a variant where paired games found the
    estimator no better."""
    BOT_DEAL_IN_COST: ClassVar[float] = 3.0
    """Roughly what a discard that wins for another seat costs its discarder beyond what
    the hand would cost it anyway (0 where discards can't win)."""
    FIRST_DEALER: ClassVar[int | None] = None
    """Who deals the first hand (JX-1: seat 0); None: drawn at random (PT-1, SC-1)."""
    SCORE_FIELDS: ClassVar[tuple[str, ...]] = ()
    """The position's fields besides the tiles, ``self_draw`` and ``rules`` that the variant's
    ``score`` reads (``seat`` for the winner's seat wind, ``round_wind``, ``bank``, ``flowers``,
    ``void``, ``dealer_streak`` and the FLAGS it scores): what a form scoring a hand asks."""
    ARENA_DISASTERS: ClassVar[dict[str, str]] = {}
    """The payments the bots' arena counts as disasters (``games.bots.arena``): a key
    names a payment line by its rule id (``JX-10.2``), its cause (``flower_pig``) or its
    cause and the win's way (``win:rob_gold``); the value is the label shown."""

    @classmethod
    def win_lines(cls, position: Position, score: Score,
                  discarder: int | None) -> list[Payment]:
        """The payment lines of this one win at a table of four where nothing else is settled
        (no contract, everyone still in, no other seat's flowers): who pays the winner
        (``position.seat``) what. ``discarder`` is the seat that discarded the winning tile
        or was robbed of it (None for a self-draw)."""
        raise NotImplementedError

    MOST_RECORDED_WINS: ClassVar[int] = 1
    """The most wins one hand can have (SC-3.2: three; elsewhere one), for a ledger's form."""
    RECORDS_TAI: ClassVar[bool] = False
    """Whether a recorded win is counted in tai besides fan (JX-6), for a ledger's form."""
    RECORDS_FLOWERS: ClassVar[bool] = False
    """Whether a recorded hand needs the dealer, the streak and each seat's flower points
    (PT-6, PT-7), for a ledger's form."""

    RECORDS_KONGS: ClassVar[bool] = False
    """Whether kongs are paid at once (SC-6.3), so a recorded hand lists them."""
    RECORDS_EXHAUSTION: ClassVar[bool] = False
    """Whether an exhausted hand is settled (SC-6.4: 查花猪, 查大叫), so a recorded hand
    says who was a 花猪 and who was ready."""

    @classmethod
    def recorded_lines(cls, hand: RecordedHand,
                       rules: dict[str, int | str | bool]) -> list[Payment]:
        """The payment lines of a hand recorded at a real table (games/core/recorded.py) under
        the table's ``rules`` (options left out take their defaults); raises
        ``SettlementError`` naming the rule a record breaks."""
        raise NotImplementedError

    @classmethod
    def tile_kinds(cls) -> list[int]:
        """The kinds the variant plays, four copies each (C-1, PT-1, SC-1).

        >>> len(Variant.tile_kinds())
        34
        """
        return [*range(27), *sorted(cls.HONOURS)]

    @classmethod
    def turn_up(cls, wall: list[Tile], rng: random.Random,
                extra: dict[str, object]) -> list[Tile]:
        """Turn up what the variant turns up after the shuffle (JX-4 indicator, PT-2 golds),
        recording it in ``extra``; returns the wall left. Nothing by default."""
        return wall

    @classmethod
    def puzzle_wildcards(cls, rng: random.Random) -> list[int]:
        """The wildcard kinds of a generated puzzle (none by default)."""
        return []

    @classmethod
    def puzzle_kinds(cls, difficulty: int, rng: random.Random) -> list[int]:
        """The kinds a generated puzzle hand is built from: the suited ones by default."""
        return list(range(27))

    # Across the hands of a match.
    DEALER_RULE: ClassVar[str | None] = None
    """The rule that passes the deal (JX-3, PT-1): the dealer stays after a dealer win or
    an exhausted hand, else the next seat deals. None: every hand states its dealer (SC-1)."""
    LEAVERS_PAY_ON_ABANDON: ClassVar[bool] = False
    """Whether a hand abandoned by a leaver charges the leavers alone the fee and the
    escape penalty (JX-10.6) instead of everyone's fee."""

    @classmethod
    def bank_triggers(cls, dice: tuple[int, int], wildcard: int | None,
                      previous_wildcard: int | None) -> tuple[str, ...]:
        """The carried fans a hand adds to the bank at its start (JX-7.11); none here."""
        return ()

    @classmethod
    def bank_after(cls, bank: tuple[str, ...], *, won: bool, exhausted: bool) -> tuple[str, ...]:
        """The bank a hand leaves to the next (JX-7.11); variants without one keep none."""
        return ()

    # -- input checks ---------------------------------------------------------

    @classmethod
    def check_rules(cls, raw: Any) -> dict[str, int | str | bool]:
        if not isinstance(raw, dict):
            raise PositionError(Message("rules must be an object of options"))
        checked: dict[str, int | str | bool] = {}
        for name, value in raw.items():
            option = cls.OPTIONS.get(name)
            if option is None:
                known = ", ".join(cls.OPTIONS) or Message("none")
                raise PositionError(Message("unknown {variant} rules option {name!r} (known: "
                                            "{known})", variant=cls.name, name=name,
                                            known=known))
            if option.choices:
                if value not in option.choices:
                    raise PositionError(Message("rules option {name!r} must be one of "
                                                "{choices}, not {value!r}", name=name,
                                                choices=", ".join(option.choices), value=value))
            elif isinstance(option.default, bool):
                if not isinstance(value, bool):
                    raise PositionError(Message("rules option {name!r} must be true or false",
                                                name=name))
            elif (not isinstance(value, int) or isinstance(value, bool)
                  or not option.minimum <= value <= option.maximum):
                raise PositionError(Message("rules option {name!r} must be an integer from "
                                            "{low} to {high}, not {value!r}", name=name,
                                            low=option.minimum, high=option.maximum,
                                            value=value))
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
        own = counts_of(tiles)
        counts = counts_of([*tiles, *position.seen])
        counts[31] += position.flowers  # laid-out whites (PT-3.3)
        for kind, n in enumerate(counts):
            limit = cls.copies(position, kind)
            if own[kind] > limit:
                raise PositionError(f"{own[kind]} copies of {TILES[kind]}: the game has only "
                                    f"{limit} in play ({cls.copy_rule(position, kind)})")
            if n > cls.seen_limit(position, kind):
                raise PositionError(f"{n} copies of {TILES[kind]} held and seen: the game has "
                                    f"only {cls.seen_limit(position, kind)} "
                                    f"({cls.copy_rule(position, kind)})")

    @classmethod
    def seen_limit(cls, position: Position, kind: int) -> int:
        """Copies of a kind the hand, the melds and ``seen`` may list together: those in
        play, and a tile turned up out of play that ``seen`` may name (ENGINE-CLI)."""
        return cls.copies(position, kind)

    @classmethod
    def check_tile(cls, position: Position, tile: Tile) -> None:
        if tile.is_honour and tile.kind not in cls.HONOURS:
            raise PositionError(f"{tile} is not a {cls.name} tile ({cls.TILE_RULE})")

    TILE_RULE: ClassVar[str] = "C-1"

    @classmethod
    def check_meld(cls, position: Position, meld: Meld) -> None:
        pass

    @classmethod
    def wins_without_shape(cls, position: Position) -> bool:
        """A win that needs no winning shape (Putian's bombs, PT-5.6); none by default."""
        return False

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

        >>> from games.variants import read_position
        >>> position = read_position({"variant": "putian", "hand": "1111m222p567s99s",
        ...                                "wildcards": ["2p", "7s"]})
        >>> held = position.variant.held_every_copy(position, position.hand)
        >>> [str(TILES[kind]) for kind in sorted(held)]
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
        return shapes.shanten(counts, cls.SETS - len(position.melds), wild,
                              honours=bool(cls.HONOURS))

    @classmethod
    def shanten_after_each(cls, position: Position, counts: Sequence[int],
                           wild: int) -> tuple[int, list[int]]:
        """Shanten now, and after drawing each kind (a wildcard kind adds a wildcard)."""
        now, after = shapes.needed_after_each(counts, cls.SETS - len(position.melds),
                                              honours=bool(cls.HONOURS))
        limit = wild + 1  # max(n - limit, -1), without a call per kind
        grown = [n - limit if n >= limit else -1 for n in after]
        for kind in position.wildcards:
            grown[kind] = max(now - wild - 2, -1)
        return max(now - wild - 1, -1), grown

    @classmethod
    def aimed_shanten_of(cls, position: Position, counts: Sequence[int], wild: int) -> int:
        """Shanten toward a hand that may win here: the shape's (:meth:`shanten_of`) where
        every complete shape may win; a variant whose wins need more (JX-5.3) counts the
        steps to a shape that meets its requirement. The solo model plays toward it."""
        return cls.shanten_of(position, counts, wild)

    @classmethod
    def aimed_shanten_after_each(cls, position: Position, counts: Sequence[int],
                                 wild: int) -> tuple[int, list[int]]:
        """:meth:`aimed_shanten_of` now, and after drawing each kind (as
        :meth:`shanten_after_each` gives the shape's)."""
        return cls.shanten_after_each(position, counts, wild)

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
            return Score.no_win(Message("{rule}: the tiles don't form {n} sets and a pair",
                                        rule=cls.SHAPE_RULE, n=cls.SETS))
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
            best.reading = reading_text(*best.read_as)
        return best or failure or Score.no_win(Message("{rule}: no legal reading",
                                                          rule=cls.SHAPE_RULE))

    @classmethod
    def rank(cls, result: Score) -> tuple[int, ...]:
        return (result.points, result.fan or 0, result.tai or 0)

    @classmethod
    def values(cls, position: Position, reading: Reading) -> Iterator[Score]:
        raise NotImplementedError

    @classmethod
    def sets_to_pass(cls, position: Position) -> list[tuple[Tile, ...]]:
        """The sets of tiles the hand may pass on before play starts (Sichuan's 换三张,
        SC-H1, at a table playing it); none elsewhere."""
        return []

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
        if shanten >= 0:
            shanten, accepted = cls._ready_without_shape(position, hand, after, visible,
                                                         shanten, accepted)
        return Waits(shanten, found, accepted)

    @classmethod
    def _ready_without_shape(cls, position: Position, hand: Sequence[Tile],
                             after: Sequence[int], visible: Sequence[int], shanten: int,
                             accepted: list[Accepted]) -> tuple[int, list[Accepted]]:
        """Ready means some drawn tile wins (ENGINE-CLI), a Putian bomb included (PT-5.6):
        such a hand is ready whatever its shape, and accepts what wins or completes it."""
        bombs = cls.draws_winning_without_shape(position, hand)
        if not bombs:
            return shanten, accepted
        return 0, [Accepted(tile, cls.remaining(position, tile.kind, visible))
                   for tile in cls.drawable(position)
                   if tile.kind in bombs or after[tile.kind] < 0]

    @classmethod
    def draws_winning_without_shape(cls, position: Position,
                                    hand: Sequence[Tile]) -> frozenset[int]:
        """The kinds whose draw would let this waiting hand win whatever its shape (Putian's
        bombs, PT-5.6); the hand is then ready (:meth:`ready_shanten`)."""
        return frozenset()

    @classmethod
    def ready_shanten(cls, position: Position, hand: Sequence[Tile] | None = None) -> int:
        """The shanten ``waits`` reports: the shape's, but 0 when a drawn tile would win
        whatever the shape (:meth:`draws_winning_without_shape`); a hand a tile too many
        counts what its best discard leaves."""
        tiles = position.hand if hand is None else hand
        shanten = cls.shanten(position, tiles)
        if shanten > 0 and cls.draws_winning_without_shape(position, tiles):
            return 0
        return shanten

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
        return DiscardTable(cls.ready_shanten(position), options)


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
        wildcard); ``shapes.INF`` for a kind not held."""
        raise NotImplementedError


class PlainShantenSteps(shapes.OneTileOn, ShantenSteps):
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
            return shapes.INF
        return max(self.after(kind, -1) - self._wild - 1, -1)


def reading_text(position: Position, reading: Reading) -> str:
    parts = [str(reading)] if any(reading.local) or reading.free_kinds else []
    parts.extend(f"[{m}]" for m in position.melds)
    return " ".join(parts)
