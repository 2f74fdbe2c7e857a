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

from games.core import shapes
from games.core.position import Position
from games.core.tiles import TILES
from games.core.variant import Variant
from games.variants.positions import read_position
from games.variants.registry import NAMES, VARIANTS

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
    from games.bots.simulation import simulate
    from games.records.log import dumps, loads
    from games.records.match import replay

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
    from games.analysis.annotation import analyze_match
    from games.bots.simulation import simulate

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


def _percentiles(samples: Sequence[float]) -> dict[str, float]:
    """Median, 95th percentile and maximum of timings in seconds, as milliseconds."""
    ordered = sorted(samples)
    at = min(len(ordered) - 1, int(len(ordered) * 0.95))
    return {"p50_ms": round(statistics.median(ordered) * 1000, 2),
            "p95_ms": round(ordered[at] * 1000, 2), "max_ms": round(ordered[-1] * 1000, 2)}


def bench_play(seed: int, matches: int = 4, hands: int = 8) -> dict[str, Any]:
    """Server time of a human's action against the bots (issue 14), per variant.

    Full matches of ``hands`` hands, the human answering each decision with a
    random legal action. ``act`` is :meth:`PlayMatch.act`: the action plus every
    bot move up to the human's next decision, the match in memory. ``stored``
    is what a server keeping nothing in memory does per action: restore the
    match from its JSON, act, write it back and render the view. Times are CPU
    time of this process (one core, whatever else the machine runs); ``wall``
    gives the act's wall-clock p95 beside it.
    """
    import json

    from games.play.bot_match import PlayMatch, play_randomly

    out: dict[str, Any] = {"matches": matches, "hands": hands, "human": "random legal actions"}
    for variant in NAMES:
        play_randomly(PlayMatch.start(variant, seed=f"warm-{seed}", hands=1),
                      random.Random(seed))  # build the shape tables first
        acts: list[float] = []
        walls: list[float] = []
        stored: list[float] = []
        for number in range(matches):
            match = PlayMatch.start(variant, seed=f"bench-{seed}-{number}", hands=hands)
            rng = random.Random(seed + number)
            while match.legal():
                action = rng.choice(match.legal())
                text = json.dumps(match.to_json())
                step = match.step
                started, clock = time.process_time(), time.perf_counter()
                match.act(step, action)
                acts.append(time.process_time() - started)
                walls.append(time.perf_counter() - clock)
                started = time.process_time()
                restored = PlayMatch.from_json(json.loads(text))
                restored.act(step, action)
                json.dumps(restored.to_json())
                restored.view()
                stored.append(time.process_time() - started)
        out[variant] = {"actions": len(acts), "act": _percentiles(acts),
                        "act_wall_p95_ms": _percentiles(walls)["p95_ms"],
                        "stored": _percentiles(stored)}
    out["targets"] = {"act_p95_at_most_50ms": all(
        out[v]["act"]["p95_ms"] <= 50 for v in NAMES)}
    return out


def bench_value(rng: random.Random, seed: int, n: int, table_samples: int) -> dict[str, Any]:
    """The ``value`` command: the solo model's exact value of a ready hand (one discard),
    a 1-shanten discard by Monte Carlo (half ``table_samples`` shuffles, 50 at least unless
    fewer are asked for), and a table-model decision at ± 0.03 win chance."""
    from games.analysis.value import ready_value, solo_values, unseen

    out: dict[str, Any] = {}
    for variant in VARIANTS.values():
        wild = 1 if variant.WILDCARD_KINDS else 0  # a ready hand holding one wildcard
        positions = ready_positions(variant, rng, n, wild)
        pools = [unseen(p) for p in positions]
        for position, pool in zip(positions, pools, strict=True):  # build the tables first
            ready_value(position, position.hand, pool, 12)
        times = []
        for position, pool in zip(positions, pools, strict=True):
            start = time.perf_counter()
            ready_value(position, position.hand, pool, 12)
            times.append(time.perf_counter() - start)
        times.sort()
        out[f"solo_ready_{variant.name}"] = {
            "hands": n, "median_ms": round(statistics.median(times) * 1000, 3),
            "p90_ms": round(times[int(len(times) * 0.9)] * 1000, 3)}
    one_shanten = read_position({"variant": "sichuan", "hand": "1234567m1135789p",
                                      "void": "s", "seat": 1, "seen": "9m1p"})
    samples = max(table_samples // 2, min(table_samples, 50))
    five_pin = {TILES[13]}  # discarding 5p leaves 1-shanten
    start = time.perf_counter()
    exact = solo_values(one_shanten, 12, only=five_pin).choices[0]
    exact_seconds = time.perf_counter() - start
    start = time.perf_counter()
    sampled = solo_values(one_shanten, 12, samples=samples, seed=seed, only=five_pin,
                          exact_one_shanten=False).choices[0]
    out["solo_one_shanten_sichuan"] = {
        "shanten": exact.shanten, "exact": exact.exact,
        "exact_ms": round(exact_seconds * 1000, 2),
        "win_probability": round(exact.win_probability, 4),
        "monte_carlo": {"samples": samples, "seconds": round(time.perf_counter() - start, 3),
                        "win_probability": round(sampled.win_probability, 4),
                        "win_ci95_half_width": round(
                            (sampled.win_interval.high - sampled.win_interval.low) / 2, 4)}}
    out["table_decision"] = _bench_table_decision(seed, table_samples)
    return out


def _bench_table_decision(seed: int, most: int) -> dict[str, Any]:
    """A pung-or-pass decision of a Jiaxing bot match, sampled until both choices' win
    chances are known to ± 0.03 (or ``most`` samples)."""
    from games.analysis.value_table import LogPoint, table_values_within
    from games.bots.simulation import simulate

    match = simulate("jiaxing", 1, seed)
    events = match.hands[0].events
    index = next((i for i, e in enumerate(events, start=1) if e.type in ("peng", "chi")), None)
    if index is None:
        return {"note": "the bench match has no claim"}
    point = LogPoint.at(match, 1, index, events[index - 1].actor or 0)
    start = time.perf_counter()
    valuation = table_values_within(point, 0.03, seed, most=most)
    seconds = time.perf_counter() - start
    halves = [(c.win_interval.high - c.win_interval.low) / 2 for c in valuation.choices]
    return {"variant": "jiaxing", "choices": len(valuation.choices),
            "samples": valuation.samples, "seconds": round(seconds, 2),
            "playouts_per_s": round(valuation.samples * len(valuation.choices) / seconds, 1),
            "widest_win_ci95_half_width": round(max(halves), 4)}


_WORKER = """
import gc, json, sys, time
from games.core import shapes
from games.analysis.annotation import analyze_match
from games.records.log import loads

request = json.load(sys.stdin)
if request["tune_gc"]:
    shapes.tune_garbage_collector()
times = []
for text in request["matches"]:
    match = loads(text)
    start = time.process_time()  # this process's own time: other load doesn't count
    analyze_match(match)
    times.append(time.process_time() - start)
status = dict(line.split(":", 1) for line in open("/proc/self/status") if ":" in line)
memory = {key: int(status[key].split()[0]) // 1024 for key in ("VmRSS", "VmHWM") if key in status}
print(json.dumps({"times": times, "rss_mb": memory.get("VmRSS"), "peak_mb": memory.get("VmHWM")}))
"""


def _worker(texts: Sequence[str], tune_gc: bool) -> dict[str, Any]:
    """Annotate the matches in a fresh process, as a worker would; its times and memory."""
    import json
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _WORKER], capture_output=True, text=True,
                          check=True, input=json.dumps({"matches": list(texts),
                                                        "tune_gc": tune_gc}))
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def _bot_matches(seed: int, count: int, hands: int = 16) -> list[str]:
    from games.bots.simulation import simulate
    from games.records.log import dumps

    return [dumps(simulate(NAMES[i % len(NAMES)], hands, seed + i)) for i in range(count)]


def bench_worker(seed: int, warm_up: int, rss_matches: int, hands: int = 16) -> dict[str, Any]:
    """A worker's first match against the same match after ``warm_up`` others (fresh
    processes, so nothing else is shared), the garbage-collector settings' effect, and
    the resident size after ``rss_matches`` annotated matches, all of ``hands`` hands."""
    texts = _bot_matches(seed, max(warm_up + 1, rss_matches), hands)
    first, rest = texts[0], texts[1 : warm_up + 1]
    cold = _worker([first], tune_gc=False)["times"][0]
    warm = _worker([*rest, first], tune_gc=False)["times"][-1]
    out: dict[str, Any] = {"cold_first_match_s": round(cold, 3),
                           "warm_same_match_s": round(warm, 3),
                           "cold_over_warm": round(cold / warm, 2)}
    plain = _worker(texts[: warm_up + 1], tune_gc=False)
    tuned = _worker(texts[: warm_up + 1], tune_gc=True)
    out["gc"] = {"matches": warm_up + 1, "default_s": round(sum(plain["times"]), 2),
                 "tuned_s": round(sum(tuned["times"]), 2),
                 "tuned_over_default": round(sum(tuned["times"]) / sum(plain["times"]), 3)}
    if rss_matches:
        many = _worker(texts[:rss_matches], tune_gc=True)
        out["rss"] = {"matches": rss_matches, "rss_mb": many["rss_mb"],
                      "peak_mb": many["peak_mb"],
                      "last_tenth_mean_s": round(statistics.mean(
                          many["times"][-max(rss_matches // 10, 1):]), 3)}
    return out


def bench_value_match(seed: int, hands: int, variants: Sequence[str] = NAMES,
                      solo_samples: int | None = None,
                      table_samples: int | None = None) -> dict[str, Any]:
    """The values pass (games/analysis/value_pass.py) over one seat of a bot match of each variant
    on this core: every hand annotated, then seat 0's decisions valued, as a worker does (with
    the pass's own samples unless told otherwise)."""
    from games.analysis.annotation import analyze_hand
    from games.analysis.value_pass import SOLO_SAMPLES, TABLE_SAMPLES, value_hand
    from games.bots.simulation import simulate
    from games.records.match import Replayer

    solo_samples = SOLO_SAMPLES if solo_samples is None else solo_samples
    table_samples = TABLE_SAMPLES if table_samples is None else table_samples
    out: dict[str, Any] = {}
    for variant in variants:
        match = simulate(variant, hands, seed)
        seconds = cpu = 0.0
        decisions = 0
        replayer = Replayer(match)
        for number, hand in enumerate(match.hands, start=1):
            annotated = analyze_hand(replayer.begin(number, hand), hand.events, number)
            start, start_cpu = time.perf_counter(), time.process_time()
            table = Replayer(match)
            for earlier in range(1, number):
                table.play(earlier, match.hands[earlier - 1])
            valued = value_hand(table.begin(number, hand), hand.events, number,
                                annotated.to_json()["decisions"], {0}, seed=number,
                                solo_samples=solo_samples, table_samples=table_samples)
            seconds += time.perf_counter() - start
            cpu += time.process_time() - start_cpu
            decisions += len(valued["decisions"])
            replayer = Replayer(match)
            for earlier in range(1, number + 1):
                replayer.play(earlier, match.hands[earlier - 1])
        out[variant] = {"hands": hands, "decisions": decisions, "seconds": round(seconds, 1),
                        "cpu_seconds": round(cpu, 1), "solo_samples": solo_samples,
                        "table_samples": table_samples}
    return out


def _scaled(full: int, scale: float, least: int) -> int:
    """A sample size at ``scale`` (1: ``full``), never below ``least``."""
    return max(int(full * scale), least)


def run_bench(seed: int = 20261130, scale: float = 1.0, rss_matches: int = 0) -> dict[str, Any]:
    """Every figure of the engine's benchmark as one JSON-ready object.

    ``scale`` multiplies every sample size: the hands, positions and matches timed, the
    worker's and the values pass's hands, and (below 1 only) the pass's shuffles and
    redeals. A tiny scale runs every part once on the least input it takes (the tests'
    check of the report); the targets mean something at 1."""
    from games.analysis.value_pass import SOLO_SAMPLES, TABLE_SAMPLES

    rng = random.Random(seed)
    started = time.perf_counter()
    result: dict[str, Any] = {"seed": seed, "scale": scale}
    result["shanten"] = bench_shanten(rng, _scaled(20_000, scale, 100))
    result["shanten_vs_mahjong"] = bench_against_mahjong(rng, _scaled(20_000, scale, 100))
    result["waits_with_scores"] = bench_waits(rng, _scaled(400, scale, 4))
    result["matches"] = bench_matches(seed, _scaled(400, scale, 4))
    result["analysis"] = bench_analysis(seed, _scaled(16, scale, 1))
    result["worker"] = bench_worker(seed, _scaled(5, scale, 1), rss_matches,
                                    hands=_scaled(16, min(scale, 1), 1))
    result["value"] = bench_value(rng, seed, _scaled(200, scale, 3), _scaled(2000, scale, 8))
    result["value_match"] = bench_value_match(
        seed, _scaled(16, scale, 1), solo_samples=_scaled(SOLO_SAMPLES, min(scale, 1), 2),
        table_samples=_scaled(TABLE_SAMPLES, min(scale, 1), 2))
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
        "worker_first_match_within_1.3x_of_warm": result["worker"]["cold_over_warm"] <= 1.3,
        "worker_rss_at_most_80mb": (result["worker"]["rss"]["rss_mb"] <= 80
                                    if "rss" in result["worker"] else None),
        "value_one_seat_of_16_hands_at_most_120s": all(
            v["cpu_seconds"] <= 120 for v in result["value_match"].values()),
        "solo_ready_hand_median_at_most_1ms": all(
            v["median_ms"] <= 1 for k, v in result["value"].items() if k.startswith("solo_ready")),
    }
    result["seconds"] = round(time.perf_counter() - started, 1)
    return result
