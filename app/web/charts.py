"""Charts drawn on the server as inline SVG, without any script.

This module computes the geometry (plot box, axis ticks, polylines, bars) in the coordinates of
a fixed `viewBox`; `templates/partials/charts.html` writes the markup with its `<title>`, `<desc>`
and translated labels, and `static/css/stats.css` colours it by class (the page's CSP allows no
inline styles). The SVG scales to the width of its box, so one drawing serves a phone and a
desktop; every chart sits next to a table with the same numbers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 400
HEIGHT = 230
LEFT, RIGHT, TOP, BOTTOM = 38, 12, 12, 30
"""Margins of the plot box inside the viewBox (room for the axis labels)."""
SERIES_CLASSES = 11
"""Distinct series colours in the CSS (`series-0` … `series-10`): one per seat of the largest
table."""


@dataclass(frozen=True, slots=True)
class Tick:
    """An axis tick: its position along the axis (viewBox units) and its label."""

    pos: float
    label: str


@dataclass(frozen=True, slots=True)
class Point:
    """A data point of a line chart."""

    x: float
    y: float
    value: int
    label: str
    """What the point is (a game or hand label), shown as its tooltip with the value."""
    highlight: bool = False


@dataclass(frozen=True, slots=True)
class Series:
    """One line of a line chart."""

    index: int
    """The colour class (`series-<index>`)."""
    name: str
    path: str
    """The polyline's points attribute."""
    points: tuple[Point, ...]


@dataclass(frozen=True, slots=True)
class Bar:
    """One bar of a bar chart, with its value written above it."""

    x: float
    y: float
    width: float
    height: float
    value: int
    label: str
    center: float


@dataclass(frozen=True, slots=True)
class Chart:
    """A chart's geometry: the viewBox, the plot box, ticks, and its lines or bars."""

    width: int
    height: int
    left: float
    right: float
    top: float
    bottom: float
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    series: tuple[Series, ...] = ()
    bars: tuple[Bar, ...] = ()
    target: float | None = None
    """The y of the target-score line, if it is within the plot."""
    zero: float | None = None
    """The y of the zero line when the values go below zero."""

    @property
    def empty(self) -> bool:
        """Whether there is nothing to draw."""
        return not self.bars and not any(s.points for s in self.series)


def nice_ticks(low: float, high: float, count: int = 5) -> list[int]:
    """Round tick values (steps of 1, 2 or 5 × 10ⁿ) covering `low` … `high`."""
    if high <= low:
        high = low + 1
    raw = (high - low) / max(1, count)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    step = max(1, int(step))
    start = math.floor(low / step) * step
    stop = math.ceil(high / step) * step
    return list(range(int(start), int(stop) + step, step))


def _scale(lo: float, hi: float, out_lo: float, out_hi: float) -> tuple[float, float]:
    """The factor and offset mapping lo … hi onto out_lo … out_hi."""
    factor = (out_hi - out_lo) / (hi - lo) if hi != lo else 0.0
    return factor, out_lo - lo * factor


def _r(value: float) -> float:
    return round(value, 1)


def line_chart(
    series: Sequence[tuple[str, Sequence[int]]],
    x_labels: Sequence[str],
    *,
    target: int | None = None,
    highlights: Sequence[Sequence[bool]] | None = None,
    max_x_ticks: int = 6,
) -> Chart:
    """Lines over the same x positions (one label each): a name and values per series; points
    of a series may be highlighted (a won game, say); `target` draws the target-score line."""
    values = [v for _, vs in series for v in vs]
    low = min([0, *values])
    high = max([1, *values, *([target] if target is not None else [])])
    ticks = nice_ticks(low, high)
    left, right, top, bottom = LEFT, WIDTH - RIGHT, TOP, HEIGHT - BOTTOM
    fy, oy = _scale(ticks[0], ticks[-1], bottom, top)
    count = len(x_labels)
    if count > 1:
        fx, ox = _scale(0, count - 1, left + 8, right - 18)  # room for the last label
    else:  # a single point stands in the middle
        fx, ox = 0.0, (left + right) / 2
    drawn = []
    for index, (name, vs) in enumerate(series):
        marks = highlights[index] if highlights else [False] * len(vs)
        points = tuple(
            Point(_r(i * fx + ox), _r(v * fy + oy), v, x_labels[i], marks[i])
            for i, v in enumerate(vs)
        )
        path = " ".join(f"{p.x},{p.y}" for p in points)
        drawn.append(Series(index % SERIES_CLASSES, name, path, points))
    every = max(1, math.ceil(count / max_x_ticks))
    x_ticks = tuple(
        Tick(_r(i * fx + ox), x_labels[i]) for i in range(count) if i % every == 0 or i == count - 1
    )
    if len(x_ticks) > 1 and x_ticks[-1].pos - x_ticks[-2].pos < (right - left) / max_x_ticks / 2:
        x_ticks = (*x_ticks[:-2], x_ticks[-1])
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        left=left,
        right=right,
        top=top,
        bottom=bottom,
        x_ticks=x_ticks,
        y_ticks=tuple(Tick(_r(t * fy + oy), str(t)) for t in ticks),
        series=tuple(drawn),
        target=_r(target * fy + oy) if target is not None and target <= ticks[-1] else None,
        zero=_r(oy) if ticks[0] < 0 else None,
    )


def bar_chart(bars: Sequence[tuple[str, int]]) -> Chart:
    """Vertical bars, one per (label, value), values from 0 up."""
    high = max([1, *(v for _, v in bars)])
    ticks = nice_ticks(0, high, 4)
    left, right, top, bottom = LEFT, WIDTH - RIGHT, TOP + 8, HEIGHT - BOTTOM
    fy, oy = _scale(0, ticks[-1], bottom, top)
    slot = (right - left) / max(1, len(bars))
    width = slot * 0.7
    drawn = []
    for i, (label, value) in enumerate(bars):
        x = left + i * slot + (slot - width) / 2
        y = value * fy + oy
        drawn.append(Bar(_r(x), _r(y), _r(width), _r(bottom - y), value, label, _r(x + width / 2)))
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        left=left,
        right=right,
        top=top,
        bottom=bottom,
        x_ticks=tuple(Tick(b.center, b.label) for b in drawn),
        y_ticks=tuple(Tick(_r(t * fy + oy), str(t)) for t in ticks),
        bars=tuple(drawn),
    )
