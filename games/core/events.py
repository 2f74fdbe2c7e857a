"""One event of a hand (LOG-FORMAT.md), the value the table applies and the log writes.

It lives apart from :mod:`games.records.log` (which reads and writes whole documents and
knows every variant through the registry) so that the table and the variant
modules can use it without importing the reader.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from games.core.tiles import Tile


@dataclass(frozen=True)
class Event:
    """One event of a hand. Fields that the event's type doesn't have stay at their defaults.

    ``source`` is a draw's ``from`` (``"front"`` or ``"back"``); ``source_written``
    records whether the document wrote ``from``, so that writing gives the same
    document back (it takes no part in comparisons).

    >>> Event("discard", 0, tile=Tile.parse("7z")).to_json()
    {'type': 'discard', 'actor': 0, 'tile': '7z'}
    >>> Event("draw", 3, tile=Tile.parse("9s"), source="back").to_json()
    {'type': 'draw', 'actor': 3, 'tile': '9s', 'from': 'back'}
    """

    type: str
    actor: int | None = None
    tile: Tile | None = None
    tiles: tuple[Tile, ...] = ()
    target: int | None = None
    source: str = "front"
    kind: str | None = None
    how: str | None = None
    suit: str | None = None
    choice: str | None = None
    reason: str | None = None
    deltas: tuple[int, ...] | None = None
    source_written: bool = field(default=False, repr=False, compare=False)

    def __repr__(self) -> str:
        shown = [f"type={self.type!r}"]
        for item in fields(self):
            value = getattr(self, item.name)
            if item.name not in ("type", "source_written") and value != item.default:
                shown.append(f"{item.name}={value!r}")
        return f"Event({', '.join(shown)})"

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON object (the fields it has, in a fixed order)."""
        out: dict[str, Any] = {"type": self.type}
        if self.actor is not None:
            out["actor"] = self.actor
        if self.kind is not None:
            out["kind"] = self.kind
        if self.target is not None:
            out["target"] = self.target
        if self.tile is not None:
            out["tile"] = str(self.tile)
        if self.tiles:
            out["tiles"] = [str(t) for t in self.tiles]
        if self.type == "draw" and (self.source_written or self.source != "front"):
            out["from"] = self.source
        for name in ("how", "suit", "choice", "reason"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        if self.deltas is not None:
            out["deltas"] = list(self.deltas)
        return out
