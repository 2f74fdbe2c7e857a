"""The viewer's analysis panel as the server renders it: waits drawn as tiles with their
value in the variant's own terms, the copies left, and the patterns with their rule ids.
(Stepping and the spoiler-free mode in a real browser: test_browser_analysis.py.)"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.db import transaction
from django.test import Client

from games.analysis.annotation import ENGINE_VERSION
from replays.matches.services import store_document
from replays.models import Annotation, Match
from replays.templatetags.tiles import score_title, score_value

from .conftest import bot_document

# Per variant: what a wait's value says (JX-5.1 base × tai × 2^fan; PT-7 points; SC-5 fan).
SHAPES = {
    "jiaxing": r"^\d+ points \(\d+ tai, \d+ fan\)$",
    "putian": r"^\d+ points$",
    "sichuan": r"^\d+ points \(\d+ fan\)$",
}


def test_it_words_a_score_in_each_variants_terms() -> None:
    from django.utils import translation

    # in English whatever language an earlier request in this thread left active
    with translation.override("en"):
        assert score_value({"tai": 2, "fan": 1, "points": 4}) == "4 points (2 tai, 1 fan)"
        assert score_value({"points": 8, "flower_points": 3}) == "8 points"
        assert score_value({"fan": 3, "points": 8}) == "8 points (3 fan)"
        assert score_value(None) == ""


def test_it_lists_the_patterns_with_their_rule_ids_for_the_tooltip() -> None:
    from django.utils import translation

    translation.activate("en")  # an earlier request in this thread may have left Chinese
    score = {"patterns": [{"id": "JX-6.7", "name": "混一色", "en": "half flush", "tai": 2},
                          {"id": "JX-7.9", "name": "包子", "en": "carried", "fan": 1}],
             "reading": "234s 678s 55s"}
    assert score_title(score) == ("JX-6.7 混一色 half flush 2 tai · JX-7.9 包子 carried 1 fan"
                                  " · 234s 678s 55s")
    assert score_title({"patterns": [{"id": "PT-6", "name": "金", "en": "gold",
                                      "points": 3}]}) == "PT-6 金 gold 3 points"


def _stored_with_waits(variant: str) -> tuple[Match, dict[str, Any], int]:
    """A bot match annotated in-process, and its first decision listing waits."""
    with transaction.atomic():
        match = store_document(bot_document(31, variant=variant, hands=4))
    match.refresh_from_db()
    assert match.annotation_status == Match.Status.DONE, match.annotation_error
    for annotation in Annotation.objects.filter(
            hand__match=match, engine_version=ENGINE_VERSION).order_by("hand__number"):
        for decision in annotation.data["decisions"]:
            if len(decision["alternatives"]) > 1 and any(
                    a.get("waits") for a in decision["alternatives"]):
                return match, decision, annotation.hand.number
    pytest.fail(f"no {variant} decision with waits in four hands")


@pytest.mark.parametrize("variant", sorted(SHAPES))
def test_it_draws_waits_as_tiles_with_value_copies_left_and_rules(
        transactional_db: None, client: Client, variant: str) -> None:
    match, decision, hand = _stored_with_waits(variant)
    response = client.get(match.get_absolute_url(),
                          {"hand": hand, "step": decision["event"] - 1})
    assert response.status_code == 200
    markup = response.content.decode()
    alternative = next(a for a in decision["alternatives"] if a.get("waits"))
    drawn = re.findall(
        r'<span class="wait" title="([^"]*)"><span class="tile[^"]*" data-tile="([^"]*)"'
        r'[^>]*><svg.*?</svg></span> <span class="wait-value">([^<]*)</span> '
        r'<span class="wait-left">([^<]*)</span></span>', markup)
    assert all(re.match(SHAPES[variant], value) for _, _, value, _ in drawn), drawn
    for wait in alternative["waits"]:
        score = wait["score"]
        assert any(
            tile == wait["tile"] and value.startswith(f"{score['points']} points")
            and left == f"{wait['remaining']} left"
            and all(p["id"] in html.unescape(title) for p in score["patterns"])
            for title, tile, value, left in drawn), f"{wait} not drawn among {drawn}"


def test_it_words_a_score_in_chinese() -> None:
    from django.utils import translation

    with translation.override("zh-hans"):
        assert score_value({"tai": 2, "fan": 1, "points": 4}) == "4 分（2 台，1 番）"
        assert score_value({"points": 8}) == "8 分"
