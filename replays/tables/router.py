"""Who is sent what when a room changes: pure, no sockets (issue 28).

Every socket of a room listens on its own listener's group: one per seat (all the tabs a
player has open on the table) and one for the spectators. When the room changes, the
process that changed it builds each listener's view once, with the function that serves
``state.json`` (:func:`replays.tables.services.state_json`), and sends it to that
listener's group only: a seat's message carries its own tiles and the others' counted, the
spectators' public information only (no concealed tile at all until a hand ends). So no
socket is ever handed another seat's view, and a socket sends what it is given without
reading the room again.

Each view is encoded once, by the process that built it: the message carries the text its
sockets send as it is (no copy of the view per socket).

>>> [group for group, _ in messages("r1", {0: {"step": 3}, 2: {"step": 3}, None: {"step": 3}})]
['table.r1.seat.0', 'table.r1.seat.2', 'table.r1.watch']
>>> messages("r1", {1: {"step": 4, "you": {"hand": ["1m"]}}})[0][1]
{'type': 'room.view', 'text': '{"type":"state","state":{"step":4,"you":{"hand":["1m"]}}}'}
>>> forwarded(messages("r1", {None: {"step": 4}})[0][1])
'{"type":"state","state":{"step":4}}'
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

Listener = int | None
"""A seat's number, or None for the spectators."""


def group(public_id: str, listener: Listener) -> str:
    """The channel layer's group of ``listener``'s sockets at a room.

    >>> group("r1", 3), group("r1", None)
    ('table.r1.seat.3', 'table.r1.watch')
    """
    return f"table.{public_id}.watch" if listener is None else f"table.{public_id}.seat.{listener}"


def messages(public_id: str, views: Mapping[Listener, dict[str, Any]]
             ) -> list[tuple[str, dict[str, Any]]]:
    """Per listener's group, the channel-layer message carrying its own view, encoded
    (:func:`message_for`'s message as JSON text)."""
    return [(group(public_id, listener), {"type": "room.view", "text": encoded(view)})
            for listener, view in views.items()]


def encoded(view: dict[str, Any]) -> str:
    """The socket message for ``view`` as the text sent to the browser."""
    return json.dumps(message_for(view), ensure_ascii=False, separators=(",", ":"))


def forwarded(event: Mapping[str, Any]) -> str:
    """What a socket sends its browser for a ``room.view`` message: the text as it came."""
    text: str = event["text"]
    return text


def message_for(view: dict[str, Any]) -> dict[str, Any]:
    """The one message for a socket that (re)connects: its full view."""
    return {"type": "state", "state": view}
