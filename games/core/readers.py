"""Readers of JSON input: one small function per kind of value, one wording per mistake.

A position (ENGINE-CLI.md, :mod:`games.variants.positions`) and a hand history
(LOG-FORMAT.md, :mod:`games.records.log`) share many facts — seats, the round wind,
a void suit, wildcards, the bank of carried fans, tiles. Each is read here, once,
from a value already parsed from JSON, and a bad value raises :class:`ReadError`
with the field's name, the value as JSON and, where one applies, a ``RULES.md``
rule id. The callers turn it into their own error (``PositionError``,
``LogError``) and add where it happened.

>>> read_seat(2, "dealer")
2
>>> read_seat(4, "dealer")
Traceback (most recent call last):
...
games.core.readers.ReadError: dealer must be a seat 0–3, not 4 (C-2)
>>> read_round_wind("East")
Traceback (most recent call last):
...
games.core.readers.ReadError: round_wind must be one of E, S, W, N, not "East" (JX-3)
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

from games.core.messages import Message, Templated
from games.core.tiles import TILES, WINDS, GangKind, NotationError, Tile, parse_tiles

__all__ = [
    "BANK_ITEMS", "GANG_KINDS", "ROUND_WINDS", "SUITS", "ReadError", "json_type",
    "no_unknown_fields", "read_bank", "read_bool", "read_choice", "read_gang_kind", "read_int", "read_notation",
    "read_object", "read_round_wind", "read_seat", "read_string", "read_suit", "read_tile",
    "read_wildcards", "required", "show",
]

BANK_ITEMS = ("huangfan", "laotouhuang", "baozi", "baida_lianzhuang")
"""The carried fans a Jiaxing bank may hold (JX-7.11)."""
ROUND_WINDS = tuple(WINDS)
"""The round winds as written: ``E``, ``S``, ``W``, ``N`` (JX-3)."""
SUITS = ("m", "p", "s")
"""The suited suits' letters, as a void suit is written (SC-2)."""
GANG_KINDS: tuple[GangKind, ...] = ("exposed", "added", "concealed")
"""How a kong was made (C-3)."""

_TILE_NAMES = {str(tile): tile for tile in TILES}


class ReadError(Templated, ValueError):
    """A JSON value that is not what its field needs.

    ``field`` is the field's name as the message writes it; ``rule`` is a
    ``RULES.md`` id where one applies, shown after the message.

    >>> error = ReadError("bank must be an array of carried fans, not null", field="bank",
    ...                   rule="JX-7.11")
    >>> str(error), error.message, error.field, error.rule
    ('bank must be an array of carried fans, not null (JX-7.11)', 'bank must be an array of carried fans, not null', 'bank', 'JX-7.11')
    """

    def __init__(self, message: str, *, field: str | None = None,
                 rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.rule = rule

    def __str__(self) -> str:
        return f"{self.message} ({self.rule})" if self.rule else self.message


# -- naming values in messages -----------------------------------------------


def json_type(value: Any) -> str:
    """A value's JSON type, with an article, for messages.

    >>> [json_type(v) for v in (None, True, 3, 2.5, "x", [], {})]
    ['null', 'a boolean', 'a number', 'a number', 'a string', 'an array', 'an object']
    """
    if value is None:
        return Message("null")
    if isinstance(value, bool):
        return Message("a boolean")
    if isinstance(value, int | float):
        return Message("a number")
    if isinstance(value, str):
        return Message("a string")
    if isinstance(value, list | tuple):
        return Message("an array")
    if isinstance(value, dict):
        return Message("an object")
    return Message("a {name}", name=type(value).__name__)


def show(value: Any) -> str:
    """A value as JSON, shortened for a message (large arrays and objects are only named).

    >>> show([3, 5]), show("x" * 50), show([[1]] * 9), show(None)
    ('[3, 5]', '"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...', 'an array of 9 items', 'null')
    """
    nested = (list, dict)
    if isinstance(value, list) and (len(value) > 4 or any(isinstance(v, nested) for v in value)):
        return (Message("an array of {n} items", n=len(value)) if len(value) != 1
                else Message("an array of 1 item"))
    if isinstance(value, dict) and (len(value) > 4 or any(isinstance(v, nested)
                                                          for v in value.values())):
        return Message("an object")
    if isinstance(value, str):
        value = value[:41]
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _listing(choices: Iterable[str]) -> str:
    return ", ".join(choices)


# -- objects -------------------------------------------------------------------


def read_object(value: Any, what: str) -> dict[str, Any]:
    """An object (``what`` names it: "a hand", "meld 2").

    >>> read_object({"a": 1}, "a hand")
    {'a': 1}
    >>> read_object([], "a hand")
    Traceback (most recent call last):
    ...
    games.core.readers.ReadError: a hand must be an object, not an array
    """
    if not isinstance(value, dict):
        raise ReadError(Message("{what} must be an object, not {type}", what=what,
                                type=json_type(value)))
    return value


def required(data: Mapping[str, Any], key: str, where: str, rule: str | None = None) -> Any:
    """The value of a field that must be present.

    >>> required({"hand": "1m"}, "variant", "the position")
    Traceback (most recent call last):
    ...
    games.core.readers.ReadError: the position has no variant
    """
    if key not in data:
        raise ReadError(Message("{where} has no {field}", where=where, field=key),
                        field=key, rule=rule)
    return data[key]


def no_unknown_fields(data: Mapping[str, Any], known: Sequence[str], where: str) -> None:
    """Every field of ``data`` is one of ``known`` (the first other one is named).

    >>> no_unknown_fields({"hand": "1m", "colour": "red"}, ("variant", "hand"), "the position")
    Traceback (most recent call last):
    ...
    games.core.readers.ReadError: unknown field "colour" in the position (its fields: variant, hand)
    """
    for key in data:
        if key not in known:
            raise ReadError(Message("unknown field {value} in {where} (its fields: {known})",
                                    value=show(key), where=where, known=_listing(known)),
                            field=key)


# -- scalars -------------------------------------------------------------------


def read_bool(value: Any, field: str) -> bool:
    """``true`` or ``false``.

    >>> read_bool("yes", "self_draw")
    Traceback (most recent call last):
    ...
    games.core.readers.ReadError: self_draw must be true or false, not "yes"
    """
    if not isinstance(value, bool):
        raise ReadError(Message("{field} must be true or false, not {value}", field=field,
                                value=show(value)), field=field)
    return value


def read_string(value: Any, field: str) -> str:
    """A string (its content is the caller's to check).

    >>> read_string(12, "hand")
    Traceback (most recent call last):
    ...
    games.core.readers.ReadError: hand must be a string, not a number
    """
    if not isinstance(value, str):
        raise ReadError(Message("{field} must be a string, not {type}", field=field,
                                type=json_type(value)), field=field)
    return value


def read_int(value: Any, field: str, low: int, high: int | None = None, *,
             rule: str | None = None) -> int:
    """An integer from ``low`` to ``high`` (no upper end when ``high`` is None).

    JSON's ``true`` is no integer here, and neither is ``1.0``.

    >>> read_int(3, "flowers", 0)
    3
    >>> read_int(-1, "dealer_streak", 0, 1000, rule="PT-7.1")
    Traceback (most recent call last):
    ...
    games.core.readers.ReadError: dealer_streak must be an integer 0–1000, not -1 (PT-7.1)
    >>> read_int(True, "flowers", 0)
    Traceback (most recent call last):
    ...
    games.core.readers.ReadError: flowers must be an integer 0 or more, not true
    """
    if type(value) is not int or value < low or high is not None and value > high:
        raise ReadError(Message("{field} must be an integer {low}–{high}, not {value}",
                                field=field, low=low, high=high, value=show(value))
                        if high is not None else
                        Message("{field} must be an integer {low} or more, not {value}",
                                field=field, low=low, value=show(value)),
                        field=field, rule=rule)
    return value


def read_seat(value: Any, field: str) -> int:
    """A seat, 0–3 (C-2)."""
    if type(value) is not int or not 0 <= value <= 3:
        raise ReadError(Message("{field} must be a seat 0–3, not {value}", field=field,
                                value=show(value)), field=field, rule="C-2")
    return value


def read_choice(value: Any, field: str, choices: Sequence[str], rule: str | None = None) -> str:
    """One of a few names, written exactly.

    >>> read_choice("middle", "from", ("front", "back"))
    Traceback (most recent call last):
    ...
    games.core.readers.ReadError: from must be one of front, back, not "middle"
    """
    if not isinstance(value, str) or value not in choices:
        raise ReadError(Message("{field} must be one of {choices}, not {value}", field=field,
                                choices=_listing(choices), value=show(value)),
                        field=field, rule=rule)
    return value


def read_gang_kind(value: Any, field: str = "kind") -> GangKind:
    """How a kong was made: ``exposed``, ``added`` or ``concealed``.

    >>> read_gang_kind("hidden")
    Traceback (most recent call last):
    ...
    games.core.readers.ReadError: kind must be one of exposed, added, concealed, not "hidden"
    """
    return cast("GangKind", read_choice(value, field, GANG_KINDS))


def read_round_wind(value: Any, field: str = "round_wind") -> str:
    """A round wind's letter, ``E``, ``S``, ``W`` or ``N`` (JX-3)."""
    return read_choice(value, field, ROUND_WINDS, rule="JX-3")


def read_suit(value: Any, field: str) -> str:
    """A suit a player may void, ``m``, ``p`` or ``s`` (SC-2).

    >>> read_suit("z", "void")
    Traceback (most recent call last):
    ...
    games.core.readers.ReadError: void must be one of m, p, s, not "z" (SC-2)
    """
    return read_choice(value, field, SUITS, rule="SC-2")


def read_bank(value: Any, field: str = "bank") -> tuple[str, ...]:
    """The carried fans of a Jiaxing bank, oldest first (JX-7.11).

    >>> read_bank(["huangfan", "baozi"])
    ('huangfan', 'baozi')
    >>> read_bank(["huang"])
    Traceback (most recent call last):
    ...
    games.core.readers.ReadError: unknown carried fan "huang" in bank: use huangfan, laotouhuang, baozi, baida_lianzhuang (JX-7.11)
    """
    if not isinstance(value, list):
        raise ReadError(Message("{field} must be an array of carried fans, not {type}",
                                field=field, type=json_type(value)),
                        field=field, rule="JX-7.11")
    for item in value:
        if not isinstance(item, str) or item not in BANK_ITEMS:
            raise ReadError(Message("unknown carried fan {value} in {field}: use {known}",
                                    value=show(item), field=field, known=_listing(BANK_ITEMS)),
                            field=field, rule="JX-7.11")
    return tuple(value)


# -- tiles ---------------------------------------------------------------------


def read_tile(value: Any, field: str) -> Tile:
    """One tile, written as its name: a digit and a suit letter (C-1).

    >>> read_tile("5m", "win_tile")
    Tile.parse('5m')
    >>> read_tile("0m", "win_tile")
    Traceback (most recent call last):
    ...
    games.core.readers.ReadError: win_tile: "0m" is no tile (write a digit and a suit letter: 1m–9m, 1p–9p, 1s–9s, 1z–7z) (C-1)
    >>> read_tile(["7z"], "tile")
    Traceback (most recent call last):
    ...
    games.core.readers.ReadError: tile: a tile is a string like "5m", not ["7z"] (C-1)
    """
    if not isinstance(value, str):
        raise ReadError(Message("{field}: a tile is a string like \"5m\", not {value}",
                                field=field, value=show(value)), field=field, rule="C-1")
    tile = _TILE_NAMES.get(value)
    if tile is None:
        raise ReadError(Message("{field}: {value} is no tile (write a digit and a suit "
                                "letter: 1m–9m, 1p–9p, 1s–9s, 1z–7z)",
                                field=field, value=show(value)), field=field, rule="C-1")
    return tile


def read_notation(value: Any, field: str) -> list[Tile]:
    """Tiles in the compact notation, digits before their suit letter: ``"123m 55z"``.

    >>> len(read_notation("123m 55z", "hand"))
    5
    >>> read_notation("123m4x", "hand")
    Traceback (most recent call last):
    ...
    games.core.readers.ReadError: hand: bad tile notation '123m4x': unexpected 'x' at position 6 (C-1)
    """
    text = read_string(value, field)
    try:
        return parse_tiles(text)
    except NotationError as error:
        # NotationError's sentence ends with its rule id already.
        raise ReadError(Message("{field}: {error}", field=field, error=str(error)),
                        field=field) from None


def read_wildcards(value: Any, field: str = "wildcards", *, rule: str = "C-4") -> tuple[Tile, ...]:
    """Wildcard tiles, each kind once (C-4); how many is the variant's to check.

    ``rule`` is the rule a repeated kind breaks (a variant may name its own).

    >>> read_wildcards(["9s"])
    (Tile.parse('9s'),)
    >>> read_wildcards(["3p", "3p"], rule="PT-2")
    Traceback (most recent call last):
    ...
    games.core.readers.ReadError: wildcards: 3p is listed twice (PT-2)
    """
    if not isinstance(value, list):
        raise ReadError(Message("{field} must be an array of tiles, not {value}", field=field,
                                value=show(value)), field=field, rule=rule)
    tiles = tuple(read_tile(item, field) for item in value)
    seen: set[Tile] = set()
    for tile in tiles:
        if tile in seen:
            raise ReadError(Message("{field}: {tile} is listed twice", field=field, tile=tile),
                            field=field, rule=rule)

        seen.add(tile)
    return tiles
