"""Oracle tests: the engine's hand reading against independent references.

- C-3, wildcard-free: ``shapes.shanten``/``is_complete_shape`` against the ``mahjong``
  package's regular-hand shanten and ``Agari`` on random and built hands.
- C-4, wildcards: against a brute force that substitutes every multiset of kinds
  for the wildcards (a fifth copy allowed), and against a simple recursive decomposer.
- PT-5.1: Putian's 17-tile shape (5 sets + a pair, golds wild) and ``Putian.score``
  against the same decomposer; 16/17-tile shanten against a brute force over
  tile replacements (which also checks the void suit of SC-2).
- SC-4.1: seven pairs (four identical tiles count as two pairs) against an
  independent maximum-overlap computation, and Sichuan's scoring of such hands.

Every random sample uses a fixed seed, so a failure reproduces exactly; each
failure message lists the first disagreeing hands in tile notation.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Callable, Sequence

from mahjong.agari import Agari
from mahjong.shanten import Shanten

from games.core import shapes
from games.core.tiles import TILES, format_tiles, tiles_of
from games.variants.positions import read_position

WALL_136 = [kind for kind in range(34) for _ in range(4)]
WALL_108 = [kind for kind in range(27) for _ in range(4)]
CHOW_STARTS = [suit * 9 + n for suit in range(3) for n in range(7)]
TERMINALS_AND_HONOURS = [0, 8, 9, 17, 18, 26, *range(27, 34)]
SHOWN = 5  # disagreeing hands quoted in a failure message


def _text(counts: Sequence[int], wildcards: int = 0) -> str:
    """A hand in tile notation, with its wildcard count."""
    text = format_tiles(tiles_of(counts)) or "-"
    return f"{text} + {wildcards} wildcard(s)" if wildcards else text


def _report(what: str, bad: list[str], total: int) -> str:
    return f"{len(bad)} of {total} hands disagree on {what}; first: " + "; ".join(bad[:SHOWN])


def _random_counts(rng: random.Random, wall: Sequence[int], size: int) -> list[int]:
    counts = [0] * 34
    for kind in rng.sample(wall, size):
        counts[kind] += 1
    return counts


def _mahjong_regular(counts: Sequence[int]) -> int:
    return int(Shanten.calculate_shanten_for_regular_hand(list(counts)))


def _built_complete(
    rng: random.Random,
    sets: int,
    kinds: Sequence[int],
    limit: Callable[[int], int] = lambda kind: 4,
    chow_share: float = 0.5,
) -> list[int]:
    """Random ``sets`` sets + a pair (C-3) from ``kinds``, no kind over its copy limit."""
    starts = [s for s in CHOW_STARTS if s in kinds and s + 1 in kinds and s + 2 in kinds]
    while True:
        counts = [0] * 34
        groups: list[list[int]] = []
        for _ in range(sets):
            if starts and rng.random() < chow_share:
                start = rng.choice(starts)
                groups.append([start, start + 1, start + 2])
            else:
                groups.append([rng.choice(kinds)] * 3)
        groups.append([rng.choice(kinds)] * 2)
        for group in groups:
            for kind in group:
                counts[kind] += 1
        if all(n <= limit(kind) for kind, n in enumerate(counts)):
            return counts


def _remove_random(rng: random.Random, counts: list[int], n: int = 1) -> list[int]:
    out = list(counts)
    for _ in range(n):
        kind = rng.choice([k for k, c in enumerate(out) for _ in range(c)])
        out[kind] -= 1
    return out


def _swap_random(rng: random.Random, counts: list[int], pool: Sequence[int],
                 limit: int = 4) -> list[int]:
    """Replace one tile by a random kind of ``pool`` (keeping at most ``limit`` copies)."""
    out = _remove_random(rng, counts)
    while True:
        kind = rng.choice(pool)
        if out[kind] < limit:
            out[kind] += 1
            return out


def _is_seven_pairs_like(counts: Sequence[int]) -> bool:
    """Any shape ``Agari`` may accept as seven pairs (all counts even)."""
    return all(n % 2 == 0 for n in counts)


def _is_thirteen_orphans(counts: Sequence[int]) -> bool:
    return all(counts[k] for k in TERMINALS_AND_HONOURS) and sum(
        counts[k] for k in TERMINALS_AND_HONOURS) == 14


# ---------------------------------------------------------------------------
# An independent decomposer (C-3, C-4): lowest tile first, wildcards fill gaps.


@functools.lru_cache(maxsize=1 << 18)
def _decomposes(counts: tuple[int, ...], wild: int, sets: int, pairs: int) -> bool:
    """Whether real ``counts`` + ``wild`` wildcards form exactly ``sets`` sets + ``pairs`` pairs.

    The lowest real tile must sit in some group: a pung or pair of its kind
    (wildcards completing it) or a chow holding it, whose lower members are
    wildcards (nothing real is lower) and whose higher members are real tiles or
    wildcards. Wildcards left when no real tile is left must form the remaining
    sets and pair on their own (C-4: any kind, even a fifth copy).
    """
    low = next((kind for kind, n in enumerate(counts) if n), None)
    if low is None:
        return wild == 3 * sets + 2 * pairs
    here = counts[low]

    def without(*kinds: int) -> tuple[int, ...]:
        out = list(counts)
        for kind in kinds:
            out[kind] -= 1
        return tuple(out)

    if sets:
        for real in range(1, min(here, 3) + 1):
            if 3 - real <= wild and _decomposes(
                    without(*[low] * real), wild - (3 - real), sets - 1, pairs):
                return True
        if low < 27:
            position = low % 9
            for start in range(max(0, position - 2), min(position, 6) + 1):
                members = [low - position + start + i for i in range(3)]
                below = [m for m in members if m < low]
                above = [m for m in members if m > low]
                for real_above in itertools.product((True, False), repeat=len(above)):
                    used = [m for m, real in zip(above, real_above, strict=True) if real]
                    if any(counts[m] == 0 for m in used):
                        continue
                    need = len(below) + len(above) - len(used)
                    if need <= wild and _decomposes(
                            without(low, *used), wild - need, sets - 1, pairs):
                        return True
    if pairs:
        for real in range(1, min(here, 2) + 1):
            if 2 - real <= wild and _decomposes(
                    without(*[low] * real), wild - (2 - real), sets, pairs - 1):
                return True
    return False


def complete_by_decomposer(counts: Sequence[int], wild: int, sets: int) -> bool:
    if sum(counts) + wild != 3 * sets + 2:
        return False
    return _decomposes(tuple(counts), wild, sets, 1)


def test_it_has_a_decomposer_that_reads_known_hands_c3_c4() -> None:
    """The test's own reference reads a few hands worked by hand (C-3, C-4)."""
    def counts(text: str) -> list[int]:
        from games.core.tiles import counts_of, parse_tiles
        return counts_of(parse_tiles(text))

    assert complete_by_decomposer(counts("11122233344455m"), 0, 4)
    assert complete_by_decomposer(counts("123m456p789s11122z"), 0, 4)
    assert not complete_by_decomposer(counts("123m456p789s11123z"), 0, 4)
    assert not complete_by_decomposer(counts("1155m1199p1155s7z"), 1, 4)  # seven pairs: no
    assert complete_by_decomposer(counts("1m3m456p789s111z22z"), 1, 4)  # wild as 2m
    assert complete_by_decomposer(counts("1111m234p567p789p"), 1, 4)  # wild as a fifth 1m
    assert complete_by_decomposer(counts("1m"), 13, 4)
    assert complete_by_decomposer(counts("123m456m789m123p456p1s"), 1, 5)  # PT-5.1, 17 tiles
    assert not complete_by_decomposer(counts("123m456m789m123p456p1s9s"), 0, 5)


# ---------------------------------------------------------------------------
# 1. Wildcard-free hands against the mahjong package (C-3).


def test_it_matches_mahjong_shanten_on_100k_random_14_tile_hands_c3() -> None:
    """C-3: regular shanten and completeness of 100,000 random 14-tile hands from 136 tiles.

    ``shapes.shanten(c, 4)`` equals ``mahjong``'s regular-hand shanten;
    ``is_complete_shape`` holds exactly when that shanten is −1; and every hand
    ``Agari`` accepts that is not seven pairs or thirteen orphans is complete here.
    """
    rng = random.Random(20240101)
    n = 100_000
    bad_shanten: list[str] = []
    bad_complete: list[str] = []
    bad_agari: list[str] = []
    for _ in range(n):
        counts = _random_counts(rng, WALL_136, 14)
        theirs = _mahjong_regular(counts)
        ours = shapes.shanten(counts, 4)
        if ours != theirs:
            bad_shanten.append(f"{_text(counts)}: ours {ours}, mahjong {theirs}")
        complete = shapes.is_complete_shape(counts, 4)
        if complete != (theirs == -1):
            bad_complete.append(f"{_text(counts)}: ours {complete}, mahjong shanten {theirs}")
        agari = Agari.is_agari(counts)
        special = _is_seven_pairs_like(counts) or _is_thirteen_orphans(counts)
        if (agari and not special and not complete) or (complete and not agari):
            bad_agari.append(f"{_text(counts)}: ours complete={complete}, Agari {agari}")
    assert not bad_shanten, _report("shanten", bad_shanten, n)
    assert not bad_complete, _report("completeness", bad_complete, n)
    assert not bad_agari, _report("Agari", bad_agari, n)


def test_it_matches_mahjong_shanten_on_20k_random_13_tile_hands_c3() -> None:
    """C-3: 20,000 random 13-tile hands; a 13-tile hand is never a complete shape."""
    rng = random.Random(20240113)
    n = 20_000
    bad: list[str] = []
    for _ in range(n):
        counts = _random_counts(rng, WALL_136, 13)
        theirs = _mahjong_regular(counts)
        ours = shapes.shanten(counts, 4)
        if ours != theirs:
            bad.append(f"{_text(counts)}: ours {ours}, mahjong {theirs}")
        assert not shapes.is_complete_shape(counts, 4), _text(counts)
    assert not bad, _report("shanten", bad, n)


def test_it_matches_mahjong_on_built_complete_ready_and_near_hands_c3() -> None:
    """C-3 positives: 5,000 hands built as 4 sets + a pair are complete for both engines.

    From each: a 13-tile hand (one tile removed, ready) and a 14-tile hand with
    one or two tiles swapped for random ones (complete, ready or 1-shanten) are
    compared on shanten and completeness too.
    """
    rng = random.Random(20240202)
    n = 5_000
    bad: list[str] = []
    outcomes: set[int] = set()
    for _ in range(n):
        complete = _built_complete(rng, 4, range(34))
        ready = _remove_random(rng, complete)
        near = _swap_random(rng, complete, range(34))
        if rng.random() < 0.5:
            near = _swap_random(rng, near, range(34))
        for counts in (complete, ready, near):
            theirs = _mahjong_regular(counts)
            ours = shapes.shanten(counts, 4)
            is_complete = shapes.is_complete_shape(counts, 4)
            outcomes.add(theirs)
            if ours != theirs or is_complete != (theirs == -1):
                bad.append(f"{_text(counts)}: ours {ours}/{is_complete}, mahjong {theirs}")
        assert Agari.is_agari(complete), _text(complete)
        assert _mahjong_regular(complete) == -1
        assert _mahjong_regular(ready) == 0
    assert not bad, _report("shanten or completeness", bad, 3 * n)
    assert {-1, 0, 1} <= outcomes  # the sample exercises complete, ready and 1-shanten


# ---------------------------------------------------------------------------
# 2. Wildcards (C-4) against substitution brute force.


def _brute_force_shanten(counts: list[int], wild: int) -> int:
    """Minimum wildcard-free shanten over every multiset of ``wild`` kinds put in (C-4).

    Counts may exceed 4: a wildcard may stand for a fifth copy. The wildcard-free
    shanten is ``shapes.shanten(..., 0)``, checked against ``mahjong`` above.
    """
    best = 99
    work = list(counts)
    for kinds in itertools.combinations_with_replacement(range(34), wild):
        for kind in kinds:
            work[kind] += 1
        value = shapes.shanten(work, 4, 0)
        for kind in kinds:
            work[kind] -= 1
        if value < best:
            best = value
            if best == -1:
                break  # nothing is lower
    return best


def _wild_sample(rng: random.Random, wild: int) -> tuple[list[int], bool]:
    """Real tiles for a hand of 14 (or 13) tiles with ``wild`` wildcards, near complete."""
    counts = _remove_random(rng, _built_complete(rng, 4, range(34)), wild)
    roll = rng.random()
    if roll < 0.3:
        counts = _swap_random(rng, counts, range(34))
    elif roll < 0.45:
        counts = _swap_random(rng, _swap_random(rng, counts, range(34)), range(34))
    elif roll < 0.55:
        counts = _random_counts(rng, WALL_136, 14 - wild)
    short = rng.random() < 0.25
    if short:
        counts = _remove_random(rng, counts)
    return counts, short


def _check_wildcards(wild: int, hands: int, seed: int) -> None:
    rng = random.Random(seed)
    bad: list[str] = []
    seen_complete = seen_incomplete = 0
    for _ in range(hands):
        counts, short = _wild_sample(rng, wild)
        expected = _brute_force_shanten(counts, wild)
        ours = shapes.shanten(counts, 4, wild)
        complete = shapes.is_complete_shape(counts, 4, wild)
        decomposed = complete_by_decomposer(counts, wild, 4)
        if ours != expected or complete != (expected == -1) or decomposed != complete:
            bad.append(f"{_text(counts, wild)}: ours shanten {ours} complete {complete}, "
                       f"brute force {expected}, decomposer {decomposed}")
        if expected == -1:
            seen_complete += 1
        elif not short:
            seen_incomplete += 1
    assert not bad, _report(f"shanten with {wild} wildcard(s)", bad, hands)
    assert seen_complete > hands // 10 and seen_incomplete > hands // 10  # both outcomes


def test_it_matches_brute_force_substitution_with_1_wildcard_c4() -> None:
    """C-4: 400 hands with 1 wildcard, against all 34 substitutions."""
    _check_wildcards(1, 400, 4101)


def test_it_matches_brute_force_substitution_with_2_wildcards_c4() -> None:
    """C-4: 300 hands with 2 wildcards, against all 595 substitutions."""
    _check_wildcards(2, 300, 4102)


def test_it_matches_brute_force_substitution_with_3_wildcards_c4() -> None:
    """C-4: 100 hands with 3 wildcards, against all 7,140 substitutions."""
    _check_wildcards(3, 100, 4103)


def test_it_lets_a_wildcard_be_a_fifth_copy_c4() -> None:
    """C-4: a wildcard may stand for a kind whose four real copies are in the hand."""
    from games.core.tiles import counts_of, parse_tiles

    counts = counts_of(parse_tiles("1111m234p567p789p"))  # + wildcard as 1m: 111m 11m
    assert shapes.is_complete_shape(counts, 4, 1)
    assert shapes.shanten(counts, 4, 1) == _brute_force_shanten(counts, 1) == -1


# ---------------------------------------------------------------------------
# 3. Putian 17-tile hands (PT-5.1, PT-2, PT-5.6) against the decomposer.

SUITED = list(range(27))


def _putian_sample(rng: random.Random) -> tuple[list[int], list[int], tuple[int, int]]:
    """Real counts, the gold tiles in hand and the two gold kinds (PT-2)."""
    gold_pool = [*SUITED, 31]
    golds_kinds = (rng.choice(gold_pool), rng.choice(gold_pool))
    while golds_kinds[0] == golds_kinds[1]:
        golds_kinds = (golds_kinds[0], rng.choice(gold_pool))
    real_kinds = [k for k in SUITED if k not in golds_kinds]
    wild = rng.choice((0, 1, 1, 2, 2, 3))
    roll = rng.random()
    if roll < 0.2:
        counts = _random_counts(rng, [k for k in WALL_108 if k in real_kinds], 17 - wild)
    else:
        counts = _remove_random(rng, _built_complete(rng, 5, real_kinds), wild)
        if roll < 0.5:
            counts = _swap_random(rng, counts, real_kinds)
    golds = [rng.choice(golds_kinds) for _ in range(wild)]
    return counts, golds, golds_kinds


def test_it_matches_the_decomposer_on_putian_17_tile_hands_pt_5_1() -> None:
    """PT-5.1: 5 sets + a pair with 17 tiles, golds wild (PT-2), on 3,000 hands.

    ``shapes.is_complete_shape(c, 5, k, honours=False)`` equals the decomposer,
    and ``Putian.score`` of the self-drawn hand says win exactly when the shape
    is complete or the hand holds 3 golds of one kind (a small bomb, PT-5.6). A
    discard win (on a non-gold tile) needs the shape alone.
    """
    rng = random.Random(5150)
    n = 3_000
    bad: list[str] = []
    wins = 0
    for _ in range(n):
        counts, golds, gold_kinds = _putian_sample(rng)
        wild = len(golds)
        expected = complete_by_decomposer(counts, wild, 5)
        wins += expected
        ours = shapes.is_complete_shape(counts, 5, wild, honours=False)
        hand = tiles_of(counts) + [TILES[g] for g in golds]
        text = format_tiles(hand)
        label = f"{text} golds {TILES[gold_kinds[0]]},{TILES[gold_kinds[1]]}"
        if ours != expected:
            bad.append(f"{label}: is_complete_shape {ours}, decomposer {expected}")
            continue
        bomb = any(golds.count(g) >= 3 for g in gold_kinds)
        win_tile = rng.choice(hand)
        base = {"variant": "putian", "hand": text, "wildcards": [str(TILES[g]) for g in gold_kinds],
                "seat": 1, "dealer": 0}
        position = read_position({**base, "win_tile": str(win_tile), "self_draw": True})
        drawn = position.variant.score(position).win
        if drawn != (expected or bomb):
            bad.append(f"{label} self-drawn {win_tile}: score win {drawn}, shape {expected}, "
                       f"bomb {bomb}")
        if counts[win_tile.kind]:  # a real tile: may also be won on a discard (PT-5.2)
            position = read_position({**base, "win_tile": str(win_tile)})
            discarded = position.variant.score(position).win
            if discarded != expected:
                bad.append(f"{label} on discard {win_tile}: score win {discarded}, "
                           f"shape {expected}")
    assert not bad, _report("Putian completeness", bad, n)
    assert n // 4 < wins < n - n // 4  # the sample has many complete and many incomplete


def _replacement_shanten(counts: Sequence[int], wild: int, sets: int,
                         void: int | None = None, most: int = 4) -> int | None:
    """Shanten by brute force over replacements, with the decomposer.

    A hand a tiles short of ``3 * sets + 2`` with ``wild`` wildcards has shanten
    ``a + r - 1``, r the fewest real tiles that must be swapped for the right
    ones (modelled as wildcards) to complete it; void-suit tiles (SC-2) must
    always go. None when more than ``most`` replacements would be needed.
    """
    kept = [n if void is None or k // 9 != void else 0 for k, n in enumerate(counts)]
    forced = sum(counts) - sum(kept)
    short = 3 * sets + 2 - sum(counts) - wild
    tiles = [k for k, n in enumerate(kept) for _ in range(n)]
    for extra in range(most + 1):
        for removed in set(itertools.combinations(tiles, extra)):
            rest = list(kept)
            for kind in removed:
                rest[kind] -= 1
            if complete_by_decomposer(rest, wild + short + forced + extra, sets):
                return short + forced + extra - 1
    return None


def _check_replacement(label: str, counts: list[int], wild: int, sets: int, ours: int,
                       void: int | None, bad: list[str]) -> int | None:
    expected = _replacement_shanten(counts, wild, sets, void)
    if (expected is None and ours < 4 + (3 * sets + 2 - sum(counts) - wild)) or (
            expected is not None and ours != expected):
        bad.append(f"{label}: ours {ours}, brute force {expected}")
    return expected


def test_it_matches_replacement_brute_force_for_putian_shanten_pt_5_1() -> None:
    """PT-5.1: 16/17-tile shanten (5 sets + a pair, golds wild) by brute force, 600 hands.

    ``shapes.shanten(c, 5, k, honours=False)`` and ``Putian.shanten`` equal the
    fewest tile swaps (plus the missing tile, minus one) the decomposer needs.
    """
    rng = random.Random(5151)
    n = 600
    bad: list[str] = []
    seen: set[int | None] = set()
    for _ in range(n):
        gold_kinds = tuple(rng.sample([*SUITED, 31], 2))
        real_kinds = [k for k in SUITED if k not in gold_kinds]
        counts = _built_complete(rng, 5, real_kinds)
        for _ in range(rng.choice((0, 1, 1, 2, 2, 3))):
            counts = _swap_random(rng, counts, real_kinds)
        wild = rng.choice((0, 0, 1, 2, 3))
        counts = _remove_random(rng, counts, wild + rng.choice((0, 1)))
        golds = [gold_kinds[i % 2] for i in range(wild)]
        hand = format_tiles(tiles_of(counts) + [TILES[g] for g in golds])
        label = f"{hand} golds {TILES[gold_kinds[0]]},{TILES[gold_kinds[1]]}"
        ours = shapes.shanten(counts, 5, wild, honours=False)
        seen.add(_check_replacement(label, counts, wild, 5, ours, None, bad))
        position = read_position({"variant": "putian", "hand": hand,
                                       "wildcards": [str(TILES[g]) for g in gold_kinds]})
        if position.variant.shanten(position) != ours:
            bad.append(f"{label}: Putian.shanten {position.variant.shanten(position)}, "
                       f"tables {ours}")
    assert not bad, _report("Putian shanten", bad, n)
    assert {-1, 0, 1, 2} <= seen


def test_it_matches_replacement_brute_force_for_the_void_suit_sc_2() -> None:
    """SC-2/SC-4.1: regular shanten with a void suit, whose tiles must all go, 600 hands."""
    rng = random.Random(4200)
    n = 600
    bad: list[str] = []
    seen: set[int | None] = set()
    for _ in range(n):
        void = rng.randrange(3)
        counts = _built_complete(rng, 4, [k for k in SUITED if k // 9 != void])
        for _ in range(rng.choice((0, 1, 1, 2))):
            counts = _swap_random(rng, counts, SUITED)
        if rng.random() < 0.5:
            counts = _remove_random(rng, counts)
        ours = shapes.shanten(counts, 4, void=void, honours=False)
        label = f"{_text(counts)} void {'mps'[void]}"
        seen.add(_check_replacement(label, counts, 0, 4, ours, void, bad))
    assert not bad, _report("regular shanten with a void suit", bad, n)
    assert {-1, 0, 1, 2} <= seen


# ---------------------------------------------------------------------------
# 4. Sichuan seven pairs (SC-4.1): four identical tiles count as two pairs.


def _seven_pairs_reference(counts: Sequence[int], void: int | None) -> int:
    """Seven-pairs shanten of a 13- or 14-tile hand by maximum overlap.

    The targets are the 14-tile seven-pairs hands: seven pair slots over kinds
    outside the void suit, a kind taking two slots being four identical tiles
    (SC-4.1). Shanten is 13 minus the most tiles the hand shares with a target,
    found by a knapsack over kinds (slots used → best overlap).
    """
    best = [0] + [-1] * 7  # best[s]: the most shared tiles using s slots
    for kind, held in enumerate(counts):
        if not held or (void is not None and kind // 9 == void):
            continue
        grown = list(best)
        for used in range(8):
            if best[used] < 0:
                continue
            for slots in (1, 2):
                if used + slots <= 7:
                    shared = best[used] + min(held, 2 * slots)
                    grown[used + slots] = max(grown[used + slots], shared)
        best = grown
    return 13 - max(best)  # empty slots are filled by tiles not held


def _seven_pairs_sample(rng: random.Random, void: int | None) -> list[int]:
    """A 13- or 14-tile Sichuan hand: random, or built as seven pairs and perturbed."""
    roll = rng.random()
    if roll < 0.4:
        return _random_counts(rng, WALL_108, rng.choice((13, 14)))
    kinds = [k for k in SUITED if void is None or k // 9 != void]
    counts = [0] * 34
    while sum(counts) < 14:
        kind = rng.choice(kinds)
        if counts[kind] <= 2:
            counts[kind] += 2
    if roll < 0.7:
        counts = _swap_random(rng, counts, SUITED)
    if rng.random() < 0.5:
        counts = _remove_random(rng, counts)
    return counts


def _check_seven_pairs(seed: int, voids: Sequence[int | None], n: int) -> None:
    rng = random.Random(seed)
    bad: list[str] = []
    seen: set[int] = set()
    for _ in range(n):
        void = rng.choice(voids)
        counts = _seven_pairs_sample(rng, void)
        expected = _seven_pairs_reference(counts, void)
        seen.add(expected)
        ours = shapes.seven_pairs_shanten(counts, void)
        if ours != expected:
            bad.append(f"seven_pairs_shanten({_text(counts)}, void={void}) = {ours}, "
                       f"reference {expected}")
    assert not bad, _report("seven-pairs shanten", bad, n)
    assert {-1, 0, 1, 2} <= seen


def test_it_matches_a_seven_pairs_reference_without_a_void_sc_4_1() -> None:
    """SC-4.1: ``seven_pairs_shanten`` with no void suit on 3,000 hands, fours as two pairs."""
    _check_seven_pairs(4100, [None], 3_000)


def test_it_matches_a_seven_pairs_reference_with_a_void_suit_sc_4_1_sc_4_2() -> None:
    """SC-4.1/SC-4.2: with a void suit, its tiles are no use to seven pairs (3,000 hands).

    Such tiles must be replaced, so they are neither pairs nor singles that a draw
    could pair: e.g. ``444499m338888p7s`` with void s needs two draws, not one.
    """
    _check_seven_pairs(4101, [0, 1, 2], 3_000)


def test_it_takes_the_best_of_both_shapes_for_sichuan_shanten_sc_4_1() -> None:
    """SC-4.1: Sichuan's shanten is the best of 4 sets + a pair and seven pairs (3,000 hands).

    Over the named void suit, or the best void when none is named (SC-2).
    """
    rng = random.Random(4102)
    n = 3_000
    bad: list[str] = []
    for _ in range(n):
        void = rng.choice((None, 0, 1, 2))
        counts = _seven_pairs_sample(rng, void)
        obj: dict[str, object] = {"variant": "sichuan", "hand": format_tiles(tiles_of(counts))}
        if void is not None:
            obj["void"] = "mps"[void]
        position = read_position(obj)
        voids = [void] if void is not None else [0, 1, 2]
        want = min(min(shapes.shanten(counts, 4, void=v, honours=False),
                       _seven_pairs_reference(counts, v)) for v in voids)
        got = position.variant.shanten(position)
        if got != want:
            bad.append(f"{obj}: Sichuan shanten {got}, expected {want}")
    assert not bad, _report("Sichuan shanten", bad, n)


def _sichuan_seven_pairs_fan(counts: Sequence[int], self_draw: bool) -> tuple[str, int]:
    """The base pattern and uncapped fan of a seven-pairs win (SC-5.5, 5.8, 5.9, 5.13–5.15)."""
    pure = len({k // 9 for k, n in enumerate(counts) if n}) == 1
    fours = sum(1 for n in counts if n == 4)
    if fours:
        rule, base, roots = ("SC-5.13", 6, fours - 1) if pure else ("SC-5.8", 5, fours - 1)
    else:
        rule, base, roots = ("SC-5.9", 5, 0) if pure else ("SC-5.5", 3, 0)
    return rule, base + roots + int(self_draw)


def test_it_scores_seven_pairs_with_four_identical_tiles_sc_4_1_sc_5_8() -> None:
    """SC-4.1/SC-5.8/SC-5.13: 600 random seven-pairs hands from at most two suits win.

    Four identical tiles are two pairs; the hand is 龙七对 (清龙七对 when of one
    suit) and that four is not also a 根. When the hand has no regular reading the
    seven-pairs pattern is the one shown; otherwise the win is worth at least as much.
    """
    rng = random.Random(5800)
    n = 600
    bad: list[str] = []
    for index in range(n):
        suits = rng.sample(range(3), 1 if index % 3 == 0 else 2)
        kinds = [k for k in SUITED if k // 9 in suits]
        counts = [0] * 34
        while sum(counts) < 14:
            kind = rng.choice(kinds)
            if counts[kind] <= 2 and (index % 2 or counts[kind] == 0):
                counts[kind] += 2
        void = next(s for s in range(3) if s not in suits)
        hand = tiles_of(counts)
        self_draw = rng.random() < 0.5
        position = read_position({
            "variant": "sichuan", "hand": format_tiles(hand), "win_tile": str(rng.choice(hand)),
            "void": "mps"[void], "self_draw": self_draw, "seat": 1, "dealer": 0,
            "rules": {"cap_fan": 20}})
        score = position.variant.score(position)
        rule, fan = _sichuan_seven_pairs_fan(counts, self_draw)
        ids = [h.pattern.id for h in score.patterns]
        label = f"{format_tiles(hand)} self_draw {self_draw}"
        if not score.win:
            bad.append(f"{label}: no win ({score.reason})")
        elif not shapes.is_complete_shape(counts, 4, honours=False):
            if score.fan != fan or rule not in ids:
                bad.append(f"{label}: fan {score.fan} {ids}, expected {fan} with {rule}")
        elif (score.fan or 0) < fan:
            bad.append(f"{label}: fan {score.fan} {ids}, seven pairs alone gives {fan}")
    assert not bad, _report("seven-pairs scoring", bad, n)
