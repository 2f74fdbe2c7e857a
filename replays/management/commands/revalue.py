"""``manage.py revalue``: value again every match whose values are by an older value model.

A new ``VALUE_MODEL_VERSION`` (or engine version) leaves a match's stored values in place
but no longer shown: the viewer reads only the current version's rows, so a match valued
before shows no values until they are computed again. This queues them, as the owner's
button would (the same seats and hands as before, a window at a time); run it once after
deploying a new value model, in chunks if need be (it can be stopped and started again).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.db.models import Exists, OuterRef, Q

from games.analysis.annotation import ENGINE_VERSION
from games.analysis.value_pass import VALUE_MODEL_VERSION
from replays.annotation.values import queue_values
from replays.models import HandValues, Match


def stale_matches() -> Any:
    """Matches whose values are done by an older engine or value model (none current)."""
    rows = HandValues.objects.filter(hand__match=OuterRef("pk"))
    current = rows.filter(engine_version=ENGINE_VERSION, value_version=VALUE_MODEL_VERSION)
    stale = rows.filter(~Q(engine_version=ENGINE_VERSION) | ~Q(value_version=VALUE_MODEL_VERSION))
    return (Match.objects.filter(values_status=Match.Status.DONE)
            .filter(Exists(stale)).exclude(Exists(current)).order_by("pk"))


class Command(BaseCommand):
    help = "Queue the values of matches valued by an older value model or engine version."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--limit", type=int, default=0, help="stop after this many matches")

    def handle(self, *args: Any, **options: Any) -> None:
        matches = tasks = 0
        for match_id in list(stale_matches().values_list("pk", flat=True)):
            tasks += queue_values(match_id)
            matches += 1
            if options["limit"] and matches >= options["limit"]:
                break
        self.stdout.write(f"{matches} matches queued ({tasks} tasks sent now) for value model "
                          f"{VALUE_MODEL_VERSION}.")
