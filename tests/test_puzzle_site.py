"""Daily "what wins here?" puzzles on the site: the daily roll, days and streaks, answering,
the anonymous-to-account merge, progress and the leaderboard, the archive, puzzles from replays.

alice answers, bob is another user, charlie is anonymous (the bare ``client``), staff pins
puzzles (fixtures in ``conftest.py``). "Today" is pinned by patching
``replays.puzzles.services.puzzle_day`` (freezegun is not installed); the engine functions take
their days and moments explicitly.
"""

from __future__ import annotations

import datetime as dt
import html
import re
from typing import Any

import pytest
from django.db import transaction
from django.test import Client

from games.core.tiles import TILES, Tile, format_tiles
from games.training import puzzles as engine
from games.variants.positions import read_position
from replays.matches import services
from replays.models import Attempt, DailyPuzzle, Match, Puzzle
from replays.puzzles import services as puzzles
from replays.puzzles import tasks

from .conftest import PASSWORD, bot_document, with_password

HTMX = {"HX-Request": "true"}
MONDAY = dt.date(2026, 11, 30)  # a Monday: an easy day
UTC = dt.UTC
VARIANTS = ("jiaxing", "putian", "sichuan")
TILE_NOTATION = re.compile(r"[1-9][mpsz]")

# WhiteNoise looks for collected files (STATIC_ROOT) that tests do not need.
pytestmark = pytest.mark.filterwarnings("ignore:No directory at:UserWarning")


# -- helpers ----------------------------------------------------------------------------


def text_of(markup: str) -> str:
    """What a reader sees: the markup without tags, entities decoded, spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def page(response: Any) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def puzzle_id(markup: str) -> str:
    found = re.search(r'data-puzzle="([^"]+)"', markup)
    assert found, "no puzzle on the page"
    return found.group(1)


def winning(puzzle: Puzzle) -> list[str]:
    return [w["tile"] for w in puzzle.answer["waits"]]


def losing(puzzle: Puzzle) -> list[str]:
    """Tiles that don't win, the best wait aside."""
    wins = set(winning(puzzle)) | set(puzzle.answer["best"])
    return [str(t) for t in TILES if str(t) not in wins]


def verdict_tiles(markup: str, kind: str) -> list[str]:
    """The tiles of the verdict's Right / Missed / Wrong line."""
    found = re.search(rf'<div class="verdict-{kind}">.*?<dd class="tiles">(.*?)</dd>', markup,
                      re.S)
    assert found, f"no {kind} line in the verdict"
    return re.findall(r'data-tile="([^"]+)"', found.group(1))


def reading_of(cell: str) -> str:
    """A reading drawn as sets of tile faces, back in notation (``333m 55z [777p]``): a set
    marked as a declared meld in brackets; a set shown as text as its text."""
    sets = re.findall(r'<span class="reading-set tiles( is-meld)?"[^>]*>(.*?)</span>(?=<span class="reading-set|$)',
                      cell.strip(), re.S)
    words = []
    for melded, body in sets:
        codes = re.findall(r'data-tile="([^"]+)"', body)
        word = format_tiles(Tile.parse(code) for code in codes) if codes else text_of(body)
        words.append(f"[{word}]" if melded else word)
    return " ".join(words)


def wait_rows(markup: str) -> dict[str, dict[str, Any]]:
    """The feedback's waits table: tile → status, pattern ids and reading."""
    table = re.search(r'<table class="waits-table">(.*?)</table>', markup, re.S)
    assert table, "no waits table"
    rows = {}
    for status, body in re.findall(r'<tr class="wait-(\w+)[^"]*">(.*?)</tr>', table.group(1),
                                   re.S):
        tile = re.search(r'data-tile="([^"]+)"', body)
        assert tile
        reading = re.search(r'<td class="reading">(.*?)</td>', body, re.S)
        rows[tile.group(1)] = {
            "status": status,
            "patterns": re.findall(r'<span class="pattern-id">(.*?)</span>', body),
            "reading": reading_of(reading.group(1)) if reading else None,
        }
    return rows


def share_of(markup: str) -> str:
    found = re.search(r'<textarea[^>]*id="share-text"[^>]*>(.*?)</textarea>', markup, re.S)
    assert found, "no share text"
    return html.unescape(found.group(1))


def answer_url(puzzle: Puzzle) -> str:
    return f"/puzzles/{puzzle.public_id}/answer/"


def right_answer(puzzle: Puzzle, bonus: bool = True) -> dict[str, Any]:
    return {"tile": winning(puzzle), "bonus": puzzle.answer["best"][0] if bonus else ""}


def wrong_answer(puzzle: Puzzle) -> dict[str, Any]:
    return {"tile": [*winning(puzzle)[:-1], losing(puzzle)[0]], "bonus": ""}


@pytest.fixture
def today(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Pin the puzzle calendar's today (MONDAY unless moved with ``today.move(day)``)."""

    class Today:
        day = MONDAY

        def move(self, day: dt.date) -> None:
            self.day = day

    state = Today()
    monkeypatch.setattr(puzzles, "puzzle_day", lambda moment=None: state.day)
    return state


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


# -- 1. the daily roll ------------------------------------------------------------------


def test_it_gives_everyone_the_same_daily_puzzle(db: None, today: Any, client: Client,
                                                 alice: Any) -> None:
    alices = logged_in(alice)
    for variant in VARIANTS:
        anonymous = puzzle_id(page(client.get(f"/puzzles/daily/?variant={variant}", follow=True)))
        hers = puzzle_id(page(alices.get(f"/puzzles/daily/?variant={variant}", follow=True)))
        assert anonymous == hers
        stored = DailyPuzzle.objects.get(day=MONDAY, variant=variant).puzzle
        assert stored.public_id == anonymous and stored.variant == variant
    assert DailyPuzzle.objects.count() == 3
    # The default variant is Jiaxing.
    assert puzzle_id(page(client.get("/puzzles/daily/", follow=True))) == DailyPuzzle.objects.get(
        day=MONDAY, variant="jiaxing").puzzle.public_id


def test_it_rolls_another_puzzle_on_another_day(db: None) -> None:
    for variant in VARIANTS:
        monday = puzzles.daily(variant, MONDAY).puzzle
        next_monday = puzzles.daily(variant, MONDAY + dt.timedelta(days=7)).puzzle
        assert monday.difficulty == next_monday.difficulty == 1
        assert monday.pk != next_monday.pk
        assert monday.position != next_monday.position


def test_it_makes_the_difficulty_follow_the_weekday(db: None) -> None:
    week = [MONDAY + dt.timedelta(days=n) for n in range(7)]
    assert [d.strftime("%a") for d in week] == ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    assert [puzzles.day_difficulty(d) for d in week] == [1, 1, 2, 2, 3, 3, 3]
    for day in (week[0], week[2], week[4]):
        for variant in ("jiaxing", "putian"):
            chosen = puzzles.daily(variant, day)
            assert chosen.puzzle.difficulty == puzzles.day_difficulty(day), (variant, day)
            assert chosen.puzzle.source == Puzzle.Source.GENERATED
            assert chosen.puzzle.seed == f"{puzzles.daily_seed(day)}/{puzzles.day_difficulty(day)}"


def test_it_stores_the_engines_own_answer(db: None) -> None:
    for variant in VARIANTS:
        for day in (MONDAY, MONDAY + dt.timedelta(days=2)):
            stored = puzzles.daily(variant, day).puzzle
            fresh = engine.solve(read_position(stored.position)).to_json()
            assert fresh == stored.answer, (variant, day)
            assert stored.answer["waits"] and stored.answer["best"]


def test_a_staff_pin_wins_over_the_roll(db: None, today: Any, client: Client,
                                        staff: Any) -> None:
    favourite = puzzles.generated_puzzle("sichuan", 3, "staff-favourite")
    # Pinned before anyone opens the day: the roll finds the pin.
    pinned = puzzles.pin_daily(favourite, MONDAY, staff)
    assert pinned.pinned_by == staff
    assert puzzles.daily("sichuan", MONDAY).puzzle == favourite
    assert puzzle_id(page(client.get("/puzzles/daily/?variant=sichuan", follow=True))) == \
        favourite.public_id
    # Pinned after the day was rolled: the pin replaces the roll.
    tuesday = MONDAY + dt.timedelta(days=1)
    rolled = puzzles.daily("sichuan", tuesday).puzzle
    assert rolled != favourite
    puzzles.pin_daily(favourite, tuesday, staff)
    assert puzzles.daily("sichuan", tuesday).puzzle == favourite
    assert DailyPuzzle.objects.filter(day=tuesday, variant="sichuan").count() == 1


def test_rolling_twice_makes_nothing_new(db: None, today: Any) -> None:
    first = puzzles.roll_days(2)
    assert {(d.day, d.variant) for d in first} == {
        (day, v) for day in (MONDAY, MONDAY + dt.timedelta(days=1)) for v in VARIANTS}
    counts = (Puzzle.objects.count(), DailyPuzzle.objects.count())
    assert counts == (6, 6)
    second = puzzles.roll_days(2)
    assert [d.pk for d in second] == [d.pk for d in first]
    assert [d.puzzle_id for d in second] == [d.puzzle_id for d in first]
    assert (Puzzle.objects.count(), DailyPuzzle.objects.count()) == counts
    # And a generated puzzle is found again by its seed, not made twice.
    again = puzzles.generated_puzzle("jiaxing", 1, puzzles.daily_seed(MONDAY))
    assert again == DailyPuzzle.objects.get(day=MONDAY, variant="jiaxing").puzzle


def test_it_404s_an_unknown_variant_or_puzzle(db: None, today: Any, client: Client) -> None:
    assert client.get("/puzzles/daily/?variant=riichi", follow=True).status_code == 404
    assert client.get("/puzzles/no-such-puzzle/").status_code == 404
    assert client.post("/puzzles/no-such-puzzle/answer/", {"tile": "1m"}).status_code == 404
    assert DailyPuzzle.objects.count() == 0


# -- 2. days, time zones and streaks ----------------------------------------------------


def test_the_puzzle_day_turns_at_midnight_in_shanghai(settings: Any) -> None:
    assert settings.PUZZLE_TIME_ZONE == "Asia/Shanghai"
    assert puzzles.puzzle_day(dt.datetime(2026, 11, 30, 15, 59, tzinfo=UTC)) == MONDAY
    assert puzzles.puzzle_day(dt.datetime(2026, 11, 30, 16, 1, tzinfo=UTC)) == dt.date(
        2026, 12, 1)


def test_the_day_boundary_follows_the_setting(settings: Any,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    settings.PUZZLE_TIME_ZONE = "America/New_York"
    assert puzzles.puzzle_day(dt.datetime(2026, 11, 30, 16, 1, tzinfo=UTC)) == MONDAY
    assert puzzles.puzzle_day(dt.datetime(2026, 12, 1, 4, 59, tzinfo=UTC)) == MONDAY
    assert puzzles.puzzle_day(dt.datetime(2026, 12, 1, 5, 1, tzinfo=UTC)) == dt.date(
        2026, 12, 1)
    # Without a moment: now.
    monkeypatch.setattr("django.utils.timezone.now",
                        lambda: dt.datetime(2026, 12, 1, 4, 0, tzinfo=UTC))
    assert puzzles.puzzle_day() == MONDAY
    settings.PUZZLE_TIME_ZONE = "Asia/Shanghai"
    assert puzzles.puzzle_day() == dt.date(2026, 12, 1)


def test_streaks_count_days_in_a_row() -> None:
    day = MONDAY

    def days(*offsets: int) -> set[dt.date]:
        return {day - dt.timedelta(days=n) for n in offsets}

    assert puzzles.streaks(set(), day) == (0, 0)
    assert puzzles.streaks(days(0), day) == (1, 1)
    assert puzzles.streaks(days(0, 1, 2), day) == (3, 3)
    # Today still open: yesterday's streak stands.
    assert puzzles.streaks(days(1, 2), day) == (2, 2)
    # A gap breaks it; the best streak is remembered.
    assert puzzles.streaks(days(0, 2, 3, 4), day) == (1, 3)
    assert puzzles.streaks(days(2, 3), day) == (0, 2)
    assert puzzles.streaks(days(0, 1, 5, 6, 7, 8), day) == (2, 4)


def test_streaks_count_dailies_answered_on_their_own_day(db: None, today: Any,
                                                         client: Client) -> None:
    def solve_daily(on: dt.date, of: dt.date) -> Attempt:
        today.move(on)
        chosen = puzzles.daily("jiaxing", of).puzzle
        response = client.post(answer_url(chosen), right_answer(chosen), headers=HTMX)
        assert response.status_code == 200
        return Attempt.objects.get(puzzle=chosen)

    first = solve_daily(MONDAY, MONDAY)
    second = solve_daily(MONDAY + dt.timedelta(days=1), MONDAY + dt.timedelta(days=1))
    assert (first.daily_day, second.daily_day) == (MONDAY, MONDAY + dt.timedelta(days=1))
    markup = page(client.get("/puzzles/me/"))
    assert "Daily streak 2 (best 2)" in text_of(markup)

    # Wednesday's daily answered on Thursday, from the archive: no streak day.
    late = solve_daily(MONDAY + dt.timedelta(days=3), MONDAY + dt.timedelta(days=2))
    assert late.daily_day is None and late.solved
    progress = puzzles.progress(Attempt.objects.all(), MONDAY + dt.timedelta(days=3))
    assert (progress.streak, progress.best_streak) == (0, 2)
    assert "Daily streak 0 (best 2)" in text_of(page(client.get("/puzzles/me/")))
    # The page of an old daily still names its day.
    assert "Daily puzzle of 2026-12-02" in text_of(page(client.get(
        late.puzzle.get_absolute_url())))


# -- 3. answering -------------------------------------------------------------------------


@pytest.fixture
def jiaxing(db: None, today: Any) -> Puzzle:
    """Today's (Monday's, easy) Jiaxing daily."""
    return puzzles.daily("jiaxing", MONDAY).puzzle


@pytest.fixture
def hard(db: None) -> Puzzle:
    """A hard Putian puzzle with several waits (not a daily)."""
    found = puzzles.generated_puzzle("putian", 3, "several-waits")
    assert len(winning(found)) >= 3
    return found


def test_it_marks_a_right_answer_by_checkboxes(client: Client, jiaxing: Puzzle) -> None:
    response = client.post(answer_url(jiaxing), right_answer(jiaxing))
    assert response.status_code in (302, 303)
    assert response["Location"] == f"/puzzles/{jiaxing.public_id}/#answer"
    attempt = Attempt.objects.get()
    assert attempt.solved and attempt.bonus_right is True
    assert attempt.points == 10 * jiaxing.difficulty + 5 * jiaxing.difficulty == 15
    assert attempt.daily_day == MONDAY and attempt.user is None and attempt.visitor
    markup = page(client.get(response["Location"]))
    assert "Solved!" in markup
    assert sorted(verdict_tiles(markup, "right")) == sorted(winning(jiaxing))
    assert verdict_tiles(markup, "missed") == verdict_tiles(markup, "wrong") == []
    assert "Best wait ✓ right" in text_of(markup)
    assert "Points 15" in text_of(markup)
    assert "Daily puzzle of 2026-11-30" in text_of(markup)


def test_it_marks_a_right_answer_by_notation(client: Client, hard: Puzzle) -> None:
    typed = " ".join(winning(hard))
    response = client.post(answer_url(hard), {"notation": typed}, headers=HTMX)
    markup = page(response)
    assert "Solved!" in markup
    attempt = Attempt.objects.get()
    assert attempt.solved and attempt.bonus_right is None and attempt.bonus == ""
    assert attempt.points == 10 * 3
    assert attempt.daily_day is None
    assert "Best wait not answered" in text_of(markup)


def test_it_marks_checkboxes_and_notation_together(client: Client, hard: Puzzle) -> None:
    tiles = winning(hard)
    wrong_bonus = next(t for t in losing(hard))
    response = client.post(answer_url(hard), {
        "tile": tiles[:1], "notation": ", ".join(tiles[1:]), "bonus": wrong_bonus},
        headers=HTMX)
    markup = page(response)
    assert "Solved!" in markup and "Best wait ✗ wrong" in text_of(markup)
    attempt = Attempt.objects.get()
    assert attempt.solved and attempt.bonus_right is False and attempt.points == 30
    assert sorted(attempt.picked) == sorted(tiles)


def test_it_reports_wrong_and_missed_tiles(client: Client, hard: Puzzle) -> None:
    tiles = winning(hard)
    extra = losing(hard)[0]
    response = client.post(answer_url(hard), {
        "tile": [tiles[0], extra], "bonus": hard.answer["best"][0]}, headers=HTMX)
    markup = page(response)
    assert "Not quite." in markup and "Solved!" not in markup
    assert verdict_tiles(markup, "right") == [tiles[0]]
    assert sorted(verdict_tiles(markup, "missed")) == sorted(tiles[1:])
    assert verdict_tiles(markup, "wrong") == [extra]
    attempt = Attempt.objects.get()
    assert not attempt.solved and attempt.bonus_right is True
    assert attempt.points == 5 * 3  # the bonus alone (engine.check)
    rows = wait_rows(markup)
    assert rows[tiles[0]]["status"] == "right"
    assert {rows[t]["status"] for t in tiles[1:]} == {"missed"}


def test_only_the_first_answer_counts(client: Client, hard: Puzzle) -> None:
    client.post(answer_url(hard), wrong_answer(hard), headers=HTMX)
    response = client.post(answer_url(hard), right_answer(hard), headers=HTMX)
    markup = page(response)
    assert "You answered this puzzle before: your first answer is the one that counts." in \
        html.unescape(markup)
    attempt = Attempt.objects.get()
    assert not attempt.solved and attempt.points == 0
    # A plain (no JavaScript) second post doesn't record anything either.
    response = client.post(answer_url(hard), right_answer(hard))
    assert response.status_code in (302, 303)
    assert Attempt.objects.get() == attempt and not Attempt.objects.get().solved
    assert "Not quite." in page(client.get(hard.get_absolute_url()))


def test_a_second_answer_shows_the_first_answers_verdict(client: Client, hard: Puzzle) -> None:
    client.post(answer_url(hard), wrong_answer(hard), headers=HTMX)
    markup = page(client.post(answer_url(hard), right_answer(hard), headers=HTMX))
    # The counted answer was wrong and scored 0: the page must not say "Solved!" nor share
    # a full row of green squares.
    assert "Not quite." in markup and "Solved!" not in markup
    assert "🟥" in share_of(markup)


def test_a_plain_second_answer_says_it_was_not_counted(client: Client, hard: Puzzle) -> None:
    client.post(answer_url(hard), wrong_answer(hard))
    response = client.post(answer_url(hard), right_answer(hard), follow=True)
    assert "You answered this puzzle before" in html.unescape(page(response))


@pytest.mark.parametrize(("data", "message"), [
    ({}, "Pick at least one winning tile: click tiles or type them, like 36p 7z."),
    ({"notation": "   "}, "Pick at least one winning tile"),
    ({"notation": "3x"}, "Can't read “3x” as tiles: character 2 is not tile notation (C-1)."),
    ({"notation": "5m 12<b>"}, "Can't read “12<b>” as tiles: character 3 is not tile"),
    ({"tile": "3x"}, "3x is not a tile."),
    ({"tile": ["1m", "<b>9q"]}, "<b>9q is not a tile."),
    ({"tile": "1m", "bonus": "zz"}, "The best wait must be one tile, like 5m."),
    ({"tile": "1m", "bonus": "1m2m"}, "The best wait must be one tile, like 5m."),
])
@pytest.mark.parametrize("htmx", [False, True])
def test_it_refuses_a_bad_answer_and_stores_nothing(client: Client, jiaxing: Puzzle,
                                                     data: dict[str, Any], message: str,
                                                     htmx: bool) -> None:
    response = client.post(answer_url(jiaxing), data, headers=HTMX if htmx else {})
    assert response.status_code == 400
    markup = response.content.decode()
    assert message in text_of(markup)
    assert "<b>9q" not in markup  # escaped
    assert ('<p class="error" role="alert">' in markup) and ('id="puzzle-form"' in markup)
    assert ("<html" in markup) is not htmx
    assert Attempt.objects.count() == 0


def test_it_only_answers_posts(client: Client, jiaxing: Puzzle) -> None:
    response = client.get(answer_url(jiaxing))
    assert response.status_code == 405
    assert Attempt.objects.count() == 0


def test_htmx_gets_the_answer_fragment_and_a_plain_post_a_redirect(client: Client,
                                                                    jiaxing: Puzzle,
                                                                    alice: Any) -> None:
    response = client.post(answer_url(jiaxing), right_answer(jiaxing), headers=HTMX)
    markup = page(response)
    assert "<html" not in markup and "<body" not in markup
    assert markup.lstrip().startswith('<section id="answer"')
    assert "Solved!" in markup and 'id="share-text"' in markup
    assert "HX-Request" in response.get("Vary", "")

    hers = logged_in(alice)
    response = hers.post(answer_url(jiaxing), right_answer(jiaxing))
    assert response.status_code in (302, 303)
    markup = page(hers.get(response["Location"]))
    assert "<html" in markup and "Solved!" in markup and 'id="puzzle-form"' not in markup
    assert Attempt.objects.filter(user=alice).count() == 1


@pytest.mark.parametrize(("variant", "prefix"), [("jiaxing", "JX-"), ("sichuan", "SC-")])
def test_the_feedback_shows_every_winning_tile_with_its_rules_and_reading(
        client: Client, db: None, today: Any, variant: str, prefix: str) -> None:
    chosen = puzzles.daily(variant, MONDAY).puzzle
    markup = page(client.post(answer_url(chosen), right_answer(chosen), headers=HTMX))
    rows = wait_rows(markup)
    assert sorted(rows) == sorted(winning(chosen))
    for wait in chosen.answer["waits"]:
        row = rows[wait["tile"]]
        expected = [p["id"] for p in wait["score"]["patterns"]]
        assert expected and row["patterns"] == expected
        assert all(p.startswith(prefix) for p in row["patterns"])
        assert row["reading"] == wait["score"]["reading"]
    best = re.findall(r'<tr class="wait-\w+ is-best">.*?data-tile="([^"]+)"', markup, re.S)
    assert sorted(best) == sorted(chosen.answer["best"])


def test_the_page_does_not_give_the_answer_away_before_answering(client: Client,
                                                                 jiaxing: Puzzle) -> None:
    markup = page(client.get("/puzzles/daily/?variant=jiaxing", follow=True))
    assert puzzle_id(markup) == jiaxing.public_id
    assert 'id="puzzle-form"' in markup
    for leak in ("waits-table", "Reading", 'class="reading"', "is-best", "wait-right",
                 "wait-missed", "share-text", "pattern-id", "Traps"):
        assert leak not in markup, leak
    # Every tile is offered, the winning ones among them.
    offered = re.findall(r'<input type="checkbox" name="tile" value="([^"]+)">', markup)
    assert set(winning(jiaxing)) <= set(offered) and len(offered) == 34
    # Still nothing after a refused answer.
    refused = client.post(answer_url(jiaxing), {"notation": "3x"}, headers=HTMX)
    assert refused.status_code == 400 and "waits-table" not in refused.content.decode()


# -- 4. anonymous answers move to the account at log-in ---------------------------------


def log_in(client: Client, username: str) -> None:
    response = client.post("/accounts/login/", {"username": username, "password": PASSWORD})
    assert response.status_code == 302, "the login failed"


def test_anonymous_answers_move_to_the_account_at_log_in(client: Client, jiaxing: Puzzle,
                                                         hard: Puzzle, alice: Any) -> None:
    with_password(alice)
    client.post(answer_url(jiaxing), right_answer(jiaxing), headers=HTMX)
    client.post(answer_url(hard), wrong_answer(hard), headers=HTMX)
    visitor = Attempt.objects.order_by().values_list("visitor", flat=True).distinct()
    assert len(visitor) == 1 and visitor[0]
    assert Attempt.objects.filter(user__isnull=True).count() == 2

    log_in(client, "alice")

    assert Attempt.objects.filter(user__isnull=True).count() == 0
    assert set(Attempt.objects.filter(user=alice).values_list("puzzle_id", flat=True)) == {
        jiaxing.pk, hard.pk}
    progress = text_of(page(client.get("/puzzles/me/")))
    assert "Accuracy 50% (1/2)" in progress and "Points 15" in progress
    # Her answers are hers now: the puzzle pages show the feedback.
    assert "Solved!" in page(client.get(jiaxing.get_absolute_url()))


def test_at_log_in_a_users_own_answer_stays(client: Client, jiaxing: Puzzle, hard: Puzzle,
                                            alice: Any) -> None:
    with_password(alice)
    logged_in(alice).post(answer_url(jiaxing), wrong_answer(jiaxing), headers=HTMX)
    own = Attempt.objects.get(user=alice)
    client.post(answer_url(jiaxing), right_answer(jiaxing), headers=HTMX)
    client.post(answer_url(hard), right_answer(hard), headers=HTMX)
    assert Attempt.objects.filter(user__isnull=True).count() == 2

    log_in(client, "alice")

    assert Attempt.objects.count() == 2
    assert Attempt.objects.filter(user__isnull=True).count() == 0
    mine = {a.puzzle_id: a for a in Attempt.objects.filter(user=alice)}
    assert mine[jiaxing.pk].pk == own.pk and not mine[jiaxing.pk].solved
    assert mine[hard.pk].solved


def test_merge_visitor_moves_answers_and_keeps_the_users_own(client: Client, jiaxing: Puzzle,
                                                             hard: Puzzle, alice: Any,
                                                             bob: Any) -> None:
    """The merge itself (what the log-in receiver calls), with the session's visitor id."""
    logged_in(alice).post(answer_url(jiaxing), wrong_answer(jiaxing), headers=HTMX)
    own = Attempt.objects.get(user=alice)
    client.post(answer_url(jiaxing), right_answer(jiaxing), headers=HTMX)
    client.post(answer_url(hard), right_answer(hard), headers=HTMX)
    visitor = client.session[puzzles.VISITOR_KEY]
    assert len(visitor) == 32
    assert Attempt.objects.filter(visitor=visitor, user__isnull=True).count() == 2

    assert puzzles.merge_visitor(alice, "") == 0
    assert puzzles.merge_visitor(bob, "0" * 32) == 0
    assert puzzles.merge_visitor(alice, visitor) == 1

    assert Attempt.objects.count() == 2 and not Attempt.objects.filter(user__isnull=True)
    mine = {a.puzzle_id: a for a in Attempt.objects.filter(user=alice)}
    assert mine[jiaxing.pk].pk == own.pk and not mine[jiaxing.pk].solved
    assert mine[hard.pk].solved
    assert puzzles.merge_visitor(alice, visitor) == 0  # nothing left


def test_log_in_without_anonymous_answers_moves_nothing(client: Client, jiaxing: Puzzle,
                                                         alice: Any, bob: Any) -> None:
    logged_in(bob).post(answer_url(jiaxing), right_answer(jiaxing), headers=HTMX)
    with_password(alice)
    log_in(client, "alice")
    assert Attempt.objects.get().user == bob
    assert "Log out alice" in page(client.get("/puzzles/me/"))


# -- 5. progress and the leaderboard ----------------------------------------------------


def test_the_progress_page_of_a_newcomer(db: None, today: Any, client: Client) -> None:
    markup = page(client.get("/puzzles/me/"))
    text = text_of(markup)
    assert "Daily streak 0 (best 0)" in text and "Accuracy 0% (0/0)" in text and "Points 0" in text
    assert "Level (JX-11) 1 · 待业 · 麻袋" in text
    assert "To the next level 100" in text
    ladder = re.search(r'<table class="rules-table ladder">.*?<tbody>(.*?)</tbody>', markup, re.S)
    assert ladder
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", ladder.group(1), re.S)
    assert len(rows) == 24 == len(engine.LADDER)
    assert text_of(rows[0]).startswith("1 待业 unemployed 麻袋 100")
    assert text_of(rows[-1]).startswith("24 财神") and text_of(rows[-1]).endswith("—")
    current = re.findall(r'<tr class="is-current" aria-current="true"><td>(\d+)</td>',
                         ladder.group(1))
    assert current == ["1"]
    assert "Log in" in text  # anonymous: answers are kept in this browser


def test_the_progress_page_adds_up_points_accuracy_and_streak(client: Client, jiaxing: Puzzle,
                                                              hard: Puzzle, alice: Any) -> None:
    hers = logged_in(alice)
    hers.post(answer_url(jiaxing), right_answer(jiaxing), headers=HTMX)  # 15, a daily
    hers.post(answer_url(hard), wrong_answer(hard), headers=HTMX)  # 0
    text = text_of(page(hers.get("/puzzles/me/")))
    assert "Daily streak 1 (best 1)" in text
    assert "Accuracy 50% (1/2)" in text
    # The ladder (JX-11) counts the points won in play only: puzzle points don't move it.
    assert "Points 15" in text and "To the next level 100" in text
    assert "✓ 15 points · 2026-11-30" in text and "✗ 0 points" in text


def points_for(user: Any, points: int, seed: str) -> None:
    Attempt.objects.create(puzzle=puzzles.generated_puzzle("jiaxing", 1, seed), user=user,
                           picked=["1m"], solved=True, points=points)


def test_the_points_table_ranks_users_by_points(db: None, alice: Any, bob: Any) -> None:
    """Points still add up per player (the progress page); the leaderboard page ranks by
    rating (tests/test_puzzle_modes.py)."""
    points_for(alice, 150, "a")
    points_for(bob, 200, "a")
    points_for(bob, 100, "b")
    Attempt.objects.create(puzzle=puzzles.generated_puzzle("jiaxing", 1, "b"), user=alice,
                           picked=["1m"], solved=False, points=0)
    Attempt.objects.create(puzzle=puzzles.generated_puzzle("jiaxing", 1, "a"),
                           visitor="f" * 32, picked=["1m"], solved=True, points=10_000)
    rows = puzzles.leaderboard()
    assert [(r["user"].username, r["points"], r["attempts"]) for r in rows] == [
        ("bob", 300, 2), ("alice", 150, 2)]


# -- 6. the archive and the share text --------------------------------------------------


def test_the_archive_lists_past_and_todays_dailies_with_solve_rates(
        db: None, today: Any, client: Client, alice: Any, bob: Any) -> None:
    yesterday, tomorrow = MONDAY - dt.timedelta(days=1), MONDAY + dt.timedelta(days=1)
    old = {v: puzzles.daily(v, yesterday).puzzle for v in VARIANTS}
    now = {v: puzzles.daily(v, MONDAY).puzzle for v in VARIANTS}
    future = {v: puzzles.daily(v, tomorrow).puzzle for v in VARIANTS}  # rolled ahead
    logged_in(alice).post(answer_url(now["jiaxing"]), right_answer(now["jiaxing"]),
                          headers=HTMX)
    logged_in(bob).post(answer_url(now["jiaxing"]), wrong_answer(now["jiaxing"]),
                        headers=HTMX)

    markup = page(client.get("/puzzles/"))
    for puzzle in [*old.values(), *now.values()]:
        assert puzzle.get_absolute_url() in markup
    for puzzle in future.values():
        assert puzzle.public_id not in markup, "tomorrow's puzzle is listed"
    assert "2026-12-01" not in markup
    row = re.search(rf'<tr>\s*<td><a href="{now["jiaxing"].get_absolute_url()}">(.*?)</tr>',
                    markup, re.S)
    assert row and "2026-11-30" in row.group(1) and "50% (1/2)" in text_of(row.group(1))
    # Newest first.
    assert markup.index(now["sichuan"].public_id) < markup.index(old["sichuan"].public_id)

    only = page(client.get("/puzzles/?variant=sichuan"))
    assert now["sichuan"].public_id in only and old["sichuan"].public_id in only
    assert now["jiaxing"].public_id not in only and old["putian"].public_id not in only
    # An unknown variant filter shows everything rather than failing.
    assert now["putian"].public_id in page(client.get("/puzzles/?variant=riichi"))
    # alice sees her own mark.
    assert "✓" in text_of(page(logged_in(alice).get("/puzzles/?variant=jiaxing")))


def test_the_archive_counts_a_puzzle_pinned_on_two_days_once(db: None, today: Any,
                                                             client: Client, alice: Any,
                                                             bob: Any) -> None:
    favourite = puzzles.generated_puzzle("jiaxing", 1, "twice")
    puzzles.pin_daily(favourite, MONDAY - dt.timedelta(days=7))
    puzzles.pin_daily(favourite, MONDAY)
    logged_in(alice).post(answer_url(favourite), right_answer(favourite), headers=HTMX)
    logged_in(bob).post(answer_url(favourite), wrong_answer(favourite), headers=HTMX)
    markup = page(client.get("/puzzles/"))
    assert markup.count(f'href="{favourite.get_absolute_url()}"') == 1, \
        "the puzzle is listed once"
    assert "50% (1/2)" in text_of(markup)


def test_the_share_text_names_the_day_and_no_tiles(client: Client, jiaxing: Puzzle) -> None:
    markup = page(client.post(answer_url(jiaxing), right_answer(jiaxing), headers=HTMX))
    share = share_of(markup)
    assert TILE_NOTATION.search(share) is None, share
    assert share.splitlines()[0] == "What wins here? Jiaxing 嘉兴 · 2026-11-30 (easy)"
    waits = len(winning(jiaxing))
    assert f"{waits}/{waits} winning tiles " + "🟩" * waits in share
    assert "Best wait: ✓" in share and "Streak: 1 🔥" in share


def test_the_share_text_of_a_wrong_answer_gives_nothing_away(client: Client,
                                                             hard: Puzzle) -> None:
    markup = page(client.post(answer_url(hard), wrong_answer(hard), headers=HTMX))
    share = share_of(markup)
    without_id = share.replace(hard.public_id, "")
    assert TILE_NOTATION.search(without_id) is None, share
    assert "Putian 莆田" in share and f"#{hard.public_id}" in share
    assert "🟥" in share and "⬜" in share and "Streak" not in share


# -- 7. puzzles from replays --------------------------------------------------------------


def test_harvest_credits_puzzles_to_the_replay_and_is_idempotent(make_match: Any,
                                                                 alice: Any) -> None:
    for variant, seed in (("jiaxing", 1000), ("putian", 1001), ("sichuan", 1002)):
        match = make_match(alice, variant=variant, hands=3, seed=seed)
        made = puzzles.harvest(match)
        assert 1 <= len(made) <= puzzles.SPOTS_PER_MATCH, variant
        for puzzle in made:
            assert puzzle.source == Puzzle.Source.REPLAY and puzzle.match == match
            assert puzzle.variant == variant
            assert 1 <= puzzle.hand_number <= 3 and puzzle.seat in range(4)
            event = match.hands.get(number=puzzle.hand_number).events[puzzle.event_number - 1]
            assert event["type"] == "discard" and event["actor"] == puzzle.seat, event
            assert len(winning(puzzle)) >= 2
            fresh = engine.solve(read_position(puzzle.position)).to_json()
            assert fresh == puzzle.answer
        again = puzzles.harvest(match)
        assert [p.pk for p in again] == [p.pk for p in made]
        assert Puzzle.objects.filter(match=match).count() == len(made)


def test_a_replay_puzzle_links_to_its_moment_for_those_who_can_see_the_match(
        make_match: Any, client: Client, alice: Any, today: Any) -> None:
    match = make_match(alice, variant="sichuan", hands=3, seed=1002, title="Blood battle")
    made = puzzles.harvest(match)
    chosen = made[0]
    step = f"/replays/{match.public_id}/?hand={chosen.hand_number}&amp;step={chosen.event_number}"

    before = page(client.get(chosen.get_absolute_url()))
    assert f"From a real game: Blood battle, hand {chosen.hand_number}." in text_of(before)
    assert step not in before, "the replay (which shows the outcome) is linked before answering"
    after = page(client.post(answer_url(chosen), right_answer(chosen), headers=HTMX))
    assert "Solved!" in after
    markup = page(client.get(chosen.get_absolute_url()))
    assert step in markup and "See the moment in the replay" in markup
    assert client.get(html.unescape(step)).status_code == 200

    # Made private later: its puzzles go with it (issue 16, tests/test_takedowns.py), for
    # everyone: a puzzle page is public, and shows the player's concealed hand.
    Match.objects.filter(pk=match.pk).update(visibility=Match.Visibility.PRIVATE)
    assert client.get(chosen.get_absolute_url()).status_code == 404
    hers = logged_in(alice)
    assert hers.get(chosen.get_absolute_url()).status_code == 404
    # And a private match's puzzles are never rolled as a daily or offered in the archive.
    for day in (MONDAY, MONDAY + dt.timedelta(days=1)):
        assert puzzles.daily("sichuan", day).puzzle.source == Puzzle.Source.GENERATED
    assert made[-1].public_id not in page(client.get("/puzzles/"))


def test_the_daily_prefers_a_puzzle_from_a_public_replay(make_match: Any, today: Any) -> None:
    match = make_match(None, variant="sichuan", hands=3, seed=1002)
    made = puzzles.harvest(match)
    by_difficulty = {p.difficulty for p in made}
    day = next(MONDAY + dt.timedelta(days=n) for n in range(7)
               if puzzles.day_difficulty(MONDAY + dt.timedelta(days=n)) in by_difficulty)
    chosen = puzzles.daily("sichuan", day).puzzle
    assert chosen.source == Puzzle.Source.REPLAY and chosen in made
    # Used once: the next day of that difficulty gets another (or a generated one).
    later = puzzles.daily("sichuan", day + dt.timedelta(days=7)).puzzle
    assert later != chosen


def test_only_a_public_matchs_annotation_harvests_puzzles(
        db: None, django_capture_on_commit_callbacks: Any) -> None:
    stored = {}
    for visibility, seed in (("private", 1011), ("public", 1008)):  # both have ready hands
        with django_capture_on_commit_callbacks(execute=True):
            with transaction.atomic():
                stored[visibility] = services.store_document(
                    bot_document(seed, variant="sichuan", hands=1), visibility=visibility)
        stored[visibility].refresh_from_db()
        assert stored[visibility].annotation_status == Match.Status.DONE
    assert not Puzzle.objects.filter(match=stored["private"]).exists()
    assert Puzzle.objects.filter(match=stored["public"]).exists()
    # Called directly, the task still skips it.
    tasks.harvest_puzzles.delay(stored["private"].pk)
    assert not Puzzle.objects.filter(match=stored["private"]).exists()


def _puzzle_with_trap(variant: str, has_trap: Any) -> Puzzle:
    """The first generated hard puzzle (seeds trap-0, trap-1, …) with a trap ``has_trap``
    accepts; the same one every run (generation is deterministic)."""
    for number in range(60):
        found = puzzles.generated_puzzle(variant, 3, f"trap-{number}")
        if any(has_trap(trap) for trap in found.answer.get("traps", [])):
            return found
    pytest.fail(f"no {variant} puzzle with such a trap in 60 seeds")


@pytest.mark.parametrize(("language", "requirement", "copies"), [
    ("en", "JX-5.3: a win needs 清一色, 混一色, 全老头 or 对对和",
     "C-1: all 4 copies of {tile} are in this hand already"),
    ("zh-hans", "JX-5.3：和牌须为清一色、混一色、全老头或对对和",
     "C-1：{tile} 的 4 张牌都已在这手牌里"),
])
def test_the_feedback_says_why_each_trap_does_not_win_in_the_readers_language(
        client: Client, db: None, language: str, requirement: str, copies: str) -> None:
    headers = {**HTMX, "Accept-Language": language}
    pattern = _puzzle_with_trap("jiaxing", lambda t: t.get("rule") == "JX-5.3")
    markup = text_of(page(client.post(answer_url(pattern), right_answer(pattern),
                                      headers=headers)))
    assert requirement in markup
    held = _puzzle_with_trap("jiaxing", lambda t: t.get("copies") == 4)
    trap = next(t for t in held.answer["traps"] if t.get("copies") == 4)
    assert trap["rule"] == "C-1"
    markup = text_of(page(client.post(answer_url(held), right_answer(held), headers=headers)))
    assert copies.format(tile=trap["tile"]) in markup


# -- issue 24: a coming daily puzzle waits for its day ----------------------------------


def test_tomorrows_daily_puzzle_is_neither_reachable_nor_served_before_its_day(
        db: None, today: Any, client: Client, alice: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The beat rolls tomorrow's puzzle ahead: until the puzzle calendar turns (midnight in
    PUZZLE_TIME_ZONE) its page and answer form are 404s and no training mode serves it;
    from its day on it is an ordinary daily puzzle."""
    from django.test import RequestFactory

    from replays.puzzles import training

    tomorrow = MONDAY + dt.timedelta(days=1)
    coming = puzzles.daily("putian", tomorrow).puzzle
    url = coming.get_absolute_url()
    assert client.get(url).status_code == 404
    assert client.post(answer_url(coming), right_answer(coming)).status_code == 404

    monkeypatch.setattr(training, "_generated", lambda *args, **kwargs: None)
    request = RequestFactory().get("/puzzles/train/rated/", follow=True)
    request.user = alice
    request.session = client.session
    with pytest.raises(training.TrainingError):  # the only putian puzzle stored waits
        training.next_puzzle(request, "putian", target=coming.rating)
    assert training.theme_counts("putian") == dict.fromkeys(training.BY_KEY, 0)

    today.move(tomorrow)
    assert client.get(url).status_code == 200
    assert training.next_puzzle(request, "putian", target=coming.rating) == coming
    assert logged_in(alice).post(answer_url(coming),
                                 right_answer(coming)).status_code == 302
