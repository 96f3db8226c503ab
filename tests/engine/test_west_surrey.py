"""The West Surrey club ladder against the West Surrey ladder page."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engine import get_system
from ratings.engine.base import Adjustment, Game, InvalidEvent, Kind, PlayerId, Start, UnknownPlayer, Winner
from ratings.engine.ranks import format_rank, parse_rank
from ratings.engine.west_surrey import (
    RUNGS,
    WestSurrey,
    WestSurreyState,
    bga_grade,
    handicap_options,
    ladder_handicap,
    rung_at_or_below,
)

DAY = date(2024, 5, 7)

# the West Surrey ladder page, "The rungs", as printed (bold marks removed).  "9.2", "8.2" ... "1.2"
# have lost their "k" in the West Surrey ladder page; they sit between 9.4k and 9k, so they are kyu.
RUNGS_AS_PRINTED = """
40k 39k 38k 37k 36k 35k 34k 33k 32k 31k 30k 29k 28k
27k 26k 25k 24k 23k 22k
21k 20k 19.5k 19k 18.5k 18k 17.5k 17k
16.5k 16k 15.5k 15k 14.5k 14k 13.5k 13k
12.5k 12k 11.5k 11k 10.5k 10k 9.8k 9.6k 9.4k 9.2
9k 8.8k 8.6k 8.4k 8.2 8k 7.8k 7.6k 7.4k 7.2 7k 6.8k
6.6k 6.4k 6.2 6k 5.8k 5.6k 5.4k 5.2 5k 4.8k 4.6k 4.4k 4.2
4k 3.8k 3.6k 3.4k 3.2 3k 2.8k 2.6k 2.4k 2.2 2k 1.8k
1.6k 1.4k 1.2 1k 0.8k 0.6k 0.4k 0.2k 1d 1.1d 1.2d 1.3d
1.4d 1.5d 1.6d 1.7d 1.8d 1.9d 2d 2.1d 2.2d 2.3d 2.4d 2.5d 2.6d
2.7d 2.8d 2.9d 3d 3.1d 3.2d 3.3d 3.4d 3.5d 3.6d 3.7d 3.8d 3.9d
4d 4.1d 4.2d 4.3d 4.4d 4.5d 4.6d 4.7d 4.8d 4.9d 5d 5.1d
5.2d 5.3d 5.4d 5.5d 5.6d 5.7d 5.8d 5.9d 6d 6.1d 6.2d 6.3d 6.4d
6.5d 6.6d 6.7d 6.8d 6.9d 7d 7.1d 7.2d 7.3d 7.4d 7.5d 7.6d 7.7d
7.8d 7.9d 8d 8.1d 8.2d 8.3d 8.4d 8.5d 8.6d 8.7d 8.8d 8.9d
9d 9.1d 9.2d 9.3d 9.4d 9.5d 9.6d 9.7d 9.8d 9.9d
"""


def strength(text: str) -> float:
    return parse_rank(text if text[-1] in "kd" else text + "k")


def game(white: str, black: str, winner: Winner, **extra: Any) -> Game:
    return Game(DAY, white, black, winner, **extra)


# --- the West Surrey ladder page, the rungs -------------------------------------------------------------


def test_rungs_are_exactly_the_published_list() -> None:
    assert [strength(token) for token in RUNGS_AS_PRINTED.split()] == list(RUNGS)


def test_the_jump_from_0_2k_to_1d() -> None:
    # "Note the jump from 0.2k to 1d. (0k and 0d to 0.9d do not exist.)"
    position = RUNGS.index(parse_rank("0.2k"))
    assert RUNGS[position + 1] == parse_rank("1d")


def test_a_new_player_starts_at_the_rung_at_or_below_their_rank() -> None:
    assert RUNGS[rung_at_or_below(parse_rank("14k"))] == -14
    assert RUNGS[rung_at_or_below(parse_rank("14.3k"))] == -14.5
    assert RUNGS[rung_at_or_below(parse_rank("1.25d"))] == 0.2
    assert RUNGS[rung_at_or_below(-0.1)] == -0.2
    assert RUNGS[rung_at_or_below(-45)] == -40
    assert RUNGS[rung_at_or_below(12)] == parse_rank("9.9d")


def test_a_player_declared_by_strength_alone_starts_at_its_rung() -> None:
    # A start may give the strength as a rating instead of a rank: the same scale.
    result = WestSurrey().rate(
        [Game(DAY, "s", "r", Winner.WHITE, kind=Kind.CLUB)],
        starts={"s": Start(rating=-5.0), "r": Start(rank=-5.0)},
    )
    row = result.ledger.row(0)
    assert row is not None and (row.rating_before, row.rating_after) == (-5.0, -4.8)


def test_a_loss_on_the_bottom_rung_stays_there() -> None:
    # A loss moves a player down a rung; there is none below 40k.
    result = WestSurrey().rate(
        [Game(DAY, "low", "x", Winner.BLACK, kind=Kind.CLUB)],
        starts={"low": Start(rank=RUNGS[0]), "x": Start(rank=RUNGS[0])},
    )
    loser, winner = result.ledger.row(0, 0), result.ledger.row(0, 1)
    assert loser is not None and (loser.rating_before, loser.change, loser.rating_after) == (
        -40.0,
        0.0,
        -40.0,
    )
    assert winner is not None and winner.rating_after == RUNGS[1]
    assert result.state["low"] == WestSurreyState(-40.0)


# --- the West Surrey ladder page, handicaps ---------------------------------------------------------------


def test_fred_and_bert_handicap_of_the_west_surrey_page() -> None:
    # "Fred=0.3, Bert=-14.5. Fred - Bert = 14.8. Ignoring fractions gives 14 handicap levels"
    assert ladder_handicap(0.3, -14.5) == 14
    assert ladder_handicap(-14.5, 0.3) == 14


def test_fred_and_bert_handicap_options_of_the_west_surrey_page() -> None:
    labels = [option.label for option in handicap_options(14)]
    assert labels == ["14 stones"] + [f"{13 - k} stones + {10 * (k + 1)} komi" for k in range(12)] + [
        "1 stone + 130 komi",
        "140 komi",
    ]
    options = handicap_options(14)
    # "Black places the 2 stones on the board then White plays." / "The 1 stone is
    # Black playing first." / "Zero stones, so White plays first."
    assert (options[-3].stones, options[-3].komi_to_black, options[-3].first) == (2, 120, "white")
    assert (options[-2].stones, options[-2].komi_to_black, options[-2].first) == (1, 130, "black")
    assert (options[-1].stones, options[-1].komi_to_black, options[-1].first) == (0, 140, "white")


def test_handicap_of_one_and_of_zero() -> None:
    # "For a handicap of 1, either black starts with no komi or white starts with 10 komi to black."
    assert [(o.stones, o.komi_to_black, o.first) for o in handicap_options(1)] == [
        (1, 0, "black"),
        (0, 10, "white"),
    ]
    # "For a handicap of 0, white receives 6 komi and black starts."
    assert [(o.stones, o.komi_to_black, o.first) for o in handicap_options(0)] == [(0, -6, "black")]


def test_handicap_ignores_fractions_without_float_noise() -> None:
    assert ladder_handicap(0.2, -0.8) == 1
    assert ladder_handicap(-9.6, -9.8) == 0
    assert ladder_handicap(-9.0, -10.0) == 1


def test_handicap_options_refuse_a_bad_number() -> None:
    with pytest.raises(ValueError, match="handicap"):
        handicap_options(-1)


# --- the West Surrey ladder page, the ladder ----------------------------------------------------------------


def test_when_bert_wins_he_is_14k_and_fred_1_2d() -> None:
    # "When Bert wins, he is promoted to 14k and Fred is demoted to 1.2d."
    starts: dict[PlayerId, Start] = {
        "Fred": Start(rank=parse_rank("1.3d")),
        "Bert": Start(rank=parse_rank("14.5k")),
    }
    result = WestSurrey().rate([game("Fred", "Bert", Winner.BLACK, handicap=14, komi=0)], starts=starts)
    assert format_rank(result.state["Bert"].rank) == "14k"
    assert format_rank(result.state["Fred"].rank) == "1.2d"
    assert result.ledger.row(0, 1) == (-14.5, -14.5, 0.5, -14, -14)
    assert result.ledger.row(0, 0) == (0.3, 0.3, -0.1, 0.2, 0.2)


def test_a_draw_leaves_the_rungs_unaltered() -> None:
    state: dict[PlayerId, WestSurreyState] = {"A": WestSurreyState(-3.2), "B": WestSurreyState(-5.0)}
    result = WestSurrey().rate([game("A", "B", Winner.JIGO)], state=state)
    assert result.state == state
    assert result.ledger.change[0] == result.ledger.change[1] == 0


def test_one_rung_regardless_of_grades_across_uneven_spacing() -> None:
    state: dict[PlayerId, WestSurreyState] = {"A": WestSurreyState(-20.0), "B": WestSurreyState(-0.2)}
    result = WestSurrey().rate([game("B", "A", Winner.BLACK), game("A", "B", Winner.BLACK)], state=state)
    assert result.ledger.row(0, 1) == (-20, -20, 0.5, -19.5, -19.5)
    assert result.ledger.row(0, 0) == (-0.2, -0.2, -0.2, -0.4, -0.4)
    assert result.ledger.row(1, 1) == (-0.4, -0.4, 0.2, -0.2, -0.2)
    assert result.ledger.row(1, 0) == (-19.5, -19.5, -0.5, -20, -20)
    assert result.state["A"].rank == -20
    assert result.state["B"].rank == -0.2


@pytest.mark.parametrize("kind", [Kind.FREE, Kind.INTERNET, Kind.TOURNAMENT])
def test_only_normal_club_games_move_the_ladder(kind: Kind) -> None:
    # "It has no relevance to lightning, teaching, external or tournament games."
    state: dict[PlayerId, WestSurreyState] = {"A": WestSurreyState(-3.0), "B": WestSurreyState(-5.0)}
    result = WestSurrey().rate([game("A", "B", Winner.WHITE, kind=kind)], state=state)
    assert result.state == state
    assert result.ledger.row(0, 0) == (-3, -3, 0, -3, -3)


def test_lightning_small_board_and_forfeit_games_leave_the_ladder_alone() -> None:
    state: dict[PlayerId, WestSurreyState] = {"A": WestSurreyState(-3.0), "B": WestSurreyState(-5.0)}
    events = [
        game("A", "B", Winner.WHITE, minutes=5),
        game("A", "B", Winner.WHITE, board=9),
        game("A", "B", Winner.WHITE, forfeit=True),
    ]
    assert WestSurrey().rate(events, state=state).state == state
    counted = WestSurrey().rate([game("A", "B", Winner.WHITE, minutes=30)], state=state)
    assert counted.state["A"].rank == -2.8


def test_the_ends_of_the_ladder_hold() -> None:
    state: dict[PlayerId, WestSurreyState] = {"A": WestSurreyState(8.9), "B": WestSurreyState(-40.0)}
    result = WestSurrey().rate([game("A", "B", Winner.WHITE)], state=state)
    assert result.state == state


def test_adjustment_after_a_tournament_sets_the_strength() -> None:
    # "After a player has taken part in a tournament, they should modify their strength"
    state: dict[PlayerId, WestSurreyState] = {"A": WestSurreyState(-3.0)}
    result = WestSurrey().rate([Adjustment(DAY, "A", -5), Adjustment(DAY, "A", -5, rating=-4.3)], state=state)
    assert result.ledger.row(0) == (-3, -3, -2, -5, -5)
    assert result.ledger.row(1) == (-5, -5, 0.6, -4.4, -4.4)
    assert result.state["A"] == WestSurreyState(-4.4)


def test_registry_builds_west_surrey() -> None:
    system = get_system("west-surrey")
    assert isinstance(system, WestSurrey)
    assert system.name == "west-surrey"


def test_unknown_player_is_refused() -> None:
    with pytest.raises(UnknownPlayer):
        WestSurrey().rate([game("A", "B", Winner.WHITE)], starts={"A": Start(rank=-3)})


@pytest.mark.parametrize(
    ("event", "field"),
    [
        (game("A", "A", Winner.WHITE), "black"),
        (game("A", "B", Winner.WHITE, handicap=-2), "handicap"),
        (game("A", "B", Winner.WHITE, komi=float("inf")), "komi"),
        (game("A", "B", "black"), "winner"),  # type: ignore[arg-type]  # a bad winner on purpose
        (game("A", "B", Winner.WHITE, board=11), "board"),
        (Adjustment(DAY, "A", float("nan")), "rank"),
    ],
)
def test_bad_events_are_refused_naming_the_field(event: Any, field: str) -> None:
    starts: dict[PlayerId, Start] = {"A": Start(rank=-3), "B": Start(rank=-3)}
    with pytest.raises(InvalidEvent) as caught:
        WestSurrey().rate([game("A", "B", Winner.WHITE), event], starts=starts)
    assert (caught.value.index, caught.value.field) == (1, field)


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (game("A", "A", Winner.WHITE), "event 1: black: player 'A' cannot play against themselves"),
        (game("A", "B", "black"), "event 1: winner: expected white, black or jigo, got 'black'"),  # type: ignore[arg-type]
        (
            game("A", "B", Winner.WHITE, kind="club"),
            "event 1: kind: expected free, internet, club or tournament, got 'club'",
        ),
        (game("A", "B", Winner.WHITE, handicap=-1), "event 1: handicap: expected 0..48 stones, got -1"),
        (game("A", "B", Winner.WHITE, handicap=49), "event 1: handicap: expected 0..48 stones, got 49"),
        (game("A", "B", Winner.WHITE, handicap=True), "event 1: handicap: expected 0..48 stones, got True"),
        (game("A", "B", Winner.WHITE, handicap=2.0), "event 1: handicap: expected 0..48 stones, got 2.0"),
        (game("A", "B", Winner.WHITE, komi=1e6), "event 1: komi: expected a number of points, got 1000000.0"),
        (
            game("A", "B", Winner.WHITE, komi=-1e6),
            "event 1: komi: expected a number of points, got -1000000.0",
        ),
        (game("A", "B", Winner.WHITE, board=11), "event 1: board: expected 9, 13 or 19, got 11"),
        # the highest handicap is no fault of a game refused for its komi
        (
            game("A", "B", Winner.WHITE, handicap=48, komi=float("nan")),
            "event 1: komi: expected a number of points, got nan",
        ),
    ],
)
def test_a_refused_game_says_what_was_expected_and_what_it_got(event: Any, message: str) -> None:
    # The message is what the user sees beside the row (the field alone is tested above).
    starts: dict[PlayerId, Start] = {"A": Start(rank=-3), "B": Start(rank=-3)}
    with pytest.raises(InvalidEvent) as caught:
        WestSurrey().rate([game("A", "B", Winner.WHITE), event], starts=starts)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    "extra",
    [
        {"handicap": 0},
        {"handicap": 48},
        {"komi": 999_999.5},
        {"komi": -999_999.5},
        {"board": 9},
        {"board": 13},
    ],
)
def test_the_edges_of_each_field_are_accepted(extra: dict[str, Any]) -> None:
    starts: dict[PlayerId, Start] = {"A": Start(rank=-3), "B": Start(rank=-3)}
    result = WestSurrey().rate([game("A", "B", Winner.WHITE, **extra)], starts=starts)
    assert len(result.ledger.change) == 2


def test_state_from_json_refuses_a_strength_off_the_ladder() -> None:
    with pytest.raises(ValueError, match="rung"):
        WestSurrey().state_from_json({"rank": -9.9})


# --- the West Surrey ladder page, grades from the BGA list ----------------------------------------------------


def test_bga_list_dan_example_of_the_west_surrey_page() -> None:
    # "if I were a 2 dan with BGA ratings of 2.0d, 2.2d, 1.9d, 1.7d, 1.4d ... I would
    # enter the next tournament at 2dan. When I descended to 1.3d I would then enter
    # the next one at 1dan. And after 1.2d, 1.4d, 1.6d would enter all at 1dan until
    # I reached 1.7d when I would revert to 2dan."
    grade = int(parse_rank("2d"))
    seen = []
    for rating in ("2.0d", "2.2d", "1.9d", "1.7d", "1.4d", "1.3d", "1.2d", "1.4d", "1.6d", "1.7d"):
        grade = bga_grade(grade, parse_rank(rating))
        seen.append(format_rank(grade))
    assert seen == ["2d"] * 5 + ["1d"] * 4 + ["2d"]


def test_bga_list_kyu_example_of_the_west_surrey_page() -> None:
    # "if I were a 2 kyu with BGA ratings of 2.0k, 2.2k, 1.9k, 1.7k, 1.4k ... 2kyu. When I
    # improved to 1.3k ... 1kyu. And after 1.2k, 1.4k, 1.6k ... 1kyu until I fell back to 1.7k
    # when I would revert to 2kyu."
    grade = int(parse_rank("2k"))
    seen = []
    for rating in ("2.0k", "2.2k", "1.9k", "1.7k", "1.4k", "1.3k", "1.2k", "1.4k", "1.6k", "1.7k"):
        grade = bga_grade(grade, parse_rank(rating))
        seen.append(format_rank(grade))
    assert seen == ["2k"] * 5 + ["1k"] * 4 + ["2k"]


def test_bga_list_is_not_used_below_15k() -> None:
    # "Start using this when your BGA rating reaches 15kyu."
    assert bga_grade(-17, parse_rank("15.5k")) == -17
    assert bga_grade(-17, parse_rank("15k")) == -15


@pytest.mark.parametrize(
    ("current", "bga", "message"),
    [
        (2.0, 1.0, "current grade: expected a whole grade, got 2.0"),
        (True, 1.0, "current grade: expected a whole grade, got True"),
        ("2", 1.0, "current grade: expected a whole grade, got '2'"),
        (1, float("nan"), "BGA rating: expected a number, got nan"),
        (1, float("inf"), "BGA rating: expected a number, got inf"),
    ],
)
def test_bga_grade_refuses_a_grade_or_rating_it_cannot_read(current: Any, bga: float, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        bga_grade(current, bga)
    assert str(caught.value) == message


@settings(deadline=None)
@given(current=st.integers(-15, 8), tenths=st.integers(-150, 90))
def test_bga_grade_lands_within_the_hysteresis_band(current: int, tenths: int) -> None:
    rating = tenths / 10
    grade = bga_grade(current, rating)
    assert -0.7 < round(rating - grade, 6) < 0.7
    if abs(round(rating - current, 6)) < 0.7:
        assert grade == current


# --- properties --------------------------------------------------------------------------

PLAYERS = ("P", "Q", "R", "S")
states = st.fixed_dictionaries({p: st.sampled_from(RUNGS).map(WestSurreyState) for p in PLAYERS})


@st.composite
def ladder_games(draw: st.DrawFn) -> Game:
    white, black = draw(st.permutations(PLAYERS))[:2]
    return Game(
        DAY,
        white,
        black,
        draw(st.sampled_from(Winner)),
        draw(st.integers(0, 20)),
        draw(st.integers(-20, 20)) / 2,
        draw(st.sampled_from([Kind.CLUB, Kind.CLUB, Kind.FREE, Kind.TOURNAMENT])),
        minutes=draw(st.sampled_from([None, 5, 60])),
    )


events = st.lists(
    st.one_of(
        ladder_games(),
        ladder_games(),
        st.builds(Adjustment, st.just(DAY), st.sampled_from(PLAYERS), st.integers(-40, 8)),
    ),
    max_size=40,
)


@settings(deadline=None)
@given(state=states, history=events)
def test_players_stay_on_rungs_and_move_at_most_one(
    state: dict[PlayerId, WestSurreyState], history: list[Any]
) -> None:
    result = WestSurrey().rate(history, state=state)
    ledger = result.ledger
    for i, event in enumerate(history):
        for colour in (0, 1):
            row = ledger.row(i, colour)
            if row is None:
                continue
            assert row.rank_after in RUNGS
            if isinstance(event, Game):
                assert abs(RUNGS.index(row.rank_after) - RUNGS.index(row.rank_before)) <= 1


@settings(deadline=None)
@given(state=states, history=st.lists(ladder_games(), max_size=40))
def test_swapping_colours_mirrors_the_result(
    state: dict[PlayerId, WestSurreyState], history: list[Game]
) -> None:
    swap = {Winner.WHITE: Winner.BLACK, Winner.BLACK: Winner.WHITE, Winner.JIGO: Winner.JIGO}
    mirrored = [
        Game(g.date, g.black, g.white, swap[g.winner], g.handicap, -g.komi, g.kind, minutes=g.minutes)
        for g in history
    ]
    plain = WestSurrey().rate(history, state=state)
    swapped = WestSurrey().rate(mirrored, state=state)
    assert plain.state == swapped.state
    for i in range(len(history)):
        assert plain.ledger.row(i, 0) == swapped.ledger.row(i, 1)


@settings(deadline=None)
@given(state=states, history=events, cut=st.integers(0, 40))
def test_resuming_from_a_stored_state_equals_a_full_replay(
    state: dict[PlayerId, WestSurreyState], history: list[Any], cut: int
) -> None:
    system = WestSurrey()
    full = system.rate(history, state=state)
    head = system.rate(history[:cut], state=state)
    stored = {p: system.state_from_json(json.loads(json.dumps(s.to_json()))) for p, s in head.state.items()}
    tail = system.rate(history[cut:], state=stored)
    assert tail.state == full.state
    split = len(history[:cut])
    for i in range(len(history) - split):
        for colour in (0, 1):
            assert tail.ledger.row(i, colour) == full.ledger.row(split + i, colour)


def test_a_bga_rating_far_away_moves_the_grade_step_by_step() -> None:
    assert bga_grade(int(parse_rank("2d")), parse_rank("3.7d")) == int(parse_rank("4d"))
    assert bga_grade(int(parse_rank("2d")), parse_rank("3.6d")) == int(parse_rank("3d"))


def test_lightning_threshold_is_a_setting() -> None:
    state: dict[PlayerId, WestSurreyState] = {"A": WestSurreyState(-3.0), "B": WestSurreyState(-5.0)}
    result = WestSurrey(lightning_below=3).rate([game("A", "B", Winner.WHITE, minutes=5)], state=state)
    assert result.state["A"].rank == -2.8
