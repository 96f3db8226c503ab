"""The rules of the EGF GoR systems, current and pre-2021, one function or
table each: class weights, the floor, ``con``, the bonus, the expected
result and what a handicap is worth.  :mod:`ratings.engine.egf_common`
replays games with them and the explanations name the terms they compute;
neither is imported here.

Sources (docs/rating-systems.md lists them with addresses): the Revised
European Ratings page and the EGD page "EGF Official ratings system" for
the current system; the EGD page of the old system for the pre-2021 one;
the EGF tournament class rules.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from math import exp
from typing import Final

from ratings.engine.ranks import MAX_RANK

#: EGF tournament classes and their weights "for inclusion to EGF ratings":
#: A 1.00, B 0.75, C 0.50 (EGF class rules since 1999), D 0.25 (internet
#: tournaments, a class created in 2015; Sensei's "EGF tournament class").
CLASS_WEIGHTS: Mapping[str, float] = {"A": 1.0, "B": 0.75, "C": 0.5, "D": 0.25}

#: "If player's rating drops below -900, it is reset to GoR=-900 which is
#: fixed as the bottom value" (EGD, "General info").
FLOOR: Final = -900.0
#: The floor before 2021: GoR 100, 20 kyu.  The EGF's Rating System
#: Commission (eurogofed.org, "Rating System Commission") recommended that
#: "the Rating System floor should be moved from 20 kyu to 30 kyu" and noted
#: that an entrant below 20 kyu was shown at 20 kyu; the revised system of
#: 2021 did both.
OLD_FLOOR: Final = 100.0

#: The revised formulas are defined below GoR 3300 only ("a perfect player
#: would have about 3300 GoR", the Revised European Ratings page): con and beta take logarithms and
#: powers of 3300 - r.  A rating (or a handicap-raised rating) at or above
#: this cap is counted as the cap; no real player comes near it.
REVISED_CAP: Final = 3299.0

#: Pre-2021 system, the EGD table of con per 100 GoR from 100 to 2700
#: (interpolated in between, flat outside; EGD "System description" of the
#: old system, the same table as Sensei's "GoR" page and online-go/goratings).
OLD_CON_TABLE: Final[tuple[float, ...]] = (
    116, 110, 105, 100, 95, 90, 85, 80, 75, 70, 65, 60, 55,  # 100 .. 1300
    51, 47, 43, 39, 35, 31, 27, 24, 21, 18, 15, 13, 11, 10,  # 1400 .. 2700
)  # fmt: skip


def grade_rank(gor: float) -> float:
    """The whole grade a GoR falls in (2050..2149 = 1d), at most 9d.

    Same as :func:`ratings.engine.ranks.gor_to_rank` (the EGD convention
    that a grade's GoR is the middle of its band) with the float floor
    division the hot loop uses, capped at the top of the rank scale: the
    EGD counts pros from 2700 (1p = 7d) up, beyond our 9d.
    """
    rank = (gor - 2050.0) // 100.0
    return rank if rank < MAX_RANK else float(MAX_RANK)


def revised_con(gor: float) -> float:
    """con = ((3300 - r) / 200) ^ 1.6 (the Revised European Ratings page; EGD since 2021)."""
    r = gor if gor < REVISED_CAP else REVISED_CAP
    return float(((3300.0 - r) / 200.0) ** 1.6)


def revised_bonus(gor: float) -> float:
    """bonus = ln(1 + exp((2300 - r) / 80)) / 5 (the Revised European Ratings page, "to counter deflation")."""
    x = (2300.0 - gor) / 80.0
    # log1p(exp(x)) overflows for x above ~709 (GoR below about -54,400,
    # unreachable above the floor); for large x it equals x to double precision.
    return (x if x > 35.0 else math.log1p(math.exp(x))) / 5.0


def beta(gor: float) -> float:
    """beta(r) = -7 ln(3300 - r) (the Revised European Ratings page, "the integral of 1 / a")."""
    r = gor if gor < REVISED_CAP else REVISED_CAP
    return -7.0 * math.log(3300.0 - r)


def revised_expected(gor: float, opponent: float) -> float:
    """Se = 1 / (1 + exp(beta(r2) - beta(r1))) (the Revised European Ratings page, Bradley-Terry).

    With beta = -7 ln(3300 - r) that is 1 / (1 + q^7), q = (3300 - r1) /
    (3300 - r2): computed so, without a logarithm or an exponential.
    """
    q = (3300.0 - (gor if gor < REVISED_CAP else REVISED_CAP)) / (
        3300.0 - (opponent if opponent < REVISED_CAP else REVISED_CAP)
    )
    q2 = q * q
    return 1.0 / (1.0 + q2 * q2 * q2 * q)


def gor_to_elo(gor: float) -> float:
    """Rough conversion to Rémi Coulom's goratings.org Elo (the Revised European Ratings page).

    "Elo = -7 * ln(3300 - GoR) * 400 / ln(10) + 10500"; e.g. 2700 (1p) -> 2721.
    """
    return beta(gor) * 400.0 / math.log(10.0) + 10500.0


def elo_to_gor(elo: float) -> float:
    """The Revised European Ratings page's inverse, "GoR = 3300 - exp(((10500 - Elo) / 7) * ln(10) / 400)"."""
    return 3300.0 - math.exp(((10500.0 - elo) / 7.0) * math.log(10.0) / 400.0)


def old_con(gor: float) -> float:
    """con of the pre-2021 system: the EGD table, linear between its rows.

    Below 100 and above 2700 the end values hold (116 and 10): the old
    documentation bounds its tables to GoR 100..2700.
    """
    if gor <= 100.0:
        return float(OLD_CON_TABLE[0])
    if gor >= 2700.0:
        return float(OLD_CON_TABLE[-1])
    pos = (gor - 100.0) / 100.0
    row = int(pos)
    low = OLD_CON_TABLE[row]
    return float(low + (pos - row) * (OLD_CON_TABLE[row + 1] - low))


def old_a(gor: float) -> float:
    """a = 200 - (r - 100) / 20 for GoR 100..2700 (200 at 20k, 70 at 7d), flat outside."""
    r = 100.0 if gor < 100.0 else 2700.0 if gor > 2700.0 else gor
    return 205.0 - r / 20.0


def old_expected(gor: float, opponent: float, epsilon: float = 0.0) -> float:
    """Se of the pre-2021 system for the player rated ``gor``.

    Se(A) = 1 / (e^(D/a) + 1) - epsilon / 2, D = opponent - gor, and ``a``
    taken at the weaker player's rating (EGD old "System description";
    its Example 5 uses the handicap-raised rating of the weaker player).
    With epsilon it may be below 0 (a 300 against a 1500): no source bounds
    it, so a loss there gains a little.
    """
    # A conditional, not min(), and exp imported by name: this runs once a
    # game in the pure engine, where each call and lookup shows.
    a = old_a(gor if gor < opponent else opponent)
    return 1.0 / (exp((opponent - gor) / a) + 1.0) - epsilon / 2.0


def handicap_points(handicap: int) -> float:
    """The rating points a handicap is worth in Se: 100 (H - 0.5) for H >= 1.

    EGD: "the rating of the weaker player is increased by 100*(H-0.5)" where
    H is the number of handicap stones; H = 1 is a game without komi (Black
    moves first), worth half a grade.  An even game (H = 0) gets nothing,
    whatever its komi: the EGD records only stones, never komi.
    """
    return 100.0 * (handicap - 0.5) if handicap > 0 else 0.0
