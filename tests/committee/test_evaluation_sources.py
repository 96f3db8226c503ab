"""Tournament results as games to evaluate (ratings/evaluation/sources.py)."""

from __future__ import annotations

from datetime import date

from ratings.engine.base import Kind, Start
from ratings.evaluation.sources import tournament_games
from ratings.exchange import Player, Tournament, TournamentGame, Winner


def test_a_tournament_becomes_rated_games_of_its_own_players() -> None:
    tournament = Tournament(
        name="Open",
        start=date(2019, 5, 4),
        event_class="B",
        minutes=60,
        players=(
            Player("1", "Dupont Jean", rank=-5.0),
            Player("2", "Martin Anne", rank=0.0),
            Player("3", "Anonymous", rank=None),
        ),
        games=(
            TournamentGame(2, "2", "1", Winner.BLACK, handicap=4, komi=0.5),
            TournamentGame(1, "1", "2", Winner.WHITE),
            TournamentGame(1, "3", "1", Winner.WHITE),  # an unranked player: left out
        ),
    )
    out = tournament_games(tournament, "open.h9")
    assert out.skipped == 1
    assert [g.white for g in out.games] == [("open.h9", "1"), ("open.h9", "2")]  # round order
    first, second = out.games
    assert first.date == second.date == date(2019, 5, 4)
    assert (second.handicap, second.komi, second.winner) == (4, 0.5, Winner.BLACK)
    assert first.kind is Kind.TOURNAMENT and first.event == "open.h9: Open" and first.event_class == "B"
    assert first.minutes == 60
    assert out.starts == {("open.h9", "1"): Start(rank=-5.0), ("open.h9", "2"): Start(rank=0.0)}
    assert out.names[("open.h9", "3")] == "Anonymous"
