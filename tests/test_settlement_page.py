"""The viewer's itemised settlement (issue 15): one line per payment, with its rule
as a link, the formula, payer → payee, the amount and running totals, shown when
the payment happens (a Sichuan kong mid-hand) and at the hand's end, in English
and Chinese. The numbers are the engine's lines, not recomputed by the page.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.records.log import loads
from games.records.match import replay
from replays.models import Match
from tests.test_site_i18n import ZH, last_step, page, part, store, text_of

TILE_CODE = re.compile(r"\b[1-9][mpsz]\b")


def lines_of(content: str) -> list[list[str]]:
    section = part(content, r'<section class="settlement-lines"[^>]*>(.*?)</section>')
    rows = re.findall(r'<tr class="settlement-line[^"]*">(.*?)</tr>', section, re.S)
    return [[text_of(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            for row in rows]


@pytest.fixture
def sichuan(db: None) -> Match:
    """Bots' Sichuan hand (seed 1): a kong at event 81, a win on a discard, then the
    exhaustion's 查大叫 and a kong refund."""
    return store("sichuan", 1, 1)


def engine_lines(match: Match) -> list[tuple[int, str, int]]:
    result = replay(loads(bytes(match.document).decode()))
    return [(s.event + 1, s.line.rule, s.line.amount) for s in result.hands[0].table.payments]


def test_it_shows_a_kong_payment_when_it_happens(sichuan: Match, client: Client) -> None:
    expected = engine_lines(sichuan)
    kong_step, rule, amount = expected[0]
    assert rule == "SC-6.3"
    before = page(client, f"{sichuan.get_absolute_url()}?step={kong_step - 1}")
    assert 'class="settlement-lines"' not in before
    content = page(client, f"{sichuan.get_absolute_url()}?step={kong_step}")
    rows = lines_of(content)
    kong_rows = [row for row in rows if row[0] == "SC-6.3"]
    assert len(kong_rows) == sum(1 for step, line_rule, _amount in expected
                                 if line_rule == "SC-6.3" and step <= kong_step)
    assert all(row[4] == str(amount) for row in kong_rows)
    assert "Payments so far" in content
    assert 'href="/rules/sichuan/#SC-6.3"' in content
    # the running totals after the last kong line: the konger up, each payer down
    totals = [int(value) for value in rows[-1][5:]]
    assert sum(totals) == 0 and max(totals) == amount * len(kong_rows)


def test_it_lists_every_line_at_the_end_with_running_totals(sichuan: Match,
                                                            client: Client) -> None:
    expected = engine_lines(sichuan)
    content = page(client, f"{sichuan.get_absolute_url()}?step={last_step(sichuan)}")
    rows = lines_of(content)
    assert [(row[0], int(row[4])) for row in rows] == [(r, a) for _, r, a in expected]
    assert {"SC-6.3", "SC-6.1", "SC-6.4b", "SC-6.4c"} <= {row[0] for row in rows}
    result = replay(loads(bytes(sichuan.document).decode()))
    assert [int(value) for value in rows[-1][5:]] == result.hands[0].deltas
    win = next(row for row in rows if row[0] == "SC-6.1")
    assert re.fullmatch(r"\d+ fan → \d+ points", win[2])
    assert "Payments, line by line" in content
    assert "their total in the match after that line" in content


def test_it_words_the_lines_in_chinese_without_tile_codes(sichuan: Match,
                                                          client: Client) -> None:
    content = page(client, f"{sichuan.get_absolute_url()}?step={last_step(sichuan)}", **ZH)
    rows = lines_of(content)
    causes = {row[0]: row[1] for row in rows}
    assert causes["SC-6.3"] == "杠分（刮风下雨）"
    assert causes["SC-6.4b"] == "查大叫"
    assert causes["SC-6.4c"] == "退杠分"
    win = next(row for row in rows if row[0] == "SC-6.1")
    assert re.fullmatch(r"\d+ 番 → \d+ 分", win[2])
    kong = next(row for row in rows if row[0] == "SC-6.3")
    assert re.fullmatch(r"\d+ × \d+ 底 = \d+", kong[2])
    section = part(content, r'<section class="settlement-lines"[^>]*>(.*?)</section>')
    assert "逐项结算" in section and "谁付给谁" in section
    text = text_of(section)
    assert not TILE_CODE.search(text), text
    for english in ("fan", "points", "base", "Payments", "Formula", "kong"):
        assert english not in text, english


def test_it_words_the_self_draw_base_apart_sc_h4() -> None:
    """自摸加底: the line shows the capped points and the base more, in both languages."""
    from django.utils import translation

    from games.core.settlement import Formula
    from replays.matches.settlement_lines import formula_text

    formula = Formula("fan_points_base", (("fan", 2), ("points", 2), ("bonus", 1),
                                          ("amount", 3)))
    with translation.override("en"):
        assert formula_text(formula) == ("2 fan → 2 points + 1 base more for the self-draw "
                                         "(SC-H4) = 3")
    with translation.override("zh-hans"):
        assert formula_text(formula) == "2 番 → 2 分 + 自摸多付 1 底（SC-H4） = 3"
