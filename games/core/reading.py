"""Readings: the ways a complete hand splits into sets and a pair (C-3, C-4).

Only hands already known to be complete are read, so the search is small. Each
of the four parts (three suits, honours) is read on its own, with wildcards
filling gaps; readings that score alike are merged into one *summary*, so the
scorer compares a handful of combinations rather than every arrangement.
Wildcards left over after the parts form sets (and maybe the pair) on their
own; the scorer decides which kind they stand for.

>>> from games.core.tiles import counts_of, parse_tiles
>>> sorted(str(r) for r in readings(counts_of(parse_tiles("11122233344455m")), 0, 4))
['111m 222m 333m 444m 55m', '111m 234m 345m 345m 22m']

(``123m 123m 123m 444m 55m`` scores like the second reading, so only one is kept.)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from games.core.tiles import TILES, Tile

GroupType = Literal["pung", "chow", "pair"]


@dataclass(frozen=True, slots=True)
class Group:
    """A concealed set or the pair; ``wilds`` of its tiles are wildcards."""

    type: GroupType
    first: Tile
    wilds: int = 0

    @property
    def tiles(self) -> list[Tile]:
        if self.type == "chow":
            return [TILES[self.first.kind + i] for i in range(3)]
        return [self.first] * (2 if self.type == "pair" else 3)

    def __str__(self) -> str:
        return _group_text(self.type, self.first.number, self.first.suit)


@dataclass(frozen=True, slots=True)
class Summary:
    """What scoring needs to know of one part's reading."""

    sets: int
    pairs: int
    wilds: int
    all_pungs: bool
    all_terminal: bool  # every group holds a 1 or a 9 (SC-5.4)
    # Local indices of honour pungs, sorted, one entry per pung: two pungs of one kind
    # (possible with wildcards, C-4) each earn their row (JX-6 Reading). Suited parts: empty.
    pung_kinds: tuple[int, ...]

    def plus(self, other: Summary) -> Summary:
        return Summary(
            self.sets + other.sets,
            self.pairs + other.pairs,
            self.wilds + other.wilds,
            self.all_pungs and other.all_pungs,
            self.all_terminal and other.all_terminal,
            tuple(sorted(self.pung_kinds + other.pung_kinds)),
        )


EMPTY = Summary(0, 0, 0, True, True, ())
LocalGroup = tuple[GroupType, int, int]  # type, local index, wilds
PartReadings = tuple[tuple[Summary, tuple[LocalGroup, ...]], ...]


def _group_summary(kind: GroupType, low: int, wilds: int, suited: bool) -> Summary:
    if kind == "chow":
        terminal = low in (0, 6)
    else:
        terminal = not suited or low in (0, 8)
    return Summary(
        0 if kind == "pair" else 1,
        1 if kind == "pair" else 0,
        wilds,
        kind != "chow",
        terminal,
        # Only honour pungs score by kind (JX-6.1–6.4); suited pungs stay anonymous so
        # that readings alike for scoring merge.
        (low,) if kind == "pung" and not suited else (),
    )


def _first_groups(
    counts: tuple[int, ...], low: int, suited: bool, budget: int
) -> Iterator[tuple[tuple[int, ...], LocalGroup]]:
    """Every group whose lowest real tile is ``low``, with what it leaves."""
    here = counts[low]
    for used in range(1, min(here, 3) + 1):
        rest = counts[:low] + (here - used,) + counts[low + 1 :]
        if 3 - used <= budget:
            yield rest, ("pung", low, 3 - used)
        if used <= 2 and 2 - used <= budget:
            yield rest, ("pair", low, 2 - used)
    if not suited:
        return
    for start in range(max(0, low - 2), min(low, 6) + 1):
        above = [t for t in range(start, start + 3) if t > low]
        for mask in range(1 << len(above)):
            rest_list = list(counts)
            rest_list[low] -= 1
            wilds = 2
            possible = True
            for bit, t in enumerate(above):
                if mask >> bit & 1:
                    if rest_list[t] == 0:
                        possible = False
                        break
                    rest_list[t] -= 1
                    wilds -= 1
            if possible and wilds <= budget:
                yield tuple(rest_list), ("chow", start, wilds)


@lru_cache(maxsize=20_000)  # bounds a worker's memory (docs/analysis.md)
def part_readings(counts: tuple[int, ...], suited: bool, budget: int) -> PartReadings:
    """Readings of one part using every real tile, with at most ``budget`` wildcards.

    One representative per distinct :class:`Summary`.
    """
    low = next((i for i, n in enumerate(counts) if n), None)
    if low is None:
        return ((EMPTY, ()),)
    found: dict[Summary, tuple[LocalGroup, ...]] = {}
    for rest, group in _first_groups(counts, low, suited, budget):
        head = _group_summary(group[0], group[1], group[2], suited)
        for tail, groups in part_readings(rest, suited, budget - group[2]):
            total = head.plus(tail)
            if total.pairs <= 1 and total.sets <= 5 and total not in found:
                found[total] = (group, *groups)
    return tuple(found.items())


@dataclass(frozen=True, slots=True)
class Reading:
    """A complete hand read as sets and a pair (melds not included).

    ``parts`` are the summaries of the three suits and the honours;
    ``free_sets``/``free_pair`` are groups made of wildcards alone, whose kind
    the scorer chooses (``free_kinds``, one per free group, sets first).
    """

    local: tuple[tuple[LocalGroup, ...], ...]  # per part: (type, index in part, wilds)
    parts: tuple[Summary, Summary, Summary, Summary]
    free_sets: int
    free_pair: bool
    free_kinds: tuple[Tile, ...] = ()
    seven_pairs: bool = False

    def with_free_kinds(self, kinds: Sequence[Tile]) -> Reading:
        return Reading(self.local, self.parts, self.free_sets, self.free_pair, tuple(kinds),
                       self.seven_pairs)

    @property
    def groups(self) -> tuple[Group, ...]:
        """The groups holding real tiles (built on demand: readings are many, shown few)."""
        return tuple(
            Group(kind, TILES[part * 9 + low], wilds)
            for part, local in enumerate(self.local)
            for kind, low, wilds in local
        )

    @property
    def all_groups(self) -> list[Group]:
        """Groups including the wildcard-only ones, with their chosen kinds."""
        groups = list(self.groups)
        kinds = list(self.free_kinds) or [TILES[0]] * (self.free_sets + self.free_pair)
        for index, kind in enumerate(kinds):
            pair = index >= self.free_sets
            groups.append(Group("pair" if pair else "pung", kind, 2 if pair else 3))
        return groups

    def __str__(self) -> str:
        # Built from the local groups directly: this runs once per scored win.
        items: list[tuple[bool, int, str]] = []
        for part, local in enumerate(self.local):
            suit = "mpsz"[part]
            for kind, low, _ in local:
                items.append((kind == "pair", part * 9 + low, _group_text(kind, low + 1, suit)))
        free = list(self.free_kinds) or [TILES[0]] * (self.free_sets + self.free_pair)
        for index, tile in enumerate(free):
            free_type: GroupType = "pair" if index >= self.free_sets else "pung"
            items.append((free_type == "pair", tile.kind,
                          _group_text(free_type, tile.number, tile.suit)))
        items.sort()
        return " ".join(text for _, _, text in items)


def _group_text(kind: GroupType, number: int, suit: str) -> str:
    if kind == "chow":
        return f"{number}{number + 1}{number + 2}{suit}"
    return f"{number}" * (2 if kind == "pair" else 3) + suit


def readings(
    counts: Sequence[int], wildcards: int, sets: int, void: int | None = None,
    limit: int = 0,
) -> list[Reading]:
    """Every distinct-scoring reading of ``counts`` + ``wildcards`` as ``sets`` sets + pair.

    ``limit`` > 0 stops after that many (for variants whose value doesn't depend on
    the reading).
    """
    if sum(counts) + wildcards != 3 * sets + 2:
        return []
    per_part: list[PartReadings] = []
    for part in range(4):
        key = tuple(counts[part * 9 : part * 9 + (9 if part < 3 else 7)])
        if part == void and any(key):
            return []
        per_part.append(part_readings(key, part < 3, wildcards))
    found: list[Reading] = []
    for s0, g0 in per_part[0]:
        for s1, g1 in per_part[1]:
            sets1, pairs1, wilds1 = s0.sets + s1.sets, s0.pairs + s1.pairs, s0.wilds + s1.wilds
            if wilds1 > wildcards or pairs1 > 1 or sets1 > sets:
                continue
            for s2, g2 in per_part[2]:
                sets2, pairs2, wilds2 = sets1 + s2.sets, pairs1 + s2.pairs, wilds1 + s2.wilds
                if wilds2 > wildcards or pairs2 > 1 or sets2 > sets:
                    continue
                for s3, g3 in per_part[3]:
                    left = wildcards - wilds2 - s3.wilds
                    free_sets = sets - sets2 - s3.sets
                    free_pair = 1 - pairs2 - s3.pairs
                    if left < 0 or free_sets < 0 or free_pair < 0:
                        continue
                    if left != 3 * free_sets + 2 * free_pair:
                        continue
                    found.append(Reading((g0, g1, g2, g3), (s0, s1, s2, s3), free_sets,
                                         bool(free_pair)))
                    if len(found) == limit:
                        return found
    return found


def seven_pairs_reading(counts: Sequence[int]) -> Reading | None:
    """Seven pairs (SC-4.1; four identical tiles count as two pairs), no wildcards."""
    if sum(counts) != 14 or any(n % 2 for n in counts):
        return None
    local: tuple[tuple[LocalGroup, ...], ...] = tuple(
        tuple(("pair", low, 0) for low, n in enumerate(counts[part * 9 : part * 9 + 9])
              for _ in range(n // 2))
        for part in range(4)
    )
    return Reading(local, (EMPTY, EMPTY, EMPTY, EMPTY), 0, False, seven_pairs=True)
