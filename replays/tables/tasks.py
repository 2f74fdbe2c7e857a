"""Beat's timers of the tables (issue 28, docs/tables.md): every few seconds the deadlines
that have passed are applied (a pass, or the drawn tile discarded) and the seats
disconnected longer than the grace period are handed to the bot. Requests touching a
room apply them too; a deadline is applied once whoever gets there first
(``replays.tables.services``)."""

from __future__ import annotations

from celery import shared_task

from replays.tables import services


@shared_task(name="replays.tasks.apply_table_deadlines", ignore_result=True)
def apply_table_deadlines() -> int:
    """Apply the passed deadlines and disconnects of every room being played; returns how
    many rooms were looked at."""
    return services.expire_all()
