"""The puzzles' answer to the annotation's news (``replays.annotation.signals``): puzzles
are made of an annotated replay that may give them (``may_harvest``), and again once a
public replay's values are done ("what to discard?" puzzles need them). Connected when
the app is ready (replays/apps.py)."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from replays.annotation.signals import annotated, valued
from replays.models import Match
from replays.puzzles import tasks
from replays.puzzles.services import may_harvest


@receiver(annotated, dispatch_uid="harvest_annotated")
def harvest_annotated(sender: Any, match_id: int, **kwargs: Any) -> None:
    match = Match.objects.defer("document").filter(pk=match_id).first()
    if match is not None and may_harvest(match):
        tasks.harvest_puzzles.delay(match_id)


@receiver(valued, dispatch_uid="harvest_valued")
def harvest_valued(sender: Any, match_id: int, **kwargs: Any) -> None:
    match = Match.objects.defer("document").filter(pk=match_id).first()
    if match is not None and match.publishable:
        tasks.harvest_puzzles.delay(match_id)
