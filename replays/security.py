"""Response headers every page gets, and the ones pages that must not be shared get
(docs/deploy.md).

``Content-Security-Policy`` comes from the ``CONTENT_SECURITY_POLICY`` setting: the site's
pages load scripts and styles from its own files only, so an injected ``<script>`` or
``onclick=`` would not run. ``Permissions-Policy`` (the ``PERMISSIONS_POLICY`` setting)
turns off the browser features the site never uses (camera, microphone, location, payment…),
for its pages and anything framed or injected into them. The middleware comes first, so
every response gets both: static files, redirects and refusals made before any view too.

Private replays and their pages and downloads are marked ``Cache-Control: private`` (no
shared cache keeps them); unlisted ones ``noindex``.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control

from replays.models import Match

ROBOTS_HEADER = "X-Robots-Tag"


class SecurityHeadersMiddleware:
    """Adds the Content Security Policy and the Permissions Policy to every response that
    has none yet."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        policy = settings.CONTENT_SECURITY_POLICY
        if policy and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = policy
        features = settings.PERMISSIONS_POLICY
        if features and "Permissions-Policy" not in response:
            response["Permissions-Policy"] = features
        return response


def mark_not_shared(response: HttpResponse, match: Match) -> HttpResponse:
    """A private or hidden match's page is for one person: no shared cache may keep it;
    an unlisted match's page is for whoever has the link: no search engine lists it."""
    if match.visibility == Match.Visibility.PRIVATE or match.hidden:
        patch_cache_control(response, private=True, no_store=True)
    if match.visibility != Match.Visibility.PUBLIC or match.hidden:
        response[ROBOTS_HEADER] = "noindex, nofollow"
    return response
