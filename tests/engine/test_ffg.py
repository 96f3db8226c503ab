"""The FFG ladder since 2022 (the FFG algorithm page): worked example, tables, properties."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.engine import get_system
from ratings.engine.base import (
    Adjustment,
    Event,
    Game,
    InvalidEvent,
    Kind,
    PlayerId,
    Start,
    UnknownPlayer,
    Winner,
)
from ratings.engine.ffg import FFG, epsilon, expected, k_factor, threshold
from ratings.engine.ffg_common import handicap_stones
from tests.engine.ffg_helpers import histories
from tests.support import examples

DAY = date(2023, 3, 4)
W, B, J = Winner.WHITE, Winner.BLACK, Winner.JIGO


def game(white: str, black: str, winner: Winner, **extra: Any) -> Game:
    extra.setdefault("event", "open")
    return Game(extra.pop("date", DAY), white, black, winner, **extra)


def established(**levels: float) -> dict[PlayerId, Start]:
    return {name: Start(rating=level) for name, level in levels.items()}


# --- the FFG algorithm page's worked example: 15k (-1450) against 14k (-1350) -------------


def test_ffg_worked_example_probability_of_the_15k_is_43_55_percent() -> None:
    # "le paramètre a vaut (1250 - (-1450))/7 soit environ 386"; "P = 43,55%"
    assert round((1250 - (-1450)) / 7) == 386
    assert round(100 * expected(-1450.0, -1350.0), 2) == 43.55
    assert round(100 * expected(-1350.0, -1450.0), 2) == 56.45


def test_ffg_worked_example_14k_wins_41_3_and_15k_loses_34_7() -> None:
    result = FFG().rate([game("14k", "15k", W)], starts=established(**{"14k": -1350, "15k": -1450}))
    assert round(result.ledger.change[0], 1) == 41.3
    assert round(result.ledger.change[1], 1) == -34.7


def test_ffg_worked_example_15k_wins_55_3_and_14k_loses_43_7() -> None:
    result = FFG().rate([game("14k", "15k", B)], starts=established(**{"14k": -1350, "15k": -1450}))
    assert round(result.ledger.change[0], 1) == -43.7
    assert round(result.ledger.change[1], 1) == 55.3


def test_ffg_worked_example_uses_each_players_own_k_not_the_weaker_players() -> None:
    # The text says K depends on the weaker player; the example uses 90 for the
    # 15k and 85 for the 14k.  With the weaker's K (90) the 14k would gain 43.7.
    result = FFG().rate([game("14k", "15k", W)], starts=established(**{"14k": -1350, "15k": -1450}))
    assert result.ledger.change[0] == pytest.approx(85 * (1 - 0.5645 + 0.05), abs=0.01)
    assert abs(result.ledger.change[0] - 90 * (1 - 0.5645 + 0.05)) > 2


def test_ffg_worked_example_published_levels_are_whole() -> None:
    result = FFG().rate([game("14k", "15k", W)], starts=established(**{"14k": -1350, "15k": -1450}))
    assert result.state["14k"].level == -1350 + 41 == result.ledger.rating_after[0]
    assert result.state["15k"].level == -1450 - 35 == result.ledger.rating_after[1]
    assert result.state["14k"].rank == -14 and result.state["15k"].rank == -15


# --- the tables -------------------------------------------------------------

K_TABLE_AS_PRINTED = [  # the FFG algorithm page, "Valeur du paramètre K", as printed
    (650, 10), (550, 11), (450, 13), (350, 15), (250, 18), (150, 21), (50, 24), (-50, 27),
    (-150, 31), (-250, 35), (-350, 39), (-450, 43), (-550, 47), (-650, 51), (-750, 55),
    (-850, 60), (-950, 65), (-1050, 70), (-1150, 75), (-1250, 80), (-1350, 85), (-1450, 90),
    (-1550, 95), (-1650, 100), (-1750, 105), (-1850, 110), (-1950, 116),
]  # fmt: skip


@pytest.mark.parametrize(("level", "k"), K_TABLE_AS_PRINTED)
def test_k_table_of_the_ffg_page_on_its_rows(level: int, k: int) -> None:
    assert k_factor(level) == k


def test_k_table_ends_hold_beyond_650_and_below_minus_1950() -> None:
    # "supérieur ou égal à 650 | 10", "inférieur ou égal à -1950 | 116"
    assert k_factor(850) == k_factor(651) == 10
    assert k_factor(-2950) == k_factor(-1951) == 116


def test_k_between_two_rows_is_interpolated() -> None:
    assert k_factor(600) == pytest.approx(10.5)
    assert k_factor(-1400) == pytest.approx(87.5)
    assert k_factor(-1900) == pytest.approx(113)
    assert k_factor(-1375) == pytest.approx(86.25)


@pytest.mark.parametrize(
    ("level", "value"),
    [
        (850, 0.0), (400, 0.0),  # "supérieur ou égal à 400 | 0 %"
        (399.9, 0.01), (0, 0.01),  # "supérieur ou égal à 0 et inférieur à 400 | 1 %"
        (-0.1, 0.05), (-1000, 0.05),  # "... -1000 et inférieur à 0 | 5 %"
        (-1000.1, 0.10), (-2000, 0.10),  # "... -2000 et inférieur à -1000 | 10 %"
        (-2000.1, 0.15), (-2950, 0.15),  # "inférieur à -2000 | 15 %"
    ],
)  # fmt: skip
def test_epsilon_table_of_the_ffg_page(level: float, value: float) -> None:
    assert epsilon(level) == value


def test_epsilon_is_read_at_the_stronger_players_level() -> None:
    # 5d (450) against 6k (-550): ε = 0 from the 5d although the 6k's own
    # band would give 5 %.
    result = FFG().rate([game("a", "b", B)], starts=established(a=450, b=-550))
    p_black = expected(-550.0, 450.0)
    assert result.ledger.change[1] == pytest.approx(k_factor(-550) * (1 - p_black))
    assert result.ledger.change[0] == pytest.approx(k_factor(450) * (0 - (1 - p_black)))


@pytest.mark.parametrize(
    ("level", "known", "value"),
    [
        (700, True, 20), (700, False, 10),  # "supérieur à 675 | 20 | 10"
        (675, True, 20), (675, False, 10),  # (6200 - 4*675)/175 = 20, /350 = 10
        (0, True, 6200 / 175), (0, False, 6200 / 350),
        (-1000, True, 10200 / 175), (-1000, False, 10200 / 350),
        (-1950, True, 80), (-1950, False, 40),  # "inférieur ou égal à -1950 | 80 | 40"
        (-2950, True, 80), (-2950, False, 40),
    ],
)  # fmt: skip
def test_adjustment_thresholds_of_the_ffg_page(level: float, known: bool, value: float) -> None:
    assert threshold(level, known) == pytest.approx(value)


# --- handicap, coefficients, players below -2000 --------------------------


@pytest.mark.parametrize(
    ("handicap", "komi", "stones"),
    [(0, 6.5, 0), (0, 7.5, 0), (0, 0.5, 1), (0, 0, 1), (0, -5.5, 1), (1, 0.5, 1), (4, 0.5, 4)],
)
def test_stones_from_handicap_and_komi(handicap: int, komi: float, stones: int) -> None:
    assert handicap_stones(handicap, komi) == stones


def test_handicap_game_uses_blacks_fictitious_level_and_stage_2_coefficient() -> None:
    # Black 5k (-450) with 3 stones against White 2k (-150): fictitious level
    # -450 + 250 = -200; coefficient 1 - 3/10.
    result = FFG().rate([game("w", "b", B, handicap=3, komi=0.5)], starts=established(w=-150, b=-450))
    p_black = expected(-200.0, -150.0)
    half = epsilon(-150) / 2
    assert result.ledger.change[1] == pytest.approx(0.7 * k_factor(-450) * (1 - p_black + half))
    assert result.ledger.change[0] == pytest.approx(0.7 * k_factor(-150) * (0 - (1 - p_black) + half))


def test_small_boards_and_rapid_games_are_weighted_and_others_not_counted() -> None:
    starts = established(a=-500, b=-500)
    base = FFG().rate([game("a", "b", W)], starts=starts).ledger.change[0]
    cases: list[tuple[dict[str, Any], float]] = [
        ({"board": 13}, 0.2),
        ({"board": 9}, 0.1),
        ({"minutes": 45}, 0.5),
        ({"minutes": 60}, 1.0),
        ({"board": 7}, 0.0),
        ({"minutes": 29}, 0.0),
        ({"handicap": 10, "komi": 0.5}, 0.0),
    ]
    for extra, factor in cases:
        change = FFG().rate([game("a", "b", W, **extra)], starts=starts).ledger.change[0]
        if extra.get("handicap"):
            assert change == 0.0
        else:
            assert change == pytest.approx(factor * base), extra


def test_below_minus_2000_the_coefficient_is_1_whatever_board_and_time() -> None:
    starts = established(a=-2500, b=-2400)
    full = FFG().rate([game("a", "b", W)], starts=starts).ledger.change
    small = FFG().rate([game("a", "b", W, board=9, minutes=40)], starts=starts).ledger.change
    assert small[0] == pytest.approx(full[0]) and small[1] == pytest.approx(full[1])


def test_below_minus_2000_white_losing_a_19x19_handicap_game_keeps_the_coefficient() -> None:
    starts = established(w=-2100, b=-2500)
    lost = FFG().rate([game("w", "b", B, handicap=3, komi=0.5)], starts=starts).ledger.change
    bare = FFG(coefficients=False).rate([game("w", "b", B, handicap=3, komi=0.5)], starts=starts)
    assert lost[0] == pytest.approx(0.7 * bare.ledger.change[0])  # White: 1 - 3/10
    assert lost[1] == pytest.approx(bare.ledger.change[1])  # Black below -2000: 1
    won = FFG().rate([game("w", "b", W, handicap=3, komi=0.5)], starts=starts).ledger.change
    bare_won = FFG(coefficients=False).rate([game("w", "b", W, handicap=3, komi=0.5)], starts=starts)
    assert won[0] == pytest.approx(bare_won.ledger.change[0])  # White won: 1


def test_jigo_counts_half() -> None:
    result = FFG().rate([game("a", "b", J, komi=6)], starts=established(a=-500, b=-500))
    half = epsilon(-500) / 2
    assert result.ledger.change[0] == pytest.approx(k_factor(-500) * half)


# --- what counts -------------------------------------------------------------


def test_forfeits_and_free_games_change_nothing() -> None:
    starts = established(a=-500, b=-800)
    for g in [game("a", "b", B, forfeit=True), game("a", "b", B, kind=Kind.FREE)]:
        result = FFG().rate([g], starts=starts)
        assert list(result.ledger.change) == [0.0, 0.0]
        assert result.state["a"].level == -500 and result.state["b"].level == -800
        assert not result.state["a"].known or starts["a"].rating is not None


def test_club_and_internet_games_count_and_the_kinds_are_a_setting() -> None:
    starts = established(a=-500, b=-500)
    for kind in (Kind.CLUB, Kind.INTERNET, Kind.TOURNAMENT):
        assert FFG().rate([game("a", "b", W, kind=kind)], starts=starts).ledger.change[0] > 0
    only = FFG(counted_kinds={Kind.TOURNAMENT})
    assert only.rate([game("a", "b", W, kind=Kind.CLUB)], starts=starts).ledger.change[0] == 0


# --- entry, known players and the adjustment -------------------------------


def test_new_players_enter_at_their_grade_1d_50_1k_minus_50() -> None:
    result = FFG().rate([game("a", "b", W, kind=Kind.FREE)], starts={"a": Start(rank=0), "b": Start(rank=-1)})
    assert result.state["a"].level == 50 and result.state["b"].level == -50
    assert not result.state["a"].known and not result.state["b"].known


def test_a_counted_game_makes_a_player_known() -> None:
    result = FFG().rate([game("a", "b", W)], starts={"a": Start(rank=-10), "b": Start(rank=-10)})
    assert result.state["a"].known and result.state["b"].known


def test_unknown_winner_past_threshold_has_start_corrected_until_variation_is_threshold() -> None:
    # Two new 10k (-950): the winner's raw gain K (1 - 0.5 + 0.025) = 42.25 is
    # past the unknown threshold (6200 + 3800) / 350 = 28.6: start levels move
    # until each variation is back at its threshold.
    starts: dict[PlayerId, Start] = {"a": Start(rank=-10), "b": Start(rank=-10)}
    raw = FFG(adjust=False).rate([game("a", "b", W)], starts=starts)
    assert raw.ledger.change[0] == pytest.approx(65 * 0.525)
    result = FFG().rate([game("a", "b", W)], starts=starts)
    ledger = result.ledger
    t = threshold(-950, False)
    assert ledger.rating_before[0] > -950 + 10  # the winner's start is raised
    assert ledger.rating_before[1] < -950  # the loser's lowered (raw loss -30.9)
    assert ledger.change[0] == pytest.approx(t, abs=0.25)
    # The loser's start moves less: the winner's correction already made the
    # loss smaller.  Either way no variation ends past its threshold.
    assert -t - 0.25 <= ledger.change[1] < 0
    # The known threshold is twice as large: an established pair is not adjusted.
    known = FFG().rate([game("a", "b", W)], starts=established(a=-950, b=-950))
    assert known.ledger.rating_before[0] == -950 and known.ledger.change[0] == pytest.approx(65 * 0.525)


def test_a_tournament_is_rated_from_the_start_levels() -> None:
    starts = established(a=-500, b=-500, c=-500)
    games = [game("a", "b", W), game("a", "c", W)]
    result = FFG(adjust=False).rate(games, starts=starts)
    assert result.ledger.change[0] == pytest.approx(result.ledger.change[2])
    assert result.ledger.rating_before[2] == -500 + result.ledger.change[0]  # rows chain
    assert result.state["a"].level == round(-500 + 2 * result.ledger.change[0])


def test_levels_update_between_periods_not_within() -> None:
    starts = established(a=-500, b=-500)
    two_days = [
        game("a", "b", W, event=None, club="x"),
        game("a", "b", W, event=None, club="x", date=DAY + timedelta(1)),
    ]
    result = FFG().rate(two_days, starts=starts)
    assert result.ledger.change[2] < result.ledger.change[0]
    assert result.ledger.rating_before[2] == result.ledger.rating_after[0]


# --- adjustments and errors -------------------------------------------------


def test_committee_adjustment_sets_the_entry_level_of_the_rank() -> None:
    events: list[Event] = [game("a", "b", W), Adjustment(DAY, "a", rank=2.0)]
    result = FFG().rate(events, starts=established(a=-500, b=-500))
    row = result.ledger.row(1)
    assert row is not None and row.rating_after == 250 and row.rank_after == 2
    assert row.change == 250 - result.ledger.rating_after[0]
    assert result.state["a"].level == 250


def test_errors_name_the_event_and_field() -> None:
    starts = established(a=0, b=0)
    with pytest.raises(InvalidEvent) as same:
        FFG().rate([game("a", "a", W)], starts=starts)
    assert same.value.index == 0 and same.value.field == "black"
    with pytest.raises(InvalidEvent) as stones:
        FFG().rate([game("a", "b", W), game("a", "b", W, handicap=-1)], starts=starts)
    assert stones.value.index == 1 and stones.value.field == "handicap"
    with pytest.raises(UnknownPlayer) as unknown:
        FFG().rate([game("a", "z", W)], starts=starts)
    assert unknown.value.player == "z"


def test_state_round_trips_through_json_and_bad_json_is_refused() -> None:
    system = get_system("ffg")
    result = system.rate([game("a", "b", W)], starts=established(a=-500, b=-500))
    for player in result.state.values():
        assert system.state_from_json(player.to_json()) == player
    with pytest.raises(ValueError, match="level"):
        system.state_from_json({"known": True})
    with pytest.raises(ValueError, match="known"):
        system.state_from_json({"level": 3})


def test_start_levels_outside_the_bounds_enter_at_the_bounds() -> None:
    result = FFG().rate([game("a", "b", W, kind=Kind.FREE)], starts=established(a=1200, b=-3000))
    assert result.state["a"].level == 850 and result.state["b"].level == -2950


# --- properties ---------------------------------------------------------------


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories())
def test_levels_stay_within_minus_2950_and_850(history: tuple[list[Game], dict[PlayerId, Start]]) -> None:
    events, starts = history
    result = FFG().rate(events, starts=starts)
    for column in (result.ledger.rating_before, result.ledger.rating_after):
        assert all(-2950 <= x <= 850 for x in column)
    assert all(-2950 <= p.level <= 850 for p in result.state.values())


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories(forfeits=False), st.data())
def test_forfeit_games_change_nothing(
    history: tuple[list[Game], dict[PlayerId, Start]], data: st.DataObject
) -> None:
    events, starts = history
    # Forfeits added inside the periods (same event, club and day as a neighbour).
    with_forfeits: list[Game] = []
    for g in events:
        with_forfeits.append(g)
        if data.draw(st.booleans()):
            with_forfeits.append(Game(g.date, g.black, g.white, W, event=g.event, club=g.club, forfeit=True))
    plain = FFG().rate(events, starts=starts)
    mixed = FFG().rate(with_forfeits, starts=starts)
    assert plain.state == mixed.state
    for i, g in enumerate(with_forfeits):
        if g.forfeit:
            assert mixed.ledger.change[2 * i] == 0.0 and mixed.ledger.change[2 * i + 1] == 0.0


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories(), st.data())
def test_resuming_at_a_period_boundary_equals_full_replay(
    history: tuple[list[Game], dict[PlayerId, Start]], data: st.DataObject
) -> None:
    events, starts = history
    boundaries = [k for k in range(1, len(events)) if events[k].date != events[k - 1].date]
    k = data.draw(st.sampled_from(boundaries or [len(events)]))
    system = FFG()
    full = system.rate(events, starts=starts)
    head = system.rate(events[:k], starts=starts)
    stored = {p: system.state_from_json(s.to_json()) for p, s in head.state.items()}
    tail = system.rate(events[k:], state=stored, starts=starts)
    for column in ("rating_before", "change", "rating_after", "rank_after"):
        assert list(getattr(full.ledger, column))[2 * k :] == list(getattr(tail.ledger, column))
    assert full.state == tail.state


def test_adjusted_start_levels_are_independent_of_a_fantasy_entry_level() -> None:
    # the FFG algorithm page: "Cet algorithme itératif permet d'ignorer les niveaux
    # d'inscription fantaisistes": a newcomer entered 7k or 12k who loses all
    # five games to known 10k players ends far below either entry, about the
    # same place (not exactly: the threshold is read at the entry level).
    def final(entry: float) -> float:
        starts: dict[PlayerId, Start] = {
            "new": Start(rank=entry),
            **established(**{f"o{i}": -950 for i in range(5)}),
        }
        games = [game(f"o{i}", "new", W) for i in range(5)]
        level: float = FFG().rate(games, starts=starts).state["new"].level
        return level

    assert final(-7) < -650 - 800 and final(-12) < -1150 - 800
    assert abs(final(-7) - final(-12)) <= 150


def test_ffg_page_the_5k_beaten_by_an_ex_7k_now_4k_loses_practically_nothing() -> None:
    # the FFG algorithm page: "si un 5k se fait battre par un ex-7k qui a en fait progressé
    # jusqu'au niveau 4k depuis son dernier tournoi, alors le 5k ne perdra
    # pratiquement rien à l'échelle".  The ex-7k (-650, known) beats a 5k
    # (-450) and 4k players (-350): his gain passes his threshold, his start
    # is raised toward 4k, and the 5k's loss shrinks.
    starts = established(ex7k=-650, **{"5k": -450, "4k_a": -350, "4k_b": -350, "4k_c": -350})
    games = [game("ex7k", "5k", W)] + [game("ex7k", f"4k_{x}", W) for x in "abc"]
    bare = FFG(adjust=False).rate(games, starts=starts)
    adjusted = FFG().rate(games, starts=starts)
    assert adjusted.ledger.rating_before[0] > -650 + 100  # ex-7k corrected up by over a grade
    assert bare.ledger.change[1] < -25  # without the adjustment the 5k loses a lot
    assert bare.ledger.change[1] / 2 < adjusted.ledger.change[1] < 0  # with it, less than half (-11)
