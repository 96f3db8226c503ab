"""The pre-2021 EGF GoR: the EGD's worked examples, its tables, and properties.

The EGD page of the old system (EGF_rating_system_old.php) works its
examples without epsilon; online-go/goratings reproduces them in
unit_tests/test_gor.py (test_example_3/4/5, epsilon 0), and Sensei's
Library "GoR" prints the table of a and of winning chances.
"""

from __future__ import annotations

import math
import random
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engine import get_system
from ratings.engine.base import Adjustment, Event, Game, InvalidEvent, Kind, PlayerId, Start, Winner
from ratings.engine.egf_old import OldEGF
from ratings.engine.egf_rules import old_a, old_con, old_expected
from ratings.engine.ranks import MAX_RANK, MIN_RANK
from tests.engine.egf_helpers import histories, rating_starts, read_h9
from tests.support import DATA, examples

DAY = date(2019, 6, 1)


def one_game(
    rw: float, rb: float, winner: Winner, handicap: int = 0, epsilon: float = 0.0
) -> tuple[float, float]:
    """White's and Black's new GoR after one class A game."""
    g = Game(DAY, "w", "b", winner, handicap=handicap, kind=Kind.TOURNAMENT, event="T")
    result = OldEGF(epsilon=epsilon).rate([g], starts={"w": Start(rating=rw), "b": Start(rating=rb)})
    return result.state["w"].rating, result.state["b"].rating


# --- the EGD's examples ---------------------------------------------------------------------


def test_egd_old_example_3_two_equal_4d() -> None:
    # 2400 beats 2400: con 15, Se 0.5 -> 2407.5 and 2392.5.
    white, black = one_game(2400, 2400, Winner.WHITE)
    assert (round(white, 1), round(black, 1)) == (2407.5, 2392.5)


def test_egd_old_example_4_weaker_kyu_wins() -> None:
    # 320 beats 400: a = 189 at the weaker rating, con 104 and 100 -> 383 and 340.
    white, black = one_game(320, 400, Winner.WHITE)
    assert (round(white), round(black)) == (383, 340)


def test_egd_old_example_5_five_stone_handicap() -> None:
    # 1850 takes 5 stones from 2400 and wins: 1850 counts 1850 + 450 = 2300,
    # also for a (90); con stays at 1850 (33) -> 1875; 2400 -> 2389.
    white, black = one_game(2400, 1850, Winner.BLACK, handicap=5)
    assert (round(white), round(black)) == (2389, 1875)


# --- the EGD tables ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("gor", "con", "a"),
    [(100, 116, 200), (200, 110, 195), (1000, 70, 155), (1300, 55, 140), (1400, 51, 135),
     (2000, 27, 105), (2100, 24, 100), (2400, 15, 85), (2600, 11, 75), (2700, 10, 70)],
)  # fmt: skip
def test_egd_old_con_and_a_table(gor: int, con: int, a: int) -> None:
    assert old_con(gor) == con
    assert old_a(gor) == a


def test_egd_old_tables_interpolate_per_100_and_hold_outside_100_to_2700() -> None:
    assert old_con(150) == 113.0
    assert old_con(1850) == 33.0
    assert old_con(-900) == 116.0 and old_a(-900) == 200.0
    assert old_con(2940) == 10.0 and old_a(2940) == 70.0
    # just outside the tables' ends too (a GoR is not a whole number)
    assert old_a(2700.5) == 70.0 and old_a(99.5) == 200.0


@pytest.mark.parametrize(
    ("gor", "stronger_by", "percent"),
    [(100, 25, 46.9), (100, 100, 37.8), (100, 500, 7.6), (200, 100, 37.5), (300, 500, 6.7)],
)
def test_senseis_gor_table_of_winning_chances(gor: int, stronger_by: int, percent: float) -> None:
    assert round(100 * old_expected(gor, gor + stronger_by), 1) == percent


@pytest.mark.parametrize(("opponent", "se"), [(1820, 0.457), (1840, 0.414), (1860, 0.372), (1880, 0.333)])
def test_goratings_table_1_chances_of_an_1800(opponent: int, se: float) -> None:
    assert round(old_expected(1800, opponent), 3) == se


def test_epsilon_lowers_both_expectations_by_half_of_it() -> None:
    white, black = one_game(2400, 2400, Winner.WHITE, epsilon=0.016)
    assert white == pytest.approx(2400 + 15 * (1 - 0.492))
    assert black == pytest.approx(2400 + 15 * (0 - 0.492))
    assert OldEGF().epsilon == 0.016


def test_expectation_may_be_negative_so_a_300_who_loses_to_a_1500_gains_0_65() -> None:
    # No source bounds Se at 0.  a(300) = 190, Se = 1/(e^(1200/190) + 1) - 0.008.
    se = 1 / (math.exp(1200 / 190) + 1) - 0.008
    assert old_expected(300, 1500, epsilon=0.016) == pytest.approx(se) and se < 0
    white, _ = one_game(300, 1500, Winner.BLACK, epsilon=0.016)
    assert white == pytest.approx(300 + 105 * (0 - se))
    assert round(white - 300, 2) == 0.65


def test_the_floor_is_20_kyu_so_a_150_who_loses_to_a_150_ends_at_100() -> None:
    # con(150) = 113, Se = 0.492: 150 - 55.6 = 94.4, raised to the floor of 100.
    white, black = one_game(150, 150, Winner.BLACK, epsilon=0.016)
    assert white == 100.0
    assert black == pytest.approx(150 + 113 * (1 - 0.492))
    assert OldEGF().floor == 100.0


def test_a_newcomer_below_20_kyu_enters_at_20_kyu() -> None:
    games: list[Event] = [Game(DAY, "a", "b", Winner.JIGO, kind=Kind.FREE)]
    result = OldEGF().rate(games, starts={"a": Start(rank=-25), "b": Start(rating=-500.0)})
    assert result.state["a"].rating == 100.0
    assert result.state["b"].rating == 100.0


# --- shared rules, as in the current system ------------------------------------------------


def test_class_weight_and_periods() -> None:
    starts: dict[PlayerId, Start] = {"a": Start(rating=1500.0), "b": Start(rating=1600.0)}
    games: list[Event] = [
        Game(DAY, "a", "b", Winner.WHITE, kind=Kind.TOURNAMENT, event="T", event_class="B"),
        Game(DAY, "a", "b", Winner.WHITE, kind=Kind.TOURNAMENT, event="T", event_class="B"),
        Adjustment(DAY, "b", rank=-3.0),
    ]
    result = OldEGF().rate(games, starts=starts)
    first = 0.75 * old_con(1500) * (1 - old_expected(1500, 1600, 0.016))
    assert result.ledger.change[0] == pytest.approx(first)
    assert result.ledger.change[2] == pytest.approx(first)  # same start ratings
    assert result.ledger.rating_before[2] == result.ledger.rating_after[0]
    assert result.state["b"].rating == 1800.0


def test_bad_handicap_is_refused_and_registry_builds_it() -> None:
    with pytest.raises(InvalidEvent) as error:
        OldEGF().rate(
            [Game(DAY, "a", "b", Winner.WHITE, handicap=12)], starts={"a": Start(rank=0), "b": Start(rank=0)}
        )
    assert error.value.field == "handicap"
    system = get_system("egf-old")
    assert isinstance(system, OldEGF) and system.name == "egf-old" and system.unit == "GoR"


def test_a_tournament_old_and_new_systems_agree_on_who_gained() -> None:
    _, grades, games = read_h9(DATA / "club-open-2024.h9")
    starts = {p: Start(rank=g) for p, g in grades.items()}
    old = OldEGF().rate(games, starts=starts).state
    new = get_system("egf").rate(games, starts=starts).state
    for player, grade in grades.items():
        start = 2100 + 100 * grade
        if start >= 2000:  # below, the new system's bonus can outweigh a loss
            assert (old[player].rating > start) == (new[player].rating > start), player
    # Naidoo (2d) won her three games and gains; Botha (1d) lost two of three
    # at even, to a stronger and a weaker player, and loses.
    assert old["1"].rating > 2200 and old["2"].rating < 2100  # starts: 2d = 2200, 1d = 2100


# --- properties ---------------------------------------------------------------------------


@settings(max_examples=examples(150), deadline=None)
@given(histories())
def test_property_floor_ranks_and_signs(history: tuple[dict[str, float], list[list[Game]]]) -> None:
    starts, periods = history
    events = [g for p in periods for g in p]
    result = OldEGF().rate(events, starts=rating_starts(starts))
    assert min(result.ledger.rating_after) >= 100.0
    assert all(MIN_RANK <= s.rank <= MAX_RANK for s in result.state.values())
    for i, g in enumerate(events):
        if g.winner is Winner.JIGO:
            continue
        winner_slot = 2 * i + (g.winner is Winner.BLACK)
        loser_slot = 2 * i + (g.winner is Winner.WHITE)
        assert result.ledger.change[winner_slot] >= 0.0
        # Se may go below 0 by at most epsilon/2 (no clamp): a loss gains at most con x 0.008.
        assert result.ledger.change[loser_slot] <= 116 * 0.008


@settings(max_examples=examples(150), deadline=None)
@given(histories(), st.data())
def test_property_resuming_at_a_period_boundary_equals_full_replay(
    history: tuple[dict[str, float], list[list[Game]]], data: st.DataObject
) -> None:
    starts, periods = history
    cut = data.draw(st.integers(0, len(periods)))
    head = [g for p in periods[:cut] for g in p]
    tail = [g for p in periods[cut:] for g in p]
    system = OldEGF()
    full = system.rate(head + tail, starts=rating_starts(starts))
    first = system.rate(head, starts=rating_starts(starts))
    stored = {p: system.state_from_json(s.to_json()) for p, s in first.state.items()}
    rest = system.rate(tail, state=stored, starts=rating_starts(starts))
    n = 2 * len(head)
    assert list(full.ledger.change[n:]) == list(rest.ledger.change)
    assert list(full.ledger.rating_after[n:]) == list(rest.ledger.rating_after)
    assert dict(full.state) == dict(rest.state)


@settings(max_examples=examples(100), deadline=None)
@given(histories(), st.randoms())
def test_property_order_of_games_within_a_period_does_not_matter(
    history: tuple[dict[str, float], list[list[Game]]], rnd: random.Random
) -> None:
    starts, periods = history
    shuffled = [rnd.sample(p, len(p)) for p in periods]
    one = OldEGF().rate([g for p in periods for g in p], starts=rating_starts(starts)).state
    two = OldEGF().rate([g for p in shuffled for g in p], starts=rating_starts(starts)).state
    assert {p: s.rating for p, s in one.items()} == pytest.approx({p: s.rating for p, s in two.items()})


@pytest.mark.parametrize(("minutes", "counts"), [(25, True), (24, False), (None, True)])
def test_the_old_system_counts_games_of_25_minutes_or_more(minutes: int | None, counts: bool) -> None:
    # The same rule as the current system's (test_egf.py): a game of less
    # than 25 minutes a player is not rated; one of unknown length is.
    g = Game(DAY, "w", "b", Winner.WHITE, minutes=minutes)
    result = OldEGF().rate([g], starts={"w": Start(rating=1500.0), "b": Start(rating=1600.0)})
    assert (result.ledger.change[0] > 0) is counts
