"""The values pass with real workers on Redis (issue 17): the upload's annotation, then a
task per hand and seat fanned out to two workers on a private queue, counted to done; the
rows are the ones the in-process pass writes (same seeds, same numbers)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import override_settings

from games.analysis.annotation import ENGINE_VERSION
from games.analysis.value_pass import VALUE_MODEL_VERSION
from replays.annotation.values import compute, queue_values
from replays.matches import services
from replays.models import Hand, HandValues, Match

from .conftest import wait_for
from .test_annotation_tasks import (  # noqa: F401 - fixtures
    Workers,
    broker_url,
    document,
    private_workers,
    redis_client,
)

SAMPLES = {"VALUES_SOLO_SAMPLES": "30", "VALUES_TABLE_SAMPLES": "4"}


@pytest.fixture
def value_workers(transactional_db: None, broker_url: str, redis_client: Any,  # noqa: F811
                  tmp_path: Path) -> Iterator[Workers]:
    if connection.vendor != "postgresql":
        pytest.skip("a worker process cannot share this test database")
    with private_workers("valuetest", ("replays.tasks.annotate_hand",
                                       "replays.tasks.value_hand",
                                       "replays.tasks.harvest_puzzles"),
                         broker_url, redis_client, tmp_path) as group:
        yield group


def test_it_fans_the_values_out_to_two_workers_and_counts_them_done(
        value_workers: Workers) -> None:
    env = {**SAMPLES, "VALUES_AFTER_ANNOTATION": "true"}
    first, second = value_workers.start(**env), value_workers.start(**env)
    with transaction.atomic():
        match = services.store_document(document(51, hands=3), uploader_seat=2)

    def valued() -> bool:
        value_workers.check_alive(first)
        value_workers.check_alive(second)
        return Match.objects.get(pk=match.pk).values_status in (Match.Status.DONE,
                                                                Match.Status.FAILED)

    wait_for(valued, 240, "the workers to value the match", value_workers.logs)
    match.refresh_from_db()
    assert match.values_status == Match.Status.DONE, match.values_error
    assert match.values_seats == [2]
    rows = HandValues.objects.filter(hand__match=match, engine_version=ENGINE_VERSION,
                                     value_version=VALUE_MODEL_VERSION)
    assert sorted(rows.values_list("hand__number", "seat")) == [(1, 2), (2, 2), (3, 2)]
    # Each row is what the pass computes in-process: the seeds are the hand's own.
    with override_settings(VALUES_SOLO_SAMPLES=30, VALUES_TABLE_SAMPLES=4):
        hand = Hand.objects.get(match=match, number=2)
        assert compute(match, hand, 2)["decisions"] == rows.get(hand=hand).data

    # Asked again for the same seat, nothing is sent and nothing changes.
    before = dict(rows.values_list("pk", "created_at"))
    assert queue_values(match.pk, [2]) == 0
    assert dict(rows.values_list("pk", "created_at")) == before
