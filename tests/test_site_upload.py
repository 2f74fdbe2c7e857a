"""Uploading hand histories: files, several at once, pasted text, duplicates, htmx, and
hostile uploads, each refused with a visible reason and nothing stored.

alice owns matches, bob is another logged-in user, charlie is anonymous (the bare
``client``); the fixtures and ``make_match`` are in ``conftest.py``.
"""

from __future__ import annotations

import copy
import html
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from games.records import log as games_log
from replays.matches import services
from replays.models import Hand, Match

from .conftest import bot_document

HTMX = {"HX-Request": "true"}
XSS = "<script>alert(1)</script>"
XSS_FILE = "<img src=x onerror=alert(1)>.json"  # no "/": file names lose their folders
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"
SUITED = [f"{number}{suit}" for suit in "mps" for number in range(1, 10)]


def upload(client: Client, *files: tuple[str, bytes], text: str = "", title: str = "",
           visibility: str = "public", htmx: bool = False) -> Any:
    """POST the upload form as a browser does: files, pasted text, title and visibility."""
    data: dict[str, Any] = {"title": title, "visibility": visibility, "text": text}
    if files:
        data["files"] = [SimpleUploadedFile(name, content, content_type="application/json")
                         for name, content in files]
    return client.post("/upload/", data, headers=HTMX if htmx else {})


def text_of(markup: str) -> str:
    """What a reader sees: the markup without tags, entities decoded, spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def results(response: Any) -> list[tuple[str, str]]:
    """The upload results: (``ok`` or ``error``, the item's visible text) for each file."""
    assert response.status_code == 200
    found = re.search(r'<ul class="upload-result" id="upload-results">(.*?)</ul>',
                      response.content.decode(), re.S)
    assert found, "no results list"
    return [(kind, text_of(body)) for kind, body in
            re.findall(r'<li class="(ok|error)">(.*?)</li>', found.group(1), re.S)]


def visible(response: Any) -> str:
    """The visible text of the page's main part (or of the whole fragment)."""
    content = response.content.decode()
    if "<main" in content:
        content = content.split("<main", 1)[1].split("</main>", 1)[0]
    return text_of(content)


def counts() -> tuple[int, int]:
    return Match.objects.count(), Hand.objects.count()


# -- valid uploads ---------------------------------------------------------------------


def test_it_stores_a_valid_file(client: Client, alice: Any) -> None:
    raw = bot_document(1, hands=2)
    document = json.loads(raw)
    client.force_login(alice)

    response = upload(client, ("friday.json", raw), title="Friday table",
                      visibility="unlisted")

    match = Match.objects.get()
    assert match.owner == alice
    assert match.visibility == "unlisted"
    assert match.title == "Friday table"
    assert match.variant == "sichuan"
    assert match.players == document["players"]
    assert bytes(match.document) == raw
    assert match.hand_count == 2
    hands = list(match.hands.order_by("number"))
    assert [hand.number for hand in hands] == [1, 2]
    for hand, written in zip(hands, document["hands"], strict=True):
        assert hand.events == written["events"]
        assert hand.event_count == len(written["events"])
        assert hand.dealer == written["dealer"]
        assert hand.deltas == written["events"][-1]["deltas"]
    assert results(response) == [("ok", "friday.json : stored – open the replay")]
    assert f'href="{match.get_absolute_url()}"' in response.content.decode()


def test_it_keeps_the_documents_title_without_one_in_the_form(client: Client,
                                                              alice: Any) -> None:
    client.force_login(alice)

    upload(client, ("a.json", bot_document(1)))

    match = Match.objects.get()
    assert match.title == "Bots, seed 1"
    assert match.visibility == "public"


def test_it_reads_an_uploaded_document_once(db: None,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Checking and storing share one parse of the document (a large upload is read once)."""
    read: list[str] = []

    def counting_loads(text: str) -> Any:
        read.append(text)
        return games_log.loads(text)

    monkeypatch.setattr(services, "loads", counting_loads)
    stored = services.store_document(bot_document(1, hands=2))

    assert len(read) == 1
    assert stored.hand_count == 2 and stored.hands.count() == 2


@pytest.mark.parametrize("visibility", ["public", "unlisted", "private"])
def test_it_stores_the_chosen_visibility(client: Client, alice: Any, visibility: str) -> None:
    client.force_login(alice)

    upload(client, ("a.json", bot_document(1)), visibility=visibility)

    assert Match.objects.get().visibility == visibility


def test_it_stores_the_valid_file_and_reports_the_invalid_one(client: Client,
                                                              alice: Any) -> None:
    broken, where = discard_not_held()
    client.force_login(alice)

    response = upload(client, ("good.json", bot_document(1)), ("bad.json", broken))

    assert counts() == (1, 1)
    assert Match.objects.get().sha256 != ""
    (good_kind, good), (bad_kind, bad) = results(response)
    assert (good_kind, good) == ("ok", "good.json : stored – open the replay")
    assert bad_kind == "error"
    assert bad.startswith("bad.json : ")
    assert "can't discard" in bad
    assert f"({where}, C-1)" in bad


def test_it_stores_several_valid_files(client: Client, alice: Any) -> None:
    client.force_login(alice)

    response = upload(client, *[(f"{seed}.json", bot_document(seed)) for seed in (1, 2, 3)])

    assert [kind for kind, _ in results(response)] == ["ok", "ok", "ok"]
    assert Match.objects.filter(owner=alice).count() == 3


def test_it_stores_pasted_text(client: Client, alice: Any) -> None:
    client.force_login(alice)

    response = upload(client, text=bot_document(4, variant="jiaxing").decode(),
                      title="Pasted", visibility="private")

    match = Match.objects.get()
    assert (match.owner, match.title, match.visibility, match.variant) == (
        alice, "Pasted", "private", "jiaxing")
    assert results(response) == [("ok", "pasted text : stored – open the replay")]


def test_it_stores_a_file_and_pasted_text_together(client: Client, alice: Any) -> None:
    client.force_login(alice)

    response = upload(client, ("a.json", bot_document(1)), text=bot_document(2).decode())

    assert [kind for kind, _ in results(response)] == ["ok", "ok"]
    assert Match.objects.count() == 2


def test_it_links_a_duplicate_to_the_existing_replay(client: Client, alice: Any,
                                                     make_match: Any) -> None:
    existing = make_match(alice, seed=5)
    client.force_login(alice)

    response = upload(client, ("again.json", bot_document(5)))

    assert counts() == (1, 1)
    [(kind, text)] = results(response)
    assert kind == "error"
    assert "uploaded before" in text
    assert f'href="{existing.get_absolute_url()}"' in response.content.decode()


def test_it_links_a_duplicate_within_one_upload(client: Client, alice: Any) -> None:
    client.force_login(alice)

    response = upload(client, ("a.json", bot_document(6)), ("b.json", bot_document(6)))

    assert counts() == (1, 1)
    assert [kind for kind, _ in results(response)] == ["ok", "error"]
    match = Match.objects.get()
    assert response.content.decode().count(f'href="{match.get_absolute_url()}"') == 2


def test_it_returns_only_the_results_to_htmx(client: Client, alice: Any) -> None:
    client.force_login(alice)

    response = upload(client, ("a.json", bot_document(1)), ("b.json", b"nope"), htmx=True)

    content = response.content.decode()
    assert "<html" not in content
    assert "<form" not in content
    assert content.strip().startswith('<ul class="upload-result" id="upload-results">')
    assert [kind for kind, _ in results(response)] == ["ok", "error"]
    assert Match.objects.count() == 1


def test_it_shows_the_upload_form(client: Client) -> None:
    response = client.get("/upload/")

    assert response.status_code == 200
    content = response.content.decode()
    assert 'name="files"' in content
    assert 'enctype="multipart/form-data"' in content
    assert 'hx-post="/upload/"' in content


def test_it_stores_a_file_with_a_bom(client: Client, alice: Any) -> None:
    raw = b"\xef\xbb\xbf" + bot_document(1)
    client.force_login(alice)

    response = upload(client, ("bom.json", raw))

    assert [kind for kind, _ in results(response)] == ["ok"]
    match = Match.objects.get()
    assert client.get(f"/replays/{match.public_id}/download/").content == raw
    steps = match.hands.get().event_count
    for step in (0, 10, steps):
        assert client.get(match.get_absolute_url(), {"step": step}).status_code == 200


def test_it_stores_a_file_with_crlf_line_endings(client: Client, alice: Any) -> None:
    raw = bot_document(1).replace(b"\n", b"\r\n")
    assert b"\r\n" in raw
    client.force_login(alice)

    response = upload(client, ("crlf.json", raw))

    assert [kind for kind, _ in results(response)] == ["ok"]
    match = Match.objects.get()
    assert bytes(match.document) == raw
    assert client.get(match.get_absolute_url(), {"step": 5}).status_code == 200


def test_it_stores_an_upload_by_an_anonymous_visitor(client: Client, db: None) -> None:
    response = upload(client, ("a.json", bot_document(1)))

    match = Match.objects.get()
    assert match.owner is None
    assert [kind for kind, _ in results(response)] == ["ok"]
    assert client.get(match.get_absolute_url()).status_code == 200


def test_it_never_stores_a_private_replay_its_anonymous_uploader_cannot_open(
        client: Client, db: None) -> None:
    """Charlie (anonymous) asks for a private upload: either it is refused, or the link he
    is given opens it. A private match with no owner is unreachable for everyone but staff."""
    response = upload(client, ("a.json", bot_document(1)), visibility="private")

    assert response.status_code == 200
    if Match.objects.exists():
        match = Match.objects.get()
        assert client.get(match.get_absolute_url()).status_code == 200
    else:
        assert "log in" in visible(response).lower()


# -- form-level problems ------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_it_asks_for_a_file_or_text(client: Client, alice: Any, htmx: bool) -> None:
    client.force_login(alice)

    response = upload(client, htmx=htmx)

    assert response.status_code == 200
    assert "Choose a file or paste a document." in visible(response)


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_it_refuses_more_files_than_allowed(client: Client, alice: Any, htmx: bool) -> None:
    limit = settings.MAX_UPLOAD_FILES
    client.force_login(alice)

    response = upload(client, *[(f"{seed}.json", bot_document(seed))
                                for seed in range(1, limit + 2)], htmx=htmx)

    assert response.status_code == 200
    assert f"At most {limit} files at once." in visible(response)
    assert counts() == (0, 0)


def test_it_refuses_far_too_many_files_without_a_server_error(client: Client,
                                                              alice: Any) -> None:
    client.force_login(alice)

    response = upload(client, *[(f"{n}.json", b"{}") for n in range(3 * settings.MAX_UPLOAD_FILES)])

    assert response.status_code < 500
    assert counts() == (0, 0)


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_it_refuses_or_truncates_a_title_of_10000_characters(client: Client, alice: Any,
                                                             htmx: bool) -> None:
    client.force_login(alice)

    response = upload(client, ("a.json", bot_document(1)), title="t" * 10_000, htmx=htmx)

    assert response.status_code == 200
    if Match.objects.exists():
        assert len(Match.objects.get().title) <= 200
    else:
        assert "200 characters" in visible(response), "the refusal must say why"


@pytest.mark.parametrize("visibility", ["secret", "", "PUBLIC"])
def test_it_refuses_an_unknown_visibility_visibly(client: Client, alice: Any,
                                                  visibility: str) -> None:
    client.force_login(alice)

    response = upload(client, ("a.json", bot_document(1)), visibility=visibility)

    assert response.status_code == 200
    assert counts() == (0, 0)
    assert "valid choice" in visible(response) or "required" in visible(response)


@pytest.mark.parametrize("title", ["nul\x00byte", "a\x00"])
def test_it_refuses_a_title_with_a_nul_byte_visibly(client: Client, alice: Any,
                                                    title: str) -> None:
    client.force_login(alice)

    response = upload(client, ("a.json", bot_document(1)), title=title)

    assert response.status_code == 200
    assert counts() == (0, 0)
    assert "Null characters are not allowed." in visible(response)


# -- escaping ----------------------------------------------------------------------------


def assert_escaped(client: Client, match: Match, *, players: bool) -> None:
    """Every page showing the match (as alice sees them) has the text escaped, never raw.

    The title shows on browse, my uploads and the viewer; players' names also in the
    board (and so in its htmx fragment) and in the search results."""
    url = match.get_absolute_url()
    pages = {
        "browse": client.get("/"),
        "my uploads": client.get("/", {"mine": "1"}),
        "viewer": client.get(url),
        "viewer at the end": client.get(url, {"step": 100000}),
        "viewer as seat 0": client.get(url, {"step": 30, "seat": 0}),
    }
    if players:
        pages["search"] = client.get("/", {"q": "script"})
        pages["fragment"] = client.get(url, {"step": 30}, headers=HTMX)
    for name, response in pages.items():
        assert response.status_code == 200, name
        content = response.content.decode()
        assert XSS not in content, f"the raw tag is on the {name} page"
        assert "<script>alert" not in content, name
        assert ESCAPED in content, f"the escaped text is missing from the {name} page"


def test_it_escapes_a_script_tag_in_a_players_name(client: Client, alice: Any) -> None:
    raw = bot_document(1, players=(XSS, "Jun", "Kai", "Lan"), title=None)
    client.force_login(alice)

    response = upload(client, ("a.json", raw))

    assert response.status_code == 200
    assert XSS not in response.content.decode()
    if Match.objects.exists():
        match = Match.objects.get()
        assert match.players[0] == XSS  # stored as written, escaped when shown
        assert_escaped(client, match, players=True)


@pytest.mark.parametrize("in_form", [True, False], ids=["form-title", "document-title"])
def test_it_escapes_a_script_tag_in_the_title(client: Client, alice: Any,
                                              in_form: bool) -> None:
    client.force_login(alice)
    document = bot_document(1) if in_form else bot_document(1, title=XSS)

    response = upload(client, ("a.json", document), title=XSS if in_form else "")

    assert response.status_code == 200
    if Match.objects.exists():
        assert_escaped(client, Match.objects.get(), players=False)


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_it_escapes_a_script_tag_in_a_file_name_and_an_error(client: Client, alice: Any,
                                                             htmx: bool) -> None:
    doc = json.loads(bot_document(1))
    doc["variant"] = XSS
    client.force_login(alice)

    response = upload(client, (XSS_FILE, json.dumps(doc).encode()),
                      ("ok.json", b"[" + XSS.encode() + b"]"), htmx=htmx)

    content = response.content.decode()
    assert XSS not in content
    assert "<script>alert" not in content
    assert "<img src=x" not in content
    assert "<strong>&lt;img src=x onerror=alert(1)&gt;.json</strong>" in content
    assert ESCAPED in content  # the unknown variant, named in the message
    assert counts() == (0, 0)


# -- hostile uploads --------------------------------------------------------------------


def base(seed: int = 1, variant: str = "sichuan", hands: int = 1) -> dict[str, Any]:
    """A valid bot-played document, parsed, to break."""
    data: dict[str, Any] = json.loads(bot_document(seed, variant=variant, hands=hands))
    return copy.deepcopy(data)


def encode(doc: Any) -> bytes:
    return json.dumps(doc, ensure_ascii=False).encode()


def changed(change: Callable[[dict[str, Any]], Any], **kwargs: Any) -> Callable[[], bytes]:
    """A builder: the base document with ``change`` applied to it."""
    def build() -> bytes:
        doc = base(**kwargs)
        change(doc)
        return encode(doc)
    return build


def literal(change: Callable[[dict[str, Any], str], Any], text: str) -> Callable[[], bytes]:
    """A builder: the base document with a value written as the raw JSON ``text``."""
    def build() -> bytes:
        doc = base()
        change(doc, "@@literal@@")
        return encode(doc).replace(b'"@@literal@@"', text.encode())
    return build


def first_hand(doc: dict[str, Any]) -> dict[str, Any]:
    hand: dict[str, Any] = doc["hands"][0]
    return hand


def set_dealer(doc: dict[str, Any], value: Any) -> None:
    first_hand(doc)["dealer"] = value


def set_first_actor(doc: dict[str, Any], value: Any) -> None:
    first_hand(doc)["events"][0]["actor"] = value


def drop(key: str) -> Callable[[dict[str, Any]], None]:
    return lambda doc: doc.pop(key)


def put(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda doc: doc.__setitem__(key, value)


def discard_not_held() -> tuple[bytes, str]:
    """The first discard changed to a tile its player doesn't hold."""
    doc = base()
    hand = first_hand(doc)
    events = hand["events"]
    index = next(i for i, event in enumerate(events) if event["type"] == "discard")
    held = set(hand["deal"][events[index]["actor"]])
    events[index]["tile"] = next(tile for tile in SUITED if tile not in held)
    return encode(doc), f"hand 1, event {index + 1}"


def discard_out_of_turn() -> tuple[bytes, str]:
    """In hand 2, the first discard made by the next seat instead."""
    doc = base(hands=2)
    events = doc["hands"][1]["events"]
    index = next(i for i, event in enumerate(events) if event["type"] == "discard")
    events[index]["actor"] = (events[index]["actor"] + 1) % 4
    return encode(doc), f"hand 2, event {index + 1}"


def wrong_deltas() -> tuple[bytes, str]:
    doc = base()
    events = first_hand(doc)["events"]
    deltas = events[-1]["deltas"]
    deltas[0] += 1
    deltas[1] -= 1
    return encode(doc), f"hand 1, event {len(events)}"


def changed_draw() -> tuple[bytes, str]:
    """The fifth draw from the front changed to another tile than the wall's next."""
    doc = base()
    events = first_hand(doc)["events"]
    draws = [i for i, event in enumerate(events)
             if event["type"] == "draw" and "from" not in event]
    index = draws[4]
    events[index]["tile"] = "1m" if events[index]["tile"] != "1m" else "2m"
    return encode(doc), f"hand 1, event {index + 1}"


def chow(breaking: str) -> Callable[[], tuple[bytes, str]]:
    """A Jiaxing bot hand's first chow, claimed from the wrong seat or by the wrong seat."""
    def build() -> tuple[bytes, str]:
        doc = base(variant="jiaxing")
        events = first_hand(doc)["events"]
        index = next(i for i, event in enumerate(events) if event["type"] == "chi")
        event = events[index]
        others = [seat for seat in range(4) if seat not in (event["actor"], event["target"])]
        if breaking == "target":
            event["target"] = others[0]
        else:
            event["actor"] = next(seat for seat in others
                                  if seat != (event["target"] + 1) % 4)
        return encode(doc), f"hand 1, event {index + 1}"
    return build


def too_many_hands(doc: dict[str, Any]) -> None:
    doc["hands"] = [{}] * 501


def too_many_events(doc: dict[str, Any]) -> None:
    first_hand(doc)["events"] = [{"type": "leave", "actor": 0}] * 2000 + [
        {"type": "end", "reason": "abandoned"}]


def end_not_last(doc: dict[str, Any]) -> None:
    events = first_hand(doc)["events"]
    events.insert(len(events) - 1, dict(events[-1]))


def short_deal(doc: dict[str, Any]) -> None:
    first_hand(doc)["deal"][1].pop()


def valid_text() -> str:
    return bot_document(1).decode()


@dataclass(frozen=True)
class Hostile:
    name: str
    build: Callable[[], bytes | tuple[bytes, str]]
    words: str  # in the message, case-insensitive
    pasted: bool = False
    limit: int | None = None  # settings.MAX_UPLOAD_BYTES for the case

    def __str__(self) -> str:
        return self.name


HOSTILE = [
    # not a JSON document at all
    Hostile("not-json", lambda: b"this is not json", "not valid JSON"),
    Hostile("html-page", lambda: b"<!doctype html><html><body>hi</body></html>",
            "not valid JSON"),
    Hostile("empty-file", lambda: b"", "the file is empty"),
    Hostile("whitespace-only", lambda: b" \r\n\t  \n ", "the file is empty"),
    Hostile("zip", lambda: b"PK\x03\x04\x14\x00\x00\x00\x08\x00" + bytes(40), "zip archive"),
    Hostile("png", lambda: b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(20),
            "not a text file"),
    Hostile("gzip", lambda: b"\x1f\x8b\x08\x00\x00\x00\x00\x00" + bytes(20), "not a text file"),
    Hostile("pdf", lambda: b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "not a text file"),
    Hostile("utf-16", lambda: valid_text().encode("utf-16"), "not a text file"),
    Hostile("utf-16-be-with-bom", lambda: b"\xfe\xff" + valid_text().encode("utf-16-be"),
            "not UTF-8"),
    Hostile("utf-16-be-without-bom", lambda: valid_text().encode("utf-16-be"),
            "not valid JSON"),
    Hostile("utf-32", lambda: valid_text().encode("utf-32"), "not a text file"),
    Hostile("invalid-utf-8", lambda: bot_document(1).replace(b'"Ivy"', b'"Iv\xc3\x28"'),
            "not UTF-8"),
    Hostile("latin-1", lambda: bot_document(1).replace(b'"Ivy"', "\"Zoë\"".encode("latin-1")),
            "not UTF-8"),
    Hostile("nul-bytes", lambda: b'{"format"\x00: "mahjong-log/1"}', "not valid JSON"),
    Hostile("bom-then-garbage", lambda: b"\xef\xbb\xbfnot json", "not valid JSON"),
    Hostile("trailing-garbage", lambda: bot_document(1) + b"\nxyz", "not valid JSON"),
    Hostile("two-documents", lambda: bot_document(1) + bot_document(2), "not valid JSON"),
    Hostile("crlf-broken", lambda: bot_document(1).replace(b"\n", b"\r\n")[:-40],
            "not valid JSON"),
    # JSON, but no document
    Hostile("json-array", lambda: b"[]", "not an array"),
    Hostile("json-array-of-document", lambda: b"[" + bot_document(1) + b"]", "not an array"),
    Hostile("json-string", lambda: b'"mahjong-log/1"', "not a string"),
    Hostile("json-number", lambda: b"42", "not a number"),
    Hostile("json-null", lambda: b"null", "not null"),
    Hostile("json-true", lambda: b"true", "not a boolean"),
    Hostile("empty-object", lambda: b"{}", "format is missing"),
    Hostile("missing-format", changed(drop("format")), "format is missing"),
    Hostile("wrong-format", changed(put("format", "mahjong-log/2")), "mahjong-log/2"),
    Hostile("numeric-format", changed(put("format", 1)), "format must be exactly"),
    Hostile("unknown-variant", changed(put("variant", "riichi")), 'unknown variant "riichi"'),
    Hostile("missing-variant", changed(drop("variant")), "has no variant"),
    Hostile("null-variant", changed(put("variant", None)), "unknown variant null"),
    Hostile("unknown-field", changed(put("uploader", "mallory")), 'unknown field "uploader"'),
    # players
    Hostile("three-players", changed(put("players", ["A", "B", "C"])), "not 3 names"),
    Hostile("five-players", changed(put("players", ["A", "B", "C", "D", "E"])), "not 5 names"),
    Hostile("numeric-players", changed(put("players", [1, 2, 3, 4])), "must be a string"),
    Hostile("null-players", changed(put("players", None)), "players must be an array of four names"),
    Hostile("blank-player", changed(put("players", ["A", " ", "C", "D"])), "empty"),
    Hostile("long-player-name", changed(put("players", ["A" * 65, "B", "C", "D"])),
            "at most 64"),
    Hostile("nul-in-player-name", changed(put("players", ["A\u0000", "B", "C", "D"])),
            "control character"),
    Hostile("lone-surrogate-in-name",
            lambda: bot_document(1).replace(b'"Ivy"', b'"Iv\\ud800"'), "U+D800"),
    # numbers
    Hostile("float-1e400", literal(set_dealer, "1e400"), "not Infinity"),
    Hostile("integer-10-to-the-40", literal(set_dealer, str(10**40)), "dealer must be a seat"),
    Hostile("5000-digit-integer", literal(set_dealer, "7" * 5000), "too large"),
    Hostile("nan", literal(set_dealer, "NaN"), "NaN"),
    Hostile("infinity", literal(set_dealer, "Infinity"), "Infinity"),
    Hostile("minus-infinity", literal(set_dealer, "-Infinity"), "Infinity"),
    Hostile("float-seat", literal(set_dealer, "1.0"), "dealer must be a seat 0–3, not 1.0"),
    Hostile("boolean-seat", literal(set_dealer, "true"), "dealer must be a seat 0–3, not true"),
    Hostile("negative-seat", literal(set_first_actor, "-1"), "actor must be a seat 0–3, not -1"),
    Hostile("seat-4", literal(set_first_actor, "4"), "actor must be a seat 0–3, not 4"),
    Hostile("huge-rules-option", changed(put("rules", {"base": 10**30})), '"base" is too large'),
    Hostile("unknown-rules-option", changed(put("rules", {"jackpot": 1})), 'unknown sichuan rules option "jackpot"'),
    # structure
    Hostile("10000-brackets", lambda: b"[" * 10_000, "nested"),
    Hostile("10000-objects", lambda: b'{"a":' * 10_000 + b"1" + b"}" * 10_000, "nested"),
    Hostile("duplicate-keys",
            lambda: b'{"format": "mahjong-log/1", "format": "mahjong-log/1"}',
            '"format" appears twice'),
    Hostile("duplicate-keys-in-event", lambda: bot_document(1).replace(
        b'"type": "dingque", "actor": 0', b'"type": "dingque", "actor": 0, "actor": 1', 1),
        '"actor" appears twice'),
    Hostile("no-hands", changed(put("hands", [])), "hands must be a non-empty array"),
    Hostile("hands-object", changed(put("hands", {"1": {}})),
            "hands must be a non-empty array"),
    Hostile("501-hands", changed(too_many_hands), "501 hands; at most 500"),
    Hostile("2001-events", changed(too_many_events), "at most 2000"),
    Hostile("unknown-event-type", changed(
        lambda doc: first_hand(doc)["events"].insert(0, {"type": "riichi", "actor": 0})),
        'unknown event type "riichi"'),
    Hostile("event-not-an-object", changed(
        lambda doc: first_hand(doc)["events"].insert(0, 5)), "an event must be an object"),
    Hostile("event-without-type", changed(
        lambda doc: first_hand(doc)["events"].insert(0, {"actor": 0})), "no type"),
    Hostile("double-tile", changed(
        lambda doc: first_hand(doc)["deal"][0].__setitem__(0, "55m")), "no tile"),
    Hostile("honour-in-sichuan", changed(
        lambda doc: first_hand(doc)["deal"][0].__setitem__(0, "1z")), "not a sichuan tile"),
    Hostile("short-deal", changed(short_deal), "is dealt 13 tiles"),
    Hostile("end-not-last", changed(end_not_last), "end must be the hand's last event"),
    Hostile("no-end", changed(lambda doc: first_hand(doc)["events"].pop()),
            "last event must be end"),
    Hostile("long-document-title", changed(put("title", "t" * 201)),
            "title is 201 characters long"),
    Hostile("10000-character-document-title", changed(put("title", "t" * 10_000)),
            "title is 10000 characters long"),
    Hostile("impossible-date", changed(put("played_at", "2026-02-30")), "no real date"),
    Hostile("not-a-date", changed(put("played_at", "yesterday")), "ISO 8601"),
    # illegal play: the message names the hand, the event and the rule
    Hostile("discard-not-held", discard_not_held, "not in their hand"),
    Hostile("discard-out-of-turn", discard_out_of_turn, "turn to discard"),
    Hostile("wrong-end-deltas", wrong_deltas, "don't match the settlement"),
    Hostile("draw-not-from-the-wall", changed_draw, "front of the wall"),
    Hostile("chow-from-the-wrong-seat", chow("target"), "can't chow"),
    Hostile("chow-by-the-wrong-seat", chow("actor"), "can't chow"),
    # sizes
    Hostile("file-over-the-limit", lambda: bot_document(1), "the limit is 1,000 bytes",
            limit=1000),
    Hostile("file-one-byte-over-the-limit", lambda: bot_document(1),
            "bytes; the limit is", limit=len(bot_document(1)) - 1),
    # pasted
    Hostile("pasted-not-json", lambda: b"hello", "not valid JSON", pasted=True),
    Hostile("pasted-array", lambda: b"[1, 2]", "not an array", pasted=True),
    Hostile("pasted-nesting", lambda: b"[" * 10_000, "nested", pasted=True),
    Hostile("pasted-over-the-limit", lambda: bot_document(1), "the limit is 1,000 bytes",
            pasted=True, limit=1000),
    Hostile("pasted-illegal-play", discard_not_held, "not in their hand", pasted=True),
]


def test_there_are_at_least_50_hostile_cases() -> None:
    assert len(HOSTILE) >= 50
    assert len({case.name for case in HOSTILE}) == len(HOSTILE)


@pytest.mark.parametrize("case", HOSTILE, ids=str)
def test_it_refuses_a_hostile_upload(client: Client, alice: Any, make_match: Any,
                                     settings: Any, case: Hostile) -> None:
    make_match(alice, seed=99)
    before = counts()
    built = case.build()
    raw, where = built if isinstance(built, tuple) else (built, None)
    if case.limit is not None:
        settings.MAX_UPLOAD_BYTES = case.limit
        assert len(raw) > case.limit
    client.force_login(alice)

    if case.pasted:
        response = upload(client, text=raw.decode())
    else:
        response = upload(client, ("evil.json", raw))

    assert response.status_code == 200
    [(kind, text)] = results(response)
    assert kind == "error"
    assert case.words.lower() in text.lower(), text
    if where is not None:
        assert re.search(rf"\({re.escape(where)}, [A-Z]{{1,2}}-[0-9.]+\)", text), text
    assert counts() == before


@pytest.mark.parametrize("played_at", ["0001-01-01T00:00+14:00", "9999-12-31T23:59-14:00"])
def test_it_survives_a_date_at_the_edge_of_the_calendar(client: Client, alice: Any,
                                                        played_at: str) -> None:
    """A played_at that leaves datetime's range in UTC: refused, or stored so that every
    page still works (PostgreSQL would store year 0 or 10000, which Python can't read)."""
    client.force_login(alice)
    client.raise_request_exception = False  # a server error is a 500, not an exception

    response = upload(client, ("a.json", bot_document(1, played_at=played_at)))

    assert response.status_code == 200
    if Match.objects.exists():
        url = f"/replays/{Match.objects.values_list('public_id', flat=True).get()}/"
        for page in ("/", "/?mine=1", url):
            assert client.get(page).status_code == 200, page
        assert client.get(url, headers=HTMX).status_code == 200
    else:
        assert [kind for kind, _ in results(response)] == ["error"]


def test_it_keeps_an_upload_unlisted_or_private_until_the_uploader_chooses(
        client: Client, alice: Any) -> None:
    """Issue 27: a hand history names its players, so the form offers private (an account)
    or unlisted (anonymous: no one to be private to) first, never public; anonymous
    uploaders are not offered the private choice they would be refused."""
    page = client.get("/upload/").content.decode()
    assert re.search(r'<option value="unlisted" selected>', page)
    assert 'value="private"' not in page and 'value="public" selected' not in page
    client.force_login(alice)
    page = client.get("/upload/").content.decode()
    assert re.search(r'<option value="private" selected>', page)
    assert "Private until you choose otherwise" in text_of(page)
