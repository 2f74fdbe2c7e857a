"""ASGI entry point: ``daphne mahjong_site.asgi:application`` (docs/deploy.md), and the one
``manage.py runserver`` serves (``make run``, daphne's runserver): HTTP as the WSGI
application serves it, and the tables' WebSockets at ``/tables/<id>/ws`` (docs/tables.md),
authenticated by the session as pages are.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong_site.settings")
# Each request's database work runs on a thread of its own here: a connection kept open
# past its request would never be reused, only pile up (DATABASE_POOL_SIZE shares them).
os.environ.setdefault("DATABASE_CONN_MAX_AGE", "0")
http = get_asgi_application()  # first: it sets Django up before the consumers are imported

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from replays.inprocess import run_beside_requests  # noqa: E402
from replays.ledger.routing import websocket_urlpatterns as ledger_sockets  # noqa: E402
from replays.tables.routing import websocket_urlpatterns as table_sockets  # noqa: E402

application = ProtocolTypeRouter({
    "http": http,
    "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(table_sockets + ledger_sockets))),
})

run_beside_requests()
