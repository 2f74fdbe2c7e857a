"""The titles the site writes itself (a played match's, a demo's) read in the reader's
language; an uploader's own title is shown as written."""

from __future__ import annotations

from django.utils import translation

from games.play.bot_match import TITLE, commitment
from replays.models import Match
from replays.titles import demo_title, shown_title


def test_it_says_a_played_matchs_title_in_chinese() -> None:
    digest = commitment("0123456789abcdef0123456789abcdef")
    title = TITLE.format(commitment=digest)
    with translation.override("zh-hans"):
        shown = shown_title(title)
    assert shown == f"与机器人对局；牌墙种子的 SHA-256 为 {digest}"
    with translation.override("en"):
        assert shown_title(title) == title


def test_it_says_a_demo_title_with_the_variants_chinese_name() -> None:
    with translation.override("zh-hans"):
        assert shown_title(demo_title("sichuan", 3)) == "演示：四川麻将机器人对局，第 3 场"
        assert str(Match(title=demo_title("putian", 1), variant="putian",
                         players=["A", "B", "C", "D"])) == "演示：莆田麻将机器人对局，第 1 场"
    with translation.override("en"):
        assert shown_title(demo_title("jiaxing", 2)) == "Demo: Jiaxing bots, game 2"


def test_it_shows_an_uploaders_title_as_written() -> None:
    with translation.override("zh-hans"):
        assert shown_title("Demo: Sichuan bots, game 3 (mine)") == (
            "Demo: Sichuan bots, game 3 (mine)")
        assert shown_title("周五晚上") == "周五晚上"
