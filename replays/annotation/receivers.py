"""The annotation's answer to a stored match (``replays.matches.services.match_stored``):
its first hands go to the workers. Connected when the app is ready (replays/apps.py)."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from replays.annotation import tasks
from replays.matches.services import match_stored


@receiver(match_stored, dispatch_uid="annotate_stored_match")
def annotate_stored_match(sender: Any, match_id: int, **kwargs: Any) -> bool:
    """Queue the match's annotation; False when the broker could not be reached (the
    match then waits for beat's ``send_waiting``)."""
    return tasks.queue_match(match_id)
