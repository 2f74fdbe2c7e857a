"""A ledger's rows: the row form read into a record, the record into the engine's hand, and
the whole ledger worked out (payments, running totals, the fewest transfers).

The engine settles every row (``Variant.recorded_lines``); this module only reads what was
tapped, checks what a form can get wrong before the engine is asked (in the reader's
language), and words the engine's lines as the replay viewer does.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from games.core.recorded import RecordedHand, RecordedKong, RecordedWin
from games.core.settlement import (
    Payment,
    SettlementError,
    Transfer,
    deltas_of,
    fewest_transfers,
)
from games.core.table import Settled
from games.core.variant import Variant
from replays.matches.settlement_lines import LineView, line_views

SEATS = range(4)
KONG_SLOTS = 4
"""Kongs one row can list (a hand rarely has more; each is paid at once, SC-6.3)."""
MOST_FAN = 20
MOST_TAI = 100
MOST_FLOWERS = 30
MOST_STREAK = 50
BOMBS = ("big", "super")


def _refusals() -> dict[str, str]:
    """The engine's refusals a row form can meet, keyed by the English with each seat as
    ``{player}``, in the reader's language."""
    return {
        "{player} has already won and left the hand":
            _("{player} has already won and left the hand"),
        "{player} has won and makes no more kongs": _("{player} has won and makes no more kongs"),
        "{player} has already won and is out of 查花猪/查大叫":
            _("{player} has already won and is out of 查花猪/查大叫"),
        "feeder {player} is no longer in the hand (SC-3.2)":
            _("{player} has already won and discards no more (SC-3.2)"),
        "nobody else is still in the hand (SC-3.2)":
            _("nobody else is still in the hand (SC-3.2)"),
        "only an exhausted hand with two or more players still in checks 花猪 and ready seats":
            _("only an exhausted hand with two or more players still in checks 花猪 and ready "
              "seats"),
    }


_SEAT = re.compile(r"\b(?:seat|feeder) ([0-3])\b")


def refusal_words(refused: SettlementError, names: Sequence[str]) -> str:
    """The engine's refusal of a row in the reader's language, its seats by the players'
    names ("SC-3.2: Bo has already won and left the hand"); a sentence not listed is shown
    as the engine wrote it, its seats named.

    >>> refusal_words(SettlementError("SC-3.2", "seat 1 has already won and left the hand"),
    ...               ["Ann", "Bo", "Cy", "Di"])
    'SC-3.2: Bo has already won and left the hand'
    """
    sentence = str(refused).removeprefix(f"{refused.rule}: ")
    seats = [int(found) for found in _SEAT.findall(sentence)]
    template = _SEAT.sub(lambda found: ("feeder " if found.group(0).startswith("feeder") else "")
                         + "{player}", sentence)
    known = _refusals().get(template)
    if known is not None and len(seats) <= 1:
        text = known.format(player=names[seats[0]] if seats else "")
    else:
        text = _SEAT.sub(lambda found: names[int(found.group(1))], sentence)
    return f"{refused.rule}: {text}"


class RowError(ValueError):
    """A row the form can't hold: ``str()`` is the sentence to show, naming the field."""


def _seat(data: Mapping[str, Any], name: str, what: str, *, blank: bool = True) -> int | None:
    raw = str(data.get(name) or "").strip()
    if raw == "" and blank:
        return None
    if raw not in ("0", "1", "2", "3"):
        raise RowError(_("%(what)s: choose one of the four players.") % {"what": what})
    return int(raw)


def _number(data: Mapping[str, Any], name: str, what: str, low: int, high: int,
            default: int | None = None) -> int:
    raw = str(data.get(name) or "").strip()
    if raw == "" and default is not None:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = low - 1
    if not low <= value <= high:
        raise RowError(_("%(what)s: a whole number from %(low)s to %(high)s, not “%(raw)s”.") % {
            "what": what, "low": low, "high": high, "raw": raw[:12]})
    return value


def read_form(variant: type[Variant], data: Mapping[str, Any]) -> dict[str, Any]:
    """The row form's fields as a record (JSON): the wins in order, the kongs, who was a 花猪
    or ready at an exhausted hand, and the variant's other inputs. Raises :class:`RowError`."""
    wins = [win for slot in range(1, variant.MOST_RECORDED_WINS + 1)
            if (win := _read_win(variant, data, slot)) is not None]
    if any(str(data.get(f"w{slot}") or "") for slot in range(2, variant.MOST_RECORDED_WINS + 1)
           ) and not str(data.get("w1") or ""):
        raise RowError(_("Enter the first win before the next ones."))
    record: dict[str, Any] = {"wins": wins, "kongs": [], "pigs": [], "ready": {}}
    if variant.RECORDS_KONGS:
        record["kongs"] = [kong for slot in range(1, KONG_SLOTS + 1)
                           if (kong := _read_kong(variant, data, slot, len(wins))) is not None]
    if variant.RECORDS_EXHAUSTION:
        for seat in SEATS:
            state = str(data.get(f"x{seat}") or "")
            if state == "pig":
                record["pigs"].append(seat)
            elif state == "ready":
                record["ready"][str(seat)] = _number(
                    data, f"x{seat}_fan", _("Player %(n)s's best wait (fan)") % {"n": seat + 1},
                    1, MOST_FAN)
    if variant.RECORDS_FLOWERS:
        record["dealer"] = _seat(data, "dealer", _("The dealer"), blank=False)
        record["streak"] = _number(data, "streak", _("The dealer's streak"), 0, MOST_STREAK, 0)
        record["flowers"] = [_number(data, f"fl{seat}", _("Player %(n)s's flower points") % {
            "n": seat + 1}, 0, MOST_FLOWERS, 0) for seat in SEATS]
        bomb = str(data.get("bomb") or "")
        if bomb and bomb not in BOMBS:
            raise RowError(_("The bomb: big, super or none."))
        record["bomb"] = bomb or None
    return record


def _read_win(variant: type[Variant], data: Mapping[str, Any], slot: int) -> dict[str, Any] | None:
    what = _("Win %(n)s") % {"n": slot}
    winner = _seat(data, f"w{slot}", what)
    if winner is None:
        return None
    source = str(data.get(f"w{slot}_from") or "self")
    discarder = None if source == "self" else _seat(data, f"w{slot}_from", what, blank=False)
    if discarder == winner:
        raise RowError(_("%(what)s: the winner can't win on their own discard (C-5).") % {
            "what": what})
    win: dict[str, Any] = {"winner": winner, "from": discarder, "fan": 0, "tai": 0}
    if variant.RECORDS_TAI:
        win["tai"] = _number(data, f"w{slot}_tai", _("%(what)s: tai") % {"what": what},
                             0, MOST_TAI)
        win["fan"] = _number(data, f"w{slot}_fan", _("%(what)s: fan") % {"what": what},
                             0, MOST_FAN, 0)
    elif not variant.RECORDS_FLOWERS:
        win["fan"] = _number(data, f"w{slot}_fan", _("%(what)s: fan") % {"what": what},
                             1, MOST_FAN)
    return win


def _read_kong(variant: type[Variant], data: Mapping[str, Any], slot: int,
               wins: int) -> dict[str, Any] | None:
    what = _("Kong %(n)s") % {"n": slot}
    seat = _seat(data, f"k{slot}", what)
    if seat is None:
        return None
    kind = str(data.get(f"k{slot}_kind") or "")
    if kind not in variant.KONG_KINDS:
        raise RowError(_("%(what)s: exposed, added or concealed.") % {"what": what})
    feeder = _seat(data, f"k{slot}_from", what) if kind == "exposed" else None
    if kind == "exposed" and feeder is None:
        raise RowError(_("%(what)s: an exposed kong takes someone's discard: whose? "
                         "(SC-6.3)") % {"what": what})
    if feeder == seat:
        raise RowError(_("%(what)s: nobody kongs their own discard (SC-6.3).") % {"what": what})
    after = _number(data, f"k{slot}_after", what, 0, wins, 0)
    return {"seat": seat, "kind": kind, "from": feeder, "after": after}


def hand_of(record: Mapping[str, Any]) -> RecordedHand:
    """The engine's hand for a stored record."""
    return RecordedHand(
        wins=tuple(RecordedWin(w["winner"], w["from"], fan=w["fan"], tai=w["tai"])
                   for w in record.get("wins", [])),
        kongs=tuple(RecordedKong(k["seat"], k["kind"], k["from"], k["after"])
                    for k in record.get("kongs", [])),
        flower_pigs=frozenset(record.get("pigs", [])),
        ready_fan={int(seat): fan for seat, fan in record.get("ready", {}).items()},
        dealer=record.get("dealer") or 0, dealer_streak=record.get("streak") or 0,
        flower_points=tuple(record.get("flowers") or (0, 0, 0, 0)), bomb=record.get("bomb"),
    )


def settle(variant: type[Variant], rules: dict[str, Any], record: Mapping[str, Any]
           ) -> list[Payment]:
    """The engine's payment lines of a record (SettlementError naming the rule it breaks)."""
    return variant.recorded_lines(hand_of(record), rules)


@dataclass
class RowView:
    number: int
    record: Mapping[str, Any]
    summary: list[str]
    deltas: list[int]
    totals: list[int]
    lines: list[LineView] = field(default_factory=list)
    error: str = ""
    variant: str = ""
    names: tuple[str, ...] = ()

    @property
    def board(self) -> dict[str, Any]:
        """What the replay viewer's itemised settlement (library/settlement.html) reads."""
        return {"lines": self.lines, "seats": [{"name": name} for name in self.names],
                "variant": self.variant, "ended": True, "step": -1}

    @property
    def named_deltas(self) -> list[tuple[str, int, int]]:
        """Each player's name, what the hand paid them, and their total after it."""
        return list(zip(self.names, self.deltas, self.totals, strict=True))


@dataclass
class LedgerView:
    rows: list[RowView]
    totals: list[int]
    transfers: list[Transfer]


def work_out(variant: type[Variant], rules: dict[str, Any], names: Sequence[str],
             records: Sequence[tuple[int, Mapping[str, Any]]]) -> LedgerView:
    """Every row settled by the engine, with the running totals after it and, at the end,
    the fewest transfers that settle the table."""
    totals = [0, 0, 0, 0]
    rows = []
    for number, record in records:
        try:
            lines = settle(variant, rules, record)
            error = ""
        except SettlementError as refused:  # stored before a rule changed: shown, not paid
            lines, error = [], refusal_words(refused, names)
        before = list(totals)
        deltas = deltas_of(lines)
        totals = [t + d for t, d in zip(totals, deltas, strict=True)]
        rows.append(RowView(number, record, summary(variant, names, record), deltas,
                            list(totals), line_views([Settled(0, line) for line in lines],
                                                     list(names), before), error,
                            variant.name, tuple(names)))
    return LedgerView(rows, totals, fewest_transfers(totals))


def summary(variant: type[Variant], names: Sequence[str], record: Mapping[str, Any]
            ) -> list[str]:
    """The row in a few words per event, in the reader's language."""
    parts = []
    for kong in record.get("kongs", []):
        if kong["after"] == 0:
            parts.append(_kong_words(names, kong))
    for index, win in enumerate(record.get("wins", []), start=1):
        parts.append(_win_words(variant, names, win))
        parts += [_kong_words(names, k) for k in record.get("kongs", []) if k["after"] == index]
    if not record.get("wins"):
        parts.append(_("Nobody won: the wall ran out"))
    for seat in record.get("pigs", []):
        parts.append(_("%(name)s 花猪 (flower pig)") % {"name": names[seat]})
    for seat, fan in sorted(record.get("ready", {}).items()):
        parts.append(_("%(name)s ready 听牌, best wait %(fan)s fan") % {
            "name": names[int(seat)], "fan": fan})
    return parts


def _win_words(variant: type[Variant], names: Sequence[str], win: Mapping[str, Any]) -> str:
    if variant.RECORDS_TAI:
        value = _("%(tai)s tai %(fan)s fan") % win
    elif variant.RECORDS_FLOWERS:
        value = ""
    else:
        value = _("%(fan)s fan") % win
    who = {"winner": names[win["winner"]], "value": value}
    if win["from"] is None:
        return (_("%(winner)s self-drawn 自摸 %(value)s") % who).strip()
    if variant.RECORDS_TAI:  # JX-5.1: no discard wins, a robbed kong
        return (_("%(winner)s robs %(from)s's kong 抢杠 %(value)s") % {
            **who, "from": names[win["from"]]}).strip()
    return (_("%(winner)s wins on %(from)s's discard 点炮 %(value)s") % {
        **who, "from": names[win["from"]]}).strip()


def _kong_words(names: Sequence[str], kong: Mapping[str, Any]) -> str:
    kinds = {"exposed": _("exposed kong 直杠"), "added": _("added kong 面下杠"),
             "concealed": _("concealed kong 暗杠")}
    if kong["from"] is not None:
        return _("%(name)s %(kind)s on %(from)s's discard") % {
            "name": names[kong["seat"]], "kind": kinds[kong["kind"]],
            "from": names[kong["from"]]}
    return _("%(name)s %(kind)s") % {"name": names[kong["seat"]], "kind": kinds[kong["kind"]]}
