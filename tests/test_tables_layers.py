"""The tables' channel layers (issue 28, docs/tables.md): what the rooms' pushes go through.

With Redis (``CHANNEL_LAYER_URL``, several ASGI processes) every socket of a process
receives through one Redis key, so the layer's capacity bounds that key, not a socket: a
process behind by more than 100 messages (the default) lost every group message past them,
silently, and its tables stalled under load. The site's capacity keeps them: a process with
far more sockets than 100 gets every message. Redis is ``TABLES_TEST_REDIS_URL`` (default
``redis://127.0.0.1:6379/10``), emptied before and after. In one process the layer is
``replays.memory_layer``: channels' in-memory layer, its expiry walk at most once a second.
"""

from __future__ import annotations

import asyncio
import os
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.conf import settings

from replays import memory_layer
from replays.memory_layer import MemoryChannelLayer

from .conftest import redis_or_skip

REDIS_URL = os.environ.get("TABLES_TEST_REDIS_URL", "redis://127.0.0.1:6379/10")
SOCKETS = 300


def run_apart(scenario: Any) -> Any:
    """Run a coroutine function to its end on a thread of its own (a browser test's loop may
    be running on the main thread)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(lambda: asyncio.run(scenario())).result()


def test_it_gives_every_socket_of_a_busy_process_its_group_message() -> None:
    from channels_redis.core import RedisChannelLayer

    client = redis_or_skip(REDIS_URL)
    client.flushdb()
    config = {"hosts": [REDIS_URL], "capacity": settings.CHANNEL_LAYER_CAPACITY}

    async def scenario() -> list[Any]:
        process, other = RedisChannelLayer(**config), RedisChannelLayer(**config)
        channels = [await process.new_channel() for _ in range(SOCKETS)]
        for number, channel in enumerate(channels):
            await process.group_add(f"table.t.seat.{number}", channel)
        # Another process pushes to each socket's group before this one receives any.
        for number in range(SOCKETS):
            await other.group_send(f"table.t.seat.{number}",
                                   {"type": "room.view", "text": str(number)})
        received = [await asyncio.wait_for(process.receive(channel), 5) for channel in channels]
        await process.close_pools()
        await other.close_pools()
        return received

    try:
        received = run_apart(scenario)
    finally:
        client.flushdb()
    assert [message["text"] for message in received] == [str(n) for n in range(SOCKETS)]


def test_it_sends_a_group_message_to_every_member_in_one_process() -> None:
    async def scenario() -> list[Any]:
        layer = MemoryChannelLayer()
        channels = [await layer.new_channel() for _ in range(3)]
        for channel in channels:
            await layer.group_add("table.t.seat.0", channel)
        await layer.group_send("table.t.seat.0", {"type": "room.view", "text": "x"})
        return [await asyncio.wait_for(layer.receive(c), 1) for c in channels]

    assert [m["text"] for m in run_apart(scenario)] == ["x", "x", "x"]


def test_it_drops_expired_messages_at_most_once_a_second(monkeypatch: Any) -> None:
    async def scenario() -> tuple[bool, bool]:
        layer = MemoryChannelLayer(expiry=0)
        kept, dropped = await layer.new_channel(), await layer.new_channel()
        await layer.send(dropped, {"type": "room.view", "text": "old"})
        now = time.monotonic()
        monkeypatch.setattr(memory_layer.time, "monotonic", lambda: now)
        layer._cleaned_at = now  # cleaned just now: not walked again within the second
        await layer.send(kept, {"type": "room.view", "text": "new"})
        layer._clean_expired()
        still = dropped in layer.channels
        monkeypatch.setattr(memory_layer.time, "monotonic",
                            lambda: now + memory_layer.CLEAN_EVERY_SECONDS)
        time.sleep(0.01)  # the messages' expiry (0 s) has passed on the wall clock
        layer._clean_expired()
        return still, dropped in layer.channels

    assert run_apart(scenario) == (True, False)
