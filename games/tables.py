"""Per-suit cost tables and shanten (RULES C-3, C-4).

A hand splits into four independent parts: three suits and the honours. For
each part, keyed by its count vector, we compute once a *cost vector*: for
``m`` = 0–5 sets with and without the pair, the fewest tiles that must be
added to some of the part's tiles to form exactly that. Combining the parts is
a min-plus product; vectors are interned so a combination is one dict lookup.

With ``k`` wildcards and ``D`` tiles needed by the real tiles, a hand of the
full size (3N+2) or one tile short (3N+1) has ``shanten = D - k - 1``: the
wildcards fill any gap, even as a fifth copy (C-4).

>>> from games.tiles import counts_of, parse_tiles
>>> shanten(counts_of(parse_tiles("123456789m1234p")), sets=4)
0
>>> shanten(counts_of(parse_tiles("123456789m12p5s")), sets=4, wildcards=1)
0
"""

from __future__ import annotations

from collections.abc import Sequence

MAX_SETS = 5
INF = 99
_WIDTH = (MAX_SETS + 1) * 2  # index m * 2 + p

Vector = tuple[int, ...]

_vectors: list[Vector] = []
_vector_ids: dict[Vector, int] = {}
_suit_ids: dict[tuple[int, ...], int] = {}
_honour_ids: dict[tuple[int, ...], int] = {}
_combined: dict[tuple[int, int], int] = {}


def _intern(vector: Vector) -> int:
    found = _vector_ids.get(vector)
    if found is None:
        found = _vector_ids[vector] = len(_vectors)
        _vectors.append(vector)
    return found


def _empty_vector() -> Vector:
    return tuple(3 * m + 2 * p for m in range(MAX_SETS + 1) for p in range(2))


VOID_ID = _intern(tuple(0 if i == 0 else INF for i in range(_WIDTH)))
"""A part that may form nothing (a Sichuan void suit, absent honours)."""


def _groups_from(counts: tuple[int, ...], low: int, suited: bool) -> list[tuple[tuple[int, ...], int, int, int]]:
    """Every group whose lowest real tile is ``low``: (rest, sets, pairs, additions)."""
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


def _build(counts: tuple[int, ...], suited: bool, memo: dict[tuple[int, ...], Vector]) -> Vector:
    found = memo.get(counts)
    if found is not None:
        return found
    low = next((i for i, n in enumerate(counts) if n), None)
    if low is None:
        vector = _empty_vector()
    else:
        best = list(_build(counts[:low] + (counts[low] - 1,) + counts[low + 1 :], suited, memo))
        for rest, sets, pairs, added in _groups_from(counts, low, suited):
            sub = _build(rest, suited, memo)
            for m in range(MAX_SETS + 1 - sets):
                for p in range(2 - pairs):
                    cost = sub[m * 2 + p] + added
                    index = (m + sets) * 2 + p + pairs
                    if cost < best[index]:
                        best[index] = cost
        vector = tuple(best)
    memo[counts] = vector
    return vector


_suit_memo: dict[tuple[int, ...], Vector] = {}
_honour_memo: dict[tuple[int, ...], Vector] = {}


def suit_id(counts: tuple[int, ...]) -> int:
    """The interned cost vector of a suit's nine counts."""
    found = _suit_ids.get(counts)
    if found is None:
        found = _suit_ids[counts] = _intern(_build(counts, True, _suit_memo))
    return found


def honour_id(counts: tuple[int, ...]) -> int:
    """The interned cost vector of the seven honour counts (no chows)."""
    found = _honour_ids.get(counts)
    if found is None:
        found = _honour_ids[counts] = _intern(_build(counts, False, _honour_memo))
    return found


def combine(a: int, b: int) -> int:
    """Min-plus product of two interned vectors."""
    found = _combined.get((a, b))
    if found is None:
        va, vb = _vectors[a], _vectors[b]
        out = [INF] * _WIDTH
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
        found = _combined[(a, b)] = _intern(tuple(min(v, INF) for v in out))
    return found


def vector(vector_id: int) -> Vector:
    return _vectors[vector_id]


def part_ids(counts: Sequence[int], void: int | None = None, honours: bool = True) -> list[int]:
    """The four parts' vector ids; ``void`` (0–2) is a suit that may form nothing."""
    ids = [
        VOID_ID if suit == void else suit_id(tuple(counts[suit * 9 : suit * 9 + 9]))
        for suit in range(3)
    ]
    ids.append(honour_id(tuple(counts[27:34])) if honours else VOID_ID)
    return ids


def needed(ids: Sequence[int], sets: int) -> int:
    """Tiles to add for ``sets`` sets and a pair, given the four part ids."""
    total = combine(combine(combine(ids[0], ids[1]), ids[2]), ids[3])
    return _vectors[total][sets * 2 + 1]


def shanten(
    counts: Sequence[int],
    sets: int,
    wildcards: int = 0,
    void: int | None = None,
    honours: bool = True,
) -> int:
    """Regular-shape shanten: −1 complete, 0 ready (C-3, C-4).

    ``counts`` are the real (non-wildcard) concealed tiles, ``sets`` the sets
    still to form from them (4 or 5 minus declared melds).
    """
    if void is None and honours:
        return max(_needed_plain(counts, sets) - wildcards - 1, -1)
    return max(needed(part_ids(counts, void, honours), sets) - wildcards - 1, -1)


def _needed_plain(counts: Sequence[int], sets: int) -> int:
    # The hot path of shanten: four lookups and three combinations, no lists.
    suits, honour_ids, combined = _suit_ids, _honour_ids, _combined
    try:
        a = suits[tuple(counts[0:9])]
    except KeyError:
        a = suit_id(tuple(counts[0:9]))
    try:
        b = suits[tuple(counts[9:18])]
    except KeyError:
        b = suit_id(tuple(counts[9:18]))
    try:
        c = suits[tuple(counts[18:27])]
    except KeyError:
        c = suit_id(tuple(counts[18:27]))
    try:
        d = honour_ids[tuple(counts[27:34])]
    except KeyError:
        d = honour_id(tuple(counts[27:34]))
    try:
        ab = combined[a, b]
    except KeyError:
        ab = combine(a, b)
    try:
        cd = combined[c, d]
    except KeyError:
        cd = combine(c, d)
    try:
        total = combined[ab, cd]
    except KeyError:
        total = combine(ab, cd)
    return _vectors[total][sets * 2 + 1]


def needed_two_suits(counts: Sequence[int], sets: int) -> tuple[int, int, int]:
    """Tiles needed when suit 0, 1 or 2 is void and there are no honours (SC-2).

    >>> from games.tiles import counts_of, parse_tiles
    >>> needed_two_suits(counts_of(parse_tiles("111234567m7899p1s")), 4)
    (9, 4, 1)
    """
    try:
        a = _suit_ids[tuple(counts[0:9])]
    except KeyError:
        a = suit_id(tuple(counts[0:9]))
    try:
        b = _suit_ids[tuple(counts[9:18])]
    except KeyError:
        b = suit_id(tuple(counts[9:18]))
    try:
        c = _suit_ids[tuple(counts[18:27])]
    except KeyError:
        c = suit_id(tuple(counts[18:27]))
    index = sets * 2 + 1
    return (_vectors[combine(b, c)][index], _vectors[combine(a, c)][index],
            _vectors[combine(a, b)][index])


def needed_after_each(
    counts: Sequence[int], sets: int, void: int | None = None, honours: bool = True,
    step: int = 1,
) -> tuple[int, list[int]]:
    """Tiles needed now, and after adding (``step`` −1: removing) one tile of each kind.

    Only the added tile's part changes, so each kind costs one lookup and one
    combination with the other three parts, precombined. Kinds that can't be
    added (void suit, absent honours) get ``INF``.
    """
    ids = part_ids(counts, void, honours)
    ab, cd = combine(ids[0], ids[1]), combine(ids[2], ids[3])
    others = (combine(ids[1], cd), combine(ids[0], cd), combine(ab, ids[3]), combine(ab, ids[2]))
    index = sets * 2 + 1
    vectors, combined = _vectors, _combined
    now = vectors[combine(ab, cd)][index]
    out = [INF] * 34
    for part in range(4 if honours else 3):
        if part == void:
            continue
        width, lookup, known = (9, suit_id, _suit_ids) if part < 3 else (7, honour_id, _honour_ids)
        key = list(counts[part * 9 : part * 9 + width])
        other = others[part]
        for i in range(width):
            if key[i] + step < 0:
                continue
            key[i] += step
            grown = tuple(key)
            key[i] -= step
            found = known.get(grown)
            if found is None:
                found = lookup(grown)
            pair = combined.get((found, other))
            if pair is None:
                pair = combine(found, other)
            out[part * 9 + i] = vectors[pair][index]
    return now, out


def seven_pairs_shanten(counts: Sequence[int], void: int | None = None) -> int:
    """Seven pairs (SC-4.1), where four identical tiles count as two pairs.

    >>> from games.tiles import counts_of, parse_tiles
    >>> seven_pairs_shanten(counts_of(parse_tiles("1111223344556m")))
    0
    """
    pairs = singles = 0
    for kind, n in enumerate(counts):
        if n and (void is None or kind // 9 != void):
            pairs += n // 2
            singles += n % 2
    return seven_pairs_from(pairs, singles)


def seven_pairs_from(pairs: int, singles: int) -> int:
    """Seven-pairs shanten from the pairs held and the kinds held an odd number of times.

    A single becomes a pair with one tile; a pair of a kind not held needs two
    (so a hand short of singles, e.g. after void-suit tiles go, is further away).

    >>> seven_pairs_from(6, 1), seven_pairs_from(3, 1)
    (0, 6)
    """
    missing = max(7 - pairs, 0)
    from_singles = min(singles, missing)
    return from_singles + 2 * (missing - from_singles) - 1


def is_complete_shape(
    counts: Sequence[int], sets: int, wildcards: int = 0, void: int | None = None,
    honours: bool = True,
) -> bool:
    """Whether real tiles + wildcards form ``sets`` sets and a pair exactly."""
    size = sum(counts) + wildcards
    if size != 3 * sets + 2:
        return False
    return needed(part_ids(counts, void, honours), sets) <= wildcards
