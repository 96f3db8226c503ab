"""The synthetic history of ratings/synthetic.py (benchmarks, ``manage.py generate``)."""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from datetime import date
from itertools import groupby
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engine.base import Adjustment, Game, Kind, Start, Winner, period_key
from ratings.engine.ranks import MAX_RANK, MIN_RANK
from ratings.synthetic import synthetic_history
from tests.support import examples

REPO = Path(__file__).resolve().parent.parent.parent


@pytest.fixture(scope="module")
def history() -> tuple[list[Game | Adjustment], dict[object, Start]]:
    events, starts = synthetic_history(20_000, players=500, seed=7, clubs=3)
    return events, dict(starts)


def games_of(events: list[Game | Adjustment]) -> list[Game]:
    return [e for e in events if isinstance(e, Game)]


def test_the_same_arguments_give_the_same_history() -> None:
    assert synthetic_history(3000, players=200, seed=3) == synthetic_history(3000, players=200, seed=3)


def test_another_seed_gives_another_history() -> None:
    assert synthetic_history(3000, players=200, seed=3)[0] != synthetic_history(3000, players=200, seed=4)[0]


def test_it_does_not_touch_the_global_random_state() -> None:
    import random

    random.seed(11)
    expected = random.random()
    random.seed(11)
    synthetic_history(500, players=50)
    assert random.random() == expected


@given(
    games=st.integers(0, 400),
    players=st.integers(2, 60),
    seed=st.integers(0, 2**32),
    clubs=st.integers(1, 3),
)
@settings(max_examples=examples(60), deadline=None)
def test_any_history_is_well_formed(games: int, players: int, seed: int, clubs: int) -> None:
    clubs = min(clubs, players // 2)
    events, starts = synthetic_history(games, players=players, seed=seed, clubs=clubs, start=date(2020, 2, 1))
    played = games_of(events)
    assert len(played) == games
    assert set(starts) == set(range(players))
    for start in starts.values():
        assert start.rank is not None and start.rank == int(start.rank)
        assert MIN_RANK <= start.rank <= MAX_RANK
    days = [e.date for e in events]
    assert days == sorted(days)
    assert not days or days[0] >= date(2020, 2, 1)
    for game in played:
        assert game.white != game.black
        assert game.white in starts and game.black in starts
        assert 0 <= game.handicap <= 9
        if game.handicap:
            assert game.komi == 0.5
        if game.winner is Winner.JIGO:
            assert game.komi == int(game.komi)  # a draw needs an integer komi
        assert game.board in (19, 13, 9)
        assert (game.kind is Kind.TOURNAMENT) == (game.event is not None)
        if game.event is not None:
            assert game.event_class in ("A", "B", "C", "D")
        else:
            assert isinstance(game.white, int) and isinstance(game.black, int)
            assert game.club == f"club-{game.white % clubs + 1}" == f"club-{game.black % clubs + 1}"
    for adjustment in events:
        if isinstance(adjustment, Adjustment):
            assert MIN_RANK <= adjustment.rank <= MAX_RANK
            assert adjustment.player in starts


def test_each_rating_period_is_one_contiguous_run(
    history: tuple[list[Game | Adjustment], dict[object, Start]],
) -> None:
    # EGF and FFG rate a period at once; a period cut in two would be two.
    runs = [key for key, _ in groupby(period_key(g) for g in games_of(history[0]))]
    assert len(runs) == len(set(runs))


def test_the_mix_is_realistic(history: tuple[list[Game | Adjustment], dict[object, Start]]) -> None:
    events, starts = history
    played = games_of(events)
    kinds = Counter(g.kind for g in played)
    assert kinds[Kind.CLUB] > kinds[Kind.TOURNAMENT] > 0
    assert kinds[Kind.INTERNET] > 0 and kinds[Kind.FREE] > 0
    handicaps = Counter(g.handicap for g in played)
    assert handicaps[0] > handicaps[2] > handicaps[5] > 0 and handicaps[9] > 0
    assert {g.komi for g in played} >= {6.5, 0.5}
    assert any(g.komi < 0 for g in played)  # reverse komi
    assert {g.board for g in played} == {19, 13, 9}
    assert {g.event_class for g in played} == {None, "A", "B", "C", "D"}
    assert any(g.minutes is not None and g.minutes < 30 for g in played)
    assert any(isinstance(e, Adjustment) for e in events)
    assert sum(1 for g in played if g.winner is Winner.JIGO) > 0
    # Weighted toward kyu: most players are kyu, some are dan.
    kyu = sum(1 for s in starts.values() if s.rank is not None and s.rank < 0)
    assert 0.6 * len(starts) < kyu < len(starts)
    # The dates spread over years.
    assert (played[-1].date - played[0].date).days > 150


def test_opponents_are_mostly_of_similar_strength(
    history: tuple[list[Game | Adjustment], dict[object, Start]],
) -> None:
    played = games_of(history[0])
    close = sum(1 for g in played if g.handicap <= 2)
    assert close > 0.75 * len(played)


def test_the_declared_stronger_player_wins_more_often_in_even_games(
    history: tuple[list[Game | Adjustment], dict[object, Start]],
) -> None:
    # Results come from the true strengths, the declared ranks are a noisy
    # view of them: the stronger side on paper should still win most games.
    events, starts = history
    wins = total = 0
    for g in games_of(events):
        gap = (starts[g.white].rank or 0.0) - (starts[g.black].rank or 0.0)
        if g.handicap == 0 and g.komi == 6.5 and abs(gap) >= 1 and g.winner is not Winner.JIGO:
            total += 1
            wins += (gap > 0) == (g.winner is Winner.WHITE)
    assert total > 100
    assert wins / total > 0.6


def test_players_are_integers_and_dates_are_shared_objects() -> None:
    events, _ = synthetic_history(2000, players=100, seed=1)
    played = games_of(events)
    assert all(type(g.white) is int for g in played)
    assert len({id(g.date) for g in played}) == len({g.date for g in played})


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        ({"games": -1}, "games"),
        ({"games": 10, "players": 1}, "players"),
        ({"games": 10, "clubs": 0}, "clubs"),
        ({"games": 10, "players": 4, "clubs": 3}, "clubs"),
    ],
)
def test_impossible_arguments_are_refused(arguments: dict[str, Any], words: str) -> None:
    with pytest.raises(ValueError, match=f"^{words}:"):
        synthetic_history(**arguments)


def test_it_never_imports_django() -> None:
    code = "import sys, ratings.synthetic; sys.exit(any(m.split('.')[0] == 'django' for m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], cwd=REPO).returncode == 0


def test_the_benchmark_ends_with_its_figure_line() -> None:
    # bench/engine.py's contract with `make bench`: its last line is the figure line.
    process = subprocess.run(
        [sys.executable, "bench/engine.py", "--system", "sagc", "--games", "300", "--players", "50"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert process.returncode == 0, process.stderr
    last = process.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"sagc: 300 games in \d+\.\d\d s \(\d+ games/s\), peak \d+ MB", last), last
