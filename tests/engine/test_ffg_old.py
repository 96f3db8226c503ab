"""The older FFG ladder (the French Ladder page): stages 1-6, special cases, properties.

The French Ladder page has no worked example; the expected figures below are worked by
hand from its stage formulas, each named after the stage it checks.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.engine.base import Game, Kind, PlayerId, Start, Winner
from ratings.engine.ffg_old import OldFFG, basic_change, weight
from tests.support import examples

DAY = date(2015, 5, 9)
W, B = Winner.WHITE, Winner.BLACK


def game(white: str, black: str, winner: Winner, **extra: Any) -> Game:
    extra.setdefault("event", "open")
    return Game(extra.pop("date", DAY), white, black, winner, **extra)


def established(**levels: float) -> dict[PlayerId, Start]:
    return {name: Start(rating=level) for name, level in levels.items()}


def bare() -> OldFFG:
    return OldFFG(adjust=False, round_levels=False)


# --- stage 1 -----------------------------------------------------------------


def test_stage_1_equal_levels_winner_plus_15_loser_minus_15() -> None:
    assert basic_change(-500, -500, -500, -500) == (15.0, -15.0)


def test_stage_1_upset_winner_up_to_40_loser_at_most_minus_15() -> None:
    # 15 + (NFP - NFG)/15 with the loser 300 above: 35; 600 above: 55 -> 40.
    assert basic_change(-800, -500, -800, -500) == (35.0, -15.0)
    assert basic_change(-1100, -500, -1100, -500) == (40.0, -15.0)


def test_stage_1_expected_win_gives_at_least_1_and_the_loser_loses_1() -> None:
    assert basic_change(-200, -500, -200, -500) == (1.0, -1.0)  # 15 - 20 -> 1


def test_stage_1_winner_above_400_may_gain_0() -> None:
    assert basic_change(500, 0, 500, 0) == (0.0, -1.0)  # 15 - 33.3 -> 0
    # "above 400": 400.5 is, 400 is not.
    assert basic_change(400.5, 0, 400.5, 0) == (0.0, -1.0)
    assert basic_change(400, 0, 400, 0) == (1.0, -1.0)


def test_stage_1_loser_below_minus_2000_loses_at_most_1() -> None:
    gain, loss = basic_change(-2100, -2200, -2100, -2200)
    assert gain == pytest.approx(15 - 100 / 15) and loss == -1.0


def test_stage_1_a_player_of_minus_2000_or_more_against_one_below_moves_at_most_1() -> None:
    assert basic_change(-1900, -2100, -1900, -2100) == (1.0, -1.0)
    gain, loss = basic_change(-2100, -1900, -2100, -1900)
    assert gain == pytest.approx(15 + 200 / 15) and loss == -1.0


# --- stages 2 to 5 on a whole game ------------------------------------------


def test_stage_5_weight_1_minus_n_over_1000_within_0_1_and_2_5() -> None:
    assert weight(0) == 1.0
    assert weight(-1000) == 2.0
    assert weight(-2000) == 2.5 and weight(-2950) == 2.5
    assert weight(950) == 0.1 and weight(500) == 0.5


def test_hand_worked_even_game_1k_beats_3k() -> None:
    # NB = -50, NN = -250; stage 1: 15 + (-250 + 50)/15 = 1.667;
    # stage 5: x 1.05 for White, x 1.25 for Black.
    result = bare().rate([game("w", "b", W)], starts=established(w=-50, b=-250))
    assert result.ledger.change[0] == pytest.approx((15 - 200 / 15) * 1.05)
    assert result.ledger.change[1] == pytest.approx(-(15 - 200 / 15) * 1.25)


def test_hand_worked_stage_2_handicap_game() -> None:
    # White 2k (-150) beats Black 6k (-550) with 4 stones: NFN = -550 + 350 =
    # -200; stage 1: 15 + (-200 + 150)/15 = 11.667 and -11.667; stage 2:
    # x (1 - 4/10); stage 5: x 1.15 and x 1.55.
    result = bare().rate([game("w", "b", W, handicap=4, komi=0.5)], starts=established(w=-150, b=-550))
    basic = 15 - 50 / 15
    assert result.ledger.change[0] == pytest.approx(basic * 0.6 * 1.15)
    assert result.ledger.change[1] == pytest.approx(-basic * 0.6 * 1.55)


def test_stage_2_above_9_stones_does_not_count() -> None:
    result = bare().rate([game("w", "b", W, handicap=12, komi=0.5)], starts=established(w=-150, b=-1550))
    assert list(result.ledger.change) == [0.0, 0.0]


@pytest.mark.parametrize(
    ("extra", "factor"), [({"board": 13}, 0.2), ({"board": 9}, 0.1), ({"minutes": 45}, 0.5)]
)
def test_stages_3_and_4_small_boards_and_rapid_games(extra: dict[str, int], factor: float) -> None:
    starts = established(w=-500, b=-500)
    full = bare().rate([game("w", "b", W)], starts=starts).ledger.change
    part = bare().rate([game("w", "b", W, **extra)], starts=starts).ledger.change
    assert part[0] == pytest.approx(factor * full[0]) and part[1] == pytest.approx(factor * full[1])


@pytest.mark.parametrize("extra", [{"board": 7}, {"board": 11}, {"minutes": 29}, {"minutes": 10}])
def test_stages_3_and_4_other_boards_and_faster_games_do_not_count(extra: dict[str, int]) -> None:
    result = bare().rate([game("w", "b", W, **extra)], starts=established(w=-500, b=-500))
    assert list(result.ledger.change) == [0.0, 0.0]


def test_stages_2_and_3_do_not_apply_below_minus_2000_but_stage_4_does() -> None:
    starts = established(w=-2300, b=-2400)
    full = bare().rate([game("w", "b", W)], starts=starts).ledger.change
    small = bare().rate([game("w", "b", W, board=9, handicap=0)], starts=starts).ledger.change
    assert list(small) == pytest.approx(list(full))
    rapid = bare().rate([game("w", "b", W, minutes=40)], starts=starts).ledger.change
    assert list(rapid) == pytest.approx([0.5 * x for x in full])


def test_stage_6_barrier_at_minus_2950() -> None:
    # White below -2000 loses 1 (stage 1) x 2.5 (stage 5): -2949 -> -2951.5 -> -2950.
    result = bare().rate([game("w", "b", B)], starts=established(w=-2949, b=-2950))
    assert result.ledger.rating_after[0] == -2950 and result.state["w"].level == -2950


def test_no_ceiling_in_the_old_ladder() -> None:
    result = bare().rate([game("w", "b", W)], starts=established(w=1000, b=1000))
    assert result.state["w"].level > 1000


def test_levels_are_used_for_the_next_round() -> None:
    # the French Ladder page stage 5: "used for the next round of the tournament".
    starts = established(a=-500, b=-500, c=-500)
    result = bare().rate([game("a", "b", W), game("a", "c", W)], starts=starts)
    first = result.ledger.change[0]
    assert first == pytest.approx(15 * 1.5)
    assert result.ledger.rating_before[2] == pytest.approx(-500 + first)
    # Second round: a is now above c, NFP - NFG = -22.5.
    assert result.ledger.change[2] == pytest.approx((15 - first / 15) * (1 + (500 - first) / 1000))


def test_jigo_forfeits_and_free_games_do_not_count() -> None:
    starts = established(w=-500, b=-500)
    for g in (
        game("w", "b", Winner.JIGO, komi=7),
        game("w", "b", W, forfeit=True),
        game("w", "b", W, kind=Kind.FREE),
    ):
        assert list(bare().rate([g], starts=starts).ledger.change) == [0.0, 0.0]


# --- special cases -------------------------------------------------------------


def test_unknown_player_threshold_50_known_player_threshold_100() -> None:
    # Four wins at -1500 against -1000 players: 15 + 500/15 -> 40, x 2.5 = 100
    # a game before the adjustment.
    opponents = {f"o{i}": -1000.0 for i in range(4)}
    games = [game("new", f"o{i}", W) for i in range(4)]
    for start, known_threshold in ((Start(rank=-16), 50.0), (Start(rating=-1550), 100.0)):
        result = OldFFG(round_levels=False).rate(games, starts={"new": start} | established(**opponents))
        corrected = result.ledger.rating_before[0]
        final = result.state["new"].level
        assert corrected > -1550 + 100
        assert final - corrected == pytest.approx(known_threshold, abs=10)


def test_a_period_without_players_past_threshold_is_not_adjusted() -> None:
    starts = established(a=-500, b=-500)
    adjusted = OldFFG(round_levels=False).rate([game("a", "b", W)], starts=starts)
    plain = bare().rate([game("a", "b", W)], starts=starts)
    assert list(adjusted.ledger.change) == list(plain.ledger.change)


# --- properties ---------------------------------------------------------------

NAMES = [f"p{i}" for i in range(6)]


@st.composite
def histories(draw: st.DrawFn, forfeits: bool = True) -> tuple[list[Game], dict[PlayerId, Start]]:
    starts: dict[PlayerId, Start] = {
        name: Start(rank=float(draw(st.integers(-30, 8))))
        if draw(st.booleans())
        else Start(rating=float(draw(st.integers(-2950, 900))))
        for name in NAMES
    }
    events: list[Game] = []
    for period in range(draw(st.integers(1, 4))):
        day = DAY + timedelta(days=period)
        event = draw(st.sampled_from([None, f"t{period}"]))
        for _ in range(draw(st.integers(1, 8))):
            white, black = draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=2, unique=True))
            handicap = draw(st.sampled_from([0, 0, 3, 9, 11]))
            events.append(
                Game(
                    day,
                    white,
                    black,
                    draw(st.sampled_from([W, B])),
                    handicap=handicap,
                    komi=0.5 if handicap else 6.5,
                    board=draw(st.sampled_from([19, 19, 13, 9])),
                    minutes=draw(st.sampled_from([None, 45, 20])),
                    event=event,
                    club="c",
                    forfeit=forfeits and draw(st.integers(0, 9)) == 0,
                )
            )
    return events, starts


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories())
def test_levels_never_fall_below_minus_2950(history: tuple[list[Game], dict[PlayerId, Start]]) -> None:
    events, starts = history
    result = OldFFG().rate(events, starts=starts)
    assert all(x >= -2950 for x in result.ledger.rating_after)
    assert all(p.level >= -2950 for p in result.state.values())


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories(forfeits=False), st.data())
def test_forfeit_games_change_nothing(
    history: tuple[list[Game], dict[PlayerId, Start]], data: st.DataObject
) -> None:
    events, starts = history
    mixed: list[Game] = []
    for g in events:
        mixed.append(g)
        if data.draw(st.booleans()):
            mixed.append(Game(g.date, g.black, g.white, W, event=g.event, club=g.club, forfeit=True))
    assert OldFFG().rate(events, starts=starts).state == OldFFG().rate(mixed, starts=starts).state


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories(), st.data())
def test_resuming_at_a_period_boundary_equals_full_replay(
    history: tuple[list[Game], dict[PlayerId, Start]], data: st.DataObject
) -> None:
    events, starts = history
    boundaries = [k for k in range(1, len(events)) if events[k].date != events[k - 1].date]
    k = data.draw(st.sampled_from(boundaries or [len(events)]))
    system = OldFFG()
    full = system.rate(events, starts=starts)
    head = system.rate(events[:k], starts=starts)
    stored = {p: system.state_from_json(s.to_json()) for p, s in head.state.items()}
    tail = system.rate(events[k:], state=stored, starts=starts)
    for column in ("rating_before", "change", "rating_after", "rank_after"):
        assert list(getattr(full.ledger, column))[2 * k :] == list(getattr(tail.ledger, column))
    assert full.state == tail.state


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories(forfeits=False))
def test_the_adjustment_converges(history: tuple[list[Game], dict[PlayerId, Start]]) -> None:
    # With room for 1000 iterations, every corrected player's variation over
    # the period ends within the convergence step (10) of its threshold.
    events, starts = history
    result = OldFFG(max_iterations=1000, round_levels=False).rate(events, starts=starts)
    first: dict[PlayerId, float] = {}
    last: dict[PlayerId, float] = {}
    for i, g in enumerate(events):
        if i and g.date != events[i - 1].date:
            break
        for slot, p in ((2 * i, g.white), (2 * i + 1, g.black)):
            first.setdefault(p, result.ledger.rating_before[slot])
            last[p] = result.ledger.rating_after[slot]
    for p, start_used in first.items():
        s = starts[p]
        if s.rating is not None:
            entry = max(-2950.0, s.rating)
        else:
            assert s.rank is not None, p  # a Start gives its rating or its rank
            entry = max(-2950.0, 100 * s.rank + 50)
        if start_used != entry:
            assert abs(last[p] - start_used) <= (100 if s.rating is not None else 50) + 10


@pytest.mark.parametrize(
    ("winner", "stage_1"),
    [
        (Winner.BLACK, (-15.0, 15 + (-200 - -250) / 15)),  # Black wins: 18.3, White loses 15
        (Winner.WHITE, (15 + (-250 - -200) / 15, -(15 + (-250 - -200) / 15))),  # White wins 11.7
    ],
)
def test_stage_1_of_a_handicap_game_raises_blacks_level_by_the_bonus(
    winner: Winner, stage_1: tuple[float, float]
) -> None:
    # 3 stones: Black's effective level (NFG when Black wins, NFP when Black
    # loses) is -500 + 100 (3 - 0.5) = -250, against White's -200.
    game = Game(DAY, "w", "b", winner, handicap=3, komi=0.5, kind=Kind.TOURNAMENT, event="Cup")
    result = OldFFG().rate(
        [game], starts={"w": Start(rating=-200.0), "b": Start(rating=-500.0)}, explain=True
    )
    assert result.explanations is not None
    white, black = (e.terms for e in result.explanations if e is not None)
    assert (white["handicap_bonus"], black["handicap_bonus"]) == (250.0, 250.0)
    assert (white["stage_1_basic"], black["stage_1_basic"]) == pytest.approx(stage_1)
