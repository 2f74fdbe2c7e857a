"""Playing against the bots, the engine side (issue 14): games/play/bot_match.py.

A seeded human answers every decision with a legal action (at random, or the
hint's first choice, to reach wins, ready hands and contracts too). Every view
served is checked for leaks two ways: by its shape (no wall, no seed before the
end, no concealed tiles of another seat unless the rules show them) and by
experiment (changing another seat's concealed tiles and the wall's order
changes nothing in it). Every finished match must validate, re-deal from its
seed, and add up to its settlements.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from typing import Any

import pytest

from games.core.table import Phase
from games.core.tiles import TILES
from games.play.bot_match import (
    IllegalAction,
    PlayError,
    PlayMatch,
    StaleStep,
    VerifyError,
    play_randomly,
    verify,
)
from games.records.log import dumps, loads
from games.records.match import replay

VARIANTS = ("jiaxing", "putian", "sichuan")
HANDS_PER_VARIANT = 200  # `make test-slow`
# `make test`: six matches, both players and every rule set; every kind of choice the check
# below asks for is offered by the 32nd hand (Jiaxing; Putian's by the 16th, Sichuan's 8th).
FIRST_HANDS_PER_VARIANT = 48
RULES = {"jiaxing": [{}, {"base": 2}], "putian": [{}],
         "sichuan": [{}, {"cap_fan": 3, "base": 2}]}


# -- leak checks ----------------------------------------------------------------------


def _json_keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _json_keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _json_keys(v)}
    return set()


def _check_shape(match: PlayMatch, view: dict[str, Any]) -> None:
    """Nothing in the view that its seat may not see, by where it would be."""
    keys = _json_keys(view)
    assert not keys & {"wall", "deal", "events"}, "the view shows a wall, deal or log"
    assert ("seed" in view) == view["over"], "the seed shows before the end"
    assert match.seed not in json.dumps(view) or view["over"]
    table = match._table  # the engine's own state, to compare the counts shown with
    if table is None:
        return
    for shown in view["seats"]:
        seat = shown["seat"]
        state = table.seats[seat]
        assert shown["concealed_count"] == state.size
        if seat != view["seat"] and not state.won and not table.ended:
            assert "hand" not in shown, f"seat {seat}'s concealed tiles are shown"
            for meld in shown["melds"]:
                if meld.get("kind") == "concealed":
                    assert "tile" not in meld, "another seat's concealed kong is shown"


def _check_unchanged_by_secrets(match: PlayMatch, render: Any) -> None:
    """Change what the viewer can't see (another seat's concealed tile, the wall's order):
    the rendering must not change."""
    table = match._table
    if table is None or table.ended or table.wall is None or table.back <= table.front:
        return
    before = json.dumps(render(), sort_keys=True)
    wall = table.wall
    rest = wall[table.front:table.back]
    shuffled = list(rest)
    random.Random(len(rest)).shuffle(shuffled)
    wall[table.front:table.back] = shuffled
    try:
        assert json.dumps(render(), sort_keys=True) == before, "the view depends on the wall"
    finally:
        wall[table.front:table.back] = rest
    for seat, state in enumerate(table.seats):
        if seat == match.seat or state.won or not state.size:
            continue
        # Exchange the seat's concealed tiles for wall tiles of other kinds where possible.
        held = state.tiles()
        spots = sorted(range(table.front, table.back),
                       key=lambda i: (wall[i] in held, i))[:len(held)]
        saved = (list(state.hand), {i: wall[i] for i in spots})
        for tile, spot in zip(held, spots, strict=False):
            state.hand[tile.kind] -= 1
            state.hand[wall[spot].kind] += 1
            wall[spot] = tile
        try:
            assert json.dumps(render(), sort_keys=True) == before, \
                f"the view depends on seat {seat}'s concealed tiles"
        finally:
            state.hand[:] = saved[0]
            for spot, tile in saved[1].items():
                wall[spot] = tile


def _check_events(match: PlayMatch, entries: list[dict[str, Any]]) -> None:
    for entry in entries:
        event = entry["event"]
        actor = event.get("actor")
        if actor is not None and actor != match.seat and (
                event["type"] == "draw" or event.get("kind") == "concealed"):
            assert "tile" not in event, f"another seat's {event['type']} shows its tile"


# -- playing a match ------------------------------------------------------------------


class Player:
    """A seeded human: a random legal action, or (half of the matches) the hint's best."""

    def __init__(self, seed: int, sensible: bool) -> None:
        self.rng = random.Random(seed)
        self.sensible = sensible
        self.offered: Counter[str] = Counter()

    def choose(self, match: PlayMatch, legal: list[dict[str, Any]]) -> dict[str, Any]:
        for action in legal:
            key = action["type"] if action["type"] != "hu" else f"hu:{action.get('how')}"
            self.offered[key] += 1
        wins = [a for a in legal if a["type"] == "hu"]
        if self.sensible and wins:
            return wins[0]
        if self.sensible and len(legal) > 1 and self.rng.random() < 0.9:
            best = [o for o in match.hint()["options"] if o["rank"] == 1]
            return self.rng.choice(best)["action"]  # type: ignore[no-any-return]
        return self.rng.choice(legal)


def _play_checked(match: PlayMatch, player: Player, seen: list[tuple[int, int]]) -> None:
    entries = match.events_since(1, 0)
    while True:
        _check_events(match, entries)
        seen.extend((e["hand"], e["index"]) for e in entries)
        view = match.view()
        _check_shape(match, view)
        _check_unchanged_by_secrets(match, match.view)
        if view["over"]:
            return
        assert view["legal"] and view["legal"] == match.legal()
        entries = match.act(view["step"], player.choose(match, view["legal"]))


def play_without_leaking(variant: str, total: int) -> None:
    """Matches of 8 hands (seeds, seats, rules and players varied) until ``total`` hands:
    every view checked, every log validated and verified, every kind of choice offered."""
    hands = 0
    offered: Counter[str] = Counter()
    number = 0
    while hands < total:
        number += 1
        rules = RULES[variant][number % len(RULES[variant])]
        size = min(8, total - hands)
        match = PlayMatch.start(variant, seed=f"test-{variant}-{number}", hands=size,
                                seat=None if number % 3 == 0 else number % 4, rules=rules)
        player = Player(number, sensible=number % 2 == 0)
        seen: list[tuple[int, int]] = []
        _play_checked(match, player, seen)
        offered.update(player.offered)
        hands += size
        log = match.log()
        # The stream shows every entry of the log once, in order (deals as entry 0).
        assert seen == [(n, i) for n, hand in enumerate(log.hands, 1)
                        for i in range(len(hand.events) + 1)]
        settled = replay(loads(dumps(log)))  # validates, with every end's deltas
        result = match.result()
        assert settled.totals == result["totals"] == [
            sum(h["deltas"][s] for h in result["hands"]) for s in range(4)]
        assert result["you"]["net"] == settled.totals[match.seat]
        verify(log, match.seed)
        assert len(log.hands) == size
    expected = {"jiaxing": {"discard", "chi", "peng", "pass", "gang", "hu:None", "contract"},
                "putian": {"discard", "pass", "ready", "hu:None"},
                "sichuan": {"discard", "dingque", "peng", "pass", "gang", "hu:None"}}[variant]
    assert expected <= set(offered), f"never offered: {expected - set(offered)}"


@pytest.mark.parametrize("variant", VARIANTS)
def test_it_plays_48_hands_per_variant_without_leaking(variant: str) -> None:
    play_without_leaking(variant, FIRST_HANDS_PER_VARIANT)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_it_plays_200_hands_per_variant_without_leaking(variant: str) -> None:
    play_without_leaking(variant, HANDS_PER_VARIANT)


# -- steps, illegal actions, seeds, storage ---------------------------------------------


def test_it_refuses_a_stale_step_and_a_double_submit() -> None:
    match = PlayMatch.start("jiaxing", seed="stale", seat=1, hands=1)
    step, action = match.step, match.legal()[0]
    match.act(step, action)
    after = match.view()
    with pytest.raises(StaleStep) as stale:
        match.act(step, action)  # the same click again
    assert "reload" in str(stale.value) and stale.value.current == step + 1
    with pytest.raises(StaleStep):
        match.act(step + 5, match.legal()[0])
    with pytest.raises(StaleStep):
        match.act(str(match.step), match.legal()[0])
    assert match.view() == after, "a refused action changed the game"


def _turn(variant: str, seed: str, seat: int = 0) -> PlayMatch:
    """A match at the human's first turn to discard."""
    match = PlayMatch.start(variant, seed=seed, seat=seat, hands=1)
    rng = random.Random(0)
    while match.pending is not None and match.pending.kind != "turn":
        match.act(match.step, rng.choice(match.legal()))
    assert match.pending is not None
    return match


@pytest.mark.parametrize(("variant", "action", "rule"), [
    ("jiaxing", {"type": "hu", "tile": "1m", "target": 1}, "JX-5.1"),
    ("jiaxing", {"type": "pass"}, "C-2"),
    ("jiaxing", {"type": "draw", "tile": "1m"}, "C-5"),
    ("jiaxing", {"type": "discard"}, "C-2"),
    ("jiaxing", {"type": "ready"}, "PT-5.3"),
    ("jiaxing", ["discard", "5m"], "C-2"),
    ("putian", {"type": "chi", "tile": "3m", "target": 3, "tiles": ["1m", "2m"]}, "PT-4"),
    ("sichuan", {"type": "dingque", "suit": "m"}, "SC-2"),
    ("sichuan", {"type": "contract", "choice": "persist"}, "JX-9"),
])
def test_it_names_the_rule_of_an_illegal_action(variant: str, action: Any, rule: str) -> None:
    match = _turn(variant, f"illegal-{variant}")
    before = match.view()
    with pytest.raises(IllegalAction) as refused:
        match.act(match.step, action)
    assert refused.value.rule == rule, refused.value.message
    assert refused.value.message
    assert match.view() == before


def test_it_names_the_rule_of_a_tile_not_held_and_of_a_golds_discard() -> None:
    match = _turn("jiaxing", "not-held")
    hand = match.view()["you"]
    held = {*hand["hand"], hand["drawn"]}
    missing = next(str(t) for t in TILES if str(t) not in held)
    with pytest.raises(IllegalAction) as refused:
        match.act(match.step, {"type": "discard", "tile": missing})
    assert refused.value.rule == "C-1" and "not in their hand" in refused.value.message
    for seed in range(40):  # a Putian hand holding a gold: golds are never discarded
        putian = _turn("putian", f"gold-{seed}")
        you = putian.view()["you"]
        golds = [t for t in [*you["hand"], you["drawn"]] if t in putian.view()["wildcards"]]
        if golds:
            with pytest.raises(IllegalAction) as gold:
                putian.act(putian.step, {"type": "discard", "tile": golds[0]})
            assert gold.value.rule == "PT-2"
            return
    raise AssertionError("no Putian hand with a gold in 40 deals")


def test_it_verifies_the_seed_commitment_and_refuses_a_tampered_seed() -> None:
    match = PlayMatch.start("sichuan", seed="fair deal", seat=2, hands=2)
    assert match.view()["commitment"] == hashlib.sha256(b"fair deal").hexdigest()
    assert "seed" not in match.view()
    play_randomly(match, random.Random(4))
    view = match.view()
    assert view["over"] and view["seed"] == "fair deal"
    log = match.log()
    assert match.commitment in (log.title or "")
    verify(log, "fair deal")
    verify(loads(dumps(log)), "fair deal", match.commitment)
    with pytest.raises(VerifyError, match="SHA-256"):
        verify(log, "fair deal!")
    with pytest.raises(VerifyError, match="SHA-256"):
        verify(log, "fair deal", hashlib.sha256(b"other").hexdigest())
    doc = log.to_json()
    wall = doc["hands"][1]["wall"]
    swap = next(i for i in range(1, len(wall)) if wall[i] != wall[0])
    wall[0], wall[swap] = wall[swap], wall[0]  # another order, the same tiles
    with pytest.raises(VerifyError, match="hand 2: the wall"):
        verify(loads(json.dumps(doc)), "fair deal")


def test_it_restores_mid_hand_with_the_same_views_and_plays_on_identically() -> None:
    for variant in VARIANTS:
        match = PlayMatch.start(variant, seed=f"store-{variant}", hands=3)
        rng = random.Random(9)
        while not match.over:
            stored = json.loads(json.dumps(match.to_json()))
            restored = PlayMatch.from_json(stored)
            assert restored.view() == match.view()
            assert restored.hint() == match.hint()
            action = rng.choice(match.legal())
            assert restored.act(restored.step, action) == match.act(match.step, action)
            assert restored.to_json() == match.to_json()
            match = restored if rng.random() < 0.5 else match
        assert match.view()["over"]


def test_it_refuses_a_stored_match_that_was_tampered_with() -> None:
    match = PlayMatch.start("jiaxing", seed="tamper", seat=0, hands=2)
    rng = random.Random(1)
    for _ in range(30):
        match.act(match.step, rng.choice(match.legal()))
    stored = match.to_json()
    changed = json.loads(json.dumps(stored))
    changed["log"]["hands"][0]["deal"][1][0] = changed["log"]["hands"][0]["deal"][0][0]
    with pytest.raises(PlayError, match="hand 1 .* not the deal its seed gives"):
        PlayMatch.from_json(changed)
    changed = json.loads(json.dumps(stored))
    events = changed["log"]["hands"][0]["events"]
    events.insert(0, {"type": "discard", "actor": 3, "tile": "1m"})
    with pytest.raises(PlayError, match="doesn't replay"):
        PlayMatch.from_json(changed)
    with pytest.raises(PlayError, match="format"):
        PlayMatch.from_json({"log": stored["log"]})
    play_randomly(match, random.Random(2))
    finished = match.to_json()
    changed = json.loads(json.dumps(finished))
    changed["log"]["hands"][0]["events"].append({"type": "discard", "actor": 0, "tile": "1m"})
    with pytest.raises(PlayError, match="hand 1 .* events after its end"):
        PlayMatch.from_json(changed)
    changed = json.loads(json.dumps(finished))
    changed["log"]["hands"].append(changed["log"]["hands"][-1])
    with pytest.raises(PlayError, match="has a hand 3, but it was over"):
        PlayMatch.from_json(changed)
    assert PlayMatch.from_json(finished).view() == match.view()


@pytest.mark.parametrize(("kwargs", "problem"), [
    ({"variant": "riichi"}, "unknown variant"),
    ({"seat": 4}, "seat must be 0, 1, 2 or 3"),
    ({"hands": 0}, "number of hands must be from 1 to 64"),
    ({"rules": {"cap_fan": 3}}, "unknown jiaxing rules option 'cap_fan'"),
    ({"seed": ""}, "seed must be text"),
    ({"name": " "}, "name must be 1 to 64 characters"),
])
def test_it_refuses_to_start_with_bad_parameters(kwargs: dict[str, Any], problem: str) -> None:
    arguments: dict[str, Any] = {"variant": "jiaxing", "seed": "x", **kwargs}
    variant = arguments.pop("variant")
    with pytest.raises(PlayError, match=problem):
        PlayMatch.start(variant, **arguments)


# -- what the human is shown ------------------------------------------------------------


def test_it_shows_the_view_issue_14_specifies() -> None:
    match = _turn("jiaxing", "view", seat=2)
    view = match.view()
    for key in ("step", "variant", "seat", "hand_number", "you", "seats", "wall_left",
                "dealer", "wildcards", "legal", "over"):
        assert key in view
    assert set(view["you"]) >= {"hand", "melds", "drawn"}
    assert [s["seat"] for s in view["seats"]] == [0, 1, 2, 3]
    assert view["seats"][2]["name"] == "You" and view["seat"] == 2
    for shown in view["seats"]:
        assert set(shown) >= {"name", "melds", "river", "concealed_count", "void", "flowers",
                              "won"}
    size = len(view["you"]["hand"]) + (view["you"]["drawn"] is not None)
    assert size == view["seats"][2]["concealed_count"]
    assert all("actor" not in a for a in view["legal"])
    assert {a["type"] for a in view["legal"]} >= {"discard"}
    table = match._table
    assert table is not None and view["wall_left"] == table.tiles_left
    assert match.view(2) == view
    with pytest.raises(PlayError, match="only seat 2"):
        match.view(0)
    assert match.legal(0) == []


def test_it_plays_the_ready_hands_drawn_tile_and_whites_by_themselves() -> None:
    """PT-3.2 and PT-5.3: after declaring ready, only draws that win are asked about."""
    for number in range(60):
        match = PlayMatch.start("putian", seed=f"ready-{number}", seat=0, hands=1)
        while match.pending is not None:
            legal = match.legal()
            if any(a["type"] == "ready" for a in legal):
                match.act(match.step, {"type": "ready"})
                after = match.legal()
                assert after and all(a["type"] in ("discard", "hu", "gang") for a in after)
                match.act(match.step, next(a for a in after if a["type"] == "discard"))
                table = match._table
                assert table is None or table.seats[0].ready
                while match.pending is not None:
                    options = match.legal()
                    assert len(options) > 1, "a ready hand was asked about a forced discard"
                    assert all(a["type"] != "flower" for a in options)
                    match.act(match.step, options[-1])
                return
            assert all(a["type"] != "flower" for a in legal)
            match.act(match.step, random.Random(number).choice(legal))
    raise AssertionError("no ready hand in 60 Putian hands")


def test_it_hints_the_current_decision_without_the_future() -> None:
    match = _turn("sichuan", "hint", seat=1)
    hint = match.hint()
    assert hint["step"] == match.step and hint["decision"] == "turn"
    assert [o["action"] for o in hint["options"]] == match.legal()
    for option in hint["options"]:
        assert "counterfactual" not in option
        assert option["rank"] >= 1
        if option["action"]["type"] == "discard":
            assert option["shanten"] >= -1 and "accepted" in option
    _check_unchanged_by_secrets(match, match.hint)
    rng = random.Random(3)
    while match.pending is not None:  # a ready hand's waits come with their values
        hint = match.hint()
        waits = [o for o in hint["options"] if o.get("waits")]
        if waits:
            assert all(w["score"]["points"] > 0 for w in waits[0]["waits"])
            return
        best = [o for o in hint["options"] if o["rank"] == 1]
        match.act(match.step, rng.choice(best)["action"])
    pytest.skip("this hand never reached a ready hand")


def test_it_reveals_the_hands_at_the_end_and_a_sichuan_winners_hand() -> None:
    match = PlayMatch.start("sichuan", seed="reveal", seat=0, hands=2)
    rng = random.Random(2)
    revealed_win = False
    while match.pending is not None:
        entries = match.act(match.step, rng.choice(match.legal()))
        for entry in entries:
            event = entry["event"]
            if event["type"] == "hu":
                assert len(event["hand"]) >= 2
                revealed_win = True
            if event["type"] == "end":
                assert [len(h) for h in event["hands"]] and len(event["melds"]) == 4
        table = match._table
        if table is not None and table.phase is not Phase.ENDED:
            for shown, state in zip(match.view()["seats"], table.seats, strict=True):
                assert ("hand" in shown) == (state.won or shown["seat"] == 0)
    assert revealed_win
    last = match.view()["last_hand"]
    assert last is not None and len(last["hands"]) == 4


# -- the command line and the benchmark -------------------------------------------------


def test_it_checks_a_deal_from_the_command_line(tmp_path: Any) -> None:
    import io

    from games.commands.cli import main

    match = PlayMatch.start("putian", seed="by hand", seat=3, hands=2)
    play_randomly(match, random.Random(6))
    path = tmp_path / "match.json"
    path.write_text(dumps(match.log()), encoding="utf-8")
    out = io.StringIO()
    assert main(["verify-deal", str(path), "--seed", "by hand"], stdout=out) == 0
    assert json.loads(out.getvalue()) == {"ok": True, "hands": 2,
                                          "commitment": match.commitment}
    out = io.StringIO()
    assert main(["verify-deal", str(path), "--seed", "by hand?"], stdout=out) == 1
    assert "SHA-256" in json.loads(out.getvalue())["error"]["message"]


def test_it_times_a_players_action_against_the_bots() -> None:
    from games.commands.bench import bench_play

    figures = bench_play(7, matches=1, hands=1)
    for variant in VARIANTS:
        row = figures[variant]
        assert row["actions"] >= 1
        assert 0 <= row["act"]["p50_ms"] <= row["act"]["p95_ms"] <= row["act"]["max_ms"]
        assert row["stored"]["p95_ms"] > 0
    assert isinstance(figures["targets"]["act_p95_at_most_50ms"], bool)


@pytest.mark.parametrize("broken", [
    {"format": "mahjong-play/1"},
    {"format": "mahjong-play/1", "seat": 0, "hands": 1, "step": 1, "seed": "x", "log": []},
    {"format": "mahjong-play/1", "seat": 9, "hands": 1, "step": 1, "seed": "x",
     "log": {"variant": "jiaxing", "players": ["a", "b", "c", "d"], "hands": []}},
    {"format": "mahjong-play/1", "seat": 0, "hands": 1, "step": 0, "seed": "x",
     "log": {"variant": "jiaxing", "players": ["a", "b", "c", "d"], "hands": []}},
    {"format": "mahjong-play/1", "seat": 0, "hands": 1, "step": 1, "seed": "x",
     "log": {"variant": "jiaxing", "players": ["a", "b", "c", "d"], "hands": [[]]}},
])
def test_it_refuses_a_malformed_stored_match(broken: dict[str, Any]) -> None:
    with pytest.raises(PlayError):
        PlayMatch.from_json(broken)


# -- chosen deals: the rarer decisions, step by step -------------------------------------
#
# These hands come from tests/logbuild.py (a chosen deal and wall, RULES.md's scenarios).
# ``games.play.bot_match.deal_hand`` is replaced by one returning that hand, and the match is
# restored from a stored row whose log holds the scripted events so far.


def _scripted(monkeypatch: pytest.MonkeyPatch, builder: Any, seat: int) -> PlayMatch:
    from dataclasses import replace

    import games.play.bot_match
    from games.records.log import read_log

    from .logbuild import document

    doc = document(builder.variant, builder)
    setup = {**doc["hands"][0], "events": [{"type": "end", "reason": "abandoned"}]}
    hand = replace(read_log({**doc, "hands": [setup]}).hands[0], events=())
    monkeypatch.setattr(games.play.bot_match, "deal_hand", lambda replayer, dealer, number: hand)
    stored = {"format": "mahjong-play/1", "seat": seat, "hands": 1, "step": 1,
              "seed": "scripted", "log": doc}
    return PlayMatch.from_json(stored)


def _types(entries: list[dict[str, Any]]) -> list[tuple[str, Any]]:
    return [(e["event"]["type"], e["event"].get("actor")) for e in entries]


def test_it_asks_the_human_to_rob_an_added_kong(monkeypatch: pytest.MonkeyPatch) -> None:
    """JX-8: Dee (the human, 111m 222m 333m 56m 77z) may rob Cal's added 4m."""
    from .logbuild import jx_added_kong

    match = _scripted(monkeypatch, jx_added_kong("111m222m333m56m77z"), seat=3)
    assert match.pending is not None and match.pending.kind == "rob_kong"
    assert match.legal() == [{"type": "hu", "target": 2, "tile": "4m", "how": "robbing_kong"},
                             {"type": "pass"}]
    declined = PlayMatch.from_json(match.to_json())
    entries = match.act(1, match.legal()[0])
    assert _types(entries)[:2] == [("hu", 3), ("end", None)]
    assert match.over and match.result()["totals"] == [0, 0, -9, 9]  # JX-10.4
    entries = declined.act(1, {"type": "pass"})
    assert entries[0]["event"] == {"type": "draw", "actor": 2, "from": "back"}  # hidden tile


def test_it_asks_the_human_to_answer_a_contract(monkeypatch: pytest.MonkeyPatch) -> None:
    """JX-9: after Ben's third chow of Ann's discards, Cal (the human) answers first."""
    from .logbuild import jx_contract

    match = _scripted(monkeypatch, jx_contract((None, None)), seat=2)
    assert match.pending is not None and match.pending.kind == "contract"
    assert match.legal() == [{"type": "contract", "choice": "persist"},
                             {"type": "contract", "choice": "give_up"}]
    entries = match.act(1, {"type": "contract", "choice": "give_up"})
    assert _types(entries)[:2] == [("contract", 2), ("contract", 3)]  # then Dee, a bot
    view = match.view()
    assert view["seats"][2]["gave_up"]
    if match.pending is not None and match.pending.kind == "turn":  # 抓一张打一张
        assert {a["type"] for a in match.legal()} == {"discard"}


def test_it_lets_several_win_on_one_discard_in_sichuan(monkeypatch: pytest.MonkeyPatch) -> None:
    """SC-3.1: Ben, Cal (the human) and Dee can all win on Ann's 5p; all who want to do."""
    from .logbuild import sc_discard_5p

    match = _scripted(monkeypatch, sc_discard_5p(), seat=2)
    assert match.pending is not None and match.pending.kind == "claim"
    assert {"type": "hu", "target": 0, "tile": "5p"} in match.legal()
    passed = PlayMatch.from_json(match.to_json())
    entries = match.act(1, {"type": "hu", "target": 0, "tile": "5p"})
    assert _types(entries)[:4] == [("hu", 1), ("hu", 2), ("hu", 3), ("end", None)]
    assert match.over
    entries = passed.act(1, {"type": "pass"})
    assert _types(entries)[:3] == [("hu", 1), ("hu", 3), ("draw", 0)]  # SC-3.2: Ann goes on
    assert not passed.over and not passed.view()["seats"][2]["won"]


def _putian_ready(seat: int, dealer: int) -> Any:
    """Putian, golds 9p and 9s: ``seat`` holds 111m 222m 333m 444m 567p 8p, ready on 8p, so
    a gold robbed before the dealer's first discard wins (PT-5.5); the others hold
    unready mixtures and no white."""
    from .logbuild import HandBuilder

    scattered = ["1357p1357s2468s5679m", "2468p2468s1357s", "1p3p5p1s3s5s7s"]
    deal = [scattered.pop(0) if s != seat else "111m222m333m444m567p8p" for s in range(4)]
    return HandBuilder("putian", deal, dealer=dealer, pad="m", avoid="5z")


def test_it_asks_a_non_dealer_human_to_rob_the_gold(monkeypatch: pytest.MonkeyPatch) -> None:
    match = _scripted(monkeypatch, _putian_ready(seat=1, dealer=0), seat=1)
    assert match.pending is not None and match.pending.kind == "rob_gold", match.legal()
    assert match.legal()[-1] == {"type": "pass"}
    assert all(a.get("how") == "rob_gold" for a in match.legal()[:-1])
    declined = PlayMatch.from_json(match.to_json())
    entries = match.act(1, match.legal()[0])
    assert _types(entries)[:2] == [("hu", 1), ("end", None)] and match.over
    assert match.result()["hands"][0]["wins"][0]["how"] == "rob_gold"
    entries = declined.act(1, {"type": "pass"})
    assert _types(entries)[0] == ("discard", 0)  # the dealer's first discard goes ahead
    assert declined.pending is None or declined.pending.kind != "rob_gold"


def test_a_bot_robs_the_gold_at_the_dealing_humans_first_discard(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """PT-5.5: the human deals; a bot that can rob the gold does so before the discard."""
    match = _scripted(monkeypatch, _putian_ready(seat=2, dealer=0), seat=0)
    assert match.pending is not None and match.pending.kind == "turn"
    discard = next(a for a in match.legal() if a["type"] == "discard")
    entries = match.act(1, discard)
    assert _types(entries)[:2] == [("hu", 2), ("end", None)] and match.over


def test_it_stops_when_a_player_cant_start_another_hand() -> None:
    """SC-6.5: with balances kept, a player below the room's minimum ends the match early;
    the log still validates with the same balances."""
    match = PlayMatch.start("sichuan", seed="bal", hands=30,
                            rules={"start_balance": 20, "min_balance": 5, "fee": 1})
    play_randomly(match, random.Random(3))
    result = match.result()
    assert match.over and len(result["hands"]) < 30
    assert "SC-6.5" in result["stopped"] and min(result["balances"]) < 5
    assert replay(loads(dumps(match.log()))).balances == result["balances"]


def test_it_stops_a_match_where_a_balance_below_a_minimum_of_0_forbids_the_next_hand() -> None:
    """SC-6.5: with balances kept (a fee) and no minimum set, the minimum is 0; a player
    below it can't start another hand, so the match stops there instead of refusing to
    deal (seed min26: Putian's first hand ends before the human's first decision and
    leaves Eli at −17)."""
    match = PlayMatch.start("putian", seed="min26", hands=2, rules={"fee": 1})
    assert match.stopped is not None
    assert "below the room's minimum of 0" in match.stopped and "(SC-6.5)" in match.stopped
