"""The engine's command line (ENGINE-CLI.md): ``python -m games COMMAND``.

Each command reads JSON from a file path, or standard input when the path is
``-`` or absent, and writes one JSON document. Exit status: 0 success, 1 the
input was read but is invalid (the JSON names the problem), 2 usage error, or an
error of the engine's own: then too one JSON document (``"internal": true``, the
command and, where known, the hand, event or position), never a traceback.
This module is the only place in ``games`` that does I/O.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from games.core.position import PositionError
from games.records.log import EngineFault
from games.variants.positions import read_position
from games.variants.registry import NAMES


class InputError(ValueError):
    """Input that was read but is not valid."""


def _read_json(path: str | None, stdin: TextIO) -> Any:
    try:
        if path in (None, "-"):
            text = stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as error:
        raise InputError(f"can't read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise InputError(f"{path} is not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(f"not JSON: {error.msg} at line {error.lineno}, "
                         f"column {error.colno}") from None
    except RecursionError:
        raise InputError("not JSON this engine reads: nested too deeply") from None


def score_json(data: Any) -> dict[str, Any]:
    """``score`` of one position object (raises PositionError)."""
    position = read_position(data)
    return position.variant.score(position).to_json()


def waits_json(data: Any) -> dict[str, Any]:
    """``waits`` of one position object (raises PositionError)."""
    position = read_position(data)
    return position.variant.waits(position).to_json()


def value_json(data: Any) -> dict[str, Any]:
    """``value`` of one request (raises PositionError); see games.analysis.value."""
    from games.analysis.requests import value_json as value

    return value(data)


def _each(handler: Callable[[Any], dict[str, Any]], data: Any) -> tuple[Any, bool]:
    """Apply to an object or to each object of an array; errors stay per item."""
    if isinstance(data, list):
        results: list[dict[str, Any]] = []
        ok = True
        for index, item in enumerate(data):
            try:
                results.append(_placed(handler, item, index))
            except PositionError as error:
                ok = False
                results.append({"error": f"position {index}: {error}"})
        return results, ok
    try:
        return _placed(handler, data, None), True
    except PositionError as error:
        return {"error": str(error)}, False


def _placed(handler: Callable[[Any], dict[str, Any]], item: Any,
            index: int | None) -> dict[str, Any]:
    """The handler's answer; an error of the engine's own names the item (and the hand and
    event of a request on a log)."""
    try:
        return handler(item)
    except PositionError:
        raise
    except Exception as error:
        point = item if isinstance(item, dict) else {}
        hand, event = (value if isinstance(value, int) and not isinstance(value, bool) else None
                       for value in (point.get("hand"), point.get("event")))
        raise EngineFault.of(error, hand=hand, event=event, position=index) from error


def _position_command(handler: Callable[[Any], dict[str, Any]]) -> Callable[..., int]:
    def run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
        try:
            data = _read_json(args.path, stdin)
        except InputError as error:
            _write(stdout, {"error": str(error)})
            return 1
        result, ok = _each(handler, data)
        _write(stdout, result)
        return 0 if ok else 1

    return run


def _read_text(path: str | None, stdin: TextIO) -> str:
    if path in (None, "-"):
        return stdin.read()
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError as error:
        raise InputError(f"can't read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise InputError(f"{path} is not UTF-8 text") from None


def _validate(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    from games.records.log import LogError, loads
    from games.records.match import replay

    try:
        result = replay(loads(_read_text(args.path, stdin)))
    except InputError as error:
        _write(stdout, {"ok": False, "error": {"hand": None, "event": None, "rule": None,
                                               "message": str(error)}})
        return 1
    except LogError as error:
        _write(stdout, {"ok": False, "error": error.to_json()})
        return 1
    _write(stdout, result.to_json())
    return 0


def _simulate(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    from games.bots.levels import read_levels
    from games.bots.simulation import coverage, simulate
    from games.records.log import MAX_HANDS, dumps

    if not 1 <= args.hands <= MAX_HANDS:
        stdout.write(json.dumps({"error": f"--hands must be between 1 and {MAX_HANDS}"}) + "\n")
        return 2
    try:
        bots = read_levels(args.bots)
    except ValueError as error:
        stdout.write(json.dumps({"error": str(error)}, ensure_ascii=False) + "\n")
        return 2
    try:
        rules = _simulate_rules(args)
    except ValueError as error:
        stdout.write(json.dumps({"error": str(error)}, ensure_ascii=False) + "\n")
        return 2
    match = simulate(args.variant, args.hands, args.seed, wall_seed=args.wall, bots=bots,
                     rules=rules)
    if args.coverage:
        _write(stdout, {"variant": args.variant, "hands": args.hands, "seed": args.seed,
                        **coverage([match])})
    else:
        stdout.write(dumps(match))
    return 0


def _simulate_rules(args: argparse.Namespace) -> dict[str, int | str | bool]:
    """``--rules JSON`` then each ``--rule NAME=VALUE`` (VALUE read as JSON — ``true``,
    ``4`` — else as text), checked by the variant: the match's rules options.

    >>> args = argparse.Namespace(variant="sichuan", rules='{"cap_fan": 3}',
    ...                           rule=["blood_flow=true"])
    >>> _simulate_rules(args)
    {'cap_fan': 3, 'blood_flow': True}
    >>> _simulate_rules(argparse.Namespace(variant="sichuan", rules=None, rule=["nothing"]))
    Traceback (most recent call last):
    ...
    ValueError: --rule nothing: write NAME=VALUE, e.g. --rule blood_flow=true
    """
    from games.core.position import PositionError
    from games.variants.registry import variant_named

    raw: dict[str, Any] = {}
    if args.rules:
        try:
            raw = json.loads(args.rules)
        except json.JSONDecodeError:
            raise ValueError(f"--rules must be a JSON object, not {args.rules!r}") from None
        if not isinstance(raw, dict):
            raise ValueError(f"--rules must be a JSON object, not {args.rules!r}")
    for item in args.rule or ():
        name, equals, text = item.partition("=")
        if not equals or not name:
            raise ValueError(f"--rule {item}: write NAME=VALUE, e.g. --rule blood_flow=true")
        try:
            raw[name] = json.loads(text)
        except json.JSONDecodeError:
            raw[name] = text
    try:
        return variant_named(args.variant).check_rules(raw)
    except PositionError as error:
        raise ValueError(str(error)) from None


def _arena(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    from games.analysis.advice import fallback_for, players
    from games.bots.arena import arena, describe

    a, b = args.bots
    try:
        result = arena(args.variant, a, b, walls=args.walls, seed=args.seed, jobs=args.jobs,
                       makers=players(fallback_for(a, b)))
    except ValueError as error:
        stdout.write(json.dumps({"error": str(error)}, ensure_ascii=False) + "\n")
        return 2
    sys.stderr.write(describe(result))
    _write(stdout, result)
    return 0


def _analyze(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    from games.analysis.annotation import analyze_json
    from games.records.log import LogError, loads
    from games.records.match import replay

    try:
        match = loads(_read_text(args.path, stdin))
        replay(match)  # only valid matches are annotated
    except InputError as error:
        _write(stdout, {"ok": False, "error": {"hand": None, "event": None, "rule": None,
                                               "message": str(error)}})
        return 1
    except LogError as error:
        _write(stdout, {"ok": False, "error": error.to_json()})
        return 1
    _write(stdout, analyze_json(match))
    return 0


def _puzzle(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    from games.training.puzzles import features, generate, solve

    position = generate(args.variant, args.difficulty, args.seed)
    checked = read_position(position)
    answer = solve(checked)
    _write(stdout, {"position": position, "difficulty": features(checked, answer).difficulty,
                    "answer": answer.to_json()})
    return 0


def _bench(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    from games.commands.bench import bench_play, run_bench

    if args.play:
        _write(stdout, {"seed": args.seed,
                        "play": bench_play(args.seed, matches=max(int(4 * args.scale), 1))})
        return 0
    if args.values:
        from games.commands.bench import bench_value_match

        _write(stdout, {"seed": args.seed, "value_match": bench_value_match(
            args.seed, max(int(16 * args.scale), 1), variants=[args.values])})
        return 0
    _write(stdout, run_bench(seed=args.seed, scale=args.scale, rss_matches=args.rss_matches))
    return 0


def _verify_deal(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    from games.play.bot_match import VerifyError, commitment, verify
    from games.records.log import LogError, loads

    try:
        match = loads(_read_text(args.path, stdin))
        verify(match, args.seed, args.commitment)
    except InputError as error:
        _write(stdout, {"ok": False, "error": {"message": str(error)}})
        return 1
    except LogError as error:
        _write(stdout, {"ok": False, "error": error.to_json()})
        return 1
    except VerifyError as error:
        _write(stdout, {"ok": False, "error": {"message": str(error)}})
        return 1
    _write(stdout, {"ok": True, "hands": len(match.hands), "commitment": commitment(args.seed)})
    return 0


def _danger(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    import random

    from games.bots.danger import default_seat, table_before, tile_danger
    from games.records.log import LogError, loads

    def refuse(message: str, hand: int | None = None, event: int | None = None,
               rule: str | None = None) -> int:
        _write(stdout, {"ok": False, "error": {"hand": hand, "event": event, "rule": rule,
                                               "message": message}})
        return 1

    if args.samples < 0 or args.samples > 5000:
        return refuse("--samples must be between 0 (the fast reading) and 5000")
    if args.seat is not None and not 0 <= args.seat <= 3:
        return refuse(f"--seat must be a seat 0–3, not {args.seat} (C-2)",
                      args.hand, args.event, "C-2")
    try:
        match = loads(_read_text(args.path, stdin))
        table = table_before(match, args.hand, args.event)
    except InputError as error:
        return refuse(str(error))
    except LogError as error:
        _write(stdout, {"ok": False, "error": error.to_json()})
        return 1
    seat = default_seat(match, table, args.hand, args.event) if args.seat is None else args.seat
    if table.seats[seat].out:
        return refuse(f"seat {seat} is out of the hand before this event (SC-3.2)",
                      args.hand, args.event, "SC-3.2")
    reading = tile_danger(table, seat, rng=random.Random(args.seed), samples=args.samples)
    _write(stdout, {"ok": True, "hand": args.hand, "event": args.event,
                    "variant": table.variant.name, **reading.to_json()})
    return 0


def _write(stdout: TextIO, value: Any) -> None:
    stdout.write(json.dumps(value, ensure_ascii=False, indent=None) + "\n")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m games",
                                     description="Rules engine for Jiaxing, Putian and Sichuan "
                                     "mahjong (see ENGINE-CLI.md).")
    commands = parser.add_subparsers(dest="command", required=True)
    for name, handler, text in (
        ("score", score_json, "is this a win, and what is it worth?"),
        ("waits", waits_json, "what wins here (or every discard of a hand a tile too many)"),
        ("value", value_json, "win chance and expected points of every choice (solo or "
         "table model)"),
    ):
        sub = commands.add_parser(name, help=text)
        sub.add_argument("path", nargs="?", help="JSON file, or - for standard input")
        sub.set_defaults(run=_position_command(handler))
    validate = commands.add_parser("validate", help="check a mahjong-log/1 document")
    validate.add_argument("path", nargs="?", help="the log file, or - for standard input")
    validate.set_defaults(run=_validate)
    simulate = commands.add_parser("simulate", help="bots play a match; writes mahjong-log/1")
    simulate.add_argument("--variant", required=True, choices=NAMES)
    simulate.add_argument("--hands", type=int, default=8)
    simulate.add_argument("--seed", type=int, default=1)
    simulate.add_argument("--wall", type=int, default=None,
                          help="a separate seed for the walls (the bots keep --seed)")
    simulate.add_argument("--coverage", action="store_true",
                          help="print how often each event, pattern and settlement occurred")
    simulate.add_argument("--bots", default="basic",
                          help="the bots' level: one for every seat (strong) or one per seat "
                          "(strong,basic,basic,basic)")
    simulate.add_argument("--rules", default=None, metavar="JSON",
                          help="the match's rules options as a JSON object, e.g. "
                          "'{\"blood_flow\": true}' (LOG-FORMAT's rules)")
    simulate.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                          help="one rules option (repeatable; VALUE as JSON, else text), "
                          "e.g. --rule exchange_three=true")
    simulate.set_defaults(run=_simulate)
    duel = commands.add_parser("arena", help="two bot levels on the same walls, every seating "
                               "(JSON on standard output, a table on standard error)")
    duel.add_argument("--variant", required=True, choices=NAMES)
    duel.add_argument("--bots", nargs=2, required=True, metavar=("A", "B"),
                      help="the level measured and the level it is measured against (A may be "
                      "advice: the values pass's best choice, falling back on B)")
    duel.add_argument("--walls", type=int, default=200)
    duel.add_argument("--seed", type=int, default=1)
    duel.add_argument("--jobs", type=int, default=2, help="processes playing the walls")
    duel.set_defaults(run=_arena)
    analyze = commands.add_parser("analyze", help="every decision with its alternatives")
    analyze.add_argument("path", nargs="?", help="the log file, or - for standard input")
    analyze.set_defaults(run=_analyze)
    puzzle = commands.add_parser("puzzle", help="a \"what wins here\" puzzle and its answer")
    puzzle.add_argument("--variant", required=True, choices=NAMES)
    puzzle.add_argument("--difficulty", type=int, default=2, choices=[1, 2, 3])
    puzzle.add_argument("--seed", default="1", help="any text: the same seed, the same puzzle")
    puzzle.set_defaults(run=_puzzle)
    check = commands.add_parser("verify-deal", help="check that a match played against the "
                                "bots was dealt from the seed it committed to")
    check.add_argument("path", nargs="?", help="the log file, or - for standard input")
    check.add_argument("--seed", required=True, help="the seed shown when the match ended")
    check.add_argument("--commitment", default=None,
                       help="the SHA-256 shown when it started (default: the one in the title)")
    check.set_defaults(run=_verify_deal)
    danger = commands.add_parser("danger", help="each held tile's chance of dealing in to "
                                 "each opponent, at a point of a log")
    danger.add_argument("path", nargs="?", help="the log file, or - for standard input")
    danger.add_argument("--hand", type=int, required=True, help="the hand, from 1")
    danger.add_argument("--event", type=int, required=True,
                        help="the point: just before this event of the hand, from 1")
    danger.add_argument("--seat", type=int, default=None,
                        help="whose tiles (default: the event's actor, else the seat to play)")
    danger.add_argument("--samples", type=int, default=30,
                        help="redeals per opponent (30, what their map was fitted with; 0: "
                        "the fast reading the bots use)")
    danger.add_argument("--seed", type=int, default=1, help="seeds the redeals")
    danger.set_defaults(run=_danger)
    bench = commands.add_parser("bench", help="throughput figures as JSON (fixed seed)")
    bench.add_argument("--seed", type=int, default=20261130)
    bench.add_argument("--scale", type=float, default=1.0,
                       help="multiply the sample sizes (below 1, the full report's values "
                       "pass uses fewer shuffles and redeals too; --values keeps them)")
    bench.add_argument("--play", action="store_true",
                       help="only the time of a player's action against the bots (issue 14)")
    bench.add_argument("--values", choices=NAMES, default=None, metavar="VARIANT",
                       help="only the values pass over seat 0 of one variant's bot match of "
                       "16 × --scale hands (issue 26)")
    bench.add_argument("--rss-matches", type=int, default=0,
                       help="also annotate this many 16-hand matches in one fresh process and "
                       "report its resident size (300: the worker target; takes minutes)")
    bench.set_defaults(run=_bench)
    return parser


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None,
         stdout: TextIO | None = None) -> int:
    """Run one command; returns the exit status."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0) and 2
    run: Callable[[argparse.Namespace, TextIO, TextIO], int] = args.run
    out = stdout or sys.stdout
    try:
        return run(args, stdin or sys.stdin, out)
    except Exception as error:  # noqa: BLE001 - ENGINE-CLI: one JSON document, no traceback
        _write(out, {"ok": False, "error": EngineFault.of(error).to_json(args.command)})
        return 2
