"""``python -m games bench``: throughput figures, one run, fixed seed.

Figures are measured in one process, one after another, so their ratios are
meaningful even on a noisy machine; absolute numbers are not. The ``mahjong``
package (a test-only dependency) is timed on the very same wildcard-free
hands when it is installed.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from games import shapes
from games.position import Position
from games.registry import NAMES, VARIANTS
from games.tiles import TILES
from games.variants import Variant

# Tiles in play per variant (C-1, PT-1, SC-1).
WALLS = {name: [k for k in variant.tile_kinds() for _ in range(4)]
         for name, variant in VARIANTS.items()}
ALL_TILES = [k for k in range(34) for _ in range(4)]

# The waits timed: (variant, wildcards held).
WAIT_BENCHES = (("jiaxing", 1), ("jiaxing", 0), ("putian", 1), ("sichuan", 0))


def _timed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def _random_counts(rng: random.Random, wall: Sequence[int], size: int) -> list[int]:
    counts = [0] * 34
    for kind in rng.sample(wall, size):
        counts[kind] += 1
    return counts


def _shanten_hands(variant: type[Variant], rng: random.Random, n: int,
                   wild: int) -> list[tuple[list[int], int]]:
    size = 3 * variant.SETS + 2 - wild
    wall = WALLS[variant.name]
    wall = [k for k in wall if k not in variant.FLOWER_KINDS]  # laid out, never held (PT-3)
    return [(_random_counts(rng, wall, size), wild) for _ in range(n)]


def _time_shanten(variant: type[Variant], position: Position,
                  hands: Sequence[tuple[list[int], int]]) -> float:
    shanten_of = variant.shanten_of
    start = time.perf_counter()
    for counts, wild in hands:
        shanten_of(position, counts, wild)
    return time.perf_counter() - start


def bench_shanten(rng: random.Random, n: int) -> dict[str, Any]:
    """Hands per second of shape shanten, per variant and wildcard count."""
    out: dict[str, Any] = {}
    for variant in VARIANTS.values():
        position = Position(variant=variant, hand=(), void=None)
        rows: dict[str, Any] = {}
        for wild in range(4 if variant.WILDCARD_KINDS else 1):
            hands = _shanten_hands(variant, rng, n, wild)
            cold = _time_shanten(variant, position, hands)
            warm = _time_shanten(variant, position, hands)
            rows[f"{wild}_wildcards"] = {"hands": n, "first_pass_per_s": round(n / cold),
                                         "per_s": round(n / warm)}
        out[variant.name] = rows
    return out


def bench_against_mahjong(rng: random.Random, n: int) -> dict[str, Any]:
    """Regular-hand shanten of identical wildcard-free 14-tile hands, ours and mahjong's."""
    hands = [_random_counts(rng, ALL_TILES, 14) for _ in range(n)]
    ours = _timed(lambda: [shapes.shanten(c, 4) for c in hands])  # builds what it needs
    ours = _timed(lambda: [shapes.shanten(c, 4) for c in hands])
    result: dict[str, Any] = {"hands": n, "ours_per_s": round(n / ours)}
    try:
        from mahjong.shanten import Shanten
    except ImportError:
        result["mahjong_per_s"] = None
        result["note"] = "the mahjong package is not installed (pip install '.[test]')"
        return result
    calculate = Shanten.calculate_shanten_for_regular_hand
    theirs = _timed(lambda: [calculate(c) for c in hands])
    agree = sum(shapes.shanten(c, 4) == calculate(c) for c in hands)
    result.update({"mahjong_per_s": round(n / theirs), "ratio": round(theirs / ours, 1),
                   "agree": agree})
    try:
        import xiangting
    except ImportError:
        return result
    arrays = [list(c) for c in hands]
    replacement, four = xiangting.calculate_replacement_number, xiangting.PlayerCount.FOUR
    result["xiangting_per_s"] = round(n / _timed(
        lambda: [replacement(a, four) for a in arrays]))
    return result


def ready_positions(variant: type[Variant], rng: random.Random, n: int,
                    wild: int) -> list[Position]:
    """Random ready hands (shanten 0) holding ``wild`` wildcards, in a self-draw context."""
    found: list[Position] = []
    wall = [k for k in WALLS[variant.name] if k != 31]
    while len(found) < n:
        gold = rng.sample(range(27), variant.WILDCARD_KINDS)
        # A suit and its neighbours make ready hands common, like real play.
        suit = rng.randrange(3)
        pool = [k for k in wall if k // 9 == suit or k >= 27 or rng.random() < 0.15]
        pool = [k for k in pool if k not in gold]
        size = 3 * variant.SETS + 1 - wild
        hand = rng.sample(pool, size) + [gold[i % len(gold)] for i in range(wild)]
        void = next((s for s in range(3) if all(k // 9 != s for k in hand)), None)
        if variant.HAS_VOID and void is None:
            continue
        position = Position(variant=variant, hand=tuple(TILES[k] for k in hand),
                            wildcards=frozenset(gold), self_draw=True, seat=1,
                            void=void)
        try:
            variant.check_position(position)
        except ValueError:
            continue
        if variant.shanten(position) == 0:
            found.append(position)
    return found


def _time_each(variant: type[Variant], positions: Sequence[Position]) -> list[float]:
    times = []
    for position in positions:
        start = time.perf_counter()
        variant.waits(position)
        times.append(time.perf_counter() - start)
    return sorted(times)


def bench_waits(rng: random.Random, n: int) -> dict[str, Any]:
    """Time of ``waits`` with every wait fully scored, on ready hands."""
    out: dict[str, Any] = {}
    for name, wild in WAIT_BENCHES:
        variant = VARIANTS[name]
        positions = ready_positions(variant, rng, n, wild)
        first = _time_each(variant, positions)
        times = _time_each(variant, positions)  # tables built: the steady state of a worker
        waits = sum(len(getattr(variant.waits(p), "waits", [])) for p in positions)
        out[f"{variant.name}_{wild}_wildcards"] = {
            "hands": n,
            "median_ms": round(statistics.median(times) * 1000, 3),
            "p90_ms": round(times[int(len(times) * 0.9)] * 1000, 3),
            "per_s": round(len(times) / sum(times)),
            "first_pass_median_ms": round(statistics.median(first) * 1000, 3),
            "mean_waits": round(waits / n, 2),
        }
    return out


def bench_matches(seed: int, hands: int) -> dict[str, Any]:
    """Hands per second of ``simulate`` (bots) and ``validate`` (read + replay + settle)."""
    from games.bots import simulate
    from games.log import dumps, loads
    from games.match import replay

    out: dict[str, Any] = {}
    for variant in NAMES:
        simulate(variant, max(hands // 10, 2), seed + 1)  # build the tables first
        start = time.perf_counter()
        match = simulate(variant, hands, seed)
        played = time.perf_counter() - start
        text = dumps(match)
        read = replayed = float("inf")
        for _ in range(3):  # the best of three: a running validator's steady state
            start = time.perf_counter()
            document = loads(text)
            read = min(read, time.perf_counter() - start)
            start = time.perf_counter()
            replay(document)
            replayed = min(replayed, time.perf_counter() - start)
        events = sum(len(h.events) for h in match.hands)
        out[variant] = {
            "hands": hands,
            "events_per_hand": round(events / hands, 1),
            "simulate_hands_per_s": round(hands / played, 1),
            "validate_hands_per_s": round(hands / (read + replayed), 1),
            "read_hands_per_s": round(hands / read, 1),
            "replay_hands_per_s": round(hands / replayed, 1),
        }
    return out


def bench_analysis(seed: int, hands: int = 16) -> dict[str, Any]:
    """Seconds to annotate a bot match of ``hands`` hands, per variant (one core)."""
    from games.analysis import analyze_match
    from games.bots import simulate

    analyze_match(simulate(NAMES[0], 1, seed + 7))  # build the tables first
    out: dict[str, Any] = {}
    for variant in NAMES:
        match = simulate(variant, hands, seed)
        start = time.perf_counter()
        result = analyze_match(match)
        seconds = time.perf_counter() - start
        out[variant] = {"hands": hands, "seconds": round(seconds, 2),
                        "decisions": sum(len(h.decisions) for h in result)}
    return out


def run_bench(seed: int = 20261130, scale: float = 1.0) -> dict[str, Any]:
    """Every figure of the engine's benchmark as one JSON-ready object."""
    rng = random.Random(seed)
    started = time.perf_counter()
    result: dict[str, Any] = {"seed": seed, "scale": scale}
    result["shanten"] = bench_shanten(rng, max(int(20_000 * scale), 100))
    result["shanten_vs_mahjong"] = bench_against_mahjong(rng, max(int(20_000 * scale), 100))
    result["waits_with_scores"] = bench_waits(rng, max(int(400 * scale), 20))
    result["matches"] = bench_matches(seed, max(int(400 * scale), 4))
    result["analysis"] = bench_analysis(seed, max(int(16 * scale), 1))
    waits = result["waits_with_scores"]["jiaxing_1_wildcards"]["median_ms"]
    result["targets"] = {
        "shanten_at_least_10x_mahjong": (result["shanten_vs_mahjong"].get("ratio") or 0) >= 10,
        "jiaxing_wildcard_waits_median_at_most_0.5ms": waits <= 0.5,
        "simulate_at_least_100_hands_per_s": all(
            m["simulate_hands_per_s"] >= 100 for m in result["matches"].values()),
        "validate_at_least_1000_hands_per_s": all(
            m["validate_hands_per_s"] >= 1000 for m in result["matches"].values()),
        "annotate_16_hands_at_most_2s": all(
            a["seconds"] <= 2 for a in result["analysis"].values()),
    }
    result["seconds"] = round(time.perf_counter() - started, 1)
    return result
