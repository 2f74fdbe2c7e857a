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

An entry behind the row (another process changed the room since) may be brought forward
instead of restored: ``advance(match, its step)`` returns it at the row's step, or None when
it can't (then the match is restored). It runs on the entry taken out of the cache, so no
reader sees it half-way.

>>> cache = LiveMatches(size=2)
>>> cache.keep("a", 3, "match a")
>>> cache.read("a", 3, lambda: "restored", str.upper)
'MATCH A'
>>> cache.read("a", 4, lambda: "restored", str.upper)  # the row moved on elsewhere
'RESTORED'
>>> cache.take("a", 4, lambda: "restored again"), cache.take("a", 4, lambda: "from the row")
('restored', 'from the row')
>>> cache.keep("b", 2, "b at 2")
>>> cache.take("b", 5, lambda: "restored", advance=lambda m, step: f"{m}, moved on")
'b at 2, moved on'
>>> cache.keep("b", 2, "b at 2")
>>> cache.read("b", 5, lambda: "restored", str.upper, advance=lambda m, step: None)
'RESTORED'
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

    def __init__(self, size: int = 512, step_of: Callable[[M], int] | None = None) -> None:
        self.size = size
        # A match restored or brought forward is kept under its own step (``step_of``),
        # which may be past the one asked: the row moved on between two reads.
        self.step_of = step_of
        self._lock = threading.Lock()
        self._entries: OrderedDict[str, tuple[int, M]] = OrderedDict()

    def _fresh(self, key: str, step: int) -> M | None:
        entry = self._entries.get(key)
        if entry is None or entry[0] != step:
            return None
        self._entries.move_to_end(key)
        return entry[1]

    def _behind(self, key: str, step: int) -> tuple[int, M] | None:
        """The entry of ``key`` older than ``step``, taken out of the cache (the caller owns
        it now); an entry at ``step`` or newer stays."""
        entry = self._entries.get(key)
        if entry is None or entry[0] >= step:
            return None
        del self._entries[key]
        return entry

    def _advanced(self, behind: tuple[int, M] | None, step: int, restore: Callable[[], M],
                  advance: Callable[[M, int], M | None] | None) -> M:
        if behind is not None and advance is not None:
            moved = advance(behind[1], behind[0])
            if moved is not None:
                return moved
        return restore()

    def read(self, key: str, step: int, restore: Callable[[], M], build: Callable[[M], T],
             advance: Callable[[M, int], M | None] | None = None) -> T:
        """``build`` applied to the match at ``step``: the kept one, else one brought forward
        from an older kept one (``advance``) or restored (then kept)."""
        with self._lock:
            match = self._fresh(key, step)
            if match is not None:
                return build(match)
            behind = self._behind(key, step)
        match = self._advanced(behind, step, restore, advance)
        at = step if self.step_of is None else self.step_of(match)
        with self._lock:
            out = build(match)
            if key not in self._entries or self._entries[key][0] < at:
                self._put(key, at, match)
        return out

    def take(self, key: str, step: int, restore: Callable[[], M],
             advance: Callable[[M, int], M | None] | None = None) -> M:
        """The match at ``step`` for a change: taken out of the cache (the caller owns it
        until :meth:`keep`), brought forward from an older one (``advance``) or restored."""
        with self._lock:
            match = self._fresh(key, step)
            behind = None if match is not None else self._behind(key, step)
            self._entries.pop(key, None)
        return match if match is not None else self._advanced(behind, step, restore, advance)

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
