"""Each system's P(White wins) before every game (ratings/evaluation/predict.py).

First games checked by hand against the systems' formulas; the walk-forward
property: a prediction never depends on the games after it.
"""

from __future__ import annotations

import math
import random
from datetime import date, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engine import SYSTEM_NAMES
from ratings.engine.base import Adjustment, Event, Game, Kind, PlayerId, Start, Winner
from ratings.evaluation.predict import PREDICTORS, evaluate
from tests.support import examples

DAY = date(2024, 3, 1)
W, B, J = Winner.WHITE, Winner.BLACK, Winner.JIGO


def game(white: str, black: str, winner: Winner, handicap: int = 0, day: int = 0, **extra: Any) -> Game:
    return Game(
        date=DAY + timedelta(days=day), white=white, black=black, winner=winner, handicap=handicap,
        komi=0.5 if handicap else 6.5, **extra,
    )  # fmt: skip


def test_the_first_game_of_a_2d_and_a_1d() -> None:
    # White 2d (GoR 2100 + 100 = 2200), Black 1d (2100), even.
    result = evaluate([game("Two", "One", W)], {"Two": Start(rank=1.0), "One": Start(rank=0.0)})
    p = {name: result.probabilities[name][0] for name in PREDICTORS}
    # EGF since 2021, the Revised European Ratings page: Se = 1 / (1 + ((3300 - 2200) / (3300 - 2100))^7)
    # = 1 / (1 + (11/12)^7) = 1 / (1 + 0.543851) = 0.647731.
    assert p["egf"] == pytest.approx(0.647731, abs=1e-6)
    # EGF before 2021: a = 205 - 2100/20 = 100 at the weaker rating, D = -100:
    # 1 / (e^-1 + 1) = 0.731059 (epsilon left out, docs/evaluation.md).
    assert p["egf-old"] == pytest.approx(0.731059, abs=1e-6)
    # The fitted systems and the rank baseline start from the prior: one stone
    # stronger, logistic(ln 2 x 1) = 2/3.
    for name in ("sagc", "ffg", "ffg-old", "ranks"):
        assert p[name] == pytest.approx(2 / 3, abs=1e-12), name
    # West Surrey (the West Surrey ladder page) counts White's 6.5 komi as half a point beyond its
    # even 6, at 10 komi a level: White is 1.05 levels ahead, 2^1.05 / (1 + 2^1.05).
    assert p["west-surrey"] == pytest.approx(2**1.05 / (1 + 2**1.05), abs=1e-12)
    assert p["even"] == 0.5


def test_the_egf_reads_the_handicap_as_100_points_a_stone_less_half() -> None:
    # 1d (2100) gives 5 stones to a 5k (1600): Black counts 1600 + 450 = 2050;
    # Se = 1 / (1 + (1200 / 1250)^7) = 1 / (1 + 0.751447) = 0.570956.
    result = evaluate([game("Dan", "Kyu", B, handicap=5)], {"Dan": Start(rank=0.0), "Kyu": Start(rank=-5.0)})
    assert result.probabilities["egf"][0] == pytest.approx(0.570956, abs=1e-6)
    # The rank baseline's x: 0 - (-5) - (5 - 0.5) = 0.5 stone: logistic(ln 2 / 2) = sqrt 2 / (1 + sqrt 2).
    assert result.probabilities["ranks"][0] == pytest.approx(math.sqrt(2) / (1 + math.sqrt(2)), abs=1e-12)


def test_the_egf_predicts_a_whole_tournament_from_the_ratings_it_began_with() -> None:
    starts: dict[PlayerId, Start] = {"A": Start(rank=0.0), "B": Start(rank=0.0)}
    events = [
        game("A", "B", W, event="Open", day=0),
        game("A", "B", W, event="Open", day=1),
        game("A", "B", W, day=8),  # a club evening after the Open
    ]
    p = evaluate(events, starts, ["egf"]).probabilities["egf"]
    assert p[0] == p[1] == 0.5  # ratings are not updated between the games of one tournament
    assert p[2] > 0.5  # A won the Open twice


def test_forfeits_are_not_predicted_and_a_jigo_is_half_a_win() -> None:
    starts: dict[PlayerId, Start] = {"A": Start(rank=-3.0), "B": Start(rank=-4.0)}
    events = [game("A", "B", W, forfeit=True), game("A", "B", J)]
    result = evaluate(events, starts, ["sagc"])
    assert result.indexes == [1]
    assert result.outcomes == [0.5]


def test_the_rank_baseline_follows_committee_adjustments() -> None:
    starts: dict[PlayerId, Start] = {"A": Start(rank=-3.0), "B": Start(rank=-3.0)}
    events: list[Event] = [game("A", "B", W), Adjustment(DAY, "A", -1.0), game("A", "B", W, day=1)]
    result = evaluate(events, starts, [])
    assert result.ranks == [(-3.0, -3.0), (-1.0, -3.0)]
    assert result.probabilities["ranks"][0] == 0.5
    assert result.probabilities["ranks"][1] > 0.5


def test_an_adjustment_before_a_players_first_game_is_their_egf_standing() -> None:
    # the committee corrects a newcomer's rating before they play: their first
    # game is predicted from the corrected rating, with no run of rows before it.
    starts: dict[PlayerId, Start] = {"A": Start(rating=1500.0), "B": Start(rating=2100.0)}
    events: list[Event] = [Adjustment(DAY, "A", 0.0, rating=2100.0), game("A", "B", W, day=1)]
    result = evaluate(events, starts, ["egf"])
    assert result.probabilities["egf"] == [pytest.approx(0.5)]


def test_an_unknown_system_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown rating system 'elo'"):
        evaluate([], {}, ["elo"])


# --- walk-forward ------------------------------------------------------------

PLAYERS = [f"P{i}" for i in range(6)]


@st.composite
def histories(draw: st.DrawFn) -> tuple[list[Game], dict[PlayerId, Start]]:
    starts: dict[PlayerId, Start] = {p: Start(rank=float(draw(st.integers(-25, 4)))) for p in PLAYERS}
    n = draw(st.integers(1, 30))
    games = []
    day = 0
    for _ in range(n):
        white = draw(st.integers(0, 5))
        black = (white + draw(st.integers(1, 5))) % 6
        day += draw(st.integers(0, 3))
        games.append(
            game(
                PLAYERS[white],
                PLAYERS[black],
                draw(st.sampled_from([W, B, W, B, J])),
                handicap=draw(st.integers(0, 4)),
                day=day,
                event=draw(st.sampled_from([None, "Open", "Open", "Cup"])),
                kind=draw(st.sampled_from([Kind.CLUB, Kind.TOURNAMENT, Kind.TOURNAMENT, Kind.FREE])),
            )
        )
    return games, starts


@settings(max_examples=examples(60), deadline=None)
@given(histories(), histories(), st.data())
def test_later_games_never_change_an_earlier_prediction(
    history: tuple[list[Game], dict[PlayerId, Start]],
    other: tuple[list[Game], dict[PlayerId, Start]],
    data: st.DataObject,
) -> None:
    games, starts = history
    cut = data.draw(st.integers(0, len(games)), label="cut")
    shuffled = games[cut:]
    random.Random(data.draw(st.integers(0, 2**16), label="seed")).shuffle(shuffled)
    # Other later games: another history's, moved after the cut.
    later = [
        Game(**{**{f: getattr(g, f) for f in Game.__slots__}, "date": g.date + timedelta(days=200)})
        for g in other[0]
    ]
    alone = evaluate(games[:cut], starts, SYSTEM_NAMES)
    for tail in (games[cut:], shuffled, later):
        result = evaluate(games[:cut] + tail, starts, SYSTEM_NAMES)
        for name in PREDICTORS:
            assert result.probabilities[name][:cut] == alone.probabilities[name], name


def test_a_french_tournament_is_predicted_from_the_levels_before_it() -> None:
    # The FFG corrects a new player's start level with the whole tournament's
    # results (the FFG algorithm page, "Ajustements"): the ledger's rows of round 1 change
    # when round 3 is added.  The predictions must not.
    starts: dict[PlayerId, Start] = {"K": Start(rank=-10.0), "D": Start(rank=0.0), "E": Start(rank=-5.0)}
    rounds = [
        game("D", "K", B, event="Open"),
        game("E", "K", B, event="Open"),
        game("D", "K", B, event="Open", day=1),
    ]
    for name in ("ffg", "ffg-old"):
        two = evaluate(rounds[:2], starts, [name]).probabilities[name]
        three = evaluate(rounds, starts, [name]).probabilities[name]
        assert three[:2] == two, name


def test_the_scores_of_a_small_tournament_by_hand() -> None:
    from ratings.evaluation.report import summary

    # A 2d and two 1d in one tournament: the EGF predicts every game from the
    # ratings it began with (2200, 2100, 2100).
    starts: dict[PlayerId, Start] = {"A": Start(rank=1.0), "B": Start(rank=0.0), "C": Start(rank=0.0)}
    events = [
        game("A", "B", W, event="Open"),  # Se 0.647731 (11/12 to the 7th, above); White won
        game("A", "C", B, event="Open"),  # Se 0.647731; Black won: 0.352269 for the result
        game("B", "C", W, event="Open"),  # 2100 against 2100: 0.5; White won
    ]
    m = summary(evaluate(events, starts, ["egf"]))["overall"]["egf"]
    # log-loss: (0.434280 + 1.043360 + 0.693147) / 3 = 2.170787 / 3 = 0.723596
    assert m.log_loss == pytest.approx(0.723596, abs=1e-5)
    # Brier: (0.352269^2 + 0.647731^2 + 0.5^2) / 3 = (0.124093 + 0.419555 + 0.25) / 3 = 0.264549
    assert m.brier == pytest.approx(0.264549, abs=1e-5)
    # Accuracy: right, wrong, a coin: 1.5 / 3.
    assert m.accuracy == 0.5
    assert m.games == 3


def test_the_summary_splits_the_games_by_handicap_and_rank_band() -> None:
    from ratings.evaluation.report import summary

    # Two even games of dans, one handicap game of kyus.
    starts: dict[PlayerId, Start] = {
        p: Start(rank=r) for p, r in (("A", 1.0), ("B", 0.0), ("K", -12.0), ("L", -15.0))
    }
    events = [game("A", "B", W), game("B", "A", B, day=1), game("K", "L", W, handicap=3, day=2)]
    tables = summary(evaluate(events, starts, ["egf"]))
    alone = summary(evaluate(events[2:], {"K": starts["K"], "L": starts["L"]}, ["egf"]))["overall"]["egf"]
    assert set(tables) == {"overall", "handicap even", "handicap 2-4", "rank dan", "rank 10k-19k"}
    assert tables["handicap 2-4"]["egf"] == tables["rank 10k-19k"]["egf"] == alone
    assert tables["handicap even"]["egf"].games == tables["rank dan"]["egf"].games == 2


def test_the_new_ffg_ladder_holds_a_start_above_its_ceiling_there() -> None:
    # A level of 1050 (from another list) enters the new ladder at its ceiling
    # of 850 (the FFG algorithm page): one grade above the 8d's 750; the old
    # ladder has no ceiling (three grades).
    starts: dict[PlayerId, Start] = {"Top": Start(rating=1050.0), "Eight": Start(rank=7.0)}
    result = evaluate([game("Top", "Eight", W)], starts, ["ffg", "ffg-old"])
    assert result.probabilities["ffg"][0] == pytest.approx(2 / 3, abs=1e-12)  # logistic(ln 2 x 1)
    assert result.probabilities["ffg-old"][0] == pytest.approx(8 / 9, abs=1e-12)  # logistic(ln 2 x 3)


def test_after_a_committee_adjustment_the_egf_predicts_from_the_adjusted_rating() -> None:
    # A, 1k (GoR 2000), plays C, then is set to GoR 2200 before playing the
    # new 1d B (2100): the predictions of the first test above, 2200 against 2100.
    starts: dict[PlayerId, Start] = {p: Start(rank=r) for p, r in (("A", -1.0), ("B", 0.0), ("C", -1.0))}
    events: list[Event] = [
        game("A", "C", W),
        Adjustment(DAY, "A", 1.0, rating=2200.0),
        game("A", "B", W, day=1),
    ]
    result = evaluate(events, starts, ["egf", "egf-old"])
    assert result.probabilities["egf"][1] == pytest.approx(0.647731, abs=1e-6)
    assert result.probabilities["egf-old"][1] == pytest.approx(0.731059, abs=1e-6)
