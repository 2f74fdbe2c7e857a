"""Load test of the tables with friends (issue 28, docs/tables.md): daphne on PostgreSQL,
``--tables`` rooms of four simulated people each, answering as fast as allowed.

    python tools/loadtest_tables.py [--tables 50] [--seconds 60] [--hands 2] [--think 0]
    python tools/loadtest_tables.py --processes 2 --redis redis://127.0.0.1:6379/5

Creates (or reuses) the PostgreSQL database named in LOADTEST_DATABASE_URL (default:
database ``mahjong_load`` on 127.0.0.1), migrates it and starts one ASGI process (daphne)
on 127.0.0.1 — or, with ``--processes 2``, two of them sharing the Redis channel layer
(``CHANNEL_LAYER_URL``), the players of every table split between them (seats 0 and 2 on
one, 1 and 3 on the other), so every update crosses processes. Each person is what a
browser is: a session (the create or join form, CSRF token and all), a WebSocket at
``/tables/<id>/ws`` and ``POST /tables/<id>/act`` for each answer, sent as soon as its
socket (or the answer before) shows a decision, or with ``--think S`` after a think time
drawn uniformly between 0.5 S and 1.5 S (a person's). The ASGI processes run as in
production: a pool of ``DATABASE_POOL_SIZE`` connections each, and finished matches' analysis
queued on a broker (``--broker``, a Redis database emptied at the end) rather than run in
the process serving the tables. The client is this file's own small
asyncio HTTP/1.1 and WebSocket code (RFC 6455: text frames, ping, close), so nothing is
installed for it.

Measured: for every accepted answer, the time from sending it to each of the four seats'
sockets showing a state at its step or later (``update_ms``: p50, p95, max, over every
seat of every answer); the answer's own round trip (``act_ms``); answers refused as stale
(409: another person's answer moved the table first, which is allowed), errors (any other
status, a socket closed or a refused handshake) and updates missed (a seat never shown an
answer made more than five seconds before the end). Prints one JSON object. Rate limits
are off for the server (all players share one address); traffic stays on the loopback
interface and the servers are stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import random
import re
import signal
import statistics
import struct
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlparse

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/mahjong_load"
HOST = "127.0.0.1"


def ensure_database(url: str) -> None:
    import psycopg

    parsed = urlparse(url)
    name = parsed.path.lstrip("/")
    admin = parsed._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as connection:
        if not connection.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                                  (name,)).fetchone():
            connection.execute(f'CREATE DATABASE "{name}"')


# -- a small HTTP/1.1 client (one connection per request) -----------------------------------

@dataclass
class Response:
    status: int
    headers: list[tuple[str, str]]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Browser:
    """One person's cookies (session, CSRF) and the process they talk to."""

    port: int
    cookies: dict[str, str] = field(default_factory=dict)

    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    async def request(self, method: str, path: str, body: bytes = b"",
                      content_type: str = "") -> Response:
        reader, writer = await asyncio.open_connection(HOST, self.port)
        lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{self.port}",
                 "Connection: close", f"Content-Length: {len(body)}",
                 f"Origin: http://{HOST}:{self.port}"]
        if self.cookies:
            lines.append(f"Cookie: {self.cookie_header()}")
        if "csrftoken" in self.cookies:
            lines.append(f"X-CSRFToken: {self.cookies['csrftoken']}")
        if content_type:
            lines.append(f"Content-Type: {content_type}")
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        await writer.drain()
        raw = await reader.read()
        writer.close()
        head, _, rest = raw.partition(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        headers = [(k.strip().lower(), v.strip()) for k, _, v in
                   (h.partition(":") for h in header_lines)]
        for name, value in headers:
            if name == "set-cookie":
                key, _, rest_value = value.partition("=")
                self.cookies[key] = rest_value.split(";", 1)[0]
        if any(n == "transfer-encoding" and "chunked" in v for n, v in headers):
            rest = _unchunk(rest)
        return Response(int(status_line.split()[1]), headers, rest)

    async def form(self, path: str, fields: dict[str, Any]) -> Response:
        fields = {**fields, "csrfmiddlewaretoken": self.cookies.get("csrftoken", "")}
        body = "&".join(f"{quote(str(k))}={quote(str(v))}" for k, v in fields.items())
        return await self.request("POST", path, body.encode(),
                                  "application/x-www-form-urlencoded")


def _unchunk(data: bytes) -> bytes:
    out = b""
    while data:
        size_line, _, data = data.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out, data = out + data[:size], data[size + 2:]
    return out


# -- a small WebSocket client (RFC 6455) ---------------------------------------------------

class Socket:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, browser: Browser, path: str) -> Socket:
        reader, writer = await asyncio.open_connection(HOST, browser.port)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write("\r\n".join([
            f"GET {path} HTTP/1.1", f"Host: {HOST}:{browser.port}", "Upgrade: websocket",
            "Connection: Upgrade", f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13",
            f"Origin: http://{HOST}:{browser.port}", f"Cookie: {browser.cookie_header()}",
            "", ""]).encode())
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise ConnectionError(f"handshake refused: {head[:80]!r}")
        return cls(reader, writer)

    async def send(self, data: Any) -> None:
        payload = json.dumps(data).encode()
        mask = os.urandom(4)
        header = bytes([0x81])
        size = len(payload)
        if size < 126:
            header += bytes([0x80 | size])
        elif size < 65536:
            header += bytes([0x80 | 126]) + struct.pack("!H", size)
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", size)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.writer.write(header + mask + masked)
        await self.writer.drain()

    async def receive(self) -> Any:
        """The next text message as JSON; None when the server closes."""
        message = b""
        while True:
            first, second = await self.reader.readexactly(2)
            size = second & 0x7F
            if size == 126:
                size = struct.unpack("!H", await self.reader.readexactly(2))[0]
            elif size == 127:
                size = struct.unpack("!Q", await self.reader.readexactly(8))[0]
            mask = await self.reader.readexactly(4) if second & 0x80 else b""
            payload = await self.reader.readexactly(size)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            opcode = first & 0x0F
            if opcode == 0x8:
                return None
            if opcode == 0x9:  # ping: pong
                self.writer.write(bytes([0x8A, 0x80 | len(payload)]) + b"\0\0\0\0" + payload)
                continue
            if opcode in (0x1, 0x0, 0x2):
                message += payload
                if first & 0x80:
                    return json.loads(message)

    def close(self) -> None:
        self.writer.close()


# -- the players --------------------------------------------------------------------------

@dataclass
class Stats:
    actions: list[tuple[str, float, int, float]] = field(default_factory=list)
    """(table, sent at, the step it made, round trip)"""
    seen: dict[tuple[str, int], list[tuple[int, float]]] = field(default_factory=dict)
    """(table, seat): (step, arrival time), in arrival order"""
    stale: int = 0
    errors: list[str] = field(default_factory=list)
    tables_over: int = 0
    socket_retries: int = 0


async def play(browser: Browser, pid: str, seat: int, stats: Stats, until: float,
               rng: random.Random, think: float = 0.0, via_socket: bool = False) -> None:
    socket = None
    for attempt in range(5):  # as the page's script does: a refused socket is opened again
        try:
            socket = await Socket.open(browser, f"/tables/{pid}/ws")
            break
        except (OSError, ConnectionError, asyncio.IncompleteReadError) as error:
            if attempt == 4:
                stats.errors.append(f"socket: {error}")
                return
            stats.socket_retries += 1
            await asyncio.sleep(rng.uniform(0.5, 1.5) * (attempt + 1))
    assert socket is not None
    arrivals = stats.seen.setdefault((pid, seat), [])
    latest: dict[str, Any] = {}
    changed = asyncio.Event()
    answered: list[asyncio.Future[dict[str, Any]]] = []

    async def listen() -> None:
        while True:
            message = await socket.receive()
            if message is None:
                return
            if message.get("type") == "state":
                state = message["state"]
                arrivals.append((state.get("step", 0), time.monotonic()))
                if state.get("step", 0) >= latest.get("step", -1):
                    latest.clear()
                    latest.update(state)
                changed.set()
            elif message.get("type") == "answer" and answered and not answered[0].done():
                answered[0].set_result(message)

    listener = asyncio.create_task(listen())
    acted_at = -1
    try:
        while time.monotonic() < until:
            try:
                await asyncio.wait_for(changed.wait(), timeout=max(0.01, until - time.monotonic()))
            except TimeoutError:
                break
            changed.clear()
            if listener.done():
                stats.errors.append(f"socket closed: table {pid} seat {seat}")
                return
            if latest.get("over"):
                if seat == 0:
                    stats.tables_over += 1
                # Seen in the answer's response: the socket's push of the end still counts.
                final = latest.get("step", 0)
                for _wait in range(100):
                    if any(s >= final for s, _ in arrivals) or listener.done():
                        break
                    await asyncio.sleep(0.05)
                return
            legal, step = latest.get("legal") or [], latest.get("step", 0)
            if not legal or step == acted_at:
                continue
            acted_at = step
            wins = [a for a in legal if a.get("type") in ("win", "hu", "self_draw", "rob")]
            action = wins[0] if wins else rng.choice(legal)
            if think > 0:
                await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
                if latest.get("step", 0) > step:  # the table moved on while thinking
                    changed.set()
                    continue
            sent = time.monotonic()
            if via_socket:
                answered[:] = [asyncio.get_running_loop().create_future()]
                await socket.send({"type": "act", "step": step, "action": action})
                try:
                    reply = await asyncio.wait_for(answered[0], timeout=30)
                except TimeoutError:
                    stats.errors.append(f"no answer over the socket: table {pid} seat {seat}")
                    continue
                status, body = reply["status"], reply.get("state") or reply.get("error")
            else:
                response = await browser.request(
                    "POST", f"/tables/{pid}/act",
                    json.dumps({"step": step, "action": action}).encode(), "application/json")
                status, body = response.status, (response.json() if response.status in (
                    200, 409) else response.body[:120])
            took = time.monotonic() - sent
            if status == 200:
                view = body
                stats.actions.append((pid, sent, view["step"], took))
                if view["step"] >= latest.get("step", -1):
                    latest.clear()
                    latest.update(view)
                    changed.set()
            elif status == 409:
                stats.stale += 1
            else:
                stats.errors.append(f"act {status}: {body!r}"[:160])
    finally:
        listener.cancel()
        socket.close()


async def seat_table(ports: list[int], number: int, hands: int) -> tuple[str, list[Browser]]:
    """A room for four people: seat 0 creates it, three join by its link."""
    browsers = [Browser(ports[seat % len(ports)]) for seat in range(4)]
    creator = browsers[0]
    await creator.request("GET", "/tables/new")
    response = await creator.form("/tables/", {
        "variant": ("jiaxing", "putian", "sichuan")[number % 3], "humans": 4, "hands": hands,
        "decision_seconds": 300, "bank_seconds": 0, "name": f"T{number}s0"})
    location = dict(response.headers).get("location", "")
    found = re.search(r"/tables/([^/]+)/$", location)
    if response.status != 302 or not found:
        raise SystemExit(f"creating a table: {response.status} {response.body[:300]!r}")
    pid = found.group(1)
    for seat, browser in enumerate(browsers[1:], start=1):
        await browser.request("GET", f"/tables/{pid}/")
        joined = await browser.form(f"/tables/{pid}/join", {"name": f"T{number}s{seat}"})
        if joined.status != 302:
            raise SystemExit(f"joining: {joined.status} {joined.body[:300]!r}")
    return pid, browsers


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def summary(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    return {"p50": round(statistics.median(values) * 1000, 1),
            "p95": round(percentile(values, 0.95) * 1000, 1),
            "max": round(max(values) * 1000, 1)}


async def run(ports: list[int], tables: int, seconds: float, hands: int,
              seed: int, think: float = 0.0, via_socket: bool = False) -> dict[str, Any]:
    rng = random.Random(seed)
    seated = [await seat_table(ports, n, hands) for n in range(tables)]
    stats = Stats()
    start = time.monotonic()
    until = start + seconds
    await asyncio.gather(*(play(browser, pid, seat, stats, until, random.Random(rng.random()),
                                think, via_socket)
                           for pid, browsers in seated for seat, browser in enumerate(browsers)))
    end = time.monotonic()
    updates: list[float] = []
    missed = 0
    for pid, sent, step, _took in stats.actions:
        for seat in range(4):
            # the first state at this step or later, arriving after the answer was sent
            shown = [t for s, t in stats.seen.get((pid, seat), []) if s >= step and t >= sent]
            if shown:
                updates.append(min(shown) - sent)
            elif sent < end - 5:
                missed += 1
    return {"tables": tables, "players": 4 * tables, "processes": len(ports), "think_s": think,
            "answers_by": "socket" if via_socket else "http",
            "seconds": round(end - start, 1), "answers": len(stats.actions),
            "answers_per_second": round(len(stats.actions) / max(end - start, 0.001), 1),
            "update_ms": summary(updates), "act_ms": summary([a[3] for a in stats.actions]),
            "stale_409": stats.stale, "errors": len(stats.errors),
            "first_errors": stats.errors[:5], "missed_updates": missed,
            "socket_retries": stats.socket_retries,
            "tables_over": stats.tables_over}


def _empty(broker: str) -> None:
    """Drop the analysis the run queued: nobody consumes the load test's broker."""
    import redis

    redis.Redis.from_url(broker).flushdb()


def wait_for(port: int, seconds: float = 40) -> None:
    import http.client

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection(HOST, port, timeout=2)
            connection.request("GET", "/healthz")
            connection.getresponse().read()
            return
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"daphne on port {port} did not answer")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--hands", type=int, default=2)
    parser.add_argument("--processes", type=int, default=1, choices=(1, 2))
    parser.add_argument("--redis", default=os.environ.get("LOADTEST_REDIS_URL", ""),
                        help="the channel layer's Redis (required with --processes 2)")
    parser.add_argument("--port", type=int, default=8141)
    parser.add_argument("--seed", type=int, default=28)
    parser.add_argument("--think", type=float, default=0.0,
                        help="a person's mean think time per decision, seconds (0: none)")
    parser.add_argument("--broker", default=os.environ.get("LOADTEST_BROKER_URL",
                                                           "redis://127.0.0.1:6379/12"),
                        help="where finished matches' analysis is queued (emptied at the end)")
    parser.add_argument("--answers", choices=("http", "socket"), default="http",
                        help="answer by POST …/act (as the page) or by the socket's act message")
    parser.add_argument("--pool", type=int, default=8,
                        help="database connections per ASGI process (DATABASE_POOL_SIZE)")
    args = parser.parse_args()
    if args.processes == 2 and not args.redis:
        parser.error("two ASGI processes share the Redis channel layer: give --redis")
    url = os.environ.get("LOADTEST_DATABASE_URL", DEFAULT_DB)
    ensure_database(url)
    env = {**os.environ, "DATABASE_URL": url, "DEBUG": "false", "ALLOWED_HOSTS": HOST,
           "STATIC_MANIFEST": "false", "LOG_LEVEL": "WARNING", "RATE_LIMITS_ENABLED": "false",
           "TABLES_MAX_OPEN_ROOMS": "1000", "CELERY_BROKER_URL": args.broker,
           "DATABASE_POOL_SIZE": str(args.pool)}
    if args.redis:
        env["CHANNEL_LAYER_URL"] = args.redis
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env,
                   check=True, stdout=subprocess.DEVNULL)
    ports = [args.port + n for n in range(args.processes)]
    servers = [subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", HOST, "-p", str(port), "-v", "0",
         "mahjong_site.asgi:application"], cwd=ROOT, env=env, start_new_session=True)
        for port in ports]
    try:
        for port in ports:
            wait_for(port)
        result = asyncio.run(run(ports, args.tables, args.seconds, args.hands, args.seed,
                                 args.think, args.answers == "socket"))
        print(json.dumps(result, indent=2), flush=True)
    finally:
        _empty(args.broker)
        for server in servers:
            os.killpg(server.pid, signal.SIGTERM)
        for server in servers:
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:  # sockets still open: stop it for good
                os.killpg(server.pid, signal.SIGKILL)
                server.wait()


if __name__ == "__main__":
    main()
