"""Advice on a pairing: the probability of a result, the handicap to play.

Pure functions for the pages that will call them (the improbable-result
confirmation at entry, the "what handicap do we play?" page, the sheet's
pre-fill).  A player's standing is anything with a ``rank`` and a
``rating`` in the system's own unit: a system's player state
(``result.state[player]``) or a ledger row.

* :func:`win_probability`: P(White wins) for a pairing and a handicap, by
  the same rule :func:`ratings.evaluation.predict.evaluate` scores (the
  EGF's Se, else a fitted curve, e.g. ``Evaluation.curves[system]``);
* :func:`result_probability`: the probability of the result entered;
* :func:`prescribed_handicap`: who takes White, the stones and the komi the
  system's handicap rule gives;
* :func:`handicap_breach`: why a given handicap breaks that rule, or None.

Handicap rules (docs/evaluation.md):

* SAGC (the SAGC FAQ): the correct handicap is one stone per rank of
  difference, counted as the effective handicap
  ``int(handicap - (komi - 6) / 10)``;
* West Surrey (the West Surrey ladder page): the difference of the two strengths, fractions
  dropped, in levels of one stone or 10 komi;
* EGF and FFG: their rating rules give no handicap, so we use the EGD's
  tournament rule "handicap = grade difference minus N" (the h9
  header's ``HA[hN]``, docs/formats.md) with N = 0, at most 9 stones, grades from the ratings (GoR:
  2050..2149 = 1d; FFG level: 0..99 = 1d).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, Protocol

from ratings.engine.base import Winner
from ratings.engine.egf_rules import grade_rank
from ratings.engine.ffg_common import handicap_stones
from ratings.engine.ranks import ffg_to_rank
from ratings.engine.sagc_rules import effective_handicap
from ratings.engine.west_surrey import handicap_options, ladder_handicap
from ratings.evaluation.fit import LogisticCurve
from ratings.evaluation.readings import FITTED_SYSTEMS, SE_SYSTEMS, advantage, se_probability, strength

__all__ = [
    "EVEN_KOMI",
    "HANDICAP_KOMI",
    "MAX_STONES",
    "Handicap",
    "Standing",
    "handicap_breach",
    "prescribed_handicap",
    "result_probability",
    "win_probability",
]

#: Komi of an even game we advise (the engine's Game default), and of a
#: game with stones (half a point, no jigo: the EGF convention,
#: ratings.exchange.model.HANDICAP_KOMI).
EVEN_KOMI: Final = 6.5
HANDICAP_KOMI: Final = 0.5
#: Stones on a 19x19 board; a larger handicap is given as komi where the
#: system counts komi (SAGC, West Surrey) and capped otherwise (EGF, FFG).
MAX_STONES: Final = 9


class Standing(Protocol):
    """A player as a system knows them: rank and rating in its own unit."""

    @property
    def rank(self) -> float: ...

    @property
    def rating(self) -> float: ...


@dataclass(frozen=True, slots=True)
class Handicap:
    """A handicap for a pairing: ``white`` is "first" or "second" (which
    of the two players given takes White), ``stones`` for Black, ``komi``
    to White (negative: komi to Black)."""

    white: Literal["first", "second"]
    stones: int
    komi: float


def win_probability(
    system: str,
    white: Standing,
    black: Standing,
    handicap: int,
    komi: float,
    curve: LogisticCurve | None = None,
) -> float:
    """P(White wins) under ``system`` for this pairing and handicap.

    The EGF systems use their Se (``curve`` is ignored); the others need
    the ``curve`` fitted on the list's games (``Evaluation.curves``).
    """
    if system in SE_SYSTEMS:
        return se_probability(system, white.rating, black.rating, handicap)
    if system not in FITTED_SYSTEMS:
        raise ValueError(f"unknown rating system {system!r}")
    if curve is None:
        raise ValueError(f"{system}: a fitted curve is needed (it defines no probability of its own)")
    x = (
        strength(system, white.rank, white.rating)
        - strength(system, black.rank, black.rating)
        - advantage(system, handicap, komi)
    )
    return curve.probability(x)


def result_probability(white_wins: float, winner: Winner) -> float | None:
    """The probability of ``winner`` given P(White wins); None for a jigo
    (the systems predict who wins, not a draw: a jigo is never judged)."""
    if winner is Winner.WHITE:
        return white_wins
    if winner is Winner.BLACK:
        return 1.0 - white_wins
    return None


def _grades(system: str, first: Standing, second: Standing) -> tuple[float, float]:
    """The two players' whole grades (or strengths) the rule compares."""
    if system == "sagc":
        return first.rank, second.rank
    if system == "west-surrey":
        return first.rating, second.rating
    if system in ("egf", "egf-old"):
        return grade_rank(first.rating), grade_rank(second.rating)
    if system in ("ffg", "ffg-old"):
        return float(ffg_to_rank(first.rating)), float(ffg_to_rank(second.rating))
    raise ValueError(f"unknown rating system {system!r}")


def _units(system: str, first: Standing, second: Standing) -> int:
    """The handicap the rule gives, in its own whole units (stones or
    levels), positive when ``first`` is the stronger."""
    a, b = _grades(system, first, second)
    if system == "west-surrey":
        levels = ladder_handicap(a, b)
        return levels if a >= b else -levels
    difference = round(a - b)
    if system == "sagc":
        return difference
    return max(-MAX_STONES, min(MAX_STONES, difference))


def prescribed_handicap(system: str, first: Standing, second: Standing) -> Handicap:
    """The handicap ``system`` prescribes between ``first`` and ``second``.

    The stronger takes White (``first`` when they are level).  An even game
    gets :data:`EVEN_KOMI` (West Surrey: its own 6); one stone is Black
    playing first with :data:`HANDICAP_KOMI`; SAGC and West Surrey give
    what is beyond 9 stones as 10 komi a stone to Black.
    """
    units = _units(system, first, second)
    white: Literal["first", "second"] = "first" if units >= 0 else "second"
    units = abs(units)
    if system == "west-surrey":
        # the West Surrey ladder page leaves the mix of stones and komi to Black: we advise the
        # most stones, at most nine (the options come most stones first).
        option = next(o for o in handicap_options(units) if o.stones <= MAX_STONES)
        return Handicap(white, option.stones, float(-option.komi_to_black))
    if units == 0:
        return Handicap(white, 0, EVEN_KOMI)
    stones = min(units, MAX_STONES)
    # SAGC: 10 komi to Black per stone beyond nine keeps eff_handicap = units.
    return Handicap(white, stones, HANDICAP_KOMI - 10.0 * (units - stones))


def _game_units(system: str, handicap: int, komi: float) -> int:
    """A game's handicap in the rule's own whole units."""
    if system == "sagc":
        return effective_handicap(handicap, komi)
    if system == "west-surrey":
        return round(advantage(system, handicap, komi))
    return handicap_stones(handicap, komi)


def handicap_breach(system: str, white: Standing, black: Standing, handicap: int, komi: float) -> str | None:
    """Why ``handicap`` stones and ``komi`` break ``system``'s handicap rule
    for this pairing, or None when they follow it."""
    wanted = _units(system, white, black)
    played = _game_units(system, handicap, komi)
    if wanted < 0:
        return f"the weaker player took White; the rule gives them Black with {-wanted} {_unit(system)}"
    if played != wanted:
        return f"{played} {_unit(system)} given, the rule gives {wanted}"
    return None


def _unit(system: str) -> str:
    return "levels" if system == "west-surrey" else "stones"
