"""One synchronous middleware chain under an ASGI server (docs/deploy.md, docs/tables.md).

Django runs a middleware that can be both synchronous and asynchronous (its own, through
``MiddlewareMixin``) in the mode of the handler below it. Under daphne the innermost
handler is asynchronous, so with an async-capable middleware last every such middleware
runs asynchronously, and each of its ``process_request`` and ``process_response`` is sent
to the request's thread and back (``sync_to_async``): a score of thread hops per request,
each waiting for the event loop's turn on a busy machine. This middleware, synchronous
only and last in ``MIDDLEWARE``, makes the whole chain synchronous: it runs on the
request's thread in one go, with one hop in, one to the URL resolver and back for the
view. Under WSGI (gunicorn, the tests' client) everything is synchronous anyway; it only
passes the request on.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse


class SyncChainMiddleware:
    sync_capable = True
    async_capable = False

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)
