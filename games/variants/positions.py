"""Reading a position object (ENGINE-CLI.md) into a :class:`~games.core.position.Position`.

A position names its variant, so reading one needs the registry of variants;
the variants in turn build and check positions. This module sits above both:
:mod:`games.core.position` holds the value type and imports neither, and
``Position.from_json`` (the name callers use) hands its argument to
:func:`read_position` here. Every field is read with :mod:`games.core.readers`, the
readers the hand-history reader uses too, so a seat, a wind or a bank is worded
the same wherever it is wrong.

>>> p = read_position({"variant": "sichuan", "hand": "111234567m7899p", "void": "s"})
>>> p.variant.name, len(p.hand), p.void
('sichuan', 13, 2)
>>> read_position({"variant": "sichuan", "hand": "111234567m7899p", "seat": 4})
Traceback (most recent call last):
...
games.core.position.PositionError: seat must be a seat 0–3, not 4 (C-2)
"""

from __future__ import annotations

from typing import Any

from games.core import readers
from games.core.position import FIELDS, FLAGS, Position, PositionError
from games.core.readers import ReadError
from games.core.tiles import WINDS, Meld, MeldError, NotationError, Tile
from games.variants.registry import variant_named

__all__ = ["read_position"]

MELD_TYPES = ("chi", "peng", "gang")


def read_position(data: Any) -> Position:
    """Read and check a position object; any problem is a :class:`PositionError`."""
    try:
        position = _read(data)
    except ReadError as error:
        raise PositionError(str(error)) from None
    position.variant.check_position(position)
    return position


def _read(data: Any) -> Position:
    data = readers.read_object(data, "a position")
    readers.no_unknown_fields(data, FIELDS, "the position")
    variant = variant_named(readers.required(data, "variant", "the position"))
    return Position(
        variant=variant,
        hand=tuple(readers.read_notation(readers.required(data, "hand", "the position"),
                                         "hand")),
        melds=tuple(_meld(index, raw) for index, raw in
                    enumerate(_array(data.get("melds", []), "melds"), 1)),
        win_tile=(readers.read_tile(data["win_tile"], "win_tile")
                  if data.get("win_tile") is not None else None),
        wildcards=_wildcards(data.get("wildcards", [])),
        seat=readers.read_seat(data.get("seat", 0), "seat"),
        dealer=readers.read_seat(data.get("dealer", 0), "dealer"),
        round_wind=WINDS.index(readers.read_round_wind(data.get("round_wind", "E"))),
        bank=readers.read_bank(data.get("bank", [])),
        flowers=readers.read_int(data.get("flowers", 0), "flowers", 0),
        void=(readers.SUITS.index(readers.read_suit(data["void"], "void"))
              if data.get("void") is not None else None),
        dealer_streak=readers.read_int(data.get("dealer_streak", 0), "dealer_streak", 0,
                                       rule="PT-7.1"),
        rules=variant.check_rules(data.get("rules", {})),
        seen=tuple(readers.read_notation(data["seen"], "seen")) if "seen" in data else (),
        **{flag: readers.read_bool(data.get(flag, False), flag) for flag in FLAGS},
    )


def _array(value: Any, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise ReadError(f"{field} must be an array, not {readers.json_type(value)}", field=field)
    return value


def _wildcards(value: Any) -> frozenset[int]:
    """A position may name its one wildcard as a string instead of a one-tile array."""
    tiles = readers.read_wildcards([value] if isinstance(value, str) else value)
    return frozenset(tile.kind for tile in tiles)


def _meld(number: int, raw: Any) -> Meld:
    where = f"meld {number}"
    meld = readers.read_object(raw, where)
    try:
        kind = readers.read_choice(meld.get("type"), "type", MELD_TYPES, rule="C-3")
        if kind == "chi":
            return _chow(readers.read_notation(meld.get("tiles"), "tiles"), meld.get("tiles"))
        tile = readers.read_tile(meld.get("tile"), "tile")
        if kind == "peng":
            return Meld.peng(tile)
        return Meld.gang(tile, readers.read_gang_kind(meld.get("kind"), "kind"))
    except ReadError as error:
        raise ReadError(f"{where}: {error.message}", field=error.field, rule=error.rule) from None
    except (NotationError, MeldError) as error:
        raise ReadError(f"{where}: {error}") from None


def _chow(tiles: list[Tile], written: Any) -> Meld:
    kinds = sorted(t.kind for t in tiles)
    if len(kinds) != 3 or kinds[1] != kinds[0] + 1 or kinds[2] != kinds[0] + 2:
        raise MeldError(f"{written} is no chow (three consecutive tiles of one suit, C-3)")
    return Meld.chi(Tile(kinds[0]))
