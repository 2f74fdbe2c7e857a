"""The titles the site writes itself (a played match's, a demo's) read in the reader's
language; an uploader's own title is shown as written."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import translation

from games.play.bot_match import TITLE, commitment
from replays.models import Match
from replays.titles import demo_title, shown_title


def played(variant: str, hands: int, when: dt.datetime, seed: str) -> Match:
    return Match(title=TITLE.format(commitment=commitment(seed)), variant=variant,
                 hand_count=hands, players=["You", "A", "B", "C"], uploaded_at=when)


def test_it_titles_a_played_match_as_a_person_would(settings: Any) -> None:
    """Issue 27: the variant, "vs bots", the hands and the day, in the reader's language
    and time zone; the 64-character commitment is not part of it."""
    settings.TIME_ZONE = "UTC"
    when = dt.datetime(2026, 12, 3, 14, 5, tzinfo=dt.UTC)
    match = played("sichuan", 4, when, "0123456789abcdef0123456789abcdef")
    with translation.override("en"):
        assert str(match) == "Sichuan vs bots · 4 hands · 3 Dec 14:05"
        assert str(played("putian", 1, when, "x")) == "Putian vs bots · 1 hand · 3 Dec 14:05"
    with translation.override("zh-hans"):
        assert str(match) == "四川麻将 对机器人 · 4 局 · 12月3日 14:05"
    assert match.commitment == commitment("0123456789abcdef0123456789abcdef")
    assert match.commitment not in str(match)


def test_it_tells_apart_two_played_matches_of_the_same_day(settings: Any) -> None:
    morning = dt.datetime(2026, 12, 3, 9, 30, tzinfo=dt.UTC)
    titles = {str(played("sichuan", 4, morning + dt.timedelta(minutes=m), f"s{m}"))
              for m in (0, 7, 95)}
    assert len(titles) == 3


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
