"""Launch settings and headers (issue 16, findings 5 and 10).

No SECRET_KEY with DEBUG off stops the site; HSTS, the SSL redirect and the proxy header
are settings, and ``manage.py check --deploy`` with the production settings documented in
docs/deploy.md prints no warning; every page carries a Content Security Policy that its
templates pass (no inline script, handler or style); private replays and their downloads
are ``Cache-Control: private``, unlisted ones ``noindex``; staff without the permission
see private replays no more than anyone; password reset is not offered; the Celery
visibility timeout follows the task time limit.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.checks import run_checks
from django.test import Client, override_settings

from replays.models import Match

from .conftest import ROOT

pytestmark = pytest.mark.filterwarnings("ignore:No directory at:UserWarning")

# docs/deploy.md, "Production settings": what `check --deploy` is run with.
PRODUCTION = {
    "DEBUG": "false", "SECRET_KEY": "a-long-random-production-key-" + "x7Kq" * 12,
    "ALLOWED_HOSTS": "replays.example.org", "SECURE_COOKIES": "true",
    "SECURE_SSL_REDIRECT": "true", "SECURE_PROXY_HEADER": "true",
    "SECURE_HSTS_SECONDS": "31536000", "SECURE_HSTS_INCLUDE_SUBDOMAINS": "true",
    "SECURE_HSTS_PRELOAD": "true", "CSRF_TRUSTED_ORIGINS": "https://replays.example.org",
}


def run_site(command: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    """``manage.py`` in a process of its own, with only these settings in the environment
    (besides the database)."""
    base = {key: value for key, value in os.environ.items()
            if key in ("PATH", "HOME", "LANG", "DATABASE_URL", "PYTHONPATH")}
    return subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT,
                          env={**base, "DJANGO_SETTINGS_MODULE": "mahjong_site.settings",
                               **env}, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("key", [None, "dev-only-insecure-key-set-SECRET_KEY-in-production"])
def test_it_refuses_to_start_without_a_secret_key_when_debug_is_off(key: str | None) -> None:
    env = {"DEBUG": "false"} | ({"SECRET_KEY": key} if key else {})
    done = run_site(["check"], **env)
    assert done.returncode != 0
    assert "SECRET_KEY is not set" in done.stderr, done.stderr[-2000:]


def test_it_starts_with_the_development_key_only_in_debug() -> None:
    done = run_site(["check"], DEBUG="true")
    assert done.returncode == 0, done.stderr[-2000:]


def test_it_passes_check_deploy_with_the_documented_production_settings() -> None:
    done = run_site(["check", "--deploy", "--fail-level", "WARNING"], **PRODUCTION)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert "WARNING" not in done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_it_documents_every_production_setting_the_check_uses() -> None:
    deploy = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    for name in PRODUCTION:
        assert f"`{name}`" in deploy, name


@override_settings(SECURE_SSL_REDIRECT=True, SECURE_HSTS_SECONDS=3600,
                   SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"))
def test_it_redirects_to_https_and_sends_hsts_behind_the_proxy(client: Client, db: None) -> None:
    plain = client.get("/rules/jiaxing/")
    assert plain.status_code == 301 and plain["Location"].startswith("https://")
    secure = client.get("/rules/jiaxing/", headers={"X-Forwarded-Proto": "https"})
    assert secure.status_code == 200
    assert secure["Strict-Transport-Security"].startswith("max-age=3600")
    assert client.get("/healthz").status_code in (200, 503), "the health check stays on http"


def test_it_sends_a_content_security_policy_without_inline_scripts(
        client: Client, make_match: Any) -> None:
    match = make_match()
    for url in ("/", "/upload/", match.get_absolute_url(), "/accounts/login/",
                "/accounts/signup/", "/rules/putian/"):
        response = client.get(url)
        assert response.status_code == 200, url
        policy = response["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "'unsafe-inline'" not in policy, url
        assert "frame-ancestors 'none'" in policy


TEMPLATE_FOLDERS = [ROOT / "templates", *sorted((ROOT / "replays").glob("*/templates"))]
INLINE = [
    (re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I), "an inline <script>"),
    (re.compile(r"\son[a-z]+\s*=", re.I), "an inline event handler (on…=)"),
    (re.compile(r"\sstyle\s*=", re.I), "an inline style attribute"),
    (re.compile(r"<style", re.I), "a <style> element"),
    (re.compile(r"javascript:", re.I), "a javascript: URL"),
    (re.compile(r"\shx-on", re.I), "an hx-on handler (evaluated as script)"),
]


@pytest.mark.parametrize("template", [path for folder in TEMPLATE_FOLDERS
                                      for path in sorted(folder.rglob("*.html"))],
                         ids=lambda path: str(path.relative_to(ROOT)))
def test_it_keeps_every_template_within_the_content_security_policy(template: Path) -> None:
    text = template.read_text(encoding="utf-8")
    for pattern, what in INLINE:
        found = pattern.search(text)
        assert found is None, f"{template.name} has {what}: {found.group(0) if found else ''}"


def test_it_marks_private_pages_and_downloads_private_and_unlisted_ones_noindex(
        client: Client, alice: Any, make_match: Any) -> None:
    private = make_match(alice, visibility="private")
    unlisted = make_match(alice, visibility="unlisted")
    public = make_match(alice)
    client.force_login(alice)
    for url in (private.get_absolute_url(), f"{private.get_absolute_url()}download/"):
        response = client.get(url)
        assert "private" in response["Cache-Control"], url
        assert "noindex" in response["X-Robots-Tag"]
    response = client.get(unlisted.get_absolute_url())
    assert "noindex" in response["X-Robots-Tag"]
    assert '<meta name="robots" content="noindex, nofollow">' in response.content.decode()
    response = client.get(public.get_absolute_url())
    assert "X-Robots-Tag" not in response and "noindex" not in response.content.decode()


def test_it_shows_private_replays_to_staff_only_with_the_permission(
        client: Client, alice: Any, plain_staff: Any, staff: Any, make_match: Any) -> None:
    private = make_match(alice, visibility="private")
    hidden = make_match(alice, hidden=True)
    for match in (private, hidden):
        client.force_login(plain_staff)
        assert client.get(match.get_absolute_url()).status_code == 404
        assert client.get(f"{match.get_absolute_url()}download/").status_code == 404
        client.force_login(staff)
        assert client.get(match.get_absolute_url()).status_code == 200
    assert Match.objects.count() == 2


def test_it_does_not_offer_a_password_reset_it_cannot_send(client: Client, db: None) -> None:
    assert client.get("/accounts/password_reset/").status_code == 404
    assert "password_reset" not in client.get("/accounts/login/").content.decode()


def test_it_hands_a_killed_workers_tasks_out_again_within_minutes(settings: Any) -> None:
    timeout = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    assert settings.CELERY_TASK_TIME_LIMIT < timeout <= settings.CELERY_TASK_TIME_LIMIT + 60
    assert timeout <= 5 * 60
    assert not [w for w in run_checks(include_deployment_checks=True)
                if w.id.startswith("replays.")]
    settings.CELERY_VISIBILITY_TIMEOUT = settings.CELERY_TASK_TIME_LIMIT
    assert [w.id for w in run_checks(include_deployment_checks=True)
            if w.id.startswith("replays.")] == ["replays.W001"]


def test_it_marks_the_hands_page_like_the_other_replay_pages(
        client: Client, alice: Any, make_match: Any) -> None:
    """Issue 24: /replays/<id>/hands/ is a replay page too: private ones ``private,
    no-store``, unlisted ones ``noindex`` (header and meta), public ones neither."""
    private = make_match(alice, visibility="private")
    unlisted = make_match(alice, visibility="unlisted")
    public = make_match(alice)
    client.force_login(alice)
    response = client.get(f"{private.get_absolute_url()}hands/")
    assert response.status_code == 200
    assert {"private", "no-store"} <= {part.strip() for part in
                                       response["Cache-Control"].split(",")}
    assert "noindex" in response["X-Robots-Tag"]
    response = Client().get(f"{unlisted.get_absolute_url()}hands/")
    assert response.status_code == 200
    assert "noindex" in response["X-Robots-Tag"]
    assert '<meta name="robots" content="noindex, nofollow">' in response.content.decode()
    assert "private" not in response.get("Cache-Control", "")
    response = Client().get(f"{public.get_absolute_url()}hands/")
    assert "X-Robots-Tag" not in response and "noindex" not in response.content.decode()


def test_it_sends_a_permissions_policy_on_every_response(
        client: Client, make_match: Any) -> None:
    """Issue 24: pages, JSON, redirects, errors, static files and refusals before any view
    all say which browser features the site never uses."""
    match = make_match()
    answers = [client.get(url) for url in (
        "/", match.get_absolute_url(), f"{match.get_absolute_url()}hands/", "/healthz",
        "/replays/no-such-match/", "/accounts/login/", "/static/js/site.js", "/play/")]
    answers.append(client.post("/upload/", b"x", content_type="application/octet-stream",
                               CONTENT_LENGTH=str(10**10)))
    assert answers[-1].status_code == 413
    assert {answer.status_code for answer in answers} >= {200, 404, 413}
    for answer in answers:
        policy = answer["Permissions-Policy"]
        for feature in ("camera=()", "microphone=()", "geolocation=()", "payment=()"):
            assert feature in policy, (answer.status_code, policy)
