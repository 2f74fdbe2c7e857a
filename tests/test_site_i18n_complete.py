"""No page shown in Chinese contains an English sentence of the site's catalogue (a message
left untranslated, or shown around the translation machinery) nor a tile code (``1z``,
``7p``): the viewer at every kind of moment of every variant, the match overview, the rules
pages, browse, upload and the puzzle pages, both as text and in the names screen readers
hear (``title``, ``aria-label``)."""

from __future__ import annotations

import gettext
import html
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from replays.models import Match

from .conftest import bot_document

ROOT = Path(__file__).resolve().parent.parent
MO = ROOT / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.mo"
ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
TILE_CODE = re.compile(r"(?<![\w#/.-])[1-9]+[mpsz](?![\w-])")


def english_sentences() -> list[str]:
    """The catalogue's English messages of three words or more, placeholders dropped (the
    pieces between placeholders must not show either)."""
    with MO.open("rb") as handle:
        catalogue = gettext.GNUTranslations(handle)
    found = set()
    for key in catalogue._catalog:  # type: ignore[attr-defined]
        message = key[0] if isinstance(key, tuple) else key
        message = message.split("\x04")[-1]
        for piece in re.split(r"%\(\w+\)[sd]|\{\w+\}|%[sd]", message):
            piece = piece.strip(" .,:;()·–")
            if len(re.findall(r"[A-Za-z]+", piece)) >= 3:
                found.add(piece)
    return sorted(found)


def visible(markup: str) -> str:
    """What a reader sees or hears: the text, and the title and aria-label attributes."""
    body = markup.split("<body", 1)[-1]
    body = re.sub(r"<script.*?</script>", " ", body, flags=re.S)
    heard = " ".join(re.findall(r'\s(?:title|aria-label)="([^"]*)"', body))
    text = re.sub(r"<[^>]+>", " ", body)
    return " ".join(html.unescape(f"{text} {heard}").split())


@pytest.fixture
def matches(db: None) -> list[Match]:
    from replays.matches.services import store_document

    return [store_document(bot_document(seed, variant=variant, hands=2))
            for variant, seed in (("jiaxing", 12), ("putian", 3), ("sichuan", 2))]


def moments(match: Match) -> list[str]:
    """The viewer's URLs at the deal, a claim or a kong, a win, and each hand's end, as a
    seat and as every seat."""
    urls = []
    for hand in match.hands.all():
        steps = {0, hand.event_count}
        for index, event in enumerate(hand.events, 1):
            if event["type"] in ("peng", "chi", "gang", "hu", "dingque", "flower", "ready"):
                steps.add(index)
        for step in sorted(steps)[:12]:
            urls.append(f"{match.get_absolute_url()}?hand={hand.number}&step={step}")
        urls.append(f"{match.get_absolute_url()}?hand={hand.number}&step=3&seat=1")
    urls.append(f"/replays/{match.public_id}/hands/")
    return urls


def pages(matches: list[Match]) -> list[str]:
    urls = ["/", "/upload/", "/rules/jiaxing/", "/rules/putian/", "/rules/sichuan/", "/bots/",
            "/accounts/login/", "/accounts/signup/"]
    for match in matches:
        urls += moments(match)
    return urls


def test_the_catalogue_check_finds_english_sentences() -> None:
    sentences = english_sentences()
    assert "Nobody won this hand" in sentences
    assert len(sentences) > 100


def test_no_chinese_page_shows_an_english_sentence_or_a_tile_code(
        client: Client, matches: list[Match]) -> None:
    sentences = english_sentences()
    problems: list[Any] = []
    for url in pages(matches):
        response = client.get(url, **ZH)  # type: ignore[arg-type]
        assert response.status_code == 200, url
        text = visible(response.content.decode())
        english = [s for s in sentences if s in text]
        codes = sorted(set(TILE_CODE.findall(text)))
        if english or codes:
            problems.append((url, english[:5], codes[:10]))
    assert not problems, problems


def _problems(client: Client, url: str, sentences: list[str], markup: str) -> list[Any]:
    text = visible(markup)
    english = [s for s in sentences if s in text]
    codes = sorted(set(TILE_CODE.findall(text)))
    return [(url, english[:5], codes[:10])] if english or codes else []


def test_no_chinese_page_of_a_pay_or_discard_puzzle_shows_english_or_tile_codes(
        client: Client, db: None) -> None:
    from replays.models import Puzzle
    from replays.puzzles import services as puzzles

    sentences = english_sentences()
    problems: list[Any] = []
    for variant in ("jiaxing", "putian", "sichuan"):
        for kind, seed in ((Puzzle.Kind.PAY, "zh"), (Puzzle.Kind.DISCARD, "zh")):
            puzzle = puzzles.generated_puzzle(variant, 3, seed, kind)
            url = puzzle.get_absolute_url()
            for shown in (url, f"/puzzles/train/?kind={kind}&variant={variant}"):
                response = client.get(shown, **ZH)  # type: ignore[arg-type]
                assert response.status_code == 200, shown
                problems += _problems(client, shown, sentences, response.content.decode())
            answer: dict[str, Any] = (
                {name: 0 for name in puzzle.answer["asks"]} | {"collects": 1}
                if kind == Puzzle.Kind.PAY else {"tile": puzzle.answer["runner_up"]})
            client.post(f"{url}answer/", answer, **ZH)  # type: ignore[arg-type]
            response = client.get(url, **ZH)  # type: ignore[arg-type]
            assert "verdict" in response.content.decode(), url
            problems += _problems(client, url + " (answered)", sentences,
                                  response.content.decode())
    assert not problems, problems
