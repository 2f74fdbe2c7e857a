"""The channel layer of a single ASGI process (no ``CHANNEL_LAYER_URL``: ``make run``, one
daphne): channels' in-memory layer, made to cost the same with 200 sockets as with two.

channels' ``InMemoryChannelLayer`` walks every channel and every group membership of the
process to drop expired ones on each ``receive`` and each ``group_send``, so each message
costs in proportion to the sockets open (issue 28's load test: 200 of them), and it starts
a task per member of a group to send. Here the walk runs at most once per
``CLEAN_EVERY_SECONDS`` (a message may then outlive its expiry, 60 s, by that much at most)
and a group's members are sent to directly (a send only queues the message).
"""

from __future__ import annotations

import time
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer

CLEAN_EVERY_SECONDS = 1.0


class MemoryChannelLayer(InMemoryChannelLayer):  # type: ignore[misc]
    _cleaned_at = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._cleaned_at < CLEAN_EVERY_SECONDS:
            return
        self._cleaned_at = now
        super()._clean_expired()

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, {})):
            try:
                await self.send(channel, message)
            except ChannelFull:
                pass
