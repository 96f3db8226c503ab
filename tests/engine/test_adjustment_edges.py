"""Committee adjustments on the French ladders at their edges, and what an
explanation gives out as JSON (written for the survivors of a mutation
run, docs/testing.md)."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

import pytest

from ratings.engine import get_system
from ratings.engine.base import Adjustment, Event, Explanation, Game, PlayerId, Start, Winner
from ratings.engine.explanations import EGF_FORMULA, OLD_EGF_FORMULA
from ratings.engine.ffg import threshold
from ratings.engine.ffg_common import CEILING
from ratings.engine.west_surrey import MAX_HANDICAP, handicap_options

DAY = date(2024, 5, 4)
STARTS: dict[PlayerId, Start] = {"a": Start(rating=100.0), "b": Start(rating=-550.0)}


@pytest.mark.parametrize("system", ["ffg", "ffg-old"])
def test_an_adjustment_row_gives_the_grades_of_its_levels(system: str) -> None:
    # A level's grade is its hundreds, rounded down (100 is 1d's entry, 150 and 199 still 1d).
    events: list[Event] = [
        Adjustment(DAY, "a", rank=0, rating=150.0),
        Adjustment(DAY, "a", rank=0, rating=200.0),
    ]
    result = get_system(system).rate(events, starts=STARTS)
    assert result.ledger.row(0) == (1.0, 100.0, 50.0, 1.0, 150.0)
    assert result.ledger.row(1) == (1.0, 150.0, 50.0, 2.0, 200.0)


@pytest.mark.parametrize("rank", [-40, 9])
def test_the_ffg_ladders_accept_an_adjustment_at_the_ends_of_the_shared_scale(rank: int) -> None:
    result = get_system("ffg").rate([Adjustment(DAY, "a", rank=rank)], starts=STARTS)
    assert result.ledger.rating_before[0] == 100.0


def test_an_adjusted_level_above_the_ceiling_is_the_ceiling() -> None:
    result = get_system("ffg").rate([Adjustment(DAY, "a", rank=0, rating=CEILING + 500)], starts=STARTS)
    assert result.ledger.rating_after[0] == CEILING


@pytest.mark.parametrize(("rating", "known"), [(-950.0, True), (None, False)])
def test_a_player_first_seen_in_an_adjustment_is_known_only_with_a_rating(
    rating: float | None, known: bool
) -> None:
    # A rating is an established level (as for a Start); a rank alone is a newcomer's
    # entry: the variation threshold of their next game says which (tests/engine/test_ffg.py).
    events: list[Event] = [
        Adjustment(DAY, "z", rank=-10, rating=rating),
        Game(DAY, "z", "b", Winner.WHITE, event="T"),
    ]
    result = get_system("ffg").rate(events, starts=STARTS, explain=True)
    assert result.explanations is not None
    row = result.explanations[2]
    assert row is not None
    assert row.terms["entry_level"] == -950.0
    assert row.terms["threshold"] == threshold(-950.0, known)


def test_an_explanation_gives_out_its_fractions_lists_and_tables_as_plain_json() -> None:
    explanation = Explanation({"m": {1: Fraction(1, 2)}, "l": (Fraction(1, 4), 2), "x": 3}, "f")
    assert explanation.to_json() == {"terms": {"m": {"1": 0.5}, "l": [0.25, 2], "x": 3}, "formula": "f"}


@pytest.mark.parametrize(("system", "formula"), [("egf", EGF_FORMULA), ("egf-old", OLD_EGF_FORMULA)])
def test_each_egf_system_gives_its_own_formula(system: str, formula: str) -> None:
    result = get_system(system).rate(
        [Game(DAY, "a", "b", Winner.WHITE, event="T")], starts=STARTS, explain=True
    )
    assert result.explanations is not None
    white = result.explanations[0]
    assert white is not None and white.formula == formula


def test_west_surrey_handicap_options_up_to_the_whole_ladder_and_only_whole_numbers() -> None:
    assert len(handicap_options(MAX_HANDICAP)) == MAX_HANDICAP + 1
    with pytest.raises(ValueError, match="handicap"):
        handicap_options(3.0)  # type: ignore[arg-type]
