"""The lookups a replay step makes on every request are compiled once (replays/prepared.py)
and give exactly what the ORM gives: the same fields, converted the same way, as one counted
query; a step of a missing or hidden match is still a 404."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from replays.matches.services import STEP_FIELDS
from replays.models import Annotation, AnnotationStep, Match
from replays.prepared import Prepared


def by_public_id() -> Prepared[Match]:
    return Prepared(lambda public_id: Match.objects.only(*STEP_FIELDS).filter(
        public_id=public_id).order_by(), "sample-id")


def fields_of(match: Match) -> dict[str, Any]:
    return {name: getattr(match, name if name != "owner" else "owner_id")
            for name in ("pk", *STEP_FIELDS)}


def test_it_reads_what_the_orm_reads(make_match: Any, alice: Any) -> None:
    stored = make_match(alice, visibility="unlisted", hands=2)
    lookup = by_public_id()

    found = lookup.first(stored.public_id)
    again = lookup.first(stored.public_id)  # the compiled plan, reused

    expected = Match.objects.only(*STEP_FIELDS).get(public_id=stored.public_id)
    assert found is not None and again is not None
    assert fields_of(found) == fields_of(again) == fields_of(expected)
    assert isinstance(found.players, list) and len(found.players) == 4  # JSON decoded
    assert found.get_deferred_fields() == expected.get_deferred_fields()
    assert found._state.adding is False and found._state.db == "default"


def test_it_gives_none_for_no_row(db: None) -> None:
    assert by_public_id().first("no-such-id") is None


def test_it_runs_one_counted_query(make_match: Any) -> None:
    stored = make_match()
    lookup = by_public_id()
    lookup.first(stored.public_id)

    with CaptureQueriesContext(connection) as queries:
        lookup.first(stored.public_id)
    assert len(queries.captured_queries) == 1
    assert stored.public_id in queries.captured_queries[0]["sql"]


def test_it_reads_a_stored_step_of_decisions(make_match: Any,
                                             django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):  # annotated in-process
        stored = make_match(variant="jiaxing")
    step = AnnotationStep.objects.filter(annotation__hand__match=stored).first()
    assert step is not None
    lookup = Prepared(lambda annotation, event: AnnotationStep.objects.filter(
        annotation_id=annotation, event=event).only("decisions"), 1_000_000_001, 1_000_000_002)

    found = lookup.first(step.annotation_id, step.event)

    assert found is not None and found.decisions == step.decisions
    assert lookup.first(step.annotation_id, 10_000) is None
    assert Annotation.objects.filter(pk=step.annotation_id).exists()


def test_it_refuses_a_sample_it_cannot_place(db: None) -> None:
    twice = Prepared(lambda a, b: Match.objects.filter(public_id=a, sha256=b), "same", "same")
    with pytest.raises(ValueError, match="found 2 times"):
        twice.first("x", "y")
    absent = Prepared(lambda a: Match.objects.filter(hand_count=a), 2_000_000_000_000)
    with pytest.raises(ValueError, match="compiles to no query"):
        absent.first(1)


def test_it_answers_404_for_a_step_of_a_match_charlie_may_not_see(
        make_match: Any, alice: Any, client: Client) -> None:
    private = make_match(alice, visibility="private")
    hx = {"HX-Request": "true"}
    assert client.get(private.get_absolute_url(), {"step": 1}, headers=hx).status_code == 404
    assert client.get("/replays/nosuchid000/", {"step": 1}, headers=hx).status_code == 404
    client.force_login(alice)
    assert client.get(private.get_absolute_url(), {"step": 1}, headers=hx).status_code == 200
