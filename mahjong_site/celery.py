"""The Celery app: ``celery -A mahjong_site worker`` (see docs/deploy.md).

Without ``CELERY_BROKER_URL`` tasks run in-process as soon as they are queued,
so the site needs no broker for development (`make run`).
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong_site.settings")

app = Celery("mahjong_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
