"""``manage.py bench_annotation``: upload-to-done time of a bot match, per variant.

With ``CELERY_BROKER_URL`` set it starts one Celery worker of its own (one
process, ``--pool=solo``) on a private queue, uploads a 16-hand bot match of each
variant the way the upload page does, and times each from the upload until its
match says "done". Without a broker the annotation runs in-process, and that is
what gets timed. The bench's matches are private (no puzzles, not listed) and
deleted at the end, its queue removed.

``--fair N`` measures fairness instead (issues 16 and 24), with the values pass on as in
production: a signed-in owner's Putian match of N hands is uploaded naming its seat (so
every hand of it is valued: only the windows keep it fair), then at once an anonymous 4-hand
one naming its seat, timed from its upload to annotated and to valued; once the big match's
values are under way, a second 4-hand upload is timed the same way. It needs a broker
(in-process there is no queue to be fair in).

``--values W`` times the values pass (issue 17) instead: each variant's 16-hand match is
uploaded with the uploader's seat 0 and timed from "annotated" to "values done", with W
workers of its own on one private queue (in-process without a broker: one core).
``--variants`` picks the variants.
"""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.test.utils import override_settings

from games.bots.simulation import simulate
from games.records.log import dumps
from games.variants.registry import NAMES
from replays.matches.services import store_document
from replays.models import Match

VARIANTS = NAMES
BENCH_OWNER = "bench-fair-owner"
ROOT = Path(__file__).resolve().parents[3]


class Command(BaseCommand):
    help = ("Time bot matches from upload to fully annotated, one worker "
            "(in-process without a broker).")

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--hands", type=int, default=16, help="hands per match")
        parser.add_argument("--seed", type=int, default=20261130, help="bots' seed")
        parser.add_argument("--timeout", type=float, default=300,
                            help="seconds to wait for one match")
        parser.add_argument("--fair", type=int, default=0, metavar="N",
                            help="time a 4-hand upload made right after an N-hand one")
        parser.add_argument("--values", type=int, default=0, metavar="WORKERS",
                            help="time valuing seat 0 of each match with this many workers")
        parser.add_argument("--variants", default=",".join(VARIANTS),
                            help="comma-separated variants to time")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["hands"] < 1:
            raise CommandError("--hands must be at least 1")
        from mahjong_site.celery import app

        in_process = bool(app.conf.task_always_eager)
        if options["fair"] and in_process:
            raise CommandError("--fair needs a broker: set CELERY_BROKER_URL")
        if not in_process and connection.vendor == "sqlite" and _in_memory():
            raise CommandError("a worker process cannot share an in-memory SQLite database; "
                               "set DATABASE_URL")
        count = max(options["values"], 1)
        queue = f"bench-{uuid.uuid4().hex[:12]}"
        # The values pass runs only when it is timed (it would keep workers busy).
        values = "true" if options["values"] or options["fair"] else "false"
        workers = [] if in_process else [_Worker(queue, n, values) for n in range(count)]
        created: list[int] = []
        figures: dict[str, Any] = {"worker": "in-process" if in_process
                                   else f"{count} (solo pool)"}
        variants = [v for v in options["variants"].split(",") if v]
        if any(v not in VARIANTS for v in variants):
            raise CommandError(f"--variants: choose among {', '.join(VARIANTS)}")
        try:
            for worker in workers:
                worker.start()
            if options["values"]:
                for variant in variants:
                    figures[variant] = self.time_values(variant, options, created)
            elif options["fair"]:
                figures["fairness"] = self.time_fairness(options, created)
            else:
                with override_settings(VALUES_AFTER_ANNOTATION=False):
                    for variant in variants:
                        figures[variant] = self.time_one(variant, options, created)
        finally:
            for worker in workers:
                worker.stop()
            Match.objects.filter(pk__in=created).delete()
            if options["fair"]:
                from django.contrib.auth import get_user_model

                get_user_model().objects.filter(username=BENCH_OWNER).delete()
        self.stdout.write(json.dumps(figures, indent=2))

    def time_one(self, variant: str, options: dict[str, Any], created: list[int]) -> dict[
            str, Any]:
        played = simulate(variant, options["hands"], options["seed"])
        # A title of its own, so a rerun is never refused as a duplicate upload.
        played = dataclasses.replace(played, title=f"bench {uuid.uuid4().hex[:12]}")
        raw = dumps(played).encode("utf-8")
        started = time.perf_counter()
        match = store_document(raw, visibility=Match.Visibility.PRIVATE)
        created.append(match.pk)
        stored = time.perf_counter()
        deadline = stored + options["timeout"]
        while True:
            match.refresh_from_db(fields=["annotation_status", "annotation_error"])
            if match.annotation_status in (Match.Status.DONE, Match.Status.FAILED):
                break
            if time.perf_counter() > deadline:
                raise CommandError(f"{variant}: not annotated after {options['timeout']} s "
                                   f"(status {match.annotation_status}); is the worker up?")
            time.sleep(0.02)
        done = time.perf_counter()
        if match.annotation_status == Match.Status.FAILED:
            raise CommandError(f"{variant}: annotation failed: {match.annotation_error}")
        return {"hands": options["hands"], "upload_s": round(stored - started, 2),
                "upload_to_done_s": round(done - started, 2)}


    def time_values(self, variant: str, options: dict[str, Any], created: list[int]) -> dict[
            str, Any]:
        """Seat 0 of a match valued: from its annotation done to its values done."""
        raw = _document(variant, options["hands"], options["seed"])
        started = time.perf_counter()
        with override_settings(VALUES_AFTER_ANNOTATION=True):
            match = store_document(raw, visibility=Match.Visibility.PRIVATE, uploader_seat=0)
        created.append(match.pk)
        deadline = started + options["timeout"]
        self._wait(match, variant, deadline)
        annotated = time.perf_counter()
        while True:
            match.refresh_from_db(fields=["values_status", "values_error"])
            if match.values_status == Match.Status.DONE:
                break
            if match.values_status == Match.Status.FAILED:
                raise CommandError(f"{variant}: valuing failed: {match.values_error}")
            if time.perf_counter() > deadline:
                raise CommandError(f"{variant}: not valued after {options['timeout']} s")
            time.sleep(0.1)
        done = time.perf_counter()
        from replays.annotation.value_view import match_summary

        figures = match_summary(match, 0)
        return {"hands": options["hands"], "annotation_s": round(annotated - started, 2),
                "values_s": round(done - annotated, 2),
                "decisions_valued": figures[0]["decisions"] if figures else 0}

    def time_fairness(self, options: dict[str, Any], created: list[int]) -> dict[str, Any]:
        from django.conf import settings

        from replays.annotation.tasks import progress
        from replays.annotation.values import progress as values_progress

        big_raw, *small_raws = (_document("putian", hands, options["seed"] + hands + extra)
                                for hands, extra in ((options["fair"], 0), (4, 0), (4, 1)))
        big = store_document(big_raw, owner=_bench_owner(), visibility=Match.Visibility.PRIVATE,
                             uploader_seat=0)
        created.append(big.pk)
        during_annotation = self._time_small(small_raws[0], options, created)
        big.refresh_from_db()
        during_annotation["big_hands_annotated_meanwhile"] = progress(big)[0]
        # The big match's values start once its last hand is annotated.
        self._wait(big, "the big match", time.perf_counter() + max(options["timeout"], 3600))
        before = values_progress(Match.objects.get(pk=big.pk))[0]
        during_values = self._time_small(small_raws[1], options, created)
        big.refresh_from_db()
        during_values["big_hands_valued_meanwhile"] = values_progress(big)[0] - before
        return {"big_hands": options["fair"], "small_hands": 4,
                "annotation_window": settings.ANNOTATION_WINDOW,
                "values_window": settings.VALUES_WINDOW,
                "values_solo_samples": settings.VALUES_SOLO_SAMPLES,
                "values_table_samples": settings.VALUES_TABLE_SAMPLES,
                "while_the_big_match_is_annotated": during_annotation,
                "while_the_big_match_is_valued": during_values}

    def _time_small(self, raw: bytes, options: dict[str, Any], created: list[int]) -> dict[
            str, Any]:
        """An anonymous 4-hand upload naming its seat: from its upload to annotated, and to
        its values done."""
        started = time.perf_counter()
        small = store_document(raw, visibility=Match.Visibility.PRIVATE, uploader_seat=0)
        created.append(small.pk)
        deadline = started + options["timeout"]
        self._wait(small, "the 4-hand match", deadline)
        annotated = time.perf_counter()
        self._wait_for_values(small, "the 4-hand match", deadline)
        valued = time.perf_counter()
        return {"upload_to_annotated_s": round(annotated - started, 2),
                "annotated_to_valued_s": round(valued - annotated, 2),
                "upload_to_valued_s": round(valued - started, 2)}

    def _wait_for_values(self, match: Match, what: str, deadline: float) -> None:
        while True:
            match.refresh_from_db(fields=["values_status", "values_error"])
            if match.values_status == Match.Status.DONE:
                return
            if match.values_status == Match.Status.FAILED:
                raise CommandError(f"{what}: valuing failed: {match.values_error}")
            if time.perf_counter() > deadline:
                raise CommandError(f"{what}: not valued in time (status "
                                   f"{match.values_status!r}); is the worker up?")
            time.sleep(0.05)

    def _wait(self, match: Match, what: str, deadline: float) -> None:
        while True:
            match.refresh_from_db(fields=["annotation_status", "annotation_error"])
            if match.annotation_status == Match.Status.DONE:
                return
            if match.annotation_status == Match.Status.FAILED:
                raise CommandError(f"{what}: annotation failed: {match.annotation_error}")
            if time.perf_counter() > deadline:
                raise CommandError(f"{what}: not annotated in time (status "
                                   f"{match.annotation_status}); is the worker up?")
            time.sleep(0.02)


def _bench_owner() -> Any:
    """The signed-in owner of the fairness bench's big upload (removed at the end)."""
    from django.contrib.auth import get_user_model

    user, _created = get_user_model().objects.get_or_create(username=BENCH_OWNER)
    return user


def _document(variant: str, hands: int, seed: int) -> bytes:
    """A bot match with a title of its own (a rerun is never refused as a duplicate)."""
    played = simulate(variant, hands, seed)
    played = dataclasses.replace(played, title=f"bench {uuid.uuid4().hex[:12]}")
    return dumps(played).encode("utf-8")


def _in_memory() -> bool:
    name = str(connection.settings_dict.get("NAME") or "")
    return name in ("", ":memory:") or "mode=memory" in name


class _Worker:
    """One Celery worker process on a private queue, with this process's settings."""

    def __init__(self, queue: str, number: int = 0, values: str = "false") -> None:
        from mahjong_site.celery import app

        self.app = app
        self.queue = queue
        self.number = number
        self.values = values
        self.log = tempfile.NamedTemporaryFile(prefix="bench-worker-", suffix=".log",
                                               delete=False)
        self.process: subprocess.Popen[bytes] | None = None
        self.saved_routes = app.conf.task_routes

    def start(self) -> None:
        # conf.update (not assignment) makes Celery rebuild a router it already made.
        self.app.conf.update(task_routes={"replays.tasks.*": {"queue": self.queue}})
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "mahjong_site", "worker", "--pool=solo",
             "--concurrency=1", "-Q", self.queue, "-n", f"{self.queue}-{self.number}@%h",
             "--without-mingle", "--without-gossip", "-l", "warning"],
            # CELERY_QUEUE: the worker sends each match's next hands to its own queue too.
            cwd=ROOT, env={**os.environ, "PYTHONUNBUFFERED": "1", "CELERY_QUEUE": self.queue,
                 "VALUES_AFTER_ANNOTATION": self.values},
            stdout=self.log,
            stderr=subprocess.STDOUT, start_new_session=True)
        self._wait_until_listening()

    def _wait_until_listening(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise CommandError(f"the worker exited with {self.process.returncode}; "
                                   f"its log: {self.log.name}")
            replies = self.app.control.ping(destination=[self._name()], timeout=0.5)
            if replies:
                return
        raise CommandError(f"the worker did not answer within 60 s; its log: {self.log.name}")

    def _name(self) -> str:
        import socket

        return f"{self.queue}-{self.number}@{socket.gethostname()}"

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=30)
        self.app.conf.update(task_routes=self.saved_routes)
        self._remove_queue()

    def _remove_queue(self) -> None:
        """Remove the private queue and its bindings (Redis keeps them after the worker)."""
        with self.app.connection_for_write() as broker:
            channel = broker.default_channel
            client = getattr(channel, "client", None)
            if client is None:  # not Redis: let the broker expire what is left
                return
            keys = [self.queue] + [getattr(channel, prefix) % self.queue for prefix in (
                "keyprefix_queue", "keyprefix_binding_permanent") if hasattr(channel, prefix)]
            client.delete(*keys)
