"""Advice on a pairing (ratings/evaluation/advice.py): the probability of a
result, the handicap each system prescribes, and a handicap that breaks it."""

from __future__ import annotations

import math

import pytest

from ratings.engine.base import Winner
from ratings.engine.egf_common import EGFState
from ratings.engine.ffg_common import LadderPlayer
from ratings.engine.sagc import SAGCState
from ratings.engine.west_surrey import WestSurreyState
from ratings.evaluation.advice import (
    Handicap,
    handicap_breach,
    prescribed_handicap,
    result_probability,
    win_probability,
)
from ratings.evaluation.fit import LogisticCurve

FRED = WestSurreyState(0.3)  # the West Surrey ladder page: "Fred 1.3dan"
BERT = WestSurreyState(-14.5)  # "Bert 14.5kyu"


def test_west_surrey_fred_gives_bert_fourteen_levels_at_most_nine_as_stones() -> None:
    # the West Surrey ladder page: 0.3 - (-14.5) = 14.8 -> 14 levels; we advise 9 stones and the
    # other 5 levels as 50 komi to Black.
    assert prescribed_handicap("west-surrey", FRED, BERT) == Handicap("first", 9, -50.0)
    assert prescribed_handicap("west-surrey", BERT, FRED) == Handicap("second", 9, -50.0)
    assert handicap_breach("west-surrey", FRED, BERT, 9, -50.0) is None
    assert handicap_breach("west-surrey", FRED, BERT, 14, 0.0) is None  # the all-stones option
    assert handicap_breach("west-surrey", FRED, BERT, 9, 0.5) == "9 levels given, the rule gives 14"


def test_west_surrey_even_game_is_six_komi() -> None:
    # the West Surrey ladder page: "For a handicap of 0, white receives 6 komi and black starts."
    same = WestSurreyState(-3.0)
    assert prescribed_handicap("west-surrey", same, WestSurreyState(-3.8)) == Handicap("first", 0, 6.0)


def test_sagc_one_stone_per_rank_of_difference() -> None:
    # the SAGC FAQ: a 16k playing a 14k; the correct handicap is 2 stones to the 16k.
    k16, k14 = SAGCState(-16, 300), SAGCState(-14, -200)
    assert prescribed_handicap("sagc", k16, k14) == Handicap("second", 2, 0.5)
    # "Suppose the weaker player takes two handicap stones too few, e.g. a 14k
    # plays a 16k, but they decide to play a scratch game."
    assert handicap_breach("sagc", k14, k16, 0, 6.5) == "0 stones given, the rule gives 2"
    assert handicap_breach("sagc", k14, k16, 2, 0.5) is None
    # 20 komi to Black instead of the stones: eff_handicap int(0 - (-20 - 6)/10) = 2.
    assert handicap_breach("sagc", k14, k16, 0, -20.0) is None
    assert (
        handicap_breach("sagc", k16, k14, 0, 6.5)
        == "the weaker player took White; the rule gives them Black with 2 stones"
    )


def test_sagc_beyond_nine_stones_gives_komi() -> None:
    # 25k against 13k: 12 ranks; 9 stones and 30 komi to Black: int(9 - (0.5 - 30 - 6)/10) = int(12.55) = 12.
    advice = prescribed_handicap("sagc", SAGCState(-13, 0), SAGCState(-25, 0))
    assert advice == Handicap("first", 9, 0.5 - 30.0)
    assert handicap_breach("sagc", SAGCState(-13, 0), SAGCState(-25, 0), advice.stones, advice.komi) is None


def test_egf_and_ffg_grade_difference_at_most_nine() -> None:
    # GoR 2100 (1d) and 1640 (2050..2149 is 1d: 1550..1649 is 5k): 5 stones.
    assert prescribed_handicap("egf", EGFState(2100), EGFState(1640)) == Handicap("first", 5, 0.5)
    assert prescribed_handicap("egf", EGFState(2120), EGFState(2060)) == Handicap("first", 0, 6.5)
    # One grade: one stone, Black plays first (H = 1); no stones and 0.5 komi is the same game.
    assert handicap_breach("egf", EGFState(2100), EGFState(2000), 0, 0.5) is None
    assert prescribed_handicap("ffg", LadderPlayer(150.0, True), LadderPlayer(-1450.0, True)) == Handicap(
        "first", 9, 0.5
    )  # 2d against 15k: 16 grades, at most 9 stones


def test_the_egf_probability_is_its_se() -> None:
    # Se of 2200 against 2100: 1 / (1 + (11/12)^7) = 0.647731 (the Revised European Ratings page).
    assert win_probability("egf", EGFState(2200), EGFState(2100), 0, 6.5) == pytest.approx(0.647731, abs=1e-6)


def test_a_fitted_system_needs_its_curve() -> None:
    with pytest.raises(ValueError, match="curve"):
        win_probability("sagc", SAGCState(-14, 0), SAGCState(-16, 0), 2, 0.5)
    # On the correct handicap the strengths cancel: x = 0 -> logistic(intercept).
    curve = LogisticCurve(intercept=0.2, slope=0.7)
    p = win_probability("sagc", SAGCState(-14, 0), SAGCState(-16, 0), 2, 0.5, curve)
    assert p == pytest.approx(1 / (1 + math.exp(-0.2)), abs=1e-15)
    # Half a rank of index (500 points) more for White: x = 0.5.
    p = win_probability("sagc", SAGCState(-14, 500), SAGCState(-16, 0), 2, 0.5, curve)
    assert p == pytest.approx(1 / (1 + math.exp(-(0.2 + 0.35))), abs=1e-15)


def test_the_probability_of_the_result_entered() -> None:
    assert result_probability(0.97, Winner.BLACK) == pytest.approx(0.03)
    assert result_probability(0.97, Winner.WHITE) == 0.97
    assert result_probability(0.97, Winner.JIGO) is None


def test_players_of_one_grade_owe_no_handicap_and_an_even_game_follows_the_rule() -> None:
    # the same whole grade: the rule wants 0 stones, so an even game breaks nothing
    # and a handicap game is named as too many stones, not as the weaker taking White.
    assert handicap_breach("egf", EGFState(2120), EGFState(2060), 0, 6.5) is None
    assert (
        handicap_breach("egf", EGFState(2120), EGFState(2060), 2, 0.5) == "2 stones given, the rule gives 0"
    )


def test_the_old_egf_prescribes_handicaps_by_the_same_grades_as_the_egf() -> None:
    assert prescribed_handicap("egf-old", EGFState(2100), EGFState(1640)) == Handicap("first", 5, 0.5)


def test_a_system_without_se_is_refused_naming_it() -> None:
    from ratings.evaluation.readings import se_probability

    with pytest.raises(ValueError, match=r"^'ffg' defines no Se; use a fitted curve$"):
        se_probability("ffg", 2100.0, 2000.0, 0)
