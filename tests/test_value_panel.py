"""The values pass on the site (issue 17): in-process after the annotation, the viewer's
columns and summaries in English and Chinese, the owner's every-seat button and the
trends page (alice owns, bob has his own, charlie is anonymous)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.test.utils import override_settings

from games.analysis.annotation import ENGINE_VERSION
from games.analysis.value_pass import VALUE_MODEL_VERSION
from replays.annotation.value_view import match_summary
from replays.annotation.values import queue_values
from replays.matches.services import store_document
from replays.models import HandValues, Match

from .conftest import bot_document

# Most tests value the same match the same way: the engine's work is done once per process.
pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("values_priced_once")]


@override_settings(VALUES_AFTER_ANNOTATION=True, VALUES_SOLO_SAMPLES=40,
                   VALUES_TABLE_SAMPLES=6)
def _valued(owner: Any, seed: int = 41, seat: int | None = 0) -> Match:
    with transaction.atomic():
        match = store_document(bot_document(seed, variant="sichuan", hands=2), owner=owner,
                               uploader_seat=seat)
    match.refresh_from_db()
    assert match.values_status == Match.Status.DONE, match.values_error
    return match


def _mistake_step(match: Match) -> tuple[int, dict[str, Any]]:
    for row in HandValues.objects.filter(hand__match=match).order_by("hand__number"):
        for decision in row.data:
            return row.hand.number, decision
    pytest.fail("no valued decision")


def test_it_values_the_uploaders_seat_once_annotated(alice: Any) -> None:
    match = _valued(alice)
    rows = HandValues.objects.filter(hand__match=match)
    assert {r.seat for r in rows} == {0}
    assert rows.count() == match.hand_count
    assert all(r.engine_version == ENGINE_VERSION and r.value_version == VALUE_MODEL_VERSION
               for r in rows)
    for row in rows:
        for decision in row.data:
            if decision["no_winning_line"]:  # nothing won: no best (issue 26)
                assert decision["best"] is None and not decision["mistake"]
                assert all(a["win_probability"] == 0 for a in decision["alternatives"])
                continue
            best = next(a for a in decision["alternatives"] if a["index"] == decision["best"])
            assert best["loss"] == 0
            for alt in decision["alternatives"]:
                assert alt["expected_points"] <= best["expected_points"] + 1e-9
                low, high = alt["loss_ci95"]
                assert low <= alt["loss"] + 1e-6 and alt["loss"] <= high + 1e-6
                if alt["severity"] != "none":
                    assert low > 0  # a mistake's paired interval excludes zero
            if decision["mistake"]:
                assert decision["explanation"]["id"]


def test_it_is_idempotent_and_adds_seats_on_request(alice: Any) -> None:
    match = _valued(alice)
    before = list(HandValues.objects.filter(hand__match=match).values_list("pk", flat=True))
    with override_settings(VALUES_SOLO_SAMPLES=40, VALUES_TABLE_SAMPLES=6):
        assert queue_values(match.pk, [0]) == 0  # nothing missing: nothing sent
        assert queue_values(match.pk, [1]) == match.hand_count
    match.refresh_from_db()
    assert match.values_seats == [0, 1]
    assert match.values_status == Match.Status.DONE
    assert set(before) <= set(HandValues.objects.filter(hand__match=match).values_list(
        "pk", flat=True))
    assert {s["seat"] for s in match_summary(match)} == {0, 1}


def test_it_shows_values_beside_every_alternative_in_both_languages(alice: Any) -> None:
    match = _valued(alice)
    hand, decision = _mistake_step(match)
    client = Client()
    url = match.get_absolute_url()
    english = client.get(url, {"hand": hand, "step": decision["event"] - 1, "seat": 0})
    text = english.content.decode()
    assert english.status_code == 200
    for heading in ("Win chance", "Expected points", "Against the best"):
        assert f"<th>{heading}</th>" in text
    shown = re.findall(r'class="alt-win" data-label="[^"]*">([^<]*)</td>', text)
    expected = sorted(f"{100 * a['win_probability']:.1f}%" for a in decision["alternatives"])
    assert sorted(s for s in shown if s != "–") == expected
    assert "★ best" in text
    # a sampled value's ± is its interval's half-width with two decimals on every screen
    # (issue 27: a bare "±" on laptops, four decimals on phones); the interval in its title
    sampled = [alt for alt in decision["alternatives"] if not alt.get("exact")]
    assert sampled
    for alt in sampled:
        low, high = alt["ci95"]["expected_points"]
        assert f'<span class="alt-interval">±{(high - low) / 2:.2f}</span>' in text
        assert f"95% interval {low:.2f} to {high:.2f}".replace("-", "−") in text
    assert "This match&#x27;s values" in text or "This match's values" in text
    assert "What each choice was worth: done." in text
    chinese = client.get(url, {"hand": hand, "step": decision["event"] - 1, "seat": 0},
                         HTTP_ACCEPT_LANGUAGE="zh-hans")
    zh = chinese.content.decode()
    for heading in ("胜率", "期望分", "与最佳相比"):
        assert f"<th>{heading}</th>" in zh
    assert "Win chance" not in zh and "★ 最佳" in zh


def test_it_shows_no_value_columns_for_a_seat_not_valued(alice: Any) -> None:
    """Only seat 0 is valued: another seat's decisions show neither the value columns nor a
    verdict (a template once read a missing ``values`` key as dict.values() and said "no
    clear loss in value" of every unvalued decision)."""
    match = _valued(alice)
    steps = [(hand, step) for hand in range(1, match.hand_count + 1)
             for step in range(0, 60)]
    client = Client()
    for hand, step in steps:
        response = client.get(match.get_absolute_url(), {"hand": hand, "step": step,
                                                         "seat": 1})
        text = response.content.decode()
        if 'class="alternatives as-cards"' not in text:
            continue
        assert "<th>Win chance</th>" not in text and "value-verdict" not in text
        assert "not played out" not in text
        return
    pytest.fail("seat 1 has no decision in the first 60 steps")


def test_it_reads_a_valued_hands_values_once_per_process(alice: Any) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    match = _valued(alice)
    hand, decision = _mistake_step(match)
    steps = sorted({d["event"] - 1 for d in HandValues.objects.get(
        hand__match=match, hand__number=hand, seat=0).data})
    client = Client()
    client.get(match.get_absolute_url(), {"hand": hand, "step": steps[0]},
               headers={"HX-Request": "true"})
    with CaptureQueriesContext(connection) as queries:
        response = client.get(match.get_absolute_url(), {"hand": hand, "step": steps[1]},
                              headers={"HX-Request": "true"})
    assert 'class="alt-win"' in response.content.decode()
    tables = [re.findall(r'FROM "(\w+)"', q["sql"]) for q in queries.captured_queries]
    assert tables == [["replays_match"], ["replays_annotationstep"]], tables


def test_it_words_every_explanation_from_its_numbers() -> None:
    from django.utils import translation

    from replays.templatetags.values import EXPLANATION_IDS, explanation

    params = {"best": {"type": "discard", "tile": "9p"}, "actual": {"type": "pass"},
              "win_best": 41.8, "win_actual": 22.0, "points_best": 3.91,
              "points_actual": 1.5, "loss": 2.41, "steps": 1, "tiles_best": 12,
              "tiles_actual": 8, "wait_best": 8, "wait_actual": 2, "win_points": 16,
              "self_draw": 31.2, "ready_share": 12.5, "pig_actual": 25.0, "pig_best": 6.2,
              "pig_cost": 1.5}
    for language in ("en", "zh-hans"):
        with translation.override(language):
            for key in EXPLANATION_IDS:
                sentence = explanation({"id": key, "params": params})
                assert "%(" not in sentence and ("41.8" in sentence or "3.91" in sentence
                                                 or "16" in sentence), (key, sentence)
                if language == "zh-hans":
                    assert "discard" not in sentence and "instead of" not in sentence


def test_it_lets_only_the_owner_ask_for_every_seat(alice: Any, bob: Any) -> None:
    match = _valued(alice)
    url = f"{match.get_absolute_url()}values/all-seats/"
    other = Client()
    other.force_login(bob)
    assert other.post(url).status_code == 404
    assert Client().post(url).status_code == 302  # anonymous: to the log-in page
    match.refresh_from_db()
    assert match.values_seats == [0]
    owner = Client()
    owner.force_login(alice)
    with override_settings(VALUES_SOLO_SAMPLES=40, VALUES_TABLE_SAMPLES=6):
        assert owner.post(url).status_code == 302
    match.refresh_from_db()
    assert match.values_seats == [0, 1, 2, 3]
    assert HandValues.objects.filter(hand__match=match).count() == 4 * match.hand_count


def test_it_shows_trends_of_ones_own_matches_only(alice: Any, bob: Any,
                                                  charlie: Client) -> None:
    mine = _valued(alice, seed=41)
    _valued(bob, seed=42)
    client = Client()
    client.force_login(alice)
    page = client.get("/me/trends/").content.decode()
    assert mine.get_absolute_url() in page
    assert page.count('<td class="alt-choice"><a href="/replays/') == 1
    summary = match_summary(mine, 0)[0]
    assert f"{summary['best_share']}%" in page
    client.force_login(bob)
    assert mine.get_absolute_url() not in client.get("/me/trends/").content.decode()
    anonymous = charlie.get("/me/trends/")
    assert anonymous.status_code == 302 and "/login" in anonymous["Location"]


def test_it_reports_progress_while_valuing(alice: Any) -> None:
    match = _valued(alice)
    HandValues.objects.filter(hand__match=match, hand__number=2).delete()
    Match.objects.filter(pk=match.pk).update(values_status=Match.Status.RUNNING)
    fragment = Client().get(f"{match.get_absolute_url()}values/").content.decode()
    assert "Valuing 1 of 2 hands…" in fragment
    assert f'hx-get="{match.get_absolute_url()}values/"' in fragment
    zh = Client().get(f"{match.get_absolute_url()}values/",
                      HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "正在评估第 1 局，共 2 局" in zh


def test_it_stores_the_seat_the_uploader_played(alice: Any) -> None:
    client = Client()
    client.force_login(alice)
    raw = bot_document(43, variant="sichuan", hands=1).decode()
    response = client.post("/upload/", {"text": raw, "visibility": "private", "seat": "2"})
    assert response.status_code == 200
    match = Match.objects.get(owner=alice)
    assert match.uploader_seat == 2
    response = client.post("/upload/", {"text": bot_document(44, hands=1).decode(),
                                        "visibility": "private", "seat": ""})
    assert Match.objects.filter(owner=alice, uploader_seat__isnull=True).count() == 1


def test_it_marks_the_values_failed_naming_the_hand(alice: Any,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from replays.annotation import values

    match = _valued(alice)
    HandValues.objects.filter(hand__match=match, hand__number=2).delete()

    def broken(*args: Any) -> dict[str, Any]:
        raise ValueError("the table model met a bad log")

    monkeypatch.setattr(values, "compute", broken)
    queue_values(match.pk, [0])
    match.refresh_from_db()
    assert match.values_status == Match.Status.FAILED
    assert match.values_error == "hand 2: ValueError: the table model met a bad log"
    owner = Client()
    owner.force_login(alice)
    page = owner.get(match.get_absolute_url()).content.decode()
    assert "Valuing the choices failed:" in page and "Value every seat" in page


def test_it_says_no_winning_line_found_and_stars_nothing(alice: Any) -> None:
    """A decision where no choice wins (values-3's ``no_winning_line``, as a Jiaxing hand
    JX-5.3 lets never win gets): the panel says so in both languages, and no row, no tile
    of the hand and no verdict calls a choice best (issue 26)."""
    from games.analysis.value_pass import Priced, judged, summary

    match = _valued(alice)
    row = HandValues.objects.filter(hand__match=match, seat=0).order_by("hand__number").first()
    assert row is not None and row.data
    stored = row.data[0]
    size = max(a["index"] for a in stored["alternatives"]) + 1
    decision = {"event": stored["event"], "seat": stored["seat"], "kind": stored["kind"],
                "actual": stored["actual"],
                "alternatives": [{"action": {"type": "discard"}} for _ in range(size)]}
    nothing = [Priced(a["index"], 0.0, 0.0, (0.0, 0.0), (0.0, 0.0), True, None)
               for a in stored["alternatives"]]
    dead = judged(decision, nothing, stored["model"], stored["samples"], point=None)  # type: ignore[arg-type]
    assert dead["no_winning_line"] and dead["best"] is None
    row.data = [dead, *row.data[1:]]
    row.summary = summary(row.data, 0)
    row.save()
    client = Client()
    query = {"hand": row.hand.number, "step": dead["event"] - 1, "seat": 0}
    text = client.get(match.get_absolute_url(), query).content.decode()
    assert "no winning line found" in text and "no winning line found, so no choice" in text
    assert "★" not in text and "is-best-value" not in text
    assert not re.search(r'<tr data-alternative="\d+" class="best', text)
    assert "best value taken" not in text and "value mistake" not in text
    zh = client.get(match.get_absolute_url(), query,
                    HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "找不到能和牌的打法" in zh and "no winning line" not in zh
    assert "★" not in zh


def test_it_values_again_what_an_older_value_model_valued(alice: Any) -> None:
    """A new VALUE_MODEL_VERSION (values-3, issue 26) hides the stored values (the viewer
    reads the current version's rows only); ``manage.py revalue`` queues them again."""
    from io import StringIO

    from django.core.management import call_command

    match = _valued(alice)
    HandValues.objects.filter(hand__match=match).update(value_version="values-2")
    url = match.get_absolute_url()
    hand, decision = 1, HandValues.objects.filter(hand__match=match, hand__number=1).first()
    assert decision is not None
    query = {"hand": hand, "step": decision.data[0]["event"] - 1, "seat": 0}
    assert "<th>Win chance</th>" not in Client().get(url, query).content.decode()
    out = StringIO()
    with override_settings(VALUES_SOLO_SAMPLES=40, VALUES_TABLE_SAMPLES=6):
        call_command("revalue", stdout=out)
    assert "1 matches queued" in out.getvalue()
    match.refresh_from_db()
    assert match.values_status == Match.Status.DONE
    assert HandValues.objects.filter(hand__match=match,
                                     value_version=VALUE_MODEL_VERSION).count() == match.hand_count
    assert "<th>Win chance</th>" in Client().get(url, query).content.decode()
    out = StringIO()
    call_command("revalue", stdout=out)
    assert "0 matches queued" in out.getvalue()
