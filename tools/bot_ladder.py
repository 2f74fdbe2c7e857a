"""The bots' ladder: the duplicate arena (``python -m games arena``) for pairs of levels in
every variant, written to ``games/bots/ladder.json`` (``ladder/1``, docs/bots.md) and
printed as a markdown table for docs/bots.md.

    python tools/bot_ladder.py --pairs strong:basic [--pairs search:strong] \
        [--walls 2000] [--seed 2026] [--jobs 2] [--variants jiaxing,putian,sichuan] \
        [--out games/bots/ladder.json]

Each pair ``A:B`` measures A against B on the same walls (A in each seat against three B,
and the all-B baseline). Besides the levels, ``advice`` seats the values pass's best
choice (``games.analysis.advice``), falling back on B where the pass gives no value:
``--pairs advice:strong``. The site reads the published file with
``games.bots.levels.published_ladder()``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.analysis.advice import fallback_for, players  # noqa: E402
from games.bots.arena import arena  # noqa: E402
from games.variants.registry import NAMES  # noqa: E402

LADDER = ROOT / "games" / "bots" / "ladder.json"


def read_pair(text: str) -> tuple[str, str]:
    """``strong:basic`` → ("strong", "basic")."""
    a, colon, b = text.partition(":")
    if not colon or not a.strip() or not b.strip():
        raise argparse.ArgumentTypeError(f"a pair is A:B, such as strong:basic, not {text!r}")
    return a.strip(), b.strip()


def ladder(pairs: Sequence[tuple[str, str]], variants: Sequence[str], walls: int, seed: int,
           jobs: int, command: str) -> dict[str, Any]:
    """Every pair's arena in every variant, as a ``ladder/1`` document."""
    results: dict[str, list[dict[str, Any]]] = {}
    for variant in variants:
        results[variant] = [arena(variant, a, b, walls=walls, seed=seed, jobs=jobs,
                                  makers=players(fallback_for(a, b)))
                            for a, b in pairs]
    return {"format": "ladder/1", "measured": datetime.date.today().isoformat(),
            "command": command, "variants": results}


def markdown(document: dict[str, Any]) -> str:
    """The ladder as a markdown table (one row a variant and pair)."""
    rows = ["| variant | A against B | walls | A − B points a hand (95%) | A win | A deal-in "
            "| A exhausted | B win | B deal-in | B exhausted | A ms mean / p99 |",
            "|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|"]
    for variant, results in document["variants"].items():
        for result in results:
            a, b = result["bots"]
            diff = result["difference"]
            sa, sb = result["levels"][a], result["levels"][b]
            rows.append(
                f"| {variant} | {a} against {b} | {result['walls']} | {diff['mean']:+.2f} "
                f"[{diff['low']:+.2f}, {diff['high']:+.2f}] | {sa['win_rate']:.1%} "
                f"| {sa['deal_in_rate']:.1%} | {sa['exhausted_share']:.1%} "
                f"| {sb['win_rate']:.1%} | {sb['deal_in_rate']:.1%} "
                f"| {sb['exhausted_share']:.1%} "
                f"| {sa['decision_ms']['mean']:.2f} / {sa['decision_ms']['p99']:.2f} |")
    return "\n".join(rows) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=read_pair, action="append", required=True,
                        help="A:B, the level measured and the one below (repeat for more)")
    parser.add_argument("--walls", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--variants", default=",".join(NAMES))
    parser.add_argument("--out", type=Path, default=LADDER)
    args = parser.parse_args(argv)
    variants = [v.strip() for v in args.variants.split(",")]
    unknown = [v for v in variants if v not in NAMES]
    if unknown:
        parser.error(f"unknown variant {unknown[0]!r} (known: {', '.join(NAMES)})")
    pairs = " ".join(f"--pairs {a}:{b}" for a, b in args.pairs)
    command = f"tools/bot_ladder.py {pairs} --walls {args.walls} --seed {args.seed}"
    try:
        document = ladder(args.pairs, variants, args.walls, args.seed, args.jobs, command)
    except ValueError as error:
        parser.error(str(error))
    args.out.write_text(json.dumps(document, ensure_ascii=False, indent=1) + "\n",
                        encoding="utf-8")
    sys.stdout.write(markdown(document))
    return 0


if __name__ == "__main__":
    sys.exit(main())
