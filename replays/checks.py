"""The site's own ``manage.py check --deploy`` checks (docs/deploy.md)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Tags, Warning, register


@register(Tags.security, deploy=True)
def visibility_timeout_check(app_configs: Any, **kwargs: Any) -> list[Warning]:
    """A killed worker's hands come back after the visibility timeout: it must be above the
    hard time limit (or a hand still running is handed out twice) and within minutes."""
    timeout, limit = settings.CELERY_VISIBILITY_TIMEOUT, settings.CELERY_TASK_TIME_LIMIT
    if timeout <= limit:
        return [Warning(
            f"CELERY_VISIBILITY_TIMEOUT ({timeout} s) is not above CELERY_TIME_LIMIT "
            f"({limit} s): a hand still running would be handed to a second worker.",
            id="replays.W001")]
    if timeout > limit + 600:
        return [Warning(
            f"CELERY_VISIBILITY_TIMEOUT ({timeout} s) is far above CELERY_TIME_LIMIT "
            f"({limit} s): a killed worker's hands would wait that long to come back.",
            id="replays.W002")]
    return []


@register(Tags.security, deploy=True)
def shared_limits_check(app_configs: Any, **kwargs: Any) -> list[Warning]:
    """With workers (a broker), the limits must be counted where every process sees them:
    the workers charge the engine's time of the uploads they check to the budgets the web
    machines look at (issue 24)."""
    if (settings.CELERY_TASK_ALWAYS_EAGER or settings.RATE_LIMIT_CACHE_URL
            or not settings.RATE_LIMITS_ENABLED):
        return []
    return [Warning(
        "RATE_LIMIT_CACHE_URL is not set while Celery workers run the tasks: each process "
        "counts the rate limits, upload budgets and upload slots alone, and the engine time "
        "the workers charge never reaches the web machines that admit uploads.",
        id="replays.W003")]
