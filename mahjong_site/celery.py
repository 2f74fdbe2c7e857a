"""The Celery app: ``celery -A mahjong_site worker`` and ``celery -A mahjong_site beat``
(exactly one beat for the whole site; see docs/deploy.md).

Without ``CELERY_BROKER_URL`` tasks run in-process, so the site needs no broker for
development (`make run`): in the web process beside the request, in a bounded pool of
threads (replays/inprocess.py), elsewhere (commands, tests) as soon as they are queued.

The periodic tasks are ``CELERY_BEAT_SCHEDULE`` in the settings (``beat_schedule`` here):
rolling the daily puzzles and putting stuck annotation jobs back on the queue
(``replays.tasks.roll_daily_puzzles`` and ``replays.tasks.requeue_stuck``: task names kept
from before the site's parts were split; the code is in replays/puzzles/tasks.py and
replays/annotation/tasks.py). Beat sends them to ``CELERY_MAINTENANCE_QUEUE``, a queue of
their own that analysis never fills (a worker for it: docs/deploy.md). The workers record when they were last seen from their
signals (replays/operations/heartbeats.py).
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong_site.settings")

# The site's task class: without a broker, a web process runs queued tasks beside the request
# (replays/inprocess.py) instead of inside it.
app = Celery("mahjong_site", task_cls="replays.inprocess:SiteTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
# The tasks live in the replays app's parts; the heartbeats module connects the worker's
# signals, so the worker imports it the same way.
app.autodiscover_tasks(["replays.annotation", "replays.puzzles", "replays.matches", "replays.play",
                        "replays.tables", "replays.recorder"])
app.autodiscover_tasks(["replays.operations"], related_name="heartbeats")
