"""What each listener of a room is sent when the room changes: pure, no sockets (issue 28).

A listener is a seat (its number) or a spectator (None). Each message is that listener's
own view, built by the same function as ``state.json`` (:func:`replays.tables.services.
state_json`): a seat sees its own tiles and the others' counted; a spectator public
information only (no concealed tile at all until a hand ends). Nothing here reads the
stored row's seed or walls.

>>> listeners = [Listener("a", 0), Listener("b", None)]
>>> views = {0: {"step": 3, "you": {"hand": ["1m"]}}, None: {"step": 3, "you": None}}
>>> [(c, m["type"], m["state"]["you"]) for c, m in messages(listeners, views.__getitem__)]
[('a', 'state', {'hand': ['1m']}), ('b', 'state', None)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

View = Callable[[int | None], dict[str, Any]]


@dataclass(frozen=True)
class Listener:
    """One open socket: its channel name and the seat it speaks for (None: a spectator)."""

    channel: str
    seat: int | None


def messages(listeners: Iterable[Listener], view: View) -> list[tuple[str, dict[str, Any]]]:
    """Per listener, the message to send: ``{"type": "state", "state": <its view>}``. Each
    view is built once per seat however many sockets a seat has open."""
    built: dict[int | None, dict[str, Any]] = {}
    out = []
    for listener in listeners:
        if listener.seat not in built:
            built[listener.seat] = view(listener.seat)
        out.append((listener.channel, {"type": "state", "state": built[listener.seat]}))
    return out


def message_for(seat: int | None, view: View) -> dict[str, Any]:
    """The one message for a socket that (re)connects: its full view."""
    return {"type": "state", "state": view(seat)}
