"""Operations: the workers' heartbeats the staff dashboard shows."""

from __future__ import annotations

from django.db import models


class WorkerHeartbeat(models.Model):
    """A Celery worker's last sign of life, written by its signals (at most every
    ``WORKER_HEARTBEAT_SECONDS``) and shown on the staff dashboard."""

    hostname = models.CharField(max_length=200, unique=True)
    started_at = models.DateTimeField(null=True, blank=True)
    last_seen = models.DateTimeField(db_index=True)
    stopped_at = models.DateTimeField(null=True, blank=True,
                                      help_text="Set when the worker shut down cleanly")
    processed = models.PositiveBigIntegerField(default=0,
                                               help_text="Tasks taken since it started")
    active = models.PositiveIntegerField(default=0, help_text="Tasks running when last seen")

    class Meta:
        ordering = ["-last_seen"]

    def __str__(self) -> str:
        return self.hostname
