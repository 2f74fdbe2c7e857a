"""Positions: a hand in its context, as the command line and the site give it.

A :class:`Position` is the input of ``score`` and ``waits`` (ENGINE-CLI.md), a
value type the variants build and check. Reading one from a JSON object names its
variant, so the reader sits above the variants:
:func:`games.variants.positions.read_position`, which raises :class:`PositionError`
with a sentence naming the problem.

>>> from games.variants import read_position
>>> p = read_position({"variant": "sichuan", "hand": "111234567m7899p", "void": "s"})
>>> p.variant.name, len(p.hand), p.void
('sichuan', 13, 2)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from games.core.readers import BANK_ITEMS, json_type
from games.core.tiles import Meld, Tile

if TYPE_CHECKING:
    from games.core.variant import Variant

__all__ = ["BANK_ITEMS", "FIELDS", "FLAGS", "Position", "PositionError", "json_type"]


class PositionError(ValueError):
    """A position that can't be read or is impossible; the message names why."""


FLAGS = (
    "self_draw", "after_kong", "last_tile", "robbing_kong", "first_turn",
    "after_kong_discard", "robbing_gold", "bomb",
)
"""The position's true-or-false facts about how the hand was won."""
FIELDS = ("variant", "hand", "melds", "win_tile", "wildcards", "seat", "dealer", "round_wind",
          "bank", "flowers", "void", "dealer_streak", "rules", "seen", *FLAGS)
"""The fields of a position object (an unknown field's message lists them in this order)."""


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

        >>> from games.variants.registry import variant_named
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
