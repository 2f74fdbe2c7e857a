"""Tiles, melds and the compact notation (RULES C-1, C-3).

A tile kind is an index 0–33: ``1m``–``9m`` are 0–8, ``1p``–``9p`` 9–17,
``1s``–``9s`` 18–26 and the honours ``1z``–``7z`` 27–33. :class:`Tile` wraps
that index as a small value type with a parse/format pair:

>>> Tile.parse("5m")
Tile.parse('5m')
>>> str(Tile.parse("7z"))
'7z'
>>> [str(t) for t in parse_tiles("123m55z")]
['1m', '2m', '3m', '5z', '5z']
>>> format_tiles(parse_tiles("3m1m2m11z"))
'123m11z'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal

SUITS = "mpsz"
KINDS = 34
CODES: tuple[str, ...] = tuple(f"{kind % 9 + 1}{SUITS[kind // 9]}" if kind < 27
                               else f"{kind - 26}z" for kind in range(KINDS))
"""Each kind's notation (``"5m"``), as ``str(tile)`` gives it (drawn often: kept)."""
HONOURS = range(27, 34)
WINDS = "ESWN"

CHINESE_NAMES = (
    [f"{n}万" for n in "一二三四五六七八九"]
    + [f"{n}筒" for n in "一二三四五六七八九"]
    + [f"{n}条" for n in "一二三四五六七八九"]
    + ["东", "南", "西", "北", "白", "发", "中"]
)
ENGLISH_NAMES = (
    [f"{n} of characters" for n in range(1, 10)]
    + [f"{n} of dots" for n in range(1, 10)]
    + [f"{n} of bamboo" for n in range(1, 10)]
    + ["East", "South", "West", "North", "White", "Green", "Red"]
)


class NotationError(ValueError):
    """Malformed tile notation; names the bad character and its position.

    >>> parse_tiles("12x3m")
    Traceback (most recent call last):
    ...
    games.core.tiles.NotationError: bad tile notation '12x3m': unexpected 'x' at position 3 (C-1)
    """

    def __init__(self, text: str, position: int, problem: str) -> None:
        self.text = text
        self.position = position
        super().__init__(f"bad tile notation {text!r}: {problem} at position {position + 1} (C-1)")


class Tile:
    """One tile kind (RULES C-1). Immutable; compares and hashes by kind."""

    __slots__ = ("kind",)
    kind: int

    def __init__(self, kind: int) -> None:
        if not 0 <= kind < KINDS:
            raise ValueError(f"tile kind {kind} is outside 0–33 (C-1)")
        object.__setattr__(self, "kind", kind)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Tile is immutable")

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Tile) and self.kind == other.kind)

    def __hash__(self) -> int:
        return self.kind

    def __lt__(self, other: Tile) -> bool:
        return self.kind < other.kind

    def __reduce__(self) -> tuple[type[Tile], tuple[int]]:
        return Tile, (self.kind,)

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Parse one tile such as ``"5m"`` or ``"7z"``."""
        tiles = parse_tiles(text)
        if len(tiles) != 1:
            raise NotationError(text, 0, f"expected one tile, found {len(tiles)}")
        return tiles[0]

    @property
    def suit(self) -> str:
        """``m``, ``p``, ``s`` or ``z``."""
        return SUITS[self.kind // 9] if self.kind < 27 else "z"

    @property
    def number(self) -> int:
        """1–9 for suited tiles, 1–7 for honours."""
        return self.kind % 9 + 1 if self.kind < 27 else self.kind - 26

    @property
    def is_honour(self) -> bool:
        return self.kind >= 27

    @property
    def is_terminal(self) -> bool:
        """A suited 1 or 9."""
        return self.kind < 27 and self.kind % 9 in (0, 8)

    @property
    def chinese(self) -> str:
        return CHINESE_NAMES[self.kind]

    @property
    def english(self) -> str:
        return ENGLISH_NAMES[self.kind]

    def __str__(self) -> str:
        return CODES[self.kind]

    def __repr__(self) -> str:
        return f"Tile.parse({str(self)!r})"


TILES: tuple[Tile, ...] = tuple(Tile(kind) for kind in range(KINDS))
"""The 34 kinds as shared instances (cheaper than building a Tile in hot loops)."""


def parse_tiles(text: str) -> list[Tile]:
    """Parse compact notation: digits grouped before their suit letter.

    Spaces are allowed between groups. Raises :class:`NotationError`.

    >>> len(parse_tiles("123m 456p 11z"))
    8
    """
    tiles: list[Tile] = []
    pending: list[tuple[int, int]] = []  # (digit, position)
    for position, char in enumerate(text):
        if char.isdigit():
            pending.append((int(char), position))
        elif char in SUITS:
            if not pending:
                raise NotationError(text, position, f"suit letter {char!r} has no digits before it")
            base = SUITS.index(char) * 9
            for digit, digit_position in pending:
                highest = 7 if char == "z" else 9
                if not 1 <= digit <= highest:
                    raise NotationError(
                        text, digit_position, f"{digit}{char} is no tile (digits 1–{highest})"
                    )
                tiles.append(TILES[base + digit - 1])
            pending = []
        elif char.isspace():
            if pending:
                raise NotationError(text, position, "digits must be followed by a suit letter")
        else:
            raise NotationError(text, position, f"unexpected {char!r}")
    if pending:
        raise NotationError(text, pending[-1][1], "digits must be followed by a suit letter")
    return tiles


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Format tiles in sorted compact notation (the inverse of :func:`parse_tiles`)."""
    out: list[str] = []
    ordered = sorted(tiles)
    for suit in SUITS:
        digits = "".join(str(t.number) for t in ordered if t.suit == suit)
        if digits:
            out.append(digits + suit)
    return "".join(out)


def counts_of(tiles: Iterable[Tile]) -> list[int]:
    """A 34-long count vector.

    >>> counts_of(parse_tiles("112m"))[:3]
    [2, 1, 0]
    """
    counts = [0] * KINDS
    for tile in tiles:
        counts[tile.kind] += 1
    return counts


def tiles_of(counts: Sequence[int]) -> list[Tile]:
    """The inverse of :func:`counts_of`."""
    return [TILES[kind] for kind, n in enumerate(counts) for _ in range(n)]


MeldType = Literal["chi", "peng", "gang"]
GangKind = Literal["exposed", "added", "concealed"]


class MeldError(ValueError):
    """A meld that is not a set (C-3)."""


@dataclass(frozen=True, slots=True)
class Meld:
    """A set declared on the table (C-3): chow, pung or kong.

    >>> str(Meld.chi(Tile.parse("3p")))
    '345p'
    >>> Meld.gang(Tile.parse("1s"), "concealed").is_concealed
    True
    """

    type: MeldType
    first: Tile
    gang_kind: GangKind | None = None

    TYPES: ClassVar[tuple[str, ...]] = ("chi", "peng", "gang")

    def __post_init__(self) -> None:
        if self.type == "chi" and (self.first.is_honour or self.first.number > 7):
            raise MeldError(f"{self.first}{self.first.number + 1}.. is no chow: chows are "
                            "three consecutive tiles of one suit (C-3)")
        if (self.type == "gang") != (self.gang_kind is not None):
            raise MeldError("a kong needs its kind (exposed, added, concealed) (C-3)")

    @classmethod
    def chi(cls, first: Tile) -> Meld:
        return cls("chi", first)

    @classmethod
    def peng(cls, tile: Tile) -> Meld:
        return cls("peng", tile)

    @classmethod
    def gang(cls, tile: Tile, kind: GangKind) -> Meld:
        return cls("gang", tile, kind)

    @property
    def tiles(self) -> list[Tile]:
        if self.type == "chi":
            return [Tile(self.first.kind + i) for i in range(3)]
        return [self.first] * (4 if self.type == "gang" else 3)

    @property
    def is_pung_like(self) -> bool:
        """Pungs and kongs (a kong counts as a pung for every pattern, C-3)."""
        return self.type != "chi"

    @property
    def is_concealed(self) -> bool:
        return self.gang_kind == "concealed"

    def __str__(self) -> str:
        return format_tiles(self.tiles)
