"""One reader of JSON input: a position and a hand history word the same mistake alike.

Both read seats, winds, banks and wildcards with ``games.core.readers``; here the same
bad value is given to each and the two sentences (rule id included) must be
equal, so the wording can't drift apart again.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.core.position import PositionError
from games.core.readers import ReadError, read_seat
from games.records.log import LogError, read_log
from games.variants.positions import read_position

from .test_log_format import jiaxing

GOOD_POSITION = {"variant": "jiaxing", "hand": "123456789p11122z", "win_tile": "2z",
                 "wildcards": ["9s"], "self_draw": True}


def position_sentence(field: str, value: Any) -> str:
    with pytest.raises(PositionError) as caught:
        read_position({**GOOD_POSITION, field: value})
    return str(caught.value)


def log_sentence(field: str, value: Any) -> str:
    document = jiaxing()
    document["hands"][0][field] = value
    with pytest.raises(LogError) as caught:
        read_log(document)
    assert caught.value.hand == 1  # the log keeps where it happened
    return f"{caught.value.message} ({caught.value.rule})"


@pytest.mark.parametrize(("field", "value", "sentence"), [
    ("dealer", 4, "dealer must be a seat 0–3, not 4 (C-2)"),
    ("dealer", True, "dealer must be a seat 0–3, not true (C-2)"),
    ("dealer", "0", 'dealer must be a seat 0–3, not "0" (C-2)'),
    ("round_wind", "East", 'round_wind must be one of E, S, W, N, not "East" (JX-3)'),
    ("round_wind", None, "round_wind must be one of E, S, W, N, not null (JX-3)"),
    ("bank", ["huang"], 'unknown carried fan "huang" in bank: use huangfan, laotouhuang, '
                        "baozi, baida_lianzhuang (JX-7.11)"),
    ("bank", "baozi", "bank must be an array of carried fans, not a string (JX-7.11)"),
    ("wildcards", ["0m"], 'wildcards: "0m" is no tile (write a digit and a suit letter: '
                          "1m–9m, 1p–9p, 1s–9s, 1z–7z) (C-1)"),
    ("wildcards", [5], 'wildcards: a tile is a string like "5m", not 5 (C-1)'),
])
def test_it_words_a_mistake_the_same_in_a_position_and_a_log(field: str, value: Any,
                                                            sentence: str) -> None:
    assert position_sentence(field, value) == sentence
    assert log_sentence(field, value) == sentence


def test_it_keeps_the_field_and_rule_on_the_error() -> None:
    with pytest.raises(ReadError) as caught:
        read_seat(7, "target")
    assert (caught.value.field, caught.value.rule) == ("target", "C-2")
    assert isinstance(caught.value, ValueError)


def test_it_places_an_event_field_mistake_in_its_hand_and_event() -> None:
    document = jiaxing()
    document["hands"][0]["events"][1]["target"] = 9
    with pytest.raises(LogError) as caught:
        read_log(document)
    assert (caught.value.hand, caught.value.event, caught.value.rule) == (1, 2, "C-2")
    assert caught.value.message == "target must be a seat 0–3, not 9"
