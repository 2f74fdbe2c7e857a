"""WSGI entry point: ``gunicorn mahjong_site.wsgi`` (see docs/deploy.md), and the one
``manage.py runserver`` serves (``make run``).

Without a broker, tasks queued by a request run beside it, in the web process's bounded pool
(replays/inprocess.py), instead of inside it.
"""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong_site.settings")
application = get_wsgi_application()

from replays.inprocess import run_beside_requests  # noqa: E402 - needs the settings

run_beside_requests()
