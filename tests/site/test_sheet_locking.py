"""Saving a record sheet locks its players, first and in primary-key order
(services.sheets: two sheets saved at once, or a sheet and the recompute,
queue instead of deadlocking).  Issue 29: on SQLite no test can see a row
lock, so this runs on PostgreSQL only (deselected on SQLite, with a count),
and watches the save from a second connection.

The second connection locks the middle player of the sheet; the save, in a
thread, waits for that row.  While it waits: it must hold the players with
lower ids (locked before, in key order), none with higher ids (not yet), and
must not have touched the games table (the players come first)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import date
from typing import Any

import psycopg
import pytest
from django.db import connection
from django.db.models import F
from pytest_django import Settings

from ratings import services
from ratings.models import Club, Game, Player
from ratings.services import GameRow
from tests.support import MakePlayer, wait_until

pytestmark = [pytest.mark.postgresql, pytest.mark.django_db(transaction=True)]


def _params() -> dict[str, Any]:
    """How to connect to the test database, for a connection of our own."""
    params = connection.get_connection_params()
    return {k: v for k, v in params.items() if k not in ("cursor_factory", "context")}


@pytest.fixture
def second_connection() -> Iterator[psycopg.Connection[Any]]:
    """A connection of its own to the test database (not Django's)."""
    with psycopg.connect(**_params()) as other:
        yield other


def _players(make_player: MakePlayer) -> list[Player]:
    """Five players named in the reverse of their ids (the model's default
    order is by name); the two of lowest id updated afterwards, so that
    their rows now lie after the others in the table (a plain scan meets
    them last): only an explicit ORDER BY id locks them first."""
    players = [make_player(f"Locked {5 - i}", rank=-10 - i) for i in range(5)]
    Player.objects.filter(pk__in=[players[0].pk, players[1].pk]).update(rank=F("rank"))
    return sorted(players, key=lambda p: p.pk)


def test_a_sheet_locks_its_players_first_and_in_key_order(
    club: Club, make_player: MakePlayer, second_connection: psycopg.Connection[Any], settings: Settings
) -> None:
    settings.CELERY_BROKER_URL = ""
    players = _players(make_player)
    ids = [p.pk for p in players]
    low, middle, high = ids[:2], ids[2], ids[3:]
    table, games_table = Player._meta.db_table, Game._meta.db_table
    # Rows that name the players in an order other than their ids.
    rows = [
        GameRow(white=players[4], black=players[0], winner="white"),
        GameRow(white=players[2], black=players[3], winner="black"),
        GameRow(white=players[1], black=players[4], winner="white"),
    ]

    holder = second_connection
    holder.execute(f"SELECT id FROM {table} WHERE id = %s FOR UPDATE", [middle])
    holder_pid = holder.info.backend_pid
    failures: list[BaseException] = []

    def save() -> None:
        try:
            services.save_sheet(club=club, date=date(2025, 4, 1), rows=rows)
        except BaseException as error:  # reported by the test below
            failures.append(error)
        finally:
            connection.close()

    saver = threading.Thread(target=save)
    saver.start()
    try:
        with psycopg.connect(**_params(), autocommit=True) as watcher:

            def waiting_pid() -> int | None:
                row = watcher.execute(
                    "SELECT pid FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))", [holder_pid]
                ).fetchone()
                return None if row is None else int(row[0])

            saver_pid = wait_until(waiting_pid, 30, "the save waiting for the locked player")
            # Which players can another transaction lock now?  The rows the
            # save holds are skipped (and so is the middle one, held here).
            with watcher.transaction():
                free = [
                    row[0]
                    for row in watcher.execute(
                        f"SELECT id FROM {table} WHERE id = ANY(%s) ORDER BY id FOR NO KEY UPDATE SKIP LOCKED",
                        [ids],
                    )
                ]
                # Unlock at once: the save must not meet this transaction's locks.
                raise psycopg.Rollback()
            touched = watcher.execute(
                "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation "
                "WHERE l.pid = %s AND c.relname = %s AND l.mode = 'RowExclusiveLock'",
                [saver_pid, games_table],
            ).fetchone()
    finally:
        holder.rollback()
        saver.join(30)
    assert not failures, failures
    assert free == high, f"the save holds {sorted(set(ids) - set(free) - {middle})}, should hold {low}"
    assert touched == (0,), "the save wrote to the games before it had locked every player"
    assert Game.objects.filter(club=club).count() == 3, "once unlocked, the save went through"
