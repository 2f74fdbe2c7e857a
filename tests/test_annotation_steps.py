"""The annotation stored per step: a step reads the annotation's small index and its one
step of decisions, never the hand's whole analysis; annotations stored before the steps are
split on first read; a choice is a mistake only where it loses something measurable, and the
panel says what and how much."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.analysis.annotation import ENGINE_VERSION
from replays.annotation.services import is_mistake, loss
from replays.matches.services import store_document
from replays.models import Annotation, AnnotationStep, Match

from .conftest import bot_document


def annotated(seed: int = 3, variant: str = "jiaxing") -> Match:
    with transaction.atomic():
        match = store_document(bot_document(seed, variant=variant, hands=1))
    match.refresh_from_db()
    assert match.annotation_status == Match.Status.DONE, match.annotation_error
    return match


def shown(annotation: Annotation) -> list[dict[str, Any]]:
    return [d for d in annotation.data["decisions"] if len(d["alternatives"]) > 1]


def test_it_stores_one_row_per_step_with_decisions(transactional_db: None) -> None:
    match = annotated()
    annotation = Annotation.objects.get(hand__match=match, engine_version=ENGINE_VERSION)
    decisions = shown(annotation)

    rows = {row.event: row.decisions for row in AnnotationStep.objects.filter(
        annotation=annotation)}
    assert sorted(rows) == sorted({d["event"] for d in decisions})
    assert sum(len(d) for d in rows.values()) == len(decisions)
    assert annotation.index == [[d["event"], d["seat"], is_mistake(d)] for d in decisions]
    assert [row["mistakes"] for row in annotation.summary] == [
        sum(1 for d in decisions if d["seat"] == seat and is_mistake(d)) for seat in range(4)]


def test_a_step_never_reads_the_whole_analysis(transactional_db: None, client: Client) -> None:
    match = annotated()
    annotation = Annotation.objects.get(hand__match=match)
    step = shown(annotation)[3]["event"] - 1

    with CaptureQueriesContext(connection) as queries:
        response = client.get(match.get_absolute_url(), {"step": step},
                              headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert 'class="decision"' in response.content.decode()
    reads = [q["sql"] for q in queries.captured_queries if "replays_annotation" in q["sql"]]
    assert reads, "the panel read no annotation"
    for sql in reads:
        assert '"replays_annotation"."data"' not in sql, sql


def test_it_splits_an_annotation_stored_before_steps_on_first_read(
        transactional_db: None, client: Client) -> None:
    match = annotated()
    annotation = Annotation.objects.get(hand__match=match)
    AnnotationStep.objects.all().delete()
    Annotation.objects.filter(pk=annotation.pk).update(index=None, summary=None)
    step = shown(annotation)[0]["event"] - 1

    response = client.get(match.get_absolute_url(), {"step": step})

    assert 'class="decision"' in response.content.decode()
    annotation.refresh_from_db()
    assert annotation.index is not None
    assert AnnotationStep.objects.filter(annotation=annotation).exists()


def alternative(rank: int, **fields: Any) -> dict[str, Any]:
    return {"rank": rank, "action": {"type": "discard", "tile": "1m"}, **fields}


@pytest.mark.parametrize(("best", "actual", "expected"), [
    (alternative(1, shanten=1, accepted_count=10), alternative(2, shanten=2, accepted_count=30),
     {"kind": "shanten", "size": 1}),
    (alternative(1, shanten=1, accepted_count=10), alternative(2, shanten=1, accepted_count=6),
     {"kind": "accepted", "size": 4, "best": 10, "actual": 6}),
    (alternative(1, win={"points": 8}), alternative(2, shanten=0, accepted_count=4),
     {"kind": "missed_win", "size": 8}),
    (alternative(1, win={"points": 8}), alternative(2, win={"points": 5}),
     {"kind": "points", "size": 3}),
    (alternative(1, shanten=0, accepted_count=4, waits=[{"score": {"points": 6}}]),
     alternative(2, shanten=0, accepted_count=4, waits=[{"score": {"points": 2}}]),
     {"kind": "wait_value", "size": 4}),
])
def test_it_measures_what_a_choice_loses(best: dict[str, Any], actual: dict[str, Any],
                                         expected: dict[str, Any]) -> None:
    assert loss({"actual": 1, "alternatives": [best, actual], "mistake": True}) == expected
    assert is_mistake({"actual": 1, "alternatives": [best, actual], "mistake": True})


def test_it_calls_nothing_a_mistake_that_loses_nothing_measurable() -> None:
    # the same shanten and acceptance, no wait value: ranked lower by a tie-break only
    decision = {"actual": 1, "mistake": True, "alternatives": [
        alternative(1, shanten=2, accepted_count=12), alternative(2, shanten=2,
                                                                  accepted_count=12)]}
    assert loss(decision) is None and not is_mistake(decision)
    decision["actual"] = 0
    assert loss(decision) is None


def test_the_panel_shows_a_mistakes_size(transactional_db: None, client: Client) -> None:
    match = annotated()
    annotation = Annotation.objects.get(hand__match=match)
    mistake = next(d for d in shown(annotation) if is_mistake(d))

    content = client.get(match.get_absolute_url(),
                         {"step": mistake["event"] - 1, "seat": mistake["seat"]}).content.decode()

    found = re.search(r'<strong class="mistake">mistake by shape</strong>: <span class="loss">([^<]+)',
                      content)
    assert found, "no mistake with its size"
    assert re.search(r"\d", found.group(1))
    assert 'href="' in content and "spoiler-free" in content


def test_it_reads_a_finished_hands_index_once_and_again_after_a_new_run(
        transactional_db: None, client: Client) -> None:
    match = annotated()
    annotation = Annotation.objects.get(hand__match=match)
    steps = [d["event"] - 1 for d in shown(annotation)][:3]

    def index_reads(step: int) -> int:
        with CaptureQueriesContext(connection) as queries:
            client.get(match.get_absolute_url(), {"step": step}, headers={"HX-Request": "true"})
        return sum(1 for q in queries.captured_queries
                   if 'FROM "replays_annotation"' in q["sql"])

    assert index_reads(steps[0]) == 1
    assert index_reads(steps[1]) == 0  # kept: the finished hand can't change in this run
    # A new run (re-annotation) may store other decisions: its index is read afresh.
    Annotation.objects.filter(pk=annotation.pk).update(index=[], summary=[])
    Match.objects.filter(pk=match.pk).update(annotation_run=match.annotation_run + 1)
    assert index_reads(steps[2]) == 1
    response = client.get(match.get_absolute_url(), {"step": steps[2]},
                          headers={"HX-Request": "true"})
    assert 'class="decision"' not in response.content.decode()


def test_it_reads_at_most_two_rows_for_a_step_once_the_hand_was_seen(
        transactional_db: None, client: Client) -> None:
    """A step of a hand already shown reads the match (only what the fragment needs: a
    deferred field read later would be one more query each) and its one stored step of
    decisions; the index, the values and the summaries are kept from the first step."""
    match = annotated()
    steps = [d["event"] - 1 for d in shown(Annotation.objects.get(hand__match=match))]
    client.get(match.get_absolute_url(), {"step": steps[0]}, headers={"HX-Request": "true"})
    for step in steps[1:4]:
        with CaptureQueriesContext(connection) as queries:
            response = client.get(match.get_absolute_url(), {"step": step},
                                  headers={"HX-Request": "true"})
        assert response.status_code == 200 and 'class="decision"' in response.content.decode()
        tables = [re.findall(r'FROM "(\w+)"', q["sql"]) for q in queries.captured_queries]
        assert tables == [["replays_match"], ["replays_annotationstep"]], tables
