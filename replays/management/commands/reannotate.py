"""``manage.py reannotate``: annotate again every hand last annotated by an older engine.

Works in chunks and can be stopped and started again: each run picks the hands
that still lack an annotation by the current engine version.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.analysis.annotation import ENGINE_VERSION
from replays.annotation.tasks import annotate_hand
from replays.models import Hand, Match


class Command(BaseCommand):
    help = "Queue hands whose annotation is missing or from an older engine version."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--chunk", type=int, default=500, help="hands queued per chunk")
        parser.add_argument("--limit", type=int, default=0, help="stop after this many hands")

    def handle(self, *args: Any, **options: Any) -> None:
        queued = 0
        last_id = 0
        while True:
            hands = list(Hand.objects.filter(pk__gt=last_id).exclude(
                annotations__engine_version=ENGINE_VERSION).order_by("pk").values_list(
                "pk", "match_id")[: options["chunk"]])
            if not hands:
                break
            if options["limit"]:
                hands = hands[: options["limit"] - queued]
            # Only the matches whose hands are queued now are marked queued.
            Match.objects.filter(pk__in={m for _, m in hands}).update(
                annotation_status=Match.Status.QUEUED, annotation_error="")
            for hand_id, _ in hands:
                annotate_hand.delay(hand_id)
                queued += 1
                last_id = hand_id
            if options["limit"] and queued >= options["limit"]:
                self.stdout.write(f"{queued} hands queued (limit reached).")
                return
            self.stdout.write(f"{queued} hands queued so far…")
        self.stdout.write(f"{queued} hands queued for engine version {ENGINE_VERSION}.")
