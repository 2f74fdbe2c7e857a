"""The main pages read as Chinese (issue 27): the home page, the play form, a played match's
table and results, the leave confirmation, the upload form and an upload's refusal, the
viewer and settlement of a stored match, the puzzle list, the bots page, the rules pages, the
trends page and the account pages with a too-short password. None shows in its visible text
(tags, scripts and attributes dropped; ``title`` and ``aria-label`` kept, as they are heard)
an engine rules option's key (``cap_fan``), a tile code (``7p``), a sentence of the site's
English catalogue or one of the English fragments players met ("1 flowers", "starting at
at", "tile:")."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client

from games.play.bot_match import TITLE, commitment
from games.variants.registry import VARIANTS
from replays.models import Match

from .conftest import bot_document
from .test_play_leave import past_the_void
from .test_play_site import start
from .test_site_i18n_complete import TILE_CODE, english_sentences

pytestmark = pytest.mark.django_db

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
OPTION_KEYS = sorted({name for variant in VARIANTS.values() for name in variant.OPTIONS})
OPTION_KEY = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, OPTION_KEYS)) + r")(?![\w-])")
# What players met on Chinese pages (issue 27), beside the catalogue's own sentences.
FRAGMENTS = ("starting at at", "starting at", "tile:", "tile：", "1 flowers", "next 1 tiles",
             "This password is too short", "characters.", "This field is required")
# Commands and file names are shown as typed: not text to translate.
AS_TYPED = re.compile(r"<(pre|code)\b[^>]*>.*?</\1>", re.S)


def visible(markup: str, keep_code: bool = False) -> str:
    """What a reader sees or hears in the page's body: the text (scripts dropped, and what
    the reader typed into a text area; code and commands too unless ``keep_code``), and the
    ``title`` and ``aria-label`` attributes; never the other attributes (``href``,
    ``value``, ``data-*``)."""
    body = markup.split("<body", 1)[-1].split(">", 1)[-1]
    body = re.sub(r"<(script|style|textarea)\b.*?</\1>", " ", body, flags=re.S)
    if not keep_code:
        body = AS_TYPED.sub(" ", body)
    heard = " ".join(re.findall(r'\s(?:title|aria-label)="([^"]*)"', body))
    text = re.sub(r"<[^>]+>", " ", body)
    return " ".join(html.unescape(f"{text} {heard}").split())


def problems_of(where: str, markup: str, sentences: list[str],
                keys: bool = True) -> list[Any]:
    shown = visible(markup)
    found = {
        "option keys": sorted(set(OPTION_KEY.findall(visible(markup, keep_code=True))))
        if keys else [],
        "tile codes": sorted(set(TILE_CODE.findall(shown))),
        "english": [s for s in sentences if s in shown][:5],
        "fragments": [f for f in FRAGMENTS if f in shown],
    }
    found = {kind: items for kind, items in found.items() if items}
    return [(where, found)] if found else []


def get(client: Client, url: str) -> str:
    response = client.get(url, follow=True, **ZH)  # type: ignore[arg-type]
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


@pytest.fixture
def sentences() -> list[str]:
    return english_sentences()


@pytest.fixture
def stored(db: None) -> list[Match]:
    """A stored match of each variant, public; and a played match's replay, public too (its
    title is the site's own)."""
    from replays.matches.services import store_document

    matches = [store_document(bot_document(seed, variant=variant, hands=2))
               for variant, seed in (("jiaxing", 12), ("putian", 3), ("sichuan", 2))]
    played = store_document(bot_document(
        7, variant="sichuan", hands=2,
        title=TITLE.format(commitment=commitment("the walls' secret seed"))))
    return [*matches, played]


def test_the_check_finds_what_players_met() -> None:
    """The check itself: a raw option key, a tile code and the fragments are found, in
    text and in the names screen readers hear, and not in attributes nor in commands."""
    page = ('<body><label><code>cap_fan</code></label> 打出 7p <span title="1 flowers">x</span>'
            '<a href="/rules/?fee=1" data-x="base" value="5m">规则</a>'
            '<pre>python -m games verify-deal match.json</pre></body>')
    found = dict(problems_of("page", page, ["verify the deal of the match"])[0][1])
    assert found == {"option keys": ["cap_fan"], "tile codes": ["7p"],
                     "fragments": ["1 flowers"]}
    assert not problems_of("page", '<body><p data-variant="fee">牌墙：剩 5 张</p></body>', [])
    assert {"base", "fee", "cap_fan", "escape_penalty"} <= set(OPTION_KEYS)


def test_the_public_pages_read_as_chinese(client: Client, stored: list[Match],
                                          sentences: list[str]) -> None:
    urls = ["/", "/play/", "/upload/", "/bots/", "/puzzles/", "/puzzles/daily/",
            "/rules/jiaxing/", "/rules/putian/", "/rules/sichuan/", "/accounts/login/",
            "/accounts/signup/"]
    for match in stored:
        last = match.hands.get(number=1).event_count
        urls += [match.get_absolute_url(), f"{match.get_absolute_url()}?hand=1&step={last}",
                 f"{match.get_absolute_url()}?hand=1&step=5&seat=0",
                 f"/replays/{match.public_id}/hands/"]
    problems: list[Any] = []
    for url in urls:
        # The rules pages' options table is checked on its own (below).
        problems += problems_of(url, get(client, url), sentences,
                                keys=not url.startswith("/rules/"))
    assert not problems, problems


def test_the_rules_pages_name_options_in_words(client: Client, db: None) -> None:
    problems = [problem for variant in VARIANTS for problem in problems_of(
        f"/rules/{variant}/", get(client, f"/rules/{variant}/"), [])]
    assert not problems, problems


def test_a_played_matchs_title_reads_as_chinese_without_its_hash(client: Client,
                                                                 stored: list[Match]) -> None:
    played = stored[-1]
    home = visible(get(client, "/"))
    assert "四川麻将 对机器人 · 2 局" in home
    assert played.commitment is not None and played.commitment not in home
    assert played.commitment in get(client, played.get_absolute_url())


@pytest.mark.parametrize("variant", ["jiaxing", "putian", "sichuan"])
def test_the_play_pages_read_as_chinese(client: Client, variant: str,
                                        sentences: list[str]) -> None:
    """The table, the leave confirmation (with each variant's charge) and the results of a
    match left; on a Putian or Sichuan match's results no Jiaxing rule id (the JX-11
    ladder's) is named."""
    pid = start(client, variant, hands=2, **{f"{variant}-fee": "1"})
    past_the_void(client, pid)
    problems: list[Any] = []
    for url in (f"/play/{pid}/", f"/play/{pid}/leave"):
        problems += problems_of(url, get(client, url), sentences)
    client.post(f"/play/{pid}/leave", **ZH)  # type: ignore[arg-type]
    results = get(client, f"/play/{pid}/")
    problems += problems_of(f"/play/{pid}/ (left)", results, sentences)
    problems += problems_of("/play/ (finished)", get(client, "/play/"), sentences)
    assert not problems, problems


@pytest.mark.parametrize("variant", ["putian", "sichuan"])
def test_the_results_of_a_putian_or_sichuan_match_name_no_jiaxing_rule(
        client: Client, variant: str) -> None:
    """The ladder is the site's, for every variant: the Chinese results don't call it by
    the Jiaxing rule's id (JX-11)."""
    pid = start(client, variant, hands=1)
    past_the_void(client, pid)
    client.post(f"/play/{pid}/leave", **ZH)  # type: ignore[arg-type]
    assert "JX-" not in visible(get(client, f"/play/{pid}/"))


def test_the_english_results_of_a_sichuan_match_name_no_jiaxing_rule(client: Client) -> None:
    pid = start(client, "sichuan", hands=1)
    past_the_void(client, pid)
    client.post(f"/play/{pid}/leave")
    assert "JX-" not in visible(client.get(f"/play/{pid}/").content.decode())


def test_the_sichuan_leave_before_the_void_suit_reads_as_chinese(client: Client,
                                                                 sentences: list[str]) -> None:
    for _ in range(20):
        pid = start(client, "sichuan")
        if client.get(f"/play/{pid}/state.json").json()["decision"]["kind"] == "dingque":
            break
    else:
        pytest.skip("no match asked for the void suit first")
    page = get(client, f"/play/{pid}/leave")
    assert "SC-2" in visible(page)
    assert not problems_of("leave before the void suit", page, sentences)


@pytest.mark.parametrize("document", [
    b'{"format": "mahjong-log/1", "variant": "sichuan", "players": ["A", "B", "C", "D"], '
    b'"hands": [{"deal": "x"',
    b'{"format": "mahjong-log/1", "title": "unterminated',
    "tile",
])
def test_an_upload_refusal_reads_as_chinese(client: Client, document: bytes | str,
                                            sentences: list[str]) -> None:
    """A document that is not JSON, and one with a bad tile in an event."""
    if document == "tile":
        raw = bot_document(5, variant="jiaxing").decode()
        document = re.sub(r'"tile": "\w\w"', '"tile": "9x"', raw, count=1).encode()
    response = client.post("/upload/", {"title": "", "visibility": "unlisted",
                                         "text": document.decode()}, **ZH)  # type: ignore[arg-type,union-attr]
    assert response.status_code == 200
    markup = response.content.decode()
    assert 'class="error"' in markup
    assert not problems_of("upload refusal", markup, sentences)


def test_a_too_short_password_is_refused_in_chinese(client: Client,
                                                    sentences: list[str]) -> None:
    response = client.post("/accounts/signup/", {
        "username": "dora", "password1": "a1b", "password2": "a1b"}, **ZH)  # type: ignore[arg-type]
    assert response.status_code == 200
    markup = response.content.decode()
    assert "密码" in visible(markup) and "8" in visible(markup)
    assert not problems_of("signup", markup, sentences)


def test_the_trends_page_reads_as_chinese(client: Client, alice: Any,
                                          sentences: list[str]) -> None:
    from replays.matches.services import store_document

    for seed in (1, 2):
        store_document(bot_document(seed, variant="sichuan", hands=1,
                                    title=TITLE.format(commitment=commitment(f"s{seed}"))),
                       owner=alice, visibility=Match.Visibility.PRIVATE, uploader_seat=0)
    client.force_login(alice)
    assert not problems_of("/me/trends/", get(client, "/me/trends/"), sentences)
