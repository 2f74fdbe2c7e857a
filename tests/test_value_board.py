"""The best choice on the board and the 花猪 explanation (issue 17): the viewer marks the
best-value discard on the seat's own tiles (★), and a Sichuan choice that ends a 花猪 more
often (SC-6.4a) is explained from the redeals' numbers, in both languages."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.test.utils import override_settings
from django.utils import translation

from games.analysis.value_pass import Priced, judged
from games.analysis.value_table import LogPoint
from games.bots.simulation import simulate
from replays.matches.services import store_document
from replays.models import HandValues, Match
from replays.templatetags.values import explanation

from .conftest import bot_document


def _best_discard_step(match: Match) -> tuple[int, dict[str, Any], str]:
    for row in HandValues.objects.filter(hand__match=match).order_by("hand__number"):
        for decision in row.data:
            if decision["kind"] == "turn" and decision["model"] == "solo":
                return row.hand.number, decision, decision["best"]
    pytest.fail("no valued discard decision")


@pytest.mark.django_db(transaction=True)
@override_settings(VALUES_AFTER_ANNOTATION=True, VALUES_SOLO_SAMPLES=40,
                   VALUES_TABLE_SAMPLES=4)
def test_it_marks_the_best_value_discard_on_the_board_in_both_languages(alice: Any) -> None:
    with transaction.atomic():
        match = store_document(bot_document(41, variant="sichuan", hands=1), owner=alice,
                               uploader_seat=0)
    match.refresh_from_db()
    assert match.values_status == Match.Status.DONE, match.values_error
    hand, decision, best = _best_discard_step(match)
    from replays.annotation.services import panel

    stored = panel(match, hand, decision["event"] - 1, 0)
    assert stored is not None
    alternative = next(a for a in stored["decisions"][0]["alternatives"] if a["index"] == best)
    tile = alternative["action"]["tile"]
    client = Client()
    query = {"hand": hand, "step": decision["event"] - 1, "seat": 0}
    for language, label in (("en", "Best by value"), ("zh-hans", "价值最高")):
        page = client.get(match.get_absolute_url(), query, HTTP_ACCEPT_LANGUAGE=language)
        html = page.content.decode()
        marked = re.findall(r'<span class="tile[^"]*is-best-value[^"]*" data-tile="([^"]+)"',
                            html)
        assert marked == [tile], (language, marked)
        assert f'<span class="visually-hidden"> ({label})</span>' in html
    # Spoiler-free, the board gives nothing away.
    hidden = client.get(match.get_absolute_url(), dict(query, spoilers=0)).content.decode()
    assert "is-best-value" not in hidden


def test_it_explains_a_flower_pig_from_the_redeals_numbers() -> None:
    match = simulate("sichuan", 1, 3)
    point = LogPoint.at(match, 1, 1, 0)
    decision = {"event": 1, "seat": 0, "kind": "dingque", "actual": 1, "alternatives": [
        {"action": {"type": "dingque", "actor": 0, "suit": "m"}, "rank": 1},
        {"action": {"type": "dingque", "actor": 0, "suit": "s"}, "rank": 2}]}
    samples = 16
    best_points = [2.0] * samples
    actual_points = [2.0] * 12 + [-22.0] * 4  # four redeals a 花猪 paying three players 8
    best = Priced(0, 0.5, 2.0, (0.2, 0.8), (1.0, 3.0), False, ([1.0, 0.0] * 8, best_points),
                  4.0, {"self_draw": 0.25, "causes": {"win": [0.5, 0.0, 2.0]}})
    worse = Priced(1, 0.5, -4.0, (0.2, 0.8), (-7.0, -1.0), False,
                   ([1.0, 0.0] * 8, actual_points), 4.0,
                   {"self_draw": 0.25, "causes": {"win": [0.5, 0.0, 2.0],
                                                  "flower_pig": [0.0, 0.25, -6.0]}})
    valued = judged(decision, [best, worse], "table", samples, point)
    assert valued["mistake"] and valued["explanation"]["id"] == "flower_pig"
    params = valued["explanation"]["params"]
    assert (params["pig_actual"], params["pig_best"], params["pig_cost"]) == (25.0, 0.0, 6.0)
    assert params["loss"] == 6.0
    with translation.override("en"):
        english = explanation(valued["explanation"])
    with translation.override("zh-hans"):
        chinese = explanation(valued["explanation"])
    assert "25.0% of the redeals" in english and "SC-6.4a" in english
    assert "25.0%" in chinese and "花猪" in chinese and "redeals" not in chinese
