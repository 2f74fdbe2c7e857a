"""The bots' levels, by name: what plays a seat when the site, ``simulate`` or the arena
asks for ``basic`` or a stronger level.

A level is a factory of seats: given a seeded generator it makes an object whose
``choose(table, actions)`` picks one of the legal actions. Everything a seat decides
comes from the table it is shown and that generator, so the same seed plays the same.

>>> sorted(LEVELS)[:1]
['basic']
>>> read_levels("basic")
('basic', 'basic', 'basic', 'basic')
>>> read_levels("basic,basic,basic")
Traceback (most recent call last):
...
ValueError: bots: give one level for every seat or four, one per seat (got 3): basic,basic,basic
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, Protocol

from games.bots.basic import Bot
from games.bots.strong import StrongBot
from games.core.table import Action, Table


class Seat(Protocol):
    """One seat's player: picks one of the legal actions it is shown."""

    def choose(self, table: Table, actions: Sequence[Action]) -> Action: ...


@dataclass(frozen=True)
class Level:
    """A level of play: its name, what it does in a sentence, and how to make a seat."""

    name: str
    summary: str
    make: Callable[[random.Random], Seat]


LEVELS: dict[str, Level] = {
    "basic": Level(
        "basic",
        "takes every win, never folds, claims what brings the hand closer, discards toward "
        "the most tiles accepted (the frozen baseline)",
        Bot,
    ),
    "strong": Level(
        "strong",
        "reads the table (ready seats, void suits, declarations) and weighs each discard's "
        "chance of winning against its danger, folds when it must, claims and passes wins "
        "by value, and plans Jiaxing hands toward what JX-5.3 lets win",
        StrongBot,
    ),
}


def make_bot(level: str, rng: random.Random) -> Seat:
    """A seat playing at ``level``, deciding with ``rng``."""
    try:
        return LEVELS[level].make(rng)
    except KeyError:
        known = ", ".join(sorted(LEVELS))
        raise ValueError(f"bots: no level named {level!r} (known: {known})") from None


LADDER_FORMAT = "ladder/1"
LADDER_FILE = "ladder.json"


def published_ladder() -> dict[str, Any]:
    """The arena's published figures (``games/bots/ladder.json``, format ``ladder/1``: per
    variant a list of ``arena/1`` results, with the date and the command that measured them);
    ``{"format": "ladder/1", "variants": {}}`` when none are published.

    >>> published_ladder()["format"]
    'ladder/1'
    """
    source = resources.files("games.bots").joinpath(LADDER_FILE)
    if not source.is_file():
        return {"format": LADDER_FORMAT, "variants": {}}
    data = json.loads(source.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("format") != LADDER_FORMAT:
        raise ValueError(f"{LADDER_FILE}: not a published ladder (the format must be "
                         f"{LADDER_FORMAT})")
    return data


def read_levels(text: str) -> tuple[str, str, str, str]:
    """``"strong"`` (every seat) or ``"strong,basic,basic,basic"`` (seat by seat)."""
    names = [part.strip() for part in text.split(",")]
    if len(names) == 1:
        names = names * 4
    if len(names) != 4:
        raise ValueError(f"bots: give one level for every seat or four, one per seat "
                         f"(got {len(names)}): {text}")
    for name in names:
        if name not in LEVELS:
            known = ", ".join(sorted(LEVELS))
            raise ValueError(f"bots: no level named {name!r} (known: {known})")
    return (names[0], names[1], names[2], names[3])
