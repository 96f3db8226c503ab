"""A rating period is a tournament's days (docs/recompute.md, "Rating
periods"): where two tournaments overlap, a replay may start only before
both, and a game's explanation covers both (period_start moves back over
every tournament the start would split, as period_end moves forward)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from ratings import recompute
from ratings.explain.games import Status, explain_game
from ratings.models import Club, Game, RecordSheet
from tests.support import MakePlayer, stored_history

pytestmark = pytest.mark.django_db

DAY0 = date(2025, 5, 1)


#: (event, day, white, black, winner): the Alpha Cup over days 1-5, the Beta
#: Open over days 4-8.  P2 plays the Alpha Cup on days 2 and 5, then the
#: Beta Open on day 6: a replay begun on day 4 would cut P2's Alpha Cup in
#: two and rate its day-5 game from P2's rating after day 2.
GAMES = [
    ("Alpha Cup", 1, 0, 1, "black"),
    ("Alpha Cup", 2, 1, 2, "white"),
    ("Beta Open", 4, 4, 5, "black"),
    ("Alpha Cup", 5, 2, 3, "black"),
    ("Beta Open", 6, 2, 4, "white"),
    ("Beta Open", 8, 5, 0, "white"),
]


@pytest.fixture
def overlapping(club: Club, make_player: MakePlayer) -> Club:
    """The games above on an EGF list (also computing the FFG ladder and SAGC)."""
    club.rating_list.primary_system, club.rating_list.compared_systems = "egf", ["ffg", "sagc"]
    club.rating_list.save()
    players = [make_player(f"P{i}", rank=-10 + i, club=club, since=DAY0) for i in range(6)]
    for event, day, white, black, winner in GAMES:
        sheet = RecordSheet.objects.create(
            club=club, date=DAY0 + timedelta(days=day), kind="tournament", event=event
        )
        Game.objects.create(
            club=club, sheet=sheet, date=sheet.date, kind="tournament", winner=winner, white=players[white],
            black=players[black],
        )  # fmt: skip
    # A checkpoint after every period boundary, so that a later run resumes near its start.
    recompute.recompute_list(club.rating_list_id, full=True, options=recompute.Options(checkpoint_every=1))
    return club


def test_a_start_inside_two_overlapping_tournaments_moves_back_before_both(overlapping: Club) -> None:
    rating_list = overlapping.rating_list
    day = DAY0 + timedelta(days=6)  # inside the Beta Open only; its first day is inside the Alpha Cup
    assert recompute.period_start(rating_list, day) == DAY0 + timedelta(days=1)
    assert recompute.period_end(rating_list, DAY0 + timedelta(days=2)) == DAY0 + timedelta(days=8)
    assert recompute.period_bounds(rating_list, day) == (DAY0 + timedelta(days=1), DAY0 + timedelta(days=8))


def test_every_game_of_overlapping_tournaments_is_explained_as_stored(overlapping: Club) -> None:
    for game in Game.objects.filter(club=overlapping).select_related("rating_list", "white", "black"):
        explanation = explain_game(game)
        assert explanation.status is Status.EXPLAINED
        assert explanation.consistent, f"game of {game.date}: the explanation differs from the history"


def test_a_late_game_inside_overlapping_tournaments_recomputes_as_a_full_replay(overlapping: Club) -> None:
    rating_list = overlapping.rating_list
    day = DAY0 + timedelta(days=6)
    sheet = RecordSheet.objects.get(club=overlapping, date=day)
    fifth = Game.objects.get(club=overlapping, date=DAY0 + timedelta(days=5))
    Game.objects.create(
        club=overlapping, sheet=sheet, date=day, kind="tournament", winner="black", white_id=fifth.black_id,
        black_id=fifth.white_id,
    )  # fmt: skip
    recompute.mark_dirty(rating_list, day)
    recompute.recompute_list(rating_list.pk, options=recompute.Options(checkpoint_every=1))
    incremental = stored_history(overlapping)
    recompute.recompute_list(rating_list.pk, full=True)
    assert stored_history(overlapping) == incremental
