"""One ranking of a decision's choices (issue 27, docs/analysis.md "One ranking").

Where the values pass has priced the choices, their **value** ranks them: expected points
first (descending), ties by win chance (descending), then by the annotation's shape rank
(a win now, fewer shanten, more tiles accepted, the best wait's value). Equal keys share a
place. Shape never gives a verdict of its own beside the value: it only breaks exact ties
and is shown as the explanation. Where no choice has a value (no winning line, or no values
at all), the shape rank orders them, and whoever shows it says so. A choice the values pass
left out (a ready declaration no discard can follow, PT-5.3; one not played out) is not
ranked.

The values pass (:mod:`games.analysis.value_pass`), the replay viewer and the in-game hint
all order by :func:`value_key` and place with :func:`places`.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

K = TypeVar("K", bound=Hashable)

DIGITS = 4  # the precision the values pass stores: equal as stored is equal here


def value_key(points: float, win: float, shape_rank: int) -> tuple[float, float, int]:
    """The sort key of a priced choice: best first when sorted ascending.

    >>> sorted([value_key(0.16, 0.2, 4), value_key(0.18, 0.1, 5), value_key(0.18, 0.3, 9)])
    [(-0.18, -0.3, 9), (-0.18, -0.1, 5), (-0.16, -0.2, 4)]
    """
    return (-round(points, DIGITS), -round(win, DIGITS), shape_rank)


def places(keys: Sequence[K]) -> list[int]:
    """Each key's place (1 = best) among ``keys`` sorted best first; equal keys share one,
    and the next key takes the next place ("1, 1, 2"), as the annotation's shape ranks do.

    >>> places([(1, 0), (1, 0), (2, 0), (3, 1)])
    [1, 1, 2, 3]
    """
    out: list[int] = []
    for i, key in enumerate(keys):
        out.append(out[-1] + (key != keys[i - 1]) if i else 1)
    return out
