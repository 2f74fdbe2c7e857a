"""A match at a glance: each hand's dealer, winners, patterns and deltas, and a chart of every
player's running total (drawn like the dashboard's charts, as inline SVG)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from replays.charts import Series, line_chart
from replays.matches.board import Replayed, WinView, win_view
from replays.matches.links import step_url
from replays.models import Match


@dataclass(frozen=True)
class HandRow:
    """One hand of the overview, with links to its deal and to its end."""

    number: int
    dealer: str
    end_reason: str
    wins: list[WinView]
    deltas: list[int]
    totals: list[int]
    url: str
    end_url: str


def end_reason_text(reason: str) -> str:
    """A hand's end reason in the reader's language."""
    return {"win": _("won"), "exhausted": _("wall exhausted"),
            "abandoned": _("abandoned")}.get(reason, reason)


def hand_rows(stored: Match, data: Replayed) -> list[HandRow]:
    """Every hand of the match in order, with the running totals after it."""
    rows = []
    players = data.match.players
    for index, (setup, outcome) in enumerate(zip(data.setups, data.outcomes, strict=True)):
        number = index + 1
        before = data.totals_before[index]
        steps = len(data.match.hands[index].events)
        rows.append(HandRow(
            number=number,
            dealer=players[setup.dealer],
            end_reason=end_reason_text(outcome.end_reason),
            wins=[win_view(win, players) for win in outcome.wins],
            deltas=list(outcome.deltas),
            totals=[a + b for a, b in zip(before, outcome.deltas, strict=True)],
            url=step_url(stored, number, 0, None),
            end_url=step_url(stored, number, steps, None),
        ))
    return rows


def totals_chart(players: tuple[str, ...], rows: list[HandRow]) -> SafeString:
    """Each player's running total after every hand, starting from 0 before the first."""
    labels = ["0", *(str(row.number) for row in rows)]
    series = [Series(name, [0, *(row.totals[seat] for row in rows)])
              for seat, name in enumerate(players)]
    finals = "; ".join(f"{name}: {rows[-1].totals[seat] if rows else 0:+d}"
                       for seat, name in enumerate(players))
    return line_chart(
        _("Running totals, hand by hand"), labels, series,
        tooltip=lambda label, one, value: _("after hand %(hand)s · %(name)s: %(total)s") % {
            "hand": label, "name": one.name, "total": f"{int(value):+d}"},
        description=_("Totals after %(hands)d hands: %(finals)s.") % {
            "hands": len(rows), "finals": finals})
