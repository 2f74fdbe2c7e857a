"""Training on the site (issue 18): ratings moved by ranked answers, the leaderboard by
rating, and the modes (rated stream, streak, timed, retry the misses).

alice answers signed in, bob is another user, charlie is anonymous (the bare ``client``).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.training import rating as glicko
from games.variants.positions import read_position
from replays.models import Attempt, PlayerRating, Puzzle, RatingChange, TrainingRun
from replays.puzzles import ratings
from replays.puzzles import services as puzzles

from .test_puzzle_site import logged_in, page, text_of

HTMX = {"HX-Request": "true"}
pytestmark = pytest.mark.filterwarnings("ignore:No directory at:UserWarning")


def right(found: Puzzle) -> dict[str, Any]:
    return {"tile": [w["tile"] for w in found.answer["waits"]]}


def wrong(found: Puzzle) -> dict[str, Any]:
    wins = {w["tile"] for w in found.answer["waits"]}
    return {"tile": [t for t in ("1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p")
                     if t not in wins][:1]}


@pytest.fixture
def easy(db: None) -> Puzzle:
    return puzzles.generated_puzzle("sichuan", 1, "modes-easy")


@pytest.fixture
def hard(db: None) -> Puzzle:
    return puzzles.generated_puzzle("jiaxing", 3, "modes-hard")


# -- ratings ----------------------------------------------------------------------------


def test_it_starts_new_puzzles_from_their_generators_difficulty(easy: Puzzle,
                                                               hard: Puzzle) -> None:
    for found in (easy, hard):
        start = glicko.Rating.for_puzzle(found.difficulty)
        assert (found.rating, found.rating_deviation) == (start.rating, start.deviation)


def test_it_rates_a_signed_in_first_answer_as_glicko_2_says(easy: Puzzle, alice: Any) -> None:
    start = glicko.Rating.for_puzzle(easy.difficulty)
    logged_in(alice).post(f"/puzzles/{easy.public_id}/answer/", right(easy))
    expected = glicko.answer(glicko.Rating(), start, solved=True)
    row = PlayerRating.objects.get(user=alice)
    assert row.rating == pytest.approx(expected.player.rating)
    assert row.deviation == pytest.approx(expected.player.deviation)
    assert row.rated_answers == 1
    easy.refresh_from_db()
    assert easy.rating == pytest.approx(expected.puzzle.rating)
    assert easy.rating < start.rating
    change = RatingChange.objects.get()
    assert (change.rating_before, change.puzzle_before) == (1500, start.rating)


def test_it_moves_a_rating_down_on_a_miss(hard: Puzzle, alice: Any) -> None:
    logged_in(alice).post(f"/puzzles/{hard.public_id}/answer/", wrong(hard))
    assert PlayerRating.objects.get(user=alice).rating < 1500
    hard.refresh_from_db()
    assert hard.rating > glicko.Rating.for_puzzle(hard.difficulty).rating


def test_it_does_not_rate_a_second_answer_an_anonymous_one_or_one_after_the_reveal(
        easy: Puzzle, hard: Puzzle, alice: Any, bob: Any, client: Client) -> None:
    hers = logged_in(alice)
    hers.post(f"/puzzles/{easy.public_id}/answer/", right(easy))
    hers.post(f"/puzzles/{easy.public_id}/answer/", wrong(easy))  # marked, not counted
    assert RatingChange.objects.count() == 1
    client.post(f"/puzzles/{hard.public_id}/answer/", right(hard))  # anonymous
    assert RatingChange.objects.count() == 1
    # bob's address was shown the answer (the anonymous client shares it): not rated.
    logged_in(bob).post(f"/puzzles/{hard.public_id}/answer/", right(hard))
    assert not Attempt.objects.get(user=bob).ranked
    assert not PlayerRating.objects.filter(user=bob).exists()


def test_the_progress_page_charts_the_rating_history(easy: Puzzle, hard: Puzzle,
                                                     alice: Any) -> None:
    hers = logged_in(alice)
    hers.post(f"/puzzles/{easy.public_id}/answer/", right(easy))
    hers.post(f"/puzzles/{hard.public_id}/answer/", wrong(hard))
    markup = page(hers.get("/puzzles/me/"))
    row = PlayerRating.objects.get(user=alice)
    assert f"Rating {round(row.rating)} ± {round(row.deviation)}" in text_of(markup)
    chart = re.search(r'<figure class="chart-card rating-chart">(<svg.*?</svg>)', markup, re.S)
    assert chart, "no rating chart"
    dots = re.findall(r'<circle class="chart-dot"[^>]*><title>([^<]*)</title>', chart.group(1))
    changes = list(RatingChange.objects.order_by("id"))
    assert dots == [f"after answer 0: {round(changes[0].rating_before)}",
                    f"after answer 1: {round(changes[0].rating_after)}",
                    f"after answer 2: {round(changes[1].rating_after)}"]
    ticks = re.findall(r'<text class="chart-tick"[^>]*>([^<]*)</text>', chart.group(1))
    values = [float(t.replace(",", "")) for t in ticks]
    low = min(min(c.rating_before, c.rating_after) for c in changes)
    assert values[0] <= low < values[0] + (values[1] - values[0]), "the axis starts near the lowest"
    assert values[0] > 0
    assert 'id="ladder"' in markup  # the ladder keeps its own section


def test_the_leaderboard_ranks_by_rating_from_the_minimum_of_rated_answers(
        db: None, alice: Any, bob: Any, staff: Any, client: Client) -> None:
    need = ratings.LEADERBOARD_MIN_ANSWERS
    PlayerRating.objects.create(user=alice, rating=1720.4, deviation=80, rated_answers=need)
    PlayerRating.objects.create(user=bob, rating=1810, deviation=90, rated_answers=need + 5)
    PlayerRating.objects.create(user=staff, rating=2400, deviation=300, rated_answers=need - 1)
    found = puzzles.generated_puzzle("jiaxing", 1, "board")
    Attempt.objects.create(puzzle=found, user=alice, picked=["1m"], solved=True)
    Attempt.objects.create(puzzle=found, user=bob, picked=["1m"], solved=False)
    markup = page(client.get("/puzzles/leaderboard/"))
    body = re.search(r"<tbody>(.*?)</tbody>", markup, re.S)
    assert body
    rows = [text_of(r) for r in re.findall(r"<tr[^>]*>(.*?)</tr>", body.group(1), re.S)]
    assert rows == ["1 bob 1810 ± 90 1 0%", "2 alice 1720 ± 80 1 100%"]
    assert staff.username not in text_of(markup).split()  # too few rated answers


# -- the hub and the rated stream ---------------------------------------------------------


def test_the_hub_offers_every_mode_and_the_themes_with_their_counts(easy: Puzzle,
                                                                   client: Client) -> None:
    markup = page(client.get("/puzzles/train/"))
    text = text_of(markup)
    for mode in ("Daily puzzle", "Rated puzzles", "Streak", "Timed",
                 "Retry the ones I missed"):
        assert mode in text
    assert "As many as you can in 3 minutes." in text
    for key in easy.themes:
        assert f'href="/puzzles/train/rated/?theme={key}"' in markup
    assert 'href="/puzzles/train/?variant=putian"' in markup
    assert client.get("/puzzles/train/?variant=nope").status_code == 404


def test_the_stream_serves_unanswered_puzzles_near_the_players_rating(
        db: None, alice: Any) -> None:
    near = puzzles.generated_puzzle("sichuan", 2, "near")
    far = puzzles.generated_puzzle("sichuan", 3, "far")
    Puzzle.objects.filter(pk=near.pk).update(rating=1560)
    Puzzle.objects.filter(pk=far.pk).update(rating=2300)
    hers = logged_in(alice)
    markup = page(hers.get("/puzzles/train/rated/?variant=sichuan", follow=True))
    assert f'data-puzzle="{near.public_id}"' in markup
    assert "Rated puzzles" in text_of(markup) and "puzzle rating 1560" in text_of(markup)
    assert '<input type="hidden" name="next" value="/puzzles/train/rated/?variant=sichuan">' \
        in markup
    response = hers.post(f"/puzzles/{near.public_id}/answer/",
                         {**right(near), "next": "/puzzles/train/rated/?variant=sichuan"},
                         headers=HTMX)
    assert 'href="/puzzles/train/rated/?variant=sichuan">Next puzzle</a>' in page(response)
    assert Attempt.objects.get(user=alice).mode == "rated"
    # Answered: the stream never serves it again (the far one, or a generated one, next).
    again = page(hers.get("/puzzles/train/rated/?variant=sichuan", follow=True))
    assert f'data-puzzle="{near.public_id}"' not in again


def test_the_stream_without_javascript_keeps_the_next_link(easy: Puzzle, alice: Any) -> None:
    hers = logged_in(alice)
    response = hers.post(f"/puzzles/{easy.public_id}/answer/",
                         {**right(easy), "next": "/puzzles/train/rated/"})
    assert response.status_code == 302
    assert response["Location"] == (f"/puzzles/{easy.public_id}/?next=%2Fpuzzles%2Ftrain"
                                    "%2Frated%2F#answer")
    assert 'href="/puzzles/train/rated/">Next puzzle</a>' in page(hers.get(response["Location"]))


@pytest.mark.parametrize("bad", ["//evil.example/puzzles/train/", "https://evil.example/",
                                 "/accounts/logout/", "/puzzles/train//evil.example"])
def test_the_next_link_only_leads_to_training_pages(easy: Puzzle, alice: Any,
                                                    bad: str) -> None:
    markup = page(logged_in(alice).post(f"/puzzles/{easy.public_id}/answer/",
                                        {**right(easy), "next": bad}, headers=HTMX))
    assert "Next puzzle" not in markup


def test_the_stream_practises_a_theme_generating_puzzles_that_show_it(
        db: None, client: Client) -> None:
    markup = page(client.get("/puzzles/train/rated/?variant=sichuan&theme=void", follow=True))
    served = Puzzle.objects.get(public_id=re.search(r'data-puzzle="([^"]+)"',
                                                    markup).group(1))  # type: ignore[union-attr]
    assert served.variant == "sichuan" and "void" in served.themes
    markup = page(client.get("/puzzles/train/rated/?variant=jiaxing&theme=pure_suit", follow=True))
    served = Puzzle.objects.get(public_id=re.search(r'data-puzzle="([^"]+)"',
                                                    markup).group(1))  # type: ignore[union-attr]
    assert served.variant == "jiaxing" and "pure_suit" in served.themes
    assert client.get("/puzzles/train/rated/?theme=nope", follow=True).status_code == 404


def test_a_theme_the_variant_never_shows_is_a_clear_404(db: None, client: Client) -> None:
    response = client.get("/puzzles/train/rated/?variant=jiaxing&theme=void", follow=True)
    assert response.status_code == 404
    assert "no void puzzle left for jiaxing" in response.content.decode()


# -- streak and timed runs --------------------------------------------------------------


def start(client: Client, mode: str, variant: str = "sichuan") -> str:
    response = client.post("/puzzles/train/start/", {"mode": mode, "variant": variant})
    assert response.status_code == 302
    return str(response["Location"])


def current(client: Client, url: str) -> Puzzle:
    found = re.search(r'data-puzzle="([^"]+)"', page(client.get(url, follow=True)))
    assert found
    return Puzzle.objects.get(public_id=found.group(1))


def bound(client: Client, url: str) -> dict[str, str]:
    """The run page's hidden fields naming what its answer form answers: the puzzle shown
    and the run's step."""
    return run_fields(page(client.get(url, follow=True)))


def run_fields(markup: str) -> dict[str, str]:
    fields = dict(re.findall(r'<input type="hidden" name="(puzzle|step)" value="([^"]*)">',
                             markup))
    assert set(fields) == {"puzzle", "step"}, "the run's form names its puzzle and step"
    return fields


def test_a_streak_goes_on_while_solving_and_ends_at_the_first_miss(db: None,
                                                                  alice: Any) -> None:
    hers = logged_in(alice)
    url = start(hers, "streak")
    first = current(hers, url)
    markup = page(hers.post(url + "answer/", right(first) | bound(hers, url), headers=HTMX))
    assert text_of(markup).startswith("Training · Streak · Sichuan 血战到底 Solved 1")
    assert "✓ Last puzzle solved" in text_of(markup)
    second = current(hers, url)
    assert second != first
    fields = run_fields(markup)
    markup = page(hers.post(url + "answer/", wrong(second) | fields, headers=HTMX))
    assert "Streak over: 1 puzzle solved." in text_of(markup)
    assert "✗ Last puzzle missed" in text_of(markup)
    run = TrainingRun.objects.get()
    assert (run.solved, run.missed, run.finished_at is not None) == (1, 1, True)
    assert [a.mode for a in Attempt.objects.order_by("id")] == ["streak", "streak"]
    assert RatingChange.objects.count() == 2  # signed in and first: both rated
    refused = hers.post(url + "answer/", right(second) | fields)
    assert refused.status_code == 409 and "This run is over" in refused.content.decode()


def test_a_timed_run_is_timed_by_the_server(db: None, alice: Any) -> None:
    hers = logged_in(alice)
    url = start(hers, "timed", "putian")
    run = TrainingRun.objects.get()
    assert run.ends_at is not None
    assert 179 <= (run.ends_at - run.started_at).total_seconds() <= 181
    shown = text_of(page(hers.get(url, follow=True)))
    assert "Time left 2:59" in shown or "Time left 3:00" in shown
    first = current(hers, url)
    page(hers.post(url + "answer/", right(first) | bound(hers, url), headers=HTMX))
    second = current(hers, url)
    fields = bound(hers, url)
    # The clock runs out on the server: the client can't buy more time.
    TrainingRun.objects.filter(pk=run.pk).update(ends_at=timezone.now() - dt.timedelta(seconds=1))
    refused = hers.post(url + "answer/", right(second) | fields, headers=HTMX)
    assert refused.status_code == 409
    assert not Attempt.objects.filter(puzzle=second).exists()
    markup = page(hers.get(url, follow=True))
    assert "Time! 1 puzzle solved." in text_of(markup)
    assert "Best 1" in text_of(markup)


def test_a_run_without_javascript_redirects_back_to_its_page(db: None, client: Client) -> None:
    url = start(client, "streak", "jiaxing")
    first = current(client, url)
    response = client.post(url + "answer/", right(first) | bound(client, url))
    assert response.status_code == 302
    assert response["Location"] == f"{url}?puzzle={current(client, url).public_id}"
    assert "Solved 1" in text_of(page(client.get(url, follow=True)))


def test_a_run_is_its_players_alone(db: None, alice: Any, bob: Any, client: Client) -> None:
    url = start(logged_in(alice), "streak")
    assert logged_in(bob).get(url).status_code == 404
    assert client.get(url).status_code == 404
    assert client.post(url + "answer/", {"notation": "1m"}).status_code == 404


def test_a_bad_pick_in_a_run_names_the_problem_and_keeps_the_puzzle(db: None,
                                                                   client: Client) -> None:
    url = start(client, "timed")
    first = current(client, url)
    response = client.post(url + "answer/", {"notation": "3x", **bound(client, url)},
                           headers=HTMX)
    assert response.status_code == 400
    assert "character 2 is not tile notation (C-1)" in response.content.decode()
    assert current(client, url) == first and not Attempt.objects.exists()
    assert client.post("/puzzles/train/start/", {"mode": "forever"}).status_code == 400


def test_a_runs_answer_counts_once_for_the_puzzle_it_was_given_for(db: None,
                                                                   alice: Any) -> None:
    """Issue 24: eight submits of one timed run's form answered eight puzzles (seven never
    shown) and moved the rating each time. The form names its puzzle and the run's step;
    any other answer is refused with 409, nothing counted."""
    hers = logged_in(alice)
    url = start(hers, "timed", "sichuan")
    first = current(hers, url)
    fields = bound(hers, url)
    assert fields == {"puzzle": first.public_id, "step": "0"}
    answers = [hers.post(url + "answer/", wrong(first) | fields, headers=HTMX)
               for _ in range(8)]
    assert [a.status_code for a in answers] == [200] + [409] * 7
    assert "already moved past" in text_of(answers[1].content.decode())
    run = TrainingRun.objects.get()
    assert (run.solved, run.missed) == (0, 1)
    assert Attempt.objects.filter(user=alice).count() == 1
    assert RatingChange.objects.count() == 1
    second = current(hers, url)
    assert second != first and answers[1].content.decode().count(second.public_id) >= 1
    # The right puzzle at a wrong step, or another puzzle at the right step: refused too.
    for forged in ({"puzzle": second.public_id, "step": "0"},
                   {"puzzle": first.public_id, "step": "1"}):
        assert hers.post(url + "answer/", right(second) | forged).status_code == 409
    # Without them the answer is a 400 naming the fields.
    missing = hers.post(url + "answer/", right(second), headers=HTMX)
    assert missing.status_code == 400 and "puzzle and step" in missing.content.decode()
    assert Attempt.objects.filter(user=alice).count() == 1
    assert hers.post(url + "answer/", right(second) | bound(hers, url)).status_code == 302
    run.refresh_from_db()
    assert (run.solved, run.missed) == (1, 1)


@pytest.mark.django_db(transaction=True)
def test_concurrent_submits_of_one_runs_form_count_once(alice: Any) -> None:
    """The same, at once: the run's row lock makes one answer count and refuses the rest."""
    import threading

    from django.db import connection

    hers = logged_in(alice)
    url = start(hers, "timed", "jiaxing")
    first = current(hers, url)
    fields = bound(hers, url)
    statuses: list[int] = []
    gate = threading.Barrier(4)

    def submit() -> None:
        try:
            gate.wait()
            statuses.append(hers.post(url + "answer/", right(first) | fields,
                                      headers=HTMX).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200, 409, 409, 409]
    assert Attempt.objects.filter(user=alice).count() == 1
    assert RatingChange.objects.count() == 1


# -- retrying the misses ----------------------------------------------------------------


def test_retrying_a_miss_is_practice_and_solving_it_clears_it(easy: Puzzle, hard: Puzzle,
                                                              alice: Any) -> None:
    hers = logged_in(alice)
    hers.post(f"/puzzles/{easy.public_id}/answer/", wrong(easy))
    hers.post(f"/puzzles/{hard.public_id}/answer/", wrong(hard))
    rated = RatingChange.objects.count()
    listing = page(hers.get("/puzzles/train/missed/"))
    assert f"/puzzles/train/missed/{easy.public_id}/" in listing
    assert f"/puzzles/train/missed/{hard.public_id}/" in listing
    url = f"/puzzles/train/missed/{easy.public_id}/"
    assert "Practice only" in text_of(page(hers.get(url, follow=True)))
    markup = page(hers.post(url, wrong(easy), headers=HTMX))
    assert "Not quite." in text_of(markup)
    markup = page(hers.post(url, right(easy), headers=HTMX))
    assert "Solved!" in text_of(markup)
    assert f"/puzzles/train/missed/{hard.public_id}/" in markup  # the next miss
    first = Attempt.objects.get(user=alice, puzzle=easy)
    assert not first.solved and first.retried_at is not None  # the first answer stands
    assert RatingChange.objects.count() == rated  # practice is never rated
    assert f"/puzzles/train/missed/{easy.public_id}/" not in page(
        hers.get("/puzzles/train/missed/"))
    # A puzzle alice never missed is no retry of hers.
    other = puzzles.generated_puzzle("putian", 1, "never-missed")
    assert hers.get(f"/puzzles/train/missed/{other.public_id}/").status_code == 404


# -- Chinese ----------------------------------------------------------------------------


def test_every_training_page_reads_as_chinese(easy: Puzzle, alice: Any) -> None:
    from .test_site_i18n_complete import TILE_CODE, ZH, english_sentences, visible

    hers = logged_in(alice)
    hers.post(f"/puzzles/{easy.public_id}/answer/", wrong(easy))
    streak = start(hers, "streak")
    hers.post(streak + "answer/", right(current(hers, streak)))
    timed = start(hers, "timed")
    sentences = english_sentences()
    urls = ["/puzzles/train/", "/puzzles/train/?variant=putian",
            "/puzzles/train/rated/?variant=jiaxing", "/puzzles/train/rated/?theme=void",
            streak, timed, "/puzzles/train/missed/", f"/puzzles/train/missed/{easy.public_id}/",
            "/puzzles/me/", "/puzzles/leaderboard/"]
    problems = []
    for url in urls:
        text = visible(page(hers.get(url, follow=True, **ZH)))  # type: ignore[arg-type]
        english = [s for s in sentences if s in text]
        codes = sorted(set(TILE_CODE.findall(text)))
        if english or codes:
            problems.append((url, english[:5], codes[:10]))
    assert not problems, problems
    assert "连胜" in visible(page(hers.get(streak, follow=True, **ZH)))  # type: ignore[arg-type]


# -- sources ----------------------------------------------------------------------------


def test_a_duplicate_position_is_one_puzzle(make_match: Any, alice: Any) -> None:
    """A replay spot whose position is already a puzzle (here: one stored from another
    source first) is that puzzle, not a second one."""
    match = make_match(alice, variant="sichuan", hands=3, seed=1002)
    spots = puzzles.harvest(match)
    positions = [(p.position, p.answer, p.difficulty) for p in spots]
    Puzzle.objects.filter(match=match).delete()
    earlier = [Puzzle.objects.create(variant="sichuan", difficulty=difficulty, seed=f"dup/{n}",
                                     position=position, answer=answer, engine_version="x",
                                     **puzzles.training_fields(position, answer, difficulty))
               for n, (position, answer, difficulty) in enumerate(positions)]
    again = puzzles.harvest(match)
    assert [p.pk for p in again] == [p.pk for p in earlier]
    assert not Puzzle.objects.filter(match=match).exists()
    for found in earlier:
        assert found.position_key and found.themes
        assert puzzles.same_position({**found.position, "seen": "1m"}) == found


def test_a_replay_puzzle_links_back_to_its_step_after_answering(make_match: Any,
                                                               alice: Any) -> None:
    match = make_match(alice, variant="sichuan", hands=3, seed=1002)
    found = puzzles.harvest(match)[0]
    hers = logged_in(alice)
    step = f"/replays/{match.public_id}/?hand={found.hand_number}&amp;step={found.event_number}"
    assert step not in page(hers.get(found.get_absolute_url()))
    markup = page(hers.post(f"/puzzles/{found.public_id}/answer/", right(found), headers=HTMX))
    assert step in markup  # the answer links to the game's step
    assert step in page(hers.get(found.get_absolute_url()))


def _generated_with(theme: str, variant: str, difficulty: int) -> Puzzle:
    """The first generated puzzle (seeds ways/0, ways/1, …) the engine tags ``theme``."""
    from games.training import puzzles as engine
    from games.training import themes

    for number in range(60):
        data = engine.generate(variant, difficulty, f"ways/{number}")
        if theme in themes.themes_of(data, engine.solve(read_position(data)).to_json()):
            return puzzles.generated_puzzle(variant, difficulty, f"ways/{number}")
    pytest.fail(f"no {variant} puzzle shows {theme} in 60 seeds")


@pytest.mark.parametrize(("theme", "variant", "difficulty", "way"), [
    ("kong_replacement", "jiaxing", 3, "You have just declared a kong"),
    ("kong_replacement", "sichuan", 2, "You have just declared a kong"),
    ("rob_gold", "putian", 2, "The dealer hasn't discarded yet"),
    ("bomb", "putian", 3, ""),
])
def test_the_ways_of_winning_are_themes_to_practise(db: None, client: Client, theme: str,
                                                    variant: str, difficulty: int,
                                                    way: str) -> None:
    """杠上开花 / 杠上花, 抢金 and bombs are browsable like every theme: the hub links them,
    the stream serves a puzzle that shows them, and the page says how the hand wins."""
    from games.training.themes import BY_KEY

    made = _generated_with(theme, variant, difficulty)
    assert theme in made.themes
    markup = page(client.get(f"/puzzles/train/?variant={variant}"))
    assert f'href="/puzzles/train/rated/?variant={variant}&amp;theme={theme}"' in markup \
        or f'href="/puzzles/train/rated/?theme={theme}' in markup
    assert BY_KEY[theme].chinese in text_of(markup)
    served = page(client.get(f"/puzzles/train/rated/?variant={variant}&theme={theme}", follow=True))
    found = Puzzle.objects.get(public_id=re.search(r'data-puzzle="([^"]+)"',
                                                   served).group(1))  # type: ignore[union-attr]
    assert theme in found.themes and found.variant == variant
    shown = text_of(page(client.get(made.get_absolute_url())))
    if way:
        assert way in shown
    chinese = text_of(page(client.get(made.get_absolute_url(),
                                      headers={"Accept-Language": "zh-hans"})))
    assert way == "" or way not in chinese
