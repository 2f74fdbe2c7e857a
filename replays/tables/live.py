"""The matches this process has restored, kept between requests (issue 28, docs/tables.md).

Restoring a room's match replays its whole log through the engine (a millisecond or two,
more late in a match); a busy table is answered several times a second. The room's row
stays the authority: an entry is used only while its ``step`` is the row's (every change of
a match moves its step, :class:`~games.play.room_match.RoomMatch`), so another process's
answer simply makes this one's entry unused.

A change takes the entry out (:meth:`LiveMatches.take`, under the row's lock), so no other
thread of the process reads a match while it changes; it goes back only once the change is
committed (:meth:`LiveMatches.keep`, from ``transaction.on_commit``): a rolled-back change
never leaves its match behind. Readers build what they need under the cache's lock
(:meth:`LiveMatches.read`).

>>> cache = LiveMatches(size=2)
>>> cache.keep("a", 3, "match a")
>>> cache.read("a", 3, lambda: "restored", str.upper)
'MATCH A'
>>> cache.read("a", 4, lambda: "restored", str.upper)  # the row moved on elsewhere
'RESTORED'
>>> cache.take("a", 4, lambda: "restored again"), cache.take("a", 4, lambda: "from the row")
('restored', 'from the row')
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

M = TypeVar("M")
T = TypeVar("T")


class LiveMatches(Generic[M]):
    """At most ``size`` matches, the least recently used dropped first."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._entries: OrderedDict[str, tuple[int, M]] = OrderedDict()

    def _fresh(self, key: str, step: int) -> M | None:
        entry = self._entries.get(key)
        if entry is None or entry[0] != step:
            return None
        self._entries.move_to_end(key)
        return entry[1]

    def read(self, key: str, step: int, restore: Callable[[], M], build: Callable[[M], T]) -> T:
        """``build`` applied to the match at ``step``: the kept one, else a restored one
        (then kept)."""
        with self._lock:
            match = self._fresh(key, step)
            if match is not None:
                return build(match)
        match = restore()
        with self._lock:
            out = build(match)
            if key not in self._entries or self._entries[key][0] < step:
                self._put(key, step, match)
        return out

    def take(self, key: str, step: int, restore: Callable[[], M]) -> M:
        """The match at ``step`` for a change: taken out of the cache (the caller owns it
        until :meth:`keep`), or restored."""
        with self._lock:
            match = self._fresh(key, step)
            self._entries.pop(key, None)
        return match if match is not None else restore()

    def keep(self, key: str, step: int, match: M) -> None:
        """Keep ``match`` as the room's at ``step`` (a committed change)."""
        with self._lock:
            self._put(key, step, match)

    def forget(self, key: str) -> None:
        with self._lock:
            self._entries.pop(key, None)

    def _put(self, key: str, step: int, match: M) -> None:
        self._entries[key] = (step, match)
        self._entries.move_to_end(key)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)
