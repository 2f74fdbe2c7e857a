"""What uploads may cost (issue 24, item 2): budgets of bytes, hands checked and the engine's
CPU time per visitor (address) and per account, counted in the ``limits`` cache; large
documents checked by a worker task the page polls (htmx, and a page that refreshes itself
without JavaScript), the engine's refusal shown in the reader's language, nothing lost or
half-written; and a storage quota for anonymous uploads.

The suite runs with rate limits (and so budgets) off; the tests of budgets turn them on
with small budgets and an emptied cache. Tasks run in-process here (no broker); the
document is kept for the worker when the request's allowance (``UPLOAD_SYNC_BYTES``) is
set below its size.
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.core.cache import caches
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings
from django.utils import timezone

from replays.matches import services, tasks
from replays.models import Hand, Match, UploadCheck

from .conftest import bot_document
from .test_site_upload import text_of

pytestmark = pytest.mark.filterwarnings("ignore:No directory at:UserWarning")
HTMX = {"HX-Request": "true"}
ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
GENEROUS = {"upload-bytes-visitor": "100000000/3600", "upload-bytes-account": "100000000/3600",
            "upload-hands-visitor": "100000/3600", "upload-hands-account": "100000/3600",
            "upload-cpu-visitor": "100000/3600", "upload-cpu-account": "100000/3600"}


@pytest.fixture
def budgets() -> Iterator[Any]:
    """Turn rate limits and budgets on: ``budgets(**{"upload-hands-visitor": "3/3600"})``
    sets the named budgets (the others generous) until the test ends."""
    caches["limits"].clear()
    chosen = dict(GENEROUS)
    with override_settings(RATE_LIMITS_ENABLED=True, UPLOAD_BUDGETS=chosen):
        yield chosen.update
    caches["limits"].clear()


def upload(client: Client, *documents: bytes, htmx: bool = False, **extra: Any) -> Any:
    return client.post("/upload/", {
        "files": [SimpleUploadedFile(f"m{n}.json", raw) for n, raw in enumerate(documents)],
        "title": "", "visibility": "public", "text": ""}, headers=HTMX if htmx else {}, **extra)


def refused_at_the_last_hand(seed: int, hands: int = 2) -> bytes:
    """A bot match whose last hand's settlement is wrong: the engine replays every hand
    before it refuses the document."""
    document = json.loads(bot_document(seed, hands=hands))
    end = document["hands"][-1]["events"][-1]
    end["deltas"] = [end["deltas"][0] + 1, *end["deltas"][1:]]
    return json.dumps(document).encode()


def _never_replayed(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("the engine replayed a document its budget should have refused")


# -- budgets ---------------------------------------------------------------------------


def test_it_budgets_the_bytes_uploaded_from_one_address_not_the_requests(
        client: Client, budgets: Any, db: None) -> None:
    """Ten documents in one request are ten documents' bytes (the old limit counted one
    request): past the budget each is refused, naming it, and the response is a 429 with
    Retry-After; another address has its own budget."""
    documents = [bot_document(seed) for seed in range(1, 5)]
    budgets(**{"upload-bytes-visitor": f"{len(documents[0]) + len(documents[1]) + 10}/3600"})
    response = upload(client, *documents)
    assert response.status_code == 429
    assert 0 < int(response["Retry-After"]) <= 3600
    text = text_of(response.content.decode())
    assert text.count("stored – open the replay") == 2
    assert text.count("Upload budget spent: documents uploaded from one address are limited "
                      "to") == 2 and "per 1 hour. Try again in" in text
    assert Match.objects.count() == 2
    elsewhere = Client(REMOTE_ADDR="10.9.9.9")
    assert upload(elsewhere, documents[2]).status_code == 200
    assert Match.objects.count() == 3


def test_it_budgets_the_hands_checked_before_replaying_them(
        client: Client, budgets: Any, db: None, monkeypatch: pytest.MonkeyPatch) -> None:
    budgets(**{"upload-hands-visitor": "3/3600"})
    assert upload(client, bot_document(1, hands=2)).status_code == 200
    monkeypatch.setattr(services, "replay", _never_replayed)
    refused = upload(client, bot_document(2, hands=2))
    assert refused.status_code == 429 and refused["Retry-After"]
    assert ("Upload budget spent: hands checked for one address are limited to 3 hands per "
            "1 hour.") in text_of(refused.content.decode())
    assert Match.objects.count() == 1


def test_it_budgets_the_engines_cpu_time_and_then_refuses_at_the_door(
        client: Client, budgets: Any, db: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """CPU time is charged after the check (it is known then); once spent, the next upload
    is refused before any document is read."""
    budgets(**{"upload-cpu-visitor": "2/3600"})
    clock = itertools.count(step=1.5)  # each check takes 1.5 s of the engine's time
    monkeypatch.setattr(services, "cpu_clock", lambda: next(clock))
    seen: list[str] = []
    read = services.loads
    monkeypatch.setattr(services, "loads", lambda text: seen.append(text) or read(text))
    assert upload(client, bot_document(1)).status_code == 200
    assert upload(client, bot_document(2)).status_code == 200  # 1.5 s used: some left
    assert len(seen) == 2
    refused = upload(client, bot_document(3))
    assert refused.status_code == 429 and refused["Retry-After"]
    assert ("the rules engine's time for one address's uploads is limited to 2 seconds per "
            "1 hour") in text_of(refused.content.decode())
    assert len(seen) == 2 and Match.objects.count() == 2


def test_it_budgets_an_account_across_addresses(budgets: Any, bob: Any) -> None:
    budgets(**{"upload-hands-account": "2/3600"})
    for n in range(2):
        client = Client(REMOTE_ADDR=f"10.0.0.{n + 1}")
        client.force_login(bob)
        assert upload(client, bot_document(10 + n)).status_code == 200
    client = Client(REMOTE_ADDR="10.0.0.9")
    client.force_login(bob)
    refused = upload(client, bot_document(20))
    assert refused.status_code == 429
    assert "hands checked for one account are limited to 2 hands per 1 hour" in text_of(
        refused.content.decode())


def test_it_counts_an_ipv6_visitor_by_their_slash_64(budgets: Any, db: None) -> None:
    budgets(**{"upload-hands-visitor": "1/3600"})
    assert upload(Client(REMOTE_ADDR="2001:db8:1:2::1"), bot_document(1)).status_code == 200
    assert upload(Client(REMOTE_ADDR="2001:db8:1:2::99"), bot_document(2)).status_code == 429
    assert upload(Client(REMOTE_ADDR="2001:db8:1:3::1"), bot_document(3)).status_code == 200


def test_it_refuses_a_spent_budget_to_htmx_with_the_results_fragment(
        client: Client, budgets: Any, db: None) -> None:
    budgets(**{"upload-hands-visitor": "1/3600"})
    upload(client, bot_document(1))
    refused = upload(client, bot_document(2), htmx=True)
    assert refused.status_code == 429 and refused["Retry-After"]
    fragment = refused.content.decode()
    assert fragment.lstrip().startswith('<ul class="upload-result"') and "<html" not in fragment
    assert "Upload budget spent" in fragment


# -- the anonymous storage quota -------------------------------------------------------


def test_it_caps_what_anonymous_uploads_from_one_address_keep(client: Client, bob: Any) -> None:
    first, second = bot_document(1), bot_document(2)
    with override_settings(MAX_ANONYMOUS_BYTES=len(first) + 10):
        assert "stored" in text_of(upload(client, first).content.decode())
        text = text_of(upload(client, second).content.decode())
        assert ("uploads without an account from your address keep "
                f"{len(first):,} bytes; with this one they would pass the "
                f"{len(first) + 10:,} bytes they may keep: sign in to upload more") in text
        assert Match.objects.count() == 1
        assert "stored" in text_of(upload(Client(REMOTE_ADDR="10.7.7.7"), second)
                                   .content.decode())
        signed_in = Client()  # the same address, signed in: the account's own quota
        signed_in.force_login(bob)
        assert "stored" in text_of(upload(signed_in, bot_document(3)).content.decode())
    assert Match.objects.filter(owner__isnull=True).count() == 2


# -- large documents: checked by a worker, the page polls ------------------------------


@pytest.fixture
def kept_for_a_worker() -> Iterator[None]:
    """Every document is kept for a worker's check (none is small enough to check here)."""
    with override_settings(UPLOAD_SYNC_BYTES=0):
        yield


def check_of(response: Any) -> UploadCheck:
    found = re.search(r'hx-get="/upload/checks/([\w-]+)/"', response.content.decode())
    assert found, response.content.decode()[:3000]
    return UploadCheck.objects.get(public_id=found.group(1))


def test_it_checks_a_large_document_in_a_worker_task_the_page_polls(
        client: Client, db: None, kept_for_a_worker: None,
        django_capture_on_commit_callbacks: Any) -> None:
    raw = bot_document(1, hands=2)
    with django_capture_on_commit_callbacks() as sent:  # the worker hasn't run yet
        response = upload(client, raw)
    assert response.status_code == 200
    markup = response.content.decode()
    check = check_of(response)
    url = f"/upload/checks/{check.public_id}/"
    # htmx polls the line, which links to a page that works without JavaScript too
    line = re.search(r'<li class="pending"[^>]*>', markup)
    assert line and 'hx-trigger="every 2s"' in line.group(0)
    assert f'<a href="{url}">follow its check</a>' in markup
    assert "m0.json : waiting for the rules engine…" in text_of(markup)
    assert Match.objects.count() == 0 and check.status == UploadCheck.Status.QUEUED
    page = client.get(url)
    assert page.status_code == 200 and page["Cache-Control"] == "private, no-store"
    assert '<noscript><meta http-equiv="refresh" content="3"></noscript>' in page.content.decode()
    assert "waiting for the rules engine" in text_of(page.content.decode())
    for send in sent:  # the request's commit sends the task (in-process here)
        send()
    check.refresh_from_db()
    assert check.status == UploadCheck.Status.STORED and bytes(check.document) == b""
    match = Match.objects.get()
    assert bytes(match.document) == raw and match.hand_count == 2
    page = client.get(url).content.decode()
    assert "refresh" not in page
    assert "m0.json : stored – open the replay" in text_of(page)
    assert f'href="{match.get_absolute_url()}"' in page
    polled = client.get(url, headers=HTMX).content.decode()
    assert polled.lstrip().startswith('<li class="ok">') and "hx-trigger" not in polled
    match.delete()  # by its owner, later: the check's page says so
    assert "m0.json : it was stored, and has been deleted since" in text_of(
        client.get(url).content.decode())


def test_it_shows_the_engines_refusal_of_a_checked_document_in_the_readers_language(
        client: Client, db: None, kept_for_a_worker: None,
        django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = upload(client, refused_at_the_last_hand(3))
    check = check_of(response)
    assert check.status == UploadCheck.Status.REFUSED
    assert Match.objects.count() == 0 and Hand.objects.count() == 0  # nothing half-written
    english = text_of(client.get(check.get_absolute_url()).content.decode())
    assert re.search(r"the deltas \[.*\] don't match the settlement \[.*\] \(hand 2, ", english)
    chinese = text_of(client.get(check.get_absolute_url(), **ZH).content.decode())
    assert re.search(r"得失 \[.*\] 与结算 \[.*\] 不符", chinese), chinese
    assert "don't match" not in chinese


def test_the_check_is_idempotent(client: Client, db: None, kept_for_a_worker: None,
                                 django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        check = check_of(upload(client, bot_document(4)))
    stored = Match.objects.get()
    tasks.check_upload(check.pk)  # a redelivered message: nothing more happens
    tasks.check_upload(check.pk)
    check.refresh_from_db()
    assert Match.objects.get() == stored and check.status == UploadCheck.Status.STORED
    task = tasks.check_upload
    assert task.acks_late and task.max_retries and task.soft_time_limit


def test_only_the_uploader_follows_a_check(alice: Any, bob: Any, db: None,
                                           kept_for_a_worker: None) -> None:
    anonymous = Client()
    mine = check_of(upload(anonymous, bot_document(5)))
    owner = Client()
    owner.force_login(alice)
    hers = check_of(upload(owner, bot_document(6)))
    other = Client()
    other.force_login(bob)
    for check, allowed in ((mine, anonymous), (hers, owner)):
        assert allowed.get(check.get_absolute_url()).status_code == 200
        for stranger in (Client(), other):
            assert stranger.get(check.get_absolute_url()).status_code == 404


def test_a_fault_while_storing_loses_nothing_and_says_so(
        client: Client, db: None, kept_for_a_worker: None,
        django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(Hand.objects, "bulk_create", broken)
    with django_capture_on_commit_callbacks(execute=True):
        check = check_of(upload(client, bot_document(7)))
    check.refresh_from_db()
    assert check.status == UploadCheck.Status.FAILED and bytes(check.document) == b""
    assert Match.objects.count() == 0 and Hand.objects.count() == 0
    assert ("the check failed on the site's side, not because of the document; nothing was "
            "stored: upload it again") in text_of(
        client.get(check.get_absolute_url()).content.decode())


def test_a_check_that_takes_too_long_is_refused_with_a_sentence(
        client: Client, db: None, kept_for_a_worker: None,
        django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    def slow(*args: Any, **kwargs: Any) -> Any:
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(services, "replay", slow)
    with django_capture_on_commit_callbacks(execute=True):
        check = check_of(upload(client, bot_document(8)))
    check.refresh_from_db()
    assert check.status == UploadCheck.Status.REFUSED
    assert "the document took longer than 60 seconds to check" in text_of(
        client.get(check.get_absolute_url()).content.decode())
    assert Match.objects.count() == 0


def test_a_spent_budget_refuses_a_kept_document_before_the_worker_replays_it(
        client: Client, budgets: Any, db: None, kept_for_a_worker: None,
        django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker pays the hands from the uploader's budget (the cache is shared): a
    document kept while some budget was left is refused when its turn comes."""
    budgets(**{"upload-hands-visitor": "3/3600"})
    with django_capture_on_commit_callbacks() as sent:
        first = check_of(upload(client, bot_document(1, hands=2)))
        second = check_of(upload(client, bot_document(2, hands=2)))
    sent[0]()
    monkeypatch.setattr(services, "replay", _never_replayed)
    sent[1]()
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.status == UploadCheck.Status.STORED
    assert second.status == UploadCheck.Status.REFUSED
    assert "hands checked for one address are limited to 3 hands" in text_of(
        client.get(second.get_absolute_url()).content.decode())


def test_a_check_kept_while_the_broker_is_down_is_sent_by_beat(
        client: Client, db: None, kept_for_a_worker: None,
        django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    def unreachable(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("no broker")

    with monkeypatch.context() as patch:
        patch.setattr(tasks.check_upload, "delay", unreachable)
        with django_capture_on_commit_callbacks(execute=True):
            check = check_of(upload(client, bot_document(9)))
    check.refresh_from_db()
    assert check.status == UploadCheck.Status.QUEUED and check.queued_at is None
    assert "waiting for the rules engine" in text_of(
        client.get(check.get_absolute_url()).content.decode())
    assert tasks.tend_upload_checks() == {"sent": 1, "failed": 0, "deleted": 0}
    check.refresh_from_db()
    assert check.status == UploadCheck.Status.STORED and Match.objects.count() == 1
    assert tasks.tend_upload_checks() == {"sent": 0, "failed": 0, "deleted": 0}


def test_beat_fails_checks_left_open_too_long_and_deletes_old_ones(
        client: Client, db: None, kept_for_a_worker: None,
        django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        done = check_of(upload(client, bot_document(10)))
    with django_capture_on_commit_callbacks():  # never sent: as if its message was lost
        lost = check_of(upload(client, bot_document(11)))
    UploadCheck.objects.filter(pk=lost.pk).update(queued_at=timezone.now())
    long_ago = timezone.now() - dt.timedelta(hours=25)
    UploadCheck.objects.update(created_at=long_ago)
    UploadCheck.objects.filter(pk=done.pk).update(finished_at=long_ago)
    assert tasks.tend_upload_checks() == {"sent": 0, "failed": 1, "deleted": 1}
    lost.refresh_from_db()
    assert lost.status == UploadCheck.Status.FAILED and bytes(lost.document) == b""
    assert not UploadCheck.objects.filter(pk=done.pk).exists()
    assert Match.objects.count() == 1  # the stored match stays


def test_beat_sends_upload_checks_to_the_maintenance_queue(settings: Any) -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["tend-upload-checks"]
    assert entry["task"] == tasks.tend_upload_checks.name
    assert entry["options"]["queue"] == settings.CELERY_MAINTENANCE_QUEUE == "maintenance"
    assert 0 < entry["options"]["expires"] <= entry["schedule"] <= 60


# -- the bulkhead: large uploads never hold every web worker ----------------------------


def test_it_turns_away_a_large_upload_while_the_machine_takes_as_many_as_it_may(
        client: Client, db: None) -> None:
    """With ``UPLOAD_CONCURRENCY`` large bodies already being handled on this machine, one
    more is refused with 429, Retry-After and a sentence in the reader's language, its body
    read and dropped; a small upload still goes through, and so does the large one once a
    slot is free."""
    from replays.limits import UploadSlotsMiddleware

    key = UploadSlotsMiddleware(lambda request: None).key  # type: ignore[arg-type, return-value]
    raw, small = bot_document(12, hands=4), bot_document(13, hands=1)
    assert len(small) < len(raw) - 1
    with override_settings(UPLOAD_CONCURRENCY=1, UPLOAD_SYNC_BYTES=len(raw) - 1):
        caches["limits"].set(key, 1, timeout=60)  # another worker holds the only slot
        refused = upload(client, raw)
        assert refused.status_code == 429 and refused["Retry-After"] == "5"
        assert ("The site is receiving 1 large upload already, as many as it takes at once: "
                "nothing of yours was read or stored.") in text_of(refused.content.decode())
        chinese = upload(client, raw, **ZH)
        assert chinese.status_code == 429 and "large upload" not in chinese.content.decode()
        assert Match.objects.count() == 0 and caches["limits"].get(key) == 1
        assert upload(client, small).status_code == 200  # small: not counted
        caches["limits"].set(key, 0, timeout=60)
        with override_settings(UPLOAD_SYNC_BYTES=len(raw)):  # checked while it waits
            assert upload(client, raw).status_code == 200
        assert caches["limits"].get(key) == 0
    caches["limits"].delete(key)
    assert Match.objects.count() == 2


def test_check_deploy_asks_for_a_shared_limits_cache_when_workers_charge_budgets() -> None:
    from replays.checks import shared_limits_check

    with override_settings(CELERY_TASK_ALWAYS_EAGER=False, RATE_LIMIT_CACHE_URL="",
                           RATE_LIMITS_ENABLED=True):
        assert [w.id for w in shared_limits_check(None)] == ["replays.W003"]
    with override_settings(CELERY_TASK_ALWAYS_EAGER=False, RATE_LIMITS_ENABLED=True,
                           RATE_LIMIT_CACHE_URL="redis://limits.internal:6379/1"):
        assert shared_limits_check(None) == []
