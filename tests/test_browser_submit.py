"""A form on its way can't be sent twice (issue 24, finding 9): its submit button is disabled
while the request runs, for the forms htmx posts (``hx-disabled-elt``, the upload) and for
plain ones (``static/js/site.js``, the play start), under the site's Content Security
Policy. The server is held in the middle of the request here until the test lets it go.

Run: DATABASE_URL=postgres://... .venv/bin/python -m pytest tests/test_browser_submit.py
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from typing import Any

import pytest

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's loop shares the test thread

from playwright.sync_api import Page, expect  # noqa: E402

from .conftest import bot_document  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:No directory at:UserWarning")


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[threading.Event,
                                                            threading.Event]]:
    """(reached, release): the request that calls a held function waits for release."""
    reached, release = threading.Event(), threading.Event()
    yield reached, release
    release.set()


def hold(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str,
         events: tuple[threading.Event, threading.Event]) -> None:
    reached, release = events
    original = getattr(owner, name)

    def waiting(*args: Any, **kwargs: Any) -> Any:
        reached.set()
        release.wait(30)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, waiting)


def test_it_disables_the_upload_button_while_htmx_sends_the_form(
        live_server: Any, transactional_db: None, page: Page, tmp_path: Any,
        monkeypatch: pytest.MonkeyPatch,
        held: tuple[threading.Event, threading.Event]) -> None:
    from replays.library import views

    hold(monkeypatch, views, "store_document", held)
    document = tmp_path / "match.json"
    document.write_bytes(bot_document(97))
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text)
            if message.type == "error" else None)
    page.goto(f"{live_server.url}/upload/")
    page.set_input_files("input[type=file]", str(document))
    button = page.locator(".upload-form button[type=submit]")
    button.click()
    assert held[0].wait(30), "the upload reached the server"
    expect(button).to_be_disabled()
    held[1].set()
    expect(page.locator("#upload-results")).to_contain_text("open the replay")
    expect(button).to_be_enabled()
    assert not errors, errors


def test_it_disables_a_plain_forms_button_until_the_next_page(
        live_server: Any, transactional_db: None, page: Page,
        monkeypatch: pytest.MonkeyPatch,
        held: tuple[threading.Event, threading.Event]) -> None:
    from replays.play import services

    hold(monkeypatch, services, "start", held)
    page.goto(f"{live_server.url}/play/")
    # While a form's navigation waits for the server, Playwright can't look into the page:
    # the page reports its button's changes on the console instead.
    seen: list[str] = []
    page.on("console", lambda message: seen.append(message.text))
    page.evaluate("""() => {
      const button = document.querySelector("form.play-start button[type=submit]");
      new MutationObserver(() => console.log("disabled: " + button.disabled)).observe(
        button, {attributes: true, attributeFilter: ["disabled"]});
    }""")
    page.locator("form.play-start button[type=submit]").click(no_wait_after=True)
    assert held[0].wait(30), "the start reached the server"
    for _ in range(200):
        if "disabled: true" in seen:
            break
        page.wait_for_timeout(50)
    assert "disabled: true" in seen, seen
    held[1].set()
    page.wait_for_url(f"{live_server.url}/play/*/")
