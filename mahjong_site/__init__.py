"""The Django project; the Celery app is loaded with it so tasks can be queued."""

from mahjong_site.celery import app as celery_app

__all__ = ("celery_app",)
