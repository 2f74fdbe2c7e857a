"""Refusal messages that keep their template and parameters (so a reader may translate them).

A :class:`Message` *is* the English sentence (a ``str``), formatted from a template
whose parameters stay attached: an error built with one keeps its ``message`` exactly
as before, and a site can render ``template`` and ``params`` in another language.

Parameter values are shown as they are, except: a :class:`~games.core.tiles.Tile` (or a
tuple of tiles, written one after the other) is a tile, and a :class:`Message` is a
nested sentence with its own template and parameters.

>>> from games.core.tiles import Tile
>>> why = Message("they hold no {tile}", tile=Tile.parse("5m"))
>>> message = Message("{player} can't chow {tile}: {why}", player="Dana",
...                   tile=Tile.parse("4m"), why=why)
>>> message
"Dana can't chow 4m: they hold no 5m"
>>> message.template, sorted(message.params)
("{player} can't chow {tile}: {why}", ['player', 'tile', 'why'])
>>> message.params["why"].template
'they hold no {tile}'
>>> Message("{tiles}: no run", tiles=(Tile.parse("3m"), Tile.parse("5m")))
'3m5m: no run'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.tiles import Tile


class Message(str):
    """An English sentence formatted from ``template`` with ``params`` (kept)."""

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, /, **params: Any) -> Message:
        text = template.format(**{name: plain(value) for name, value in params.items()})
        made = super().__new__(cls, text)
        made.template = template
        made.params = params
        return made

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle with the template and parameters (a task queue may carry the error)."""
        return _message, (self.template, self.params)


def _message(template: str, params: Mapping[str, Any]) -> Message:
    return Message(template, **params)


def plain(value: Any) -> Any:
    """A parameter as the English sentence writes it: tiles as codes, the rest as is.

    >>> plain((Tile.parse("1z"), Tile.parse("2z"))), plain(3)
    ('1z2z', 3)
    """
    if isinstance(value, Tile):
        return str(value)
    if isinstance(value, tuple) and value and all(isinstance(t, Tile) for t in value):
        return "".join(str(t) for t in value)
    return value


def message_of(error: BaseException) -> str:
    """An error's message, a :class:`Message` kept as one (``str(error)`` would lose it).

    >>> message_of(ValueError(Message("the {n}th", n=3))).template
    'the {n}th'
    """
    first = error.args[0] if len(error.args) == 1 else None
    return first if isinstance(first, Message) else str(error)


def after_rule(message: str) -> str:
    """A message that starts with its rule id ("JX-5.3: needs ..."), without it; a
    :class:`Message` stays one (its template loses the rule too).

    >>> after_rule(Message("{rule}: no legal reading", rule="C-3")).template
    'no legal reading'
    >>> after_rule("JX-5.3: needs 对对和")
    'needs 对对和'
    """
    _, _, sentence = message.partition(": ")
    if isinstance(message, Message):
        return Message(message.template.partition(": ")[2], **message.params)
    return sentence


class Templated:
    """An error whose ``message`` may be a :class:`Message`: its template and parameters,
    for translations (the engine's refusals: rule violations, log and reader errors)."""

    message: str

    @property
    def template(self) -> str:
        """The message's template (:class:`games.core.messages.Message`), for translations."""
        return template_of(self.message)[0]

    @property
    def params(self) -> dict[str, Any]:
        """The message's parameters: tiles as :class:`Tile`, nested sentences as messages."""
        return template_of(self.message)[1]


def template_of(message: str) -> tuple[str, dict[str, Any]]:
    """The template and parameters of a message; a plain string is its own template.

    >>> template_of("the hand is over")
    ('the hand is over', {})
    """
    if isinstance(message, Message):
        return message.template, message.params
    return message.replace("{", "{{").replace("}", "}}"), {}
