"""Small server-side charts for the staff dashboard: bar and line charts as inline SVG.

No JavaScript and nothing fetched: each chart is one ``<svg>`` element with its axes,
tick labels, a legend when there is more than one series, and a ``<title>`` on every
bar and point (the browser shows it as a tooltip). Every piece of text is escaped.
The drawing is in a fixed coordinate system (``WIDTH`` × ``HEIGHT``) that the page
scales to the width of its card.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import count

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

WIDTH, HEIGHT = 420, 236
FONT = 14
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 12, 28
CHAR = 0.6 * FONT  # the width of a digit, near enough, for spacing labels
LEGEND = 22  # height of the legend row, when there is one
# Colours that stay apart for the colour-blind (Okabe–Ito), in series order.
PALETTE = ("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00")

_ids = count(1)


@dataclass(frozen=True)
class Series:
    """One named row of values, one per label; ``None`` is "no value" (a gap in a line)."""

    name: str
    values: Sequence[float | None]


def _number(value: float) -> str:
    """A tick or tooltip value: no trailing ``.0``, thousands separated."""
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.1f}"


def nice_ticks(top: float, most: int = 5) -> list[float]:
    """Round tick values from 0 up to at least ``top``: steps of 1, 2 or 5 × 10^k."""
    if top <= 0:
        return [0.0, 1.0]
    raw = top / most
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    if step < 1 and float(top).is_integer() and top >= 1:
        step = 1.0
    ticks = [0.0]
    while ticks[-1] < top:
        ticks.append(round(ticks[-1] + step, 10))
    return ticks


def nice_range(low: float, high: float, most: int = 6) -> list[float]:
    """Round tick values covering ``low`` to ``high`` (either side of zero), zero among them.

    >>> nice_range(-7, 12)
    [-10.0, -5.0, 0.0, 5.0, 10.0, 15.0]
    >>> nice_range(0, 4)
    [0.0, 1.0, 2.0, 3.0, 4.0]
    """
    if low >= 0:
        return nice_ticks(high, most - 1)
    span = max(high, 0) - low
    raw = span / most
    power = 10 ** math.floor(math.log10(raw))
    step = max(next(m * power for m in (1, 2, 5, 10) if m * power >= raw), 1.0)
    tick = math.floor(low / step) * step
    ticks = [float(tick)]
    while ticks[-1] < high:
        ticks.append(round(ticks[-1] + step, 10))
    return ticks


def nice_between(low: float, high: float, most: int = 5) -> list[float]:
    """Round tick values from just below ``low`` to at least ``high``, not from zero (a
    rating history: the changes, not the distance from zero, are what to see).

    >>> nice_between(1480, 1690)
    [1450.0, 1500.0, 1550.0, 1600.0, 1650.0, 1700.0]
    """
    span = max(high - low, 1.0)
    raw = span / most
    power = 10 ** math.floor(math.log10(raw))
    step = max(next(m * power for m in (1, 2, 5, 10) if m * power >= raw), 1.0)
    ticks = [float(math.floor(low / step) * step)]
    while ticks[-1] < high:
        ticks.append(round(ticks[-1] + step, 10))
    return ticks


def _fmt(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


class _Canvas:
    def __init__(self, title: str, labels: Sequence[str], series: Sequence[Series],
                 y_top: float, unit: str, y_bottom: float = 0,
                 floating: bool = False) -> None:
        self.title = title
        self.labels = list(labels)
        self.series = list(series)
        self.unit = unit
        self.ticks = (nice_between(y_bottom, y_top) if floating else
                      nice_range(y_bottom, y_top) if y_bottom < 0 else nice_ticks(y_top))
        self.top_value = self.ticks[-1]
        self.bottom_value = self.ticks[0]
        self.legend = len(self.series) > 1
        self.plot_top = TOP + (LEGEND if self.legend else 0)
        self.plot_bottom = HEIGHT - BOTTOM
        self.plot_left = LEFT
        self.plot_right = WIDTH - RIGHT
        self.id = f"chart-{next(_ids)}"
        self.parts: list[str] = []

    @property
    def plot_width(self) -> float:
        return self.plot_right - self.plot_left

    def y(self, value: float) -> float:
        span = self.top_value - self.bottom_value
        share = (value - self.bottom_value) / span if span else 0
        return self.plot_bottom - share * (self.plot_bottom - self.plot_top)

    def slot(self, index: int) -> tuple[float, float]:
        """The left edge and width of label ``index``'s slot on the x axis."""
        width = self.plot_width / max(len(self.labels), 1)
        return self.plot_left + index * width, width

    def open(self, description: str) -> None:
        self.parts.append(
            f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
            f'aria-labelledby="{self.id}-title {self.id}-desc" '
            f'font-size="{FONT}" xmlns="http://www.w3.org/2000/svg">'
            f'<title id="{self.id}-title">{escape(self.title)}</title>'
            f'<desc id="{self.id}-desc">{escape(description)}</desc>')

    def axes(self) -> None:
        for tick in self.ticks:
            y = self.y(tick)
            # Below zero, the zero line is drawn darker: above it is won, below lost.
            stroke = "#8c959f" if tick == 0 and self.bottom_value < 0 else "#e3e7ec"
            self.parts.append(
                f'<line class="chart-grid" x1="{self.plot_left}" x2="{self.plot_right}" '
                f'y1="{_fmt(y)}" y2="{_fmt(y)}" stroke="{stroke}"/>'
                f'<text class="chart-tick" x="{self.plot_left - 6}" y="{_fmt(y + 4)}" '
                f'text-anchor="end" fill="#5d6673">{escape(_number(tick))}{escape(self.unit)}'
                f'</text>')
        self.parts.append(
            f'<line class="chart-axis" x1="{self.plot_left}" x2="{self.plot_right}" '
            f'y1="{self.plot_bottom}" y2="{self.plot_bottom}" stroke="#8c959f"/>')
        # As many x labels as fit, evenly spread, the last one always shown.
        longest = max((len(label) for label in self.labels), default=1)
        every = max(1, math.ceil(len(self.labels) * (longest + 2) * CHAR / self.plot_width))
        last = len(self.labels) - 1
        for index, label in enumerate(self.labels):
            if (last - index) % every:
                continue
            left, width = self.slot(index)
            half = len(label) * CHAR / 2  # kept inside the drawing at either end
            x = min(max(left + width / 2, half + 2), WIDTH - half - 2)
            self.parts.append(
                f'<text class="chart-label" x="{_fmt(x)}" '
                f'y="{self.plot_bottom + FONT + 4}" text-anchor="middle" fill="#5d6673">'
                f'{escape(label)}</text>')

    def draw_legend(self) -> None:
        if not self.legend:
            return
        x = float(self.plot_left)
        for number, series in enumerate(self.series):
            colour = PALETTE[number % len(PALETTE)]
            self.parts.append(
                f'<g class="chart-legend"><rect x="{_fmt(x)}" y="{TOP}" width="12" '
                f'height="12" rx="2" fill="{colour}"/><text x="{_fmt(x + 16)}" '
                f'y="{TOP + 11}" fill="#1f2328">{escape(series.name)}</text></g>')
            x += 15 + CHAR * 1.1 * len(series.name) + 14

    def close(self) -> SafeString:
        self.parts.append("</svg>")
        return mark_safe("".join(self.parts))  # noqa: S308 - every text above is escaped


def _description(labels: Sequence[str], series: Sequence[Series], unit: str) -> str:
    """A one-line summary for screen readers: each series' total or range."""
    if not labels:
        return "No data."
    parts = []
    for one in series:
        present = [v for v in one.values if v is not None]
        if not present:
            parts.append(f"{one.name}: no data")
        elif unit == "%":
            parts.append(f"{one.name}: {_number(min(present))}–{_number(max(present))}%")
        else:
            parts.append(f"{one.name}: {_number(sum(present))} in all")
    return f"{labels[0]} to {labels[-1]}. " + "; ".join(parts) + "."


def bar_chart(title: str, labels: Sequence[str], series: Sequence[Series], *,
              stacked: bool = True, unit: str = "",
              tooltip: Callable[[str, Series, float], str] | None = None) -> SafeString:
    """Bars per label: one bar, or one per series stacked (or side by side)."""
    canvas = _Canvas(title, labels, series, _bar_top(labels, series, stacked), unit)
    canvas.open(_description(labels, series, unit))
    canvas.axes()
    canvas.draw_legend()
    for index, label in enumerate(labels):
        left, width = canvas.slot(index)
        inner = width * 0.72
        base = 0.0
        for number, one in enumerate(series):
            value = one.values[index] or 0
            colour = PALETTE[number % len(PALETTE)]
            text = tooltip(label, one, value) if tooltip else (
                f"{label} · {one.name}: {_number(value)}{unit}")
            if stacked:
                x, bar_width = left + (width - inner) / 2, inner
                top, bottom = canvas.y(base + value), canvas.y(base)
                base += value
            else:
                bar_width = inner / max(len(series), 1)
                x = left + (width - inner) / 2 + number * bar_width
                top, bottom = canvas.y(value), canvas.y(0)
            height = max(bottom - top, 0)
            canvas.parts.append(
                f'<rect class="chart-bar" x="{_fmt(x)}" y="{_fmt(top)}" '
                f'width="{_fmt(max(bar_width - 1, 1))}" height="{_fmt(height)}" '
                f'fill="{colour}"><title>{escape(text)}</title></rect>')
    return canvas.close()


def _bar_top(labels: Sequence[str], series: Sequence[Series], stacked: bool) -> float:
    if not labels or not series:
        return 0
    if stacked:
        return max(sum(one.values[i] or 0 for one in series) for i in range(len(labels)))
    return max((v or 0) for one in series for v in one.values)


def line_chart(title: str, labels: Sequence[str], series: Sequence[Series], *,
               unit: str = "", y_top: float | None = None,
               tooltip: Callable[[str, Series, float], str] | None = None,
               description: str | None = None, floating: bool = False) -> SafeString:
    """A line per series with a dot on each value; ``None`` values leave a gap. Values below
    zero widen the axis below zero (running totals); ``floating`` starts the axis just
    below the lowest value instead of at zero; ``description`` replaces the summary
    read to screen readers."""
    present = [v for one in series for v in one.values if v is not None]
    highest = max(present, default=0)
    lowest = min(present, default=0) if floating else min(min(present, default=0), 0)
    canvas = _Canvas(title, labels, series, y_top if y_top is not None else highest, unit,
                     lowest, floating)
    canvas.open(description if description is not None else
                _description(labels, series, unit))
    canvas.axes()
    canvas.draw_legend()
    for number, one in enumerate(series):
        colour = PALETTE[number % len(PALETTE)]
        runs: list[list[str]] = [[]]
        dots = []
        for index, label in enumerate(labels):
            value = one.values[index]
            if value is None:
                runs.append([])
                continue
            left, width = canvas.slot(index)
            x, y = _fmt(left + width / 2), _fmt(canvas.y(value))
            runs[-1].append(f"{x},{y}")
            text = tooltip(label, one, value) if tooltip else (
                f"{label} · {one.name}: {_number(value)}{unit}")
            dots.append(f'<circle class="chart-dot" cx="{x}" cy="{y}" r="3.5" '
                        f'fill="{colour}"><title>{escape(text)}</title></circle>')
        for run in runs:
            if len(run) > 1:
                canvas.parts.append(
                    f'<polyline class="chart-line" points="{" ".join(run)}" fill="none" '
                    f'stroke="{colour}" stroke-width="2" stroke-linejoin="round"/>')
        canvas.parts.extend(dots)
    return canvas.close()
