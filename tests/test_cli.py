"""The engine's command line (ENGINE-CLI.md): examples, arrays, errors and exit codes."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from typing import Any

import pytest

from games.commands.cli import main
from tests.conftest import ROOT


def run(argv: list[str], stdin: str = "") -> tuple[int, Any]:
    out = io.StringIO()
    code = main(argv, io.StringIO(stdin), out)
    text = out.getvalue()
    return code, json.loads(text) if text else None


def test_it_agrees_with_every_shared_example(examples: list[dict[str, Any]]) -> None:
    """shared/rules/examples.json, through the real command line."""
    for example in examples:
        code, got = run([example["command"], "-"], json.dumps(example["input"]))
        assert code == 0, example["about"]
        for key, value in example.get("output_includes", {}).items():
            assert got[key] == value, (example["about"], key, got)
        if "output_wait_tiles" in example:
            assert sorted(w["tile"] for w in got["waits"]) == sorted(example["output_wait_tiles"])


def test_it_runs_as_a_module() -> None:
    position = {"variant": "sichuan", "hand": "111234567m78999p", "win_tile": "9p",
                "void": "s", "seat": 1, "self_draw": True}
    done = subprocess.run([sys.executable, "-m", "games", "score"], input=json.dumps(position),
                          capture_output=True, text=True, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["points"] == 2


def test_it_reads_a_file_path(tmp_path: Any) -> None:
    path = tmp_path / "position.json"
    path.write_text(json.dumps({"variant": "sichuan", "hand": "111234567m7899p", "void": "s"}))
    code, got = run(["waits", str(path)])
    assert code == 0 and [w["tile"] for w in got["waits"]] == ["6p", "9p"]


def test_it_answers_an_array_in_order() -> None:
    positions = [
        {"variant": "sichuan", "hand": "111234567m7899p", "void": "s"},
        {"variant": "sichuan", "hand": "1112345m", "void": "s"},
        {"variant": "sichuan", "hand": "111234567m789p9s", "void": "s"},
    ]
    code, got = run(["waits"], json.dumps(positions))
    assert code == 1  # one position is invalid; the others are still answered
    assert got[0]["shanten"] == 0
    assert "position 1" in got[1]["error"] and "needs 13 or 14" in got[1]["error"]
    assert got[2]["waits"] == []  # holds its void suit: no wait can win (SC-4.2)


def test_it_lists_every_discard_of_a_hand_a_tile_too_many() -> None:
    code, got = run(["waits"], json.dumps(
        {"variant": "sichuan", "hand": "111234567m78999p", "void": "s"}))
    assert code == 0
    assert got["shanten"] == -1
    by_tile = {d["tile"]: d for d in got["discards"]}
    assert by_tile["9p"]["shanten"] == 0
    assert {w["tile"] for w in by_tile["9p"]["waits"]} == {"6p", "9p"}


@pytest.mark.parametrize(
    ("position", "words"),
    [
        ({"variant": "riichi", "hand": "1m"}, 'unknown variant "riichi": use jiaxing, putian or sichuan'),
        ({"variant": "jiaxing", "hand": "123m4x"}, "unexpected 'x' at position 6"),
        ({"variant": "jiaxing", "hand": "11111m234p567s11z", "wildcards": ["9s"],
          "win_tile": "1z", "self_draw": True}, "5 copies of 1m"),
        ({"variant": "jiaxing", "hand": "123m", "wildcards": ["9s"], "win_tile": "1m",
          "self_draw": True}, "needs 14"),
        ({"variant": "sichuan", "hand": "111234567m78999p", "win_tile": "9p",
          "rules": {"cap": 3}}, "unknown sichuan rules option 'cap'"),
        ({"variant": "sichuan", "hand": "111234567m789p11z", "win_tile": "1z"},
         "1z is not a sichuan tile"),
        ({"variant": "sichuan", "hand": "111234567m78999p", "win_tile": "9p",
          "rules": {"cap_fan": "4"}}, "must be an integer"),
        ({"variant": "jiaxing", "hand": "123456789p11122z", "win_tile": "2z"},
         "jiaxing has 1 wildcard kind"),
        ({"variant": "sichuan", "hand": "111234567m78999p", "win_tile": "5s"},
         "win_tile 5s is not in the hand"),
        ({"variant": "sichuan", "hand": "111234567m78999p", "seat": 4}, "seat 0–3"),
        ({"variant": "sichuan", "hand": 12}, "hand must be a string, not a number"),
        ({"variant": "sichuan", "hand": "111234567m78999p", "colour": "red"},
         'unknown field "colour" in the position (its fields: variant, hand,'),
        ({"variant": "jiaxing", "hand": "123456789p11122z", "win_tile": "2z",
          "wildcards": ["9s"], "bank": ["lucky"]}, 'unknown carried fan "lucky" in bank: use huangfan, laotouhuang, baozi, '
         'baida_lianzhuang (JX-7.11)'),
        ({"variant": "putian", "hand": "111222333m456789p99s", "win_tile": "9s",
          "wildcards": ["1s", "2s"], "melds": [{"type": "peng", "tile": "1m"}]},
         "Putian has no chow or pung"),
        ([1, 2], "position 0: a position must be an object, not a number"),
    ],
)
def test_it_exits_1_with_a_sentence_naming_the_problem(position: Any, words: str) -> None:
    code, got = run(["score"], json.dumps(position))
    assert code == 1
    message = got["error"] if isinstance(got, dict) else " ".join(g["error"] for g in got)
    assert words in message


def test_it_says_when_the_input_is_not_json() -> None:
    code, got = run(["score"], "{not json")
    assert code == 1 and got["error"].startswith("not JSON")


def test_it_survives_absurdly_deep_json() -> None:
    code, got = run(["score"], "[" * 100_000 + "]" * 100_000)
    assert code == 1 and "error" in (got if isinstance(got, dict) else got[0])


def test_it_exits_2_on_usage_errors() -> None:
    assert run(["fly"])[0] == 2
    assert run([])[0] == 2


def test_it_prints_a_bench_report_at_a_tiny_scale() -> None:
    code, got = run(["bench", "--scale", "0.005"])
    assert code == 0
    assert set(got["shanten"]) == {"jiaxing", "putian", "sichuan"}
    assert got["shanten_vs_mahjong"]["agree"] == got["shanten_vs_mahjong"]["hands"]
    assert "jiaxing_1_wildcards" in got["waits_with_scores"]
    assert set(got["value_match"]) == {"jiaxing", "putian", "sichuan"}
    assert all(v["hands"] == 1 and v["cpu_seconds"] >= 0 for v in got["value_match"].values())


@pytest.mark.parametrize("variant", ["jiaxing", "putian", "sichuan"])
def test_it_makes_the_same_puzzle_from_the_same_seed(variant: str) -> None:
    status, first = run(["puzzle", "--variant", variant, "--difficulty", "2", "--seed", "day-1"])
    assert status == 0
    assert run(["puzzle", "--variant", variant, "--difficulty", "2", "--seed", "day-1"]) == (
        0, first)
    assert first["position"]["variant"] == variant
    assert first["answer"]["waits"], "every puzzle has a winning tile"
    assert set(first["answer"]["best"]) <= {w["tile"] for w in first["answer"]["waits"]}
    waits = run(["waits"], json.dumps(first["position"]))[1]
    assert [w["tile"] for w in waits["waits"]] == [w["tile"] for w in first["answer"]["waits"]]


def test_it_refuses_a_puzzle_difficulty_out_of_range() -> None:
    assert run(["puzzle", "--variant", "sichuan", "--difficulty", "4"])[0] == 2


@pytest.mark.parametrize(("position", "waits"), [
    ({"variant": "sichuan", "hand": "1111m2233m456p55p", "void": "s"}, ["4m", "5p"]),
    ({"variant": "jiaxing", "hand": "1235677s", "wildcards": ["3m"], "self_draw": True,
      "melds": [{"type": "peng", "tile": "3z"},
                {"type": "gang", "kind": "concealed", "tile": "4s"}]}, ["3m", "7s"]),
])
def test_it_never_lists_a_wait_that_needs_a_fifth_copy_c_1(position: dict[str, Any],
                                                          waits: list[str]) -> None:
    """1m (111m 123m 123m) and 4s (123s 456s 77s) complete the shape, but every copy is
    already in the player's own tiles."""
    status, result = run(["waits"], json.dumps(position))
    assert status == 0
    assert [w["tile"] for w in result["waits"]] == waits
