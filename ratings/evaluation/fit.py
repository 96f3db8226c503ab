"""A logistic curve fitted walk-forward: P(White wins) from a strength difference.

SAGC, the French ladders and the West Surrey ladder give no probability of
a result.  For them (and for the rank baseline) the probability that White
wins is read from a logistic curve of ``x``, White's strength minus Black's
in stones (rank units) less the advantage the handicap and komi give Black:

    P(White wins) = 1 / (1 + exp(-(a + b x)))

``a`` is what White gains from colour and komi at an equal footing, ``b``
how much a stone of difference is worth.  Both are fitted by maximum a
posteriori: the log-likelihood of the games already played plus a Gaussian
prior (:data:`PRIOR`), by Newton's method with step halving.  The prior
makes the fit defined from the first game (no data: the prior's mean) and
keeps it finite when every game so far went one way.

:class:`WalkForward` refits only on games *before* the one predicted, on a
schedule that depends only on how many games it has seen (:meth:`due`), so
changing or reordering later games never changes an earlier prediction.
docs/evaluation.md explains the choices.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

__all__ = ["PRIOR", "LogisticCurve", "Prior", "WalkForward", "fit_curve", "logistic"]


def logistic(z: float) -> float:
    """1 / (1 + e^-z), without overflow for large |z|."""
    if z >= 0.0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


@dataclass(frozen=True, slots=True)
class LogisticCurve:
    """P(White wins) = logistic(intercept + slope x)."""

    intercept: float
    slope: float

    def probability(self, x: float) -> float:
        return logistic(self.intercept + self.slope * x)


@dataclass(frozen=True, slots=True)
class Prior:
    """Independent Gaussian priors on the intercept and the slope.

    ``weight`` is the precision (1 / variance) of each: 1.0 is a standard
    deviation of 1, about what a handful of games can move.
    """

    intercept: float
    slope: float
    weight: float = 1.0

    @property
    def curve(self) -> LogisticCurve:
        return LogisticCurve(self.intercept, self.slope)


#: Before any game: no colour advantage, and a player one stone stronger
#: wins two games out of three (slope ln 2; the EGF's Se gives 58 % to 66 %
#: for one grade between 10k and 3d, docs/evaluation.md).
PRIOR: Final = Prior(intercept=0.0, slope=math.log(2.0), weight=1.0)

_TOLERANCE: Final = 1e-10
_MAX_STEPS: Final = 100


def _loss(xs: Sequence[float], ys: Sequence[float], a: float, b: float, prior: Prior) -> float:
    """Negative log posterior (up to a constant) of the curve (a, b)."""
    total = 0.5 * prior.weight * ((a - prior.intercept) ** 2 + (b - prior.slope) ** 2)
    for x, y in zip(xs, ys, strict=True):
        z = a + b * x
        # -[y ln p + (1 - y) ln(1 - p)] = ln(1 + e^z) - y z, computed stably.
        softplus = z + math.log1p(math.exp(-z)) if z > 0.0 else math.log1p(math.exp(z))
        total += softplus - y * z
    return total


def fit_curve(
    xs: Sequence[float],
    ys: Sequence[float],
    prior: Prior = PRIOR,
    start: LogisticCurve | None = None,
) -> LogisticCurve:
    """The curve of maximum posterior for outcomes ``ys`` (1 White won, 0
    Black won, 0.5 jigo) at differences ``xs``.

    Newton's method on the two parameters from ``start`` (default: the
    prior's mean), halving a step until the posterior improves; stops when
    a step moves both parameters less than 1e-10.
    """
    if len(xs) != len(ys):
        raise ValueError(f"{len(xs)} differences but {len(ys)} outcomes")
    if not prior.weight > 0.0:
        raise ValueError(f"the prior's weight must be positive, got {prior.weight!r}")
    curve = start if start is not None else prior.curve
    a, b = curve.intercept, curve.slope
    loss = _loss(xs, ys, a, b, prior)
    for _ in range(_MAX_STEPS):
        ga = prior.weight * (a - prior.intercept)
        gb = prior.weight * (b - prior.slope)
        haa = hbb = prior.weight
        hab = 0.0
        for x, y in zip(xs, ys, strict=True):
            p = logistic(a + b * x)
            r = p - y
            w = p * (1.0 - p)
            ga += r
            gb += r * x
            haa += w
            hab += w * x
            hbb += w * x * x
        det = haa * hbb - hab * hab
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        step = 1.0
        while True:
            na, nb = a - step * da, b - step * db
            new_loss = _loss(xs, ys, na, nb, prior)
            # Near the optimum the posterior is flat to rounding: a full
            # step that does not raise it beyond rounding is taken.
            if new_loss <= loss + 1e-12 * (1.0 + abs(loss)) or step < 1e-6:
                break
            step /= 2.0
        moved = max(abs(na - a), abs(nb - b))
        a, b, loss = na, nb, new_loss
        if moved < _TOLERANCE:
            break
    return LogisticCurve(a, b)


class WalkForward:
    """Predicts each game from a curve fitted on the games before it.

    Call :meth:`probability` for a game, then :meth:`observe` with its
    outcome.  The curve is refitted before a prediction whenever the
    number of games seen reaches the next refit point: after each of the
    first 20 games, then whenever the games seen have grown by a tenth
    (``n + max(1, n // 10)``): 87 fits for 10,000 games.
    """

    def __init__(self, prior: Prior = PRIOR) -> None:
        self.prior = prior
        self.curve = prior.curve
        self.xs: list[float] = []
        self.ys: list[float] = []
        self.fitted_at = 0
        self.fits = 0

    @staticmethod
    def due(seen: int, fitted_at: int) -> bool:
        """Is a refit due with ``seen`` games, the last fit at ``fitted_at``?"""
        if seen <= 20:
            return seen > fitted_at
        return seen >= fitted_at + max(1, fitted_at // 10)

    def probability(self, x: float) -> float:
        seen = len(self.xs)
        if seen and self.due(seen, self.fitted_at):
            self.curve = fit_curve(self.xs, self.ys, self.prior, self.curve)
            self.fitted_at = seen
            self.fits += 1
        return self.curve.probability(x)

    def observe(self, x: float, outcome: float) -> None:
        self.xs.append(x)
        self.ys.append(outcome)

    def final_curve(self) -> LogisticCurve:
        """The curve fitted on every game observed (for advice on new pairings)."""
        if self.xs and self.fitted_at != len(self.xs):
            self.curve = fit_curve(self.xs, self.ys, self.prior, self.curve)
            self.fitted_at = len(self.xs)
            self.fits += 1
        return self.curve
