"""The engine's refusals read as Chinese on Chinese pages (issue 15).

Every refusal the engine can raise keeps its template and parameters
(``games.core.messages.Message``): the templates are found in the engine's source by an AST
walk, so a new sentence without a Chinese translation fails here; the English message
is exactly the template formatted with its parameters (the command line's contract);
a refused upload and a refused move on the play table read as Chinese, tiles by name.
"""

from __future__ import annotations

import ast
import copy
import json
import pickle
import random
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core.messages import Message, plain, template_of
from games.core.tiles import TILES
from games.records.log import LogError, loads
from games.records.match import replay
from replays.matches.engine_refusals import CATALOGUE, catalogue_key, refusal, render

from .conftest import bot_document
from .test_site_i18n_complete import TILE_CODE, english_sentences, visible

ROOT = Path(__file__).resolve().parent.parent
ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
CJK = re.compile(r"[\u4e00-\u9fff]")
PLACEHOLDER = re.compile(r"(?<!\{)\{[^{}]*\}(?!\})")

# The engine's errors whose message a page may show, and where their message is.
ERRORS = {"RuleViolation": 1, "IllegalAction": 1, "LogError": 0, "ReadError": 0}
# Refusals no page shows, left in English on purpose: each file's count of them. The
# position JSON is read by the command line's score and waits only (ENGINE-CLI.md).
LEFT_IN_ENGLISH: dict[str, int] = {"positions.py": 3}


def engine_calls() -> list[tuple[str, ast.Call]]:
    """Every call in the engine's modules, with its file (the helper's own module left out)."""
    found = []
    for path in sorted((ROOT / "games").rglob("*.py")):
        if path.name == "messages.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                found.append((path.name, node))
    return found


def engine_templates() -> list[str]:
    """The templates of every ``Message(...)`` the engine builds (both sides of an
    ``a if … else b``); a template that isn't written out fails."""
    templates = []
    for name, call in engine_calls():
        if call.func.id != "Message":  # type: ignore[attr-defined]
            continue
        first = call.args[0]
        sides = [first.body, first.orelse] if isinstance(first, ast.IfExp) else [first]
        for side in sides:
            assert isinstance(side, ast.Constant) and isinstance(side.value, str), (
                f"{name}:{call.lineno}: a Message's template must be written out")
            templates.append(side.value)
    return sorted(set(templates))


def test_it_finds_the_engines_templates() -> None:
    templates = engine_templates()
    assert len(templates) > 200
    assert "{player} can't chow {tile}: only the next seat after the discarder may chow" \
        in templates


def test_it_has_a_chinese_translation_for_every_template_the_engine_can_raise() -> None:
    missing, untranslated, mismatched = [], [], []
    with translation.override("zh-hans"):
        for template in engine_templates():
            key = catalogue_key(template)
            if key not in CATALOGUE:
                missing.append(template)
                continue
            chinese = str(CATALOGUE[key])
            if not chinese or chinese == key and key != "null":
                untranslated.append(key)
            if sorted(PLACEHOLDER.findall(chinese)) != sorted(PLACEHOLDER.findall(key)):
                mismatched.append((key, chinese))
    assert not missing, f"not in replays/matches/engine_refusals.py: {missing}"
    assert not untranslated, f"no Chinese in django.po: {untranslated}"
    assert not mismatched, f"placeholders differ: {mismatched}"


def test_it_builds_every_refusal_a_page_shows_from_a_template() -> None:
    """No RuleViolation, IllegalAction, LogError or ReadError is raised with an f-string
    or a bare sentence: the message is a Message (or a variable holding one)."""
    plain_text = {}
    for name, call in engine_calls():
        position = ERRORS.get(call.func.id)  # type: ignore[attr-defined]
        if position is None or len(call.args) <= position:
            continue
        argument = call.args[position]
        if isinstance(argument, ast.JoinedStr | ast.Constant | ast.BinOp):
            plain_text[name] = plain_text.get(name, 0) + 1
    assert plain_text == LEFT_IN_ENGLISH


def _english(template: str, params: dict[str, Any]) -> str:
    """The template formatted with its parameters, nested messages rebuilt the same way."""
    def value(item: Any) -> Any:
        if isinstance(item, Message):
            return _english(item.template, item.params)
        return plain(item)
    return template.format(**{name: value(item) for name, item in params.items()})


def _mutated(raw: bytes, rng: random.Random) -> dict[str, Any]:
    """A bot-played document with one random event or hand field made wrong."""
    doc = json.loads(raw)
    hand = doc["hands"][rng.randrange(len(doc["hands"]))]
    events = hand["events"]
    index = rng.randrange(len(events))
    event = copy.deepcopy(events[index])
    choice = rng.randrange(7)
    if choice == 0 and "tile" in event:
        event["tile"] = str(rng.choice(TILES))
    elif choice == 1 and "actor" in event:
        event["actor"] = (event["actor"] + rng.randrange(1, 4)) % 4
    elif choice == 2:
        event["type"] = rng.choice(["chi", "peng", "gang", "hu", "discard", "draw", "end"])
    elif choice == 3:
        events.insert(index, {"type": "discard", "actor": rng.randrange(4),
                              "tile": str(rng.choice(TILES))})
        return doc
    elif choice == 4:
        del events[index]
        return doc
    elif choice == 5:
        hand["dealer"] = (hand["dealer"] + 1) % 4
        return doc
    else:
        event["deltas"] = [1, -1, 0, 0]
        event.setdefault("type", "end")
    events[index] = event
    return doc


_DOCUMENTS = [bot_document(seed, variant=variant, hands=2)
              for variant, seed in (("jiaxing", 12), ("putian", 3), ("sichuan", 2),
                                    ("jiaxing", 5), ("sichuan", 7))]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(_DOCUMENTS) - 1), st.integers(0, 2**32))
def test_it_formats_every_refusal_from_its_template_and_parameters(which: int,
                                                                   seed: int) -> None:
    doc = _mutated(_DOCUMENTS[which], random.Random(seed))
    try:
        replay(loads(json.dumps(doc)))
    except LogError as error:
        assert isinstance(error.message, Message), f"not from a template: {error}"
        assert error.message == _english(error.template, error.params)
        assert template_of(error.message) == (error.template, error.params)
        again = pickle.loads(pickle.dumps(error))
        assert (again.message, again.template, again.params) == (
            error.message, error.template, error.params)
        with translation.override("zh-hans"):
            chinese = render(error.message)
        assert CJK.search(chinese) and chinese != error.message, chinese
        assert catalogue_key(error.template) in CATALOGUE


def test_it_renders_tiles_variants_and_nested_reasons_in_chinese() -> None:
    tile = TILES[3]  # 4m
    why = Message("it is {player}'s turn to discard", player="Ann")
    message = Message("{player} can't {what} now: {why}", player="Dana",
                      what=Message("chow {tile}", tile=tile), why=why)
    with translation.override("zh-hans"):
        assert render(message) == "Dana现在不能吃四万：轮到Ann打牌"
        assert refusal("C-2", message) == "C-2: Dana现在不能吃四万：轮到Ann打牌"
        assert render(Message("{variant} has no chow", variant="Sichuan")) == "四川麻将不能吃"
    assert str(message) == "Dana can't chow 4m now: it is Ann's turn to discard"


# -- pages -------------------------------------------------------------------------


def _bad(variant: str, seed: int, change: Any) -> bytes:
    doc = json.loads(bot_document(seed, variant=variant))
    change(doc)
    return json.dumps(doc).encode()


def _first(doc: dict[str, Any], kind: str) -> tuple[list[dict[str, Any]], int]:
    events = doc["hands"][0]["events"]
    return events, next(i for i, e in enumerate(events) if e["type"] == kind)


def _discard_a_tile_not_held(doc: dict[str, Any]) -> None:
    events, index = _first(doc, "discard")
    held = set(doc["hands"][0]["deal"][events[index]["actor"]])
    events[index]["tile"] = next(str(t) for t in TILES[:27] if str(t) not in held)


def _draw_out_of_turn(doc: dict[str, Any]) -> None:
    events, index = _first(doc, "draw")
    events[index]["actor"] = (events[index]["actor"] + 1) % 4


def _chow_by_the_wrong_seat(doc: dict[str, Any]) -> None:
    events, index = _first(doc, "discard")
    tile = events[index]["tile"]
    actor = (events[index]["actor"] + 2) % 4
    events.insert(index + 1, {"type": "chi", "actor": actor, "target": events[index]["actor"],
                              "tile": tile, "tiles": ["1m", "2m"]})


def _wrong_deltas(doc: dict[str, Any]) -> None:
    end = doc["hands"][0]["events"][-1]
    end["deltas"] = [d + (1 if i == 0 else -1 if i == 1 else 0)
                     for i, d in enumerate(end.get("deltas") or [0, 0, 0, 0])]


def _dealt_too_few(doc: dict[str, Any]) -> None:
    doc["hands"][0]["deal"][1] = doc["hands"][0]["deal"][1][:-1]


BAD_UPLOADS = [
    ("jiaxing", 12, _discard_a_tile_not_held, "C-1"),
    ("putian", 3, _draw_out_of_turn, None),
    ("jiaxing", 5, _chow_by_the_wrong_seat, None),
    ("sichuan", 2, _wrong_deltas, None),
    ("sichuan", 7, _dealt_too_few, None),
]


@pytest.mark.django_db
def test_it_shows_refused_uploads_in_chinese(client: Client, alice: Any) -> None:
    sentences = english_sentences()
    client.force_login(alice)
    for variant, seed, change, rule in BAD_UPLOADS:
        raw = _bad(variant, seed, change)
        with pytest.raises(LogError) as refused:
            replay(loads(raw.decode()))
        response = client.post("/upload/", {
            "title": "", "visibility": "public", "text": "",
            "files": [SimpleUploadedFile("bad.json", raw, content_type="application/json")]},
            **ZH)
        assert response.status_code == 200
        markup = response.content.decode()
        items = re.findall(r'<li class="error">(.*?)</li>', markup, re.S)
        assert items, markup[:2000]
        shown = visible(items[0])
        error = refused.value
        assert error.message not in shown, shown
        assert CJK.search(shown), shown
        assert not TILE_CODE.search(shown), (change.__name__, shown)
        english = [s for s in sentences if s in shown]
        assert not english, (change.__name__, english, shown)
        if error.hand is not None:
            assert f"第 {error.hand} 局" in shown or str(error.hand) in shown
        assert error.rule is None or error.rule in shown
        if rule:
            assert error.rule == rule


def _start(client: Client, variant: str, kind: str) -> str:
    """A match waiting for the player's decision of this kind (a turn; Sichuan's void
    suit, SC-2, comes first)."""
    for _ in range(40):
        response = client.post("/play/", {"variant": variant, "seat": "0", "hands": 1,
                                          "speed": 0}, **ZH)
        assert response.status_code == 302
        pid = str(response["Location"]).strip("/").split("/")[-1]
        data = client.get(f"/play/{pid}/state.json").json()
        if data["legal"] and data["decision"]["kind"] == kind:
            return pid
    raise AssertionError(f"no match waited for the player's {kind}")


@pytest.mark.django_db
@pytest.mark.parametrize(("variant", "kind", "rule", "words"), [
    ("jiaxing", "turn", "C-1", "手中没有这张牌"), ("sichuan", "dingque", "SC-2", "每位玩家必须先定缺")])
def test_it_shows_a_refused_move_on_the_play_table_in_chinese(
        client: Client, variant: str, kind: str, rule: str, words: str) -> None:
    pid = _start(client, variant, kind)
    data = client.get(f"/play/{pid}/state.json").json()
    held = set(data["you"]["hand"]) | {data["you"]["drawn"]}
    missing = next(str(t) for t in TILES[:27] if str(t) not in held)
    action = json.dumps({"type": "discard", "tile": missing})
    response = client.post(f"/play/{pid}/act", {"step": data["step"], "action": action},
                           HTTP_HX_REQUEST="true", **ZH)
    assert response.status_code == 400
    found = re.search(r'<p class="error" role="alert">(.*?)</p>', response.content.decode(),
                      re.S)
    assert found, response.content.decode()[:2000]
    shown = visible(found.group(1))
    assert shown.startswith(f"{rule}: ") and words in shown, shown
    assert "can't" not in shown and not TILE_CODE.search(shown), shown
    # The JSON API stays in English: it is the engine's contract.
    answer = client.post(f"/play/{pid}/act", json.dumps({"step": data["step"], "action": {
        "type": "discard", "tile": missing}}), content_type="application/json", **ZH)
    assert answer.status_code == 400
    assert "can't discard" in answer.json()["error"]["message"]


@pytest.mark.django_db
def test_it_shows_a_refused_leave_in_chinese(client: Client) -> None:
    for _ in range(40):
        response = client.post("/play/", {"variant": "sichuan", "seat": "0", "hands": 1,
                                          "speed": 0}, **ZH)
        pid = str(response["Location"]).strip("/").split("/")[-1]
        data = client.get(f"/play/{pid}/state.json").json()
        if data["decision"] and data["decision"]["kind"] == "dingque":
            break
    else:
        pytest.skip("no Sichuan match waited for the void suit")
    response = client.post(f"/play/{pid}/leave", {"step": data["step"]}, **ZH)
    assert response.status_code == 400
    shown = visible(response.content.decode())
    assert "SC-2: 请先定缺" in shown, shown
    assert "void suit first" not in shown


@pytest.mark.django_db
def test_it_shows_a_refused_rules_option_of_the_start_form_in_chinese(client: Client) -> None:
    response = client.post("/play/", {"variant": "jiaxing", "seat": "random", "hands": 1,
                                      "speed": 0, "jiaxing-base": "0"}, **ZH)
    assert response.status_code == 400
    found = re.search(r'<p class="error" role="alert">(.*?)</p>', response.content.decode(),
                      re.S)
    assert found
    shown = visible(found.group(1))
    assert "规则选项 'base' 必须是" in shown and "must be" not in shown, shown


@pytest.mark.django_db
@pytest.mark.parametrize("text", ['{"format" "mahjong-log/1"}', '{"format": 1 "x": 2}', "[1,]",
                                  '{"format": "mahjong-log/1"} x', '{"a": "\\q"}'])
def test_it_shows_a_document_that_is_no_json_in_chinese(client: Client, alice: Any,
                                                        text: str) -> None:
    client.force_login(alice)
    response = client.post("/upload/", {"title": "", "visibility": "public", "text": text},
                           **ZH)
    items = re.findall(r'<li class="error">(.*?)</li>', response.content.decode(), re.S)
    assert items
    shown = visible(items[0])
    assert "文档不是有效的 JSON：第 1 行第" in shown, shown
    assert not re.search(r"[A-Za-z]{3,}", shown.rsplit("：", 1)[-1]), shown  # the parser's why
