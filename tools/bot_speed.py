"""How long a level takes to decide: every seat plays the level, one process, and the
decisions that have a choice (more than one legal action) are timed.

    python tools/bot_speed.py --level strong --variant sichuan [--walls 100] [--seed 1]

Prints the count and the p50, p95, p99 and slowest decision in milliseconds (the
``strong`` level must stay within 20 ms at p95 on one core, docs/bots.md). The times
depend on the machine and on what else runs on it; play does not depend on them.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.bots.levels import make_bot, read_levels  # noqa: E402
from games.bots.simulation import Dealer, deal_hand, play_hand  # noqa: E402
from games.core.table import Action, Table  # noqa: E402
from games.records.log import MatchLog  # noqa: E402
from games.records.match import Replayer  # noqa: E402
from games.variants.registry import NAMES, variant_named  # noqa: E402


class Timed:
    """A seat that records how long each decision with a choice takes."""

    def __init__(self, level: str, rng: random.Random, times: list[float]) -> None:
        self.seat = make_bot(level, rng)
        self.times = times

    def choose(self, table: Table, actions: Sequence[Action]) -> Action:
        start = time.perf_counter()
        choice = self.seat.choose(table, actions)
        if len(actions) > 1:
            self.times.append(time.perf_counter() - start)
        return choice


def decision_times(level: str, variant: str, walls: int, seed: int) -> list[float]:
    rules = variant_named(variant)
    times: list[float] = []
    for wall in range(walls):
        match = MatchLog(variant=variant, players=rules.BOT_NAMES, rules={}, title="speed",
                         played_at=None, hands=())
        replayer = Replayer(match)
        hand = deal_hand(replayer, Dealer(rules, random.Random(f"speed/{seed}/{wall}")), 1)
        table = replayer.begin(1, hand)
        play_hand(table, [Timed(level, random.Random(f"speed/{seed}/{wall}/{seat}"), times)
                          for seat in range(4)])
    return sorted(times)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", required=True)
    parser.add_argument("--variant", required=True, choices=NAMES)
    parser.add_argument("--walls", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    read_levels(args.level)  # refuses an unknown level by name
    times = decision_times(args.level, args.variant, args.walls, args.seed)
    if not times:
        print(f"{args.variant}: no decision with a choice")
        return 0

    def at(share: float) -> float:
        return times[min(int(share * len(times)), len(times) - 1)] * 1000

    print(f"{args.variant} {args.level}: {len(times)} decisions with a choice, "
          f"p50 {at(0.5):.2f} ms, p95 {at(0.95):.2f} ms, p99 {at(0.99):.2f} ms, "
          f"slowest {times[-1] * 1000:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
