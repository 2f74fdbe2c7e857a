"""The Celery app: ``celery -A mahjong_site worker`` and ``celery -A mahjong_site beat``
(exactly one beat for the whole site; see docs/deploy.md).

Without ``CELERY_BROKER_URL`` tasks run in-process as soon as they are queued,
so the site needs no broker for development (`make run`).

The periodic tasks are ``CELERY_BEAT_SCHEDULE`` in the settings (``beat_schedule`` here):
rolling the daily puzzles and putting stuck annotation jobs back on the queue
(``replays.tasks.roll_daily_puzzles`` and ``replays.tasks.requeue_stuck``). The workers
record when they were last seen from their signals (``replays.tasks.worker_seen``).
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong_site.settings")

app = Celery("mahjong_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
