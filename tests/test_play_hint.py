"""The in-game hint gives the review's verdict (issue 27): the current decision's choices
valued with the values pass's own function and seed, ranked by expected points, then win
chance, then shape; "no winning line" where nothing wins; nothing the player can't see
changes it. The site's side (the page, its size, the limit) is at the end."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.test import Client

from games.analysis.annotation import analyze_hand
from games.analysis.value_pass import SOLO_SAMPLES, TABLE_SAMPLES, value_hand
from games.play.bot_match import PlayMatch
from games.records.match import Replayer
from tests.test_play_engine import _check_unchanged_by_secrets


def _at(variant: str, seed: str, kind: str, skip: int = 0) -> PlayMatch:
    """A one-hand match at the human's ``skip``-th later decision of ``kind`` (random play
    before it, seeded)."""
    match = PlayMatch.start(variant, seed=seed, seat=0, hands=1)
    rng = random.Random(7)
    seen = 0
    while not match.over:
        assert match.pending is not None
        if match.pending.kind == kind and len(match.legal()) > 1:
            if seen == skip:
                return match
            seen += 1
        match.act(match.step, rng.choice(match.legal()))
    pytest.skip(f"no {kind} decision in this {variant} deal")


def _review_of(match: PlayMatch, event: int) -> dict[str, Any]:
    """What the review stores for the human's decision before ``event``: the finished
    match annotated, then valued by the values pass exactly as the site runs it
    (``value_hand(..., seat, seed=hand)`` at the pass's sample counts)."""
    document = match.log()
    hand = document.hands[0]
    analysis = analyze_hand(Replayer(document).begin(1, hand), hand.events, 1).to_json()
    decisions = [d for d in analysis["decisions"]
                 if d["seat"] == match.seat and d["event"] == event]
    assert len(decisions) == 1, analysis["decisions"]
    valued = value_hand(Replayer(document).begin(1, hand), hand.events, 1, decisions,
                        {match.seat}, seed=1, solo_samples=SOLO_SAMPLES,
                        table_samples=TABLE_SAMPLES)
    assert len(valued["decisions"]) == 1
    review: dict[str, Any] = {**valued["decisions"][0], "listed": decisions[0]}
    return review


@pytest.mark.parametrize(("variant", "seed", "skip"), [
    ("jiaxing", "hint-1", 0), ("jiaxing", "hint-2", 3), ("putian", "hint-3", 1),
    ("sichuan", "hint-4", 2)])
def test_it_hints_the_best_choice_the_review_then_names(variant: str, seed: str,
                                                       skip: int) -> None:
    match = _at(variant, seed, "turn", skip)
    hint = match.valued_hint()
    assert hint["model"] == "solo" and hint["samples"] == SOLO_SAMPLES
    # Play the hint's first choice, then the rest of the hand at random.
    first = hint["options"][0]
    match.act(match.step, first["action"])
    rng = random.Random(3)
    while not match.over:
        match.act(match.step, rng.choice(match.legal()))
    review = _review_of(match, hint["event"])
    listed = review["listed"]["alternatives"]
    by_action = {repr(sorted(listed[r["index"]]["action"].items())): r
                 for r in review["alternatives"]}
    for option in hint["options"]:
        if "expected_points" not in option:
            continue
        stored = by_action[repr(sorted({**option["action"], "actor": 0}.items()))]
        assert option["expected_points"] == stored["expected_points"]
        assert option["win_probability"] == stored["win_probability"]
    if hint["ranked_by"] == "value":
        best = listed[review["best"]]["action"]
        top = [o["action"] for o in hint["options"] if o["rank"] == 1]
        assert {**top[0], "actor": 0} == best or {**best} in [{**a, "actor": 0} for a in top]
        # The review took the hint's choice: it is the best, or tied with it.
        assert review["loss"] == 0.0 and not review["mistake"]


@pytest.mark.parametrize("variant", ["jiaxing", "putian", "sichuan"])
def test_it_ranks_the_rows_by_value_then_win_chance(variant: str) -> None:
    match = _at(variant, f"rank-{variant}", "turn", 1)
    hint = match.valued_hint()
    rows = [o for o in hint["options"] if o["rank"] is not None]
    assert hint["ranked_by"] in ("value", "shape")
    if hint["ranked_by"] == "value":
        keys = [(-o["expected_points"], -o["win_probability"]) for o in rows
                if "expected_points" in o]
        assert keys == sorted(keys)
        ranks = [o["rank"] for o in rows]
        assert ranks == sorted(ranks) and ranks[0] == 1
        # A choice with more points never ranks below one with fewer.
        for a, b in zip(rows, rows[1:], strict=False):
            if "expected_points" in a and "expected_points" in b:
                assert a["expected_points"] >= b["expected_points"]


def test_it_says_no_winning_line_and_ranks_by_shape() -> None:
    for k in range(1, 6):
        match = PlayMatch.start("jiaxing", seed=f"nl{k}", seat=0, hands=1)
        rng = random.Random(k)
        while not match.over:
            if match.view()["wall_left"] < 24 and len(match.legal()) > 1:
                hint = match.valued_hint()
                if hint["no_winning_line"]:
                    assert hint["ranked_by"] == "shape"
                    assert hint["reason"] == "no_winning_line"
                    assert all(o.get("win_probability", 0) == 0 for o in hint["options"])
                    shapes = [o["shape_rank"] for o in hint["options"] if o["rank"]]
                    assert shapes == sorted(shapes)
                    return
            match.act(match.step, rng.choice(match.legal()))
    raise AssertionError("no decision without a winning line in five Jiaxing hands")


def test_it_values_a_claim_at_the_table_without_the_secrets() -> None:
    match = _at("sichuan", "claims", "claim")
    hint = match.valued_hint(table_samples=4)
    assert hint["model"] == "table" and hint["samples"] == 4
    assert any(o["action"] == {"type": "pass"} for o in hint["options"])
    assert all("expected_points" in o for o in hint["options"] if o["rank"] is not None)
    _check_unchanged_by_secrets(match, lambda: match.valued_hint(table_samples=4))


def test_it_bounds_the_playouts_of_a_decision_with_many_choices() -> None:
    match = _at("sichuan", "dingque", "dingque")
    hint = match.valued_hint(table_samples=16, max_playouts=12)
    assert hint["model"] == "table" and hint["samples"] == 4  # 3 suits × 4 ≤ 12


# -- the site ---------------------------------------------------------------------------

TILE_ITEMS = re.compile(r'<span class="tile[ "]')


@pytest.mark.django_db
def test_it_opens_the_hint_on_request_only(client: Client, settings: Any) -> None:
    from tests.test_play_site import start

    settings.PLAY_HINT_SOLO_SAMPLES = 20
    settings.PLAY_HINT_TABLE_SAMPLES = 4
    pid = start(client, "sichuan")
    page = client.get(f"/play/{pid}/").content.decode()
    assert 'class="play-hint"' not in page
    assert f'href="/play/{pid}/hint"' in page  # a real link, htmx or not
    page = client.get(f"/play/{pid}/hint").content.decode()
    assert 'class="play-hint"' in page and "SC-2" in page
    fragment = client.get(f"/play/{pid}/hint", HTTP_HX_REQUEST="true").content.decode()
    assert fragment.lstrip().startswith('<div id="play-table"') and "play-hint" in fragment


@pytest.mark.django_db
@pytest.mark.parametrize("variant", ["jiaxing", "putian", "sichuan"])
def test_it_keeps_every_row_of_the_hint_short(client: Client, settings: Any,
                                              variant: str) -> None:
    from tests.test_play_site import act, start, state

    settings.PLAY_HINT_SOLO_SAMPLES = 20
    settings.PLAY_HINT_TABLE_SAMPLES = 4
    pid = start(client, variant)
    data = state(client, pid)
    rng = random.Random(2)
    for _ in range(4):
        if data["over"]:
            break
        page = client.get(f"/play/{pid}/hint").content.decode()
        section = page.split('class="play-hint"', 1)[1].split("</section>", 1)[0]
        rows = re.findall(r'<li class="hint-row.*?</li>\s*(?=<li class="hint-row|</ol>)',
                          section, re.S)
        assert rows, section[:2000]
        for row in rows:
            assert len(TILE_ITEMS.findall(row)) <= 12, row
        assert len(section) < 60_000
        data = act(client, pid, data["step"], rng.choice(data["legal"])).json()


@pytest.mark.django_db
def test_it_limits_how_often_a_visitor_asks_for_a_hint(client: Client, settings: Any) -> None:
    from django.core.cache import caches

    from tests.test_play_site import start

    settings.PLAY_HINT_SOLO_SAMPLES = 10
    settings.PLAY_HINT_TABLE_SAMPLES = 2
    pid = start(client, "jiaxing")
    settings.RATE_LIMITS_ENABLED = True
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "play-hint-visitor": "1/3600"}
    caches["limits"].clear()
    try:
        assert client.get(f"/play/{pid}/hint").status_code == 200
        assert client.get(f"/play/{pid}/hint").status_code == 200  # the same step: kept
        from replays.play import views

        views.HINTS.clear()
        refused = client.get(f"/play/{pid}/hint")
        assert refused.status_code == 429 and refused["Retry-After"]
        assert "hints" in refused.content.decode()
    finally:
        caches["limits"].clear()


def _no_line_match() -> PlayMatch:
    """A Jiaxing match at a decision where no choice wins on any shuffle (late in a hand
    played at random: the same search as above)."""
    for k in range(1, 6):
        match = PlayMatch.start("jiaxing", seed=f"nl{k}", seat=0, hands=1)
        rng = random.Random(k)
        while not match.over:
            if match.view()["wall_left"] < 24 and len(match.legal()) > 1 \
                    and match.valued_hint()["no_winning_line"]:
                return match
            match.act(match.step, rng.choice(match.legal()))
    raise AssertionError("no decision without a winning line in five Jiaxing hands")


@pytest.mark.django_db
def test_it_labels_a_decision_without_a_winning_line_on_the_page(alice: Any) -> None:
    from replays.models import PlayedMatch
    from tests.test_site_i18n_complete import ZH

    match = _no_line_match()
    view = match.view()
    row = PlayedMatch.objects.create(
        owner=alice, signed_in=True, variant="jiaxing", state=match.to_json(),
        step=match.step, hands=1, speed=0, level=match.level,
        commitment=view["commitment"], hand_number=view["hand_number"])
    owner = Client()
    owner.force_login(alice)
    page = owner.get(f"/play/{row.public_id}/hint").content.decode()
    section = page.split('class="play-hint"', 1)[1].split("</section>", 1)[0]
    assert "No winning line found" in section and "points expected" not in section
    assert "shanten" in section and "tiles accepted" in section
    chinese = owner.get(f"/play/{row.public_id}/hint", **ZH).content.decode()  # type: ignore[arg-type]
    assert "找不到能和牌的打法" in chinese
