"""Load test: gunicorn on PostgreSQL, 50 concurrent clients stepping through replays.

    python tools/loadtest.py [--clients 50] [--seconds 60] [--workers 4]

Creates (or reuses) the PostgreSQL database named in LOADTEST_DATABASE_URL
(default: database ``mahjong_load`` on 127.0.0.1), migrates it, stores the demo
matches, starts gunicorn on 127.0.0.1, and lets every client request random
step fragments (the htmx request the viewer makes) for the given time, mostly
the next step after a pause like a person's (``--think``, 0 for none). Before
that, the same clients request a trivial view (``/healthz``) for
``--baseline-seconds``: its figures are the baseline the step's are read against. First
of all, on a server of one worker that has shown every hand once, one client without
pauses requests each for ``--rest-seconds`` (``at_rest``): a request's own CPU cost,
without the wake-ups of four workers for every connection and the cold caches of fifty
pausing clients, which add 1–2 ms to every request here, trivial or not.
Prints one JSON object: requests, errors, p50/p95/p99 and mean latency in ms, and
per phase the server's CPU time per request (user + system time of the gunicorn
workers, read from /proc, divided by the requests served) and the workers' largest
resident memory at its end. Traffic stays on the loopback interface and stops by
itself.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/mahjong_load"


def ensure_database(url: str) -> None:
    import psycopg

    parsed = urlparse(url)
    name = parsed.path.lstrip("/")
    admin = parsed._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as connection:
        exists = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                                    (name,)).fetchone()
        if not exists:
            connection.execute(f'CREATE DATABASE "{name}"')


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL)


def step_urls(env: dict[str, str]) -> list[str]:
    code = (
        "import json\n"
        "from replays.models import Match\n"
        "urls = []\n"
        "for m in Match.objects.prefetch_related('hands'):\n"
        "    for h in m.hands.all():\n"
        "        urls += [f'{m.get_absolute_url()}?hand={h.number}&step={s}'"
        " for s in range(h.event_count + 1)]\n"
        "print(json.dumps(urls))\n"
    )
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT,
                         env=env, check=True, capture_output=True, text=True)
    urls: list[str] = json.loads(out.stdout.strip().splitlines()[-1])
    return urls


def wait_for(port: int, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/")
            connection.getresponse().read()
            return
        except OSError:
            time.sleep(0.3)
    raise SystemExit("gunicorn did not answer")


def workers_of(master: int) -> list[int]:
    """The gunicorn master's worker processes (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        if int(fields[1]) == master:
            found.append(int(entry.name))
    return found


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of these processes so far."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    return total / ticks


def largest_rss_mb(pids: list[int]) -> float:
    """The largest resident set of these processes, in MB."""
    largest = 0
    for pid in pids:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                largest = max(largest, int(line.split()[1]))
    return round(largest / 1024, 1)


def run_phase(port: int, urls: list[str], clients: int, seconds: float, think: float,
              master: int) -> dict[str, object]:
    """``clients`` threads requesting ``urls`` for ``seconds``: latency, and the workers'
    CPU time per request."""
    pids = workers_of(master)
    cpu_before = cpu_seconds(pids)
    latencies: list[float] = []
    errors: list[str] = []
    stop = time.monotonic() + seconds
    threads = [threading.Thread(target=client, args=(port, urls, stop, seed, think,
                                                      latencies, errors))
               for seed in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    cpu = cpu_seconds(pids) - cpu_before
    ordered = sorted(latencies)

    def pct(p: float) -> float:
        return round(ordered[min(int(len(ordered) * p), len(ordered) - 1)], 1) if ordered else 0

    return {
        "requests": len(latencies), "errors": len(errors), "first_errors": errors[:5],
        "requests_per_s": round(len(latencies) / seconds, 1),
        "p50_ms": pct(0.5), "p95_ms": pct(0.95), "p99_ms": pct(0.99),
        "mean_ms": round(statistics.fmean(ordered), 1) if ordered else 0,
        "server_cpu_ms_per_request": round(cpu * 1000 / len(latencies), 2) if latencies else 0,
        "worker_rss_mb_max": largest_rss_mb(pids),
    }


def client(port: int, urls: list[str], stop: float, seed: int, think: float,
           latencies: list[float], errors: list[str]) -> None:
    rng = random.Random(seed)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    position = rng.randrange(len(urls))
    while time.monotonic() < stop:
        # A person stepping: mostly the next step, sometimes a jump; a pause between.
        position = position + 1 if rng.random() < 0.85 else rng.randrange(len(urls))
        url = urls[position % len(urls)]
        if think:
            time.sleep(rng.uniform(0, 2 * think))
        start = time.perf_counter()
        try:
            connection.request("GET", url, headers={"HX-Request": "true"})
            response = connection.getresponse()
            response.read()
            elapsed = (time.perf_counter() - start) * 1000
            if response.status != 200:
                errors.append(f"{response.status} {url}")
            latencies.append(elapsed)
        except (OSError, http.client.HTTPException) as error:
            errors.append(f"{type(error).__name__} {url}")
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)


def start_server(env: dict[str, str], port: int, workers: int) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "mahjong_site.wsgi", "--bind", f"127.0.0.1:{port}",
         "--workers", str(workers), "--log-level", "warning",
         # two servers on one host would share the default control socket's path
         "--no-control-socket"], cwd=ROOT, env=env)
    wait_for(port)
    return server


def measure_at_rest(env: dict[str, str], urls: list[str], port: int,
                    seconds: float) -> dict[str, object] | None:
    """Each view's own CPU cost: one worker (several would all wake for every connection),
    once it has shown every hand, and one client without pauses."""
    if not seconds:
        return None
    server = start_server(env, port, 1)
    try:
        first_steps = [url for url in urls if url.endswith("&step=0")]
        for url in first_steps:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            connection.request("GET", url, headers={"HX-Request": "true"})
            connection.getresponse().read()
        return {"trivial_view": run_phase(port, ["/healthz"], 1, seconds, 0, server.pid),
                "step": run_phase(port, urls, 1, seconds, 0, server.pid)}
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--think", type=float, default=0.5,
                        help="mean seconds a client waits between steps (0: none)")
    parser.add_argument("--baseline-seconds", type=float, default=15,
                        help="seconds of the trivial view first (0: no baseline)")
    parser.add_argument("--rest-seconds", type=float, default=10,
                        help="seconds of each view for one client without pauses, first "
                             "(0: none)")
    args = parser.parse_args()
    url = os.environ.get("LOADTEST_DATABASE_URL", DEFAULT_DB)
    ensure_database(url)
    env = {**os.environ, "DATABASE_URL": url, "DEBUG": "false", "ALLOWED_HOSTS": "127.0.0.1",
           "STATIC_MANIFEST": "false", "LOG_LEVEL": "WARNING"}
    manage(env, "migrate", "--noinput")
    manage(env, "seed_demo")
    urls = step_urls(env)
    at_rest = measure_at_rest(env, urls, args.port + 1, args.rest_seconds)
    server = start_server(env, args.port, args.workers)
    try:
        for warm in urls[:: max(len(urls) // 200, 1)]:  # each worker reads the matches once
            connection = http.client.HTTPConnection("127.0.0.1", args.port, timeout=10)
            connection.request("GET", warm, headers={"HX-Request": "true"})
            connection.getresponse().read()
        baseline = (run_phase(args.port, ["/healthz"], args.clients, args.baseline_seconds,
                              args.think, server.pid) if args.baseline_seconds else None)
        steps = run_phase(args.port, urls, args.clients, args.seconds, args.think, server.pid)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    print(json.dumps({
        "clients": args.clients, "seconds": args.seconds, "workers": args.workers,
        "think_s": args.think, **steps, "trivial_view_baseline": baseline,
        "at_rest": at_rest,
    }))


if __name__ == "__main__":
    main()
