"""Upload-cost load test (issue 24): hostile uploads against gunicorn, /healthz measured.

    python tools/loadtest_uploads.py [--attackers 6] [--documents 10] [--workers 4]

Creates (or reuses) the PostgreSQL database named in LOADTEST_DATABASE_URL (default:
database ``mahjong_load`` on 127.0.0.1) and migrates it, starts one Celery worker and
gunicorn with ``--workers`` processes on 127.0.0.1 (the broker and the rate-limit counters
in ``--redis``, a queue of the run's own), then:

1. ``baseline``: a load balancer's probe of ``/healthz`` (one request every ``--interval``
   seconds on a new connection, whether the last has answered or not, so that a stall
   counts as every probe it delays) for ``--baseline-seconds``;
2. the attack: ``--attackers`` anonymous clients, each from its own address (sent in
   X-Forwarded-For, which the site reads as the proxy's), each posting ``--documents``
   documents of ``--size`` bytes (2 MB) that the engine refuses only at their last hand (a
   bot match of a few hundred hands whose last settlement is wrong), ``--per-request``
   documents per request (all ten in one request by default, as a browser sends a
   selection), each request tried again after its Retry-After while the site answers that
   it is busy (429 with a wait of seconds);
3. meanwhile, from addresses of their own, an honest small upload (a 4-hand match:
   checked while the page waits) and an honest large one (a valid match of about 1 MB:
   kept for the worker, whose page is polled until it is stored);
4. the probe goes on until the attack is answered and the worker has checked every kept
   document (or ``--drain-seconds``).

Prints one JSON object: the probe's p50/p95/p99/max in ms for the baseline, while the
attack's requests arrive (until the last is answered) and until the worker has checked
every document kept (the target: p99 within 1 s), the attack's answers by status and time,
what became of the documents kept for the worker, and the honest uploads' outcome and
times. ``--site DIR`` runs the servers from another checkout of the project (e.g. an
older release, to compare; use a database of its own). Everything stops by itself;
traffic stays on the loopback interface.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools.loadtest import ensure_database, wait_for  # noqa: E402

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/mahjong_load"
HONEST_ADDRESSES = ("10.77.0.1", "10.77.0.2")


# -- documents ---------------------------------------------------------------------------


def long_match(target: int) -> tuple[dict[str, Any], int]:
    """A bot-played Sichuan match as JSON, with as many hands as fit in ``target`` bytes
    written compactly (at most the site's 500), and its number of hands."""
    from games.bots.simulation import simulate
    from games.records.log import dumps

    document: dict[str, Any] = json.loads(dumps(simulate("sichuan", 500, 2024)))
    room = target - 2000 - len(json.dumps({**document, "hands": []}, separators=(",", ":")))
    hands = 0
    for hand in document["hands"]:
        room -= len(json.dumps(hand, separators=(",", ":"))) + 1
        if room < 0:
            break
        hands += 1
    document["hands"] = document["hands"][:hands]
    return document, hands


def refused_at_the_last_hand(base: dict[str, Any], title: str, size: int) -> bytes:
    """The match with a wrong last settlement (the engine refuses it only at its last hand),
    titled (so every copy is a new document) and padded with spaces to ``size`` bytes."""
    document = json.loads(json.dumps(base))
    document["title"] = title
    end = document["hands"][-1]["events"][-1]
    end["deltas"] = [end["deltas"][0] + 1, *end["deltas"][1:]]
    raw = json.dumps(document, separators=(",", ":")).encode()
    if len(raw) > size:
        raise SystemExit(f"the attack document is {len(raw):,} bytes, over --size {size:,}")
    return raw + b" " * (size - len(raw))


def valid_match(hands: int, seed: int) -> bytes:
    from games.bots.simulation import simulate
    from games.records.log import dumps

    return dumps(simulate("sichuan", hands, seed)).encode()


# -- HTTP ---------------------------------------------------------------------------------


class Browser:
    """One visitor: its address (X-Forwarded-For), cookies and CSRF token."""

    def __init__(self, port: int, address: str) -> None:
        self.port, self.address = port, address
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None,
                timeout: float = 300) -> tuple[int, dict[str, str], bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            sent = {"X-Forwarded-For": self.address, "Host": "127.0.0.1", **(headers or {})}
            if self.cookies:
                sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
            connection.request(method, path, body=body, headers=sent)
            response = connection.getresponse()
            content = response.read()
            for name, value in response.getheaders():
                if name.lower() == "set-cookie":
                    key, _eq, rest = value.partition("=")
                    self.cookies[key.strip()] = rest.split(";", 1)[0]
            return response.status, {k.lower(): v for k, v in response.getheaders()}, content
        finally:
            connection.close()

    def upload_patiently(self, documents: list[tuple[str, bytes]], attempts: int = 60
                         ) -> tuple[int, bytes, float, int]:
        """POST the upload, again after Retry-After while the site says it is busy (429 with
        a wait of seconds, not a spent budget's hour): status, page, seconds of the last
        try, and how many tries were turned away as busy."""
        busy = 0
        while True:
            status, content, seconds, wait = self.upload(documents)
            if status != 429 or wait > 30 or busy + 1 >= attempts:
                return status, content, seconds, busy
            busy += 1
            time.sleep(wait)

    def upload(self, documents: list[tuple[str, bytes]]) -> tuple[int, bytes, float, int]:
        """POST the upload form with these files: status, page, seconds, Retry-After."""
        if "csrftoken" not in self.cookies:
            self.request("GET", "/upload/")
        boundary = uuid.uuid4().hex
        parts = []
        fields = {"csrfmiddlewaretoken": self.cookies["csrftoken"], "title": "",
                  "visibility": "public", "text": "", "seat": ""}
        for name, value in fields.items():
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"'
                         f"\r\n\r\n{value}\r\n".encode())
        for filename, raw in documents:
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="files"; '
                         f'filename="{filename}"\r\nContent-Type: application/json\r\n\r\n'
                         .encode() + raw + b"\r\n")
        parts.append(f"--{boundary}--\r\n".encode())
        started = time.perf_counter()
        status, headers, content = self.request(
            "POST", "/upload/", b"".join(parts),
            {"Content-Type": f"multipart/form-data; boundary={boundary}",
             "X-CSRFToken": self.cookies["csrftoken"]})
        return (status, content, time.perf_counter() - started,
                int(headers.get("retry-after", "0") or 0))


def percentiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    if not ordered:
        return {"n": 0}

    def pct(p: float) -> float:
        return round(ordered[min(int(len(ordered) * p), len(ordered) - 1)], 1)

    return {"n": len(ordered), "p50_ms": pct(0.5), "p95_ms": pct(0.95), "p99_ms": pct(0.99),
            "max_ms": round(ordered[-1], 1), "mean_ms": round(statistics.fmean(ordered), 1)}


class Probe(threading.Thread):
    """The load balancer: GET /healthz every ``interval`` seconds on a new connection,
    whether the last one has answered or not (a probe waiting for a busy site doesn't
    hold back the next: a stall counts as every probe it delays)."""

    def __init__(self, port: int, interval: float) -> None:
        super().__init__(daemon=True)
        self.port, self.interval = port, interval
        self.results: list[tuple[float, float]] = []  # (sent at, latency in ms)
        self.failures: Counter[str] = Counter()
        self.stop = threading.Event()
        self.sent: list[threading.Thread] = []

    def run(self) -> None:
        while not self.stop.is_set():
            thread = threading.Thread(target=self.probe, daemon=True)
            thread.start()
            self.sent.append(thread)
            self.stop.wait(self.interval)

    def probe(self) -> None:
        sent = time.monotonic()
        try:
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
            connection.request("GET", "/healthz", headers={"Host": "127.0.0.1"})
            response = connection.getresponse()
            response.read()
            connection.close()
            if response.status != 200:
                self.failures[str(response.status)] += 1
        except (OSError, http.client.HTTPException) as error:
            self.failures[type(error).__name__] += 1
        self.results.append((sent, (time.monotonic() - sent) * 1000))

    def between(self, start: float, end: float) -> dict[str, Any]:
        """The figures of the probes sent from ``start`` to ``end`` (monotonic clock)."""
        return percentiles([ms for sent, ms in self.results if start <= sent < end])

    def finish(self) -> None:
        self.stop.set()
        for thread in self.sent:
            thread.join(timeout=120)


# -- the run ------------------------------------------------------------------------------


def attack(port: int, client: int, documents: list[bytes], per_request: int,
           answers: list[dict[str, Any]]) -> None:
    browser = Browser(port, f"10.66.0.{client + 1}")
    for first in range(0, len(documents), per_request):
        batch = [(f"attack-{client}-{n}.json", raw)
                 for n, raw in enumerate(documents[first:first + per_request], start=first)]
        try:
            status, content, seconds, busy = browser.upload_patiently(batch)
        except (OSError, http.client.HTTPException) as error:
            answers.append({"status": type(error).__name__, "seconds": None, "kept": 0})
            continue
        page = content.decode(errors="replace")
        answers.append({"status": status, "seconds": seconds, "busy": busy,
                        "kept": page.count('class="pending"'),
                        "refused_by_budget": page.count("Upload budget spent"),
                        "engine_refused": page.count("don&#x27;t match the settlement")})


def honest_small(port: int, raw: bytes, outcome: dict[str, Any]) -> None:
    browser = Browser(port, HONEST_ADDRESSES[0])
    status, content, seconds, _wait = browser.upload([("honest-small.json", raw)])
    outcome.update(status=status, seconds=round(seconds, 2),
                   stored='<li class="ok">' in content.decode(errors="replace"))


def honest_large(port: int, raw: bytes, outcome: dict[str, Any], patience: float) -> None:
    browser = Browser(port, HONEST_ADDRESSES[1])
    started = time.perf_counter()
    status, content, seconds, busy = browser.upload_patiently([("honest-large.json", raw)])
    page = content.decode(errors="replace")
    outcome.update(status=status, bytes=len(raw), response_seconds=round(seconds, 2),
                   turned_away_as_busy=busy)
    found = re.search(r'href="(/upload/checks/[\w-]+/)"', page)
    if found is None:  # checked while the page waited (an older release does that)
        outcome["stored"] = '<li class="ok">' in page
        outcome["seconds_to_stored"] = round(seconds, 2)
        return
    outcome["check_page"] = "polled"
    deadline = started + patience
    while time.perf_counter() < deadline:
        _status, _headers, body = browser.request("GET", found.group(1),
                                                  headers={"HX-Request": "true"})
        line = body.decode(errors="replace")
        if 'class="pending"' not in line:
            outcome["stored"] = 'class="ok"' in line
            outcome["seconds_to_stored"] = round(time.perf_counter() - started, 2)
            return
        time.sleep(1)
    outcome["stored"] = False
    outcome["seconds_to_stored"] = None


def open_checks(database_url: str, since: float) -> int | None:
    """Documents kept since then that the worker has not finished (None: a release
    without them)."""
    import psycopg

    try:
        with psycopg.connect(database_url) as connection:
            row = connection.execute(
                "SELECT count(*) FROM replays_uploadcheck WHERE status IN ('queued', "
                "'checking') AND created_at >= to_timestamp(%s)", (since,)).fetchone()
    except psycopg.errors.UndefinedTable:
        return None
    return int(row[0]) if row else 0


def checks_by_outcome(database_url: str, since: float) -> dict[str, int] | None:
    import psycopg

    try:
        with psycopg.connect(database_url) as connection:
            rows = connection.execute(
                "SELECT status, coalesce(refusal->>'message', '') FROM replays_uploadcheck "
                "WHERE created_at >= to_timestamp(%s)", (since,)).fetchall()
    except psycopg.errors.UndefinedTable:
        return None
    found: Counter[str] = Counter()
    for status, message in rows:
        if status == "refused":
            text = message if isinstance(message, str) else json.dumps(message)
            status = ("refused: a budget" if "Upload budget spent" in text
                      else "refused: the engine")
        found[status] += 1
    return dict(found)


def clear_redis(url: str, queue: str) -> None:
    """The run's queue and the rate-limit counters (the ``limits`` prefix) in --redis."""
    import redis

    client = redis.Redis.from_url(url)
    for pattern in (f"*{queue}*", "limits:*"):
        for key in client.scan_iter(match=pattern):
            client.delete(key)
    client.close()


def start_services(site: Path, env: dict[str, str], args: argparse.Namespace,
                   queue: str) -> tuple[subprocess.Popen[bytes], subprocess.Popen[bytes]]:
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "mahjong_site", "worker", "--concurrency", "1",
         "--prefetch-multiplier", "1", "-Q", queue, "-n", f"{queue}@%h", "--without-mingle",
         "--without-gossip", "-l", "warning"], cwd=site, env=env)
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "mahjong_site.wsgi", "--bind",
         f"127.0.0.1:{args.port}", "--workers", str(args.workers), "--timeout", "300",
         "--no-control-socket", "--log-level", "warning"], cwd=site, env=env)
    wait_for(args.port)
    warm_up(args.port, args.workers)
    return server, worker


def warm_up(port: int, workers: int) -> None:
    """Every gunicorn worker serves its first pages (templates, URL patterns, the database
    connection) before anything is measured."""
    def visit() -> None:
        browser = Browser(port, "10.99.0.1")
        for path in ("/", "/upload/", "/healthz", "/upload/"):
            browser.request("GET", path)

    threads = [threading.Thread(target=visit) for _ in range(4 * workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def stop(process: subprocess.Popen[bytes], seconds: float = 60) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attackers", type=int, default=6)
    parser.add_argument("--documents", type=int, default=10, help="documents per attacker")
    parser.add_argument("--per-request", type=int, default=10,
                        help="documents per upload request (10: one request each)")
    parser.add_argument("--size", type=int, default=2_000_000, help="bytes per document")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--port", type=int, default=8201)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/15",
                        help="the broker and the rate-limit counters (a database of its own)")
    parser.add_argument("--interval", type=float, default=0.1,
                        help="seconds between two probes of /healthz")
    parser.add_argument("--baseline-seconds", type=float, default=10)
    parser.add_argument("--drain-seconds", type=float, default=300,
                        help="the longest wait for the worker to check the kept documents")
    parser.add_argument("--site", type=Path, default=ROOT,
                        help="the checkout whose gunicorn and worker are tested")
    args = parser.parse_args()

    database_url = os.environ.get("LOADTEST_DATABASE_URL", DEFAULT_DB)
    ensure_database(database_url)
    queue = f"loadtest-uploads-{os.getpid()}"
    env = {**os.environ, "DATABASE_URL": database_url, "DEBUG": "false",
           "SECRET_KEY": os.environ.get("SECRET_KEY", "local-only-key-for-the-load-test"),
           "ALLOWED_HOSTS": "127.0.0.1", "STATIC_MANIFEST": "false", "LOG_LEVEL": "WARNING",
           "CLIENT_IP_HEADER": "HTTP_X_FORWARDED_FOR", "CELERY_BROKER_URL": args.redis,
           "RATE_LIMIT_CACHE_URL": args.redis, "CELERY_QUEUE": queue,
           "VALUES_AFTER_ANNOTATION": "false", "PYTHONPATH": str(args.site)}
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=args.site,
                   env=env, check=True, stdout=subprocess.DEVNULL)
    clear_redis(args.redis, queue)

    base, hands = long_match(args.size)
    run = uuid.uuid4().hex[:8]
    hostile = [[refused_at_the_last_hand(base, f"Load test {run}, client {c}, document {n}",
                                         args.size) for n in range(args.documents)]
               for c in range(args.attackers)]
    small, large = valid_match(4, int(run, 16) % 10_000), valid_match(140, int(run, 16) % 9_999)

    server, worker = start_services(args.site, env, args, queue)
    probe = Probe(args.port, args.interval)
    try:
        probe.start()
        time.sleep(args.baseline_seconds)
        baseline_end = time.monotonic()
        baseline = probe.between(0, baseline_end)
        started = time.time()
        answers: list[dict[str, Any]] = []
        small_outcome: dict[str, Any] = {}
        large_outcome: dict[str, Any] = {}
        threads = [threading.Thread(target=attack, args=(args.port, c, hostile[c],
                                                          args.per_request, answers))
                   for c in range(args.attackers)]
        for thread in threads:
            thread.start()
        time.sleep(1)  # the attack is under way
        honest = [threading.Thread(target=honest_small, args=(args.port, small, small_outcome)),
                  threading.Thread(target=honest_large, args=(args.port, large, large_outcome,
                                                              args.drain_seconds))]
        for thread in honest:
            thread.start()
        for thread in threads:
            thread.join()
        answered, answered_at = time.time() - started, time.monotonic()
        for thread in honest:
            thread.join()
        deadline = time.monotonic() + args.drain_seconds
        while (open_checks(database_url, started) or 0) and time.monotonic() < deadline:
            time.sleep(1)
        drained = time.time() - started
        attack_end = time.monotonic()
        probe.finish()
        while_arriving = probe.between(baseline_end, answered_at)
        until_checked = probe.between(baseline_end, attack_end)
    finally:
        probe.finish()
        stop(server)
        stop(worker)
        clear_redis(args.redis, queue)

    seconds = [a["seconds"] for a in answers if a["seconds"] is not None]
    print(json.dumps({
        "workers": args.workers, "attackers": args.attackers,
        "documents_per_attacker": args.documents, "per_request": args.per_request,
        "document_bytes": args.size, "document_hands": hands,
        "healthz_baseline": baseline,
        "healthz_while_the_attack_arrives": while_arriving,
        "healthz_until_every_document_is_checked": until_checked,
        "healthz_failures": dict(probe.failures),
        "attack": {
            "requests": len(answers),
            "by_status": dict(Counter(str(a["status"]) for a in answers)),
            "tries_turned_away_as_busy": sum(a.get("busy", 0) for a in answers),
            "request_seconds_p50": round(statistics.median(seconds), 2) if seconds else None,
            "request_seconds_max": round(max(seconds), 2) if seconds else None,
            "documents_kept_for_the_worker": sum(a.get("kept", 0) for a in answers),
            "documents_refused_by_a_budget_at_once": sum(a.get("refused_by_budget", 0)
                                                         for a in answers),
            "documents_refused_by_the_engine_at_once": sum(a.get("engine_refused", 0)
                                                           for a in answers),
            "answered_after_s": round(answered, 1)},
        "worker_checks": checks_by_outcome(database_url, started),
        "worker_drained_after_s": round(drained, 1),
        "honest_small_upload": small_outcome, "honest_large_upload": large_outcome,
    }, ensure_ascii=False))


if __name__ == "__main__":
    main()
