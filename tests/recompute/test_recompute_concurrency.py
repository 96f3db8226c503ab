"""Concurrency: several clients enter sheets for the same club at once;
every game is saved and the final history equals a full replay.

Runs on PostgreSQL, where writers really run side by side (row locks, the
advisory lock of the recompute).  SQLite serialises writers anyway
(transaction_mode IMMEDIATE) and its in-memory test database is shared
between threads through one cache, which cannot show real concurrency.
"""

from __future__ import annotations

import threading
from datetime import date, timedelta

import pytest
from django.db import close_old_connections, connection
from pytest_django import Settings

from ratings import recompute, services
from ratings.models import Club, Game, Player
from tests.support import MakePlayer, stored_history

# Concurrent writers need PostgreSQL (SQLite serialises them): deselected on
# SQLite at collection, before pytest-django sets up a transactional test
# database (its serialized rollback cannot run on SQLite's in-memory one).
pytestmark = pytest.mark.postgresql

CLIENTS = 4
SHEETS_EACH = 3
GAMES_PER_SHEET = 5


#: The columns this file compares.
COLUMNS = ("system", "seq", "player_id", "game_id", "rank_after", "rating_after")


@pytest.mark.django_db(transaction=True)
def test_it_saves_every_game_of_simultaneous_sheets_and_ends_in_the_full_replay(
    make_player: MakePlayer, settings: Settings
) -> None:
    settings.CELERY_BROKER_URL = ""  # in-process recompute after each commit, racing the others
    club = Club.objects.get(slug="stellenbosch")
    players = [make_player(f"Player {i}", rank=-20 + 2 * i, since=date(2024, 1, 1)) for i in range(8)]
    start = threading.Barrier(CLIENTS)
    errors: list[BaseException] = []

    def client(number: int) -> None:
        try:
            start.wait()
            for s in range(SHEETS_EACH):
                # Late and out of order: each client goes back in time.
                day = date(2024, 6, 1) + timedelta(days=10 * (SHEETS_EACH - s) + number)
                rows = [
                    services.GameRow(
                        white=players[(number + g) % 8],
                        black=players[(number + g + 3) % 8],
                        winner="white" if (number + g + s) % 2 else "black",
                    )
                    for g in range(GAMES_PER_SHEET)
                ]
                services.save_sheet(club=club, date=day, rows=rows)
        except BaseException as error:
            errors.append(error)
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not errors, errors
    assert Game.objects.filter(club=club).count() == CLIENTS * SHEETS_EACH * GAMES_PER_SHEET
    club.rating_list.refresh_from_db()
    if club.rating_list.dirty_from is not None:  # a run gave way to another that was still finishing
        recompute.recompute_list(club.rating_list_id)
    club.rating_list.refresh_from_db()
    assert club.rating_list.dirty_from is None
    concurrent = stored_history(club, COLUMNS)
    cached = list(Player.objects.order_by("id").values_list("rank", "rating", "games_count"))
    assert len(concurrent) == 2 * Game.objects.filter(club=club).count()
    recompute.recompute_list(club.rating_list_id, full=True)
    assert stored_history(club, COLUMNS) == concurrent
    assert list(Player.objects.order_by("id").values_list("rank", "rating", "games_count")) == cached
