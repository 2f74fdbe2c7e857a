"""The scorer's state: what has been tapped and chosen, read from and written to the query string.

Tiles are kept as notation (``h=11122233345699m``), melds as a letter and a tile
(``p7z`` pung, ``c1p`` chow from 1p, ``k1s`` exposed kong, ``a1s`` concealed kong), the
wildcards or golds as notation (``g=5m``); a tap is ``add`` (with ``mode``: where the tile
goes) or ``drop``, applied once and then left out of the shareable link.

>>> from django.http import QueryDict
>>> s = State.read(QueryDict("v=sichuan&h=1112m&m=p7p&g="))
>>> s.hand, s.melds
('1112m', ('p7p',))
>>> s.tapped(QueryDict("add=3m&mode=hand")).hand
'11123m'
>>> s.tapped(QueryDict("drop=h:1m")).hand
'112m'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urlencode

from games.core.position import FLAGS
from games.core.readers import BANK_ITEMS
from games.core.tiles import TILES, Tile, parse_tiles
from games.core.variant import Variant
from games.variants.registry import NAMES, VARIANTS

MELD_LETTERS = {"p": "peng", "c": "chi", "k": "gang", "a": "gang"}
"""A meld's letter: pung, chow, exposed kong, concealed kong (暗杠)."""
MODES = ("hand", "win", "p", "c", "k", "a", "g")
"""Where a tapped tile goes: the hand, the hand as the winning tile, a meld, the wildcards."""
WINDS = ("E", "S", "W", "N")
HOWS = ("self_draw", "discard", "robbing_kong", "robbing_gold")
SUITS = ("m", "p", "s")


def notation(tiles: list[Tile]) -> str:
    """Tiles sorted and written short (``11123m5p``)."""
    out, suit, digits = [], "", ""
    for tile in sorted(tiles, key=lambda t: t.kind):
        code = str(tile)
        if code[1] != suit and digits:
            out.append(digits + suit)
            digits = ""
        suit, digits = code[1], digits + code[0]
    if digits:
        out.append(digits + suit)
    return "".join(out)


def tiles_of(text: str) -> list[Tile]:
    """Tiles from notation; anything unreadable is dropped (the page shows what it kept)."""
    try:
        return list(parse_tiles(text)) if text else []
    except ValueError:
        return []


def meld_tiles(code: str) -> list[Tile]:
    """The tiles of a meld code (``c1p`` → 1p 2p 3p)."""
    tile = Tile.parse(code[1:])
    if code[0] == "c":
        return [Tile(tile.kind + i) for i in range(3)]
    return [tile] * (3 if code[0] == "p" else 4)


def _meld_ok(code: str) -> bool:
    if len(code) != 3 or code[0] not in MELD_LETTERS:
        return False
    try:
        tile = Tile.parse(code[1:])
    except ValueError:
        return False
    return code[0] != "c" or (tile.kind < 27 and tile.kind % 9 <= 6)


def _choice(value: str | None, choices: Any, default: str) -> str:
    return value if isinstance(value, str) and value in choices else default


def _count(value: str | None, most: int) -> int:
    try:
        return max(0, min(most, int(value or 0)))
    except ValueError:
        return 0


@dataclass(frozen=True)
class State:
    """Everything the page holds; :meth:`query` writes it back as the shareable link."""

    variant: str = NAMES[0]
    hand: str = ""
    win: str = ""
    melds: tuple[str, ...] = ()
    wild: str = ""
    how: str = "self_draw"
    discarder: str = "N"
    seat: str = "S"
    round_wind: str = "E"
    flags: frozenset[str] = frozenset()
    flowers: int = 0
    streak: int = 0
    void: str = ""
    bank: str = ""
    preset: str = ""
    mode: str = "hand"
    rules: dict[str, str] = field(default_factory=dict)
    ledger: str = ""
    """The ledger (its public id) the result goes back to with "add to the ledger"."""

    @property
    def cls(self) -> type[Variant]:
        return VARIANTS[self.variant]

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> State:
        """The state a query string holds (unknown values fall back to the defaults)."""
        get = data.get
        variant = _choice(get("v"), NAMES, NAMES[0])
        melds = tuple(m for m in _list(data, "m") if _meld_ok(m))
        hand = notation(tiles_of(get("h") or ""))
        win = get("w") or ""
        win = win if win in hand_codes(hand) else ""
        prefix = f"{variant}-"
        return cls(
            variant=variant, hand=hand, win=win, melds=melds,
            wild=notation(tiles_of(get("g") or "")),
            how=_choice(get("how"), HOWS, "self_draw"),
            discarder=_choice(get("from"), WINDS, "N"), seat=_choice(get("seat"), WINDS, "S"),
            round_wind=_choice(get("round"), WINDS, "E"),
            flags=frozenset(f for f in FLAGS if get(f) == "on"),
            flowers=_count(get("fl"), 8), streak=_count(get("streak"), 99),
            void=_choice(get("void"), SUITS, ""), bank=_choice(get("bank"), BANK_ITEMS, ""),
            preset=get("preset") or "", mode=_choice(get("mode"), MODES, "hand"),
            rules={k: str(v) for k, v in _items(data) if k.startswith(prefix)},
            ledger=_ledger_id(get("ledger")),
        )

    def tapped(self, data: Mapping[str, Any]) -> State:
        """The state after the tap the request carries (``add`` or ``drop``), if any."""
        add, drop = data.get("add"), data.get("drop")
        if add and add in {str(t) for t in TILES}:
            return self._add(Tile.parse(add))
        if drop:
            return self._drop(str(drop))
        return self

    def _add(self, tile: Tile) -> State:
        code = str(tile)
        if self.mode == "g":
            wild = tiles_of(self.wild)
            if tile not in wild:
                wild = [*wild[-(self.cls.WILDCARD_KINDS - 1):], tile] if (
                    self.cls.WILDCARD_KINDS > 1) else [tile]
            done = len(wild) >= self.cls.WILDCARD_KINDS  # set once: back to the hand
            return replace(self, wild=notation(wild), mode="hand" if done else self.mode)
        held_wild = {t.kind for t in tiles_of(self.wild)}
        if tile.kind in self.cls.FLOWER_KINDS and tile.kind not in held_wild:
            # A flower is laid out, never held (PT-3): the tap counts it.
            return replace(self, flowers=min(self.flowers + 1, 4))
        if self.mode in MELD_LETTERS:
            meld = f"{self.mode}{code}"
            return replace(self, melds=(*self.melds, meld), mode="hand") if _meld_ok(
                meld) else self
        hand = notation([*tiles_of(self.hand), tile])
        win = self.win
        if self.mode == "win" or (not win and self.tiles_count(hand) == self.full_size):
            win = code
        return replace(self, hand=hand, win=win, mode="hand" if self.mode == "win" else self.mode)

    def _drop(self, what: str) -> State:
        kind, _, value = what.partition(":")
        if kind == "h":
            hand = tiles_of(self.hand)
            if Tile.parse(value) in hand if value in hand_codes(self.hand) else False:
                hand.remove(Tile.parse(value))
            left = notation(hand)
            return replace(self, hand=left, win=self.win if self.win in hand_codes(left) else "")
        if kind == "m" and value.isdigit() and int(value) < len(self.melds):
            return replace(self, melds=tuple(m for i, m in enumerate(self.melds)
                                             if i != int(value)))
        if kind == "g":
            return replace(self, wild=notation([t for t in tiles_of(self.wild)
                                                if str(t) != value]))
        if kind == "w":
            return replace(self, win="")
        return self

    # -- sizes ---------------------------------------------------------------------------

    @property
    def full_size(self) -> int:
        """Tiles in a complete hand, a meld counting three (14, Putian 17)."""
        return self.cls.HAND_SIZE + 1

    def tiles_count(self, hand: str | None = None) -> int:
        """The hand's tiles with three for each meld (a kong's fourth is its replacement)."""
        return len(tiles_of(self.hand if hand is None else hand)) + 3 * len(self.melds)

    def used(self) -> dict[str, int]:
        """Copies of each tile the hand and melds hold (the keyboard greys out a fifth)."""
        counts: dict[str, int] = {}
        for tile in [*tiles_of(self.hand), *(t for m in self.melds for t in meld_tiles(m))]:
            counts[str(tile)] = counts.get(str(tile), 0) + 1
        return counts

    # -- the link --------------------------------------------------------------------------

    def query(self, **changes: Any) -> str:
        """The state as a query string (with ``changes`` applied), without the tap."""
        state = replace(self, **changes) if changes else self
        pairs: list[tuple[str, Any]] = [("v", state.variant), ("h", state.hand)]
        if state.win:
            pairs.append(("w", state.win))
        pairs += [("m", m) for m in state.melds]
        if state.wild:
            pairs.append(("g", state.wild))
        pairs += [("how", state.how), ("seat", state.seat)]
        if state.how != "self_draw":
            pairs.append(("from", state.discarder))
        fields = state.cls.SCORE_FIELDS
        if "round_wind" in fields:
            pairs.append(("round", state.round_wind))
        pairs += [(flag, "on") for flag in FLAGS if flag in state.flags and flag in fields]
        for name, value, default in (("fl", state.flowers, 0), ("streak", state.streak, 0),
                                     ("void", state.void, ""), ("bank", state.bank, "")):
            if value != default:
                pairs.append((name, value))
        if state.preset:
            pairs.append(("preset", state.preset))
        pairs += sorted(state.rules.items())
        if state.mode != "hand":
            pairs.append(("mode", state.mode))
        if state.ledger:
            pairs.append(("ledger", state.ledger))
        return urlencode(pairs)


def _ledger_id(raw: Any) -> str:
    """A ledger's public id as a link may carry it ('' for anything else).

    >>> _ledger_id("Ab3_x-9"), _ledger_id("<b>"), _ledger_id("x" * 40)
    ('Ab3_x-9', '', '')
    """
    text = str(raw or "")
    return text if 0 < len(text) <= 16 and text.replace("-", "").replace("_", "").isalnum() \
        else ""


def hand_codes(hand: str) -> set[str]:
    return {str(t) for t in tiles_of(hand)}


def _list(data: Mapping[str, Any], name: str) -> list[str]:
    getlist = getattr(data, "getlist", None)
    if getlist is not None:
        return [str(v) for v in getlist(name)]
    value = data.get(name)
    return [str(v) for v in value] if isinstance(value, list) else [str(value)] if value else []


def _items(data: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """Each field once, with its last value (a checkbox after its hidden "off")."""
    return [(key, data.get(key)) for key in data]
