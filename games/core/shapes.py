"""Per-suit cost tables and shanten (RULES C-3, C-4).

A hand splits into four independent parts: three suits and the honours. For
each part, keyed by its count vector, we compute once a *cost vector*: for
``m`` = 0–5 sets with and without the pair, the fewest tiles that must be
added to some of the part's tiles to form exactly that. Combining the parts is
a min-plus product; vectors are interned so a combination is one dict lookup.

With ``k`` wildcards and ``D`` tiles needed by the real tiles, a hand of the
full size (3N+2) or one tile short (3N+1) has ``shanten = D - k - 1``: the
wildcards fill any gap, even as a fifth copy (C-4).

>>> from games.core.tiles import counts_of, parse_tiles
>>> shanten(counts_of(parse_tiles("123456789m1234p")), sets=4)
0
>>> shanten(counts_of(parse_tiles("123456789m12p5s")), sets=4, wildcards=1)
0
"""

from __future__ import annotations

import gc
import threading
import zlib
from array import array
from collections.abc import Sequence
from importlib import resources

MAX_SETS = 5
INF = 99
_WIDTH = (MAX_SETS + 1) * 2  # index m * 2 + p

Vector = tuple[int, ...]

_vectors: list[Vector] = []
_vector_ids: dict[Vector, int] = {}
# Front caches of the fixed tables below, keyed by counts (a tuple hashes faster than
# its base-5 code is computed): pure caches, emptied when they pass CACHE_LIMIT, so a
# process's memory levels off.
_suit_ids: dict[tuple[int, ...], int] = {}
_honour_ids: dict[tuple[int, ...], int] = {}
_combined: dict[tuple[int, int], int] = {}
CACHE_LIMIT = 10_000

# The tables are shared by every thread of a process (a threaded web server renders
# boards while annotating). Numbering a new vector or part is the one step that must not
# interleave: two threads taking the same number would swap their entries for good. The
# other tables map a key to the same value whoever fills them, so they need no lock.
_numbering = threading.Lock()


def _intern(vector: Vector) -> int:
    found = _vector_ids.get(vector)
    if found is None:
        with _numbering:
            found = _vector_ids.get(vector)
            if found is None:
                _vectors.append(vector)  # before the id is published: readers index it
                found = _vector_ids[vector] = len(_vectors) - 1
    return found


def tune_garbage_collector(young: int = 20_000) -> tuple[int, int, int]:
    """Settings for a worker that annotates: what is loaded by now (modules, the fixed
    tables) is frozen out of the collector's sight, and the youngest generation is
    collected after ``young`` allocations instead of 700, since the engine makes many
    short-lived containers and few cycles. Returns the previous thresholds.
    Measured by ``python -m games bench`` (``worker.gc``)."""
    previous = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(young, previous[1], previous[2])
    return previous


def _empty_vector() -> Vector:
    return tuple(3 * m + 2 * p for m in range(MAX_SETS + 1) for p in range(2))


# -- the fixed tables -----------------------------------------------------------------------
# Every suit's counts (0–4 of each of nine kinds, 5^9 of them) have one of 152 cost
# vectors, the honours' one of 83; with the void part and the impossible one, combining
# them closes on 289 vectors. The vectors, the vector id of every suit and honour count
# pattern and the id of every combination are built once by :func:`build_fixed_tables`
# (tools/build_shape_tables.py) and shipped as package data: about 2 MB in memory, the
# same from a process's first hand to its last.

TABLES_FILE = "shape_tables.bin"
_MAGIC = b"shape-tables/1\n"


def _load_fixed() -> tuple[int, array, array, array]:  # type: ignore[type-arg]
    """The shipped tables; without the file (while it is being built), empty ones: every
    vector is then built when first asked for, as correct and slower."""
    source = resources.files("games.core").joinpath(TABLES_FILE)
    if not source.is_file():
        return 0, array("H"), array("B"), array("B")
    data = zlib.decompress(source.read_bytes())
    if not data.startswith(_MAGIC):
        raise ValueError(f"games/core/{TABLES_FILE} is not a shape-tables/1 file")
    at = len(_MAGIC)
    count = int.from_bytes(data[at : at + 2], "little")
    at += 2
    for i in range(count):
        vector = tuple(data[at + i * _WIDTH : at + (i + 1) * _WIDTH])
        _vectors.append(vector)
        _vector_ids[vector] = i
    at += count * _WIDTH
    combined = array("H")
    combined.frombytes(data[at : at + 2 * count * count])
    if combined.itemsize != 2:
        raise ValueError("this platform's unsigned short is not two bytes")
    if _BIG_ENDIAN:
        combined.byteswap()
    at += 2 * count * count
    suits = array("B", data[at : at + 5**9])
    honours = array("B", data[at + 5**9 : at + 5**9 + 5**7])
    if len(honours) != 5**7:
        raise ValueError(f"games/core/{TABLES_FILE} is cut short")
    return count, combined, suits, honours


_BIG_ENDIAN = (1).to_bytes(2, "little") != array("H", [1]).tobytes()
_FIXED, _COMBINED_TABLE, _SUIT_TABLE, _HONOUR_TABLE = _load_fixed()


def build_part_table(width: int, suited: bool) -> tuple[list[int], list[Vector]]:
    """The cost vector of every part of ``width`` kinds with 0–4 of each: a list of
    vector numbers indexed by :func:`code_of` and the vectors they number. Counts are
    built in code order: every group taken from a part leaves a smaller code."""
    powers = [5**i for i in range(width)]
    vectors: list[Vector] = [_empty_vector()]
    numbers: dict[Vector, int] = {vectors[0]: 0}
    table = [0] * 5**width
    for code in range(1, 5**width):
        counts = tuple(code // power % 5 for power in powers)
        low = next(i for i, n in enumerate(counts) if n)
        best = list(vectors[table[code - powers[low]]])
        for rest, sets, _, added in _groups_from(counts, low, suited):
            sub = vectors[table[code_of(rest)]]
            if sets:
                for i in range(_WIDTH - 2):
                    if sub[i] + added < best[i + 2]:
                        best[i + 2] = sub[i] + added
            else:
                for i in range(0, _WIDTH, 2):
                    if sub[i] + added < best[i + 1]:
                        best[i + 1] = sub[i] + added
        vector = tuple(best)
        number = numbers.get(vector)
        if number is None:
            number = numbers[vector] = len(vectors)
            vectors.append(vector)
        table[code] = number
    return table, vectors


def build_fixed_tables() -> bytes:
    """The contents of the package's shape-tables file (a minute of pure Python)."""
    honour_table, honour_vectors = build_part_table(7, False)
    suit_table, suit_vectors = build_part_table(9, True)
    void = tuple(0 if i == 0 else INF for i in range(_WIDTH))
    impossible = (INF,) * _WIDTH
    vectors = [void, impossible] + sorted(set(suit_vectors + honour_vectors) - {void, impossible})
    ids = {v: i for i, v in enumerate(vectors)}
    if len(vectors) > 255:
        raise AssertionError("part vectors must number below 256 to fit a byte")
    grown = True
    while grown:  # close the vectors under combination
        grown = False
        for a in list(vectors):
            for b in list(vectors):
                product = min_plus(a, b)
                if product not in ids:
                    ids[product] = len(vectors)
                    vectors.append(product)
                    grown = True
    combined = array("H", [ids[min_plus(a, b)] for a in vectors for b in vectors])
    if _BIG_ENDIAN:
        combined.byteswap()
    body = b"".join([
        _MAGIC, len(vectors).to_bytes(2, "little"), bytes(v for vector in vectors for v in vector),
        combined.tobytes(), bytes(ids[suit_vectors[n]] for n in suit_table),
        bytes(ids[honour_vectors[n]] for n in honour_table)])
    return zlib.compress(body, 9)


VOID_ID = _intern(tuple(0 if i == 0 else INF for i in range(_WIDTH)))
"""A part that may form nothing (a Sichuan void suit, absent honours)."""


def _groups_from(counts: tuple[int, ...], low: int,
                 suited: bool) -> list[tuple[tuple[int, ...], int, int, int]]:
    """Every distinct group whose lowest real tile is ``low``: (rest, sets, pairs,
    additions). A chow holding only ``low`` is the pung of one real tile (the same rest
    and additions), and a chow starting below ``low`` is one starting at it."""
    here = counts[low]
    options = []
    for used in range(1, min(here, 3) + 1):
        rest = counts[:low] + (here - used,) + counts[low + 1 :]
        options.append((rest, 1, 0, 3 - used))
        if used <= 2:
            options.append((rest, 0, 1, 2 - used))
    if suited and low <= 7:
        row = list(counts)
        row[low] -= 1
        if row[low + 1]:
            row[low + 1] -= 1
            options.append((tuple(row), 1, 0, 1))
            if low <= 6 and row[low + 2]:
                row[low + 2] -= 1
                options.append((tuple(row), 1, 0, 0))
                row[low + 2] += 1
            row[low + 1] += 1
        if low <= 6 and row[low + 2]:
            row[low + 2] -= 1
            options.append((tuple(row), 1, 0, 1))
    return options


def _build(counts: tuple[int, ...], suited: bool, memo: dict[tuple[int, ...], Vector]) -> Vector:
    """The cost vector of a part's counts. A group is a set (its cost moves one set
    up) or the pair (from no pair to the pair), so each updates a fixed run of entries."""
    found = memo.get(counts)
    if found is not None:
        return found
    low = next((i for i, n in enumerate(counts) if n), None)
    if low is None:
        vector = _empty_vector()
    else:
        best = list(_build(counts[:low] + (counts[low] - 1,) + counts[low + 1 :], suited, memo))
        for rest, sets, _, added in _groups_from(counts, low, suited):
            sub = _build(rest, suited, memo)
            if sets:  # m sets, p pairs → m + 1 sets, p pairs
                for i in range(_WIDTH - 2):
                    cost = sub[i] + added
                    if cost < best[i + 2]:
                        best[i + 2] = cost
            else:  # m sets, no pair → m sets and the pair
                for i in range(0, _WIDTH, 2):
                    cost = sub[i] + added
                    if cost < best[i + 1]:
                        best[i + 1] = cost
        vector = tuple(best)
    memo[counts] = vector
    return vector


# Built only for counts the fixed tables don't hold (a fifth copy, asked when a tile is
# added to a kind held four times); emptied like the front caches.
_suit_memo: dict[tuple[int, ...], Vector] = {}
_honour_memo: dict[tuple[int, ...], Vector] = {}


def code_of(counts: Sequence[int]) -> int:
    """A part's counts (0–4 each) as a base-5 number, the first count lowest.

    >>> code_of((1, 0, 2)), code_of((0,) * 9)
    (51, 0)
    """
    code = 0
    for n in reversed(counts):
        code = code * 5 + n
    return code


def suit_id(counts: tuple[int, ...]) -> int:
    """The interned cost vector of a suit's nine counts."""
    found = _suit_ids.get(counts)
    if found is None:
        if len(_suit_ids) > CACHE_LIMIT:
            _suit_ids.clear()
        if _FIXED and max(counts) <= 4:
            found = _SUIT_TABLE[code_of(counts)]
        else:
            found = _intern(_build(counts, True, _bounded(_suit_memo)))
        _suit_ids[counts] = found
    return found


def honour_id(counts: tuple[int, ...]) -> int:
    """The interned cost vector of the seven honour counts (no chows)."""
    found = _honour_ids.get(counts)
    if found is None:
        if len(_honour_ids) > CACHE_LIMIT:
            _honour_ids.clear()
        if _FIXED and max(counts) <= 4:
            found = _HONOUR_TABLE[code_of(counts)]
        else:
            found = _intern(_build(counts, False, _bounded(_honour_memo)))
        _honour_ids[counts] = found
    return found


def _bounded(memo: dict[tuple[int, ...], Vector]) -> dict[tuple[int, ...], Vector]:
    if len(memo) > CACHE_LIMIT:
        memo.clear()
    return memo


# Per output index of a combination, the (index in a, index in b) pairs adding up to it.
_PRODUCT = tuple(
    tuple((m1 * 2 + p1, m2 * 2 + p2)
          for m1 in range(MAX_SETS + 1) for p1 in range(2)
          for m2 in range(MAX_SETS + 1 - m1) for p2 in range(2 - p1)
          if (m1 + m2) * 2 + p1 + p2 == index)
    for index in range(_WIDTH))


def combine(a: int, b: int) -> int:
    """Min-plus product of two interned vectors (one ``min`` per output index)."""
    found = _combined.get((a, b))
    if found is None:
        if len(_combined) > CACHE_LIMIT:
            _combined.clear()
        if a < _FIXED and b < _FIXED:
            found = _COMBINED_TABLE[a * _FIXED + b]
        else:
            found = _intern(min_plus(_vectors[a], _vectors[b]))
        _combined[(a, b)] = found
    return found


def min_plus(va: Vector, vb: Vector) -> Vector:
    """The cost vector of two parts together: for each (sets, pair), the cheapest split."""
    out = [min([va[i] + vb[j] for i, j in pairs]) for pairs in _PRODUCT]
    return tuple([v if v < INF else INF for v in out])


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

    >>> from games.core.tiles import counts_of, parse_tiles
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


_NO_PART = _intern((INF,) * _WIDTH)
"""A part that can't be: one tile fewer of a kind it doesn't hold."""

# A part's number is its counts in base 6 (a count of five can be asked about), the
# honours' offset past every suit's: a function of the counts, so the caches keyed by it
# may be emptied at any time. Keyed by numbers, not tuples: they live long, and the
# garbage collector walks through tuples (not numbers) until it finds them untrackable.
_HONOUR_NUMBERS = 6**9
_parts: dict[tuple[int, ...], tuple[int, int]] = {}  # counts: (number, vector id)
_stepped: dict[int, tuple[int, ...]] = {}  # part number * 2 + (step > 0)
_part_needs: dict[int, tuple[int, ...]] = {}  # that << 40 | other << 8 | index


def _part_id(counts: tuple[int, ...]) -> int:
    """:func:`suit_id` of nine counts, :func:`honour_id` of seven."""
    return suit_id(counts) if len(counts) == 9 else honour_id(counts)


def _part_entry(counts: tuple[int, ...]) -> tuple[int, int]:
    """A part's number and vector id (a suit's nine counts, the honours' seven)."""
    found = _parts.get(counts)
    if found is None:
        if len(_parts) > CACHE_LIMIT:
            _parts.clear()
        number = 0
        for n in reversed(counts):
            number = number * 6 + n
        if len(counts) == 7:
            number += _HONOUR_NUMBERS
        found = _parts[counts] = (number, _part_id(counts))
    return found


def _counts_of(number: int) -> tuple[int, ...]:
    """The counts a part number stands for."""
    size = 9
    if number >= _HONOUR_NUMBERS:
        number -= _HONOUR_NUMBERS
        size = 7
    counts = []
    for _ in range(size):
        number, n = divmod(number, 6)
        counts.append(n)
    return tuple(counts)


def _stepped_ids(number: int, step: int) -> tuple[int, ...]:
    """A part's vector ids with one tile more (``step`` −1: fewer) of each of its kinds."""
    found = _stepped.get(number * 2 + (step > 0))
    if found is None:
        if len(_stepped) > CACHE_LIMIT:
            _stepped.clear()
        row = list(_counts_of(number))
        ids = []
        for i in range(len(row)):
            if row[i] + step < 0:
                ids.append(_NO_PART)
                continue
            row[i] += step
            ids.append(_part_id(tuple(row)))
            row[i] -= step
        found = _stepped[number * 2 + (step > 0)] = tuple(ids)
    return found


def _needs_of_part(number: int, step: int, other: int, index: int) -> tuple[int, ...]:
    """Tiles needed after one tile more (or fewer) of each kind of a part, the other
    parts combined being ``other``; remembered (hands often share the combination)."""
    key = (number * 2 + (step > 0)) << 40 | other << 8 | index
    found = _part_needs.get(key)
    if found is None:
        if len(_part_needs) > CACHE_LIMIT:
            _part_needs.clear()
        stepped, vectors, combined = _stepped_ids(number, step), _vectors, _combined
        try:
            found = tuple([vectors[combined[part, other]][index] for part in stepped])
        except KeyError:  # a combination not made yet
            found = tuple([vectors[combine(part, other)][index] for part in stepped])
        _part_needs[key] = found
    return found


def _parts_and_others(counts: Sequence[int], void: int | None,
                      honours: bool) -> tuple[list[int], tuple[int, int, int, int], int]:
    """The four parts' numbers, for each part the vector id of the other three combined,
    and the id of all four combined (a void suit or absent honours form nothing)."""
    known = _parts
    parts, ids = [], []
    for key in (tuple(counts[0:9]), tuple(counts[9:18]), tuple(counts[18:27]),
                tuple(counts[27:34])):
        entry = known.get(key)
        if entry is None:
            entry = _part_entry(key)
        parts.append(entry[0])
        ids.append(entry[1])
    a = VOID_ID if void == 0 else ids[0]
    b = VOID_ID if void == 1 else ids[1]
    c = VOID_ID if void == 2 else ids[2]
    d = ids[3] if honours else VOID_ID
    combined = _combined
    try:
        ab, cd = combined[a, b], combined[c, d]
        others = (combined[b, cd], combined[a, cd], combined[ab, d], combined[ab, c])
        total = combined[ab, cd]
    except KeyError:  # a combination not made yet
        ab, cd = combine(a, b), combine(c, d)
        others = (combine(b, cd), combine(a, cd), combine(ab, d), combine(ab, c))
        total = combine(ab, cd)
    return parts, others, total


_NOTHING = ((INF,) * 9, (INF,) * 7)


def needed_after_each(
    counts: Sequence[int], sets: int, void: int | None = None, honours: bool = True,
    step: int = 1,
) -> tuple[int, list[int]]:
    """Tiles needed now, and after adding (``step`` −1: removing) one tile of each kind.

    Only that tile's part changes, so each kind is one lookup and one combination
    with the other three parts combined; a part's needs one tile on, given the
    other three, are remembered (hands often share them). Kinds that can't be
    added (void suit, absent honours) or removed (not held) get ``INF``.

    >>> from games.core.tiles import counts_of, parse_tiles
    >>> now, after = needed_after_each(counts_of(parse_tiles("123456789m1234p")), 4)
    >>> now, after[9], after[12], after[27]  # as is, with 1p, 4p, E
    (1, 0, 0, 1)
    """
    parts, others, total = _parts_and_others(counts, void, honours)
    if step not in (1, -1):
        raise ValueError("step is 1 or -1")
    index = sets * 2 + 1
    needs = _part_needs
    out: list[int] = []
    for part in range(4):
        if part == void or (part == 3 and not honours):
            out.extend(_NOTHING[part == 3])
            continue
        found = needs.get((parts[part] * 2 + (step > 0)) << 40 | others[part] << 8 | index)
        out.extend(_needs_of_part(parts[part], step, others[part], index)
                   if found is None else found)
    return _vectors[total][index], out


_neighbours: dict[int, int] = {}  # (part number * 2 + (step > 0)) << 4 | index in the part


def _neighbour(number: int, step: int, index: int) -> int:
    """A part's vector id with one tile more (or fewer) of its ``index``-th kind."""
    stepped = _stepped.get(number * 2 + (step > 0))
    if stepped is not None:
        return stepped[index]
    counts = _counts_of(number)
    if counts[index] + step < 0:
        return _NO_PART
    row = list(counts)
    row[index] += step
    return _part_id(tuple(row))


class OneTileOn:
    """Tiles needed for a hand, and with one tile more (``step`` 1) or fewer (−1) of a
    kind, asked kind by kind: entry by entry what :func:`needed_after_each` gives,
    computing only the kinds asked about (a counterfactual asks about few).

    >>> from games.core.tiles import counts_of, parse_tiles
    >>> counts = counts_of(parse_tiles("123456789m1234p"))
    >>> needs = OneTileOn(counts, 4)
    >>> [needs.after(k, -1) for k in range(34)] == needed_after_each(counts, 4, step=-1)[1]
    True
    """

    __slots__ = ("needed", "_parts", "_others", "_index", "_void", "_honours")

    def __init__(self, counts: Sequence[int], sets: int, void: int | None = None,
                 honours: bool = True) -> None:
        parts, self._others, total = _parts_and_others(counts, void, honours)
        self._parts, self._index, self._void, self._honours = parts, sets * 2 + 1, void, honours
        self.needed = _vectors[total][self._index]  # tiles needed now

    def after(self, kind: int, step: int) -> int:
        part = kind // 9 if kind < 27 else 3
        if part == self._void or (part == 3 and not self._honours):
            return INF
        number = self._parts[part]
        key = (number * 2 + (step > 0)) << 4 | (kind - part * 9)
        found = _neighbours.get(key)
        if found is None:
            if len(_neighbours) > CACHE_LIMIT:
                _neighbours.clear()
            found = _neighbours[key] = _neighbour(number, step, kind - part * 9)
        pair = _combined.get((found, self._others[part]))
        if pair is None:
            pair = combine(found, self._others[part])
        return _vectors[pair][self._index]


def seven_pairs_shanten(counts: Sequence[int], void: int | None = None) -> int:
    """Seven pairs (SC-4.1), where four identical tiles count as two pairs.

    >>> from games.core.tiles import counts_of, parse_tiles
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
