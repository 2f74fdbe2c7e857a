"""The staff dashboard, ``/dashboard/``: is the site healthy, and what to do when it is not.

Uploads and hands per day, the annotation queue (hands waiting in the database and
messages on the broker), throughput, failures with a Retry button, workers last seen,
the oldest waiting job, puzzle attempts and solve rates per day and variant, new users.
The numbers refresh themselves with htmx (the ``numbers`` partial, every 10 s).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Count, Q, Sum
from django.db.models.functions import TruncDate, TruncHour
from django.utils import timezone
from django.utils.timesince import timesince
from django.utils.translation import gettext as _

from games.analysis.annotation import ENGINE_VERSION
from games.variants.registry import NAMES
from replays import charts, health
from replays.annotation.tasks import WAITING, waiting_since
from replays.models import Annotation, Attempt, DailyPuzzle, Hand, Match, WorkerHeartbeat
from replays.puzzles import services as puzzles

DEFAULT_DAYS = 14
DAY_CHOICES = (7, 14, 30, 90)
FAILURES_SHOWN = 20
WORKERS_SHOWN = 50
VARIANTS = NAMES


def days_from(value: str | None) -> int:
    """``?days=``: the number of days shown, 1 to DASHBOARD_MAX_DAYS (default 14)."""
    try:
        days = int(value) if value else DEFAULT_DAYS
    except ValueError:
        return DEFAULT_DAYS
    return min(max(days, 1), settings.DASHBOARD_MAX_DAYS)


def _day_range(last: dt.date, days: int) -> list[dt.date]:
    return [last - dt.timedelta(days=offset) for offset in range(days - 1, -1, -1)]


def _start_of(day: dt.date, zone: Any) -> dt.datetime:
    return dt.datetime.combine(day, dt.time.min, tzinfo=zone)


def _label(day: dt.date) -> str:
    return day.strftime("%m-%d")


def _age(since: dt.datetime | None, now: dt.datetime) -> dt.timedelta | None:
    return None if since is None else max(now - since, dt.timedelta(0))


@dataclass(frozen=True)
class Worker:
    row: WorkerHeartbeat
    age: dt.timedelta
    state: str  # "alive", "silent" or "stopped"


def _workers(now: dt.datetime) -> list[Worker]:
    alive_within = dt.timedelta(seconds=3 * settings.WORKER_HEARTBEAT_SECONDS + 30)
    found = []
    for row in WorkerHeartbeat.objects.order_by("-last_seen")[:WORKERS_SHOWN]:
        age = max(now - row.last_seen, dt.timedelta(0))
        state = "stopped" if row.stopped_at else ("alive" if age <= alive_within else "silent")
        found.append(Worker(row, age, state))
    return found


def _per_day(rows: Any, days: list[dt.date], field: str = "n") -> list[float]:
    by_day = {row["day"]: row[field] or 0 for row in rows}
    return [float(by_day.get(day, 0)) for day in days]


@dataclass(frozen=True)
class Window:
    """The days a dashboard shows, in the site's calendar and in the puzzle calendar."""

    now: dt.datetime
    days: list[dt.date]
    since: dt.datetime
    labels: list[str]
    puzzle_days: list[dt.date]

    @classmethod
    def ending(cls, now: dt.datetime, days: int) -> Window:
        day_list = _day_range(timezone.localdate(now), days)
        return cls(now, day_list, _start_of(day_list[0], timezone.get_current_timezone()),
                   [_label(day) for day in day_list],
                   _day_range(puzzles.puzzle_day(now), days))


def metrics(days: int, now: dt.datetime | None = None) -> dict[str, Any]:
    """Everything the dashboard shows, over the last ``days`` days (today included)."""
    window = Window.ending(now or timezone.now(), days)
    zone = timezone.get_current_timezone()
    found: dict[str, Any] = {
        "days": days, "now": window.now, "zone": str(zone),
        "puzzle_zone": str(puzzles.puzzle_zone()), "first_day": window.days[0],
        "today": window.days[-1], "puzzle_today": window.puzzle_days[-1],
        "engine_version": ENGINE_VERSION, "in_process": health.in_process(), "charts": {},
    }
    for part in (_uploads, _queue, _throughput, _failures, _puzzle_metrics, _users):
        part(window, found)
    workers = _workers(window.now)
    found["workers"] = workers
    found["workers_alive"] = sum(1 for w in workers if w.state == "alive")
    return found


def _uploads(window: Window, found: dict[str, Any]) -> None:
    rows = (Match.objects.filter(uploaded_at__gte=window.since)
            .annotate(day=TruncDate("uploaded_at")).values("day")
            .annotate(n=Count("id"), hand_sum=Sum("hand_count")))
    uploads = _per_day(rows, window.days)
    hands = _per_day(rows, window.days, "hand_sum")
    found.update(uploads_today=int(uploads[-1]), uploads_total=int(sum(uploads)),
                 hands_total=int(sum(hands)))
    found["charts"]["uploads"] = charts.bar_chart(
        _("Uploads per day"), window.labels, [charts.Series(_("matches"), uploads)],
        tooltip=_upload_tip(window.labels, uploads, hands))
    found["charts"]["hands"] = charts.bar_chart(
        _("Hands uploaded per day"), window.labels, [charts.Series(_("hands"), hands)])


def _queue(window: Window, found: dict[str, Any]) -> None:
    """The annotation queue: hands of waiting matches not annotated by this engine."""
    waiting = Match.objects.filter(annotation_status__in=WAITING)
    oldest = (waiting.annotate(since=waiting_since()).order_by("since", "pk")
              .defer("document").first())
    age = _age(oldest.since, window.now) if oldest else None
    found.update(
        queued_matches=waiting.count(),
        queued_hands=Hand.objects.filter(match__annotation_status__in=WAITING).exclude(
            annotations__engine_version=ENGINE_VERSION).count(),
        broker=health.queue_length(), oldest=oldest,
        oldest_age=timesince(oldest.since, window.now) if oldest else "—",
        oldest_stuck=bool(age and age > dt.timedelta(minutes=settings.ANNOTATION_STUCK_MINUTES)))


def _throughput(window: Window, found: dict[str, Any]) -> None:
    """Annotations written per day, and per hour over the last 24 hours."""
    rows = (Annotation.objects.filter(created_at__gte=window.since)
            .annotate(day=TruncDate("created_at")).values("day").annotate(n=Count("id")))
    per_day = _per_day(rows, window.days)
    this_hour = window.now.replace(minute=0, second=0, microsecond=0)
    hours = [this_hour - dt.timedelta(hours=offset) for offset in range(23, -1, -1)]
    hourly = {row["hour"]: row["n"] for row in Annotation.objects.filter(
        created_at__gte=hours[0]).annotate(hour=TruncHour("created_at", tzinfo=dt.UTC))
        .values("hour").annotate(n=Count("id"))}
    zone = timezone.get_current_timezone()
    found.update(annotated_total=int(sum(per_day)), annotated_last_hour=Annotation.objects.filter(
        created_at__gte=window.now - dt.timedelta(hours=1)).count())
    found["charts"]["throughput"] = charts.bar_chart(
        _("Hands annotated per day"), window.labels, [charts.Series(_("annotated"), per_day)])
    found["charts"]["hourly"] = charts.bar_chart(
        _("Hands annotated per hour, last 24 hours"),
        [timezone.localtime(hour, zone).strftime("%H:00") for hour in hours],
        [charts.Series(_("annotated"), [float(hourly.get(hour, 0)) for hour in hours])])


def _failures(window: Window, found: dict[str, Any]) -> None:
    failed = Match.objects.filter(annotation_status=Match.Status.FAILED)
    found.update(failed_count=failed.count(), failures=list(
        failed.defer("document").select_related("owner").order_by(
            "-annotation_queued_at", "-uploaded_at", "-pk")[:FAILURES_SHOWN]))


def _puzzle_metrics(window: Window, found: dict[str, Any]) -> None:
    """Attempts and solve rates per day and variant, by the puzzle calendar's days."""
    puzzle_days = window.puzzle_days
    today = puzzle_days[-1]
    zone = puzzles.puzzle_zone()
    rows = (Attempt.objects.filter(created_at__gte=_start_of(puzzle_days[0], zone))
            .annotate(day=TruncDate("created_at", tzinfo=zone))
            .values("day", "puzzle__variant")
            .annotate(n=Count("id"), solved=Count("id", filter=Q(solved=True))))
    tries: dict[str, dict[dt.date, int]] = defaultdict(dict)
    solves: dict[str, dict[dt.date, int]] = defaultdict(dict)
    for row in rows:
        tries[row["puzzle__variant"]][row["day"]] = row["n"]
        solves[row["puzzle__variant"]][row["day"]] = row["solved"]
    table = _puzzle_table(today, tries, solves)
    attempts = sum(row["attempts"] for row in table)
    found.update(puzzle_table=table, attempts_total=attempts,
                 attempts_today=sum(row["today"] for row in table),
                 solve_rate=_rate(sum(row["solved"] for row in table), attempts))
    labels = [_label(day) for day in puzzle_days]
    found["charts"]["attempts"] = charts.bar_chart(
        _("Puzzle attempts per day"), labels,
        [charts.Series(variant_name(v), [float(tries[v].get(d, 0)) for d in puzzle_days])
         for v in VARIANTS])
    found["charts"]["solve_rate"] = charts.line_chart(
        _("Puzzle solve rate per day"), labels,
        [charts.Series(variant_name(v), [_rate(solves[v].get(d, 0), tries[v].get(d, 0))
                                         for d in puzzle_days]) for v in VARIANTS],
        unit="%", y_top=100, tooltip=_rate_tip(tries, puzzle_days, labels))


def variant_name(variant: str) -> str:
    """The variant's name in the reader's language, as every other page shows it.

    >>> variant_name("sichuan")
    'Sichuan 血战到底'
    """
    return str(Match.Variant(variant).label)


def _puzzle_table(today: dt.date, tries: dict[str, dict[dt.date, int]],
                  solves: dict[str, dict[dt.date, int]]) -> list[dict[str, Any]]:
    tomorrow = today + dt.timedelta(days=1)
    dailies = {(row.day, row.variant): row for row in DailyPuzzle.objects.filter(
        day__in=[today, tomorrow]).select_related("puzzle", "pinned_by")}
    table = []
    for variant in VARIANTS:
        n = sum(tries[variant].values())
        solved = sum(solves[variant].values())
        today_n = tries[variant].get(today, 0)
        table.append({
            "variant": variant, "name": variant_name(variant), "attempts": n, "solved": solved,
            "rate": _rate(solved, n), "today": today_n,
            "today_rate": _rate(solves[variant].get(today, 0), today_n),
            "daily_today": dailies.get((today, variant)),
            "daily_tomorrow": dailies.get((tomorrow, variant))})
    return table


def _users(window: Window, found: dict[str, Any]) -> None:
    rows = (get_user_model().objects.filter(date_joined__gte=window.since)
            .annotate(day=TruncDate("date_joined")).values("day").annotate(n=Count("id")))
    per_day = _per_day(rows, window.days)
    found.update(users_total=int(sum(per_day)), users_today=int(per_day[-1]))
    found["charts"]["users"] = charts.bar_chart(
        _("New users per day"), window.labels, [charts.Series(_("new users"), per_day)])


def _rate(solved: int, attempts: int) -> float | None:
    return round(100 * solved / attempts, 1) if attempts else None


def _upload_tip(labels: list[str], uploads: list[float],
                hands: list[float]) -> Callable[[str, charts.Series, float], str]:
    by_label = {label: (int(u), int(h)) for label, u, h in zip(labels, uploads, hands,
                                                                strict=True)}

    def tip(label: str, series: charts.Series, value: float) -> str:
        matches, hand_count = by_label[label]
        return _("%(day)s: %(matches)d matches, %(hands)d hands") % {
            "day": label, "matches": matches, "hands": hand_count}

    return tip


def _rate_tip(tries: dict[str, dict[dt.date, int]], days: list[dt.date],
              labels: list[str]) -> Callable[[str, charts.Series, float], str]:
    day_of = dict(zip(labels, days, strict=True))
    variant_of = {variant_name(v): v for v in VARIANTS}

    def tip(label: str, series: charts.Series, value: float) -> str:
        n = tries[variant_of[series.name]].get(day_of[label], 0)
        return _("%(day)s · %(variant)s: %(rate)s%% solved of %(n)d attempts") % {
            "day": label, "variant": series.name, "rate": f"{value:g}", "n": n}

    return tip
