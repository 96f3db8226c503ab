"""How each system reads a player's strength and a game's handicap.

Two questions, one answer per system, used both to evaluate the systems
(:mod:`ratings.evaluation.predict`) and to advise on a new pairing
(:mod:`ratings.evaluation.advice`):

* :func:`strength`: a player's standing (rank and rating in the system's
  own unit, as in the ledger) as a number of stones on the shared rank
  scale (1d = 0, 1k = -1), so that a difference of strengths is a number of
  handicap stones;
* :func:`advantage`: what a game's handicap and komi give Black, in the
  same stones, by the system's own handicap rule.

The EGF systems define the probability of a result themselves (Se); for
them :func:`se_probability` calls the engine's own function.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from ratings.engine.egf_rules import handicap_points, old_expected, revised_expected
from ratings.engine.ffg_common import handicap_bonus, handicap_stones
from ratings.engine.sagc_rules import effective_handicap
from ratings.engine.west_surrey import EVEN_KOMI, KOMI_PER_STONE

__all__ = [
    "FITTED_SYSTEMS",
    "SE_SYSTEMS",
    "advantage",
    "egf_advantage",
    "se_probability",
    "strength",
    "west_surrey_levels",
]

#: Systems whose own rules give P(White wins): the EGF's Se.
SE_SYSTEMS: Final = frozenset({"egf", "egf-old"})
#: Systems without one: P(White wins) comes from a fitted curve.
FITTED_SYSTEMS: Final = frozenset({"sagc", "ffg", "ffg-old", "west-surrey"})

#: SAGC index points per rank: +999 promotes (index back to 0 one rank up),
#: -999 demotes (the SAGC FAQ), so rank r with index i stands at r + i / 1000.
SAGC_INDEX_PER_RANK: Final = 1000.0
#: GoR and FFG levels: 100 points a grade (ratings.engine.ranks).
POINTS_PER_GRADE: Final = 100.0


def strength(system: str, rank: float, rating: float) -> float:
    """A standing in ``system`` as stones on the shared rank scale.

    SAGC: rank + index / 1000; West Surrey: the rung itself (a strength on
    the shared scale); EGF and FFG: rating / 100 (only differences count,
    so the offset of each scale does not matter).
    """
    if system == "sagc":
        return rank + rating / SAGC_INDEX_PER_RANK
    if system == "west-surrey":
        return rating
    if system in ("egf", "egf-old", "ffg", "ffg-old"):
        return rating / POINTS_PER_GRADE
    raise ValueError(f"unknown rating system {system!r}")


def egf_advantage(handicap: int, komi: float) -> float:
    """The EGF and FFG reading, in stones: H - 1/2 for H >= 1, H from
    :func:`ratings.engine.ffg_common.handicap_stones` (no stones and less
    than 3.5 komi to White is a game "à sen", H = 1)."""
    return handicap_bonus(handicap_stones(handicap, komi)) / POINTS_PER_GRADE


def west_surrey_levels(handicap: int, komi: float) -> float:
    """Handicap levels Black got, by the West Surrey ladder page's rule.

    "One handicap stone is equivalent to 10 komi"; "For a handicap of 0,
    white receives 6 komi and black starts"; "The 1 stone is Black playing
    first".  So: stones plus komi to Black / 10 (komi to White counts
    negative); without stones, 6 komi to White is level 0 and no komi
    (Black first) level 1, linear in between, and komi beyond those ends
    counts 10 a level.  ``komi`` is White's (negative: komi to Black).
    """
    if handicap >= 1:
        return handicap - komi / KOMI_PER_STONE
    if komi >= EVEN_KOMI:
        return (EVEN_KOMI - komi) / KOMI_PER_STONE
    if komi >= 0.0:
        return 1.0 - komi / EVEN_KOMI
    return 1.0 - komi / KOMI_PER_STONE


_ADVANTAGE: Mapping[str, Callable[[int, float], float]] = {
    # the SAGC FAQ: eff_handicap = int(handicap - (komi - 6) / 10), one stone per rank.
    "sagc": lambda h, k: float(effective_handicap(h, k)),
    "west-surrey": west_surrey_levels,
    # the French Ladder and FFG algorithm pages: Black counts 100 (H - 0.5) levels higher; likewise the EGF's GoR.
    "ffg": egf_advantage,
    "ffg-old": egf_advantage,
    "egf": lambda h, k: handicap_points(h) / POINTS_PER_GRADE,
    "egf-old": lambda h, k: handicap_points(h) / POINTS_PER_GRADE,
}


def advantage(system: str, handicap: int, komi: float) -> float:
    """What ``handicap`` stones and ``komi`` (to White) give Black in ``system``, in stones."""
    try:
        reading = _ADVANTAGE[system]
    except KeyError:
        raise ValueError(f"unknown rating system {system!r}") from None
    return reading(handicap, komi)


def se_probability(system: str, white: float, black: float, handicap: int) -> float:
    """P(White wins) by the EGF's Se, from the two GoRs and the stones.

    Black's GoR counts :func:`handicap_points` higher.  The pre-2021 Se is
    taken without its epsilon: epsilon lowers both players' Se to counter
    deflation, it is not a prediction (its two Se do not add up to 1).
    """
    raised = black + handicap_points(handicap)
    if system == "egf":
        return revised_expected(white, raised)
    if system == "egf-old":
        return old_expected(white, raised, 0.0)
    raise ValueError(f"{system!r} defines no Se; use a fitted curve")
