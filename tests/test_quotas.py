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

from replays.matches import services
from replays.models import Match
from replays.puzzles import services as puzzles

from .conftest import PASSWORD, bot_document, with_password

pytestmark = pytest.mark.filterwarnings("ignore:No directory at:UserWarning")
LIMITS = {"upload-visitor": "2/3600", "upload-account": "3/3600", "signup": "2/3600",
          "puzzle-answer": "2/60"}


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


# -- log-in lockouts (django-axes, replays/lockouts.py) ------------------------------------

LOCKED = "Too many failed log-ins from your address: logging in from it is paused. Try " \
         "again in 15 minutes."


@pytest.fixture
def lockouts() -> Iterator[None]:
    """Small limits: 3 failures per (name, address), 5 per address."""
    with override_settings(AXES_ENABLED=True, AXES_FAILURE_LIMIT=3,
                           LOGIN_FAILURES_PER_ADDRESS=5):
        yield


def log_in(client: Client, name: str, password: str, url: str = "/accounts/login/") -> Any:
    return client.post(url, {"username": name, "password": password})


def logged_in_as(client: Client) -> str | None:
    return client.session.get("_auth_user_id")


def test_it_locks_a_guessed_name_out_only_from_the_guessing_address(
        limits_on: None, lockouts: None, bob: Any) -> None:
    """Issue 24: ten wrong passwords from anywhere locked the real owner out for as long as
    the attacker kept trying. Now the name is locked from the attacker's address alone."""
    from axes.models import AccessAttempt

    with_password(bob)
    attacker = Client(REMOTE_ADDR="10.6.6.6")
    assert [log_in(attacker, "bob", "nope").status_code for _ in range(3)] == [200, 200, 429]
    refused = log_in(attacker, "BOB ", PASSWORD)  # even the right password, any spelling
    assert refused.status_code == 429 and LOCKED in refused.content.decode()
    assert logged_in_as(attacker) is None
    for _ in range(20):  # the attacker keeps trying: refused, and nothing more is written
        assert log_in(attacker, "bob", "nope").status_code == 429
    assert sum(AccessAttempt.objects.values_list("failures_since_start", flat=True)) == 3

    owner = Client(REMOTE_ADDR="10.1.1.1")
    assert log_in(owner, "bob", PASSWORD).status_code == 302
    assert logged_in_as(owner) == str(bob.pk)


def test_it_never_locks_root_out_of_the_admin_from_elsewhere(
        limits_on: None, lockouts: None, django_user_model: Any) -> None:
    root = django_user_model.objects.create_superuser("root", "root@example.org", PASSWORD)
    attacker = Client(REMOTE_ADDR="10.6.6.6")
    statuses = [log_in(attacker, "root", "guess", "/admin/login/").status_code
                for _ in range(4)]
    assert statuses == [200, 200, 429, 429]
    assert LOCKED in log_in(attacker, "root", PASSWORD, "/admin/login/").content.decode()
    owner = Client(REMOTE_ADDR="10.2.2.2")
    assert log_in(owner, "root", PASSWORD, "/admin/login/").status_code == 302
    assert logged_in_as(owner) == str(root.pk)


def test_it_locks_an_address_that_guesses_many_names(limits_on: None, lockouts: None,
                                                     alice: Any, bob: Any) -> None:
    with_password(alice)
    with_password(bob)
    sprayer = Client(REMOTE_ADDR="10.6.6.7")
    statuses = [log_in(sprayer, name, "123456").status_code
                for name in ("alice", "bob", "carol", "dave", "erin")]
    assert statuses == [200, 200, 200, 200, 429]
    assert log_in(sprayer, "frank", "123456").status_code == 429
    assert log_in(sprayer, "alice", PASSWORD).status_code == 429
    assert log_in(Client(REMOTE_ADDR="10.6.6.8"), "alice", PASSWORD).status_code == 302


def test_it_says_why_a_log_in_is_refused_in_chinese(limits_on: None, lockouts: None,
                                                    bob: Any) -> None:
    attacker = Client(REMOTE_ADDR="10.6.6.9", HTTP_ACCEPT_LANGUAGE="zh-hans")
    for _ in range(3):
        response = log_in(attacker, "bob", "nope")
    assert response.status_code == 429
    text = response.content.decode()
    assert "登录失败次数过多" in text and "请在 15 分钟后再试" in text, text[-3000:]


# -- sign-ups -------------------------------------------------------------------------------


def test_it_throttles_sign_ups(client: Client, limits_on: None, db: None) -> None:
    for n in range(2):
        response = client.post("/accounts/signup/", {
            "username": f"new{n}", "password1": PASSWORD, "password2": PASSWORD})
        assert response.status_code == 302
    refused = client.post("/accounts/signup/", {
        "username": "new9", "password1": PASSWORD, "password2": PASSWORD})
    assert refused.status_code == 429
    assert "creating accounts is limited to 2 per 1 hour" in refused.content.decode()


def test_it_counts_accounts_created_not_failed_sign_up_forms(
        client: Client, limits_on: None, db: None, django_user_model: Any) -> None:
    """Issue 24: a newcomer who mistyped the password twice was locked out for an hour."""
    for _ in range(4):
        typo = client.post("/accounts/signup/", {
            "username": "newcomer", "password1": PASSWORD, "password2": PASSWORD + "x"})
        assert typo.status_code == 200
        assert not django_user_model.objects.filter(username="newcomer").exists()
    assert client.post("/accounts/signup/", {
        "username": "newcomer", "password1": PASSWORD, "password2": PASSWORD}
    ).status_code == 302
    assert django_user_model.objects.filter(username="newcomer").exists()


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
