"""Browser test (issue 24): a large upload checked by a worker is followed on the upload
page by htmx polling, and on its own page without JavaScript by refreshes; driven through
Debian's Chromium against pytest-django's live server.

The live server runs in this process, with tasks in-process: sending the check is held
back during the upload, and the test runs it as a worker would, later.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

from django.test import override_settings  # noqa: E402
from playwright.sync_api import Browser, Page, expect  # noqa: E402

from .conftest import bot_document  # noqa: E402

pytestmark = [pytest.mark.browser,
              pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]


@pytest.fixture
def held_checks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Every document is kept for a worker, and the checks wait until the test runs them."""
    from replays.library import views

    held: list[int] = []
    monkeypatch.setattr(views, "send_check", held.append)
    with override_settings(UPLOAD_SYNC_BYTES=0):
        yield held


def upload(page: Page, base: str, path: Path) -> None:
    page.goto(f"{base}/upload/")
    page.set_input_files("input[type=file][name=files]", str(path))
    page.locator("form.upload-form button[type=submit]").click()


def test_the_upload_page_polls_a_check_until_the_replay_is_stored(
        page: Page, live_server: Any, transactional_db: None, held_checks: list[int],
        tmp_path: Path) -> None:
    from replays.matches.tasks import check_upload

    path = tmp_path / "large.json"
    path.write_bytes(bot_document(21, hands=2))
    upload(page, live_server.url, path)
    pending = page.locator("#upload-results li.pending")
    expect(pending).to_contain_text("large.json")
    expect(pending).to_contain_text("waiting for the rules engine")
    assert len(held_checks) == 1
    check_upload(held_checks[0])  # the worker's turn
    stored = page.locator("#upload-results li.ok")
    expect(stored).to_contain_text("stored", timeout=15_000)  # polled every 2 s
    stored.get_by_role("link", name="open the replay").click()
    expect(page.locator("h1.viewer-title")).to_be_visible()


def test_the_check_page_refreshes_itself_without_javascript(
        browser: Browser, live_server: Any, transactional_db: None, held_checks: list[int],
        tmp_path: Path) -> None:
    from replays.matches.tasks import check_upload
    from replays.models import UploadCheck

    context = browser.new_context(java_script_enabled=False, locale="en-US")
    page = context.new_page()
    path = tmp_path / "refused.json"
    document = bot_document(22, hands=2).replace(b'"format": "mahjong-log/1"',
                                                  b'"format": "mahjong-log/9"')
    path.write_bytes(document)
    upload(page, live_server.url, path)
    page.get_by_role("link", name="follow its check").click()
    expect(page.locator("h1")).to_have_text("Checking an upload")
    expect(page.locator("#upload-results li.pending")).to_contain_text(
        "waiting for the rules engine")
    check_upload(UploadCheck.objects.get().pk)
    refused = page.locator("#upload-results li.error")
    expect(refused).to_contain_text('format must be exactly "mahjong-log/1"', timeout=15_000)
    context.close()
