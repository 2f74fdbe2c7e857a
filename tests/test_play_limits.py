"""Play's limits (issue 24, item 3): unfinished matches per visitor are capped, starts are
rate-limited per address and per account, a match the player leaves is neither kept nor
analysed unless its signed-in owner asks, and beat expires stale anonymous matches. Each
refusal names the limit (429 with Retry-After for a rate, 409 for the cap) as a page, as
the start form's fragment for htmx and as JSON, and starts nothing.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import caches
from django.test import Client, override_settings
from django.utils import timezone

from replays.annotation import tasks as annotation_tasks
from replays.models import Match, PlayedMatch
from replays.play import tasks

from .test_play_leave import keep, leave
from .test_play_site import start
from .test_puzzle_site import text_of

pytestmark = [pytest.mark.django_db,
              pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]
# Sichuan: every player names a void suit first, so the bots never end a match before
# the player's first decision (it is open once started).
FORM = {"variant": "sichuan", "seat": "0", "hands": 2, "speed": 0}
JSON_CALLER = {"HTTP_ACCEPT": "application/json"}
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def starts_limited() -> Iterator[None]:
    """Rate limits on, with 2 starts an hour per address and 3 per account."""
    caches["limits"].clear()
    with override_settings(RATE_LIMITS_ENABLED=True, RATE_LIMITS={
            "play-start-visitor": "2/3600", "play-start-account": "3/3600"}):
        yield
    caches["limits"].clear()


def open_matches(**owner: Any) -> int:
    return PlayedMatch.objects.filter(over=False, **owner).count()


@override_settings(PLAY_MAX_OPEN_MATCHES=2)
def test_it_caps_the_matches_a_visitor_has_in_progress(client: Client) -> None:
    first = start(client, "putian")
    start(client, "putian")
    count = PlayedMatch.objects.count()
    for caller, check in ((client.post, "page"), (client.post, "htmx"), (client.post, "json")):
        extra = HTMX if check == "htmx" else JSON_CALLER if check == "json" else {}
        refused = caller("/play/", FORM, **extra)
        assert refused.status_code == 409
        sentence = ("You have 2 matches in progress, and one player may have at most 2: "
                    "finish or leave one of them first.")
        if check == "json":
            assert refused.json() == {"error": {"rule": None, "message": sentence}}
        else:
            markup = refused.content.decode()
            assert sentence in text_of(markup)
            assert ("<html" in markup) == (check == "page")
            if check == "htmx":
                assert markup.lstrip().startswith('<div id="play-start">')
    assert PlayedMatch.objects.count() == count  # nothing started
    assert leave(client, first).status_code == 302
    start(client, "putian")  # one left: room for another


@override_settings(PLAY_MAX_OPEN_MATCHES=1)
def test_the_cap_counts_each_visitor_and_account_apart(client: Client, alice: Any) -> None:
    start(client, "putian")
    signed_in = Client()
    signed_in.force_login(alice)
    start(signed_in, "putian")
    assert Client().post("/play/", FORM).status_code == 302  # another browser's session
    assert client.post("/play/", FORM).status_code == 409
    assert signed_in.post("/play/", FORM).status_code == 409


@override_settings(PLAY_MAX_OPEN_MATCHES=100)
def test_it_limits_starts_per_address(client: Client, starts_limited: None) -> None:
    for _ in range(2):
        assert client.post("/play/", FORM).status_code == 302
    count = PlayedMatch.objects.count()
    refused = client.post("/play/", FORM)
    assert refused.status_code == 429 and 0 < int(refused["Retry-After"]) <= 3600
    assert ("Too many requests: starting matches from one address is limited to 2 per 1 "
            "hour.") in text_of(refused.content.decode())
    as_json = client.post("/play/", FORM, **JSON_CALLER)
    assert as_json.status_code == 429 and as_json["Retry-After"]
    assert as_json.json()["error"]["message"].startswith(
        "Too many requests: starting matches from one address is limited to 2 per 1 hour.")
    fragment = client.post("/play/", FORM, **HTMX)
    assert fragment.status_code == 429
    assert fragment.content.decode().lstrip().startswith('<div id="play-start">')
    assert PlayedMatch.objects.count() == count
    assert Client(REMOTE_ADDR="10.3.3.3").post("/play/", FORM).status_code == 302


@override_settings(PLAY_MAX_OPEN_MATCHES=100)
def test_it_limits_starts_per_account_across_addresses(starts_limited: None, bob: Any) -> None:
    for n in range(3):
        client = Client(REMOTE_ADDR=f"10.4.0.{n}")
        client.force_login(bob)
        assert client.post("/play/", FORM).status_code == 302
    client = Client(REMOTE_ADDR="10.4.0.9")
    client.force_login(bob)
    refused = client.post("/play/", FORM)
    assert refused.status_code == 429
    assert "starting matches from one account is limited to 3 per 1 hour" in text_of(
        refused.content.decode())


@override_settings(PLAY_MAX_OPEN_MATCHES=1)
def test_a_start_refused_for_its_form_or_the_cap_is_not_counted(
        client: Client, starts_limited: None) -> None:
    for _ in range(3):
        assert client.post("/play/", {**FORM, "hands": 0}).status_code == 400
    assert client.post("/play/", FORM).status_code == 302
    assert client.post("/play/", FORM).status_code == 409  # the cap: not a start either
    PlayedMatch.objects.update(over=True)
    assert client.post("/play/", FORM).status_code == 302  # the second start of the hour


def test_a_left_match_is_neither_kept_nor_analysed_unless_its_owner_asks(
        client: Client, alice: Any, monkeypatch: pytest.MonkeyPatch,
        django_capture_on_commit_callbacks: Any) -> None:
    """Start-and-leave used to store a replay and queue its annotation (and values) every
    time: a free way round the upload limits."""
    queued: list[int] = []
    monkeypatch.setattr(annotation_tasks, "queue_match", lambda pk: queued.append(pk) or True)

    def stored_and_queued() -> tuple[int, list[int]]:
        """Replays of left matches, and annotations queued but those of matches the bots
        ended before the player's first move (``start`` sets them aside: they are
        finished, and so stored and analysed)."""
        ended_by_bots = set(PlayedMatch.objects.filter(over=True, left=False).values_list(
            "replay_id", flat=True))
        return (Match.objects.exclude(pk__in=ended_by_bots).count(),
                [pk for pk in queued if pk not in ended_by_bots])

    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            pid = start(client, "putian")
            assert leave(client, pid).status_code == 302
    assert stored_and_queued() == (0, [])
    assert PlayedMatch.objects.filter(left=True, replay__isnull=True).count() == 3
    owner = Client()
    owner.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        pid = start(owner, "putian")
        leave(owner, pid)
    page = text_of(owner.get(f"/play/{pid}/").content.decode())
    assert "Keep and analyse this match" in page
    assert stored_and_queued() == (0, [])
    with django_capture_on_commit_callbacks(execute=True):
        response = keep(owner, pid)
    assert response.status_code == 302
    replay = PlayedMatch.objects.get(public_id=pid).replay
    assert replay is not None and replay.owner == alice
    assert replay.visibility == Match.Visibility.PRIVATE
    assert stored_and_queued() == (1, [replay.pk])
    assert keep(owner, pid).status_code == 302  # asking twice stores it once
    assert stored_and_queued() == (1, [replay.pk])
    assert "Review my decisions" in owner.get(f"/play/{pid}/").content.decode()


def test_asking_to_keep_a_left_match_is_paid_from_the_upload_budgets(alice: Any) -> None:
    owner = Client()
    owner.force_login(alice)
    pid = start(owner, "putian")
    leave(owner, pid)
    caches["limits"].clear()
    budgets = {"upload-bytes-visitor": "1/3600", "upload-bytes-account": "100000000/3600",
               "upload-hands-visitor": "100/3600", "upload-hands-account": "100/3600",
               "upload-cpu-visitor": "100/3600", "upload-cpu-account": "100/3600"}
    with override_settings(RATE_LIMITS_ENABLED=True, UPLOAD_BUDGETS=budgets):
        refused = keep(owner, pid)
        as_json = owner.post(f"/play/{pid}/keep", json.dumps({}),
                             content_type="application/json")
    caches["limits"].clear()
    assert refused.status_code == 429 and refused["Retry-After"]
    assert ("Upload budget spent: documents uploaded from one address are limited to 1 byte "
            "per 1 hour.") in text_of(refused.content.decode())
    assert as_json.status_code == 429 and "Upload budget spent" in as_json.json()["error"][
        "message"]
    assert PlayedMatch.objects.get(public_id=pid).replay is None


def test_only_a_left_match_waits_to_be_kept(client: Client, alice: Any) -> None:
    client.force_login(alice)
    pid = start(client, "putian")
    refused = keep(client, pid)
    assert refused.status_code == 409
    assert "Only a match you left waits to be kept" in text_of(refused.content.decode())
    other = Client()
    assert keep(other, pid).status_code == 404


# -- beat: stale anonymous matches expire ------------------------------------------------


def aged(pid: str, hours: float) -> None:
    PlayedMatch.objects.filter(public_id=pid).update(
        updated_at=timezone.now() - dt.timedelta(hours=hours))


@override_settings(PLAY_MAX_OPEN_MATCHES=10, PLAY_ANONYMOUS_EXPIRE_HOURS=48)
def test_beat_expires_stale_anonymous_matches_in_batches(client: Client, alice: Any) -> None:
    stale = [start(client, "putian") for _ in range(3)]
    fresh = start(client, "putian")
    finished = start(client, "putian")
    leave(client, finished)
    signed_in = Client()
    signed_in.force_login(alice)
    hers = start(signed_in, "putian")
    for pid in (*stale, finished, hers):
        aged(pid, 49)
    aged(fresh, 47)
    before = set(PlayedMatch.objects.values_list("public_id", flat=True))
    assert tasks.expire_stale_matches(batch=2) == 3  # two batches
    left = set(PlayedMatch.objects.values_list("public_id", flat=True))
    assert left == before - set(stale) and {fresh, finished, hers} <= left
    assert tasks.expire_stale_matches() == 0  # idempotent
    assert client.get(f"/play/{stale[0]}/").status_code == 404


def test_beat_runs_the_expiry_on_the_maintenance_queue(settings: Any) -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["expire-stale-play"]
    assert entry["task"] == tasks.expire_stale_matches.name
    assert entry["options"]["queue"] == settings.CELERY_MAINTENANCE_QUEUE
    assert 0 < entry["options"]["expires"] <= entry["schedule"]
    assert tasks.expire_stale_matches.acks_late
