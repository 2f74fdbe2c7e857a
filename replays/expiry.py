"""Deleting what nobody came back to, a bounded amount at a time (beat's upkeep tasks).

:func:`delete_in_batches` deletes the rows a query selects, ``batch`` at a time, each
batch its own transaction, at most ``batches`` times a run (the rest waits for the next
run, so one run's work is bounded). The query is asked again as the rows are deleted, so a
row touched meanwhile (no longer selected) is kept.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.db.models import QuerySet


def delete_in_batches(selected: Callable[[], QuerySet[Any]], batch: int, batches: int) -> int:
    """Delete what ``selected()`` selects, oldest touched first; how many rows went (the
    model's own, not its cascades)."""
    deleted = 0
    label = selected().model._meta.label
    for _round in range(batches):
        with transaction.atomic():
            ids = list(selected().order_by("updated_at", "pk").values_list("pk", flat=True)
                       [:batch])
            if not ids:
                break
            deleted += selected().filter(pk__in=ids).delete()[1].get(label, 0)
        if len(ids) < batch:
            break
    return deleted
