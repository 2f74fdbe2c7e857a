"""Straightforward versions of the shape tables' fast paths, as oracles for the tests.

The engine builds cost vectors with only the distinct groups, combines them one
``min`` per entry, remembers a part's needs one tile on, and takes seven pairs
once per parity. These are the plain definitions the engine once used, kept
here so every fast path is checked against them entry by entry.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.core import shapes
from games.core.shapes import INF, MAX_SETS

WIDTH = (MAX_SETS + 1) * 2  # index m * 2 + p
Vector = tuple[int, ...]


def groups_from(counts: tuple[int, ...], low: int,
                suited: bool) -> list[tuple[tuple[int, ...], int, int, int]]:
    """Every group whose lowest real tile is ``low``: (rest, sets, pairs, additions),
    every chow through ``low`` listed from each possible start (so with repeats)."""
    options: list[tuple[tuple[int, ...], int, int, int]] = []
    here = counts[low]
    for used in range(1, min(here, 3) + 1):
        rest = counts[:low] + (here - used,) + counts[low + 1 :]
        options.append((rest, 1, 0, 3 - used))
        if used <= 2:
            options.append((rest, 0, 1, 2 - used))
    if suited:
        for start in range(max(0, low - 2), min(low, 6) + 1):
            above = [t for t in range(start, start + 3) if t > low]
            for mask in range(1 << len(above)):
                rest_list = list(counts)
                rest_list[low] -= 1
                added = 2
                for bit, t in enumerate(above):
                    if mask >> bit & 1 and rest_list[t] > 0:
                        rest_list[t] -= 1
                        added -= 1
                    elif mask >> bit & 1:
                        break
                else:
                    options.append((tuple(rest_list), 1, 0, added))
    return options


def build(counts: tuple[int, ...], suited: bool, memo: dict[tuple[int, ...], Vector]) -> Vector:
    """The cost vector of a part: for m sets with (p = 1) or without the pair, the
    fewest tiles to add to some of the part's tiles to form exactly that."""
    found = memo.get(counts)
    if found is not None:
        return found
    low = next((i for i, n in enumerate(counts) if n), None)
    if low is None:
        vector = tuple(3 * m + 2 * p for m in range(MAX_SETS + 1) for p in range(2))
    else:
        best = list(build(counts[:low] + (counts[low] - 1,) + counts[low + 1 :], suited, memo))
        for rest, sets, pairs, added in groups_from(counts, low, suited):
            sub = build(rest, suited, memo)
            for m in range(MAX_SETS + 1 - sets):
                for p in range(2 - pairs):
                    cost = sub[m * 2 + p] + added
                    index = (m + sets) * 2 + p + pairs
                    if cost < best[index]:
                        best[index] = cost
        vector = tuple(best)
    memo[counts] = vector
    return vector


def combine(va: Vector, vb: Vector) -> Vector:
    """Min-plus product of two vectors."""
    out = [INF] * WIDTH
    for m1 in range(MAX_SETS + 1):
        for p1 in range(2):
            x = va[m1 * 2 + p1]
            if x >= INF:
                continue
            for m2 in range(MAX_SETS + 1 - m1):
                for p2 in range(2 - p1):
                    y = x + vb[m2 * 2 + p2]
                    index = (m1 + m2) * 2 + p1 + p2
                    if y < out[index]:
                        out[index] = y
    return tuple(min(v, INF) for v in out)


def needed_after_each(counts: Sequence[int], sets: int, void: int | None = None,
                      honours: bool = True, step: int = 1) -> tuple[int, list[int]]:
    """Tiles needed now, and with one tile more (``step`` −1: fewer) of each kind,
    each computed from scratch; ``INF`` where the tile can't be added or removed."""
    now = shapes.needed(shapes.part_ids(counts, void, honours), sets)
    out = [INF] * 34
    for kind in range(34):
        part = kind // 9 if kind < 27 else 3
        if part == void or (part == 3 and not honours) or counts[kind] + step < 0:
            continue
        changed = list(counts)
        changed[kind] += step
        out[kind] = shapes.needed(shapes.part_ids(changed, void, honours), sets)
    return now, out


def shanten_after_each(cls: Any, position: Any, counts: Sequence[int],
                       wild: int) -> tuple[int, list[int]]:
    """``Variant.shanten_after_each``, straightforwardly: shanten now and after
    drawing each kind (a wildcard kind adds a wildcard; Sichuan: the best over the
    suits that may be void, seven pairs without melds, SC-2 and SC-4.1)."""
    sets = cls.SETS - len(position.melds)
    if cls.name != "sichuan":
        now, after = needed_after_each(counts, sets, honours=bool(cls.HONOURS))
        grown = [max(n - wild - 1, -1) for n in after]
        for kind in position.wildcards:
            grown[kind] = max(now - wild - 2, -1)
        return max(now - wild - 1, -1), grown
    best_now, best_after = INF, [INF] * 34
    for void in cls._voids(position):
        now, after = needed_after_each(counts, sets, void=void, honours=False)
        best_now = min(best_now, now - 1)
        best_after = [min(b, n - 1) for b, n in zip(best_after, after, strict=True)]
        if not position.melds:
            pairs = sum(n // 2 for k, n in enumerate(counts) if k // 9 != void)
            singles = sum(n % 2 for k, n in enumerate(counts) if k // 9 != void)
            best_now = min(best_now, shapes.seven_pairs_from(pairs, singles))
            for kind in range(27):
                if kind // 9 != void:
                    odd = counts[kind] % 2  # the tile pairs a single, or starts one
                    after_pairs = shapes.seven_pairs_from(pairs + odd, singles - odd + (1 - odd))
                    best_after[kind] = min(best_after[kind], max(after_pairs, -1))
    return max(best_now, -1), [max(b, -1) for b in best_after]


def shanten_after_removing(cls: Any, position: Any, counts: Sequence[int],
                           wild: int) -> list[int]:
    """The shanten after discarding one tile of each held kind (a wildcard kind: one
    wildcard), ``INF`` for kinds not held; Sichuan the best over the suits that may be
    void (a void-suit tile leaves the rest as they were), seven pairs without melds."""
    sets = cls.SETS - len(position.melds)
    if cls.name != "sichuan":
        now, after = needed_after_each(counts, sets, honours=bool(cls.HONOURS), step=-1)
        out = [INF if not counts[k] else max(after[k] - wild - 1, -1) for k in range(34)]
        if wild:
            for kind in position.wildcards:
                out[kind] = max(now - (wild - 1) - 1, -1)
        return out
    best = [INF] * 34
    for void in cls._voids(position):
        _, after = needed_after_each(counts, sets, void=void, honours=False, step=-1)
        void_now = shapes.needed(shapes.part_ids(counts, void, False), sets)
        pairs = singles = 0
        if not position.melds:
            for kind in range(27):
                if counts[kind] and kind // 9 != void:
                    pairs += counts[kind] >> 1
                    singles += counts[kind] & 1
        for kind in range(27):
            if not counts[kind]:
                continue
            in_void = kind // 9 == void
            value = (void_now if in_void else after[kind]) - 1
            if not position.melds:
                if in_void:
                    seven = shapes.seven_pairs_from(pairs, singles)
                else:
                    odd = counts[kind] & 1
                    seven = shapes.seven_pairs_from(pairs - (1 - odd), singles - odd + (1 - odd))
                value = min(value, seven)
            best[kind] = min(best[kind], max(value, -1))
    return best
