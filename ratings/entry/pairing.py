"""Handicap and komi advice for a pairing of a list's players.

What the "what handicap do we play?" page and the sheet's pre-fill show:
for each of the list's systems (the primary first), who takes White, the
stones and the komi its handicap rule prescribes
(:func:`ratings.evaluation.advice.prescribed_handicap`), from the players'
standings today (or on the sheet's date), and the probability that White
wins that game (:func:`ratings.evaluation.advice.win_probability`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from ratings import models as m
from ratings.engine import SYSTEM_LABELS
from ratings.evaluation.advice import prescribed_handicap, win_probability
from ratings.predictions import curve, standing


@dataclass(frozen=True, slots=True)
class Advice:
    system: str
    label: str
    white: m.Player
    black: m.Player
    #: True when the rule gives White to the player named second.
    swapped: bool
    stones: int
    komi: float
    #: P(White wins) with that handicap, by the same system.
    white_wins: float

    @property
    def white_wins_text(self) -> str:
        return f"{100 * self.white_wins:.0f} %"

    @property
    def komi_text(self) -> str:
        if self.komi < 0:
            return f"{-self.komi:g} to Black"
        return f"{self.komi:g}"


def advise(
    rating_list: m.RatingList, first: m.Player, second: m.Player, on: date, systems: list[str] | None = None
) -> list[Advice]:
    """The advice of each of ``systems`` (default: the list's) for ``first`` against ``second``."""
    found = []
    for system in systems or rating_list.systems:
        a = standing(system, first, first.start_rank, on)
        b = standing(system, second, second.start_rank, on)
        rule = prescribed_handicap(system, a, b)
        swapped = rule.white == "second"
        white, black = (b, a) if swapped else (a, b)
        p = win_probability(system, white, black, rule.stones, rule.komi, curve(rating_list, system))
        found.append(
            Advice(
                system=system,
                label=SYSTEM_LABELS.get(system, system),
                white=second if swapped else first,
                black=first if swapped else second,
                swapped=swapped,
                stones=rule.stones,
                komi=rule.komi,
                white_wins=p,
            )
        )
    return found
