"""The rules pages teach: each variant's guide (setup, wildcards or golds, winning, payment),
worked examples scored and settled by the engine, unique anchors, every rule id a link."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from games.core import settlement
from games.variants.positions import read_position
from replays.library.rules_guide import CASES, anchor_for, examples, unique_anchors

VARIANTS = ["jiaxing", "putian", "sichuan"]
ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}


def page(client: Client, variant: str, **headers: str) -> str:
    response = client.get(f"/rules/{variant}/", **headers)  # type: ignore[arg-type]
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("variant", VARIANTS)
def test_it_gives_every_element_a_unique_anchor(client: Client, variant: str) -> None:
    ids = re.findall(r'\sid="([^"]+)"', page(client, variant))
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)


@pytest.mark.parametrize("variant", VARIANTS)
def test_it_links_every_rule_id_to_an_anchor_on_the_page(client: Client, variant: str) -> None:
    content = page(client, variant)
    anchors = set(re.findall(r'\sid="([^"]+)"', content))
    main = content.split('<main class="container" id="main"', 1)[1]
    # the text outside tags and links: no bare rule id is left there
    outside_links = re.sub(r"<a\s[^>]*>.*?</a>", "", main, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", outside_links)
    bare = re.findall(r"\b(?:JX|PT|SC)-\d+(?:\.\d+)*\b", text)
    # the ids shown as a section's label sit in a span next to the section's own anchor
    labels = re.findall(r'<span class="pattern-id">((?:JX|PT|SC)-[\d.]+)</span>', main)
    assert sorted(bare) == sorted(labels), set(bare) - set(labels)
    for target in re.findall(r'href="#([^"]+)"', main):
        assert target in anchors, target


@pytest.mark.parametrize("variant", VARIANTS)
def test_it_explains_setup_wildcards_winning_and_payment(client: Client,
                                                         variant: str) -> None:
    content = page(client, variant)
    for heading in ("Setup", "How a win is made", "What is paid and why"):
        assert f"<h3>{heading} " in content, heading
    special = {"jiaxing": "The wildcard (百搭)", "putian": "Golds (金)",
               "sichuan": "Play after a win (血战到底)"}[variant]
    assert special in content


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_worked_examples_are_the_engines_scores_and_settlements(variant: str) -> None:
    found = examples(variant)
    assert len(found) == len(CASES[variant]) >= 2
    for example, case in zip(found, CASES[variant], strict=True):
        position = read_position({"melds": [], **case.position})
        score = position.variant.score(position)
        assert example.score.points == score.points and example.score.win == score.win
        if example.deltas is not None:
            assert sum(example.deltas) == 0
            assert max(example.deltas) > 0


def test_a_jiaxing_example_pays_as_jx_10() -> None:
    first = examples("jiaxing")[0]
    assert first.deltas == settlement.jiaxing_win_deltas(1, first.score.points)


def test_the_examples_show_on_the_page(client: Client) -> None:
    content = page(client, "sichuan")
    for example in examples("sichuan"):
        assert html.escape(example.title) in content
        assert f"<strong>{example.score.points} points</strong>" in content


def test_it_finds_the_nearest_anchor_of_a_rule() -> None:
    anchors = frozenset({"PT-7", "PT-7.3", "PT-6"})
    assert anchor_for("PT-7.3", anchors) == "PT-7.3"
    assert anchor_for("PT-7.2", anchors) == "PT-7"
    assert unique_anchors(["PT-6", "PT-6", "PT-7"]) == ["PT-6", "PT-6-2", "PT-7"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_it_teaches_in_chinese(client: Client, variant: str) -> None:
    content = page(client, variant, **ZH)
    assert "怎样和牌" in content and "计分实例" in content
    for english in ("How a win is made", "What is paid and why", "Worked examples",
                    "Each of the three others", "paid as", "each loser pays",
                    "the base of every score", "needs 清一色"):
        assert english not in content, english
