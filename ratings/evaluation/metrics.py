"""How well probabilities predicted results: log-loss, Brier score, accuracy.

A prediction is P(White wins) before the game; an outcome is 1 (White
won), 0 (Black won) or 0.5 (jigo).  Over ``n`` games:

* log-loss = -(1/n) sum [y ln p + (1 - y) ln(1 - p)], natural logarithms,
  p kept within [1e-15, 1 - 1e-15] so that a certainty proved wrong costs a
  large finite amount (34.5) rather than infinity; always 50 % scores
  ln 2 = 0.693;
* Brier score = (1/n) sum (p - y)^2 (the "MSE" of lichess's figures);
  always 50 % scores 0.25;
* accuracy = the share of decisive games whose winner had p > 0.5, a
  prediction of exactly 0.5 counting half: always 50 % scores 50 %.  Jigos
  are left out of the accuracy (there is no winner to name) but counted in
  the log-loss and the Brier score.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Final, TypeVar

__all__ = ["EPSILON", "Bin", "Metrics", "by_band", "calibration", "score"]

#: Probabilities are kept this far from 0 and 1 in the log-loss.
EPSILON: Final = 1e-15

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Metrics:
    """The figures of one predictor on a set of games.

    ``log_loss`` and ``brier`` are None when there are no games,
    ``accuracy`` when there is no decisive game.
    """

    games: int
    decisive: int
    log_loss: float | None
    brier: float | None
    accuracy: float | None


def score(pairs: Iterable[tuple[float, float]]) -> Metrics:
    """The metrics of (probability, outcome) pairs."""
    n = decisive = 0
    log_loss = brier = correct = 0.0
    for p, y in pairs:
        if not (0.0 <= p <= 1.0):
            raise ValueError(f"a probability must be within 0..1, got {p!r}")
        if y not in (0.0, 0.5, 1.0):
            raise ValueError(f"an outcome must be 1, 0 or 0.5, got {y!r}")
        n += 1
        q = min(max(p, EPSILON), 1.0 - EPSILON)
        log_loss -= y * math.log(q) + (1.0 - y) * math.log(1.0 - q)
        brier += (p - y) ** 2
        if y != 0.5:
            decisive += 1
            if p == 0.5:
                correct += 0.5
            elif (p > 0.5) == (y == 1.0):
                correct += 1.0
    return Metrics(
        games=n,
        decisive=decisive,
        log_loss=log_loss / n if n else None,
        brier=brier / n if n else None,
        accuracy=correct / decisive if decisive else None,
    )


def by_band(
    probabilities: Sequence[float],
    outcomes: Sequence[float],
    band: Callable[[int], K],
) -> dict[K, Metrics]:
    """The metrics per band, ``band(i)`` naming the band of game ``i``."""
    if len(probabilities) != len(outcomes):
        raise ValueError(f"{len(probabilities)} probabilities but {len(outcomes)} outcomes")
    groups: dict[K, list[tuple[float, float]]] = {}
    for i, pair in enumerate(zip(probabilities, outcomes, strict=True)):
        groups.setdefault(band(i), []).append(pair)
    return {key: score(pairs) for key, pairs in groups.items()}


@dataclass(frozen=True, slots=True)
class Bin:
    """Games whose prediction fell in [low, high): how many, the mean
    prediction and the share White actually won (a jigo counts half)."""

    low: float
    high: float
    games: int
    predicted: float
    observed: float


def calibration(probabilities: Sequence[float], outcomes: Sequence[float], bins: int = 10) -> list[Bin]:
    """The calibration table (what a calibration chart draws): predictions
    cut into ``bins`` equal bands of P(White wins), the last one closed
    (1.0 falls in it); empty bands are left out.  A well-calibrated
    predictor has ``observed`` close to ``predicted`` in every band."""
    if bins < 1:
        raise ValueError(f"bins must be at least 1, got {bins!r}")
    if len(probabilities) != len(outcomes):
        raise ValueError(f"{len(probabilities)} probabilities but {len(outcomes)} outcomes")
    sums: list[list[float]] = [[0.0, 0.0, 0.0] for _ in range(bins)]  # games, sum p, sum y
    for p, y in zip(probabilities, outcomes, strict=True):
        k = min(int(p * bins), bins - 1)
        sums[k][0] += 1
        sums[k][1] += p
        sums[k][2] += y
    return [Bin(k / bins, (k + 1) / bins, int(n), sp / n, sy / n) for k, (n, sp, sy) in enumerate(sums) if n]
