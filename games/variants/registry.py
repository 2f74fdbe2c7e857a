"""The one registry of variants: each log ``variant`` name to its classes.

A variant is one module (:mod:`games.variants.jiaxing`, :mod:`games.variants.putian`,
:mod:`games.variants.sichuan`) holding its scoring class and its table class; this is
the only place that lists them (docs/variants.md says how to add one).

>>> sorted(VARIANTS)
['jiaxing', 'putian', 'sichuan']
>>> table_class("putian").variant is VARIANTS["putian"]
True
"""

from __future__ import annotations

from typing import Any

from games.core.messages import Message
from games.core.position import PositionError
from games.core.readers import show
from games.core.table import Table
from games.core.variant import Variant
from games.variants.jiaxing import Jiaxing, JiaxingTable
from games.variants.putian import Putian, PutianTable
from games.variants.sichuan import Sichuan, SichuanTable

TABLE_CLASSES: dict[str, type[Table]] = {
    table.variant.name: table for table in (JiaxingTable, PutianTable, SichuanTable)
}
"""Each variant's :class:`~games.core.table.Table` subclass, by the log's variant name."""

VARIANTS: dict[str, type[Variant]] = {name: table.variant for name, table in TABLE_CLASSES.items()}
"""Each variant's scoring class, by the log's variant name."""

NAMES: tuple[str, ...] = tuple(VARIANTS)
"""The variant names, in the order the rules document them."""


def variant_named(name: Any) -> type[Variant]:
    """The variant class for a name, or a :class:`PositionError` naming the choices.

    ``name`` may be any JSON value (what a document wrote): anything but a known
    name is refused with the same sentence.

    >>> variant_named("tianjin")
    Traceback (most recent call last):
    ...
    games.core.position.PositionError: unknown variant "tianjin": use jiaxing, putian or sichuan
    >>> variant_named(None)
    Traceback (most recent call last):
    ...
    games.core.position.PositionError: unknown variant null: use jiaxing, putian or sichuan
    """
    variant = VARIANTS.get(name) if isinstance(name, str) else None
    if variant is None:
        raise PositionError(Message("unknown variant {value}: use {choices}", value=show(name),
                                    choices=_choices()))

    return variant


def table_class(name: str) -> type[Table]:
    """The table class of a variant name (names are checked when a log is read)."""
    return TABLE_CLASSES[name]


def _choices() -> str:
    return Message("{first} or {last}", first=", ".join(NAMES[:-1]), last=NAMES[-1])


__all__ = ["NAMES", "TABLE_CLASSES", "VARIANTS", "Jiaxing", "Putian", "Sichuan", "table_class",
           "variant_named"]
