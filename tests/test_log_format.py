"""The mahjong-log/1 reader and writer (LOG-FORMAT.md, docs/log-format.md).

Structure only: these documents are read and written, not replayed. The sample
hands are legal play too (the replay accepts them), except ``jiaxing_contract``,
which only shows event shapes.
"""

from __future__ import annotations

import copy
import doctest
import json
import pickle
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

import jsonschema
import pytest

import games.records.log
from games.core.tiles import TILES, Tile
from games.records.log import (
    MAX_DEPTH,
    MAX_EVENTS,
    MAX_HANDS,
    Event,
    Hand,
    LogError,
    Match,
    dumps,
    loads,
    read_log,
    schema,
    write_log,
)
from games.variants.registry import VARIANTS

from .conftest import ROOT

Doc = dict[str, Any]


def tiles(text: str) -> list[str]:
    return text.split()


def jiaxing() -> Doc:
    """Two Jiaxing hands: Chen wins a pung hand by self-draw; then Dong leaves the table."""
    return {
        "format": "mahjong-log/1",
        "variant": "jiaxing",
        "title": "Friday table",
        "played_at": "2026-11-20T19:30:00+08:00",
        "players": ["Alice", "Bob", "Chen", "Dong"],
        "rules": {"base": 5},
        "hands": [
            {
                "dealer": 0, "round_wind": "E", "dice": [3, 5], "wildcards": ["5p"],
                "indicator": "4p",
                "deal": [
                    tiles("2m 3m 4m 5m 6m 8p 8p 3s 5s 1z 2z 7z 9s 5p"),
                    tiles("1p 3p 4m 7m 7m 9m 2s 3z 3z 4z 6z 8s 7p"),
                    tiles("1m 1m 1m 2p 2p 2p 6s 6s 6s 7z 7z 9p 4s"),
                    tiles("8m 8m 8m 8m 1s 1s 3p 6p 7s 5z 5z 6m 9m"),
                ],
                "events": [
                    {"type": "discard", "actor": 0, "tile": "7z"},
                    {"type": "peng", "actor": 2, "target": 0, "tile": "7z"},
                    {"type": "discard", "actor": 2, "tile": "4s"},
                    {"type": "draw", "actor": 3, "tile": "2z"},
                    {"type": "gang", "actor": 3, "kind": "concealed", "tile": "8m"},
                    {"type": "draw", "actor": 3, "tile": "9s", "from": "back"},
                    {"type": "discard", "actor": 3, "tile": "2z"},
                    {"type": "draw", "actor": 0, "tile": "6p"},
                    {"type": "discard", "actor": 0, "tile": "1z"},
                    {"type": "draw", "actor": 1, "tile": "3m"},
                    {"type": "discard", "actor": 1, "tile": "4z"},
                    {"type": "draw", "actor": 2, "tile": "9p"},
                    {"type": "hu", "actor": 2, "tile": "9p"},
                    {"type": "end", "reason": "win", "deltas": [-20, -20, 60, -20]},
                ],
            },
            {
                "dealer": 1, "round_wind": "E", "dice": [4, 4], "wildcards": ["1z"],
                "indicator": "4z", "bank": [],
                "deal": [
                    tiles("1m 2m 3m 4m 5m 6m 7m 8m 1z 1z 2z 3z 7z"),
                    tiles("1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 9m 9m"),
                    tiles("1s 2s 3s 4s 5s 6s 7s 8s 9s 1p 2p 3p 5z"),
                    tiles("1s 2s 3s 4s 5s 6s 7s 8s 9s 4p 5p 6p 6z"),
                ],
                "events": [
                    {"type": "discard", "actor": 1, "tile": "9m"},
                    {"type": "leave", "actor": 3},
                    {"type": "end", "reason": "abandoned"},
                ],
            },
        ],
    }


def jiaxing_contract() -> Doc:
    """Event shapes the first sample lacks: chi, exposed and added gang, contract, robbing.

    Structurally valid, but not legal play (Bob holds no 3m, and so on).
    """
    doc = jiaxing()
    doc["hands"] = [doc["hands"][0]]
    doc["hands"][0]["events"] = [
        {"type": "discard", "actor": 0, "tile": "4m"},
        {"type": "chi", "actor": 1, "target": 0, "tile": "4m", "tiles": ["3m", "5m"]},
        {"type": "gang", "actor": 2, "kind": "exposed", "target": 1, "tile": "1m"},
        {"type": "draw", "actor": 2, "tile": "3s", "from": "back"},
        {"type": "gang", "actor": 2, "kind": "added", "tile": "7z"},
        {"type": "contract", "actor": 0, "choice": "persist"},
        {"type": "contract", "actor": 3, "choice": "give_up"},
        {"type": "hu", "actor": 3, "target": 2, "tile": "7z", "how": "robbing_kong"},
        {"type": "end", "reason": "win"},
    ]
    return doc


def putian() -> Doc:
    """A Putian hand: a flower and its replacement, a ready declaration, a win on a discard."""
    return {
        "format": "mahjong-log/1",
        "variant": "putian",
        "players": ["Lin", "Huang", "Chen", "Zheng"],
        "hands": [
            {
                "dealer": 1, "dice": [2, 3], "wildcards": ["3p", "7s"], "dealer_streak": 0,
                "deal": [
                    tiles("2s 3s 5m 5m 6p 6p 7p 8m 8m 1p 3m 3m 9m 4s 5p 7m"),
                    tiles("2m 3m 4m 5p 6p 7p 8p 8p 1s 2s 3s 4s 5s 6s 8s 9m 9p"),
                    tiles("5z 1m 4m 6m 7m 2p 3p 4p 5s 6s 7s 8s 9s 1s 2p 4p"),
                    tiles("1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 1p 9s 9s 9s 2s"),
                ],
                "events": [
                    {"type": "flower", "actor": 2, "tile": "5z"},
                    {"type": "draw", "actor": 2, "tile": "6m", "from": "back"},
                    {"type": "discard", "actor": 1, "tile": "9p"},
                    {"type": "draw", "actor": 2, "tile": "5p"},
                    {"type": "discard", "actor": 2, "tile": "1m"},
                    {"type": "draw", "actor": 3, "tile": "8p"},
                    {"type": "ready", "actor": 3},
                    {"type": "discard", "actor": 3, "tile": "8p"},
                    {"type": "draw", "actor": 0, "tile": "3s"},
                    {"type": "discard", "actor": 0, "tile": "2s"},
                    {"type": "hu", "actor": 3, "target": 0, "tile": "2s"},
                    {"type": "end", "reason": "win"},
                ],
            },
        ],
    }


def sichuan() -> Doc:
    """A Sichuan hand: void suits, an exposed kong and a win on its replacement, a leaver."""
    return {
        "format": "mahjong-log/1",
        "variant": "sichuan",
        "played_at": "2026-12-01",
        "players": ["Wang", "Li", "Zhang", "Liu"],
        "rules": {"cap_fan": 3, "room_coefficient": 200, "fee": 400},
        "hands": [
            {
                "dealer": 2, "dice": [1, 1],
                "deal": [
                    tiles("9s 9s 9s 2p 3p 4p 5p 6p 7p 2s 2s 4s 5s"),
                    tiles("1m 1m 2m 3m 4p 4p 5p 8m 8m 9m 6s 7p 8p"),
                    tiles("9s 1p 1p 2p 3p 5m 6m 7m 4m 4m 9p 9p 8p 6p"),
                    tiles("1s 1s 3s 6s 7s 8s 2m 2m 5m 6m 7m 9m 3p"),
                ],
                "events": [
                    {"type": "dingque", "actor": 2, "suit": "s"},
                    {"type": "dingque", "actor": 3, "suit": "p"},
                    {"type": "dingque", "actor": 0, "suit": "m"},
                    {"type": "dingque", "actor": 1, "suit": "s"},
                    {"type": "discard", "actor": 2, "tile": "9s"},
                    {"type": "gang", "actor": 0, "kind": "exposed", "target": 2, "tile": "9s"},
                    {"type": "draw", "actor": 0, "tile": "3s", "from": "back"},
                    {"type": "hu", "actor": 0, "tile": "3s"},
                    {"type": "draw", "actor": 1, "tile": "5s"},
                    {"type": "discard", "actor": 1, "tile": "5s"},
                    {"type": "leave", "actor": 3},
                    {"type": "end", "reason": "abandoned"},
                ],
            },
        ],
    }


def with_wall(doc: Doc) -> Doc:
    """The first Jiaxing sample with its whole wall: its draws in order, the rest between."""
    doc = copy.deepcopy(doc)
    doc["hands"] = [doc["hands"][0]]
    hand = doc["hands"][0]
    front = [e["tile"] for e in hand["events"] if e["type"] == "draw" and e.get("from") != "back"]
    back = [e["tile"] for e in hand["events"] if e.get("from") == "back"]
    left = Counter({str(t): 4 for t in TILES})
    left.subtract([t for seat in hand["deal"] for t in seat] + [hand["indicator"], *front, *back])
    assert min(left.values()) >= 0
    hand["wall"] = front + sorted(left.elements()) + back[::-1]
    return doc


SAMPLES: dict[str, Callable[[], Doc]] = {
    "jiaxing": jiaxing,
    "jiaxing_contract": jiaxing_contract,
    "jiaxing_wall": lambda: with_wall(jiaxing()),
    "putian": putian,
    "sichuan": sichuan,
}


def validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(schema())


# -- valid documents ------------------------------------------------------------


@pytest.mark.parametrize("name", SAMPLES)
def test_it_round_trips_every_sample(name: str) -> None:
    doc = SAMPLES[name]()
    match = read_log(doc)
    assert write_log(match) == doc
    assert loads(dumps(match)) == match
    assert json.loads(dumps(match)) == doc
    assert loads(json.dumps(doc)) == match


@pytest.mark.parametrize("name", SAMPLES)
def test_it_accepts_every_sample_by_schema(name: str) -> None:
    validator().validate(SAMPLES[name]())


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_it_round_trips_bot_matches_that_the_schema_accepts(variant: str) -> None:
    from games.bots.simulation import simulate

    match = simulate(variant, 3, seed=11)
    doc = write_log(match)
    validator().validate(doc)
    assert read_log(doc) == match and json.loads(dumps(match)) == doc


def test_it_reads_fields_into_typed_values() -> None:
    match = read_log(jiaxing())
    assert match.variant == "jiaxing" and match.players[2] == "Chen"
    assert match.rules == {"base": 5}
    assert match.options() == {name: option.default for name, option
                               in VARIANTS["jiaxing"].OPTIONS.items()} | {"base": 5}
    first, second = match.hands
    assert first.dealer == 0 and first.round_wind == "E" and first.dice == (3, 5)
    assert first.wildcards == (Tile.parse("5p"),) and first.indicator == Tile.parse("4p")
    assert first.bank is None and second.bank == () and first.wall is None
    assert len(first.deal[0]) == 14 and first.deal[3][:4] == (Tile.parse("8m"),) * 4
    assert first.events[1] == Event("peng", 2, tile=Tile.parse("7z"), target=0)
    assert first.events[5].source == "back" and first.events[5].source_written
    assert first.events[3].source == "front" and not first.events[3].source_written
    assert first.events[-1] == Event("end", reason="win", deltas=(-20, -20, 60, -20))
    chi = read_log(jiaxing_contract()).hands[0].events[1]
    assert chi.tiles == (Tile.parse("3m"), Tile.parse("5m")) and chi.target == 0


def test_it_keeps_optional_fields_as_written() -> None:
    doc = sichuan()
    del doc["rules"]
    assert "rules" not in write_log(read_log(doc))
    doc["rules"] = {}
    assert write_log(read_log(doc))["rules"] == {}
    doc = putian()
    del doc["hands"][0]["dealer_streak"]
    assert read_log(doc).hands[0].dealer_streak is None
    assert write_log(read_log(doc)) == doc


def test_it_keeps_a_written_from_front() -> None:
    doc = jiaxing()
    events0(doc)[9]["from"] = "front"
    event = read_log(doc).hands[0].events[9]
    assert event.source == "front" and event.source_written
    assert write_log(read_log(doc)) == doc
    assert "from" not in write_log(read_log(jiaxing()))["hands"][0]["events"][9]


def test_it_writes_a_match_built_in_code() -> None:
    hand = Hand(
        dealer=0, dice=(6, 6),
        deal=tuple(tuple(Tile.parse(t) for t in seat) for seat in putian()["hands"][0]["deal"]),
        events=(Event("end", reason="exhausted"),),
        wildcards=(Tile.parse("1m"), Tile.parse("2m")),
    )
    hand = Hand(hand.dealer, hand.dice, (hand.deal[1], hand.deal[0], *hand.deal[2:]),
                hand.events, wildcards=hand.wildcards)
    match = Match("putian", ("A", "B", "C", "D"), (hand,))
    assert read_log(write_log(match)) == match
    assert write_log(match)["rules"] == {}


def test_it_lays_out_one_event_per_line() -> None:
    text = dumps(read_log(jiaxing()))
    assert '    {"type": "peng", "actor": 2, "target": 0, "tile": "7z"},\n' in text
    assert '"players": ["Alice", "Bob", "Chen", "Dong"],' in text
    assert text.startswith("{\n") and text.endswith("\n}")


def test_it_keeps_names_in_any_script() -> None:
    doc = jiaxing()
    doc["players"] = ["阿明", "Zoë", "😀", "x" * 64]
    doc["title"] = "周五 · 牌局"
    match = loads(dumps(read_log(doc)))
    assert match.players[0] == "阿明" and match.title == "周五 · 牌局"
    assert "阿明" in dumps(match)


def test_it_documents_an_example_that_reads_and_round_trips() -> None:
    text = (ROOT / "docs" / "log-format.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```json\n(.*?)```", text, re.S)
    example = json.loads(blocks[-1])
    match = read_log(example)
    assert match.variant == "jiaxing" and write_log(match) == example
    assert example == {**jiaxing(), "hands": jiaxing()["hands"][:1]}
    validator().validate(example)


def test_it_keeps_its_docstring_examples_true() -> None:
    failures, tried = doctest.testmod(games.records.log)
    assert failures == 0 and tried > 10


# -- broken documents -------------------------------------------------------------


def change(base: Callable[[], Doc], edit: Callable[[Doc], Any]) -> Callable[[], Doc]:
    """A broken document: ``base()`` changed in place by ``edit`` (its result is ignored)."""
    def build() -> Doc:
        doc = base()
        edit(doc)
        return doc
    return build


def hand0(doc: Doc) -> Doc:
    hand: Doc = doc["hands"][0]
    return hand


def events0(doc: Doc) -> list[Doc]:
    events: list[Doc] = doc["hands"][0]["events"]
    return events


def put(obj: Doc, /, **fields: Any) -> None:
    obj.update(fields)


def insert_event(at: int, event: Doc) -> Callable[[Doc], None]:
    return lambda doc: events0(doc).insert(at, event)


# (id, document, message fragment, hand, event, rule, the schema rejects it too)
BROKEN: list[tuple[str, Callable[[], Any], str, int | None, int | None, str | None, bool]] = [
    ("array", lambda: [], "is a JSON object, not an array", None, None, None, True),
    ("no format", change(jiaxing, lambda d: d.pop("format")), "format is missing",
     None, None, None, True),
    ("format 2", change(jiaxing, lambda d: put(d, format="mahjong-log/2")),
     'format must be exactly "mahjong-log/1"', None, None, None, True),
    ("variant", change(jiaxing, lambda d: put(d, variant="riichi")),
     'unknown variant "riichi": use jiaxing, putian or sichuan', None, None, None, True),
    ("no variant", change(jiaxing, lambda d: d.pop("variant")), "the document has no variant",
     None, None, None, True),
    ("top field", change(jiaxing, lambda d: put(d, comment="hi")),
     'unknown field "comment" in the document', None, None, None, True),
    ("three players", change(jiaxing, lambda d: d["players"].pop()),
     "players must be an array of four names", None, None, "C-2", True),
    ("players text", change(jiaxing, lambda d: put(d, players="Alice")),
     "players must be an array of four names", None, None, "C-2", True),
    ("empty name", change(jiaxing, lambda d: d["players"].__setitem__(1, " ")),
     "the name of seat 1 is empty", None, None, None, True),
    ("long name", change(jiaxing, lambda d: d["players"].__setitem__(2, "x" * 65)),
     "the name of seat 2 is 65 characters long; at most 64", None, None, None, True),
    ("control name", change(jiaxing, lambda d: d["players"].__setitem__(0, "Al\nice")),
     "the name of seat 0 contains the control character U+000A", None, None, None, True),
    ("number name", change(jiaxing, lambda d: d["players"].__setitem__(3, 7)),
     "the name of seat 3 must be a string, not a number", None, None, None, True),
    ("rules option", change(jiaxing, lambda d: put(d, rules={"bsae": 5})),
     "unknown jiaxing rules option \"bsae\"", None, None, None, True),
    ("rules base 0", change(jiaxing, lambda d: put(d, rules={"base": 0})),
     "rules option 'base' must be an integer from 1 to", None, None, None, True),
    ("rules bool", change(jiaxing, lambda d: put(d, rules={"base": True})),
     "rules option 'base' must be an integer from 1 to", None, None, None, True),
    ("rules huge", change(jiaxing, lambda d: put(d, rules={"base": 10**15})),
     'rules option "base" is too large', None, None, None, True),
    ("rules choice", change(jiaxing, lambda d: put(d, rules={"wildcard_method": "dice"})),
     "rules option 'wildcard_method' must be one of indicator_next, indicator",
     None, None, None, True),
    ("rules list", change(jiaxing, lambda d: put(d, rules={"base": [5]})),
     'rules option "base" must be a number, a name or true/false', None, None, None, True),
    ("rules array", change(jiaxing, lambda d: put(d, rules=[])),
     "rules must be an object of options, not an array", None, None, None, True),
    ("sichuan option in putian", change(putian, lambda d: put(d, rules={"cap_fan": 4})),
     'unknown putian rules option "cap_fan" (known: fee)', None, None, None, True),
    ("title type", change(jiaxing, lambda d: put(d, title=5)),
     "title must be a string", None, None, None, True),
    ("played_at text", change(jiaxing, lambda d: put(d, played_at="last Friday")),
     "played_at must be an ISO 8601 time", None, None, None, True),
    ("played_at date", change(jiaxing, lambda d: put(d, played_at="2026-13-40")),
     'played_at "2026-13-40" is no real date and time', None, None, None, False),
    ("no hands", change(jiaxing, lambda d: put(d, hands=[])),
     "hands must be a non-empty array", None, None, None, True),
    ("too many hands", change(jiaxing, lambda d: put(d, hands=d["hands"] * 251)),
     f"the document has 502 hands; at most {MAX_HANDS}", None, None, None, True),
    ("hand type", change(jiaxing, lambda d: d["hands"].__setitem__(1, [])),
     "a hand must be an object, not an array", 2, None, None, True),
    ("no dealer", change(jiaxing, lambda d: hand0(d).pop("dealer")),
     "the hand has no dealer", 1, None, None, True),
    ("dealer 4", change(jiaxing, lambda d: put(d["hands"][1], dealer=4)),
     "dealer must be a seat 0–3, not 4", 2, None, "C-2", True),
    ("dealer bool", change(jiaxing, lambda d: put(hand0(d), dealer=False)),
     "dealer must be a seat 0–3, not false", 1, None, "C-2", True),
    ("dice range", change(jiaxing, lambda d: put(hand0(d), dice=[0, 7])),
     "dice must be two integers 1–6", 1, None, None, True),
    ("dice float", change(jiaxing, lambda d: put(hand0(d), dice=[3.0, 5])),
     "dice must be two integers 1–6", 1, None, None, False),
    ("no dice", change(sichuan, lambda d: hand0(d).pop("dice")),
     "the hand has no dice", 1, None, None, True),
    ("no round wind", change(jiaxing, lambda d: hand0(d).pop("round_wind")),
     "the hand has no round_wind", 1, None, "JX-3", True),
    ("round wind", change(jiaxing, lambda d: put(hand0(d), round_wind="East")),
     'round_wind must be one of E, S, W, N, not "East"', 1, None, "JX-3", True),
    ("no wildcards", change(jiaxing, lambda d: hand0(d).pop("wildcards")),
     "the hand has no wildcards", 1, None, "JX-4", True),
    ("two wildcards", change(jiaxing, lambda d: put(hand0(d), wildcards=["5p", "6p"])),
     "wildcards must list one wildcard kind", 1, None, "JX-4", True),
    ("same golds", change(putian, lambda d: put(hand0(d), wildcards=["3p", "3p"])),
     "3p is listed twice", 1, None, "PT-2", True),
    ("honour gold", change(putian, lambda d: put(hand0(d), wildcards=["3p", "1z"])),
     "1z is not a putian tile", 1, None, "PT-1", True),
    ("sichuan wildcards", change(sichuan, lambda d: put(hand0(d), wildcards=[])),
     "sichuan plays without wildcards", 1, None, "SC-1", True),
    ("putian round wind", change(putian, lambda d: put(hand0(d), round_wind="E")),
     "round_wind is a jiaxing field; putian hands have none", 1, None, "JX-3", True),
    ("jiaxing streak", change(jiaxing, lambda d: put(hand0(d), dealer_streak=0)),
     "dealer_streak is a putian field; jiaxing hands have none", 1, None, "PT-7.1", True),
    ("hand field", change(jiaxing, lambda d: put(hand0(d), notes="x")),
     'unknown hand field "notes"', 1, None, None, True),
    ("bank item", change(jiaxing, lambda d: put(d["hands"][1], bank=["huang"])),
     'unknown carried fan "huang" in bank', 2, None, "JX-7.11", True),
    ("streak", change(putian, lambda d: put(hand0(d), dealer_streak=-1)),
     "dealer_streak must be an integer 0–1000, not -1", 1, None, "PT-7.1", True),
    ("deal of three", change(jiaxing, lambda d: hand0(d)["deal"].pop()),
     "deal must be four arrays of tiles", 1, None, "JX-1", True),
    ("dealer 13", change(jiaxing, lambda d: hand0(d)["deal"][0].pop()),
     "seat 0 (Alice) is dealt 13 tiles; in jiaxing the dealer starts with 14",
     1, None, "JX-1", True),
    ("dealer moved", change(jiaxing, lambda d: put(hand0(d), dealer=1)),
     "seat 0 (Alice) is dealt 14 tiles; in jiaxing a player other than the dealer starts "
     "with 13", 1, None, "JX-1", True),
    ("putian 15", change(putian, lambda d: hand0(d)["deal"][2].pop()),
     "seat 2 (Chen) is dealt 15 tiles; in putian a player other than the dealer starts with 16",
     1, None, "PT-1", True),
    ("bad tile", change(jiaxing, lambda d: hand0(d)["deal"][1].__setitem__(0, "0m")),
     'the deal of seat 1 (Bob): "0m" is no tile', 1, None, "C-1", True),
    ("spaced tile", change(jiaxing, lambda d: hand0(d)["deal"][1].__setitem__(0, " 1p")),
     '" 1p" is no tile', 1, None, "C-1", True),
    ("two tiles in one", change(jiaxing, lambda d: hand0(d)["deal"][1].__setitem__(0, "12p")),
     '"12p" is no tile', 1, None, "C-1", True),
    ("honour in sichuan", change(sichuan, lambda d: hand0(d)["deal"][1].__setitem__(0, "1z")),
     "1z is not a sichuan tile; sichuan plays the 108 suited tiles, no honours",
     1, None, "SC-1", True),
    ("red in putian", change(putian, lambda d: hand0(d)["deal"][1].__setitem__(0, "7z")),
     "7z is not a putian tile", 1, None, "PT-1", True),
    ("wall too long", change(sichuan, lambda d: put(hand0(d), wall=["1m"] * 56)),
     "the wall has 56 tiles; sichuan has only 55 left after the deal", 1, None, "SC-1", True),
    ("wall tile", change(jiaxing, lambda d: put(hand0(d), wall=["1m", "8z"])),
     'wall: "8z" is no tile', 1, None, "C-1", True),
    ("indicator in putian", change(putian, lambda d: put(hand0(d), indicator="5z")),
     "indicator is a jiaxing field", 1, None, "JX-4", True),
    ("no events", change(jiaxing, lambda d: put(hand0(d), events=[])),
     "events must be a non-empty array of events ending with end", 1, None, None, True),
    ("too many events", change(jiaxing, lambda d: put(
        hand0(d), events=[{"type": "leave", "actor": 0}] * MAX_EVENTS + events0(d)[-1:])),
     f"the hand has {MAX_EVENTS + 1} events; at most {MAX_EVENTS}", 1, None, None, True),
    ("event type", change(jiaxing, lambda d: events0(d).__setitem__(2, "discard")),
     "an event must be an object, not a string", 1, 3, None, True),
    ("event without type", change(jiaxing, lambda d: events0(d)[2].pop("type")),
     "the event has no type", 1, 3, None, True),
    ("unknown type", change(jiaxing, insert_event(1, {"type": "pass", "actor": 1})),
     'unknown event type "pass"', 1, 2, None, True),
    ("actor 4", change(jiaxing, lambda d: put(events0(d)[0], actor=4)),
     "actor must be a seat 0–3, not 4", 1, 1, "C-2", True),
    ("actor bool", change(jiaxing, lambda d: put(events0(d)[0], actor=True)),
     "actor must be a seat 0–3, not true", 1, 1, "C-2", True),
    ("no actor", change(jiaxing, lambda d: events0(d)[0].pop("actor")),
     "discard needs the field actor", 1, 1, None, True),
    ("no tile", change(jiaxing, lambda d: events0(d)[3].pop("tile")),
     "draw needs the field tile", 1, 4, None, True),
    ("event field", change(jiaxing, lambda d: put(events0(d)[0], **{"from": "back"})),
     'discard has no field "from" (its fields: type, actor, tile)', 1, 1, None, True),
    ("end actor", change(jiaxing, lambda d: put(events0(d)[-1], actor=2)),
     'end has no field "actor"', 1, 14, None, True),
    ("draw from", change(jiaxing, lambda d: put(events0(d)[3], **{"from": "middle"})),
     'from must be one of front, back, not "middle"', 1, 4, None, True),
    ("tile as list", change(jiaxing, lambda d: put(events0(d)[0], tile=["7z"])),
     'tile: a tile is a string like "5m", not ["7z"]', 1, 1, "C-1", True),
    ("gang kind", change(jiaxing, lambda d: put(events0(d)[4], kind="open")),
     "kind must be one of exposed, added, concealed", 1, 5, None, True),
    ("exposed gang", change(jiaxing, lambda d: put(events0(d)[4], kind="exposed")),
     "an exposed gang needs the target", 1, 5, None, True),
    ("concealed target", change(jiaxing, lambda d: put(events0(d)[4], target=1)),
     "a concealed gang has no target", 1, 5, None, True),
    ("putian added gang", change(putian, insert_event(
        3, {"type": "gang", "actor": 2, "kind": "added", "tile": "6m"})),
     "putian has no added gang, only concealed ones", 1, 4, "PT-4", True),
    ("chi one tile", change(jiaxing_contract, lambda d: put(events0(d)[1], tiles=["3m"])),
     "chi tiles must be the two tiles shown from hand", 1, 2, None, True),
    ("chi no chow", change(jiaxing_contract, lambda d: put(events0(d)[1], tiles=["1m", "9m"])),
     "chi: 4m 1m 9m is no chow", 1, 2, "C-3", False),
    ("own discard", change(jiaxing, lambda d: put(events0(d)[1], target=2)),
     "peng: the target must be another seat than the actor", 1, 2, "C-2", True),
    ("target bool", change(jiaxing, lambda d: put(events0(d)[1], target=False)),
     "target must be a seat 0–3, not false", 1, 2, "C-2", True),
    ("chi in sichuan", change(sichuan, insert_event(
        5, {"type": "chi", "actor": 3, "target": 2, "tile": "7s", "tiles": ["8s", "9s"]})),
     "sichuan has no chi (chow) event; it is jiaxing only", 1, 6, "SC-3", True),
    ("chi in putian", change(putian, insert_event(
        3, {"type": "chi", "actor": 2, "target": 1, "tile": "9p", "tiles": ["7p", "8p"]})),
     "putian has no chi (chow) event", 1, 4, "PT-4", True),
    ("peng in putian", change(putian, insert_event(
        3, {"type": "peng", "actor": 2, "target": 1, "tile": "9p"})),
     "putian has no peng (pung) event; it is jiaxing and sichuan only", 1, 4, "PT-4", True),
    ("flower in jiaxing", change(jiaxing, insert_event(0, {"type": "flower", "actor": 0,
                                                         "tile": "5z"})),
     "jiaxing has no flower event; it is putian only", 1, 1, "PT-3", True),
    ("flower tile", change(putian, lambda d: put(events0(d)[0], tile="1m")),
     "a flower is a white (5z), not 1m", 1, 1, "PT-3", True),
    ("ready in sichuan", change(sichuan, insert_event(4, {"type": "ready", "actor": 2})),
     "sichuan has no ready event", 1, 5, "PT-5.3", True),
    ("dingque in jiaxing", change(jiaxing, insert_event(0, {"type": "dingque", "actor": 0,
                                                          "suit": "m"})),
     "jiaxing has no dingque (void suit) event; it is sichuan only", 1, 1, "SC-2", True),
    ("dingque suit", change(sichuan, lambda d: put(events0(d)[1], suit="z")),
     'suit must be one of m, p, s, not "z"', 1, 2, "SC-2", True),
    ("contract in sichuan", change(sichuan, insert_event(
        5, {"type": "contract", "actor": 1, "choice": "persist"})),
     "sichuan has no contract event; it is jiaxing only", 1, 6, "JX-9", True),
    ("contract choice", change(jiaxing_contract, lambda d: put(events0(d)[5], choice="maybe")),
     'choice must be one of persist, give_up, not "maybe"', 1, 6, "JX-9", True),
    ("hu how", change(jiaxing, lambda d: put(events0(d)[12], how="tsumo")),
     "how must be one of robbing_kong, rob_gold, bomb", 1, 13, None, True),
    ("rob gold in jiaxing", change(jiaxing, lambda d: put(events0(d)[12], how="rob_gold")),
     "jiaxing has no rob_gold win", 1, 13, "PT-5.5", True),
    ("robbing kong in putian", change(putian, lambda d: put(events0(d)[10],
                                                            how="robbing_kong")),
     "putian has no robbing_kong win", 1, 11, "PT-4", True),
    ("jiaxing discard win", change(jiaxing, lambda d: put(events0(d)[12], target=1)),
     "jiaxing has no win on a discard", 1, 13, "JX-5.1", True),
    ("robbing without target", change(jiaxing_contract, lambda d: events0(d)[7].pop("target")),
     "a robbing_kong win needs the target", 1, 8, None, True),
    ("bomb with target", change(putian, lambda d: put(events0(d)[10], how="bomb")),
     "a bomb win has no target", 1, 11, None, True),
    ("end reason", change(jiaxing, lambda d: put(events0(d)[-1], reason="draw")),
     'reason must be one of win, exhausted, abandoned, not "draw"', 1, 14, None, True),
    ("three deltas", change(jiaxing, lambda d: put(events0(d)[-1], deltas=[-20, 40, -20])),
     "end deltas must be four integers", 1, 14, None, True),
    ("bool delta", change(jiaxing, lambda d: put(events0(d)[-1], deltas=[True, 0, 0, -1])),
     "end deltas must be four integers", 1, 14, None, True),
    ("float delta", change(jiaxing, lambda d: put(events0(d)[-1], deltas=[-20.5, 0, 0, 20.5])),
     "end deltas must be four integers", 1, 14, None, True),
    ("huge delta", change(jiaxing, lambda d: put(events0(d)[-1], deltas=[-10**13, 0, 0, 10**13])),
     "end deltas: -10000000000000 is beyond ±1,000,000,000,000", 1, 14, None, True),
    ("no end", change(jiaxing, lambda d: events0(d).pop()),
     "the hand's last event must be end, not hu", 1, 13, None, True),
    ("two ends", change(jiaxing, insert_event(3, {"type": "end", "reason": "exhausted"})),
     "end must be the hand's last event; more events follow it", 1, 4, None, True),
    ("end moved", change(jiaxing, lambda d: events0(d).insert(0, events0(d).pop())),
     "end must be the hand's last event", 1, 1, None, False),
    ("second hand event", change(jiaxing, lambda d: put(d["hands"][1]["events"][0], tile="9x")),
     '"9x" is no tile', 2, 1, "C-1", True),
]


@pytest.mark.parametrize(
    ("build", "words", "hand", "event", "rule"),
    [pytest.param(*case[1:6], id=case[0]) for case in BROKEN],
)
def test_it_rejects_a_broken_document_naming_the_problem(
    build: Callable[[], Any], words: str, hand: int | None, event: int | None, rule: str | None
) -> None:
    with pytest.raises(LogError) as caught:
        read_log(build())
    error = caught.value
    assert words in error.message
    assert (error.hand, error.event, error.rule) == (hand, event, rule)
    assert error.to_json() == {"hand": hand, "event": event, "rule": rule,
                               "message": error.message}
    assert str(error).startswith(f"hand {hand}, event {event}: " if event else
                                 f"hand {hand}: " if hand else error.message)
    assert isinstance(error, ValueError)


def test_it_has_enough_broken_documents() -> None:
    assert len(BROKEN) >= 30
    assert len({case[0] for case in BROKEN}) == len(BROKEN)


@pytest.mark.parametrize(
    "build", [pytest.param(case[1], id=case[0]) for case in BROKEN if case[6]])
def test_it_agrees_with_the_schema_on_broken_documents(build: Callable[[], Any]) -> None:
    assert not validator().is_valid(build())


@pytest.mark.parametrize(
    "build", [pytest.param(case[1], id=case[0]) for case in BROKEN if not case[6]])
def test_it_checks_what_the_schema_cannot(build: Callable[[], Any]) -> None:
    """Calendar dates, 3.0 as an integer, chow shapes, end's position: the reader only."""
    assert validator().is_valid(build())
    with pytest.raises(LogError):
        read_log(build())


# -- the text -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "the document is not valid JSON: Expecting value at line 1, column 1"),
        ("{", "the document is not valid JSON: Expecting property name"),
        ("<html></html>", "the document is not valid JSON"),
        ('{"format": "mahjong-log/1"} x', "Extra data at line 1, column 29"),
        ("\ufeff{}", "the document is not valid JSON"),
        ('{"format": "mahjong-log/1", "format": "mahjong-log/1"}',
         'the field "format" appears twice in one object'),
        ('{"a": NaN}', "NaN is not a JSON number"),
        ('{"a": -Infinity}', "-Infinity is not a JSON number"),
        ('{"a": ' + "9" * 5000 + "}", "an integer in the document is too large"),
        ("[" * 100_000 + "]" * 100_000, f"nested more than {MAX_DEPTH} levels deep"),
        ("[" * 100_000, f"nested more than {MAX_DEPTH} levels deep"),
        ('{"title": ' + "[" * 40 + "]" * 40 + "}", "nested more than"),
        ("null", "is a JSON object, not null"),
        ('"mahjong-log/1"', "is a JSON object, not a string"),
    ],
)
def test_it_rejects_text_that_is_not_a_document(text: str, words: str) -> None:
    with pytest.raises(LogError) as caught:
        loads(text)
    assert words in str(caught.value)
    assert caught.value.hand is None and caught.value.event is None


def test_it_skips_brackets_inside_strings_when_measuring_depth() -> None:
    doc = jiaxing()
    doc["title"] = "[[[[" * 40 + '\\"{{'
    assert loads(json.dumps(doc)).title == doc["title"]


def test_it_reads_nested_values_it_does_not_expect_without_a_traceback() -> None:
    doc = jiaxing()
    deep: Any = "x"
    for _ in range(20):
        deep = [deep]
    doc["title"] = deep
    with pytest.raises(LogError, match="title must be a string, not an array"):
        loads(json.dumps(doc))
    very_deep: Any = []
    for _ in range(100_000):  # built without recursion; read_log must not recurse into it
        very_deep = [very_deep]
    for place in ("players", "hands", "title", "rules"):
        doc = jiaxing()
        doc[place] = very_deep
        with pytest.raises(LogError):
            read_log(doc)
    doc = jiaxing()
    hand0(doc)["deal"] = [very_deep] * 4
    with pytest.raises(LogError, match="must be an array of tiles|is dealt 1 tiles"):
        read_log(doc)


def test_it_rejects_a_text_too_long(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(games.records.log, "MAX_CHARS", 100)
    with pytest.raises(LogError, match="longer than 100 characters"):
        loads(" " * 101)


def test_it_takes_only_text() -> None:
    with pytest.raises(TypeError, match="not bytes"):
        loads(b"{}")  # type: ignore[arg-type]


def test_it_pickles_an_error_with_its_place() -> None:
    error = LogError("no", hand=3, event=4, rule="SC-2")
    again = pickle.loads(pickle.dumps(error))
    assert again.to_json() == error.to_json() and str(again) == str(error)


def test_it_puts_the_hand_and_event_into_the_message() -> None:
    doc = jiaxing()
    doc["hands"][1]["events"][1]["actor"] = 9
    with pytest.raises(LogError) as caught:
        loads(json.dumps(doc))
    assert str(caught.value) == "hand 2, event 2: actor must be a seat 0–3, not 9 (C-2)"


# -- the schema ------------------------------------------------------------------


def test_it_ships_a_valid_draft_2020_12_schema() -> None:
    document = schema()
    assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(document)


def test_it_describes_every_field_in_the_schema() -> None:
    missing: list[str] = []

    def walk(node: Any, path: str) -> None:
        if isinstance(node, dict):
            if node.get("additionalProperties") is False:
                for name, field in node.get("properties", {}).items():
                    if "description" not in field:
                        missing.append(f"{path}/{name}")
            for key, value in node.items():
                walk(value, f"{path}/{key}")
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, f"{path}/{index}")

    walk(schema(), "")
    assert missing == []


def test_it_lists_every_variant_option_in_the_schema() -> None:
    for name, variant in VARIANTS.items():
        listed = schema()["$defs"][f"{name}Rules"]["properties"]
        assert set(listed) == set(variant.OPTIONS)
        for option_name, option in variant.OPTIONS.items():
            assert listed[option_name]["default"] == option.default


def test_it_documents_every_variant_option() -> None:
    text = (ROOT / "docs" / "log-format.md").read_text(encoding="utf-8")
    for name, variant in VARIANTS.items():
        for option in variant.OPTIONS:
            assert f"| {name} | `{option}` |" in text


def test_it_keeps_the_schema_limits_in_step_with_the_reader() -> None:
    document = schema()
    assert document["properties"]["hands"]["maxItems"] == MAX_HANDS
    for name in VARIANTS:
        hand = document["$defs"][f"{name}Hand"]["properties"]
        assert hand["events"]["maxItems"] == MAX_EVENTS
        assert hand["wall"]["maxItems"] == games.records.log._wall_room(VARIANTS[name])
