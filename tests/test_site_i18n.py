"""The site in Simplified Chinese: pages, the viewer and its settlement, and the catalogue.

Chinese is chosen by ``Accept-Language``, by the language cookie or by posting to the
language switcher (``/i18n/setlang/``); English stays the default. The catalogue
(``locale/zh_Hans/LC_MESSAGES/django.po``) must translate every message, keep every
placeholder, and its compiled ``django.mo`` (committed, since CI has no gettext) must be
fresh: regenerate both with ``make messages``.

Run: DATABASE_URL=postgres://... .venv/bin/python -m pytest tests/test_site_i18n.py
"""

from __future__ import annotations

import datetime as dt
import gettext
import html
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone, translation

from games.bots.simulation import simulate
from games.records.log import dumps
from replays.matches.services import store_document
from replays.models import Match, Puzzle, WorkerHeartbeat
from replays.puzzles import services as puzzles

ROOT = Path(__file__).resolve().parent.parent
LC_MESSAGES = ROOT / "locale" / "zh_Hans" / "LC_MESSAGES"
PO = LC_MESSAGES / "django.po"
MO = LC_MESSAGES / "django.mo"

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
# Navigation in the header of every page, in Chinese.
ZH_NAV = ("麻将牌谱回放", ">浏览</a>", ">上传</a>", ">规则</a>", ">登录</a>", ">注册</a>")
# The home page's heading says what the site is (issue 27); the replays follow it.
HOME_ZH = "边打边复盘，学会中国地方麻将"
HOME_EN = "Learn regional Chinese mahjong by playing and replaying it"
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
    response = client.get(url, follow=True, **headers)
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
    assert h1(content) == HOME_ZH
    assert "<title>牌谱 – 麻将牌谱回放</title>" in content and ">牌谱</h2>" in content
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
                 "公开：对所有人列出", "不列出：有链接的人均可查看"):
        assert text in content, text
    assert "Upload hand histories" not in content


def test_it_shows_the_paste_label_in_each_language() -> None:
    from replays.library.views import UploadForm

    with translation.override("en"):
        assert str(UploadForm().fields["text"].label) == "…or paste a document"
    with translation.override("zh-hans"):
        assert str(UploadForm().fields["text"].label) == "……或粘贴一份文档"


# A tile named in Chinese: 一万 … 九条, 东南西北, 中发白 (never its code, 1m or 7z).
TILE_ZH = "(?:[一二三四五六七八九][万筒条]|[东南西北中发白])"

@pytest.mark.parametrize("variant", ["jiaxing", "putian", "sichuan"])
def test_it_shows_chinese_rules_pages_for_accept_language(db: None, client: Client,
                                                         variant: str) -> None:
    content = page(client, f"/rules/{variant}/", **ZH)
    for text in ZH_NAV:
        assert text in content
    headings = [text_of(h) for h in re.findall(r"<h2>(.*?)</h2>", content)]
    assert headings == ["这种玩法怎么打", "计分实例", "计分牌型", "规则选项", "全部规则（按编号）"]
    for text in ("规则引擎", "<th>规则</th>", "<th>中文</th>", "<th>分值</th>", "<th>含义</th>"):
        assert text in content, text
    assert "Scoring patterns" not in content


def test_it_keeps_chinese_from_the_language_cookie(db: None, client: Client) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hans"
    content = page(client, "/")
    assert '<html lang="zh-hans">' in content
    assert h1(content) == HOME_ZH
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
    assert h1(page(client, "/")) == HOME_EN


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
    assert h1(content) == HOME_EN
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
    for text in (">下载</a>", "牌墙：剩", "圈风：", "百搭", "翻牌指示", 'title="门风：',
                 '<span class="seat-status">庄家</span>', "快捷键："):
        assert text in content, text
    visible = text_of(content)
    for english in ("Next", "Previous", "Last", "View as", "Wall:", "Round wind", "Wildcard",
                    "Indicator", "dealer", "Download", "Settlement", "Keys:"):
        assert english not in visible, english
    assert re.fullmatch(rf"\w+ (?:摸牌|打出) {TILE_ZH}", event_line(content)), event_line(content)


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
    assert "无需付分。" in content
    assert event_line(content) == "牌墙已摸完，流局"
    assert f"第 {steps}/{steps} 步" in controls(content)
    for english in ("Settlement", "Nobody won", "Who pays", "No payments"):
        assert english not in content, english


@pytest.mark.parametrize(("variant", "seed", "expected"), [
    ("putian", 3, [rf"^\w+ 和 {TILE_ZH}，\w+ 点炮 · \d+ 分$"]),
    ("sichuan", 2, [rf"^\w+ 和 {TILE_ZH}，\w+ 点炮 · \d+ 番 · \d+ 分$",
                    rf"^\w+ 和 {TILE_ZH}，自摸 · \d+ 番 · \d+ 分$"]),
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
    lines = part(content, r'<section class="settlement-lines"[^>]*>(.*?)</section>')
    assert "<h2 id=\"settlement-lines-title\">逐项结算</h2>" in lines  # under the h1 (issue 32)
    assert "谁付给谁" in lines and "算式" in lines
    assert "Who pays" not in lines and "points" not in lines and "base" not in lines


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


# --- the puzzles -----------------------------------------------------------------------------

MONDAY = dt.date(2026, 11, 30)  # the puzzle calendar's "today" in these tests: an easy day


@pytest.fixture
def monday(db: None, monkeypatch: pytest.MonkeyPatch) -> dt.date:
    """Pin the puzzle calendar's today, so the daily puzzles are always the same ones."""
    monkeypatch.setattr(puzzles, "puzzle_day", lambda moment=None: MONDAY)
    return MONDAY


def daily_puzzle(variant: str) -> Puzzle:
    return puzzles.daily(variant, MONDAY).puzzle


def solve(client: Client, puzzle: Puzzle) -> str:
    """Answer ``puzzle`` right (every winning tile and the best wait), as htmx does."""
    response = client.post(f"/puzzles/{puzzle.public_id}/answer/", {
        "tile": [wait["tile"] for wait in puzzle.answer["waits"]],
        "bonus": puzzle.answer["best"][0]}, HTTP_HX_REQUEST="true", **ZH)
    assert response.status_code == 200
    return response.content.decode()


def unlinked(content: str) -> str:
    """A page with its rule-id links (issue 27) read as the ids they show."""
    return re.sub(r'<a class="rule-link" href="[^"]*">([^<]*)</a>', r"\1", content)


def test_it_shows_the_chinese_daily_puzzle(monday: dt.date, client: Client) -> None:
    content = unlinked(page(client, "/puzzles/daily/?variant=jiaxing", **ZH))
    for text in ZH_NAV:
        assert text in content
    assert ">每日一题</a>" in content
    assert h1(content) == "这手牌和什么？"
    assert "<title>这手牌和什么？ – 麻将牌谱回放</title>" in content
    for text in ("2026-11-30 的每日一题", "嘉兴麻将", "简单", 'aria-label="玩法"',
                 "下一张轮到你摸牌。选出能让这手牌和牌的<strong>每一张</strong>牌（JX-5.1, JX-5.3）",
                 "<dt>门风</dt>", "<dt>圈风</dt>", "<dt>百搭</dt>", 'aria-label="局面"',
                 'aria-label="手牌"', "<legend>和牌张</legend>", "……或直接输入",
                 "附加题：分值最高的听牌", "提交答案"):
        assert text in content, text
    visible = text_of(content)
    for english in ("What wins here", "Daily puzzle", "Seat wind", "Round wind", "Wildcard",
                    "Winning tiles", "You draw next", "or type them", "Bonus",
                    "Check my answer", "easy"):
        assert english not in visible, english


@pytest.mark.parametrize(("variant", "labels"), [
    ("putian", ("<dt>金</dt>", "<dt>已亮白板</dt>", "莆田麻将", "（PT-5.1, PT-2）")),
    ("sichuan", ("<dt>缺门</dt>", "四川血战到底", "（SC-2, SC-4.1）")),
])
def test_it_shows_each_variants_puzzle_labels_in_chinese(monday: dt.date, client: Client,
                                                         variant: str,
                                                         labels: tuple[str, ...]) -> None:
    content = unlinked(page(client, f"/puzzles/daily/?variant={variant}", **ZH))
    assert h1(content) == "这手牌和什么？"
    for text in labels:
        assert text in content, text
    for english in ("Golds", "Laid-out whites", "Void suit"):
        assert english not in content, english


def test_it_marks_a_puzzle_answer_in_chinese(monday: dt.date, client: Client) -> None:
    puzzle = daily_puzzle("jiaxing")
    url = f"/puzzles/{puzzle.public_id}/answer/"
    refused = client.post(url, {"tile": ["9x"]}, HTTP_HX_REQUEST="true", **ZH)
    assert refused.status_code == 400
    assert "9x 不是一张牌。" in refused.content.decode()
    empty = client.post(url, {}, HTTP_HX_REQUEST="true", **ZH)
    assert "请至少选一张和牌张：点击牌，或直接输入牌名，例如 三筒 六筒 中。" in empty.content.decode()
    unreadable = client.post(url, {"notation": "1m 3x"}, HTTP_HX_REQUEST="true", **ZH)
    assert unreadable.status_code == 400
    assert "无法把“3x”读成牌：第 2 个字符不是牌的写法（C-1）。" in unreadable.content.decode()

    content = solve(client, puzzle)
    assert "<h2 class=\"ok\">答对了！</h2>" in content
    for text in ("<dt>答对</dt>", "<dt>漏选</dt>", "<dt>错选</dt>", "<dt>最佳听牌</dt>",
                 "✓ 正确", "<dt>得分</dt>", "<caption>每张和牌张的分值和引擎的解读</caption>",
                 "<th>牌</th><th>剩余</th><th>分值</th><th>牌型</th><th>解读</th>",
                 'title="分值最高"', "我的进度</a>", "分享（不剧透）", "复制", "更多题目</a>"):
        assert text in content, text
    assert re.search(r"\d+ 台( · \d+ 番)? = <strong>\d+</strong> 分", content)
    progress = text_of(part(content, r'<p class="puzzle-progress">(.*?)</p>'))
    assert re.fullmatch(r"连续 1 天 · \d+ 分 · 我的进度", progress), progress  # no level: JX-11 is play
    # the share text (not translated yet) aside, no English label is left
    visible = text_of(re.sub(r"<textarea.*?</textarea>", "", content, flags=re.S))
    for english in ("Solved", "Not quite", "Right", "Missed", "Best wait", "Points",
                    "Every winning tile", "Left", "Reading", "Streak", "Your progress",
                    "Share", "Copy", "More puzzles"):
        assert english not in visible, english
    # answering again: the first answer counts, said in Chinese
    again = solve(client, puzzle)
    assert "你之前已答过这道题：以第一次的答案为准。" in again


def test_it_shows_the_chinese_puzzle_archive(monday: dt.date, client: Client) -> None:
    empty = page(client, "/puzzles/", **ZH)
    assert h1(empty) == "题目"
    assert "<title>题目 – 麻将牌谱回放</title>" in empty
    assert "还没有题目：今天的题目在有人打开时生成。" in empty
    for variant in ("jiaxing", "putian", "sichuan"):
        daily_puzzle(variant)
    content = page(client, "/puzzles/", **ZH)
    for text in ("一手只差一张就能和的牌：和哪些牌，各值多少？每种玩法每天一道新题。",
                 ">今日题目</a>", ">我的进度</a>", ">排行榜</a>", ">全部</a>",
                 "<th>日期</th><th>玩法</th><th>难度</th><th>答对率</th><th>我</th>",
                 "<td>简单</td>", "嘉兴麻将", "莆田麻将", "四川血战到底", "2026-11-30"):
        assert text in content, text
    visible = text_of(content)
    for english in ("Puzzles", "Today's puzzle", "Your progress", "Leaderboard", "Rule set",
                    "Difficulty", "Solve rate", "easy", "No puzzles yet"):
        assert english not in visible, english


def test_it_shows_the_chinese_progress_page(monday: dt.date, client: Client) -> None:
    content = page(client, "/puzzles/me/", **ZH)
    assert h1(content) == "我的进度"
    assert ('你的作答记录保存在此浏览器中。<a href="/accounts/login/?next=/puzzles/me/">登录</a>或'
            '<a href="/accounts/signup/">注册</a>即可保留记录：记录会转入你的账号。排行榜只计算登录后的作答。'
            in content)
    for text in ("<dt>连续天数</dt>", "（最长 0 天）", "<dt>正确率</dt>", "<dt>得分</dt>",
                 "<dt>级别（JX-11）</dt>", "<dt>距下一级</dt>", "<h2>最近作答</h2>",
                 "还没有作答。", "<h2>级别表（JX-11）</h2>",
                 "<th>级别</th><th>级别名称</th><th>段位名称</th><th>下一级升级分</th>"):
        assert text in content.replace("(", "（").replace(")", "）"), text
    solve(client, daily_puzzle("jiaxing"))
    content = page(client, "/puzzles/me/", **ZH)
    recent = text_of(part(content, r'<ul class="recent-answers">(.*?)</ul>'))
    assert re.fullmatch(r"嘉兴麻将 · 简单 — ✓ \d+ 分 · 2026-11-30", recent), recent
    visible = text_of(content)
    for english in ("Your progress", "Your answers", "Streak", "best", "Accuracy", "Points",
                    "Level", "To the next level", "Recent answers", "The ladder",
                    "Next level at"):
        assert english not in visible, english


def test_it_shows_the_chinese_leaderboard(monday: dt.date, client: Client, alice: Any) -> None:
    empty = page(client, "/puzzles/leaderboard/", **ZH)
    assert h1(empty) == "排行榜"
    assert "还没有人上榜：来做第一个吧。" in empty
    client.force_login(alice)
    solve(client, daily_puzzle("jiaxing"))
    # Ranked by rating from the minimum of rated answers (issue 18).
    from replays.models import PlayerRating
    from replays.puzzles.ratings import LEADERBOARD_MIN_ANSWERS
    PlayerRating.objects.filter(user=alice).update(rated_answers=LEADERBOARD_MIN_ANSWERS)
    content = page(client, "/puzzles/leaderboard/", **ZH)
    assert "<title>排行榜 – 麻将牌谱回放</title>" in content
    assert "<th>#</th><th>玩家</th><th>等级分</th><th>计分作答</th><th>正确率</th>" in content
    row = text_of(part(content, r'<tr class="is-current">(.*?)</tr>'))
    assert re.fullmatch(r"1 alice \d+ ± \d+ 1 100%", row), row
    visible = text_of(content)
    for english in ("Leaderboard", "Player", "Rating", "Rated answers", "Accuracy",
                    "Nobody yet"):
        assert english not in visible, english


# --- the staff dashboard ---------------------------------------------------------------------


def test_it_shows_the_chinese_dashboard_to_staff(jiaxing: Match, client: Client,
                                                 staff: Any) -> None:
    Match.objects.filter(pk=jiaxing.pk).update(annotation_status=Match.Status.FAILED,
                                               annotation_error="boom")
    WorkerHeartbeat.objects.create(hostname="celery@w1", last_seen=timezone.now(),
                                   processed=12, active=1)
    client.force_login(staff)
    content = page(client, "/dashboard/", **ZH)
    assert ">管理面板</a>" in content and ">每日一题</a>" in content
    assert h1(content) == "管理面板"
    assert "<title>管理面板 – 麻将牌谱回放</title>" in content
    for text in ('aria-label="时间范围"', ">7 天</a>", ">后台管理</a>", "更新于 ",
                 "每 10 秒自动刷新", 'aria-label="概览"', "今日上传", "待分析局数",
                 "消息队列", "最近一小时分析局数", "分析失败的牌谱", "等待最久的任务",
                 "在线工作进程", "今日题目作答", "14 天内没有作答",
                 "新用户", "<h2>上传</h2>", "<figcaption>每日上传数</figcaption>",
                 "<h2>牌谱分析</h2>", "1 份牌谱分析失败", "<th>牌谱</th><th>入队时间</th><th>错误</th>",
                 '<span class="visually-hidden">操作</span>', "1 局 · <a", ">回放</a>",
                 ">重试</button>", "<h3>工作进程</h3>",
                 "<th>工作进程</th><th>状态</th><th>上次上报</th>",
                 '<th class="num">任务数</th><th class="num">运行中</th>', ">在线</span>",
                 "<h2>题目</h2>", "<figcaption>各玩法每日答对率</figcaption>",
                 '<th class="num">作答次数（14 天）</th>', "<th>今日题目</th><th>明日题目</th>",
                 "尚未抽取"):
        assert text in content, text
    assert re.search(r"\d+\xa0分钟 前", content)  # the worker's age, from Django's timesince
    # tasks run in the web process here (no broker), else the workers are counted
    assert "没有工作进程：任务在进程内运行" in content or "已发现 1 个工作进程" in content
    visible = text_of(re.sub(r"<svg.*?</svg>", "", content, flags=re.S))
    for english in ("Dashboard", "Period", "Updated", "Summary", "Uploads", "Hands waiting",
                    "Broker queue", "Annotated", "Failed", "Oldest waiting", "Workers",
                    "Puzzle attempts", "New users", "Retry", "Queued", "Error", "Last seen",
                    "alive", "not rolled", "Tomorrow"):
        assert english not in visible, english


def test_it_retries_a_match_from_the_chinese_dashboard(jiaxing: Match, client: Client,
                                                       staff: Any) -> None:
    Match.objects.filter(pk=jiaxing.pk).update(annotation_status=Match.Status.FAILED,
                                               annotation_error="hand 1: LogError: boom")
    client.force_login(staff)
    response = client.post(f"/dashboard/retry/{jiaxing.pk}/", {"days": "7"},
                           HTTP_HX_REQUEST="true", **ZH)
    assert response.status_code == 200
    content = response.content.decode()
    assert content.lstrip().startswith('<div id="dashboard-numbers"')
    notice = text_of(part(content, r'<p class="dashboard-notice"[^>]*>(.*?)</p>'))
    assert re.fullmatch(r"已将“.+”重新加入队列，当前状态：(排队中|分析中|已分析)。", notice), notice
    assert "7 天内共" in content and "Requeued" not in content


# --- the catalogue ---------------------------------------------------------------------------


@dataclass
class Entry:
    msgid: str = ""
    context: str | None = None
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
        elif (keyword := re.match(
                r"(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(\".*\")$", line)):
            name, index, literal = keyword.groups()
            if name in ("msgctxt", "msgid") and (entry is None or entry.msgstr):
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
    if name == "msgctxt":
        entry.context = text if new else (entry.context or "") + text
    elif name == "msgid":
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
    # the translation is Chinese (characters or full-width punctuation), not the English
    # copied over (unless it is only placeholders)
    assert [e.msgid for e in messages
            if not re.search(r"[\u4e00-\u9fff\u3000-\u303f\uff00-\uffef]", e.msgstr[0])
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
        if e.context is not None:
            if compiled.pgettext(e.context, e.msgid) != e.msgstr[0]:
                stale.append(e.msgid)
        elif e.msgid_plural is None:
            if compiled.gettext(e.msgid) != e.msgstr[0]:
                stale.append(e.msgid)
        elif compiled.ngettext(e.msgid, e.msgid_plural, 2) != e.msgstr[0]:
            stale.append(e.msgid)
    assert stale == [], "django.mo differs from django.po: `make messages`"
