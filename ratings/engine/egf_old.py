"""The EGF GoR before 2021 (EGD "EGF_rating_system_old.php").

Rules (docs/rating-systems.md explains each with its source):

* Se(A) = 1 / (e^(D/a) + 1) - epsilon / 2 for each player, D the rating
  difference, a = 200 - (r - 100) / 20 at the weaker player's rating
  (200 at 20k, 70 at 7d, flat outside GoR 100..2700), epsilon = 0.016;
* con from the EGD table (116 at GoR 100 ... 10 at 2700), interpolated per
  100 points;
* r' = r + con (Sa - Se), per game, times the tournament class weight;
* handicap: Black's rating counts 100 (H - 0.5) higher in Se and in a;
* the floor is GoR 100 (20 kyu): no rating goes below it and a newcomer
  declared below 20 kyu enters at 20 kyu (EGF Rating System Commission);
* periods and new players as in the current system.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, Final

from ratings.engine.egf_common import EGFBase, EGFState
from ratings.engine.egf_rules import OLD_FLOOR

__all__ = ["EGFState", "OldEGF"]

#: "epsilon" of the old system: every player's Se is lowered by epsilon / 2
#: to counter deflation; 0.014 in early versions, 0.016 in the last one.
EPSILON: Final = 0.016


class OldEGF(EGFBase):
    """Pre-2021 EGF GoR (the system of 1998-2020)."""

    name: ClassVar[str] = "egf-old"
    unit: ClassVar[str] = "GoR"
    _revised: ClassVar[bool] = False

    def __init__(
        self,
        *,
        epsilon: float = EPSILON,
        class_weights: Mapping[str, float] | None = None,
        tournament_class: str = "A",
        club_class: str = "C",
        internet_class: str = "D",
        floor: float = OLD_FLOOR,
        min_minutes: int = 25,
    ) -> None:
        super().__init__(
            class_weights=class_weights,
            tournament_class=tournament_class,
            club_class=club_class,
            internet_class=internet_class,
            floor=floor,
            min_minutes=min_minutes,
            epsilon=epsilon,
        )
