"""The ``mahjong-log/1`` hand-history format: read, check the structure, write.

One JSON document holds a match: its variant, four players, rules options and
one or more hands, each a deal and a flat list of events in the mjai style
(``{"type": "discard", "actor": 0, "tile": "7z"}``). The contract is the
project's ``LOG-FORMAT.md``; ``docs/log-format.md`` documents every field.

This module reads a document into small frozen dataclasses (:class:`MatchLog`,
:class:`HandLog`, :class:`Event`) and writes them back. It checks the document's
*structure* only — types, required and unknown fields, value ranges, tile
notation, hand sizes, which events a variant has — and reports the first
problem as a :class:`LogError` with the 1-based hand and event numbers and,
where one applies, a rule id of ``RULES.md``. Whether the events are legal play
(turn order, claims, tile counts, wins, settlements) is for the replay,
:func:`games.records.match.replay`.

>>> match = loads('''{"format": "mahjong-log/1", "variant": "sichuan",
...   "players": ["Alice", "Bob", "Chen", "Dong"],
...   "hands": [{"dealer": 0, "dice": [2, 6],
...     "deal": [["1m","1m","1m","2m","3m","4m","5m","6m","7m","8m","9m","9m","9m","5p"],
...              ["1p","2p","3p","4p","5p","6p","7p","8p","9p","1s","2s","3s","4s"],
...              ["1p","2p","3p","4p","5p","6p","7p","8p","9p","1s","2s","3s","4s"],
...              ["1p","2p","3p","4p","6p","7p","8p","9p","1s","2s","3s","4s","5s"]],
...     "events": [{"type": "hu", "actor": 0, "tile": "5p"},
...                {"type": "end", "reason": "abandoned"}]}]}''')
>>> match.variant, match.players[0], len(match.hands)
('sichuan', 'Alice', 1)
>>> match.hands[0].events[0]
Event(type='hu', actor=0, tile=Tile.parse('5p'))
>>> write_log(match)["hands"][0]["events"][1]
{'type': 'end', 'reason': 'abandoned'}

Problems name where they are:

>>> loads('{"format": "mahjong-log/1", "variant": "riichi"}')
Traceback (most recent call last):
...
games.records.log.LogError: unknown variant "riichi": use jiaxing, putian or sichuan
"""

from __future__ import annotations

import copy
import json
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from importlib import resources
from itertools import accumulate
from typing import TYPE_CHECKING, Any, TypeVar

from games.core import readers
from games.core.events import Event
from games.core.messages import Message, Templated, message_of
from games.core.position import PositionError
from games.core.readers import BANK_ITEMS, ReadError, json_type, show
from games.core.tiles import Tile
from games.core.variant import Variant
from games.variants.registry import VARIANTS, variant_named

if TYPE_CHECKING:
    from games.records.seat_view import SeatView

__all__ = [
    "BANK_ITEMS", "EVENT_TYPES", "FORMAT", "MAX_CHARS", "MAX_DEALER_STREAK", "MAX_DELTA",
    "MAX_DEPTH", "MAX_EVENTS", "MAX_HANDS", "MAX_NAME", "MAX_OPTION", "MAX_TITLE",
    "Event", "Hand", "HandLog", "LogError", "Match", "MatchLog", "dumps", "loads", "read_log",
    "schema", "write_log",
]

_T = TypeVar("_T")

FORMAT = "mahjong-log/1"

MAX_CHARS = 64_000_000
"""The longest document text :func:`loads` reads."""
MAX_DEPTH = 32
"""The deepest nesting of arrays and objects :func:`loads` reads (a log needs 5)."""
MAX_HANDS = 500
"""The most hands in one document."""
MAX_EVENTS = 2000
"""The most events in one hand."""
MAX_NAME = 64
"""The longest player name, in characters."""
MAX_TITLE = 200
"""The longest title, in characters."""
MAX_OPTION = 10**9
"""The largest integer a rules option may have."""
MAX_DEALER_STREAK = 1000
"""The largest ``dealer_streak``."""
MAX_DELTA = 10**12
"""The largest amount (either sign) in ``end.deltas``."""

EVENT_TYPES = ("draw", "discard", "chi", "peng", "gang", "hu", "flower", "dingque", "ready",
               "contract", "leave", "end", "exchange")
HU_HOWS = ("robbing_kong", "rob_gold", "bomb")
SOURCES = ("front", "back")
CHOICES = ("persist", "give_up")
REASONS = ("win", "exhausted", "abandoned")

_DATE_TIME = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}"
    r"(T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]{1,6})?)?(Z|[+-][0-9]{2}:[0-9]{2})?)?")
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


class LogError(Templated, ValueError):
    """A document that is not a structurally valid ``mahjong-log/1`` document.

    ``hand`` and ``event`` are 1-based (the first hand is hand 1, the first event
    of a hand event 1); ``rule`` is a ``RULES.md`` id where one applies.

    >>> error = LogError("Bob can't chow 4s", hand=2, event=37, rule="JX-2.1")
    >>> str(error)
    "hand 2, event 37: Bob can't chow 4s (JX-2.1)"
    >>> error.to_json()
    {'hand': 2, 'event': 37, 'rule': 'JX-2.1', 'message': "Bob can't chow 4s"}
    >>> str(LogError("the document is not JSON"))
    'the document is not JSON'
    """

    def __init__(self, message: str, *, hand: int | None = None, event: int | None = None,
                 rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hand = hand
        self.event = event
        self.rule = rule

    def __str__(self) -> str:
        where = [f"{name} {number}" for name, number in (("hand", self.hand),
                                                         ("event", self.event))
                 if number is not None]
        text = f"{', '.join(where)}: {self.message}" if where else self.message
        return f"{text} ({self.rule})" if self.rule else text

    def to_json(self) -> dict[str, Any]:
        """The error as the command line's ``validate`` reports it."""

        return {"hand": self.hand, "event": self.event, "rule": self.rule,
                "message": self.message}

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle with the place and the rule (a task queue may carry the error)."""
        return _log_error, (self.message, self.hand, self.event, self.rule)

    def at(self, *, hand: int | None = None, event: int | None = None) -> LogError:
        """The same error placed in a hand and event (places already known are kept)."""
        return LogError(self.message, hand=self.hand if self.hand is not None else hand,
                        event=self.event if self.event is not None else event, rule=self.rule)


class EngineFault(RuntimeError):
    """An error of the engine's own — not of its input — met at a point of a log or of a
    list of positions. The command line answers it as one JSON document naming that
    point (ENGINE-CLI: never a traceback); it is a bug to report, not a refusal.

    >>> fault = EngineFault(KeyError("x"), hand=2, event=9)
    >>> fault.to_json("analyze")["hand"], str(fault)
    (2, "hand 2, event 9: KeyError: 'x'")
    """

    def __init__(self, cause: BaseException, *, hand: int | None = None,
                 event: int | None = None, position: int | None = None) -> None:
        self.cause = f"{type(cause).__name__}: {cause}"
        self.hand, self.event, self.position = hand, event, position
        super().__init__(self.cause)

    def __str__(self) -> str:
        where = [f"{name} {number}" for name, number in (
            ("position", self.position), ("hand", self.hand), ("event", self.event))
            if number is not None]
        return f"{', '.join(where)}: {self.cause}" if where else self.cause

    def to_json(self, command: str) -> dict[str, Any]:
        return {"command": command, "hand": self.hand, "event": self.event,
                "position": self.position, "internal": True,
                "message": f"the engine failed on valid input ({self.cause}); please report it"}

    @classmethod
    def of(cls, error: BaseException, *, hand: int | None = None, event: int | None = None,
           position: int | None = None) -> EngineFault:
        """``error`` placed (an EngineFault already placed keeps its places)."""
        if isinstance(error, EngineFault):
            return cls._placed(error, hand, event, position)
        return cls(error, hand=hand, event=event, position=position)

    @classmethod
    def _placed(cls, fault: EngineFault, hand: int | None, event: int | None,
                position: int | None) -> EngineFault:
        fault.hand = fault.hand if fault.hand is not None else hand
        fault.event = fault.event if fault.event is not None else event
        fault.position = fault.position if fault.position is not None else position
        return fault


def _log_error(message: str, hand: int | None, event: int | None, rule: str | None) -> LogError:
    return LogError(message, hand=hand, event=event, rule=rule)


def _logged(error: LogError | ReadError) -> LogError:
    """A reader's error as this module's (its rule kept; places are added by the caller)."""
    return error if isinstance(error, LogError) else LogError(error.message, rule=error.rule)


@dataclass(frozen=True)
class HandLog:
    """One hand: the deal and its events. Variant-only fields are ``None`` (or empty) elsewhere."""

    dealer: int
    dice: tuple[int, int]
    deal: tuple[tuple[Tile, ...], ...]
    events: tuple[Event, ...]
    round_wind: str | None = None
    wildcards: tuple[Tile, ...] = ()
    indicator: Tile | None = None
    bank: tuple[str, ...] | None = None
    dealer_streak: int | None = None
    wall: tuple[Tile, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        """The hand as a JSON object."""
        out: dict[str, Any] = {"dealer": self.dealer}
        if self.round_wind is not None:
            out["round_wind"] = self.round_wind
        out["dice"] = list(self.dice)
        if self.wildcards:
            out["wildcards"] = [str(t) for t in self.wildcards]
        if self.indicator is not None:
            out["indicator"] = str(self.indicator)
        if self.bank is not None:
            out["bank"] = list(self.bank)
        if self.dealer_streak is not None:
            out["dealer_streak"] = self.dealer_streak
        out["deal"] = [[str(t) for t in seat] for seat in self.deal]
        if self.wall is not None:
            out["wall"] = [str(t) for t in self.wall]
        out["events"] = [e.to_json() for e in self.events]
        return out


@dataclass(frozen=True)
class MatchLog:
    """A whole document. ``rules`` holds the options as written (see :meth:`options`).

    ``rules_written`` records whether the document had a ``rules`` object, so that
    an empty ``"rules": {}`` survives a round trip (it takes no part in comparisons).
    """

    variant: str
    players: tuple[str, str, str, str]
    hands: tuple[HandLog, ...]
    rules: dict[str, int | str | bool] = field(default_factory=dict)
    title: str | None = None
    played_at: str | None = None
    rules_written: bool = field(default=True, repr=False, compare=False)
    # A hand recorded from one seat (games.records.seat_view): the recorder's seat and
    # which tiles were unseen; the hands hold those tiles filled in.
    view: SeatView | None = field(default=None, repr=False, compare=False)

    @property
    def variant_class(self) -> type[Variant]:
        """The variant's rules class (``games.core.variant``)."""
        return VARIANTS[self.variant]

    def options(self) -> dict[str, int | str | bool]:
        """Every rules option of the variant, the written value or its default.

        >>> MatchLog("putian", ("A", "B", "C", "D"), ()).options()
        {'fee': 0}
        """
        return {name: self.rules.get(name, option.default)
                for name, option in self.variant_class.OPTIONS.items()}

    def to_json(self) -> dict[str, Any]:
        """The match as a ``mahjong-log/1`` document (a JSON object); a seat view as it
        was written, its unseen tiles as ``"?"``."""
        if self.view is not None:
            return copy.deepcopy(self.view.document)
        out: dict[str, Any] = {"format": FORMAT, "variant": self.variant}
        if self.title is not None:
            out["title"] = self.title
        if self.played_at is not None:
            out["played_at"] = self.played_at
        out["players"] = list(self.players)
        if self.rules_written or self.rules:
            out["rules"] = dict(self.rules)
        out["hands"] = [h.to_json() for h in self.hands]
        return out


# -- reading ------------------------------------------------------------------


def loads(text: str) -> MatchLog:
    """Read a document from its JSON text.

    Anything wrong — not JSON, nested too deeply, duplicate fields, ``NaN``, an
    integer of absurd length, or any structural problem — is a :class:`LogError`.

    >>> loads("{")
    Traceback (most recent call last):
    ...
    games.records.log.LogError: the document is not valid JSON: Expecting property name enclosed in double quotes at line 1, column 2
    >>> loads("[" * 100 + "]" * 100)
    Traceback (most recent call last):
    ...
    games.records.log.LogError: the document is nested more than 32 levels deep (a mahjong-log/1 document needs 5)
    """
    if not isinstance(text, str):
        raise TypeError(f"loads() takes the document's text, not {type(text).__name__}")
    if len(text) > MAX_CHARS:
        raise LogError(Message("the document is longer than {n:,} characters", n=MAX_CHARS))
    # The exact depth scan costs as much as parsing; large documents skip it, since the
    # strict reader rejects any unexpected structure and the parser's recursion guard
    # stops absurd depths.
    if len(text) < _SCAN_BELOW and _nesting(text) > MAX_DEPTH:
        raise _too_deep()
    try:
        # Integers parse natively (the reader bounds every one it reads); Python's own
        # digit limit stops absurd literals before they cost anything.
        data = json.loads(text, object_pairs_hook=_unique_fields,
                          parse_constant=_no_constant)
    except LogError:
        raise
    except json.JSONDecodeError as error:
        # Some of the parser's sentences end in "at" themselves ("Unterminated string
        # starting at"): said once, before the line and column.
        detail = error.msg.removesuffix(" starting at").removesuffix(" at")
        raise LogError(Message("the document is not valid JSON: {detail} at line {line}, "
                               "column {column}", detail=detail, line=error.lineno,
                               column=error.colno)) from None
    except RecursionError:
        raise _too_deep() from None
    except ValueError as error:
        if "integer string conversion" in str(error):
            raise LogError(Message("an integer in the document is too large (thousands of "
                                   "digits)")) from None
        raise LogError(Message("the document is not valid JSON: {detail}",
                               detail=str(error))) from None
    return read_log(data)


# The reader of a seat-view document (``"view"``): games.records.seat_view registers itself
# here when the package is imported (it builds on this module, so this one can't import it).
SEAT_VIEW_READERS: list[Callable[[dict[str, Any]], MatchLog]] = []

_SCAN_BELOW = 200_000
_DOCUMENT_FIELDS = ("format", "variant", "title", "played_at", "players", "rules", "hands")


def _too_deep() -> LogError:
    return LogError(Message("the document is nested more than {n} levels deep "
                            "(a mahjong-log/1 document needs 5)", n=MAX_DEPTH))


def read_log(data: Any) -> MatchLog:
    """Read a document already parsed from JSON (objects as dicts, arrays as lists).

    >>> read_log([])
    Traceback (most recent call last):
    ...
    games.records.log.LogError: a mahjong-log/1 document is a JSON object, not an array
    """
    try:
        return _read_log(data)
    except ReadError as error:
        raise _logged(error) from None


def _read_log(data: Any) -> MatchLog:
    if not isinstance(data, dict):
        raise LogError(Message("a {format} document is a JSON object, not {type}",
                               format=FORMAT, type=json_type(data)))
    _check_format(data)
    if "view" in data and SEAT_VIEW_READERS:
        return SEAT_VIEW_READERS[0](data)  # games.records.seat_view, which reads through us
    document = Message("the document")
    readers.no_unknown_fields(data, _DOCUMENT_FIELDS, document)
    variant = _variant(readers.required(data, "variant", document))
    players = _players(readers.required(data, "players", document))
    rules_written = "rules" in data
    rules = _rules(variant, data.get("rules", {}))
    title = _optional(data, "title", _title)
    played_at = _optional(data, "played_at", _played_at)
    raw_hands = readers.required(data, "hands", document)
    if not isinstance(raw_hands, list) or not raw_hands:
        raise LogError(Message("hands must be a non-empty array of hands"))
    if len(raw_hands) > MAX_HANDS:
        raise LogError(Message("the document has {n} hands; at most {most} are read",
                               n=len(raw_hands), most=MAX_HANDS))
    hands = tuple(_located(index, None, _hand, raw, variant, players)
                  for index, raw in enumerate(raw_hands, 1))
    return MatchLog(variant.name, players, hands, rules, title, played_at, rules_written)


def read_event(raw: Any, variant: str) -> Event:
    """One event already parsed from JSON, checked for structure as in a hand's ``events``.

    >>> read_event({"type": "discard", "actor": 2, "tile": "7z"}, "jiaxing")
    Event(type='discard', actor=2, tile=Tile.parse('7z'))
    >>> read_event({"type": "flower", "actor": 2, "tile": "5z"}, "sichuan")
    Traceback (most recent call last):
    ...
    games.records.log.LogError: sichuan has no flower event; it is putian only (PT-3)
    """
    try:
        return _event(raw, _variant(variant))
    except ReadError as error:
        raise _logged(error) from None


# -- writing ------------------------------------------------------------------


def write_log(match: MatchLog) -> dict[str, Any]:
    """The match as a document (a dict ready for ``json.dump``).

    For every valid document ``write_log(read_log(doc)) == doc``. Writing does
    not check: pass the result through :func:`read_log` to check a match built
    in code.
    """
    return match.to_json()


def dumps(match: MatchLog) -> str:
    """The match as JSON text: one line per field, per seat's deal and per event.

    >>> print(dumps(MatchLog("putian", ("A", "B", "C", "D"), (), {"fee": 10})))
    {
      "format": "mahjong-log/1",
      "variant": "putian",
      "players": ["A", "B", "C", "D"],
      "rules": {"fee": 10},
      "hands": []
    }
    """
    doc = write_log(match)
    items = [_lines(key, [_hand_lines(hand, "    ") for hand in value], "  ", "[]")
             if key == "hands" else f"  {_json(key)}: {_json(value)}"
             for key, value in doc.items()]
    return _lines(None, items, "", "{}")


def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the format, ``games/records/schemas/mahjong-log-1.schema.json``.

    >>> schema()["properties"]["format"]["const"]
    'mahjong-log/1'
    """
    path = resources.files("games.records").joinpath("schemas", "mahjong-log-1.schema.json")
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def _lines(key: str | None, items: Sequence[str], indent: str, brackets: str) -> str:
    """A JSON array or object spread over lines; ``items`` are already written."""
    head = f"{indent}{_json(key)}: " if key is not None else indent
    if not items:
        return head + brackets
    inner = ",\n".join(items)
    return f"{head}{brackets[0]}\n{inner}\n{indent}{brackets[1]}"


def _hand_lines(hand: dict[str, Any], indent: str) -> str:
    inner = indent + "  "
    items = [_lines(key, [inner + "  " + _json(row) for row in value], inner, "[]")
             if key in ("deal", "events") else f"{inner}{_json(key)}: {_json(value)}"
             for key, value in hand.items()]
    return _lines(None, items, indent, "{}")


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


# -- the text -----------------------------------------------------------------


def _nesting(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON text (brackets in strings skipped).

    >>> _nesting('{"a": [1, "]]", "\\\\\\"[["], {}}')
    2
    """
    plain = text.replace("\\\\", "").replace('\\"', "")  # escaped backslashes, then quotes
    outside = "".join(plain.split('"')[::2])
    brackets = _NOT_BRACKETS.sub("", outside)
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def _unique_fields(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):  # rare: find the repeated field to name it
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise LogError(Message("the field {field} appears twice in one object",
                                       field=json.dumps(key, ensure_ascii=False)))
            seen.add(key)
    return out


def _no_constant(name: str) -> Any:
    raise LogError(Message("{name} is not a JSON number", name=name))


# -- the document -------------------------------------------------------------


def _check_format(data: dict[str, Any]) -> None:
    if "format" not in data:
        raise LogError(Message('format is missing: a {format} document has "format": '
                               '"{format}"', format=FORMAT))
    if data["format"] != FORMAT or not isinstance(data["format"], str):
        raise LogError(Message('format must be exactly "{format}", not {value}',
                               format=FORMAT, value=show(data["format"])))


def _variant(value: Any) -> type[Variant]:
    try:
        return variant_named(value)
    except PositionError as error:
        raise LogError(message_of(error)) from None


def _players(value: Any) -> tuple[str, str, str, str]:
    if not isinstance(value, list) or len(value) != 4:
        count = (Message("{n} names", n=len(value)) if isinstance(value, list)
                 else json_type(value))
        raise LogError(Message("players must be an array of four names, seat 0 first, "
                               "not {count}", count=count), rule="C-2")
    for seat, name in enumerate(value):
        _text(Message("the name of seat {seat}", seat=seat), name, MAX_NAME)
    return value[0], value[1], value[2], value[3]


def _text(what: str, value: Any, longest: int) -> str:
    text = readers.read_string(value, what)
    if not text.strip():
        raise LogError(Message("{what} is empty", what=what))
    if len(text) > longest:
        raise LogError(Message("{what} is {n} characters long; at most {most} are allowed",
                               what=what, n=len(text), most=longest))
    bad = next((c for c in text if unicodedata.category(c) in ("Cc", "Cs")), None)
    if bad is not None:
        raise LogError(Message("{what} contains the control character U+{code:04X}",
                               what=what, code=ord(bad)))
    return text


def _title(value: Any) -> str:
    return _text("title", value, MAX_TITLE)


def _played_at(value: Any) -> str:
    if not isinstance(value, str):
        raise LogError(Message("played_at must be an ISO 8601 time string, not {type}",
                               type=json_type(value)))
    if not _DATE_TIME.fullmatch(value):
        raise LogError(Message("played_at must be an ISO 8601 time like "
                               "2026-11-20T19:30:00+08:00, not {value}", value=show(value)))
    try:
        datetime.fromisoformat(value)
    except ValueError:
        raise LogError(Message("played_at {value} is no real date and time",
                               value=show(value))) from None
    return value


def _rules(variant: type[Variant], value: Any) -> dict[str, int | str | bool]:
    if not isinstance(value, dict):
        raise LogError(Message("rules must be an object of options, not {type}",
                               type=json_type(value)))
    for name, option in value.items():
        if name not in variant.OPTIONS:
            raise LogError(Message("unknown {variant} rules option {name} (known: {known})",
                                   variant=variant.name, name=show(name),
                                   known=", ".join(variant.OPTIONS) or Message("none")))
        if not isinstance(option, int | str) or isinstance(option, str) and len(option) > 64:
            raise LogError(Message("rules option {name} must be a number, a name or "
                                   "true/false, not {value}", name=show(name),
                                   value=show(option)))
        if type(option) is int and abs(option) > MAX_OPTION:
            raise LogError(Message("rules option {name} is too large (at most {most:,})",
                                   name=show(name), most=MAX_OPTION))
    try:
        return variant.check_rules(value)
    except PositionError as error:
        raise LogError(message_of(error)) from None


# -- hands --------------------------------------------------------------------

def _hand(raw: Any, variant: type[Variant], players: Sequence[str]) -> HandLog:
    readers.read_object(raw, Message("a hand"))
    for key in raw:
        if key not in variant.HAND_FIELDS:
            message, rule = _foreign_hand_field(key, variant)
            raise LogError(message, rule=rule)
    the_hand = Message("the hand")
    for key, rule in variant.REQUIRED_FIELDS.items():
        readers.required(raw, key, the_hand, rule)
    dealer = readers.read_seat(raw["dealer"], "dealer")
    return HandLog(
        dealer=dealer,
        dice=_dice(raw["dice"]),
        round_wind=_optional(raw, "round_wind", readers.read_round_wind),
        wildcards=_wildcards(variant, raw.get("wildcards", [])),
        indicator=_optional(raw, "indicator", lambda v: _tile("indicator", v, variant)),
        bank=_optional(raw, "bank", _bank),
        dealer_streak=_optional(raw, "dealer_streak", _dealer_streak),
        deal=_deal(raw["deal"], dealer, variant, players),
        wall=_optional(raw, "wall", lambda v: _wall(v, variant)),
        events=_events(raw["events"], variant),
    )


def _read_hand(raw: Any, variant: type[Variant], players: Sequence[str], number: int) -> HandLog:
    """One hand already parsed from JSON, checked for structure; errors placed in hand
    ``number`` (the seat view reads its filled-in hands one by one)."""
    return _located(number, None, _hand, raw, variant, players)


def _foreign_hand_field(key: str, variant: type[Variant]) -> tuple[str, str | None]:
    name = variant.name
    for owner in VARIANTS.values():
        if key in owner.OWN_FIELDS:
            return (Message("{field} is a {owner} field; {variant} hands have none", field=key,
                            owner=owner.name, variant=name), owner.OWN_FIELDS[key])
    if key == "wildcards":
        return (Message("{variant} plays without wildcards: a {variant} hand has no "
                        "wildcards field", variant=name), variant.WILDCARD_RULE)
    return (Message("unknown hand field {field} (the fields of a {variant} hand: {known})",
                    field=show(key), variant=name, known=", ".join(variant.HAND_FIELDS)), None)


def _dice(value: Any) -> tuple[int, int]:
    if (not isinstance(value, list) or len(value) != 2
            or any(type(d) is not int or not 1 <= d <= 6 for d in value)):
        raise LogError(Message("dice must be two integers 1–6 like [3, 5], not {value}",
                               value=show(value)))
    return value[0], value[1]


def _wildcards(variant: type[Variant], value: Any) -> tuple[Tile, ...]:
    wanted = variant.WILDCARD_KINDS
    rule = variant.WILDCARD_RULE
    description = variant.WILDCARDS_WANTED
    if not isinstance(value, list) or len(value) != wanted:
        raise LogError(Message("wildcards must list {wanted}, not {value}", wanted=description,
                               value=show(value)), rule=rule)
    tiles = readers.read_wildcards(value, rule=rule)
    for tile in tiles:
        _check_played("wildcards", tile, variant)
    return tiles


def _bank(value: Any) -> tuple[str, ...]:
    if isinstance(value, list) and len(value) > 4 * MAX_HANDS:
        raise LogError(Message("bank holds {n} carried fans; at most {most}", n=len(value),
                               most=4 * MAX_HANDS), rule="JX-7.11")
    return readers.read_bank(value)


def _dealer_streak(value: Any) -> int:
    return readers.read_int(value, "dealer_streak", 0, MAX_DEALER_STREAK, rule="PT-7.1")


def _deal(value: Any, dealer: int, variant: type[Variant],
          players: Sequence[str]) -> tuple[tuple[Tile, ...], ...]:
    rule = variant.SETUP_RULE
    if not isinstance(value, list) or len(value) != 4:
        raise LogError(Message("deal must be four arrays of tiles, one per seat, seat 0 first, "
                               "not {value}", value=show(value)), rule=rule)
    others = 3 * variant.SETS + 1
    seats: list[tuple[Tile, ...]] = []
    for seat, tiles in enumerate(value):
        who = Message("seat {seat} ({player})", seat=seat, player=players[seat])
        if not isinstance(tiles, list):
            raise LogError(Message("the deal of {who} must be an array of tiles, not {type}",
                                   who=who, type=json_type(tiles)), rule=rule)
        wanted = others + 1 if seat == dealer else others
        if len(tiles) != wanted:
            raise LogError(Message("{who} is dealt {n} tiles; in {variant} the dealer starts "
                                   "with {want}" if seat == dealer else
                                   "{who} is dealt {n} tiles; in {variant} a player other than "
                                   "the dealer starts with {want}", who=who, n=len(tiles),
                                   variant=variant.name, want=wanted), rule=rule)
        deal_of = Message("the deal of {who}", who=who)
        seats.append(tuple(_tile(deal_of, t, variant) for t in tiles))
    return tuple(seats)


def _wall(value: Any, variant: type[Variant]) -> tuple[Tile, ...]:
    if not isinstance(value, list):
        raise LogError(Message("wall must be an array of tiles, front first, not {type}",
                               type=json_type(value)))
    room = _wall_room(variant)
    if len(value) > room:
        raise LogError(Message("the wall has {n} tiles; {variant} has only {room} left "
                               "after the deal", n=len(value), variant=variant.name, room=room),
                       rule=variant.SETUP_RULE)
    return tuple(_tile("wall", t, variant) for t in value)


def _wall_room(variant: type[Variant]) -> int:
    """Tiles of the variant minus the tiles dealt."""
    total = 4 * (27 + len(variant.HONOURS))
    return total - (4 * (3 * variant.SETS + 1) + 1)


def _tile(what: str, value: Any, variant: type[Variant]) -> Tile:
    return _check_played(what, readers.read_tile(value, what), variant)


def _check_played(what: str, tile: Tile, variant: type[Variant]) -> Tile:
    if tile.is_honour and tile.kind not in variant.HONOURS:
        raise LogError(Message("{what}: {tile} is not a {variant} tile; {variant} plays "
                               "{played}", what=what, tile=tile, variant=variant.name,
                               played=variant.TILES_PLAYED), rule=variant.TILES_RULE)
    return tile


# -- events -------------------------------------------------------------------

_EVENT_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "draw": (("actor", "tile"), ("from",)),
    "discard": (("actor", "tile"), ()),
    "chi": (("actor", "target", "tile", "tiles"), ()),
    "peng": (("actor", "target", "tile"), ()),
    "gang": (("actor", "kind", "tile"), ("target",)),
    "hu": (("actor", "tile"), ("target", "how")),
    "flower": (("actor", "tile"), ()),
    "dingque": (("actor", "suit"), ()),
    "ready": (("actor",), ()),
    "contract": (("actor", "choice"), ()),
    "leave": (("actor",), ()),
    "end": (("reason",), ("deltas",)),
    "exchange": (("actor", "tiles"), ()),
}
_EVENT_NAMES = {"chi": "chi (chow)", "peng": "peng (pung)", "dingque": "dingque (void suit)"}


def _events(value: Any, variant: type[Variant]) -> tuple[Event, ...]:
    if not isinstance(value, list) or not value:
        raise LogError(Message("events must be a non-empty array of events ending with end, "
                               "not {value}", value=show(value)))
    if len(value) > MAX_EVENTS:
        raise LogError(Message("the hand has {n} events; at most {most} are read",
                               n=len(value), most=MAX_EVENTS))
    read: list[Event] = []
    try:
        for raw in value:
            read.append(_event(raw, variant))
    except (LogError, ReadError) as error:
        raise _logged(error).at(event=len(read) + 1) from None
    events = tuple(read)
    for index, event in enumerate(events, 1):
        if event.type == "end" and index < len(events):
            raise LogError(Message("end must be the hand's last event; more events follow it"),
                           event=index)
    if events[-1].type != "end":
        raise LogError(Message("the hand's last event must be end, not {type}",
                               type=events[-1].type), event=len(events))
    return events


# Draws and discards are most of a log; being immutable, each distinct one is read once.
_KNOWN_EVENTS: dict[tuple[Any, ...], Event] = {}
_REUSED = ("draw", "discard", "flower")


def _event(raw: Any, variant: type[Variant]) -> Event:
    if type(raw) is dict and len(raw) <= 4:
        actor, tile, source = raw.get("actor"), raw.get("tile"), raw.get("from")
        kind = raw.get("type")
        if (type(actor) is int and type(tile) is str and type(kind) is str
                and (source is None or type(source) is str)):
            key = (variant.name, kind, actor, tile, source, len(raw))
            known = _KNOWN_EVENTS.get(key)
            if known is None:
                known = _read_event(raw, variant)
                if known.type in _REUSED and len(_KNOWN_EVENTS) < 10_000:
                    _KNOWN_EVENTS[key] = known
            return known
    return _read_event(raw, variant)


_AN_EVENT = Message("an event")


def _read_event(raw: Any, variant: type[Variant]) -> Event:
    readers.read_object(raw, _AN_EVENT)
    if "type" not in raw:
        raise LogError(Message("the event has no type"))
    kind = raw["type"]
    if not isinstance(kind, str) or kind not in _EVENT_FIELDS:
        raise LogError(Message("unknown event type {value} (use {known})", value=show(kind),
                               known=", ".join(EVENT_TYPES)))
    _check_variant(kind, variant)
    required, optional = _EVENT_FIELDS[kind]
    for key in raw:
        if key != "type" and key not in required and key not in optional:
            raise LogError(Message("{type} has no field {field} (its fields: {known})",
                                   type=kind, field=show(key),
                                   known=", ".join(("type", *required, *optional))))
    for key in required:
        if key not in raw:
            raise LogError(Message("{type} needs the field {field}", type=kind, field=key))
    values = {_FIELD_NAMES.get(key, key): _EVENT_READERS.get((kind, key), _READERS[key])(
        raw[key], variant) for key in (*required, *optional) if key in raw}
    event = Event(kind, source_written="from" in raw, **values)
    _check_event(event, variant)
    return event


def _check_variant(kind: str, variant: type[Variant]) -> None:
    rule = variant.MISSING_EVENTS.get(kind)
    if rule is not None:
        owners = [v.name for v in VARIANTS.values() if kind not in v.MISSING_EVENTS]
        raise LogError(Message("{variant} has no {type} event; it is {owners} only",
                               variant=variant.name, type=_EVENT_NAMES.get(kind, kind),
                               owners=" and ".join(owners)), rule=rule)


def _check_event(event: Event, variant: type[Variant]) -> None:
    if event.target is not None and event.target == event.actor:
        raise LogError(Message("{type}: the target must be another seat than the actor",
                               type=event.type), rule="C-2")
    if event.type == "gang":
        if (event.kind == "exposed") != (event.target is not None):
            raise LogError(Message("an exposed gang needs the target whose discard it takes")
                           if event.kind == "exposed" else
                           Message("a {kind} gang has no target (only an exposed gang has)",
                                   kind=event.kind))
        if event.kind not in variant.KONG_KINDS:
            raise LogError(Message("{variant} has no {kind} gang, only {kinds} ones",
                                   variant=variant.name, kind=event.kind,
                                   kinds=" and ".join(variant.KONG_KINDS)),
                           rule=variant.KONG_RULE)
    if event.type == "chi":
        _check_chow(event)
    if event.type == "hu":
        _check_hu(event, variant)
    if event.type == "flower" and str(event.tile) != "5z":
        raise LogError(Message("a flower is a white (5z), not {tile}", tile=event.tile),
                       rule="PT-3")


def _check_chow(event: Event) -> None:
    assert event.tile is not None
    kinds = sorted(t.kind for t in (event.tile, *event.tiles))
    if (event.tile.is_honour or any(t.suit != event.tile.suit for t in event.tiles)
            or kinds != list(range(kinds[0], kinds[0] + 3))):
        raise LogError(Message("chi: {tile} {first} {second} is no chow (three consecutive "
                               "tiles of one suit)", tile=event.tile, first=event.tiles[0],
                               second=event.tiles[1]), rule="C-3")


def _check_hu(event: Event, variant: type[Variant]) -> None:
    if event.how is not None:
        rule = variant.MISSING_WINS.get(event.how)
        if rule is not None:
            raise LogError(Message("{variant} has no {how} win", variant=variant.name,
                                   how=event.how), rule=rule)
        if event.how == "robbing_kong" and event.target is None:
            raise LogError(Message("a robbing_kong win needs the target whose kong is robbed"))
        if event.how != "robbing_kong" and event.target is not None:
            raise LogError(Message("a {how} win has no target", how=event.how))
    elif not variant.DISCARD_WINS and event.target is not None:
        raise LogError(Message("{variant} has no win on a discard: a hu with a target must "
                               "be how robbing_kong", variant=variant.name),
                       rule=variant.DISCARD_WIN_RULE)


def _read_tiles(value: Any, variant: type[Variant]) -> tuple[Tile, ...]:
    if not isinstance(value, list) or len(value) != 2:
        raise LogError(Message("chi tiles must be the two tiles shown from hand, like "
                               "[\"3m\", \"5m\"], not {value}", value=show(value)))
    return tuple(_tile("chi tiles", t, variant) for t in value)


def _read_exchange_tiles(value: Any, variant: type[Variant]) -> tuple[Tile, ...]:
    if not isinstance(value, list) or len(value) != 3:
        raise LogError(Message("exchange tiles must be the three tiles set aside, like "
                               "[\"2m\", \"5m\", \"9m\"], not {value}", value=show(value)),
                       rule="SC-H1")
    return tuple(_tile("exchange tiles", t, variant) for t in value)


def _read_deltas(value: Any, variant: type[Variant]) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != 4 or any(type(d) is not int for d in value):
        raise LogError(Message("end deltas must be four integers, one per seat, not {value}",
                               value=show(value)))
    for delta in value:
        if abs(delta) > MAX_DELTA:
            raise LogError(Message("end deltas: {delta} is beyond ±{most:,}", delta=delta,
                                   most=MAX_DELTA))

    return tuple(value)


def _choice(name: str, choices: Sequence[str],
            rule: str | None = None) -> Callable[[Any, type[Variant]], str]:
    return lambda value, _: readers.read_choice(value, name, choices, rule)


_FIELD_NAMES = {"from": "source"}
_READERS: dict[str, Callable[[Any, type[Variant]], Any]] = {
    "actor": lambda v, _: readers.read_seat(v, "actor"),
    "target": lambda v, _: readers.read_seat(v, "target"),
    "tile": lambda v, variant: _tile("tile", v, variant),
    "tiles": _read_tiles,
    "from": _choice("from", SOURCES),
    "kind": lambda v, _: readers.read_gang_kind(v, "kind"),
    "how": _choice("how", HU_HOWS),
    "suit": lambda v, _: readers.read_suit(v, "suit"),
    "choice": _choice("choice", CHOICES, "JX-9"),
    "reason": _choice("reason", REASONS),
    "deltas": _read_deltas,
}
# Fields read differently by one event type: an exchange's three tiles (SC-H1).
_EVENT_READERS: dict[tuple[str, str], Callable[[Any, type[Variant]], Any]] = {
    ("exchange", "tiles"): _read_exchange_tiles,
}


# -- helpers ------------------------------------------------------------------


def _located(hand: int | None, event: int | None, read: Callable[..., _T], *args: Any) -> _T:
    """``read(*args)``, with any error it raises placed in the hand or event."""
    try:
        return read(*args)
    except (LogError, ReadError) as error:
        raise _logged(error).at(hand=hand, event=event) from None


def _optional(data: dict[str, Any], key: str, read: Callable[[Any], Any]) -> Any:
    return read(data[key]) if key in data else None




# The names these had before they stopped sharing the site's model names (replays.models
# has Match and Hand): kept for code written against them; new code uses MatchLog, HandLog.
Match = MatchLog
Hand = HandLog
