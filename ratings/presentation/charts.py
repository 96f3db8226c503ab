"""A small rating-history chart drawn server-side as inline SVG.

No JavaScript library: the record sheet computes the points here and the
template draws one ``<polyline>`` with a few axis labels.  The x axis is
real time (a month without games is a visible gap), the y axis the value
the system rates on.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from html import escape
from typing import TypeVar

from django.utils.safestring import SafeString, mark_safe

WIDTH = 480
HEIGHT = 200
PAD_LEFT = 44
PAD_RIGHT = 8
PAD_TOP = 8
PAD_BOTTOM = 22
MAX_POINTS = 400  # a long sheet keeps the last value of each date, thinned to this
MAX_MARKS = 120  # points to hover, at most (each is a few dozen bytes of SVG)
MAX_TITLED = 10  # games a mark names, at most; it counts the others of its date


@dataclass(frozen=True, slots=True)
class Tick:
    x: float
    y: float
    label: str


@dataclass(frozen=True, slots=True)
class Mark:
    """A point to hover: the game (or adjustment) behind it, in words."""

    x: float
    y: float
    title: str


@dataclass(frozen=True, slots=True)
class Chart:
    width: int
    height: int
    points: str  # "x,y x,y ..." for <polyline points="...">
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    first: date
    last: date
    count: int
    #: One a date shown, when the caller gave the points' titles.
    marks: tuple[Mark, ...] = ()

    @property
    def marks_html(self) -> SafeString:
        """The marks as the SVG draws them, each title escaped (written here
        rather than by a template loop over up to MAX_MARKS marks)."""
        return mark_safe(  # every title escaped
            "".join(
                f'<circle class="mark" cx="{m.x}" cy="{m.y}" r="4"><title>{escape(m.title)}</title></circle>'
                for m in self.marks
            )
        )


def thin(points: Sequence[tuple[date, float]], limit: int = MAX_POINTS) -> list[tuple[date, float]]:
    """Keep the last value of each date, then at most ``limit`` evenly picked
    points (always the first and the last)."""
    by_date: dict[date, float] = {}
    for day, value in points:
        by_date[day] = value
    return spread(sorted(by_date.items()), limit)


T = TypeVar("T")


def spread(kept: list[T], limit: int) -> list[T]:
    """At most ``limit`` of ``kept``, evenly picked, the first and the last always."""
    if len(kept) <= limit:
        return kept
    step = (len(kept) - 1) / (limit - 1)
    return [kept[round(i * step)] for i in range(limit)]


def history_chart(
    points: Sequence[tuple[date, float]],
    label: Callable[[float], str] = lambda v: f"{v:g}",
    *,
    whole_ticks: bool = False,
    step_when: Callable[[float, float], bool] | None = None,
    width: int = WIDTH,
    height: int = HEIGHT,
    titles: Callable[[list[int]], list[str]] | None = None,
) -> Chart | None:
    """The chart of ``points`` (date, value) in date order; None when empty.

    ``label`` formats a y value for the axis (e.g. a rank label);
    ``whole_ticks`` puts the y ticks on whole numbers (ranks) when the
    range holds any, at most five of them.  ``step_when(previous, value)``
    true: the line steps (flat to the date, then straight up or down)
    instead of sloping from the previous point, e.g. at a rank change,
    which happens on one date and not gradually in between.  ``titles(indices)``:
    what is behind each of those points, shown on hover over its date's mark
    (the points of a date joined, at most MAX_TITLED of them, then how many
    more); asked once, only for the points named.
    """
    kept = thin(points)
    if not kept:
        return None
    first, last = kept[0][0], kept[-1][0]
    span_days = max((last - first).days, 1)
    values = [v for _, v in kept]
    low, high = min(values), max(values)
    if whole_ticks:
        # Show whole rank bands, so a player who stayed within one rank
        # still gets two labelled lines (e.g. 15k and 14k), never one label.
        low, high = math.floor(low), math.ceil(high)
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    inner_w = width - PAD_LEFT - PAD_RIGHT
    inner_h = height - PAD_TOP - PAD_BOTTOM

    def x_of(day: date) -> float:
        return round(PAD_LEFT + inner_w * (day - first).days / span_days, 1)

    def y_of(value: float) -> float:
        return round(PAD_TOP + inner_h * (high - value) / (high - low), 1)

    corners: list[tuple[date, float]] = []
    for i, (day, value) in enumerate(kept):
        if i and step_when is not None and step_when(kept[i - 1][1], value):
            corners.append((day, kept[i - 1][1]))
        corners.append((day, value))
    coords = " ".join(f"{x_of(d)},{y_of(v)}" for d, v in corners)
    x_ticks = tuple(Tick(x_of(d), height - 6, d.strftime("%b %Y")) for d in _date_ticks(first, last))
    tick_values = [high, (high + low) / 2, low]
    if whole_ticks:
        whole = list(range(math.ceil(low), math.floor(high) + 1))
        if whole:
            tick_values = [float(v) for v in whole[:: max(1, -(-len(whole) // 5))]]
    y_ticks = tuple(Tick(PAD_LEFT - 4, y_of(v), label(v)) for v in tick_values)
    marks: tuple[Mark, ...] = ()
    if titles is not None:
        marked = spread(kept, MAX_MARKS)
        behind: dict[date, list[int]] = {d: [] for d, _ in marked}
        for i, (day, _) in enumerate(points):
            if day in behind:
                behind[day].append(i)
        named = [i for d, _ in marked for i in behind[d][:MAX_TITLED]]
        title_of = dict(zip(named, titles(named), strict=True))
        marks = tuple(Mark(x_of(d), y_of(v), mark_title(behind[d], title_of)) for d, v in marked)
    return Chart(width, height, coords, x_ticks, y_ticks, first, last, len(kept), marks)


def mark_title(behind: list[int], title_of: dict[int, str]) -> str:
    """A mark's title: its date's points, the first MAX_TITLED named, the
    others counted (a day of a thousand games would make a title of tens of
    kilobytes that no one reads)."""
    title = "; ".join(title_of[i] for i in behind[:MAX_TITLED])
    more = len(behind) - MAX_TITLED
    return title if more <= 0 else f"{title}; and {more} more that day"


def _date_ticks(first: date, last: date, most: int = 4) -> list[date]:
    """Up to ``most`` first-of-month dates spread over [first, last]."""
    months: list[date] = []
    day = date(first.year, first.month, 1)
    while day <= last:
        if day >= first:
            months.append(day)
        day = date(day.year + (day.month == 12), day.month % 12 + 1, 1)
    if not months:
        return [first]
    step = max(1, -(-len(months) // most))
    return months[::step]
