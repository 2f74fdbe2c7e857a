"""The tables' WebSocket (issue 28, docs/tables.md): ``/tables/<id>/ws``.

The socket speaks for the seat whose ticket the session holds (the page's session cookie
comes with the handshake), or for a spectator where the room allows them. On connect it
sends the full view and marks the seat connected (the bot gives the seat back); on every
change of the room it forwards the view the changing process built for its listener (its
seat, or the spectators) without reading the room again (:mod:`replays.tables.router`);
``{"type": "heartbeat"}`` is answered with the room's committed step (a page that shows an
older one missed a push, and fetches its view again) and keeps the seat seen;
``{"type": "act", "step", "action"}`` answers the seat's decision as ``POST …/act`` does (the reply is ``{"type":
"answer", "status", "state" or "error"}``, without an HTTP request per answer); on close the
seat is marked disconnected, and after ``TABLES_GRACE_SECONDS`` the bot plays it.
"""

from __future__ import annotations

from typing import Any

from channels.consumer import get_handler_name
from channels.db import DatabaseSyncToAsync
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.http import Http404
from django.utils import timezone

from games.play.bot_match import IllegalAction, PlayError, StaleStep
from replays.models.tables import Room, Seat
from replays.tables import router, services

CLOSE_NOT_ALLOWED = 4403
CLOSE_NO_ROOM = 4404


def database_sync_to_async(func: Any) -> Any:
    """channels' ``database_sync_to_async`` on the event loop's pool of threads, not on the
    one thread that every socket of the process shares by default: answers to different
    rooms wait for the database side by side, as HTTP requests (each on a thread of its
    own) do; the room's row lock still orders the changes of one room. Each call has a
    connection of its own (from ``DATABASE_POOL_SIZE``'s pool), closed after it."""
    return DatabaseSyncToAsync(func, thread_sensitive=False)


class TableConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    public_id = ""
    seat: int | None = None
    ticket: str | None = None
    group = ""

    async def connect(self) -> None:
        self.public_id = self.scope["url_route"]["kwargs"]["public_id"]
        session = self.scope.get("session") or {}
        ticket = (session.get(services.SESSION_KEY) or {}).get(self.public_id)
        found = await database_sync_to_async(_who)(self.public_id, ticket)
        if found is None:
            await self.close(code=CLOSE_NO_ROOM)
            return
        allowed, seat = found
        if not allowed:
            await self.close(code=CLOSE_NOT_ALLOWED)
            return
        self.seat = seat
        self.ticket = ticket if seat is not None else None
        self.group = router.group(self.public_id, seat)
        await self.accept()
        await self.channel_layer.group_add(self.group, self.channel_name)
        if seat is not None:
            await database_sync_to_async(services.touch)(self.public_id, seat, connected=True)
        await self.send_json(await database_sync_to_async(_message)(self.public_id, seat))

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.seat is not None:
            await database_sync_to_async(services.touch)(self.public_id, self.seat,
                                                         connected=False)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if isinstance(content, dict) and content.get("type") == "heartbeat":
            step = await database_sync_to_async(_seen)(self.public_id, self.seat)
            await self.send_json({"type": "heartbeat", "step": step})
        elif isinstance(content, dict) and content.get("type") == "state":
            # A clock ran out on the page: expired deadlines are applied (and pushed) first.
            await database_sync_to_async(services.touch)(self.public_id)
            await self.send_json(await database_sync_to_async(_message)(self.public_id,
                                                                        self.seat))
        elif isinstance(content, dict) and content.get("type") == "act":
            await self.send_json(await database_sync_to_async(_answer)(
                self.public_id, self.ticket, content))
        else:
            await self.send_json({"type": "error", "message": "send {\"type\": \"heartbeat\"}, "
                                  "{\"type\": \"state\"} or {\"type\": \"act\", \"step\": N, "
                                  "\"action\": {…}}"})

    async def dispatch(self, message: dict[str, Any]) -> None:
        """channels' dispatch without its closing of old database connections before every
        message: a hop to the one thread all the process's sockets share, for each push to
        each socket, where a push touches no database. Every database use of this consumer
        is in ``database_sync_to_async``, which closes them around each call itself."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message.get('type')!r}")
        await handler(message)

    async def room_view(self, event: dict[str, Any]) -> None:
        """The room changed: send the view built (and encoded) for this socket's listener."""
        await self.send(text_data=router.forwarded(event))


def _who(public_id: str, ticket: str | None) -> tuple[bool, int | None] | None:
    """(allowed, seat number) for a ticket at a room; None: no such room."""
    room = Room.objects.filter(public_id=public_id).first()
    if room is None:
        return None
    seat = services.seat_by_ticket(room, ticket)
    if seat is not None:
        return True, seat.number
    return (not room.started or room.spectators), None


def _answer(public_id: str, ticket: str | None, content: dict[str, Any]) -> dict[str, Any]:
    """An ``act`` message answered as ``POST …/act`` answers: the seat's view (``status``
    200), or the refusal with its status and rule (409 stale, 400 illegal, 403 no seat)."""
    reply: dict[str, Any] = {"type": "answer"}
    if "id" in content:
        reply["id"] = content["id"]
    try:
        _room, view, _seat = services.answer(public_id, ticket, content.get("step"),
                                             content.get("action"))
    except StaleStep as stale:
        return reply | _refusal(409, None, stale.message)
    except IllegalAction as illegal:
        return reply | _refusal(400, illegal.rule, illegal.message)
    except PlayError as bad:
        return reply | _refusal(400, None, str(bad))
    except services.TableError as refused:
        return reply | _refusal(refused.status, None, str(refused))
    except Http404:
        return reply | _refusal(404, None, "no such table")
    return reply | {"status": 200, "state": view}


def _refusal(status: int, rule: str | None, message: Any) -> dict[str, Any]:
    return {"status": status, "error": {"rule": rule, "message": str(message)}}


def _seen(public_id: str, seat: int | None) -> int | None:
    """Mark ``seat`` seen (not a spectator); the room's committed step."""
    if seat is not None:
        Seat.objects.filter(room__public_id=public_id, number=seat).update(
            last_seen=timezone.now(), connected=True, disconnected_at=None)
    return Room.objects.filter(public_id=public_id).values_list("step", flat=True).first()


def _message(public_id: str, seat: int | None) -> dict[str, Any]:
    try:
        room = services.get_room(public_id)
    except Http404:
        return {"type": "error", "message": "no such table"}
    row = room.seats.get(number=seat) if seat is not None else None
    return router.message_for(services.seat_view(room, row))
