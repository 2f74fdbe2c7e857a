"""``/score/`` (issue 30): a hand tapped in, scored by the engine, settled as the viewer shows it;
its waits when one tile short; bad input named, never a 500; Chinese pages read Chinese; the
form works without JavaScript (a tap is a GET, redirected to the state's clean link)."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client

from games.core.settlement import deltas_of
from games.variants import read_position
from games.variants.registry import VARIANTS

from .test_chinese_pages import ZH, problems_of
from .test_site_i18n_complete import english_sentences

pytestmark = pytest.mark.django_db


def engine(position: dict[str, Any], discarder: int | None = None) -> tuple[dict[str, Any],
                                                                            list[int]]:
    """The engine's own score and one win's deltas, to check the page's figures against."""
    read = read_position(position)
    score = read.variant.score(read)
    return score.to_json(), deltas_of(read.variant.win_lines(read, score, discarder))


def page(client: Client, query: str, **headers: Any) -> Any:
    return client.get(f"/score/?{query}", **headers)


def text(response: Any) -> str:
    body = response.content.decode()
    return " ".join(re.sub(r"<[^>]+>", " ", body).split())


def test_it_scores_a_jiaxing_hand_with_a_wildcard(client: Client) -> None:
    score, deltas = engine({"variant": "jiaxing", "hand": "1112345678999m5p", "win_tile": "5p",
                            "wildcards": ["5p"], "seat": 1, "round_wind": "E",
                            "self_draw": True})
    response = page(client, "v=jiaxing&h=1112345678999m5p&w=5p&g=5p&how=self_draw&seat=S"
                            "&round=E")
    assert response.status_code == 200
    shown = text(response)
    assert score["win"] and (score["tai"], score["fan"], score["points"]) == (4, 0, 4)
    assert "4 points (4 tai, 0 fan)" in shown
    assert 'href="/rules/jiaxing/#JX-6.8"' in response.content.decode() or "JX-6.8" in shown
    assert deltas == [-4, 12, -4, -4]
    assert "South (winner) +12" in shown.replace("南 ", "").replace("South 南", "South")
    assert shown.count("-4") >= 3


def test_it_scores_a_putian_hand_with_golds_and_flowers(client: Client) -> None:
    score, deltas = engine({"variant": "putian", "hand": "1112223334445556m9p",
                            "win_tile": "6m", "wildcards": ["9p", "9s"], "seat": 1,
                            "dealer": 0, "flowers": 2}, discarder=3)
    response = page(client, "v=putian&h=1112223334445556m9p&w=6m&g=9p9s&how=discard&from=N"
                            "&seat=S&fl=2")
    assert response.status_code == 200
    shown = text(response)
    assert score["points"] == 8 and score["flower_points"] == 3
    assert "8 points" in shown and "gold in hand" in shown and "laid-out whites" in shown
    # PT-7.2: every loser pays (1 + 3) × 2, the dealer (East) 2 more, on a discard too.
    assert deltas == [-10, 26, -8, -8]
    assert "+26" in shown and "-10" in shown
    assert "(1 base + 3 flowers) × 2 + 2 dealer = 10" in shown


def test_it_scores_a_sichuan_hand_with_a_presets_house_rules(client: Client) -> None:
    sichuan = VARIANTS["sichuan"]
    rules = {name: value for name, value in sichuan.PRESETS["chengdu"].rules.items()
             if name in sichuan.OPTIONS}  # a position takes the score's options only
    score, deltas = engine({"variant": "sichuan", "hand": "11122233345699m", "win_tile": "9m",
                            "seat": 1, "self_draw": True, "void": "p", "rules": rules})
    response = page(client, "v=sichuan&h=11122233345699m&w=9m&how=self_draw&seat=S&void=p"
                            "&preset=chengdu&applied=")
    assert response.status_code == 302  # a preset just picked: its rules, at a clean link
    response = client.get(response["Location"])
    shown = text(response)
    assert {p["id"] for p in score["patterns"]} >= {"SC-H4", "SC-H6"}
    assert "SC-H4" in shown and "SC-H6" in shown and "门清" in shown
    assert f"{score['points']} points ({score['fan']} fan)" in shown
    assert deltas == [-9, 27, -9, -9] and "+27" in shown


def test_it_offers_the_waits_of_a_hand_one_tile_short(client: Client) -> None:
    response = page(client, "v=sichuan&h=1112223334569m&how=self_draw&seat=S&void=p")
    assert response.status_code == 200
    read = read_position({"variant": "sichuan", "hand": "1112223334569m", "seat": 1,
                          "void": "p", "self_draw": True})
    waits = read.variant.waits(read).waits
    assert [str(w.tile) for w in waits] == ["9m"]
    markup = response.content.decode()
    link = re.search(r'href="(/score/\?[^"]*w=9m[^"]*)"', markup)
    assert link is not None and 'hx-get="' + link.group(1) in markup
    scored = client.get(link.group(1).replace("&amp;", "&"))
    assert "8 points (4 fan)" in text(scored)


@pytest.mark.parametrize(("query", "named"), [
    ("v=sichuan&h=11111m23456m789p&w=9p&seat=S", "5 copies of 1 Characters"),
    ("v=sichuan&h=22233345699m&w=9m&seat=S&m=p1z", "is not a tile of Sichuan"),
    ("v=putian&h=1112223334445556m5z&w=6m&g=9p9s&seat=S", "laid out as a flower"),
    ("v=jiaxing&h=1112345678999m5p&w=5p&g=5p&seat=S&how=robbing_kong&from=S", "C-5"),
    ("v=putian&h=22233344455566m&w=6m&g=9p9s&seat=S&m=p1m", "PT-4"),
    ("v=sichuan&h=11122233345699m&w=9m&seat=S&how=discard&from=S", "C-5"),
])
def test_it_names_the_problem_of_bad_input_without_a_500(client: Client, query: str,
                                                         named: str) -> None:
    response = page(client, query)
    if response.status_code == 302:
        response = client.get(response["Location"])
    assert response.status_code == 400
    assert named in text(response)
    assert 'class="error scorer-error"' in response.content.decode()


def test_it_reads_as_chinese(client: Client) -> None:
    for query in ("v=jiaxing&h=1112345678999m5p&w=5p&g=5p&how=self_draw&seat=S&round=E",
                  "v=putian&h=1112223334445556m9p&w=6m&g=9p9s&how=discard&from=N&seat=S&fl=2",
                  "v=sichuan&h=1112223334569m&how=self_draw&seat=S&void=p",
                  "v=putian&h=22233344455566m&w=6m&g=9p9s&how=self_draw&seat=S&m=p1m",
                  "v=sichuan&h=1111123456m789p&w=9p&how=self_draw&seat=S"):
        response = page(client, query, **ZH)
        assert response.status_code in (200, 400), query
        markup = response.content.decode()
        assert "算番" in markup or "计分" in markup
        assert not problems_of(query, markup, english_sentences())


def test_it_works_without_javascript_a_tap_is_a_get_to_a_clean_link(client: Client) -> None:
    response = page(client, "v=sichuan&h=1112223334569m&how=self_draw&seat=S&void=p&add=9m"
                            "&mode=hand")
    assert response.status_code == 302
    state = parse_qs(urlsplit(response["Location"]).query)
    assert state["h"] == ["11122233345699m"] and state["w"] == ["9m"] and "add" not in state
    dropped = client.get(response["Location"] + "&drop=h:9m")
    assert parse_qs(urlsplit(dropped["Location"]).query)["h"] == ["1112223334569m"]


def test_it_answers_htmx_with_the_form_and_pushes_the_clean_link(client: Client) -> None:
    response = page(client, "v=sichuan&h=1112223334569m&seat=S&void=p&add=9m",
                    HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert response.content.decode().lstrip().startswith('<form id="scorer"')
    assert "w=9m" in response["HX-Push-Url"] and "add=" not in response["HX-Push-Url"]


def test_it_serves_its_service_worker_and_manifest(client: Client) -> None:
    worker = client.get("/score/sw.js")
    assert worker.status_code == 200 and worker["Content-Type"].startswith("text/javascript")
    assert worker["Service-Worker-Allowed"] == "/score/" and "caches.open" in worker.content.decode()
    manifest = json.loads(client.get("/score/manifest.webmanifest").content)
    assert manifest["start_url"] == "/score/" and manifest["display"] == "standalone"


def test_it_marks_melds_and_wildcards_by_tapping(client: Client) -> None:
    def tap(query: str, more: str) -> str:
        response = page(client, f"{query}&{more}")
        assert response.status_code == 302
        return urlsplit(response["Location"]).query

    state = tap("v=jiaxing&seat=S&round=E", "mode=g&add=5p")
    assert parse_qs(state)["g"] == ["5p"] and "mode" not in parse_qs(state)  # back to the hand
    state = tap(state, "mode=p&add=7z")
    assert parse_qs(state)["m"] == ["p7z"]
    for code in ["1m", "1m", "1m", "2m", "2m", "2m", "3m", "3m", "3m", "9m", "9m"]:
        state = tap(state, f"add={code}")
    assert parse_qs(state)["w"] == ["9m"]  # the tile that completed the hand
    score, deltas = engine({"variant": "jiaxing", "hand": "11122233399m", "win_tile": "9m",
                            "melds": [{"type": "peng", "tile": "7z"}], "wildcards": ["5p"],
                            "seat": 1, "round_wind": "E", "self_draw": True})
    shown = text(client.get(f"/score/?{state}"))
    assert score["win"] and f"{score['points']} points ({score['tai']} tai" in shown
    assert f"+{deltas[1]}" in shown and "Pung 碰" in shown


def test_it_runs_the_state_modules_examples() -> None:
    import doctest

    from replays.scorer import state

    result = doctest.testmod(state)
    assert result.attempted and not result.failed


def test_it_settles_a_win_as_the_table_does() -> None:
    """``Variant.win_lines`` (the scorer's settlement) gives the lines a table paid for the same
    win, where the table had nothing else to settle (no contract, everyone still in; Putian's
    算花 between the losers is the table's own)."""
    from games.bots.simulation import simulate
    from games.training.pay_puzzles import win_spots

    checked = dict.fromkeys(VARIANTS, 0)
    for variant in VARIANTS:
        for seed in range(8):
            for spot in win_spots(simulate(variant, 3, seed)):
                table = spot.puzzle["table"]
                if (table.get("contracts") or table.get("gave_up")
                        or len(table.get("still_in", range(4))) != 4):
                    continue
                position = read_position(spot.puzzle["position"])
                score = position.variant.score(position)
                lines = [line.to_json() for line in position.variant.win_lines(
                    position, score, table["discarder"]) if line.cause == "win"]
                assert lines == [line for line in spot.answer["lines"]
                                 if line["cause"] == "win"], (variant, seed)
                checked[variant] += 1
    assert min(checked.values()) >= 2, checked
