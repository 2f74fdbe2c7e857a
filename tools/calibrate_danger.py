"""Fit and check the danger model (games/bots/danger.py) on bot matches.

    python tools/calibrate_danger.py --fit            # refit games/bots/danger_tables.py
    python tools/calibrate_danger.py                  # the calibration table, every variant
    python tools/calibrate_danger.py --variant putian --hands 400 --seed 50000 --samples 60
    python tools/calibrate_danger.py --time           # how long a reading takes (best of 3)

The basic bots never fold and take every win, so every discard is an observation: the
reading of the discarder just before it (the chance it deals in, to anyone) against
whether someone won on it. Discards are cut into 10 bins of equal count by predicted
chance; each bin's observed rate should be within 3 percentage points of its mean
prediction (the 95% Wilson interval of the observed rate is printed beside it). The
fit and the check use different seeds (the fit starts at --fit-seed). Exit 1 when a bin
misses.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.bots import danger  # noqa: E402
from games.bots.simulation import simulate  # noqa: E402
from games.records.log import MatchLog  # noqa: E402
from games.records.match import Replayer  # noqa: E402
from games.variants.registry import NAMES, variant_named  # noqa: E402

HANDS_PER_MATCH = 16
TOLERANCE = 0.03


@dataclass
class Observation:
    predicted: float
    dealt_in: bool
    seconds: float = 0.0  # how long the reading took


@dataclass
class FitRow:
    key: tuple[int, int, int]
    ready: bool
    share: float
    is_wait: bool
    declared: bool = False


def matches(variant: str, hands: int, seed: int) -> list[MatchLog]:
    out = []
    number = 0
    while hands > 0:
        size = min(hands, HANDS_PER_MATCH)
        out.append(simulate(variant, hands=size, seed=seed + number))
        hands -= size
        number += 1
    return out


def walk(match: MatchLog, samples: int, fit: bool) -> tuple[list[Observation], list[FitRow]]:
    """Every discard of the match: the prediction and what happened (and the fit rows)."""
    import random

    observations: list[Observation] = []
    rows: list[FitRow] = []
    replayer = Replayer(match)
    for number, hand in enumerate(match.hands, start=1):
        table = replayer.begin(number, hand)
        events = hand.events
        rng = random.Random(number)
        for index, event in enumerate(events):
            if event.type == "end":
                table.finish(event.reason or "win")
                break
            if event.type == "discard" and event.actor is not None and event.tile is not None:
                seat, kind = event.actor, event.tile.kind
                started = time.perf_counter()
                reading = danger.tile_danger(table, seat, rng=rng, samples=samples)
                seconds = time.perf_counter() - started
                winners = set()
                for later in events[index + 1:]:
                    if later.type != "hu":
                        break
                    if later.target == seat and later.actor is not None:
                        winners.add(later.actor)
                observations.append(Observation(reading.total(kind), bool(winners), seconds))
                if fit and reading.rule is None:
                    for opponent in range(4):
                        if opponent == seat or table.seats[opponent].out:
                            continue
                        waits = danger.true_waits(table, opponent)
                        if samples:
                            share = danger.redealt_waits(table, seat, opponent, rng,
                                                         samples)[kind]
                        else:
                            share = danger.wait_shares(table, seat, opponent)[kind]
                        declared = table.seats[opponent].ready
                        rows.append(FitRow(danger.ready_features(table, opponent),
                                           bool(waits) or declared, share, kind in waits,
                                           declared))
            table.apply(event)
        replayer.conclude(number, hand, table, events[-1].reason or "win")
    return observations, rows


# -- fitting -------------------------------------------------------------------------------


def fit_ready(rows: list[FitRow], weight: float = 20.0) -> dict[tuple[int, int, int], float]:
    """Smoothed ready rates: each key shrunk toward its number of discards' rate. Seats
    that declared ready (PT-5.3) are ready and left out."""
    rows = [row for row in rows if not row.declared]
    by_turns: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    by_key: dict[tuple[int, int, int], list[int]] = defaultdict(lambda: [0, 0])
    for row in rows:
        by_turns[row.key[0]][0] += row.ready
        by_turns[row.key[0]][1] += 1
        by_key[row.key][0] += row.ready
        by_key[row.key][1] += 1
    out: dict[tuple[int, int, int], float] = {}
    for key, (ready, total) in sorted(by_key.items()):
        base_ready, base_total = by_turns[key[0]]
        prior = base_ready / base_total
        out[key] = round((ready + weight * prior) / (total + weight), 4)
    for turns, (ready, total) in sorted(by_turns.items()):
        out[(turns, -1, -1)] = round(ready / total, 4)
    return out


def fit_wait_map(rows: list[FitRow], bins: int = 12) -> list[tuple[float, float]]:
    """Mean share against the observed wait rate among ready hands, in bins of equal count,
    made non-decreasing."""
    ready = sorted((r.share, r.is_wait) for r in rows if r.ready and r.share > 0)
    if not ready:
        return []
    points: list[tuple[float, float]] = []
    size = math.ceil(len(ready) / bins)
    for start in range(0, len(ready), size):
        chunk = ready[start:start + size]
        mean = sum(s for s, _ in chunk) / len(chunk)
        rate = sum(w for _, w in chunk) / len(chunk)
        points.append((round(mean, 5), round(rate, 5)))
    for i in range(1, len(points)):  # non-decreasing
        if points[i][1] < points[i - 1][1]:
            merged = (points[i][1] + points[i - 1][1]) / 2
            points[i - 1] = (points[i - 1][0], round(merged, 5))
            points[i] = (points[i][0], round(merged, 5))
    for i in range(1, len(points)):
        points[i] = (points[i][0], max(points[i][1], points[i - 1][1]))
    return points


def write_tables(ready: dict[str, dict[tuple[int, int, int], float]],
                 waits: dict[str, list[tuple[float, float]]],
                 redeals: dict[str, list[tuple[float, float]]], command: str) -> Path:
    from games.bots import danger_tables

    fitted_by = dict(getattr(danger_tables, "FITTED_BY", {}))
    for name in (("WAIT_MAP_REDEALS",) if "--samples" in command else ("READY", "WAIT_MAP")):
        fitted_by[name] = command
    lines = ['"""Fitted tables of :mod:`games.bots.danger`, written by',
             "``tools/calibrate_danger.py --fit`` (do not edit by hand; FITTED_BY gives each",
             "table's command).",
             "",
             "READY: per variant, (discards made, open melds, void suit still shown) -> the",
             "share of such opponents found ready; (discards, -1, -1): every opponent with",
             "that many discards. WAIT_MAP: per variant, (share of the weighted waiting blocks,",
             'rate that kind was a wait among ready hands), non-decreasing."""',
             "",
             "READY: dict[str, dict[tuple[int, int, int], float]] = {"]
    for name, table in sorted(ready.items()):
        lines.append(f"    {name!r}: {{")
        for key, value in sorted(table.items()):
            lines.append(f"        {key!r}: {value!r},")
        lines.append("    },")
    lines.append("}")
    for title, maps in (("WAIT_MAP", waits), ("WAIT_MAP_REDEALS", redeals)):
        lines.append(f"{title}: dict[str, list[tuple[float, float]]] = {{")
        for name, points in sorted(maps.items()):
            lines.append(f"    {name!r}: [")
            for point in points:
                lines.append(f"        {point!r},")
            lines.append("    ],")
        lines.append("}")
    lines.append("FITTED_BY: dict[str, str] = {")
    for name, text in sorted(fitted_by.items()):
        lines.append(f"    {name!r}: {text!r},")
    lines.append("}")
    path = ROOT / "games" / "bots" / "danger_tables.py"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# -- checking ------------------------------------------------------------------------------


def wilson(hits: int, total: int, z: float = 1.96) -> tuple[float, float]:
    if total == 0:
        return (0.0, 1.0)
    p = hits / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return (max(centre - half, 0.0), min(centre + half, 1.0))


def calibration(observations: list[Observation], bins: int = 10) -> list[dict[str, float]]:
    ordered = sorted(observations, key=lambda o: o.predicted)
    rows = []
    for b in range(bins):
        chunk = ordered[len(ordered) * b // bins: len(ordered) * (b + 1) // bins]
        if not chunk:
            continue
        hits = sum(o.dealt_in for o in chunk)
        low, high = wilson(hits, len(chunk))
        rows.append({"bin": b + 1, "count": len(chunk),
                     "low_pred": chunk[0].predicted, "high_pred": chunk[-1].predicted,
                     "predicted": sum(o.predicted for o in chunk) / len(chunk),
                     "observed": hits / len(chunk), "ci_low": low, "ci_high": high})
    return rows


def print_table(name: str, rows: list[dict[str, float]], rule: str | None) -> bool:
    total = sum(int(r["count"]) for r in rows)
    print(f"\n{name}: {total} discards" + (f" (no discard wins, {rule})" if rule else ""))
    print(f"{'bin':>3} {'count':>6} {'predicted range':>17} {'mean pred':>9} "
          f"{'observed':>8} {'95% interval':>15} {'diff':>6}")
    ok = True
    for r in rows:
        diff = r["observed"] - r["predicted"]
        good = abs(diff) <= TOLERANCE
        ok &= good
        print(f"{int(r['bin']):>3} {int(r['count']):>6} "
              f"{100 * r['low_pred']:>7.2f}–{100 * r['high_pred']:>6.2f}% "
              f"{100 * r['predicted']:>8.2f}% {100 * r['observed']:>7.2f}% "
              f"{100 * r['ci_low']:>6.2f}–{100 * r['ci_high']:>6.2f}% "
              f"{100 * diff:>+5.1f}{'' if good else '  MISS'}")
    return ok


def timing(name: str, hands: int, seed: int, samples: int) -> str:
    """Median, p95 and max of the best of three readings at every discard: the best of
    three leaves out the moments the process was not running (a shared machine)."""
    import random

    times: list[float] = []
    for match in matches(name, hands, seed):
        replayer = Replayer(match)
        for number, hand in enumerate(match.hands, start=1):
            table = replayer.begin(number, hand)
            for event in hand.events:
                if event.type == "end":
                    table.finish(event.reason or "win")
                    break
                if event.type == "discard" and event.actor is not None:
                    best = math.inf
                    for _ in range(3):
                        started = time.perf_counter()
                        danger.tile_danger(table, event.actor, rng=random.Random(1),
                                           samples=samples)
                        best = min(best, time.perf_counter() - started)
                    times.append(best)
                table.apply(event)
            replayer.conclude(number, hand, table, hand.events[-1].reason or "win")
    times.sort()
    return (f"{name}: {len(times)} readings, median {1000 * times[len(times) // 2]:.2f} ms, "
            f"p95 {1000 * times[int(len(times) * 0.95)]:.2f} ms, max {1000 * times[-1]:.2f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=NAMES, action="append")
    parser.add_argument("--hands", type=int, default=320, help="hands per variant")
    parser.add_argument("--seed", type=int, default=1, help="first match seed of the check")
    parser.add_argument("--samples", type=int, default=0,
                        help="0: the fast reading; more: redeals per opponent")
    parser.add_argument("--fit", action="store_true",
                        help="refit the tables from bot matches and write them")
    parser.add_argument("--fit-seed", type=int, default=100_000)
    parser.add_argument("--fit-hands", type=int, default=640)
    parser.add_argument("--time", action="store_true",
                        help="only time the readings (best of 3 at each discard)")
    args = parser.parse_args()
    variants = args.variant or list(NAMES)
    if args.time:
        for name in variants:
            print(timing(name, args.hands, args.seed, args.samples))
        return 0
    if args.fit:
        # --samples 0 fits the readiness and the fast map; more, the redeals' map only.
        from games.bots import danger_tables

        ready = dict(danger_tables.READY)
        waits = dict(danger_tables.WAIT_MAP)
        redeals = dict(danger_tables.WAIT_MAP_REDEALS)
        for name in NAMES:
            if not variant_named(name).DISCARD_WINS:
                continue
            rows: list[FitRow] = []
            for match in matches(name, args.fit_hands, args.fit_seed):
                rows.extend(walk(match, args.samples, fit=True)[1])
            if args.samples:
                redeals[name] = fit_wait_map(rows)
            else:
                ready[name] = fit_ready(rows)
                waits[name] = fit_wait_map(rows)
            print(f"{name}: {len(rows)} opponent rows fitted", file=sys.stderr)
        command = (f"python tools/calibrate_danger.py --fit --fit-seed {args.fit_seed} "
                   f"--fit-hands {args.fit_hands}"
                   + (f" --samples {args.samples}" if args.samples else ""))
        path = write_tables(ready, waits, redeals, command)
        print(f"wrote {path.relative_to(ROOT)}")
        return 0
    ok = True
    for name in variants:
        observations: list[Observation] = []
        for match in matches(name, args.hands, args.seed):
            observations.extend(walk(match, args.samples, fit=False)[0])
        variant = variant_named(name)
        rule = None if variant.DISCARD_WINS else variant.DISCARD_WIN_RULE
        ok &= print_table(name, calibration(observations), rule)
        times = sorted(o.seconds for o in observations)
        if times:
            print(f"reading time: median {1000 * times[len(times) // 2]:.2f} ms, "
                  f"p95 {1000 * times[int(len(times) * 0.95)]:.2f} ms, "
                  f"max {1000 * times[-1]:.2f} ms")
    print(f"\nreading: {'fast' if args.samples == 0 else f'{args.samples} redeals'}; "
          f"check seeds from {args.seed}, {args.hands} hands a variant; "
          f"tolerance ±{100 * TOLERANCE:.0f} points")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
