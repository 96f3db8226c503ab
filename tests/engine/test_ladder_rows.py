"""The record-sheet rows of the French ladders inside one rating period.

Both FFG ladders rate a period's games together, but their ledgers show a
row a game: a player's rows chain from the level the period starts with
through each game's change, and only the last row of the period shows the
level the period ends with (rounded as published).  The final levels are
tested against the sources elsewhere (test_ffg.py, test_ffg_old.py); this
pins the rows between, which a reader of a record sheet adds up."""

from __future__ import annotations

from datetime import date
from itertools import pairwise

import pytest

from ratings.engine import get_system
from ratings.engine.base import Game, Kind, PlayerId, Start, Winner
from ratings.engine.ffg_common import FLOOR
from ratings.engine.ffg_old import OldFFG

W, B = Winner.WHITE, Winner.BLACK

#: One tournament over two days: A and B play three and three games, with
#: both colours, so each has rows before their last as White and as Black.
CUP = [
    Game(date(2024, 1, 6), "A", "Z", B, event="Cup"),
    Game(date(2024, 1, 6), "A", "B", W, event="Cup"),
    Game(date(2024, 1, 6), "Z", "C", W, event="Cup"),
    Game(date(2024, 1, 7), "B", "A", B, event="Cup"),
    Game(date(2024, 1, 7), "Z", "B", B, event="Cup"),
]
STARTS: dict[PlayerId, Start] = {
    "A": Start(rank=-5),
    "B": Start(rank=-5),
    "C": Start(rank=-6),
    "Z": Start(rating=-800.0),
}


@pytest.mark.parametrize("system", ["ffg", "ffg-old"])
def test_a_players_rows_in_a_period_add_up_game_by_game(system: str) -> None:
    ledger = get_system(system).rate(CUP, starts=STARTS).ledger
    rows: dict[PlayerId, list[int]] = {}
    for index, game in enumerate(CUP):
        rows.setdefault(game.white, []).append(2 * index)
        rows.setdefault(game.black, []).append(2 * index + 1)
    checked = 0
    for player, slots in rows.items():
        for slot, following in pairwise(slots):
            before, change, after = ledger.rating_before[slot], ledger.change[slot], ledger.rating_after[slot]
            assert after == pytest.approx(before + change, abs=1e-9), (system, player, slot)
            assert ledger.rating_before[following] == pytest.approx(after, abs=1e-9), (system, player, slot)
            checked += 1
        last = slots[-1]
        assert ledger.rating_after[last] == round(ledger.rating_after[last]), (
            "the period's end, published whole"
        )
    assert checked == 6, "A and B two rows each before their last, Z two (as White and as Black)"


@pytest.mark.parametrize("system", ["ffg", "ffg-old"])
def test_a_rows_rank_is_the_hundreds_of_its_level_before_and_after(system: str) -> None:
    # The ladders' rank column is the level's hundreds, rounded down
    # (1d = 0..99, 1k = -100..-1).  Levels chosen so that a division by
    # anything but 100 shows: 800 and 700 (8d, 7d), -101 (2k), -150.
    starts: dict[PlayerId, Start] = {
        "P": Start(rating=800.0),
        "Q": Start(rating=700.0),
        "R": Start(rating=-101.0),
        "S": Start(rating=-150.0),
    }
    games = [
        Game(date(2024, 2, 3), "P", "Q", W, event="Open"),
        Game(date(2024, 2, 3), "R", "S", B, event="Open"),
        Game(date(2024, 2, 4), "Q", "R", W, event="Open"),
        Game(date(2024, 2, 4), "S", "P", B, event="Open"),
    ]
    ledger = get_system(system).rate(games, starts=starts).ledger
    for slot in range(2 * len(games)):
        assert ledger.rank_before[slot] == ledger.rating_before[slot] // 100.0, (system, slot)
        assert ledger.rank_after[slot] == ledger.rating_after[slot] // 100.0, (system, slot)
    assert (ledger.rank_before[0], ledger.rank_before[1], ledger.rank_before[2]) == (8.0, 7.0, -2.0)


def test_the_old_ladder_counts_the_kinds_it_is_given() -> None:
    assert OldFFG(counted_kinds={Kind.TOURNAMENT}).counted_kinds == frozenset({Kind.TOURNAMENT})
    club = [Game(date(2024, 2, 3), "A", "B", W, kind=Kind.CLUB)]
    result = OldFFG(counted_kinds={Kind.TOURNAMENT}).rate(club, starts=STARTS)
    assert result.ledger.change[0] == result.ledger.change[1] == 0.0


@pytest.mark.parametrize("system", ["ffg", "ffg-old"])
def test_a_rows_level_inside_a_period_stays_at_or_above_the_floor(system: str) -> None:
    # A 30k at the bottom of the scale loses three games of one tournament,
    # as White and as Black: each row of the period shows the level held at
    # the floor, not below it.
    starts: dict[PlayerId, Start] = {
        "low": Start(rating=FLOOR + 1.0),
        "x": Start(rank=-25),
        "y": Start(rank=-25),
    }
    games = [
        Game(date(2024, 3, 2), "low", "x", B, event="Open"),
        Game(date(2024, 3, 2), "y", "low", W, event="Open"),
        Game(date(2024, 3, 3), "low", "y", B, event="Open"),
    ]
    ledger = get_system(system).rate(games, starts=starts).ledger
    rows = [0, 3, 4]  # low's slots: White, Black, White
    assert all(ledger.change[slot] < 0 for slot in rows)
    for slot in rows:
        assert ledger.rating_before[slot] >= FLOOR and ledger.rating_after[slot] >= FLOOR, (system, slot)
    # Rows before the period's last: the level carried on, held at the floor.
    for slot in rows[:2]:
        expected = max(FLOOR, ledger.rating_before[slot] + ledger.change[slot])
        assert ledger.rating_after[slot] == pytest.approx(expected, abs=1e-9), (system, slot)
    assert any(ledger.rating_before[slot] + ledger.change[slot] < FLOOR for slot in rows[:2]), (
        "the floor was met"
    )
