"""A stored match played with the Sichuan house rules that change play (SC-H1–SC-H3) shows
on the site without an error: its viewer at every kind of moment, its hands and settlement.
How the pages word the exchange and the locked hands is the site's part of issue 29."""

from __future__ import annotations

import random

import pytest
from django.test import Client

from games.bots.simulation import simulate
from games.records.log import dumps
from replays.matches.services import store_document
from tests.test_play_site import play_out, start, state
from tests.test_site_i18n import last_step, page

pytestmark = [pytest.mark.django_db,
              pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]

ALL = {"exchange_three": True, "blood_flow": True, "call_transfer": True}


@pytest.mark.parametrize("headers", [{}, {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}],
                         ids=["en", "zh"])
def test_it_shows_a_stored_match_with_every_play_option(client: Client,
                                                        headers: dict[str, str]) -> None:
    match = store_document(dumps(simulate("sichuan", 2, 1, rules=ALL)).encode())
    url = match.get_absolute_url()
    end = last_step(match)
    for step in (0, 2, 5, end // 2, end):  # the deal, the exchanges, 定缺, play, the end
        assert page(client, f"{url}?step={step}", **headers)
    assert page(client, f"{url}hands/", **headers)


def test_a_play_table_with_every_play_option_asks_for_the_exchange_and_plays_out(
        client: Client) -> None:
    """The start form's options reach the match; the table page shows the exchange decision
    and a random player finishes the match (the site's wording of it is the site's part)."""
    options = {f"sichuan-{name}": "on" for name in ALL}
    pid = start(client, "sichuan", **options)
    data = state(client, pid)
    assert data["decision"]["kind"] == "exchange"
    assert all(a["type"] == "exchange" for a in data["legal"])
    assert client.get(f"/play/{pid}/").status_code == 200
    assert play_out(client, pid, random.Random(4))["over"]
