"""'How much does it pay?' puzzles (docs/puzzles.md): a won hand with its table; the player
counts the variant's fields (Jiaxing tai and fan, Sichuan fan, Putian points) and, as a
bonus, what the winner collects; the answer is the engine's score and the table's itemised
settlement. Engine tests replay the bot match each puzzle came from and compare.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.bots.simulation import simulate
from games.training import pay_puzzles
from games.training.themes import THEMES, themes_of
from games.variants.positions import read_position
from games.variants.registry import VARIANTS
from replays.models import Attempt, Puzzle, RatingChange
from replays.puzzles import services as puzzles

from .test_puzzle_modes import run_fields
from .test_puzzle_site import HTMX, logged_in, page, text_of

pytestmark = pytest.mark.filterwarnings("ignore:No directory at:UserWarning")
NAMES = ("jiaxing", "putian", "sichuan")


def right(puzzle: Puzzle, bonus: bool = True) -> dict[str, Any]:
    data: dict[str, Any] = {name: puzzle.answer["values"][name] for name in puzzle.answer["asks"]}
    if bonus:
        data["collects"] = puzzle.answer["collects"]
    return data


def names_of(answer: dict[str, Any]) -> set[str]:
    return {p["name"] for p in answer["score"]["patterns"]}


def wrong(puzzle: Puzzle) -> dict[str, Any]:
    data = right(puzzle, bonus=False)
    first = puzzle.answer["asks"][0]
    data[first] = data[first] + 1
    return data


# -- the engine ------------------------------------------------------------------------


@pytest.mark.parametrize("variant", NAMES)
def test_it_stores_what_score_and_the_table_say_for_many_generated_puzzles(variant: str) -> None:
    for seed in range(12):
        for difficulty in (1, 2, 3):
            puzzle = pay_puzzles.generate(variant, difficulty, f"t{seed}")
            answer = pay_puzzles.solve(puzzle)
            position = read_position(puzzle["position"])
            score = position.variant.score(position)
            assert score.win
            assert answer["score"] == score.to_json()
            assert answer["values"] == {name: score.to_json()[name]
                                        for name in VARIANTS[variant].PAY_ASKS}
            spot = pay_puzzles.replayed(puzzle)  # the bot match played again
            assert spot.answer["lines"] == answer["lines"]
            assert spot.puzzle["position"] == puzzle["position"]
            collected = sum(line["amount"] for line in answer["lines"]
                            if line["payee"] == position.seat)
            paid = sum(line["amount"] for line in answer["lines"]
                       if line["payer"] == position.seat)
            assert answer["collects"] == collected - paid


@pytest.mark.parametrize("variant", NAMES)
def test_it_reads_every_win_with_the_lines_the_table_settled(variant: str) -> None:
    from games.records.match import Replayer

    for seed in range(1, 40):
        match = simulate(variant, 3, seed)
        wins = [w for result in Replayer(match).hands() for w in result.wins]
        if wins:
            break
    spots = list(pay_puzzles.win_spots(match))
    assert len(spots) == len(wins) > 0
    for spot, win in zip(spots, wins, strict=True):
        assert spot.seat == win.seat
        assert spot.answer["score"] == win.score.to_json()
        deltas = [0, 0, 0, 0]
        for line in spot.answer["lines"]:
            if line["payee"] is not None:
                deltas[line["payer"]] -= line["amount"]
                deltas[line["payee"]] += line["amount"]
        assert deltas == win.deltas  # the win's own lines are its settlement (C-6)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(NAMES), st.integers(1, 3), st.text(max_size=8))
def test_it_makes_the_same_puzzle_from_the_same_seed(variant: str, difficulty: int,
                                                     seed: str) -> None:
    first = pay_puzzles.generate(variant, difficulty, seed)
    assert first == pay_puzzles.generate(variant, difficulty, seed)
    answer = pay_puzzles.solve(first)
    assert pay_puzzles.difficulty_of(first, answer) in (1, 2, 3)


@pytest.mark.parametrize("variant", NAMES)
def test_it_finds_every_difficulty_in_every_variant(variant: str) -> None:
    for difficulty in (1, 2, 3):
        puzzle = pay_puzzles.generate(variant, difficulty, "levels")
        assert pay_puzzles.difficulty_of(puzzle, pay_puzzles.solve(puzzle)) == difficulty


def test_it_marks_each_asked_field_and_the_bonus() -> None:
    puzzle = pay_puzzles.generate("jiaxing", 2, "marks")
    answer = pay_puzzles.solve(puzzle)
    values = answer["values"]
    verdict = pay_puzzles.check(answer, values, answer["collects"], 2)
    assert verdict.solved and verdict.bonus and verdict.points == 30
    verdict = pay_puzzles.check(answer, {**values, "fan": values["fan"] + 1}, None, 2)
    assert not verdict.solved and verdict.wrong == ("fan",) and verdict.points == 0
    assert verdict.bonus is None


def test_it_tags_themes_the_engine_sees_in_the_won_hand() -> None:
    seen: set[str] = set()
    for variant in NAMES:
        for seed in range(10):
            puzzle = pay_puzzles.generate(variant, 3, f"themes{seed}")
            answer = pay_puzzles.solve(puzzle)
            tags = themes_of(puzzle["position"], answer)
            position = read_position(puzzle["position"])
            rules = {line["rule"] for line in answer["lines"]}
            assert ("contract" in tags) == bool(rules & {"JX-10.2", "JX-10.3"})
            assert ("flower_settlement" in tags) == ("PT-7.4" in rules)
            assert ("rob_gold" in tags) == position.robbing_gold
            assert ("kong_payments" in tags) == bool(puzzle["table"].get("kongs"))
            assert ("rob_kong" in tags) == position.robbing_kong
            assert ("kong_replacement" in tags) == position.after_kong
            assert ("bomb" in tags) == position.bomb
            assert ("dealer_streak" in tags) == (position.dealer_streak > 0)
            assert ("carried_fans" in tags) == bool(names_of(answer) & {"黄番", "老头黄",
                                                                        "包子", "百搭连庄"})
            names = {p["name"] for p in answer["score"]["patterns"]}
            assert ("pure_suit" in tags) == bool(names & {"清一色", "清对", "清七对",
                                                          "清龙七对", "清幺九"})
            seen.update(tags)
    assert {"contract", "flower_settlement", "kong_payments"} <= seen
    assert seen <= {t.key for t in THEMES}


# -- the site --------------------------------------------------------------------------


@pytest.fixture
def pay(db: None) -> dict[str, Puzzle]:
    return {variant: puzzles.generated_puzzle(variant, 2, "site", Puzzle.Kind.PAY)
            for variant in NAMES}


def test_it_stores_pay_puzzles_with_their_kind_and_engine_answer(pay: dict[str, Puzzle]) -> None:
    for variant, puzzle in pay.items():
        assert puzzle.kind == "pay" and puzzle.variant == variant
        assert puzzle.answer == pay_puzzles.solve(puzzle.position)
        assert puzzle.seed.startswith("pay/")
        assert puzzle.themes == themes_of(puzzle.position["position"], puzzle.answer)
    again = puzzles.generated_puzzle("sichuan", 2, "site", Puzzle.Kind.PAY)
    assert again.pk == pay["sichuan"].pk


def test_it_asks_what_the_variant_counts_and_shows_the_table(client: Client,
                                                            pay: dict[str, Puzzle]) -> None:
    for variant, puzzle in pay.items():
        markup = page(client.get(puzzle.get_absolute_url()))
        text = text_of(markup)
        assert "How much does it pay?" in text
        for name in VARIANTS[variant].PAY_ASKS:
            assert f'name="{name}"' in markup
        assert 'name="collects"' in markup
        assert VARIANTS[variant].PAY_RULE in text.replace(" ,", ",")  # each id a link
        for rule in VARIANTS[variant].PAY_RULE.split(", "):  # issue 27: to its own anchor
            assert f'href="/rules/{variant}/#{rule}">{rule}</a>' in markup
        assert "(you)" in text
        win_tile = puzzle.position["position"]["win_tile"]
        assert 'class="tiles win-tile"' in markup and f'data-tile="{win_tile}"' in markup
        assert "settlement-table" not in markup  # no answer before answering


def test_it_answers_with_the_tables_itemised_settlement(client: Client,
                                                       pay: dict[str, Puzzle]) -> None:
    for puzzle in pay.values():
        markup = page(client.post(f"/puzzles/{puzzle.public_id}/answer/", right(puzzle),
                                  headers=HTMX))
        assert "Solved!" in markup
        rows = re.findall(r'<td class="amount"[^>]*>(\d+)</td>', markup)
        assert [int(r) for r in rows] == [line["amount"] for line in puzzle.answer["lines"]]
        for line in puzzle.answer["lines"]:
            assert f">{line['rule']}</a>" in markup
        assert "their total in this hand after that line" in markup  # not the match's
        attempt = Attempt.objects.get(puzzle=puzzle)
        assert attempt.solved and attempt.points == 30
        assert attempt.picked == right(puzzle)


def test_it_marks_a_wrong_count_and_rates_signed_in_first_answers(alice: Any,
                                                                 pay: dict[str, Puzzle]) -> None:
    client = logged_in(alice)
    puzzle = pay["jiaxing"]
    markup = page(client.post(f"/puzzles/{puzzle.public_id}/answer/", wrong(puzzle), headers=HTMX))
    assert "Not quite." in markup and "you said" in markup
    attempt = Attempt.objects.get(puzzle=puzzle, user=alice)
    assert not attempt.solved and attempt.ranked
    change = RatingChange.objects.get(attempt=attempt)
    assert change.rating_after < change.rating_before  # a miss is a loss to the puzzle
    again = page(client.post(f"/puzzles/{puzzle.public_id}/answer/", right(puzzle), headers=HTMX))
    assert "your first answer is the one that counts" in again
    assert Attempt.objects.filter(puzzle=puzzle, user=alice).count() == 1


def test_it_works_without_javascript(client: Client, pay: dict[str, Puzzle]) -> None:
    puzzle = pay["putian"]
    response = client.post(f"/puzzles/{puzzle.public_id}/answer/", right(puzzle))
    assert response.status_code == 302 and response["Location"].endswith("#answer")
    markup = page(client.get(response["Location"]))
    assert "Solved!" in markup and "settlement-table" in markup
    response = client.post(f"/puzzles/{puzzle.public_id}/answer/", {"points": "-3"})
    assert response.status_code == 400  # answered already, but unreadable first
    assert "from 0 to" in text_of(response.content.decode())


def test_it_refuses_an_unreadable_count_with_a_clear_error(client: Client,
                                                          pay: dict[str, Puzzle]) -> None:
    puzzle = pay["sichuan"]
    response = client.post(f"/puzzles/{puzzle.public_id}/answer/", {"fan": "lots"}, headers=HTMX)
    assert response.status_code == 400
    assert "is not a whole number" in text_of(response.content.decode())
    response = client.post(f"/puzzles/{puzzle.public_id}/answer/", {}, headers=HTMX)
    assert response.status_code == 400 and "type a whole number" in response.content.decode()
    assert not Attempt.objects.filter(puzzle=puzzle).exists()


def test_it_serves_pay_puzzles_in_the_rated_stream_and_runs(alice: Any,
                                                           pay: dict[str, Puzzle]) -> None:
    client = logged_in(alice)
    markup = page(client.get("/puzzles/train/rated/?kind=pay&variant=putian", follow=True))
    assert "How much does it pay?" in markup
    found = Puzzle.objects.get(public_id=re.search(r'data-puzzle="([^"]+)"', markup).group(1))
    assert found.kind == "pay"
    response = client.post("/puzzles/train/start/", {"mode": "streak", "kind": "pay"})
    run_url = response["Location"]
    markup = page(client.get(run_url, follow=True))
    current = Puzzle.objects.get(public_id=re.search(r'data-puzzle="([^"]+)"', markup).group(1))
    assert current.kind == "pay"
    client.post(run_url + "answer/", right(current) | run_fields(markup))
    markup = page(client.get(run_url, follow=True))
    assert "Last puzzle solved" in markup and "settlement-table" in markup
    hub = page(client.get("/puzzles/train/?kind=pay"))
    assert "How much does it pay?" in hub


def test_it_lets_a_missed_pay_puzzle_be_retried(alice: Any, pay: dict[str, Puzzle]) -> None:
    client = logged_in(alice)
    puzzle = pay["putian"]
    client.post(f"/puzzles/{puzzle.public_id}/answer/", wrong(puzzle))
    url = f"/puzzles/train/missed/{puzzle.public_id}/"
    assert 'name="points"' in page(client.get(url))
    markup = page(client.post(url, right(puzzle), headers=HTMX))
    assert "Solved!" in markup
    assert Attempt.objects.get(puzzle=puzzle, user=alice).retried_at is not None


def test_it_shows_pay_pages_in_chinese_with_tile_names(client: Client,
                                                      pay: dict[str, Puzzle]) -> None:
    zh = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
    for puzzle in pay.values():
        markup = page(client.get(puzzle.get_absolute_url(), **zh))  # type: ignore[arg-type]
        assert "这手牌值多少？" in text_of(markup) and "How much" not in markup
        answered = page(client.post(f"/puzzles/{puzzle.public_id}/answer/", right(puzzle),
                                    headers=HTMX, **zh))  # type: ignore[arg-type]
        assert "How much" not in answered and "逐项结算" in text_of(answered)
