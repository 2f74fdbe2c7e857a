"""``manage.py bench_play_site``: a player's action at the site, timed (issue 14).

Plays full matches of each variant through the site's JSON interface (Django's test
client: ``POST /play/``, then ``POST /play/<id>/act`` with random legal actions until the
end), and reports per variant the server time of an action — the request through the
middleware, the row lock, the engine's answer and every bot move up to the player's next
decision, the row written back and the new state as JSON — as p50/p95/max, in wall-clock
and in the process's CPU time. The last action of each match also stores its replay (the
upload's validation) and queues its annotation. The bench's matches and replays are
deleted at the end.

    make bench-play-site            # 4 matches of 8 hands per variant
    python manage.py bench_play_site --matches 2 --hands 4
"""

from __future__ import annotations

import json
import random
import statistics
import time
from typing import Any

from django.core.management.base import BaseCommand
from django.test import Client
from django.test.utils import override_settings

from games.variants.registry import NAMES
from replays.models import Match, PlayedMatch


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.5), percentile([1.0, 2.0, 3.0, 4.0], 0.95)
    (2.0, 4.0)
    """
    ordered = sorted(values)
    rank = max(1, round(share * len(ordered) + 0.4999))
    return ordered[min(rank, len(ordered)) - 1]


class Command(BaseCommand):
    help = "Time a player's action (with every bot move after it) through the site's JSON."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--matches", type=int, default=4)
        parser.add_argument("--hands", type=int, default=8)
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args: Any, **options: Any) -> None:
        rng = random.Random(options["seed"])
        rows: list[dict[str, Any]] = []
        # One client starts every match: a benchmark, not a visitor the limits are for.
        with override_settings(ALLOWED_HOSTS=["testserver"], RATE_LIMITS_ENABLED=False):
            for variant in NAMES:
                wall: list[float] = []
                cpu: list[float] = []
                for _ in range(options["matches"]):
                    self._play(variant, options["hands"], rng, wall, cpu)
                rows.append({"variant": variant, "actions": len(wall),
                             "p50_ms": round(statistics.median(wall), 1),
                             "p95_ms": round(percentile(wall, 0.95), 1),
                             "max_ms": round(max(wall), 1),
                             "cpu_p50_ms": round(statistics.median(cpu), 1),
                             "cpu_p95_ms": round(percentile(cpu, 0.95), 1)})
        self.stdout.write(json.dumps({"matches": options["matches"], "hands": options["hands"],
                                      "target_p95_ms": 50, "variants": rows}, indent=1))

    def _play(self, variant: str, hands: int, rng: random.Random, wall: list[float],
              cpu: list[float]) -> None:
        client = Client()
        response = client.post("/play/", {"variant": variant, "seat": "random",
                                          "hands": hands, "speed": 0})
        pid = str(response["Location"]).strip("/").split("/")[-1]
        data = client.get(f"/play/{pid}/state.json").json()
        try:
            while not data["over"]:
                body = json.dumps({"step": data["step"], "action": rng.choice(data["legal"])})
                started, started_cpu = time.perf_counter(), time.process_time()
                response = client.post(f"/play/{pid}/act", body,
                                       content_type="application/json")
                wall.append((time.perf_counter() - started) * 1000)
                cpu.append((time.process_time() - started_cpu) * 1000)
                if response.status_code != 200:
                    raise RuntimeError(f"{variant}: act answered {response.status_code}: "
                                       f"{response.content[:300]!r}")
                data = response.json()
        finally:
            row = PlayedMatch.objects.filter(public_id=pid).first()
            if row is not None:
                if row.replay_id:
                    Match.objects.filter(pk=row.replay_id).delete()
                row.delete()
