"""The ledger's WebSocket (issue 30): ``/ledger/s/<token>/ws``, read-only.

A socket follows one ledger by its share token: on connect it is told the ledger's row count,
then ``{"type": "changed", "rows": n}`` each time a row is added or undone
(:mod:`replays.ledger.live`); the page fetches the ledger again. It accepts nothing but
``{"type": "heartbeat"}``.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from replays.ledger import live
from replays.models.ledger import Ledger

CLOSE_NO_LEDGER = 4404


class LedgerConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    group = ""

    async def connect(self) -> None:
        token = self.scope["url_route"]["kwargs"]["token"]
        rows = await database_sync_to_async(_rows)(token)
        if rows is None:
            await self.close(code=CLOSE_NO_LEDGER)
            return
        self.group = live.group(token)
        await self.accept()
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.send_json({"type": "changed", "rows": rows})

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if isinstance(content, dict) and content.get("type") == "heartbeat":
            await self.send_json({"type": "heartbeat"})
        else:
            await self.send_json({"type": "error", "message": "this socket only follows the "
                                  "ledger: send {\"type\": \"heartbeat\"}"})

    async def ledger_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "changed", "rows": event["rows"]})


def _rows(token: str) -> int | None:
    """The ledger's row count; None: no such ledger."""
    ledger = Ledger.objects.filter(share_token=token).first()
    return None if ledger is None else ledger.rows.count()
