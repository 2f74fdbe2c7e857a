"""Annotation on Celery: one task per hand, taking primary keys (docs/analysis.md).

Tasks are idempotent — one annotation per hand and engine version, replaced
atomically when rerun — acknowledged late (a worker killed mid-hand leaves the
message for another), retried with backoff, and limited in time.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import transaction

from games.analysis import ENGINE_VERSION, analyze_hand
from games.table import TABLES
from replays.board import replayed_match
from replays.models import Annotation, Hand, Match

log = logging.getLogger(__name__)

MAX_RETRIES = 3


def queue_match(match_id: int) -> None:
    """Queue every hand of a match (call after the upload commits)."""
    Match.objects.filter(pk=match_id).update(annotation_status=Match.Status.QUEUED,
                                             annotation_error="")
    for hand_id in Hand.objects.filter(match_id=match_id).values_list("pk", flat=True):
        annotate_hand.delay(hand_id)


@shared_task(bind=True, acks_late=True, ignore_result=True, max_retries=MAX_RETRIES)
def annotate_hand(self, hand_id: int) -> None:  # type: ignore[no-untyped-def]
    """Annotate one hand (by primary key); safe to run twice.

    Time limits come from the settings (CELERY_TASK_SOFT_TIME_LIMIT / _TIME_LIMIT).
    """
    hand = Hand.objects.select_related("match").filter(pk=hand_id).first()
    if hand is None:
        return  # deleted since it was queued
    match = hand.match
    Match.objects.filter(pk=match.pk, annotation_status=Match.Status.QUEUED).update(
        annotation_status=Match.Status.RUNNING)
    try:
        data = annotate(match, hand.number)
    except Exception as error:  # noqa: BLE001 - any failure is retried, then recorded
        if self.request.retries < MAX_RETRIES and not self.request.is_eager:
            raise self.retry(exc=error, countdown=2 ** self.request.retries) from error
        log.exception("annotating hand %s failed", hand_id)
        Match.objects.filter(pk=match.pk).update(
            annotation_status=Match.Status.FAILED,
            annotation_error=f"hand {hand.number}: {type(error).__name__}: {error}"[:2000])
        return
    with transaction.atomic():
        # Lock the match so that tasks finishing its last hands together count in turn.
        Match.objects.select_for_update().filter(pk=match.pk).first()
        Annotation.objects.update_or_create(hand=hand, engine_version=ENGINE_VERSION,
                                            defaults={"data": data})
        done = Annotation.objects.filter(hand__match=match,
                                         engine_version=ENGINE_VERSION).count()
        if done >= match.hand_count:
            finished = Match.objects.filter(pk=match.pk).exclude(
                annotation_status__in=[Match.Status.FAILED, Match.Status.DONE]).update(
                annotation_status=Match.Status.DONE)
            if finished and match.visibility == Match.Visibility.PUBLIC:
                transaction.on_commit(lambda: harvest_puzzles.delay(match.pk))


@shared_task(bind=True, acks_late=True, ignore_result=True, max_retries=MAX_RETRIES)
def harvest_puzzles(self, match_id: int) -> None:  # type: ignore[no-untyped-def]
    """Turn an annotated public replay's ready hands into puzzles (idempotent: one
    puzzle per replay spot)."""
    from replays.puzzles import harvest

    match = Match.objects.filter(pk=match_id, visibility=Match.Visibility.PUBLIC,
                                 hidden=False).first()
    if match is None:
        return
    try:
        harvest(match)
    except Exception as error:  # noqa: BLE001 - retried, then logged; puzzles are optional
        if self.request.retries < MAX_RETRIES and not self.request.is_eager:
            raise self.retry(exc=error, countdown=2 ** self.request.retries) from error
        log.exception("harvesting puzzles from match %s failed", match_id)


def annotate(match: Match, number: int) -> dict[str, object]:
    """The analysis of one stored hand, as JSON."""
    data = replayed_match(match)
    table = TABLES[data.match.variant](data.setups[number - 1])
    return analyze_hand(table, data.match.hands[number - 1].events, number).to_json()


def progress(match: Match) -> tuple[int, int]:
    """Hands annotated by the current engine, and hands in all."""
    done = Annotation.objects.filter(hand__match=match, engine_version=ENGINE_VERSION).count()
    return done, match.hand_count
