"""The play site (issue 14): starting, the table, the JSON interface, stale steps and
double submits, the seed commitment, permissions and anonymous matches at log-in."""

from __future__ import annotations

import hashlib
import json
import random
import re
import threading
from typing import Any

import pytest
from django.db import connection
from django.test import Client

from games.play.bot_match import verify
from games.records.log import loads
from replays.models import Match, PlayedMatch

pytestmark = pytest.mark.django_db


def start(client: Client, variant: str = "jiaxing", hands: int = 1, seat: str = "0",
          **rules: Any) -> str:
    """A new match that waits for the player in its first hand. A bot may end a hand
    before the player's first move (a Putian dealer robs the gold, PT-5.5, in about one deal of
    sixteen; a heavenly hand elsewhere), which is the rules, so such a match is set aside
    and another started."""
    for _ in range(40):
        response = client.post("/play/", {"variant": variant, "seat": seat, "hands": hands,
                                          "speed": 0, **rules})
        assert response.status_code == 302, response.content.decode()[:2000]
        pid = str(response["Location"]).strip("/").split("/")[-1]
        data = state(client, pid)
        if data["legal"] and data["hand_number"] == 1:
            return pid
    raise AssertionError(f"forty {variant} matches ended before the player's first move")


def state(client: Client, pid: str) -> dict[str, Any]:
    response = client.get(f"/play/{pid}/state.json")
    assert response.status_code == 200
    data: dict[str, Any] = response.json()
    return data


def act(client: Client, pid: str, step: Any, action: Any) -> Any:
    return client.post(f"/play/{pid}/act", json.dumps({"step": step, "action": action}),
                       content_type="application/json")


def play_out(client: Client, pid: str, rng: random.Random) -> dict[str, Any]:
    data = state(client, pid)
    while not data["over"]:
        response = act(client, pid, data["step"], rng.choice(data["legal"]))
        assert response.status_code == 200, response.content
        data = response.json()
    return data


def test_it_shows_the_start_form_with_the_variants_options(client: Client) -> None:
    page = client.get("/play/").content.decode()
    assert 'name="variant"' in page and 'name="hands"' in page and 'name="seat"' in page
    from games.variants.registry import VARIANTS
    for name, variant in VARIANTS.items():
        for option in variant.OPTIONS:
            assert f'name="{name}-{option}"' in page
    # a choice is worded, its value the engine's name
    assert "<option value=\"indicator\">the indicator&#x27;s own kind</option>" in page
    chinese = client.get("/play/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert '<option value="indicator_next" selected>翻牌的下一种（JX-4）</option>' in chinese


def test_a_match_the_bots_end_before_the_first_move_is_finished_and_stored(
        client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed ...0a deals a Putian hand whose dealer, a bot, robs the gold at once (PT-5.5):
    the match is over at its start, so it is finished like any other, its replay stored and
    linked for review (it once said the account's storage was full)."""
    from replays.play import services

    monkeypatch.setattr(services, "new_seed", lambda: f"{10:032x}")
    response = client.post("/play/", {"variant": "putian", "seat": "1", "hands": 1,
                                      "speed": 0})
    assert response.status_code == 302
    pid = str(response["Location"]).strip("/").split("/")[-1]
    row = PlayedMatch.objects.get(public_id=pid)
    assert row.over and row.replay is not None
    assert row.replay.visibility == Match.Visibility.UNLISTED and row.replay.uploader_seat == 1
    assert state(client, pid)["over"] and state(client, pid)["legal"] == []
    page = client.get(f"/play/{pid}/").content.decode()
    assert 'class="button primary review-link"' in page and "storage is full" not in page
    listing = client.get("/play/").content.decode()
    assert pid in listing.split("Your finished matches")[1]


def test_it_starts_a_match_and_serves_the_seats_view(client: Client) -> None:
    pid = start(client, "sichuan", hands=2, seat="2", **{"sichuan-cap_fan": "3"})
    data = state(client, pid)
    assert data["seat"] == 2 and data["variant"] == "sichuan" and data["hands"] == 2
    assert data["legal"] and "seed" not in data and not data["over"]
    row = PlayedMatch.objects.get(public_id=pid)
    assert row.state["log"]["rules"] == {"cap_fan": 3}
    page = client.get(f"/play/{pid}/").content.decode()
    assert data["commitment"] in page and row.state["seed"] not in page


def test_it_refuses_a_bad_rules_option_with_a_sentence(client: Client) -> None:
    response = client.post("/play/", {"variant": "jiaxing", "seat": "random", "hands": 1,
                                      "speed": 0, "jiaxing-base": "0"})
    assert response.status_code == 400
    assert "base" in response.content.decode()
    assert not PlayedMatch.objects.exists()


def test_it_refuses_an_illegal_action_with_its_rule(client: Client) -> None:
    pid = start(client, "jiaxing")
    data = state(client, pid)
    hand = set(data["you"]["hand"]) | {data["you"]["drawn"]}
    missing = next(t for t in ("1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m")
                   if t not in hand)
    if data["decision"]["kind"] != "turn":
        pytest.skip("the first decision is a claim")
    response = act(client, pid, data["step"], {"type": "discard", "tile": missing})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["rule"] == "C-1" and error["message"]
    assert state(client, pid)["step"] == data["step"]


def test_it_refuses_a_stale_step_with_409_and_applies_nothing(client: Client) -> None:
    pid = start(client, "sichuan")
    data = state(client, pid)
    action = data["legal"][0]
    assert act(client, pid, data["step"], action).status_code == 200
    after = state(client, pid)
    again = act(client, pid, data["step"], action)
    assert again.status_code == 409
    assert again.json()["error"]["message"]
    assert state(client, pid) == after


def test_it_applies_one_of_two_double_submits(client: Client) -> None:
    """The table's form submitted twice (a double click): the second answer is stale."""
    pid = start(client, "jiaxing")
    data = state(client, pid)
    value = json.dumps(data["legal"][0])
    first = client.post(f"/play/{pid}/act", {"step": data["step"], "action": value})
    second = client.post(f"/play/{pid}/act", {"step": data["step"], "action": value})
    assert first.status_code == 302
    assert second.status_code == 409
    assert "reload" in second.content.decode().lower() or "step" in second.content.decode()


@pytest.mark.django_db(transaction=True)
def test_it_serialises_concurrent_answers_to_one_step(alice: Any) -> None:
    owner = Client()
    owner.force_login(alice)
    pid = start(owner, "putian")
    data = state(owner, pid)
    statuses: list[int] = []
    barrier = threading.Barrier(2)

    def answer() -> None:
        client = Client()
        client.force_login(alice)
        barrier.wait()
        statuses.append(act(client, pid, data["step"], data["legal"][0]).status_code)
        connection.close()

    threads = [threading.Thread(target=answer) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200, 409]


def test_it_commits_to_the_seed_and_shows_it_at_the_end(client: Client) -> None:
    pid = start(client, "jiaxing")
    commitment = state(client, pid)["commitment"]
    assert commitment in client.get(f"/play/{pid}/").content.decode()
    end = play_out(client, pid, random.Random(1))
    seed = end["seed"]
    assert hashlib.sha256(seed.encode()).hexdigest() == commitment
    page = client.get(f"/play/{pid}/").content.decode()
    assert seed in page and "verify-deal" in page
    row = PlayedMatch.objects.get(public_id=pid)
    assert row.replay is not None
    verify(loads(bytes(row.replay.document).decode()), seed, commitment)


def test_it_stores_the_finished_match_as_a_private_replay_of_the_player(
        client: Client, alice: Any) -> None:
    client.force_login(alice)
    pid = start(client, "sichuan", hands=2, seat="2")
    end = play_out(client, pid, random.Random(2))
    row = PlayedMatch.objects.get(public_id=pid)
    replay = row.replay
    assert replay is not None and replay.owner == alice
    assert replay.uploader_seat == 2  # the values pass prices the player's seat
    assert replay.visibility == Match.Visibility.PRIVATE and replay.hand_count == 2
    assert replay.totals == end["result"]["totals"]
    assert end["replay"] == f"/replays/{replay.public_id}/"
    document = json.loads(bytes(replay.document))
    assert all(hand.get("wall") for hand in document["hands"])
    page = client.get(f"/play/{pid}/").content.decode()
    assert f"/replays/{replay.public_id}/?hand=1&amp;step=" in page
    assert f"seat={end['seat']}&amp;spoilers=0" in page
    review = client.get(f"/replays/{replay.public_id}/?seat={end['seat']}&spoilers=0")
    assert review.status_code == 200
    assert row.points_won == end["result"]["you"]["points_won"]


def test_the_ladder_counts_only_the_points_won_in_play(client: Client, alice: Any) -> None:
    """JX-11 on the progress page: the points won in finished matches decide the level;
    puzzle points (the rating's business, issue 18) and unfinished matches don't."""
    import re

    from replays.models import Attempt
    from replays.puzzles.services import generated_puzzle
    from tests.test_puzzle_site import text_of

    client.force_login(alice)
    PlayedMatch.objects.create(owner=alice, variant="jiaxing", state={}, hands=1,
                               commitment="0" * 64, over=True, points_won=120)
    PlayedMatch.objects.create(owner=alice, variant="sichuan", state={}, hands=1,
                               commitment="0" * 64, over=True, points_won=30)
    PlayedMatch.objects.create(owner=alice, variant="sichuan", state={}, hands=1,
                               commitment="0" * 64, over=False, points_won=500)
    Attempt.objects.create(puzzle=generated_puzzle("jiaxing", 1, "ladder"), user=alice,
                           picked=["1m"], solved=True, points=90)
    markup = client.get("/puzzles/me/").content.decode()
    text = text_of(markup)
    assert "Points 90" in text  # the puzzle points, shown apart
    assert "Points won in play 150" in text
    assert "Level (JX-11) 2 · 临时工 · 街头一段" in text  # 150: level 2 starts at 100
    assert "To the next level 50" in text  # level 3 at 200
    assert "Puzzles and play together" not in text
    current = re.findall(r'<tr class="is-current" aria-current="true"><td>(\d+)</td>', markup)
    assert current == ["2"]


def test_it_shows_other_peoples_matches_as_404(client: Client, alice: Any, bob: Any) -> None:
    owner = Client()
    owner.force_login(alice)
    pid = start(owner, "jiaxing")
    data = state(owner, pid)
    intruder = Client()
    intruder.force_login(bob)
    for who in (intruder, client):  # bob, and charlie (anonymous)
        assert who.get(f"/play/{pid}/").status_code == 404
        assert who.get(f"/play/{pid}/state.json").status_code == 404
        assert act(who, pid, data["step"], data["legal"][0]).status_code == 404
        assert who.post(f"/play/{pid}/hint", {"hint": "on"}).status_code == 404
        assert pid not in who.get("/play/").content.decode()
    assert state(owner, pid)["step"] == data["step"]


def test_it_gives_an_anonymous_match_to_the_account_at_log_in(client: Client,
                                                              alice: Any) -> None:
    from tests.conftest import PASSWORD, with_password

    pid = start(client, "jiaxing")
    finished = start(client, "sichuan")
    play_out(client, finished, random.Random(3))
    replay = PlayedMatch.objects.get(public_id=finished).replay
    assert replay is not None and replay.owner is None
    with_password(alice)
    response = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert PlayedMatch.objects.get(public_id=pid).owner == alice
    replay.refresh_from_db()
    assert replay.owner == alice and replay.visibility == Match.Visibility.PRIVATE
    assert client.get(f"/play/{pid}/").status_code == 200


def test_it_works_with_the_tables_forms_and_htmx(client: Client) -> None:
    pid = start(client, "putian")
    data = state(client, pid)
    response = client.post(f"/play/{pid}/act", {"step": data["step"],
                                                "action": json.dumps(data["legal"][0])},
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    fragment = response.content.decode()
    assert fragment.lstrip().startswith('<div id="play-table"') and "<html" not in fragment


def test_it_shows_the_hint_when_asked(client: Client, settings: Any) -> None:
    settings.PLAY_HINT_TABLE_SAMPLES = 4
    pid = start(client, "sichuan")
    page = client.get(f"/play/{pid}/").content.decode()
    assert "play-hint\"" not in page
    response = client.post(f"/play/{pid}/hint", {"hint": "on"})  # the former switch
    assert response.status_code == 302 and response["Location"] == f"/play/{pid}/hint"
    page = client.get(f"/play/{pid}/hint").content.decode()
    assert 'class="play-hint"' in page and "SC-2" in page


def test_it_reads_as_chinese_on_chinese_pages(client: Client, settings: Any) -> None:
    """The start page, the table mid-hand, after a hand and at the end, with the hint: no
    catalogue sentence left in English, no tile code instead of a name."""
    from tests.test_site_i18n_complete import TILE_CODE, ZH, english_sentences, visible

    sentences = english_sentences()
    settings.PLAY_HINT_SOLO_SAMPLES = 20
    settings.PLAY_HINT_TABLE_SAMPLES = 4
    rng = random.Random(5)
    problems: list[Any] = []

    def check(url: str) -> None:
        text = visible(client.get(url, **ZH).content.decode())  # type: ignore[arg-type]
        english = [s for s in sentences if s in text]
        codes = sorted(set(TILE_CODE.findall(text)))
        if english or codes:
            problems.append((url, english[:5], codes[:10]))

    check("/play/")
    for variant in ("jiaxing", "putian", "sichuan"):
        pid = start(client, variant, hands=2)
        data = state(client, pid)
        for _ in range(3):
            check(f"/play/{pid}/")
            check(f"/play/{pid}/hint")
            if data["over"]:  # a bot may end the hands early (a robbed gold, PT-5.5)
                break
            data = act(client, pid, data["step"], rng.choice(data["legal"])).json()
        while data["hand_number"] == 1 and not data["over"]:
            data = act(client, pid, data["step"], rng.choice(data["legal"])).json()
        check(f"/play/{pid}/")
        play_out(client, pid, rng)
        check(f"/play/{pid}/")
    check("/play/")
    assert not problems, problems


SECOND_PERSON_EVENTS = [
    ("discard", {"tile": "5p"}), ("draw", {"tile": "5p"}),
    ("draw", {"tile": "5p", "source": "back"}), ("chi", {"tile": "5p", "target": 0}),
    ("peng", {"tile": "5p", "target": 0}), ("gang", {"tile": "5p", "kind": "exposed",
                                                     "target": 0}),
    ("gang", {"tile": "5p", "kind": "added"}), ("gang", {"tile": "5p", "kind": "concealed"}),
    ("hu", {"tile": "5p"}), ("hu", {"tile": "5p", "target": 0}),
    ("hu", {"tile": "5p", "target": 0, "how": "robbing_kong"}),
    ("hu", {"tile": "5p", "how": "rob_gold"}), ("hu", {"tile": "5p", "how": "bomb"}),
    ("flower", {"tile": "5z"}), ("dingque", {"suit": "s"}), ("ready", {}),
    ("contract", {"choice": "give_up"}), ("contract", {"choice": "persist"}), ("leave", {}),
]


@pytest.mark.parametrize(("kind", "fields"), SECOND_PERSON_EVENTS)
def test_the_players_own_moves_read_in_the_second_person(kind: str, fields: dict[str, Any]
                                                         ) -> None:
    """"You discard 5 Dots", never "You discards": the player's own moves, and the moves
    made on the player's tile ("Ada pungs 5 Dots from you"), in English and Chinese."""
    from django.utils import translation

    from games.core.events import Event
    from games.core.tiles import Tile
    from replays.play.table import in_second_person

    names = ("Ada", "You", "Cy", "Di")
    values = {k: Tile.parse(v) if k == "tile" else v for k, v in fields.items()}
    event = Event(kind, 1, **values)
    with translation.override("en"):
        text = in_second_person(event, names, 1)
        assert text.startswith("You "), text
        if "target" in fields and kind != "gang":  # an exposed kong doesn't name its feeder
            assert "Ada" in text, text
        assert not text.split()[1].endswith("s"), text  # "You discard", not "You discards"
    with translation.override("zh-hans"):
        assert in_second_person(event, names, 1).startswith("你"), kind
    if "target" in fields:  # the same move by Ada on the player's tile
        theirs = Event(kind, 0, **{**values, "target": 1})
        with translation.override("en"):
            text = in_second_person(theirs, names, 1)
            assert text.startswith("Ada ") and ("from you" in text or "your " in text), text
        with translation.override("zh-hans"):
            assert "你" in in_second_person(theirs, names, 1)


def test_the_table_says_you_discard_not_you_discards(client: Client, alice: Any) -> None:
    for who in (client, Client()):
        if who is not client:
            who.force_login(alice)
        pid = start(who, "sichuan", seat="1")
        data = state(who, pid)
        while data["decision"]["kind"] != "turn" and not data["over"]:
            data = act(who, pid, data["step"], data["legal"][0]).json()
        discard = next(a for a in data["legal"] if a["type"] == "discard")
        act(who, pid, data["step"], discard)
        page = who.get(f"/play/{pid}/").content.decode()
        moves = re.search(r'<ol class="play-moves"[^>]*>(.*?)</ol>', page, re.S)
        assert moves, "no moves shown after the player's discard"
        from replays.tile_names import tile_name
        from tests.test_puzzle_site import text_of
        lines = [text_of(m) for m in re.findall(r"<li[^>]*>(.*?)</li>", moves.group(1), re.S)]
        assert lines[0] == f"You discard {tile_name(discard['tile'])}", lines
        assert not [line for line in lines if re.match(r"You \w+s\b", line)], lines
        assert "alice discards" not in page


def test_an_anonymous_players_finished_match_is_listed_in_her_replays_after_sign_up(
        client: Client) -> None:
    """Issue 14: the replay of a match finished before signing up becomes the account's,
    private, and is listed with her matches (/play/ and the replays she owns)."""
    finished = start(client, "sichuan")
    play_out(client, finished, random.Random(4))
    replay = PlayedMatch.objects.get(public_id=finished).replay
    assert replay is not None and replay.owner is None
    assert replay.visibility == Match.Visibility.UNLISTED
    response = client.post("/accounts/signup/", {"username": "dora", "password1": PASSWORD2,
                                                 "password2": PASSWORD2})
    assert response.status_code == 302, response.content.decode()[:500]
    replay.refresh_from_db()
    assert replay.owner is not None and replay.owner.username == "dora"
    assert replay.visibility == Match.Visibility.PRIVATE
    listed = client.get("/?mine=1").content.decode()
    assert replay.public_id in listed
    assert f"/replays/{replay.public_id}/" in client.get("/play/").content.decode()
    assert client.get(f"/replays/{replay.public_id}/").status_code == 200
    assert Client().get(f"/replays/{replay.public_id}/").status_code == 404


PASSWORD2 = "another-long-secret-77"


# -- issue 24 ------------------------------------------------------------------------------


def test_it_starts_a_match_from_the_documented_fields_without_a_speed(client: Client) -> None:
    """docs/play.md's fields (variant, seat, hands, rules options) start a match: the bot
    speed is optional and defaults to normal."""
    response = client.post("/play/", {"variant": "jiaxing", "seat": "random", "hands": 2,
                                      "base": "2"})
    assert response.status_code == 302, response.content.decode()[:2000]
    row = PlayedMatch.objects.get()
    assert row.speed == PlayedMatch.Speed.NORMAL
    assert row.state["log"]["rules"] == {"base": 2}


def test_it_refuses_deeply_nested_json_with_400(client: Client) -> None:
    pid = start(client, "sichuan")
    before = state(client, pid)
    body = '{"step": 1, "action": ' + "[" * 100_000 + "]" * 100_000 + "}"
    response = client.post(f"/play/{pid}/act", body, content_type="application/json")
    assert response.status_code == 400
    assert "nested" in response.json()["error"]["message"]
    assert state(client, pid) == before


@pytest.mark.parametrize("step", ["{step}", True, None, [1], 1.5])
def test_it_refuses_a_step_that_is_not_a_whole_number_naming_the_field(
        client: Client, step: Any) -> None:
    pid = start(client, "sichuan")
    data = state(client, pid)
    sent = str(data["step"]) if step == "{step}" else step
    response = act(client, pid, sent, data["legal"][0])
    assert response.status_code == 400, response.content
    message = response.json()["error"]["message"]
    assert '"step"' in message and "whole number" in message, message
    assert state(client, pid) == data


def test_the_tables_form_refuses_a_step_that_is_not_a_number(client: Client) -> None:
    pid = start(client, "jiaxing")
    data = state(client, pid)
    response = client.post(f"/play/{pid}/act", {"step": "one",
                                                "action": json.dumps(data["legal"][0])})
    assert response.status_code == 400
    assert "step" in response.content.decode() and state(client, pid) == data


def test_a_win_in_the_moves_is_told_in_words_not_as_hu(client: Client) -> None:
    """The seat's view gives a win the winner's hand to show; the move list read it as an
    event and, failing, printed the bare type "hu" (QA). A win now reads in words."""
    rng = random.Random(5)
    for _attempt in range(10):
        pid = start(client, "sichuan", seat="1")
        data = state(client, pid)
        while not data["over"]:
            page = client.get(f"/play/{pid}/").content.decode()
            moves = re.search(r'<ol class="play-moves"[^>]*>(.*?)</ol>', page, re.S)
            lines = [re.sub(r"<[^>]+>", "", m).strip()
                     for m in re.findall(r"<li[^>]*>(.*?)</li>", moves.group(1), re.S)
                     ] if moves else []
            assert "hu" not in lines, lines
            if any(" wins " in line or line.startswith("You win") for line in lines):
                return
            data = act(client, pid, data["step"], rng.choice(data["legal"])).json()
    raise AssertionError("no win shown in ten matches")


def test_it_reads_yes_or_no_options_from_the_form_and_json_sc_h() -> None:
    """The form sends "off" before each checkbox: an option on by default (SC-H5) can be
    turned off, and only values other than the defaults are recorded."""
    from django.http import QueryDict

    from replays.play.views import rules_of

    form = QueryDict("sichuan-heavenly_earthly=off&sichuan-golden_hook=off"
                     "&sichuan-golden_hook=on")
    assert rules_of("sichuan", form) == {"heavenly_earthly": False, "golden_hook": True}
    checked = QueryDict("sichuan-heavenly_earthly=off&sichuan-heavenly_earthly=on")
    assert rules_of("sichuan", checked) == {}
    assert rules_of("sichuan", {"sea_bottom": True, "concealed_middle": False}) == {
        "sea_bottom": True}
