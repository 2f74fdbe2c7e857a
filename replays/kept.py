"""Things kept per process that can't change under their key (a finished pass's rows, a
hand's index, a drawn summary): a bounded memo, oldest first out; and words kept per
language (:func:`in_each_language`).

>>> kept: Kept[str, int] = Kept(at_most=2)
>>> kept.get_or_make("a", lambda: 1), kept.get_or_make("a", lambda: 9)
(1, 1)
>>> kept.get_or_make("b", lambda: 2), kept.get_or_make("c", lambda: 3), kept.get("a")
(2, 3, None)
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import lru_cache, wraps
from typing import Any, Generic, ParamSpec, TypeVar

from django.utils.translation import get_language

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
P = ParamSpec("P")


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


def in_each_language(at_most: int) -> Callable[[Callable[P, V]], Callable[P, V]]:
    """Keep what a function of translated words gives, per reader's language and arguments.

    A replay step shows a few hundred tiles and fixed words: looking each up with gettext
    every time was a good part of its cost. The function's translations use the active
    language, which is the cache's key beside the arguments (at most ``at_most`` kept).

    >>> from django.utils.translation import gettext, override
    >>> @in_each_language(at_most=4)
    ... def pass_word() -> str:
    ...     return gettext("pass")
    >>> with override("en"):
    ...     english = pass_word()
    >>> with override("zh-hans"):
    ...     chinese = pass_word()
    >>> english, chinese
    ('pass', '不要')
    """
    def keep_per_language(function: Callable[P, V]) -> Callable[P, V]:
        @lru_cache(maxsize=at_most)
        def kept(language: str, args: tuple[Any, ...], kwargs: tuple[Any, ...]) -> V:
            return function(*args, **dict(kwargs))

        @wraps(function)
        def in_language(*args: P.args, **kwargs: P.kwargs) -> V:
            return kept(get_language() or "", args, tuple(sorted(kwargs.items())))

        return in_language

    return keep_per_language
