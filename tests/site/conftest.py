"""A list like the demo's, rated by every system: two clubs, players from
25k to 4d, club nights with visitors, internet and free games, a 13x13
game, a jigo, a forfeit, a two-day tournament, a national rank sync and a
committee's demotion; recomputed with a checkpoint every few events, so
that a game's explanation resumes from a checkpoint."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import pytest

from ratings import committee, services
from ratings.engine import SYSTEM_NAMES
from ratings.models import Club, Game, Player, RankAdjustment, RatingList
from ratings.recompute import Options, recompute_list
from ratings.services import GameRow
from tests.support import MakePlayer

#: Events between two checkpoints here: the history has several.
CHECKPOINT_EVERY = 12
FIRST_DAY = date(2024, 2, 1)
TOURNAMENT_DAY = date(2024, 3, 16)


@dataclass
class History:
    rating_list: RatingList
    players: list[Player]
    forfeit: Game
    sync: RankAdjustment
    demotion: RankAdjustment


def _row(rng: random.Random, a: Player, b: Player, **extra: Any) -> GameRow:
    """Stronger player White, a stone a rank of handicap (at most 9); ``extra``
    sets other fields of the row (or a winner other than the drawn one)."""
    white, black = (a, b) if a.rank >= b.rank else (b, a)
    handicap = min(9, int(white.rank - black.rank))
    row = GameRow(
        white=white,
        black=black,
        handicap=handicap,
        komi=Decimal("0.5") if handicap else Decimal("6.5"),
        winner=rng.choice(["white", "black"]),
    )
    return replace(row, **extra)


@pytest.fixture
def history(rating_list: RatingList, club: Club, other_club: Club, make_player: MakePlayer) -> History:
    rating_list.compared_systems = [name for name in SYSTEM_NAMES if name != rating_list.primary_system]
    rating_list.save()
    ranks = [-25, -18, -12, -10, -8, -5, -2, 0, 3]
    players = [
        make_player(f"Player {chr(65 + i)}", rank=rank, club=club if i % 2 else other_club)
        for i, rank in enumerate(ranks)
    ]
    rng = random.Random(7)
    forfeit_day = FIRST_DAY + timedelta(days=9)
    for n in range(16):
        day = FIRST_DAY + timedelta(days=3 * n)
        rows = [_row(rng, *rng.sample(players, 2)) for _ in range(4)]
        if n == 1:
            rows.append(_row(rng, players[0], players[2], kind="internet"))
            rows.append(_row(rng, players[1], players[3], kind="free"))
        if n == 2:
            rows.append(_row(rng, players[4], players[5], board=13))
            rows.append(_row(rng, players[6], players[7], winner="jigo"))
        if day == forfeit_day:
            rows.append(_row(rng, players[2], players[8], forfeit=True))
        services.save_sheet(club=club if n % 2 else other_club, date=day, rows=rows)
    # A two-day tournament: every game of both days is one rating period.
    open_rows = [
        _row(rng, *rng.sample(players, 2), date=TOURNAMENT_DAY + timedelta(days=n // 4)) for n in range(8)
    ]
    services.save_sheet(
        club=club, date=TOURNAMENT_DAY, rows=open_rows, event="Spring Open", kind="tournament"
    )
    sync = committee.preview_rank_sync(
        rating_list, b'name,national id,rank\n"Player D",S-4,7k\n', filename="saga-2024-03.csv"
    )
    [synced] = committee.apply_rank_sync(sync, committee.default_choices(sync), effective=date(2024, 3, 1))
    demotion = services.add_adjustment(
        player=players[5], date=date(2024, 3, 8), rank=-6, reason="a long break from the game"
    )
    recompute_list(rating_list.pk, full=True, options=Options(checkpoint_every=CHECKPOINT_EVERY))
    rating_list.refresh_from_db()
    assert rating_list.dirty_from is None
    forfeit = Game.objects.get(rating_list=rating_list, forfeit=True)
    return History(rating_list, players, forfeit, synced, demotion)


@pytest.fixture
def checked(club: Club) -> RatingList:
    """The fixture's list with the entry checks of a new list: results below
    5 % and handicaps off the rule asked to be confirmed."""
    rating_list = club.rating_list
    rating_list.improbable_below, rating_list.check_handicap = 0.05, True
    rating_list.save()
    return rating_list


@pytest.fixture
def entry_players(make_player: MakePlayer) -> dict[str, Player]:
    """The players of the entry checks' worked figures (SAGC, nothing rated):
    Alice 5k, Bob 8k, Dan 10k, Carl 20k, Zoë Müller 5k."""
    return {
        "alice": make_player("Alice Mokoena", rank=-5),
        "bob": make_player("Bob Smit", rank=-8),
        "dan": make_player("Dan Kyu", rank=-10),
        "carl": make_player("Carl Venter", rank=-20),
        "zoe": make_player("Zoë Müller", rank=-5),
    }
