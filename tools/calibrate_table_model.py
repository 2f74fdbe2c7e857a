"""Calibration of the table model: predicted win chance of the choice made at the first
discard of each hand of a bot match, against how often those hands were won.

    python tools/calibrate_table_model.py --variant putian --hands 40 --seed 4242 \
        [--samples 30] [--value-seed 1]

The bots play ``--hands`` hands (``python -m games simulate``); at each hand's first
discard the discarding seat's choices are valued by the table model (``python -m games
value`` with ``"model": "table"``), and the value of the discard the bot made is kept.
Prints one JSON object: the hands, the mean predicted win chance of the choices made with
its 95% interval (over hands), the share of those hands the discarder won with its 95%
interval, and each hand's figures. A calibrated model's mean prediction falls inside the
won share's interval.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.analysis.value_table import LogPoint, table_values  # noqa: E402
from games.bots.simulation import simulate  # noqa: E402


def mean_interval(values: list[float]) -> tuple[float, float]:
    """The mean and the half width of its 95% interval (normal approximation)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(variance / n)


def first_discard(events: Any) -> int | None:
    """The 1-based number of the hand's first discard event."""
    return next((i for i, e in enumerate(events, start=1) if e.type == "discard"), None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", required=True, choices=["jiaxing", "putian", "sichuan"])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--seed", type=int, default=4242)
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--value-seed", type=int, default=1)
    args = parser.parse_args()
    match = simulate(args.variant, args.hands, args.seed)
    rows = []
    for number, hand in enumerate(match.hands, start=1):
        event = first_discard(hand.events)
        if event is None:
            continue  # won before any discard (抢金, 天胡)
        made = hand.events[event - 1]
        seat = made.actor
        assert seat is not None
        point = LogPoint.at(match, number, event, seat)
        valued = table_values(point, args.samples, args.value_seed)
        chosen = next(c for c in valued.choices
                      if c.action is not None and c.action.type == "discard"
                      and c.action.tile == made.tile)
        won = any(e.type == "hu" and e.actor == seat for e in hand.events)
        rows.append({"hand": number, "event": event, "seat": seat, "discard": str(made.tile),
                     "predicted": round(chosen.win_probability, 4), "won": won})
    predicted, half = mean_interval([r["predicted"] for r in rows])
    share, share_half = mean_interval([float(r["won"]) for r in rows])
    print(json.dumps({
        "variant": args.variant, "hands": len(rows), "seed": args.seed,
        "samples": args.samples,
        "predicted": [round(predicted, 4), round(predicted - half, 4), round(predicted + half, 4)],
        "won": [round(share, 4), round(share - share_half, 4), round(share + share_half, 4)],
        "calibrated": abs(predicted - share) <= share_half,
        "rows": rows}, ensure_ascii=False))


if __name__ == "__main__":
    main()
