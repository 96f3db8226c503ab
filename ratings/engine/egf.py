"""The EGF GoR as computed by the European Go Database since 2021 (the Revised European Ratings page).

Rules (docs/rating-systems.md explains each with its source):

* Se = 1 / (1 + exp(beta(r2) - beta(r1))), beta(r) = -7 ln(3300 - r);
* con = ((3300 - r) / 200) ^ 1.6; bonus = ln(1 + exp((2300 - r) / 80)) / 5;
* r' = r + con (Sa - Se) + bonus, per game, times the tournament class
  weight (A 1.00, B 0.75, C 0.50, D 0.25);
* handicap: Black's rating counts 100 (H - 0.5) higher in Se only;
* ratings are not updated between the games of one tournament (period);
* new players start at their grade (1d = 2100, 1k = 2000); no GoR below -900.

The replay loop lives in :mod:`ratings.engine.egf_common`, shared with the
pre-2021 system.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from ratings.engine.egf_common import EGFBase, EGFState
from ratings.engine.egf_rules import FLOOR

__all__ = ["EGF", "EGFState"]


class EGF(EGFBase):
    """Current EGF GoR (goratings.eu formulas, EGD since 2021)."""

    name: ClassVar[str] = "egf"
    unit: ClassVar[str] = "GoR"
    _revised: ClassVar[bool] = True

    def __init__(
        self,
        *,
        class_weights: Mapping[str, float] | None = None,
        tournament_class: str = "A",
        club_class: str = "C",
        internet_class: str = "D",
        floor: float = FLOOR,
        min_minutes: int = 25,
    ) -> None:
        super().__init__(
            class_weights=class_weights,
            tournament_class=tournament_class,
            club_class=club_class,
            internet_class=internet_class,
            floor=floor,
            min_minutes=min_minutes,
        )
