"""The calibration chart of the committee's page, drawn server-side as SVG.

Like the rating-history chart (ratings/presentation/charts.py): no JavaScript library,
the points are computed here and the template draws them.  x is the mean
predicted P(White wins) of a band of predictions, y the share of those games
White won (:func:`ratings.evaluation.metrics.calibration`); a
well-calibrated system stays on the diagonal.  Each band is a dot whose
area grows with its number of games.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

SIZE = 320
PAD = 36
#: Colour-blind-safe (Okabe and Ito), one per predictor in order.
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#999999")
MAX_RADIUS = 7.0


@dataclass(frozen=True, slots=True)
class Dot:
    x: float
    y: float
    r: float
    title: str


@dataclass(frozen=True, slots=True)
class Series:
    name: str
    label: str
    colour: str
    points: str  # "x,y x,y" for <polyline points="...">
    dots: tuple[Dot, ...]


@dataclass(frozen=True, slots=True)
class CalibrationChart:
    size: int
    low: float  # the plot's corner in pixels (PAD) ...
    high: float  # ... and the opposite one (SIZE - PAD)
    ticks: tuple[tuple[float, float, str], ...]  # x pixel (x axis), y pixel (y axis), label
    series: tuple[Series, ...]


def _pixel_x(value: float) -> float:
    return round(PAD + (SIZE - 2 * PAD) * value, 1)


def _pixel_y(value: float) -> float:
    return round(SIZE - PAD - (SIZE - 2 * PAD) * value, 1)


def calibration_chart(
    bins: Mapping[str, Sequence[Sequence[float]]], labels: Mapping[str, str], names: Sequence[str]
) -> CalibrationChart | None:
    """The chart of the predictors ``names`` (in that order) from their
    stored bins ``[low, high, games, predicted, observed]``; None when no
    predictor has a game."""
    most = max((b[2] for name in names for b in bins.get(name, ())), default=0)
    if not most:
        return None
    series = []
    for i, name in enumerate(names):
        rows = bins.get(name, ())
        if not rows:
            continue
        dots = tuple(
            Dot(
                _pixel_x(predicted),
                _pixel_y(observed),
                round(max(1.5, MAX_RADIUS * math.sqrt(games / most)), 1),
                f"{labels.get(name, name)}: predicted {100 * predicted:.0f} %, White won {100 * observed:.0f} % "
                f"of {int(games)} games",
            )
            for _low, _high, games, predicted, observed in rows
        )
        points = " ".join(f"{d.x},{d.y}" for d in dots)
        series.append(Series(name, labels.get(name, name), COLOURS[i % len(COLOURS)], points, dots))
    ticks = tuple((_pixel_x(v / 4), _pixel_y(v / 4), f"{25 * v} %") for v in range(5))
    return CalibrationChart(SIZE, PAD, SIZE - PAD, ticks, tuple(series))
