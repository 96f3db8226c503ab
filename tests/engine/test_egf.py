"""The current EGF GoR (the Revised European Ratings page, EGD since 2021): golden values and properties.

Golden values come from published sources only: the Revised European Ratings page's conversion
tables, the EGD's own GoR calculator and rated EGD tournament games (as
quoted in public implementations), and the official formulas worked by
hand where a source gives none.
"""

from __future__ import annotations

import math
import random
from datetime import date
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engine import get_system
from ratings.engine.base import (
    Adjustment,
    Event,
    Game,
    InvalidEvent,
    Kind,
    PlayerId,
    Result,
    Row,
    Start,
    UnknownPlayer,
    Winner,
    period_key,
)
from ratings.engine.egf import EGF, EGFState
from ratings.engine.egf_rules import (
    beta,
    elo_to_gor,
    gor_to_elo,
    grade_rank,
    handicap_points,
    revised_bonus,
    revised_con,
    revised_expected,
)
from ratings.engine.ranks import MAX_RANK, MIN_RANK, gor_to_rank
from tests.engine.egf_helpers import histories, rating_starts, read_h9
from tests.support import DATA, examples

DAY = date(2024, 3, 2)


def game(white: str, black: str, winner: Winner = Winner.WHITE, **kw: Any) -> Game:
    kw.setdefault("kind", Kind.TOURNAMENT)
    kw.setdefault("event", "Open")
    return Game(kw.pop("date", DAY), white, black, winner, **kw)


def row_of(result: Result, i: int, colour: int = 0) -> Row:
    """The ledger row of event ``i``'s player of ``colour`` (which must exist)."""
    row = result.ledger.row(i, colour)
    assert row is not None, (i, colour)
    return row


def rated(starts: dict[str, float], events: list[Event], system: EGF | None = None) -> Result:
    system = system or EGF()
    return system.rate(events, starts={p: Start(rating=r) for p, r in starts.items()})


# --- the Revised European Ratings page: the formulas and the GoR/Elo tables -------------------------------------------

GOR_TO_ELO_AS_PUBLISHED = [
    (2700, 2721), (2730, 2784), (2760, 2849), (2790, 2919), (2820, 2993), (2850, 3071), (2880, 3155),
    (2910, 3245), (2940, 3342), (2970, 3448), (3000, 3564), (3030, 3692), (3060, 3835),
]  # fmt: skip


@pytest.mark.parametrize(("gor", "elo"), GOR_TO_ELO_AS_PUBLISHED)
def test_revised_european_ratings_goratings_org_table_converts_gor_to_elo(gor: int, elo: int) -> None:
    assert round(gor_to_elo(gor)) == elo


@pytest.mark.parametrize(
    ("who", "elo", "gor"),
    [("Fan Hui", 2872, 2770), ("AlphaGo Fan", 3146, 2877), ("AlphaGo Lee", 3738, 3040),
     ("AlphaGo Master", 4852, 3196), ("AlphaGo Zero", 5187, 3221)],
)  # fmt: skip
def test_revised_european_ratings_deepmind_table_converts_elo_to_gor(who: str, elo: int, gor: int) -> None:
    assert round(elo_to_gor(elo)) == gor, who


def test_revised_expected_caps_a_gor_beyond_3299_on_either_side() -> None:
    # (A test of its own: mutmut maps a test to the functions it reached when first run.)
    assert revised_expected(3500, 2000) == revised_expected(3299, 2000) == 1 / (1 + (1 / 1300) ** 7)
    assert revised_expected(2000, 3500) == revised_expected(2000, 3299) == 1 / (1 + 1300.0**7)


@pytest.mark.parametrize(
    ("gor", "grade"),
    [
        (2049.99, -1),
        (2050.0, 0),
        (2149.99, 0),
        (2150.0, 1),
        (2849.99, 7),
        (2850.0, 8),
        (2950.0, 8),
        (3299.0, 8),
    ],
)
def test_grade_rank_is_the_grade_whose_band_holds_the_gor_up_to_9d(gor: float, grade: int) -> None:
    # 2050..2149 is 1d (0 on the shared scale), one grade a hundred points, at most 9d (8).
    assert grade_rank(gor) == grade


@pytest.mark.parametrize("gor", [-900.0, 100.0, 1500.25, 2100.0, 2700.0, 3000.5, 3250.0])
def test_elo_to_gor_is_the_exact_inverse_of_gor_to_elo(gor: float) -> None:
    # The tables above round to whole points; the page gives the two formulas as inverses.
    assert elo_to_gor(gor_to_elo(gor)) == pytest.approx(gor, abs=1e-9)


def test_revised_european_ratings_beta_is_minus_seven_log_of_distance_to_perfect_play() -> None:
    assert beta(2300) == pytest.approx(-7 * math.log(1000))
    # Se = 1 / (1 + exp(beta(r2) - beta(r1))): equal ratings are even, and
    # "100 GoR difference should equal 1 grade": about 64% at 1d v 1k.
    assert revised_expected(2100, 2100) == 0.5
    assert revised_expected(2100, 2000) == pytest.approx(1 / (1 + (1200 / 1300) ** 7))


def test_revised_european_ratings_con_and_bonus_formulas() -> None:
    assert revised_con(2100) == pytest.approx(6**1.6)  # ((3300 - 2100) / 200) ^ 1.6
    assert revised_con(0) == pytest.approx(16.5**1.6)
    # r is capped at 3299: beyond it (3300 - r) / 200 would be 0 or negative, its power complex
    assert revised_con(3299) == revised_con(3300) == revised_con(3500) == pytest.approx((1 / 200) ** 1.6)
    assert revised_bonus(2300) == pytest.approx(math.log(2) / 5)
    assert revised_bonus(-900) == pytest.approx(math.log1p(math.exp(40)) / 5)
    assert revised_bonus(3000) < 1e-3


# --- the EGD's own numbers ----------------------------------------------------------------


def test_egd_gor_calculator_even_game_between_two_2100() -> None:
    # EGD gor_calculator.php as quoted by horaceho/ers test/ers.php:
    # 2100 beats 2100 -> 2109.306; 2100 loses to 2100 -> 2091.725.
    result = rated({"a": 2100, "b": 2100}, [game("a", "b", Winner.WHITE)])
    assert round(row_of(result, 0, 0).rating_after, 3) == 2109.306
    assert round(row_of(result, 0, 1).rating_after, 3) == 2091.725


def test_egd_tournament_T191116B_even_game() -> None:
    # A rated game of EGD tournament T191116B: White 1406.791 lost to Black
    # 1072.993; the EGD changes were -25.373 and +38.864.
    result = rated({"w": 1406.791, "b": 1072.993}, [game("w", "b", Winner.BLACK)])
    assert round(result.ledger.change[0], 3) == -25.373
    assert round(result.ledger.change[1], 3) == 38.864


def test_egd_tournament_T191116B_three_stone_handicap_game() -> None:
    # Same tournament: White 600 beat Black 39.888 who took 3 stones; the EGD
    # changes were +24.739 and -22.052.  Black counts 100 * (3 - 0.5) = 250
    # points stronger in Se, and only there (con and bonus use 39.888).
    result = rated({"w": 600.0, "b": 39.888}, [game("w", "b", Winner.WHITE, handicap=3)])
    assert round(result.ledger.change[0], 3) == 24.739
    assert round(result.ledger.change[1], 3) == -22.052


def test_handicap_counts_half_a_grade_less_than_the_stones() -> None:
    assert handicap_points(0) == 0.0  # even game, whatever the komi
    assert handicap_points(1) == 50.0  # no komi: Black moves first
    assert handicap_points(9) == 850.0


def test_a_game_without_komi_is_handicap_one() -> None:
    start = {"w": 1500.0, "b": 1450.0}
    h1 = rated(start, [game("w", "b", handicap=1, komi=0.5)]).ledger.change[0]
    even = rated(start, [game("w", "b", handicap=0, komi=0.5)]).ledger.change[0]
    se_h1 = revised_expected(1500, 1500)  # Black 1450 + 50 = 1500
    assert h1 == pytest.approx(revised_con(1500) * (1 - se_h1) + revised_bonus(1500))
    assert even < h1  # komi alone does not make it a handicap game


# --- tournament classes and which games count ---------------------------------------------


@pytest.mark.parametrize(("cls", "weight"), [("A", 1.0), ("B", 0.75), ("C", 0.5), ("D", 0.25), ("b", 0.75)])
def test_the_class_weight_scales_the_whole_change_bonus_included(cls: str, weight: float) -> None:
    start = {"w": 800.0, "b": 900.0}
    full = rated(start, [game("w", "b", event_class="A")]).ledger.change[0]
    part = rated(start, [game("w", "b", event_class=cls)]).ledger.change[0]
    assert part == pytest.approx(weight * full)


def test_kinds_default_to_classes_tournament_A_club_C_internet_D() -> None:
    start = {"w": 800.0, "b": 900.0}
    full = rated(start, [game("w", "b")]).ledger.change[0]
    club = rated(start, [game("w", "b", kind=Kind.CLUB, event=None, club="Kyu")]).ledger.change[0]
    web = rated(start, [game("w", "b", kind=Kind.INTERNET)]).ledger.change[0]
    assert club == pytest.approx(0.5 * full)
    assert web == pytest.approx(0.25 * full)


@pytest.mark.parametrize(
    "extra",
    [{"kind": Kind.FREE}, {"forfeit": True}, {"board": 13}, {"board": 9}, {"minutes": 20}],
)
def test_free_forfeit_small_board_and_fast_games_do_not_count(extra: dict[str, Any]) -> None:
    result = rated({"w": 800.0, "b": 900.0}, [game("w", "b", **extra)])
    for colour, rating in ((0, 800.0), (1, 900.0)):
        row = result.ledger.row(0, colour)
        assert row is not None
        assert (row.rating_before, row.change, row.rating_after) == (rating, 0.0, rating)
    assert result.state["w"].rating == 800.0


def test_a_25_minute_game_counts() -> None:
    assert rated({"w": 800.0, "b": 900.0}, [game("w", "b", minutes=25)]).ledger.change[0] > 0


# --- periods: no update between the games of one tournament -------------------------------


def test_all_games_of_a_tournament_use_the_ratings_at_its_start() -> None:
    start = {"a": 2000.0, "b": 2100.0, "c": 1900.0}
    events: list[Event] = [
        game("a", "b", Winner.WHITE),  # round 1
        game("c", "a", Winner.BLACK),  # round 2
        game("a", "b", Winner.BLACK),  # round 3
    ]
    result = rated(start, events)
    rows = [row_of(result, i, c) for i, c in ((0, 0), (1, 1), (2, 0))]
    expected = [
        revised_con(2000) * (1 - revised_expected(2000, 2100)) + revised_bonus(2000),
        revised_con(2000) * (1 - revised_expected(2000, 1900)) + revised_bonus(2000),
        revised_con(2000) * (0 - revised_expected(2000, 2100)) + revised_bonus(2000),
    ]
    assert [r.change for r in rows] == pytest.approx(expected)
    # The rows chain: each game starts where the previous one ended.
    assert rows[0].rating_before == 2000.0
    assert rows[1].rating_before == rows[0].rating_after
    assert rows[2].rating_before == rows[1].rating_after
    assert rows[2].rating_after == pytest.approx(2000 + sum(expected))


def test_the_next_tournament_starts_from_the_summed_result() -> None:
    start = {"a": 2000.0, "b": 2100.0}
    first = rated(start, [game("a", "b")])
    after = first.state["a"].rating
    both = rated(start, [game("a", "b"), game("a", "b", event="Cup")])
    expected = revised_con(after) * (1 - revised_expected(after, first.state["b"].rating))
    assert both.ledger.change[2] == pytest.approx(expected + revised_bonus(after))


def test_club_games_of_one_day_form_one_period_and_the_next_day_another() -> None:
    start = {"a": 1500.0, "b": 1500.0}
    club: dict[str, Any] = {"kind": Kind.CLUB, "event": None, "club": "Kyu"}
    same_day = rated(start, [game("a", "b", **club), game("a", "b", **club)]).ledger
    next_day = rated(start, [game("a", "b", **club), game("a", "b", date=date(2024, 3, 3), **club)]).ledger
    assert same_day.change[2] == same_day.change[0]  # same start ratings
    assert next_day.change[2] < next_day.change[0]  # a now rated higher, expected to win


def test_ledger_key_matches_period_key_of_base() -> None:
    # The loop forms its periods as base.period_key does (event, else club day).
    g1 = game("a", "b", event=None, kind=Kind.CLUB, club="K")
    g2 = game("a", "b", event=None, kind=Kind.CLUB, club="L")
    assert period_key(g1) != period_key(g2)
    ledger = rated({"a": 1500.0, "b": 1500.0}, [g1, g2]).ledger
    assert ledger.change[2] != ledger.change[0]


# --- new players, floor, ranks, adjustments, errors, state ---------------------------------


def test_new_players_start_at_their_grade() -> None:
    result = EGF().rate([game("a", "b")], starts={"a": Start(rank=0), "b": Start(rank=-1)})
    assert row_of(result, 0, 0).rating_before == 2100.0
    assert row_of(result, 0, 1).rating_before == 2000.0
    assert row_of(result, 0, 1).rank_before == -1


def test_no_gor_below_minus_900() -> None:
    events: list[Event] = [game("a", "b", Winner.BLACK, event=f"T{i}") for i in range(5)]
    result = rated({"a": -890.0, "b": -850.0}, events)
    assert min(result.ledger.rating_after[0::2]) == -900.0
    assert result.state["a"].rating == -900.0
    assert result.state["a"].rank == MIN_RANK


def test_rank_is_the_grade_the_gor_falls_in() -> None:
    for gor in (-900.0, 0.0, 2049.9, 2050.0, 2149.0, 2700.0, 2940.0):
        assert EGFState(gor).rank == gor_to_rank(gor)
    assert EGFState(3200.0).rank == MAX_RANK


def test_adjustment_sets_the_gor_or_the_grade_gor() -> None:
    events: list[Event] = [
        game("a", "b"),
        Adjustment(DAY, "a", rank=2.0),
        Adjustment(DAY, "b", rank=0.0, rating=2123.0),
    ]
    result = rated({"a": 2000.0, "b": 2100.0}, events)
    row = result.ledger.row(1)
    assert row is not None and row.rating_after == 2300.0 and row.rank_after == 2
    assert row.change == pytest.approx(2300.0 - result.ledger.rating_after[0])
    assert result.ledger.row(1, 1) is None
    assert result.state["b"].rating == 2123.0


def test_unknown_player_and_bad_events_are_refused() -> None:
    with pytest.raises(UnknownPlayer) as unknown:
        rated({"a": 2000.0}, [game("a", "a2")])
    assert unknown.value.index == 0
    cases: list[tuple[Game, str]] = [
        (game("a", "a"), "black"),
        (game("a", "b", handicap=10), "handicap"),
        (game("a", "b", handicap=-1), "handicap"),
        (game("a", "b", event_class="E"), "event_class"),
    ]
    for bad, field in cases:
        with pytest.raises(InvalidEvent) as error:
            rated({"a": 2000.0, "b": 1900.0}, [game("a", "b"), bad])
        assert (error.value.index, error.value.field) == (1, field)


def test_state_is_not_mutated_and_round_trips_through_json() -> None:
    system = EGF()
    state: dict[PlayerId, EGFState] = {"a": EGFState(2000.0), "b": EGFState(1900.0), "c": EGFState(100.0)}
    result = system.rate([game("a", "b")], state=state)
    assert state["a"].rating == 2000.0
    assert result.state["c"] is state["c"]
    again = {p: system.state_from_json(s.to_json()) for p, s in result.state.items()}
    assert again == dict(result.state)
    with pytest.raises(ValueError, match="rating"):
        system.state_from_json({"gor": 1})


def test_registry_builds_the_system() -> None:
    system = get_system("egf")
    assert isinstance(system, EGF) and system.name == "egf" and system.unit == "GoR"


# --- a tournament: tests/data/club-open-2024.h9 (EGD h9, class B; ours) ----------------------


@pytest.fixture
def club_open() -> tuple[str, dict[PlayerId, float], list[Game]]:
    return read_h9(DATA / "club-open-2024.h9")


def test_a_tournament_every_winner_gains_and_every_player_ends_at_start_plus_changes(
    club_open: tuple[str, dict[PlayerId, float], list[Game]],
) -> None:
    cls, grades, games = club_open
    assert cls == "B" and len(grades) == 7 and len(games) == 9  # 21 cells, 3 byes
    result = EGF().rate(games, starts={p: Start(rank=g) for p, g in grades.items()})
    totals: dict[PlayerId, float] = {}
    for i, g in enumerate(games):
        for colour, player in ((0, g.white), (1, g.black)):
            row = result.ledger.row(i, colour)
            assert row is not None
            totals[player] = totals.get(player, 0.0) + row.change
            won = (g.winner is Winner.WHITE) == (colour == 0)
            if won:
                assert row.change > 0
            elif 2100 + 100 * grades[player] >= 2000:  # stronger players' bonus is small
                assert row.change < 0
    for player, total in totals.items():
        start = 2100 + 100 * grades[player]
        assert result.state[player].rating == pytest.approx(start + total)
    # Naidoo (2d) won all three games: up, and still 2d.
    assert totals["1"] > 0
    assert result.state["1"].rank == 1


def test_a_tournament_s_ratings_are_not_updated_between_rounds(
    club_open: tuple[str, dict[PlayerId, float], list[Game]],
) -> None:
    cls, grades, games = club_open
    weight = {"A": 1.0, "B": 0.75}[cls]  # the EGF's class rule: a class B tournament counts three quarters
    result = EGF().rate(games, starts={p: Start(rank=g) for p, g in grades.items()})
    start = {p: 2100 + 100 * g for p, g in grades.items()}
    for i, g in enumerate(games):
        eb = start[g.black] + handicap_points(g.handicap)
        sa = {Winner.WHITE: 1.0, Winner.BLACK: 0.0, Winner.JIGO: 0.5}[g.winner]
        expected = revised_con(start[g.white]) * (sa - revised_expected(start[g.white], eb))
        assert result.ledger.change[2 * i] == pytest.approx(
            weight * (expected + revised_bonus(start[g.white]))
        )


# --- properties -----------------------------------------------------------------------------


@settings(max_examples=examples(150), deadline=None)
@given(histories())
def test_property_no_rating_below_the_floor_and_wins_never_cost(
    history: tuple[dict[str, float], list[list[Game]]],
) -> None:
    starts, periods = history
    events = [g for p in periods for g in p]
    result = EGF().rate(events, starts=rating_starts(starts))
    assert min(result.ledger.rating_after) >= -900.0
    assert all(MIN_RANK <= s.rank <= MAX_RANK for s in result.state.values())
    for i, g in enumerate(events):
        if g.winner is not Winner.JIGO:
            assert result.ledger.change[2 * i + (g.winner is Winner.BLACK)] >= 0.0


@settings(max_examples=examples(150), deadline=None)
@given(histories(), st.data())
def test_property_resuming_at_a_period_boundary_equals_full_replay(
    history: tuple[dict[str, float], list[list[Game]]], data: st.DataObject
) -> None:
    starts, periods = history
    cut = data.draw(st.integers(0, len(periods)))
    head = [g for p in periods[:cut] for g in p]
    tail = [g for p in periods[cut:] for g in p]
    system = EGF()
    full = system.rate(head + tail, starts=rating_starts(starts))
    first = system.rate(head, starts=rating_starts(starts))
    stored = {p: system.state_from_json(s.to_json()) for p, s in first.state.items()}
    rest = system.rate(tail, state=stored, starts=rating_starts(starts))
    n = 2 * len(head)
    for column in ("rank_before", "rating_before", "change", "rank_after", "rating_after"):
        assert list(getattr(full.ledger, column)[n:]) == list(getattr(rest.ledger, column))
    assert dict(full.state) == dict(rest.state)


@settings(max_examples=examples(150), deadline=None)
@given(histories(), st.randoms())
def test_property_order_of_games_within_a_period_does_not_matter(
    history: tuple[dict[str, float], list[list[Game]]], rnd: random.Random
) -> None:
    starts, periods = history
    shuffled = [rnd.sample(p, len(p)) for p in periods]
    one = EGF().rate([g for p in periods for g in p], starts=rating_starts(starts)).state
    two = EGF().rate([g for p in shuffled for g in p], starts=rating_starts(starts)).state
    assert {p: s.rating for p, s in one.items()} == pytest.approx({p: s.rating for p, s in two.items()})


@settings(max_examples=examples(100), deadline=None)
@given(st.floats(-900, 2900), st.floats(-900, 2900), st.sampled_from(list(Winner)))
def test_property_swapping_colours_of_an_even_game_mirrors_the_changes(
    rw: float, rb: float, winner: Winner
) -> None:
    flip = {Winner.WHITE: Winner.BLACK, Winner.BLACK: Winner.WHITE, Winner.JIGO: Winner.JIGO}
    one = rated({"w": rw, "b": rb}, [game("w", "b", winner)]).ledger
    two = rated({"w": rw, "b": rb}, [game("b", "w", flip[winner])]).ledger
    assert (one.change[0], one.change[1]) == pytest.approx((two.change[1], two.change[0]))


@pytest.mark.parametrize(("system", "floor"), [("egf", -900.0), ("egf-old", 100.0)])
def test_a_rows_rank_is_the_grade_of_its_gor_and_a_newcomer_starts_at_the_floor_at_least(
    system: str, floor: float
) -> None:
    # GoRs where a band of any width but 100 shows: 2750 is 8d, 2049.5 is 1k,
    # 2150 is 2d; a newcomer declared at -1000 enters at the system's floor.
    starts: dict[PlayerId, Start] = {
        "a": Start(rating=2750.0),
        "b": Start(rating=2049.5),
        "c": Start(rating=2150.0),
        "d": Start(rating=-1000.0),
    }
    games = [game("a", "b"), game("c", "d", Winner.BLACK)]
    ledger = get_system(system).rate(games, starts=starts).ledger
    assert ledger.rating_before[3] == floor
    for slot in range(4):
        for rank, gor in (
            (ledger.rank_before[slot], ledger.rating_before[slot]),
            (ledger.rank_after[slot], ledger.rating_after[slot]),
        ):
            assert rank == max(MIN_RANK, min(MAX_RANK, gor_to_rank(gor))), (system, slot, gor)
    assert (ledger.rank_before[0], ledger.rank_before[1], ledger.rank_before[2]) == (7.0, -1.0, 1.0)
