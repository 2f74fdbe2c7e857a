"""Who sees what: private, unlisted and staff-hidden matches, "my uploads", logging out.

alice owns matches, bob is another logged-in user, charlie is anonymous (the bare
``client``), staff is a staff user; the fixtures and ``make_match`` are in ``conftest.py``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from replays.models import Match

from .conftest import bot_document

HTMX = {"HX-Request": "true"}


def as_user(client: Client, user: Any) -> Client:
    """The client logged in as ``user``, or anonymous for ``None`` (charlie)."""
    if user is not None:
        client.force_login(user)
    return client


def statuses(client: Client, match: Match) -> dict[str, int]:
    """The status of every way to read a match: the page, its htmx fragment, a later step,
    and the download."""
    url = match.get_absolute_url()
    return {
        "viewer": client.get(url).status_code,
        "fragment": client.get(url, {"step": 5}, headers=HTMX).status_code,
        "step": client.get(url, {"hand": 1, "step": 10, "seat": 1}).status_code,
        "download": client.get(f"{url}download/").status_code,
    }


def everywhere(status: int) -> dict[str, int]:
    return dict.fromkeys(("viewer", "fragment", "step", "download"), status)


def listed(client: Client, match: Match, **query: str) -> bool:
    response = client.get("/", query)
    assert response.status_code == 200
    return match.public_id in response.content.decode()


@pytest.fixture
def private(alice: Any, make_match: Any) -> Match:
    return make_match(alice, visibility="private", title="Alice's secret")


@pytest.fixture
def unlisted(alice: Any, make_match: Any) -> Match:
    return make_match(alice, visibility="unlisted", title="Alice's link")


@pytest.fixture
def hidden(alice: Any, make_match: Any) -> Match:
    return make_match(alice, title="Hidden by staff", hidden=True)


# -- private --------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["bob", "charlie"])
def test_it_answers_404_to_others_for_a_private_match(client: Client, private: Match,
                                                      bob: Any, who: str) -> None:
    as_user(client, bob if who == "bob" else None)

    assert statuses(client, private) == everywhere(404)
    assert "Alice&#x27;s secret" not in client.get(private.get_absolute_url()).content.decode()


def test_it_shows_a_private_match_to_its_owner(client: Client, private: Match,
                                               alice: Any) -> None:
    as_user(client, alice)

    assert statuses(client, private) == everywhere(200)
    assert client.get(f"{private.get_absolute_url()}download/").content == bytes(
        private.document)


def test_it_shows_a_private_match_to_staff(client: Client, private: Match,
                                           staff: Any) -> None:
    as_user(client, staff)

    assert statuses(client, private) == everywhere(200)


@pytest.mark.parametrize("who", ["alice", "bob", "charlie", "staff"])
def test_it_never_lists_a_private_match_in_browse(client: Client, private: Match, alice: Any,
                                                  bob: Any, staff: Any, who: str) -> None:
    as_user(client, {"alice": alice, "bob": bob, "charlie": None, "staff": staff}[who])

    assert not listed(client, private)
    assert not listed(client, private, q="ivy")
    assert not listed(client, private, variant="sichuan")


# -- unlisted -------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["alice", "bob", "charlie", "staff"])
def test_it_keeps_an_unlisted_match_out_of_browse_but_opens_its_link(
        client: Client, unlisted: Match, alice: Any, bob: Any, staff: Any, who: str) -> None:
    as_user(client, {"alice": alice, "bob": bob, "charlie": None, "staff": staff}[who])

    assert not listed(client, unlisted)
    assert not listed(client, unlisted, q="ivy")
    assert statuses(client, unlisted) == everywhere(200)


# -- hidden by staff --------------------------------------------------------------------


@pytest.mark.parametrize("who", ["bob", "charlie"])
def test_it_answers_404_to_others_for_a_hidden_match(client: Client, hidden: Match, bob: Any,
                                                     who: str) -> None:
    as_user(client, bob if who == "bob" else None)

    assert not listed(client, hidden)
    assert statuses(client, hidden) == everywhere(404)


def test_it_answers_404_for_a_hidden_unlisted_match(client: Client, alice: Any,
                                                    make_match: Any) -> None:
    match = make_match(alice, visibility="unlisted", hidden=True)

    assert statuses(client, match) == everywhere(404)


def test_it_shows_a_hidden_match_to_staff_but_not_in_browse(client: Client, hidden: Match,
                                                            staff: Any) -> None:
    as_user(client, staff)

    assert not listed(client, hidden)
    assert statuses(client, hidden) == everywhere(200)


def test_it_shows_a_match_again_when_staff_unhide_it(client: Client, hidden: Match) -> None:
    Match.objects.filter(pk=hidden.pk).update(hidden=False)

    assert listed(client, hidden)
    assert statuses(client, hidden) == everywhere(200)


# -- my uploads ----------------------------------------------------------------------------


def test_it_shows_no_private_data_to_an_anonymous_mine(client: Client, private: Match,
                                                       unlisted: Match, hidden: Match,
                                                       make_match: Any) -> None:
    public = make_match(title="Everyone's")

    response = client.get("/", {"mine": "1"})

    assert response.status_code == 200
    content = response.content.decode()
    for match in (private, unlisted, hidden):
        assert match.public_id not in content
        assert match.title.replace("'", "&#x27;") not in content
    assert "My uploads" not in content.split("<main", 1)[1]
    assert "Private: only me" not in content.split("<main", 1)[1]
    assert public.public_id in content  # the plain public listing


def test_it_lists_only_bobs_own_uploads_in_his_mine(client: Client, private: Match,
                                                    unlisted: Match, bob: Any,
                                                    make_match: Any) -> None:
    own = make_match(bob, visibility="private", title="Bob's own")
    as_user(client, bob)

    response = client.get("/", {"mine": "1"})

    content = response.content.decode()
    assert own.public_id in content
    assert private.public_id not in content
    assert unlisted.public_id not in content


def test_it_lists_hidden_uploads_to_their_owner_only_in_mine(client: Client, hidden: Match,
                                                             alice: Any) -> None:
    as_user(client, alice)

    assert listed(client, hidden, mine="1")
    assert not listed(client, hidden)


# -- uploading over someone else's private match ------------------------------------------


@pytest.mark.parametrize("visibility", ["private", "unlisted"])
def test_it_stores_bobs_copy_of_someone_elses_unshared_match_without_a_word_about_it(
        client: Client, alice: Any, bob: Any, make_match: Any, visibility: str) -> None:
    """Issue 16 (9): the duplicate message confirmed that a private document exists and
    handed out an unlisted one's link, and the first uploader blocked everyone else."""
    original = make_match(alice, visibility=visibility, title="Alice's own")
    as_user(client, bob)

    response = client.post("/upload/", {
        "files": [SimpleUploadedFile("copy.json", bytes(original.document))],
        "title": "", "visibility": "public", "text": ""})

    assert response.status_code == 200
    content = response.content.decode()
    assert original.public_id not in content
    assert "uploaded before" not in content
    copy = Match.objects.exclude(pk=original.pk).get()
    assert (copy.owner, copy.visibility) == (bob, "public")
    original.refresh_from_db()
    assert (original.owner, original.visibility) == (alice, visibility)


def test_it_never_lets_a_duplicate_change_the_owner_or_visibility(
        client: Client, unlisted: Match, bob: Any) -> None:
    as_user(client, bob)

    client.post("/upload/", {
        "files": [SimpleUploadedFile("copy.json", bytes(unlisted.document))],
        "title": "Mine now", "visibility": "public", "text": ""})

    unlisted.refresh_from_db()
    assert (unlisted.visibility, unlisted.title, unlisted.owner.username) == (
        "unlisted", "Alice's link", "alice")


def test_it_gives_a_logged_in_uploader_the_ownership(client: Client, bob: Any) -> None:
    as_user(client, bob)

    client.post("/upload/", {"files": [SimpleUploadedFile("a.json", bot_document(1))],
                             "title": "", "visibility": "private", "text": ""})

    match = Match.objects.get()
    assert match.owner == bob
    assert statuses(client, match) == everywhere(200)


# -- logging out ------------------------------------------------------------------------


def test_it_needs_a_post_to_log_out(client: Client, alice: Any) -> None:
    as_user(client, alice)

    response = client.get("/accounts/logout/")

    assert response.status_code == 405
    assert "_auth_user_id" in client.session
    assert "Log out alice" in client.get("/").content.decode()


def test_it_logs_out_with_a_post(client: Client, alice: Any, private: Match) -> None:
    as_user(client, alice)
    assert client.get(private.get_absolute_url()).status_code == 200

    assert client.post("/accounts/logout/").status_code == 302

    assert client.get(private.get_absolute_url()).status_code == 404


def test_it_offers_logging_out_as_a_form(client: Client, alice: Any) -> None:
    as_user(client, alice)

    content = client.get("/").content.decode()

    assert '<form method="post" action="/accounts/logout/"' in content
    assert 'name="csrfmiddlewaretoken"' in content.split('action="/accounts/logout/"', 1)[1]


# -- cross-site requests ------------------------------------------------------------------


def upload_data() -> dict[str, Any]:
    return {"files": [SimpleUploadedFile("a.json", bot_document(1))], "title": "",
            "visibility": "public", "text": ""}


def test_it_refuses_an_upload_without_a_csrf_token(alice: Any) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)

    response = client.post("/upload/", upload_data())

    assert response.status_code == 403
    assert not Match.objects.exists()


def test_it_accepts_an_htmx_upload_with_the_pages_csrf_header(alice: Any) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    page = client.get("/upload/").content.decode()
    token = re.search(r'hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'', page)
    assert token, "the page gives htmx the CSRF token"

    response = client.post("/upload/", upload_data(),
                           headers={**HTMX, "X-CSRFToken": token.group(1)})

    assert response.status_code == 200
    assert Match.objects.get().owner == alice


def test_it_refuses_a_logout_without_a_csrf_token(alice: Any) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)

    assert client.post("/accounts/logout/").status_code == 403
    assert "_auth_user_id" in client.session
