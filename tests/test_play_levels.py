"""The bots' levels on the site (issue 26): the start form offers the levels the engine has
(easy = basic, normal = strong, hard = search), a match stores its level and replays with
it, matches stored before levels existed were basic, results say the level, and the
``/bots/`` page shows the published arena ladder (or says there is none), in English and
Chinese."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from games.bots import levels as engine_levels
from games.bots.basic import Bot
from games.bots.levels import LEVELS, Level, published_ladder
from games.core.table import Action, Table
from games.play.bot_match import PlayError, PlayMatch, play_randomly
from replays.models import PlayedMatch
from replays.play import services
from tests.test_site_i18n_complete import ZH, english_sentences, visible

pytestmark = pytest.mark.django_db


class Recording:
    """A stand-in "strong" seat: plays as basic, and counts its decisions."""

    calls: list[int] = []

    def __init__(self, rng: random.Random) -> None:
        self.bot = Bot(rng)

    def choose(self, table: Table, actions: Sequence[Action]) -> Action:
        Recording.calls.append(actions[0].seat)
        return self.bot.choose(table, actions)


@pytest.fixture
def only_basic(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine as on a branch with no stronger level."""
    for name in [name for name in LEVELS if name != "basic"]:
        monkeypatch.delitem(LEVELS, name)


@pytest.fixture
def strong(only_basic: None, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A "strong" level registered in the engine (nothing else changed)."""
    monkeypatch.setitem(LEVELS, "strong", Level("strong", "plays as basic, counted",
                                                Recording))
    Recording.calls = []
    return Recording.calls


def options(page: str) -> list[str]:
    select = page.split('name="level"', 1)[1].split("</select>", 1)[0]
    return [part.split('"', 1)[0] for part in select.split('<option value="')[1:]]


def started(client: Client, **fields: Any) -> PlayedMatch:
    """Seat 2 in Jiaxing: the bots in seats 0 and 1 play before the player's first move."""
    response = client.post("/play/", {"variant": "jiaxing", "seat": "2", "hands": 1,
                                      "speed": 0, **fields})
    assert response.status_code == 302, response.content.decode()[:2000]
    return PlayedMatch.objects.get(public_id=str(response["Location"]).strip("/").split("/")[-1])


def test_it_offers_only_easy_when_the_engine_has_only_basic(client: Client,
                                                            only_basic: None) -> None:
    page = client.get("/play/").content.decode()
    assert options(page) == ["easy"]
    assert '<option value="easy" selected>easy</option>' in page
    assert 'href="/bots/"' in page
    row = started(client)
    assert row.level == "basic" and row.state["level"] == "basic"


def test_it_offers_normal_once_strong_is_registered_and_starts_with_it(
        client: Client, strong: list[int]) -> None:
    page = client.get("/play/").content.decode()
    assert options(page) == ["easy", "normal"]
    assert '<option value="normal" selected>normal</option>' in page
    chinese = client.get("/play/", **ZH).content.decode()  # type: ignore[arg-type]
    assert '<option value="easy">简单</option>' in chinese
    assert '<option value="normal" selected>普通</option>' in chinese
    row = started(client)  # no level sent: the default, normal
    assert row.level == "strong" and row.state["level"] == "strong"
    assert strong, "the bots before the player's first move played as strong"
    assert started(client, level="easy").level == "basic"


def test_it_refuses_a_level_the_engine_does_not_have(client: Client, strong: list[int]) -> None:
    response = client.post("/play/", {"variant": "jiaxing", "seat": "2", "hands": 1,
                                      "level": "hard"})
    assert response.status_code == 400
    assert not PlayedMatch.objects.exists()


def test_it_stores_its_level_and_a_restored_match_plays_on_identically(
        strong: list[int]) -> None:
    whole = PlayMatch.start("sichuan", seed="levels", seat=1, hands=2, level="strong")
    stored = PlayMatch.start("sichuan", seed="levels", seat=1, hands=2, level="strong")
    rng_whole, rng_stored = random.Random(3), random.Random(3)
    for _ in range(6):
        whole.act(whole.step, rng_whole.choice(whole.legal()))
        stored.act(stored.step, rng_stored.choice(stored.legal()))
    data = json.loads(json.dumps(stored.to_json()))
    assert data["level"] == "strong"
    restored = PlayMatch.from_json(data)
    assert restored.level == "strong" and restored.view()["level"] == "strong"
    before = len(strong)
    play_randomly(whole, rng_whole)
    play_randomly(restored, rng_stored)
    assert len(strong) > before, "the restored match's bots played as strong"
    assert restored.log() == whole.log()


def test_it_refuses_a_stored_level_the_engine_does_not_have(only_basic: None) -> None:
    data = PlayMatch.start("jiaxing", seed="gone", seat=0, hands=1).to_json()
    data["level"] = "strong"
    with pytest.raises(PlayError, match="no level named 'strong'"):
        PlayMatch.from_json(data)


def test_it_plays_a_match_stored_without_a_level_as_basic(strong: list[int]) -> None:
    basic = PlayMatch.start("putian", seed="old", seat=3, hands=1)
    data = PlayMatch.start("putian", seed="old", seat=3, hands=1).to_json()
    del data["level"]  # stored before levels existed
    old = PlayMatch.from_json(data)
    assert old.level == "basic"
    play_randomly(basic, random.Random(8))
    play_randomly(old, random.Random(8))
    assert old.log() == basic.log() and not strong


def test_it_shows_an_old_match_as_played_against_easy_bots(client: Client,
                                                           only_basic: None) -> None:
    row = started(client)
    state = dict(row.state)
    del state["level"]
    PlayedMatch.objects.filter(pk=row.pk).update(state=state)
    services.forget(row)
    page = client.get(f"/play/{row.public_id}/").content.decode()
    assert "Bots' level: easy" in page and 'href="/bots/#level-basic"' in page


def test_results_say_which_level_was_played(client: Client, strong: list[int]) -> None:
    rng = random.Random(4)
    for level in ("normal", "easy"):
        row = started(client, level=level)
        data = client.get(f"/play/{row.public_id}/state.json").json()
        while not data["over"]:
            data = client.post(f"/play/{row.public_id}/act",
                               json.dumps({"step": data["step"],
                                           "action": rng.choice(data["legal"])}),
                               content_type="application/json").json()
        end = client.get(f"/play/{row.public_id}/").content.decode()
        assert f"You played against {level} bots." in end
    listed = client.get("/play/").content.decode().split("Your finished matches", 1)[1]
    assert "normal bots" in listed and "easy bots" in listed
    chinese = client.get("/play/", **ZH).content.decode()  # type: ignore[arg-type]
    assert "普通难度" in chinese and "简单难度" in chinese
    progress = client.get("/puzzles/me/").content.decode()
    assert "1 against easy bots · 1 against normal bots" in progress


LADDER = {
    "format": "ladder/1", "measured": "2026-12-03",
    "command": "tools/bot_ladder.py --walls 2000 --seed 2026",
    "variants": {"sichuan": [{
        "format": "arena/1", "variant": "sichuan", "bots": ["strong", "basic"],
        "walls": 2000, "seed": 2026, "plays_per_wall": 5,
        "difference": {"mean": 9.08, "low": 8.54, "high": 9.62, "sd": 12.3},
        "levels": {
            "strong": {"hands": 8000, "points_per_hand": 5.1, "win_rate": 0.31,
                       "deal_in_rate": 0.08, "self_draw_share": 0.6, "points_per_win": 24.0,
                       "exhausted_share": 0.15,
                       "disasters": {"查大叫 payments": {"hands": 12, "points": -340}},
                       "decision_ms": {"mean": 1.2, "p99": 6.5}},
            "basic": {"hands": 8000, "points_per_hand": -4.0, "win_rate": 0.22,
                      "deal_in_rate": 0.14, "self_draw_share": 0.5, "points_per_win": 20.0,
                      "exhausted_share": 0.25, "disasters": {},
                      "decision_ms": {"mean": 0.4, "p99": 2.1}},
        }}]},
}


@pytest.fixture
def ladder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A published ladder file in place of the package's."""
    (tmp_path / "ladder.json").write_text(json.dumps(LADDER), encoding="utf-8")
    monkeypatch.setattr(engine_levels.resources, "files", lambda package: tmp_path)


@pytest.fixture
def no_ladder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(engine_levels.resources, "files", lambda package: tmp_path)


def test_it_reads_the_published_ladder_or_none(ladder: None) -> None:
    assert published_ladder() == LADDER


def test_it_reads_no_ladder_as_empty(no_ladder: None) -> None:
    assert published_ladder() == {"format": "ladder/1", "variants": {}}


def test_the_bots_page_shows_the_arena_table_with_how_to_check_it(
        client: Client, ladder: None, strong: list[int]) -> None:
    page = client.get("/bots/").content.decode()
    assert "<h1>The bots</h1>" in page
    assert "+9.08 points a hand for normal" in page
    assert "(95% interval +8.54 to +9.62)" in page and "normal is stronger than easy." in page
    assert "31.0%" in page and "8.0%" in page and "15.0%" in page and "24.00" in page
    assert "查大叫" in page and "12 hands, -340 points" in page
    assert ('not-ready payments (查大叫, <a class="rule-link" href="/rules/sichuan/#SC-6.4">'
            'SC-6.4</a>)') in page
    assert "1.2 ms / 6.5 ms" in page
    assert "python -m games arena --variant sichuan --bots strong basic --walls 2000 " \
           "--seed 2026" in page
    assert "tools/bot_ladder.py --walls 2000 --seed 2026" in page
    assert "No figures for this variant yet." in page  # Jiaxing and Putian
    # what each level does, its rule ids linked to the rules pages' anchors
    assert 'href="/rules/jiaxing/#JX-5.3">JX-5.3</a>' in page
    assert 'href="/rules/sichuan/#SC-3.3">SC-3.3</a>' in page
    assert 'href="/rules/putian/#PT-5.6">PT-5.6</a>' in page
    assert 'href="/bots/"' in client.get("/").content.decode()  # in the site's navigation


def test_the_bots_page_reads_as_chinese(client: Client, ladder: None, strong: list[int]) -> None:
    page = client.get("/bots/", **ZH).content.decode()  # type: ignore[arg-type]
    text = visible(page)
    assert "普通每局 +9.08 分" in text and "普通比简单强。" in text
    assert "和牌率" in text and "放炮率" in text and "2000 副牌墙，种子 2026" in text
    english = [s for s in english_sentences() if s in text]
    assert not english, english


def test_the_bots_page_says_plainly_when_nothing_is_published(
        client: Client, no_ladder: None, only_basic: None) -> None:
    page = client.get("/bots/").content.decode()
    assert "No figures are published yet" in page and "<table" not in page
    assert "Takes every win it can, never folds" in page
    chinese = client.get("/bots/", **ZH).content.decode()  # type: ignore[arg-type]
    assert "还没有发布任何数字" in chinese and "能和就和，从不弃和" in chinese
    english = [s for s in english_sentences() if s in visible(chinese)]
    assert not english, english
