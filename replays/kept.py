"""Things kept per process that can't change under their key (a finished pass's rows, a
hand's index, a drawn summary): a bounded memo, oldest first out.

>>> kept: Kept[str, int] = Kept(at_most=2)
>>> kept.get_or_make("a", lambda: 1), kept.get_or_make("a", lambda: 9)
(1, 1)
>>> kept.get_or_make("b", lambda: 2), kept.get_or_make("c", lambda: 3), kept.get("a")
(2, 3, None)
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Kept(Generic[K, V]):
    """At most ``at_most`` values by key; keeping one more drops the oldest."""

    def __init__(self, at_most: int) -> None:
        self.at_most = at_most
        self._values: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        return self._values.get(key)

    def keep(self, key: K, value: V) -> V:
        self._values[key] = value
        if len(self._values) > self.at_most:
            self._values.popitem(last=False)
        return value

    def get_or_make(self, key: K, make: Callable[[], V]) -> V:
        found = self._values.get(key)
        return self.keep(key, make()) if found is None else found
