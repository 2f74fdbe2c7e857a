"""Positions: a hand in its context, as the command line and the site give it.

A :class:`Position` is the input of ``score`` and ``waits`` (ENGINE-CLI.md).
:func:`Position.from_json` validates a JSON object and raises
:class:`PositionError` with a sentence naming the problem.

>>> p = Position.from_json({"variant": "sichuan", "hand": "111234567m7899p", "void": "s"})
>>> p.variant.name, len(p.hand), p.void
('sichuan', 13, 2)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from games.tiles import WINDS, Meld, MeldError, NotationError, Tile, parse_tiles

if TYPE_CHECKING:
    from games.variants import Variant


class PositionError(ValueError):
    """A position that can't be read or is impossible; the message names why."""


FLAGS = (
    "self_draw", "after_kong", "last_tile", "robbing_kong", "first_turn",
    "after_kong_discard", "robbing_gold", "bomb",
)
FIELDS = frozenset(
    {"variant", "hand", "melds", "win_tile", "wildcards", "seat", "dealer", "round_wind",
     "bank", "flowers", "void", "dealer_streak", "rules", "seen", *FLAGS}
)
BANK_ITEMS = ("huangfan", "laotouhuang", "baozi", "baida_lianzhuang")


@dataclass(frozen=True)
class Position:
    """A hand and everything its value depends on."""

    variant: type[Variant]
    hand: tuple[Tile, ...]
    melds: tuple[Meld, ...] = ()
    win_tile: Tile | None = None
    wildcards: frozenset[int] = frozenset()
    seat: int = 0
    dealer: int = 0
    round_wind: int = 0
    self_draw: bool = False
    after_kong: bool = False
    last_tile: bool = False
    robbing_kong: bool = False
    first_turn: bool = False
    after_kong_discard: bool = False
    robbing_gold: bool = False
    bomb: bool = False
    bank: tuple[str, ...] = ()
    flowers: int = 0
    void: int | None = None
    dealer_streak: int = 0
    rules: Mapping[str, int | str | bool] = field(default_factory=dict)
    seen: tuple[Tile, ...] = ()

    @property
    def seat_wind(self) -> int:
        """0 East … 3 North: the dealer is East (C-2)."""
        return (self.seat - self.dealer) % 4

    @property
    def is_dealer(self) -> bool:
        return self.seat == self.dealer

    @property
    def own_draw(self) -> bool:
        """Won on one's own tile: a self-draw, a kong replacement (JX-5.1), or the dealer's
        dealt hand (天和/天胡)."""
        return self.self_draw or self.after_kong or (
            self.first_turn and self.is_dealer and not self.robbing_kong)

    def is_wild(self, tile: Tile) -> bool:
        return tile.kind in self.wildcards

    def rule(self, name: str) -> Any:
        return self.rules.get(name, self.variant.OPTIONS[name].default)

    def context_key(self) -> tuple[Any, ...]:
        """Every field but the tiles (``hand``, ``win_tile``), hashable: what an answer
        about these tiles depends on, for caches. It is built from the dataclass's own
        fields, so a field added later can't be left out of a cache key.

        >>> from games.registry import variant_named
        >>> a = Position(variant=variant_named("sichuan"), hand=(), void=0)
        >>> a.context_key() == a.with_hand((Tile.parse("1p"),), None).context_key()
        True
        >>> a.context_key() == Position(variant=a.variant, hand=(), void=1).context_key()
        False
        """
        return tuple(
            tuple(sorted(self.rules.items())) if item.name == "rules" else getattr(self, item.name)
            for item in fields(self) if item.name not in ("hand", "win_tile"))

    def with_hand(self, hand: tuple[Tile, ...], win_tile: Tile | None) -> Position:
        """The same context with other tiles (already checked: no validation)."""
        copy = object.__new__(Position)
        copy.__dict__.update(self.__dict__)
        object.__setattr__(copy, "hand", hand)
        object.__setattr__(copy, "win_tile", win_tile)
        return copy

    @classmethod
    def from_json(cls, data: Any) -> Position:
        """Read and check a position object (ENGINE-CLI.md)."""
        from games.registry import variant_named

        if not isinstance(data, dict):
            raise PositionError("a position must be a JSON object")
        unknown = sorted(set(data) - FIELDS)
        if unknown:
            raise PositionError(f"unknown field {unknown[0]!r} in the position")
        variant = variant_named(_get(data, "variant", str, None))
        hand = tuple(_tiles(data, "hand"))
        raw_win = data.get("win_tile")
        win_tile = _single_tile("win_tile", raw_win) if raw_win is not None else None
        wildcards = _wildcards(data.get("wildcards", []))
        position = cls(
            variant=variant,
            hand=hand,
            melds=tuple(_meld(index, raw) for index, raw in enumerate(_list(data, "melds"))),
            win_tile=win_tile,
            wildcards=wildcards,
            seat=_seat(data, "seat"),
            dealer=_seat(data, "dealer"),
            round_wind=_round_wind(data.get("round_wind", "E")),
            bank=tuple(_bank(data.get("bank", []))),
            flowers=_get(data, "flowers", int, 0),
            void=_void(data.get("void")),
            dealer_streak=_get(data, "dealer_streak", int, 0),
            rules=variant.check_rules(data.get("rules", {})),
            seen=tuple(_tiles(data, "seen")) if "seen" in data else (),
            **{flag: _get(data, flag, bool, False) for flag in FLAGS},
        )
        if position.flowers < 0 or position.dealer_streak < 0:
            raise PositionError("flowers and dealer_streak can't be negative")
        variant.check_position(position)
        return position


def _check_type(name: str, value: Any, kind: type) -> Any:
    if kind is int and isinstance(value, bool) or not isinstance(value, kind):
        raise PositionError(f"{name!r} must be {_TYPE_NAMES[kind]}, not {json_type(value)}")
    return value


_TYPE_NAMES = {str: "a string", int: "an integer", bool: "true or false", list: "a list"}


def json_type(value: Any) -> str:
    """The JSON name of a value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    return {str: "a string", int: "an integer", float: "a number", list: "a list",
            dict: "an object"}.get(type(value), type(value).__name__)


def _get(data: Mapping[str, Any], name: str, kind: type, default: Any) -> Any:
    if name not in data:
        if default is None:
            raise PositionError(f"the position needs {name!r}")
        return default
    return _check_type(name, data[name], kind)


def _list(data: Mapping[str, Any], name: str) -> list[Any]:
    value = data.get(name, [])
    return list(_check_type(name, value, list))


def _tiles(data: Mapping[str, Any], name: str) -> list[Tile]:
    text = _get(data, name, str, None)
    try:
        return parse_tiles(text)
    except NotationError as error:
        raise PositionError(f"{name}: {error}") from None


def _single_tile(name: str, value: Any) -> Tile:
    text = _check_type(name, value, str)
    try:
        return Tile.parse(text)
    except NotationError as error:
        raise PositionError(f"{name}: {error}") from None


def _wildcards(value: Any) -> frozenset[int]:
    if isinstance(value, str):
        value = [value]
    kinds = [_single_tile("wildcards", v).kind for v in _check_type("wildcards", value, list)]
    if len(set(kinds)) != len(kinds):
        raise PositionError("the same wildcard kind is listed twice (C-4)")
    return frozenset(kinds)


def _seat(data: Mapping[str, Any], name: str) -> int:
    seat: int = _get(data, name, int, 0)
    if not 0 <= seat <= 3:
        raise PositionError(f"{name} must be a seat 0–3, not {seat} (C-2)")
    return seat


def _round_wind(value: Any) -> int:
    if value not in WINDS or not isinstance(value, str) or len(value) != 1:
        raise PositionError(f"round_wind must be one of E, S, W, N, not {value!r} (JX-3)")
    return WINDS.index(value)


def _bank(value: Any) -> list[str]:
    items = _check_type("bank", value, list)
    for item in items:
        if item not in BANK_ITEMS:
            raise PositionError(
                f"unknown carried fan {item!r} in bank: use {', '.join(BANK_ITEMS)} (JX-7.11)"
            )
    return list(items)


def _void(value: Any) -> int | None:
    if value is None:
        return None
    if value not in ("m", "p", "s") or not isinstance(value, str):
        raise PositionError(f"void must be m, p or s, not {value!r} (SC-2)")
    return "mps".index(value)


def _meld(index: int, raw: Any) -> Meld:
    where = f"meld {index + 1}"
    if not isinstance(raw, dict):
        raise PositionError(f"{where} must be an object like {{\"type\": \"peng\", \"tile\": \"7z\"}}")
    kind = raw.get("type")
    try:
        if kind == "chi":
            tiles = parse_tiles(_check_type(f"{where} tiles", raw.get("tiles"), str))
            kinds = sorted(t.kind for t in tiles)
            if len(kinds) != 3 or kinds[1] != kinds[0] + 1 or kinds[2] != kinds[0] + 2:
                raise MeldError(f"{where}: {raw.get('tiles')} is no chow (three consecutive tiles "
                                "of one suit, C-3)")
            return Meld.chi(Tile(kinds[0]))
        if kind == "peng":
            return Meld.peng(Tile.parse(_check_type(f"{where} tile", raw.get("tile"), str)))
        if kind == "gang":
            gang_kind = raw.get("kind")
            if gang_kind not in ("exposed", "added", "concealed"):
                raise PositionError(f"{where}: a gang needs kind exposed, added or concealed")
            tile = Tile.parse(_check_type(f"{where} tile", raw.get("tile"), str))
            return Meld.gang(tile, gang_kind)
    except (NotationError, MeldError) as error:
        raise PositionError(f"{where}: {error}") from None
    raise PositionError(f"{where}: type must be chi, peng or gang, not {kind!r}")
