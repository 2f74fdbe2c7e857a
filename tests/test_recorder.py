"""/record/ without a browser: the setup, events saved once by their sequence number, and the
finish that stores the seat view as a replay of the recorder's seat (docs/recorder.md)."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from django.core.cache import caches
from django.test import override_settings
from django.utils import timezone

from games.bots.simulation import simulate
from games.records.seat_view import project
from replays.annotation.engine import annotate
from replays.models import Match, SeatRecord

pytestmark = pytest.mark.django_db


def recorded_hand(seed: int = 5, seat: int = 0) -> dict[str, Any]:
    """A bot-played Sichuan hand as the player at ``seat`` records it."""
    return project(simulate("sichuan", 1, seed), seat)


def start(client: Any, document: dict[str, Any], seat: int = 0) -> SeatRecord:
    hand = document["hands"][0]
    answer = client.post("/record/", {
        "variant": "sichuan", "seat": seat, "dealer": hand["dealer"],
        "die1": hand["dice"][0], "die2": hand["dice"][1],
        "players": ", ".join(document["players"]), "tiles": " ".join(hand["deal"][seat])})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    record = SeatRecord.objects.get()
    assert answer["Location"] == f"/record/{record.public_id}/"
    return record


def send(client: Any, record: SeatRecord, seq: int, event: dict[str, Any]) -> Any:
    return client.post(f"/record/{record.public_id}/events/", json.dumps(
        {"seq": seq, "event": event}), content_type="application/json")


def test_it_records_a_hand_and_stores_its_replay(client: Any) -> None:
    document = recorded_hand()
    record = start(client, document)
    events = document["hands"][0]["events"]
    for seq, event in enumerate(events, 1):
        sent = {**event, "hand": " ".join(event.get("hand", []))}
        answer = send(client, record, seq, sent)
        assert answer.status_code == 200, answer.content
        if seq == 3:  # a retry after a lost answer is not saved twice
            assert send(client, record, seq, sent).json() == {"ok": True, "seq": 3, "last_seq": 3}
    record.refresh_from_db()
    assert len(record.events) == len(events)
    answer = client.post(f"/record/{record.public_id}/finish/")
    assert answer.status_code == 302
    match = Match.objects.get()
    assert answer["Location"] == f"/replays/{match.public_id}/"
    assert match.uploader_seat == 0
    stored = json.loads(bytes(match.document))
    assert stored["view"] == {"seat": 0}
    assert match.hands.get().deltas == events[-1]["deltas"]  # settled as it was played
    page = client.get(f"/replays/{match.public_id}/?step=30&seat=2").content.decode()
    assert 'id="recorded-from"' in page
    assert 'data-tile="back"' in page  # the others' tiles were unseen: face down
    assert 'class="seat seat-0' in page and "is-viewer" in page  # the recorder's seat, whatever ?seat says
    analysis = annotate(match, 1)
    assert {d["seat"] for d in analysis["decisions"]} == {0}  # the recorder's decisions alone


def test_it_refuses_an_event_out_of_order_and_a_bad_one(client: Any) -> None:
    record = start(client, recorded_hand())
    assert send(client, record, 2, {"type": "discard", "actor": 0, "tile": "1m"}).status_code == 409
    refused = send(client, record, 1, {"type": "discard", "actor": 0, "tile": "?"})
    assert refused.status_code == 400 and "tile" in refused.json()["error"]
    record.refresh_from_db()
    assert record.events == [] and record.last_seq == 0


def test_it_names_the_rule_a_finished_recording_breaks(client: Any) -> None:
    document = recorded_hand()
    record = start(client, document)
    # Before the void suits are named (SC-2), nobody discards.
    wrong = {"type": "discard", "actor": 0, "tile": document["hands"][0]["deal"][0][0]}
    assert send(client, record, 1, wrong).status_code == 200
    answer = client.post(f"/record/{record.public_id}/finish/")
    assert answer.status_code == 400
    error = answer.content.decode().split('id="rec-error"')[1].split("</p>")[0]
    assert "hand 1, event 1" in error, error
    assert not Match.objects.exists()


def test_it_keeps_a_recording_to_its_recorder(client: Any, django_user_model: Any) -> None:
    record = start(client, recorded_hand())
    from django.test import Client

    other = Client()
    assert other.get(f"/record/{record.public_id}/").status_code == 404
    assert client.get(f"/record/{record.public_id}/").status_code == 200


def test_it_reads_as_chinese(client: Any) -> None:
    from .test_chinese_pages import ZH, problems_of
    from .test_site_i18n_complete import english_sentences

    document = recorded_hand()
    record = start(client, document)
    for seq, event in enumerate(document["hands"][0]["events"][:12], 1):
        assert send(client, record, seq, event).status_code == 200
    sentences = english_sentences()
    found = []
    for url in ("/record/", f"/record/{record.public_id}/"):
        page = client.get(url, **ZH).content.decode()
        assert 'lang="zh-hans"' in page
        found += problems_of(url, page, sentences)
    assert found == []


def test_it_names_the_seats_by_their_place_in_the_players_list(client: Any) -> None:
    from .test_chinese_pages import ZH

    for headers, second in (({}, "the second player listed"), (ZH, "名单中的第二位")):
        page = client.get("/record/", **headers).content.decode()
        assert f'<option value="1">{second}</option>' in page
        assert '<option value="1">1</option>' not in page  # the log's numbers mean nothing
    record = start(client, recorded_hand())
    name = recorded_hand()["players"][0]
    page = client.get(f"/record/{record.public_id}/", **ZH).content.decode()
    assert f"你在 {name} 的座位上记录。" in page


# -- limits: drafts kept, starts per address, anonymous drafts expire (docs/recorder.md) ----


def setup_of(document: dict[str, Any], seat: int = 0) -> dict[str, Any]:
    hand = document["hands"][0]
    return {"variant": "sichuan", "seat": seat, "dealer": hand["dealer"],
            "die1": hand["dice"][0], "die2": hand["dice"][1],
            "players": ", ".join(document["players"]), "tiles": " ".join(hand["deal"][seat])}


@override_settings(RECORD_MAX_OPEN=2)
def test_it_caps_the_unfinished_recordings_and_lists_them(client: Any) -> None:
    setup = setup_of(recorded_hand())
    for _ in range(2):
        assert client.post("/record/", setup).status_code == 302
    refused = client.post("/record/", setup)
    assert refused.status_code == 409
    page = refused.content.decode()
    assert "You already have 2 unfinished recordings" in page
    drafts = list(SeatRecord.objects.all())
    assert len(drafts) == 2
    for draft in drafts:  # each listed, to go on with or throw away
        assert f'href="/record/{draft.public_id}/">Sichuan 血战到底, from {draft.seat_name}\'s seat: 0 events' \
            in page.replace("&#x27;", "'")
        assert f'action="/record/{draft.public_id}/discard/"' in page
    assert client.post(f"/record/{drafts[0].public_id}/discard/").status_code == 302
    assert client.post("/record/", setup).status_code == 302  # room for one again


def test_it_discards_only_the_recorders_own_unfinished_drafts(client: Any) -> None:
    from django.test import Client

    document = recorded_hand()
    record = start(client, document)
    charlie = Client()
    assert charlie.post(f"/record/{record.public_id}/discard/").status_code == 404
    assert SeatRecord.objects.filter(pk=record.pk).exists()
    assert charlie.get("/record/").content.decode().count("/discard/") == 0
    for seq, event in enumerate(document["hands"][0]["events"], 1):
        assert send(client, record, seq, event).status_code == 200
    assert client.post(f"/record/{record.public_id}/finish/").status_code == 302
    assert client.post(f"/record/{record.public_id}/discard/").status_code == 302
    record.refresh_from_db()  # a finished recording is a replay: kept
    assert record.match is not None


def test_it_limits_the_recordings_started_from_one_address(client: Any) -> None:
    setup = setup_of(recorded_hand())
    caches["limits"].clear()
    with override_settings(RATE_LIMITS_ENABLED=True, RECORD_MAX_OPEN=10,
                           RATE_LIMITS={"record-start-visitor": "2/3600"}):
        assert client.post("/record/", {**setup, "tiles": "1m"}).status_code == 400  # refunded
        for _ in range(2):
            assert client.post("/record/", setup).status_code == 302
        refused = client.post("/record/", setup)
    caches["limits"].clear()
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "starting recordings from one address" in refused.content.decode()
    assert SeatRecord.objects.count() == 2


@override_settings(RECORD_MAX_OPEN=10, RECORD_ANONYMOUS_EXPIRE_HOURS=48)
def test_beat_expires_stale_anonymous_drafts_in_batches(client: Any, django_user_model: Any
                                                        ) -> None:
    from django.test import Client

    from replays.recorder import tasks

    document = recorded_hand()
    stale = [start_another(client, document) for _ in range(3)]
    fresh = start_another(client, document)
    finished = start_another(client, document)
    for seq, event in enumerate(document["hands"][0]["events"], 1):
        send(client, finished, seq, event)
    assert client.post(f"/record/{finished.public_id}/finish/").status_code == 302
    alice = Client()
    alice.force_login(django_user_model.objects.create_user("alice"))
    hers = start_another(alice, document)
    for record in (*stale, finished, hers):
        SeatRecord.objects.filter(pk=record.pk).update(
            updated_at=timezone.now() - dt.timedelta(hours=49))
    SeatRecord.objects.filter(pk=fresh.pk).update(
        updated_at=timezone.now() - dt.timedelta(hours=47))
    assert tasks.expire_stale_recordings(batch=2) == 3  # two batches
    left = set(SeatRecord.objects.values_list("pk", flat=True))
    assert left == {fresh.pk, finished.pk, hers.pk}
    assert tasks.expire_stale_recordings() == 0  # idempotent


def test_beat_runs_the_drafts_expiry_on_the_maintenance_queue(settings: Any) -> None:
    from replays.recorder import tasks

    entry = settings.CELERY_BEAT_SCHEDULE["expire-stale-recordings"]
    assert entry["task"] == tasks.expire_stale_recordings.name
    assert entry["options"]["queue"] == settings.CELERY_MAINTENANCE_QUEUE
    assert tasks.expire_stale_recordings.acks_late


def start_another(client: Any, document: dict[str, Any]) -> SeatRecord:
    answer = client.post("/record/", setup_of(document))
    assert answer.status_code == 302
    return SeatRecord.objects.get(public_id=answer["Location"].split("/")[2])
