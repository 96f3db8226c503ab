"""The recompute pipeline: marking dirty, replaying, notices (ratings/recompute/)."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import transaction
from pytest_django import DjangoCaptureOnCommitCallbacks, Settings

from ratings import recompute
from ratings.engine import get_system
from ratings.engine.base import Game as EngineGame
from ratings.engine.base import Kind, Start, Winner
from ratings.models import (
    Club,
    Game,
    HistoryEntry,
    Player,
    RatingCheckpoint,
    RatingList,
    RecomputeRun,
    RecordSheet,
)
from tests.support import MakePlayer, stored_history

pytestmark = pytest.mark.django_db


def add_game(
    club: Club, day: date, white: Player, black: Player, winner: str = "white", **extra: object
) -> Game:
    sheet = RecordSheet.objects.create(club=club, date=day)
    return Game.objects.create(
        club=club, sheet=sheet, date=day, white=white, black=black, winner=winner, **extra
    )


def test_it_marks_the_club_dirty_from_the_earliest_date(club: Club) -> None:
    with transaction.atomic():
        recompute.mark_dirty(club.rating_list, date(2026, 3, 12))
        recompute.mark_dirty(club.rating_list, date(2026, 3, 1))
        recompute.mark_dirty(club.rating_list, date(2026, 3, 20))
        club.rating_list.refresh_from_db()
        assert club.rating_list.dirty_from == date(2026, 3, 1)
        assert club.rating_list.dirty_generation == 3


def test_it_recomputes_after_commit_without_a_broker(
    club: Club,
    make_player: MakePlayer,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
    settings: Settings,
) -> None:
    settings.CELERY_BROKER_URL = ""
    alice, bob = make_player("Alice", rank=-10), make_player("Bob", rank=-10)
    with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
        add_game(club, date(2026, 3, 12), alice, bob, "white")
        recompute.mark_dirty(club.rating_list, date(2026, 3, 12))
        recompute.mark_dirty(club.rating_list, date(2026, 3, 12))
        assert not callbacks, "nothing runs before the commit"
    assert callbacks, "the recompute runs after the commit"
    club.rating_list.refresh_from_db()
    assert club.rating_list.dirty_from is None
    rows = HistoryEntry.objects.filter(system="sagc").order_by("colour")
    assert [r.player_id for r in rows] == [bob.pk, alice.pk]
    expected = get_system("sagc").rate(
        [
            EngineGame(
                date(2026, 3, 12), alice.pk, bob.pk, Winner.WHITE, komi=6.5, kind=Kind.CLUB, club=club.slug
            )
        ],
        starts={alice.pk: Start(rank=-10), bob.pk: Start(rank=-10)},
    )
    alice.refresh_from_db()
    assert alice.rating == expected.state[alice.pk].rating
    assert alice.games_count == 1
    assert RecomputeRun.objects.get().status == "done", "the second call found nothing to do: one run"


def test_it_names_the_dirty_clubs_in_a_notice(club: Club) -> None:
    RatingList.objects.filter(pk=club.rating_list_id).update(dirty_from=date(2026, 3, 12))
    assert recompute.pending_notices() == [
        "Ratings after 12 March 2026 are being updated for South African Go Clubs."
    ]


def test_it_resumes_from_a_checkpoint_and_gives_the_full_replay(club: Club, make_player: MakePlayer) -> None:
    options = recompute.Options(checkpoint_every=5)
    players = [make_player(f"P{i}", rank=-15 + i) for i in range(6)]
    for n in range(60):
        day = date(2025, 1, 1 + n // 3)
        add_game(
            club,
            day,
            players[n % 6],
            players[(n * 5 + 1) % 6] if n % 6 != (n * 5 + 1) % 6 else players[(n + 1) % 6],
            "white" if n % 3 else "black",
            handicap=n % 3,
        )
    recompute.recompute_list(club.rating_list_id, full=True, options=options)
    assert RatingCheckpoint.objects.filter(rating_list=club.rating_list).count() > 3
    add_game(club, date(2025, 1, 15), players[0], players[3], "black")
    recompute.mark_dirty(club.rating_list, date(2025, 1, 15))
    run = recompute.recompute_list(club.rating_list_id, options=options)
    incremental = stored_history(club)
    assert run is not None and run.from_date == date(2025, 1, 15) and not run.full
    recompute.recompute_list(club.rating_list_id, full=True)
    assert stored_history(club) == incremental
