"""The site in Simplified Chinese: pages, the viewer and its settlement, and the catalogue.

Chinese is chosen by ``Accept-Language``, by the language cookie or by posting to the
language switcher (``/i18n/setlang/``); English stays the default. The catalogue
(``locale/zh_Hans/LC_MESSAGES/django.po``) must translate every message, keep every
placeholder, and its compiled ``django.mo`` (committed, since CI has no gettext) must be
fresh: regenerate both with ``make messages``.

Run: DATABASE_URL=postgres://... .venv/bin/python -m pytest tests/test_site_i18n.py
"""

from __future__ import annotations

import gettext
import html
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from games.bots import simulate
from games.log import dumps
from replays.models import Match
from replays.services import store_document

ROOT = Path(__file__).resolve().parent.parent
LC_MESSAGES = ROOT / "locale" / "zh_Hans" / "LC_MESSAGES"
PO = LC_MESSAGES / "django.po"
MO = LC_MESSAGES / "django.mo"

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
# Navigation in the header of every page, in Chinese.
ZH_NAV = ("麻将牌谱回放", ">浏览</a>", ">上传</a>", ">规则</a>", ">登录</a>", ">注册</a>")
EN_NAV = ("Mahjong replays", ">Browse</a>", ">Upload</a>", ">Rules</a>", ">Log in</a>",
          ">Sign up</a>")


def store(variant: str, hands: int, seed: int) -> Match:
    return store_document(dumps(simulate(variant, hands, seed)).encode())


@pytest.fixture
def jiaxing(db: None) -> Match:
    """The match of the brief: one Jiaxing hand played by bots (an exhausted wall)."""
    return store("jiaxing", 1, 3)


def last_step(match: Match) -> int:
    return int(match.hands.get(number=1).event_count)


def page(client: Client, url: str, **headers: str) -> str:
    response = client.get(url, **headers)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def text_of(markup: str) -> str:
    """The visible text of a fragment: tags dropped, entities decoded, spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def part(content: str, pattern: str) -> str:
    found = re.search(pattern, content, re.S)
    assert found, pattern
    return found.group(1)


def h1(content: str) -> str:
    return text_of(part(content, r"<h1[^>]*>(.*?)</h1>"))


def event_line(content: str) -> str:
    return text_of(part(content, r'<p class="event-line"[^>]*>(.*?)</p>'))


def controls(content: str) -> str:
    return text_of(part(content, r'<nav class="controls"[^>]*>(.*?)</nav>'))


# --- choosing the language -------------------------------------------------------------------


def test_it_shows_chinese_browse_page_for_accept_language(jiaxing: Match, client: Client) -> None:
    content = page(client, "/", **ZH)
    assert '<html lang="zh-hans">' in content
    for text in ZH_NAV:
        assert text in content
    assert h1(content) == "牌谱"
    assert "<title>牌谱 – 麻将牌谱回放</title>" in content
    for text in ("玩家", "玩法", "起始日期", "截止日期", "筛选", "1 局", "嘉兴麻将"):
        assert text in content, text
    for english in (">Browse<", "Replays", "Filter", "1 hand"):
        assert english not in content, english


def test_it_shows_chinese_upload_page_for_accept_language(db: None, client: Client) -> None:
    content = page(client, "/upload/", **ZH)
    for text in ZH_NAV:
        assert text in content
    assert h1(content) == "上传牌谱"
    for text in ("<code>mahjong-log/1</code> JSON", "将文件拖到此处", "标题（可选）", "谁可以查看",
                 "公开：对所有人列出", "私密：仅自己可见"):
        assert text in content, text
    assert "Upload hand histories" not in content


def test_it_shows_the_paste_label_in_each_language() -> None:
    from replays.views import UploadForm

    with translation.override("en"):
        assert str(UploadForm().fields["text"].label) == "…or paste a document"
    with translation.override("zh-hans"):
        assert str(UploadForm().fields["text"].label) == "……或粘贴一份文档"


@pytest.mark.parametrize("variant", ["jiaxing", "putian", "sichuan"])
def test_it_shows_chinese_rules_pages_for_accept_language(db: None, client: Client,
                                                         variant: str) -> None:
    content = page(client, f"/rules/{variant}/", **ZH)
    for text in ZH_NAV:
        assert text in content
    headings = [text_of(h) for h in re.findall(r"<h2>(.*?)</h2>", content)]
    assert headings == ["计分牌型", "规则选项"]
    for text in ("规则引擎", "<th>规则</th>", "<th>中文</th>", "<th>分值</th>", "<th>含义</th>"):
        assert text in content, text
    assert "Scoring patterns" not in content


def test_it_keeps_chinese_from_the_language_cookie(db: None, client: Client) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hans"
    content = page(client, "/")
    assert '<html lang="zh-hans">' in content
    assert h1(content) == "牌谱"
    assert h1(page(client, "/upload/")) == "上传牌谱"


def test_it_switches_language_with_the_switcher_form(db: None, client: Client) -> None:
    response = client.post("/i18n/setlang/", {"language": "zh-hans", "next": "/upload/"})
    assert response.status_code == 302
    assert response["Location"] == "/upload/"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "zh-hans"
    content = page(client, "/upload/")
    assert h1(content) == "上传牌谱"
    # the switcher itself: its label translated, Chinese selected
    assert '<label class="visually-hidden" for="language">语言</label>' in content
    assert '<option value="zh-hans" selected>简体中文</option>' in content
    # and back to English
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert h1(page(client, "/")) == "Replays"


# --- English stays the default ---------------------------------------------------------------


@pytest.mark.parametrize("headers", [{}, {"HTTP_ACCEPT_LANGUAGE": "en"},
                                     {"HTTP_ACCEPT_LANGUAGE": "fr-FR,fr;q=0.9"}],
                         ids=["no-header", "english", "unsupported"])
def test_it_stays_english_by_default(jiaxing: Match, client: Client,
                                     headers: dict[str, str]) -> None:
    content = page(client, "/", **headers)
    assert '<html lang="en">' in content
    for text in EN_NAV:
        assert text in content
    assert h1(content) == "Replays"
    assert "1 hand" in content
    assert h1(page(client, "/upload/", **headers)) == "Upload hand histories"
    rules = page(client, "/rules/jiaxing/", **headers)
    assert "<h2>Scoring patterns</h2>" in rules
    viewer = page(client, f"{jiaxing.get_absolute_url()}?step={last_step(jiaxing)}", **headers)
    assert "<h2>Settlement</h2>" in viewer
    assert event_line(viewer) == "The wall is exhausted"
    for text in ("浏览", "牌谱", "结算", "下一步"):
        assert text not in content + viewer, text


# --- the viewer ------------------------------------------------------------------------------


def test_it_shows_chinese_viewer_controls(jiaxing: Match, client: Client) -> None:
    steps = last_step(jiaxing)
    content = page(client, f"{jiaxing.get_absolute_url()}?step=1", **ZH)
    for text in ZH_NAV:
        assert text in content
    nav = controls(content)
    for text in ("第一步", "上一步", f"第 1/1 局 · 第 1/{steps} 步", "下一步", "最后一步",
                 "视角", "全部"):
        assert text in nav, text
    assert 'aria-label="回放控制"' in content
    for text in (">下载</a>", "牌墙：剩", "圈风：", "百搭", "翻牌指示", 'title="门风"',
                 '<span class="seat-status">庄家</span>', "快捷键："):
        assert text in content, text
    visible = text_of(content)
    for english in ("Next", "Previous", "Last", "View as", "Wall:", "Round wind", "Wildcard",
                    "Indicator", "dealer", "Download", "Settlement", "Keys:"):
        assert english not in visible, english
    assert re.fullmatch(r"\w+ (?:摸牌|打出) [1-9][mpsz]", event_line(content)), event_line(content)


def test_it_shows_the_chinese_deal_and_hand_links(db: None, client: Client) -> None:
    match = store("jiaxing", 2, 5)
    first = page(client, f"{match.get_absolute_url()}?hand=1&step=0", **ZH)
    assert event_line(first) == "发牌"
    assert "下一局" in controls(first)
    second = page(client, f"{match.get_absolute_url()}?hand=2&step=0", **ZH)
    assert "上一局" in controls(second)
    assert "第 2/2 局 · 第 0/" in controls(second)


def test_it_shows_the_chinese_settlement_at_the_last_step(jiaxing: Match,
                                                          client: Client) -> None:
    steps = last_step(jiaxing)
    content = page(client, f"{jiaxing.get_absolute_url()}?step={steps}", **ZH)
    settlement = part(content, r'<section class="settlement">(.*?)</section>')
    assert "<h2>结算</h2>" in settlement
    assert "本局无人和牌。" in settlement
    assert "<th>付分方</th><th>收分方</th><th>分数</th>" in settlement
    assert "无需付分。" in settlement
    assert event_line(content) == "牌墙已摸完，流局"
    assert f"第 {steps}/{steps} 步" in controls(content)
    for english in ("Settlement", "Nobody won", "Who pays", "No payments"):
        assert english not in content, english


@pytest.mark.parametrize(("variant", "seed", "expected"), [
    ("putian", 3, [r"^\w+ 和 [1-9][mps] \w+，\w+ 点炮 · \d+ 分$"]),
    ("sichuan", 2, [r"^\w+ 和 [1-9][mps] \w+，\w+ 点炮 · \d+ 番 · \d+ 分$",
                    r"^\w+ 和 [1-9][mps] \w+，自摸 · \d+ 番 · \d+ 分$"]),
])
def test_it_shows_chinese_wins_in_the_settlement(db: None, client: Client, variant: str,
                                                 seed: int, expected: list[str]) -> None:
    match = store(variant, 1, seed)
    content = page(client, f"{match.get_absolute_url()}?step={last_step(match)}", **ZH)
    settlement = part(content, r'<section class="settlement">(.*?)</section>')
    assert "<h2>结算</h2>" in settlement
    wins = [text_of(w) for w in re.findall(r'<div class="win">\s*<p>(.*?)</p>', settlement, re.S)]
    assert wins
    for line in wins:
        assert any(re.match(pattern, line) for pattern in expected), line
    for pattern in expected:
        assert any(re.match(pattern, line) for line in wins), pattern
    assert "<th>付分方</th><th>收分方</th><th>分数</th>" in settlement
    assert "Who pays" not in settlement


@pytest.mark.parametrize(("variant", "seed"), [("jiaxing", 5), ("putian", 3), ("sichuan", 2)])
def test_it_describes_every_step_in_chinese(db: None, client: Client, variant: str,
                                            seed: int) -> None:
    """Every event line of a whole hand (draws, discards, chows, pungs, kongs, contracts,
    whites, void suits, ready, wins, the end) is a Chinese sentence."""
    match = store(variant, 1, seed)
    # Player names, tile codes (5m) and suit letters stay as they are; the words are Chinese.
    names = "|".join(map(re.escape, match.players))
    names_and_codes = re.compile(rf"\b(?:{names}|[1-9][mpsz]|[mps])\b")
    seen = set()
    for step in range(last_step(match) + 1):
        line = event_line(page(client, f"{match.get_absolute_url()}?step={step}", **ZH))
        assert line, step
        words = names_and_codes.sub("", line)
        assert not re.search(r"[A-Za-z]", words), (step, line)
        seen.add(re.sub(r"[\sA-Za-z0-9]+", " ", line).strip())
    assert len(seen) >= 4, seen


def test_it_returns_chinese_board_fragments_to_htmx(jiaxing: Match, client: Client) -> None:
    response = client.get(f"{jiaxing.get_absolute_url()}?step=2", HTTP_HX_REQUEST="true", **ZH)
    content = response.content.decode()
    assert content.lstrip().startswith('<div id="board-wrap">')
    assert "下一步" in controls(content)


# --- the catalogue ---------------------------------------------------------------------------


@dataclass
class Entry:
    msgid: str = ""
    msgid_plural: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)


def unquote(literal: str) -> str:
    """A PO string literal (with its quotes) as text."""
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
    return re.sub(r'\\(.)', lambda m: escapes.get(m.group(1), m.group(0)), literal[1:-1])


def read_po(path: Path) -> list[Entry]:
    """Every active entry of a PO file (obsolete ``#~`` entries skipped), header first."""
    entries: list[Entry] = []
    entry: Entry | None = None
    target: tuple[str, int] = ("", 0)
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#~"):
            continue
        if line.startswith("#,"):
            if entry is None or entry.msgstr:
                entry = Entry()
                entries.append(entry)
            entry.flags |= {flag.strip() for flag in line[2:].split(",")}
        elif line.startswith("#"):
            continue
        elif (keyword := re.match(r"(msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(\".*\")$",
                                  line)):
            name, index, literal = keyword.groups()
            if name == "msgid" and (entry is None or entry.msgstr):
                entry = Entry()
                entries.append(entry)
            assert entry is not None, raw
            target = (name.split("[")[0], int(index or 0))
            store_part(entry, target, unquote(literal), new=True)
        else:
            assert line.startswith('"') and entry is not None, raw
            store_part(entry, target, unquote(line), new=False)
    return entries


def store_part(entry: Entry, target: tuple[str, int], text: str, *, new: bool) -> None:
    name, index = target
    if name == "msgid":
        entry.msgid = text if new else entry.msgid + text
    elif name == "msgid_plural":
        entry.msgid_plural = text if new else (entry.msgid_plural or "") + text
    else:
        entry.msgstr[index] = text if new else entry.msgstr[index] + text


@pytest.fixture(scope="module")
def catalogue() -> list[Entry]:
    entries = read_po(PO)
    assert entries and entries[0].msgid == "", "the PO file starts with its header"
    return entries


PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w*\}|<[^>]+>")


def test_it_has_a_chinese_header_with_one_plural_form(catalogue: list[Entry]) -> None:
    header = catalogue[0]
    assert "fuzzy" not in header.flags
    assert "Language: zh_Hans\n" in header.msgstr[0]
    assert "Content-Type: text/plain; charset=UTF-8\n" in header.msgstr[0]
    assert "Plural-Forms: nplurals=1; plural=0;\n" in header.msgstr[0]


def test_it_translates_every_message(catalogue: list[Entry]) -> None:
    messages = catalogue[1:]
    assert len(messages) >= 100
    untranslated = [e.msgid for e in messages if not all(s.strip() for s in e.msgstr.values())]
    assert untranslated == []
    assert [e.msgid for e in messages if "fuzzy" in e.flags] == []
    plurals = [e for e in messages if e.msgid_plural is not None]
    assert plurals, "the hand count is a plural"
    for e in plurals:
        assert sorted(e.msgstr) == [0], e.msgid  # Chinese: one plural form
    # the translation is Chinese, not the English copied over (unless it is only placeholders)
    assert [e.msgid for e in messages if not re.search(r"[\u4e00-\u9fff]", e.msgstr[0])
            and PLACEHOLDER.sub("", e.msgstr[0]).strip()] == []


def test_it_keeps_every_placeholder(catalogue: list[Entry]) -> None:
    for e in catalogue[1:]:
        source = e.msgid_plural if e.msgid_plural is not None else e.msgid
        for text in e.msgstr.values():
            assert sorted(PLACEHOLDER.findall(text)) == sorted(PLACEHOLDER.findall(source)), (
                e.msgid, text)


def test_it_has_a_fresh_compiled_catalogue(catalogue: list[Entry]) -> None:
    assert MO.is_file(), "run `make messages`"
    # A fresh checkout writes both files within the same moment (django.mo first): allow
    # that; a .po edited after compiling is older than this by far.
    assert MO.stat().st_mtime >= PO.stat().st_mtime - 2, "django.mo is older: `make messages`"
    with MO.open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    assert compiled.info().get("plural-forms") == "nplurals=1; plural=0;"
    stale = []
    for e in catalogue[1:]:
        if e.msgid_plural is None:
            if compiled.gettext(e.msgid) != e.msgstr[0]:
                stale.append(e.msgid)
        elif compiled.ngettext(e.msgid, e.msgid_plural, 2) != e.msgstr[0]:
            stale.append(e.msgid)
    assert stale == [], "django.mo differs from django.po: `make messages`"
