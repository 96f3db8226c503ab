"""Improbable results at entry: ask the volunteer to confirm.

Before a sheet is saved, each game is checked with the list's primary
system, from the players' standings known before it
(:func:`ratings.predictions.standing`):

* a result the system gave less than the list's ``improbable_below``
  (default 5 %; 0 turns it off): P(White wins) by
  :func:`ratings.evaluation.advice.win_probability`, with the EGF's Se or
  the curve fitted on the list's games;
* when the list's ``check_handicap`` is on, a handicap that breaks the
  system's handicap rule (:func:`ratings.evaluation.advice.handicap_breach`).

The sheet comes back with those games flagged and saves only once the
volunteer ticks "yes, save anyway"; the tick carries a digest of what was
flagged (:func:`digest`), so changing a flagged game asks again.  Saved
games keep the reason in ``Game.flagged``, listed for the committee.
A jigo is never judged: no system predicts draws.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from ratings import models as m
from ratings.engine import SYSTEM_LABELS
from ratings.engine.base import Winner
from ratings.evaluation.advice import handicap_breach, result_probability, win_probability
from ratings.predictions import curve, standing
from ratings.services import GameRow, NewPlayer, PlayerRef, default_komi

#: The POST field of the "yes, save anyway" tick; its value is :func:`digest`.
CONFIRM = "confirm_improbable"


@dataclass(frozen=True, slots=True)
class Flag:
    """Why game ``number`` (1-based among the rows entered) needs a confirmation."""

    number: int
    #: The probability the system gave the result entered (None: not improbable).
    probability: float | None
    #: Why the handicap breaks the rule (None: it follows it).
    breach: str | None
    summary: str

    @property
    def reason(self) -> str:
        """What is stored on the game (``Game.flagged``)."""
        parts = []
        if self.probability is not None:
            parts.append(f"result given {100 * self.probability:.1f} %")
        if self.breach is not None:
            parts.append(f"handicap: {self.breach}")
        return "; ".join(parts)


def _name(ref: PlayerRef) -> str:
    return ref.display_name


def _rank(ref: PlayerRef) -> float:
    return float(ref.rank) if isinstance(ref, NewPlayer) else float(ref.start_rank)


def check(
    rating_list: m.RatingList, sheet_date: date, rows: Sequence[GameRow], *, replacing: m.Game | None = None
) -> list[Flag]:
    """The games of ``rows`` to confirm, in row order (``replacing``: the
    saved game a correction replaces, left out of the players' standings)."""
    excluding = replacing.pk if replacing is not None else None
    threshold = rating_list.improbable_below
    if threshold <= 0.0 and not rating_list.check_handicap:
        return []
    system = rating_list.primary_system
    fitted = curve(rating_list, system)
    flags: list[Flag] = []
    for number, row in enumerate(rows, start=1):
        if row.forfeit:
            continue  # not played: nothing to predict
        day = row.date or sheet_date
        white = standing(
            system,
            row.white if isinstance(row.white, m.Player) else None,
            _rank(row.white),
            day,
            excluding=excluding,
        )
        black = standing(
            system,
            row.black if isinstance(row.black, m.Player) else None,
            _rank(row.black),
            day,
            excluding=excluding,
        )
        komi = float(row.komi if row.komi is not None else default_komi(row.handicap))
        probability = breach = None
        if threshold > 0.0:
            p_white = win_probability(system, white, black, row.handicap, komi, fitted)
            p_result = result_probability(p_white, Winner(row.winner))
            if p_result is not None and p_result < threshold:
                probability = p_result
        if rating_list.check_handicap:
            breach = handicap_breach(system, white, black, row.handicap, komi)
        if probability is None and breach is None:
            continue
        flags.append(Flag(number, probability, breach, _summary(system, row, komi, probability, breach)))
    return flags


def _summary(system: str, row: GameRow, komi: float, probability: float | None, breach: str | None) -> str:
    label = SYSTEM_LABELS.get(system, system)
    white, black = _name(row.white), _name(row.black)
    said = []
    if probability is not None:
        winner = white if row.winner == "white" else black
        said.append(
            f"{label} gave {winner} ({row.winner.title()}) only a {100 * probability:.1f} % chance of winning. "
            "Is the winner the right way round? A swapped winner is the commonest mistake on a sheet."
        )
    if breach is not None:
        said.append(f"The handicap ({row.handicap} stones, komi {komi:g}) is off the {label} rule: {breach}.")
    return f"{white} (White) against {black} (Black): " + " ".join(said)


def digest(flags: Sequence[Flag]) -> str:
    """A short fingerprint of what was flagged: the tick confirms these."""
    text = json.dumps([[f.number, f.summary] for f in flags])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def mark(games: Sequence[int], flags: Sequence[Flag], *, clear: bool = False) -> None:
    """Store each flag's reason on its game: ``games`` are the ids of the
    games saved, in the order of the rows checked.  ``clear``: the games not
    flagged lose an earlier flag (a corrected game is judged as corrected)."""
    reasons = {games[flag.number - 1]: flag.reason[:300] for flag in flags}
    for pk in games:
        if pk in reasons or clear:
            m.Game.objects.filter(pk=pk).update(flagged=reasons.get(pk, ""))


@dataclass(frozen=True, slots=True)
class Shown:
    """A flag as the sheet shows it: the row's anchor and its game number on the page."""

    flag: Flag
    anchor: str
    position: int


def shown(flags: Sequence[Flag], filled: Sequence[Any], rows: Sequence[Any]) -> dict[str, Any]:
    """What the sheet's confirmation box needs (``filled``: the row forms
    entered, in the order of the flags' numbers; ``rows``: every row form
    of the page, which numbers the games as the error summary does)."""
    position = {form.prefix: n for n, form in enumerate(rows, start=1)}
    return _box(
        flags, [Shown(f, filled[f.number - 1].prefix, position[filled[f.number - 1].prefix]) for f in flags]
    )


def shown_alone(flags: Sequence[Flag], anchor: str) -> dict[str, Any]:
    """The confirmation box of a page of one game (a correction), whose
    fields are under the id ``anchor``."""
    return _box(flags, [Shown(f, anchor, 1) for f in flags])


def _box(flags: Sequence[Flag], shown_flags: list[Shown]) -> dict[str, Any]:
    return {"flags": shown_flags, "digest": digest(flags), "field": CONFIRM}


def settings_initial(rating_list: m.RatingList) -> dict[str, Any]:
    """The list settings form's fields of these checks (the threshold in %)."""
    percent = Decimal(str(round(100 * rating_list.improbable_below, 1)))
    return {"improbable_below": percent, "check_handicap": rating_list.check_handicap}


def set_checks(rating_list: m.RatingList, cleaned: dict[str, Any]) -> bool:
    """Save the list settings form's checks; True when something changed."""
    raw = cleaned.get("improbable_below")
    below = rating_list.improbable_below if raw is None else float(raw) / 100.0
    check_handicap = bool(cleaned["check_handicap"])
    if (below, check_handicap) == (rating_list.improbable_below, rating_list.check_handicap):
        return False
    rating_list.improbable_below, rating_list.check_handicap = below, check_handicap
    rating_list.save(update_fields=["improbable_below", "check_handicap"])
    return True
