"""Issue 27 for the puzzles: every number a puzzle's answer uses is on its page (carried
fans, the tiles seen and the dead ones, the dealer streak's base by PT-7.1), the discard
answer says why, the rated stream varies its hands, every mode names its puzzle in the
address, themes with no puzzle are hidden, the streak after a solve counts it, and Chinese
pages read as Chinese (tile names typed and shown)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from games.core import settlement
from games.training import discard_puzzles, pay_puzzles
from games.training import puzzles as engine
from games.variants.positions import read_position
from replays.models import Puzzle
from replays.puzzles import services as puzzles
from replays.puzzles import training

from .test_puzzle_site import logged_in, page
from .test_puzzle_site import text_of as text_with_links


def text_of(markup: str) -> str:
    """What a reader sees, rule links read inline (their tags leave no space)."""
    return text_with_links(re.sub(r"</?a\b[^>]*>", "", markup))

HTMX = {"HX-Request": "true"}
ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
pytestmark = pytest.mark.filterwarnings("ignore:No directory at:UserWarning")


def shown_id(markup: str) -> str:
    found = re.search(r'data-puzzle="([^"]+)"', markup)
    assert found, "no puzzle on the page"
    return found.group(1)


def right(found: Puzzle) -> dict[str, Any]:
    return {"tile": [w["tile"] for w in found.answer["waits"]]}


def stored(kind: str, variant: str, position: dict[str, Any], answer: dict[str, Any],
           seed: str, **fields: Any) -> Puzzle:
    return Puzzle.objects.create(
        kind=kind, variant=variant, difficulty=fields.pop("difficulty", 2),
        position=position, answer=answer, engine_version="test", seed=seed,
        **{**puzzles.training_fields(position if kind != "pay" else position["position"],
                                     answer, 2, kind), **fields})


# -- variety: no two rated puzzles from one hand in a row ---------------------------------


def test_it_never_serves_two_rated_puzzles_from_one_hand_in_a_row_when_others_exist(
        make_match: Any, alice: Any) -> None:
    match = make_match(alice, variant="sichuan", seed=7)
    made = [puzzles.generated_puzzle("sichuan", 2, f"variety{n}") for n in range(3)]
    # Two puzzles of hand 1 of one match, and one of hand 2 (rated far from alice).
    for number, (found, hand) in enumerate(zip(made, (1, 1, 2), strict=True)):
        Puzzle.objects.filter(pk=found.pk).update(
            source=Puzzle.Source.REPLAY, match=match, hand_number=hand, event_number=number + 1,
            seat=0, rating=1500 if hand == 1 else 1800)
    first, same_hand, other_hand = (Puzzle.objects.get(pk=p.pk) for p in made)
    hers = logged_in(alice)
    hers.post(f"/puzzles/{first.public_id}/answer/", right(first), headers=HTMX)
    assert training.hand_key(first) == training.hand_key(same_hand) != training.hand_key(
        other_hand)
    for _ in range(4):  # the same-hand puzzle is the nearest, yet never served next
        served = Puzzle.objects.get(public_id=shown_id(page(hers.get(
            "/puzzles/train/rated/?variant=sichuan", follow=True))))
        assert served.pk != same_hand.pk
        assert training.hand_key(served) != training.hand_key(first)
    # With nothing else left, the same hand's puzzle is served rather than none.
    Puzzle.objects.exclude(pk__in=[first.pk, same_hand.pk]).delete()
    request = hers.get("/puzzles/train/").wsgi_request
    assert training._other_hands(Puzzle.objects.filter(pk=same_hand.pk), first) == []
    assert training.last_answered(request) == first


def test_it_knows_a_generated_pay_puzzles_hand_from_its_bot_match() -> None:
    data = pay_puzzles.generate("sichuan", 1, "hand-key")
    found = Puzzle(variant="sichuan", kind="pay", position=data)
    source = data["source"]
    assert training.hand_key(found) == (f"bots/sichuan/{source['match_seed']}/"
                                        f"{source['hand']}")
    assert training.hand_key(Puzzle(variant="jiaxing", position={"hand": "1m"})) is None


# -- every mode names its puzzle in the address ---------------------------------------------


def test_it_keeps_the_same_puzzle_on_reload_in_every_mode(db: None, alice: Any) -> None:
    hers = logged_in(alice)
    daily = hers.get("/puzzles/daily/?variant=jiaxing")
    assert daily.status_code == 302 and re.fullmatch(r"/puzzles/[\w-]+/", daily["Location"])
    markup = page(hers.get(daily["Location"]))
    assert "Daily puzzle of" in text_of(markup)
    assert daily["Location"] == f"/puzzles/{shown_id(markup)}/"

    rated = hers.get("/puzzles/train/rated/?variant=sichuan&kind=wins")
    assert rated.status_code == 302
    url = rated["Location"]
    assert re.fullmatch(r"/puzzles/train/rated/[\w-]+/\?variant=sichuan&kind=wins", url)
    first = shown_id(page(hers.get(url)))
    assert url.startswith(f"/puzzles/train/rated/{first}/")
    assert shown_id(page(hers.get(url))) == first  # a reload: the same puzzle
    assert "Rated puzzles" in text_of(page(hers.get(url)))

    start = hers.post("/puzzles/train/start/", {"mode": "streak", "variant": "sichuan"})
    run = hers.get(start["Location"])
    assert run.status_code == 302 and "?puzzle=" in run["Location"]
    current = run["Location"].split("?puzzle=")[1]
    assert shown_id(page(hers.get(run["Location"]))) == current
    assert shown_id(page(hers.get(run["Location"]))) == current
    answered = Puzzle.objects.get(public_id=current)
    moved = hers.post(start["Location"] + "answer/",
                      {**right(answered), "puzzle": current, "step": "0"})
    assert moved.status_code == 302 and "?puzzle=" in moved["Location"]
    assert moved["Location"].split("?puzzle=")[1] != current  # the next puzzle's id


# -- themes with no puzzle are hidden -------------------------------------------------------


def test_it_hides_the_themes_no_puzzle_shows(db: None, client: Client) -> None:
    easy = puzzles.generated_puzzle("sichuan", 1, "themes-hidden")
    markup = page(client.get("/puzzles/train/"))
    for key in easy.themes:
        assert f'href="/puzzles/train/rated/?theme={key}"' in markup
    text = text_of(markup)
    assert "抢金" not in text and "炸弹" not in text  # Putian's ways: no puzzle shows them
    assert " · 0<" not in markup.replace("</span>", "<")


# -- the streak after a solve -----------------------------------------------------------


def test_it_counts_the_streak_as_one_right_after_a_solve(db: None, alice: Any) -> None:
    hers = logged_in(alice)
    found = puzzles.generated_puzzle("sichuan", 1, "streak-one")
    markup = page(hers.post(f"/puzzles/{found.public_id}/answer/", right(found), headers=HTMX))
    assert "1 solved in a row" in text_of(markup)
    assert "Solved in a row: 1 🔥" in markup
    daily = hers.get("/puzzles/daily/?variant=jiaxing")
    today = Puzzle.objects.get(public_id=daily["Location"].split("/")[2])
    markup = page(hers.post(f"{daily['Location']}answer/", right(today), headers=HTMX))
    assert "Daily streak 1 day" in text_of(markup) and "Streak: 1 🔥" in markup
    assert "连续 1 天" in text_of(page(hers.get(daily["Location"], **ZH)))  # type: ignore[arg-type]
    assert "连续答对 2 题" in text_of(page(hers.get(found.get_absolute_url(), **ZH)))  # type: ignore[arg-type]


# -- carried fans ---------------------------------------------------------------------------


def test_it_shows_a_carried_fan_on_a_what_wins_puzzle(db: None, client: Client) -> None:
    position = engine.generate("jiaxing", 1, "carried")
    position = {**position, "bank": ["huangfan"]}
    answer, _ = puzzles.answer_of(position)
    plain, _ = puzzles.answer_of({k: v for k, v in position.items() if k != "bank"})
    # The carried 黄番 doubles the values the answer gives (JX-7.11) …
    assert [w["points"] for w in answer["waits"]] == [2 * w["points"] for w in plain["waits"]]
    found = stored("wins", "jiaxing", position, answer, "carried/test")
    # … so the position shows it, before and after the answer.
    text = text_of(page(client.get(found.get_absolute_url())))
    assert "Carried fans 黄番 (JX-7.11) 黄番 the next win counts 黄番: +1 fan, doubling its " \
        "score (JX-7.11)" in text
    chinese = text_of(page(client.get(found.get_absolute_url(), **ZH)))  # type: ignore[arg-type]
    assert "带入的番" in chinese and "黄番" in chinese


# -- discard puzzles: the tiles seen as pictures, the dead ones, why -------------------------


@pytest.fixture
def seen_discard(db: None) -> Puzzle:
    position, answer = discard_puzzles.generate("sichuan", 1, "seen")
    hand = read_position(position).hand
    codes = [str(t) for t in hand]
    kind = codes[0]  # a kind in the hand: the seen copies make it dead (C-1)
    count = 4 - codes.count(kind)
    other = next(f"{n}{s}" for s in "mps" for n in range(1, 10) if f"{n}{s}" not in codes)
    seen = [kind] * count + [other] * 2
    return stored("discard", "sichuan", {**position, "seen": "".join(seen)}, answer,
                  "seen/test")


def test_it_shows_the_tiles_seen_as_pictures_with_counts_and_the_dead_ones(
        seen_discard: Puzzle, client: Client) -> None:
    position = read_position(seen_discard.position)
    markup = page(client.get(seen_discard.get_absolute_url()))
    seen = re.search(r'<section class="puzzle-seen".*?</section>', markup, re.S)
    assert seen, "the tiles seen are shown"
    block = seen.group(0)
    assert f"{len(position.seen)} tiles seen on the table" in text_of(block)
    kinds = sorted({str(t) for t in position.seen})
    for kind in kinds:
        copies = sum(1 for t in position.seen if str(t) == kind)
        assert re.search(rf'data-tile="{kind}"[^×]*×{copies}<', block), kind
    dead = re.search(r'<p class="seen-dead">.*?</p>', block, re.S)
    assert dead, "the dead kind is named"
    dead_kind = str(position.seen[0])
    assert dead_kind in dead.group(0) and "Dead tiles" in text_of(dead.group(0))


def test_it_says_why_the_best_discard_is_best_from_the_deciding_numbers(
        seen_discard: Puzzle, client: Client) -> None:
    answer = seen_discard.answer
    picked = answer["runner_up"]
    markup = page(client.post(f"/puzzles/{seen_discard.public_id}/answer/", {"tile": picked},
                              headers=HTMX))
    why = re.search(r'<div class="discard-why">.*?</div>', markup, re.S)
    assert why
    text = text_of(why.group(0))
    rows = {c["tile"]: c for c in answer["choices"]}
    best, yours = rows[answer["best"]], rows[picked]
    assert f"{round(100 * best['win_probability'], 1)}%" in text
    assert f"{best['expected_points']:.2f} points expected" in text
    assert f"{yours['expected_points']:.2f} points expected" in text
    assert f"{best['expected_points'] - yours['expected_points']:.2f} expected points more" \
        in text
    assert "The best: discarding" in text and "Yours: discarding" in text
    assert "copies left to draw" in text or "copies left)" in text
    chinese = text_of(page(client.get(seen_discard.get_absolute_url(), **ZH)))  # type: ignore[arg-type]
    assert "为什么" in chinese and "最佳：打出" in chinese and "你的选择：打出" in chinese
    assert "绝张" in chinese


# -- the Putian dealer streak (PT-7.1) --------------------------------------------------------


def test_it_reads_the_dealer_streak_as_rules_md_pt_7_1_says() -> None:
    # PT-7.1: n = the hands this dealer dealt in a row before this one; base 1 when n = 0,
    # else n + 2 — the dealer's 2nd hand in a row has base 3, the 3rd 4.
    assert [settlement.putian_base(n) for n in range(4)] == [1, 3, 4, 5]


@pytest.fixture
def streak_pay(db: None) -> Puzzle:
    for number in range(40):
        data = pay_puzzles.generate("putian", 3, f"streak{number}")
        if read_position(data["position"]).dealer_streak:
            return puzzles.generated_puzzle("putian", 3, f"streak{number}", "pay")
    pytest.fail("no Putian pay puzzle with a dealer streak in 40 seeds")


def test_it_shows_the_dealer_streak_and_its_base_on_a_pay_puzzle_pt_7_1(
        streak_pay: Puzzle, client: Client) -> None:
    position = read_position(streak_pay.position["position"])
    n = position.dealer_streak
    base = settlement.putian_base(n)
    text = text_of(page(client.get(streak_pay.get_absolute_url())))
    assert (f"the dealer's hand no. {n + 1} in a row ({n} dealt before this one): base {base}"
            in text)
    assert "(PT-7.1: base 1 when n = 0, else n + 2" in text
    assert f"Base 底 {base} (PT-7.1)" in text
    # The answer's points are (that base + the winner's flower points) × 2 (PT-7.2).
    streak = [p for p in streak_pay.answer["score"]["patterns"] if p["id"] == "PT-7.1"]
    assert streak and streak[0]["points"] == base
    chinese = text_of(page(client.get(streak_pay.get_absolute_url(), **ZH)))  # type: ignore[arg-type]
    assert f"庄家连续坐庄第 {n + 1} 局（此前已连坐 {n} 局）：底分 {base}" in chinese


# -- Chinese ------------------------------------------------------------------------------


def test_it_reads_tiles_typed_by_their_chinese_names(db: None, client: Client) -> None:
    found = puzzles.generated_puzzle("sichuan", 1, "chinese-typed")
    names = {"m": "万", "p": "筒", "s": "条"}
    numbers = "一二三四五六七八九"
    typed = " ".join(numbers[int(w["tile"][0]) - 1] + names[w["tile"][1]]
                     for w in found.answer["waits"])
    markup = page(client.post(f"/puzzles/{found.public_id}/answer/", {"notation": typed},
                              headers=HTMX))
    assert "Solved!" in markup, typed


def test_it_words_the_notation_placeholder_and_errors_with_chinese_tile_names(
        db: None, client: Client) -> None:
    found = puzzles.generated_puzzle("jiaxing", 1, "chinese-placeholder")
    markup = page(client.get(found.get_absolute_url(), **ZH))  # type: ignore[arg-type]
    assert 'placeholder="如：三筒 六筒 中"' in markup and 'placeholder="36p 7z"' not in markup
    empty = client.post(f"/puzzles/{found.public_id}/answer/", {}, **ZH)  # type: ignore[arg-type]
    assert empty.status_code == 400
    assert "例如 三筒 六筒 中" in empty.content.decode()
    assert "36p" not in text_of(empty.content.decode())


def test_it_shows_every_pay_and_discard_answer_in_chinese(
        streak_pay: Puzzle, seen_discard: Puzzle, client: Client) -> None:
    from .test_site_i18n_complete import TILE_CODE, english_sentences, visible

    sentences = english_sentences()
    problems = []
    for found, answer in ((streak_pay, {"points": "1"}),
                          (seen_discard, {"tile": seen_discard.answer["runner_up"]})):
        for markup in (page(client.get(found.get_absolute_url(), **ZH)),  # type: ignore[arg-type]
                       page(client.post(f"/puzzles/{found.public_id}/answer/", answer,
                                        headers=HTMX, **ZH))):  # type: ignore[arg-type]
            text = visible(markup)
            english = [s for s in sentences if s in text]
            codes = sorted(set(TILE_CODE.findall(text)))
            if english or codes:
                problems.append((found.kind, english[:5], codes[:10]))
    assert not problems, problems


def test_it_shows_the_dealer_streak_on_a_what_wins_puzzle_pt_7_1(db: None,
                                                                 client: Client) -> None:
    position = {**engine.generate("putian", 1, "streak-wins"), "dealer_streak": 2}
    answer, _ = puzzles.answer_of(position)
    plain, _ = puzzles.answer_of({k: v for k, v in position.items() if k != "dealer_streak"})
    # The streak's base (PT-7.1: n = 2 before this hand, base 4) is in every wait's points.
    assert [w["points"] for w in answer["waits"]] != [w["points"] for w in plain["waits"]]
    found = stored("wins", "putian", position, answer, "streak-wins/test")
    text = text_of(page(client.get(found.get_absolute_url())))
    assert ("Dealer streak 连庄 (PT-7.1) the dealer's hand no. 3 in a row (2 dealt before this "
            "one): base 4") in text
