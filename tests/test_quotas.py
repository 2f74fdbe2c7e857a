"""What one visitor may cost the site (issue 16, findings 1, 2 and 7).

Rate limits (uploads per address and per account, log-in, sign-up, puzzle answers) are
settings, counted in the ``limits`` cache; the suite runs with them off, and these tests
turn them on with their own small limits and an emptied cache, so nothing here leaks into
other tests. Hands per match, events per hand and storage per account are capped; cheap
checks (size, hash, duplicate) come before the engine replays anything; a request body past
``MAX_REQUEST_BYTES`` is not read.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import caches
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings

from replays.library import services
from replays.models import Match
from replays.puzzles import services as puzzles

from .conftest import PASSWORD, bot_document, with_password

pytestmark = pytest.mark.filterwarnings("ignore:No directory at:UserWarning")
LIMITS = {"upload-visitor": "2/3600", "upload-account": "3/3600", "login": "3/300",
          "signup": "2/3600", "puzzle-answer": "2/60"}


@pytest.fixture
def limits_on() -> Iterator[None]:
    caches["limits"].clear()
    with override_settings(RATE_LIMITS_ENABLED=True, RATE_LIMITS=LIMITS):
        yield
    caches["limits"].clear()


def upload(client: Client, *documents: bytes, **fields: str) -> Any:
    return client.post("/upload/", {
        "files": [SimpleUploadedFile(f"m{n}.json", raw) for n, raw in enumerate(documents)],
        "title": "", "visibility": "public", "text": "", **fields})


def test_it_limits_uploads_per_address(client: Client, limits_on: None, db: None) -> None:
    assert upload(client, bot_document(1)).status_code == 200
    assert upload(client, bot_document(2)).status_code == 200
    refused = upload(client, bot_document(3))
    assert refused.status_code == 429
    text = refused.content.decode()
    assert "uploading from one address is limited to 2 per 1 hour" in text
    assert Match.objects.count() == 2
    other = Client(REMOTE_ADDR="10.9.9.9")
    assert upload(other, bot_document(3)).status_code == 200


def test_it_limits_uploads_per_account_across_addresses(
        limits_on: None, bob: Any) -> None:
    for n in range(3):
        client = Client(REMOTE_ADDR=f"10.0.0.{n + 1}")
        client.force_login(bob)
        assert upload(client, bot_document(10 + n)).status_code == 200
    client = Client(REMOTE_ADDR="10.0.0.9")
    client.force_login(bob)
    refused = upload(client, bot_document(20))
    assert refused.status_code == 429
    assert "uploading from one account is limited to 3 per 1 hour" in refused.content.decode()


def test_it_throttles_password_guessing_even_before_the_right_one(
        client: Client, limits_on: None, bob: Any) -> None:
    with_password(bob)
    for _ in range(3):
        wrong = client.post("/accounts/login/", {"username": "bob", "password": "nope"})
        assert wrong.status_code == 200
    right = client.post("/accounts/login/", {"username": "bob", "password": PASSWORD})
    assert right.status_code == 429
    assert "logging in is limited to 3 per 5 minutes" in right.content.decode()
    assert "_auth_user_id" not in client.session
    # Guessing the same name from elsewhere is limited too.
    elsewhere = Client(REMOTE_ADDR="10.1.1.1")
    assert elsewhere.post("/accounts/login/", {"username": "BOB", "password": PASSWORD}
                          ).status_code == 429
    admin = Client(REMOTE_ADDR="10.1.1.2")
    assert admin.post("/admin/login/", {"username": "bob", "password": "x"}).status_code == 429


def test_it_throttles_sign_ups(client: Client, limits_on: None, db: None) -> None:
    for n in range(2):
        response = client.post("/accounts/signup/", {
            "username": f"new{n}", "password1": PASSWORD, "password2": PASSWORD})
        assert response.status_code == 302
    refused = client.post("/accounts/signup/", {
        "username": "new9", "password1": PASSWORD, "password2": PASSWORD})
    assert refused.status_code == 429
    assert "creating accounts is limited to 2 per 1 hour" in refused.content.decode()


def test_it_throttles_puzzle_answers(client: Client, limits_on: None, db: None) -> None:
    found = [puzzles.generated_puzzle("sichuan", 1, f"throttle-{n}") for n in range(3)]
    for puzzle in found[:2]:
        assert client.post(f"/puzzles/{puzzle.public_id}/answer/",
                           {"notation": "1m"}).status_code == 302
    refused = client.post(f"/puzzles/{found[2].public_id}/answer/", {"notation": "1m"})
    assert refused.status_code == 429
    assert "answering puzzles is limited to 2 per 1 minute" in refused.content.decode()


@override_settings(MAX_MATCH_HANDS=2)
def test_it_caps_the_hands_of_a_match_before_replaying_them(
        client: Client, db: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "replay", _never_replayed)
    response = upload(client, bot_document(5, hands=3))
    assert "the match has 3 hands; the limit is 2 hands" in response.content.decode()
    assert Match.objects.count() == 0


@override_settings(MAX_HAND_EVENTS=20)
def test_it_caps_the_events_of_a_hand(client: Client, db: None,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "replay", _never_replayed)
    text = upload(client, bot_document(6)).content.decode()
    assert "events; the limit is 20 events" in text and "hand 1" in text


def test_it_finds_a_duplicate_before_replaying_it(
        client: Client, make_match: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    first = make_match(seed=7)
    monkeypatch.setattr(services, "replay", _never_replayed)
    text = upload(client, bytes(first.document)).content.decode()
    assert "uploaded before" in text and first.public_id in text


def test_it_caps_an_accounts_storage(client: Client, bob: Any) -> None:
    client.force_login(bob)
    raw = bot_document(8)
    with override_settings(MAX_ACCOUNT_BYTES=len(raw) + 10):
        assert "stored" in upload(client, raw).content.decode()
        text = upload(client, bot_document(9)).content.decode()
    assert "your account&#x27;s" in text and "delete some first" in text
    assert Match.objects.filter(owner=bob).count() == 1


def _never_replayed(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("the engine replayed a document a cheap check should have refused")


class CountingBody(io.BytesIO):
    """A request body that counts the bytes the site reads from it."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.taken = 0

    def read(self, size: int | None = -1) -> bytes:
        chunk = super().read(size)
        self.taken += len(chunk)
        return chunk

    def readline(self, size: int | None = -1) -> bytes:
        line = super().readline(size)
        self.taken += len(line)
        return line


@override_settings(MAX_REQUEST_BYTES=50_000)
def test_it_stops_reading_a_body_past_the_limit(client: Client, db: None) -> None:
    boundary = "bounded"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"files\"; "
            f"filename=\"huge.json\"\r\nContent-Type: application/json\r\n\r\n").encode()
    body += b"{" + b" " * 5_000_000 + b"}\r\n" + f"--{boundary}--\r\n".encode()
    stream = CountingBody(body)
    response = client.request(**{
        "REQUEST_METHOD": "POST", "PATH_INFO": "/upload/",
        "CONTENT_TYPE": f"multipart/form-data; boundary={boundary}",
        "CONTENT_LENGTH": str(len(body)), "wsgi.input": stream})
    assert response.status_code == 413
    text = response.content.decode()
    assert f"The upload is {len(body):,} bytes; the limit is 50,000 bytes" in text
    assert stream.taken < 100_000, f"read {stream.taken:,} bytes of {len(body):,}"
    assert Match.objects.count() == 0


@override_settings(MAX_UPLOAD_BYTES=20_000)
def test_it_skips_a_file_past_the_limit_and_keeps_the_others(client: Client, db: None) -> None:
    good = bot_document(11)
    with override_settings(MAX_UPLOAD_BYTES=max(20_000, len(good) + 1)):
        response = upload(client, b"{" + b" " * 3 * len(good) + b"}", good)
    text = response.content.decode()
    assert "the file is over" in text
    assert Match.objects.count() == 1
