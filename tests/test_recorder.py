"""/record/ without a browser: the setup, events saved once by their sequence number, and the
finish that stores the seat view as a replay of the recorder's seat (docs/recorder.md)."""

from __future__ import annotations

import json
from typing import Any

import pytest

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
