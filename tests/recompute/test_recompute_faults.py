"""Fault tests: a recompute that fails in the middle of its write (an
injected error, a killed process) leaves the previous history intact and the
club dirty; the next run brings it up to date."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterable
from datetime import date, timedelta
from pathlib import Path
from typing import Any, cast

import pytest

from ratings import recompute
from ratings.engine.base import InvalidEvent, RatingSystem
from ratings.models import Club, Game, RecomputeRun, RecordSheet
from tests.support import MakePlayer, stored_history, wait_until

REPO = Path(__file__).resolve().parent.parent.parent


#: The columns this file compares.
COLUMNS = ("system", "seq", "player_id", "game_id", "rank_after", "rating_after")


@pytest.mark.django_db
def test_an_error_in_the_middle_of_the_write_leaves_the_previous_history(
    club: Club, make_player: MakePlayer
) -> None:
    players = [make_player(f"P{i}", rank=-12 + i) for i in range(4)]
    sheet = RecordSheet.objects.create(club=club, date=date(2025, 5, 1))
    for n in range(12):
        Game.objects.create(
            club=club, sheet=sheet, date=date(2025, 5, 1) + timedelta(days=n), white=players[n % 4],
            black=players[(n + 1) % 4], winner="white" if n % 3 else "black",
        )  # fmt: skip
    recompute.recompute_list(club.rating_list_id, full=True)
    before = stored_history(club, COLUMNS)
    assert before, "the first run wrote a history"
    Game.objects.create(
        club=club, sheet=sheet, date=date(2025, 5, 3), white=players[3], black=players[0], winner="black"
    )
    recompute.mark_dirty(club.rating_list, date(2025, 5, 3))

    def write_half_then_fail(rows: Iterable[Any], table: str | None) -> int:
        recompute.write_history(list(rows)[:3], table)  # some rows are in the table...
        raise RuntimeError("disk full")  # ...when the write fails

    with pytest.raises(RuntimeError, match="disk full"):
        recompute.recompute_list(
            club.rating_list_id, options=recompute.Options(write_history=write_half_then_fail)
        )
    assert stored_history(club, COLUMNS) == before
    club.rating_list.refresh_from_db()
    assert club.rating_list.dirty_from == date(2025, 5, 3), "the club stays dirty"
    failed = RecomputeRun.objects.get(status="failed")
    assert "disk full" in failed.error

    assert recompute.recompute_list(club.rating_list_id) is not None  # the sweeper's or a retry's run
    club.rating_list.refresh_from_db()
    assert club.rating_list.dirty_from is None
    after = stored_history(club, COLUMNS)
    assert after != before
    recompute.recompute_list(club.rating_list_id, full=True)
    assert stored_history(club, COLUMNS) == after, "the next run gives the full replay"


@pytest.mark.django_db
def test_an_engine_error_names_the_game_and_keeps_the_club_dirty(club: Club, make_player: MakePlayer) -> None:
    alice, bob = make_player("Alice"), make_player("Bob")
    sheet = RecordSheet.objects.create(club=club, date=date(2025, 5, 1))
    game = Game.objects.create(
        club=club, sheet=sheet, date=date(2025, 5, 1), white=alice, black=bob, winner="white"
    )

    class Refusing:
        name, unit = "sagc", "index"

        def rate(self, events: Any, state: Any = None, starts: Any = None) -> None:
            raise InvalidEvent(len(events) - 1, "handicap", "out of range")

    recompute.mark_dirty(club.rating_list, game.date)
    with pytest.raises(
        recompute.RecomputeError, match=f"game {game.pk} of 2025-05-01: handicap: out of range"
    ):
        recompute.recompute_list(
            # A test double: only ``rate`` of the engine's protocol is ever called.
            club.rating_list_id,
            options=recompute.Options(system=lambda name: cast(RatingSystem, Refusing())),
        )
    club.rating_list.refresh_from_db()
    assert club.rating_list.dirty_from == date(2025, 5, 1)


# --- a killed worker process ----------------------------------------------------

HANG_IN_WRITE = """
import pathlib, signal
from datetime import date
from django.db import connection, transaction
from ratings import recompute
from ratings.models import Club, Game, Player
def hang(rows, table):
    n = recompute.write_history(rows, table)
    with connection.cursor() as cursor:  # the indexes as this transaction sees them
        cursor.execute("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL "
                       "AND tbl_name = 'ratings_historyentry'")
        indexes = cursor.fetchone()[0]
    pathlib.Path({flag!r}).write_text(f"{{n}} {{indexes}}")
    signal.pause()  # in the write, until the test kills this process
# {rebuild}: a small history counts as a large rewrite, the indexes are dropped
options = recompute.Options(write_history=hang, rebuild_min_rows=0 if {rebuild} else recompute.Options.rebuild_min_rows)
club = Club.objects.get()
white, black = Player.objects.filter(rating_list=club.rating_list).order_by("id")[:2]
first = Game.objects.filter(club=club).order_by("date").first()
with transaction.atomic():
    Game.objects.create(club=club, sheet=first.sheet, date=first.date, white=black, black=white, winner="black")
    recompute.mark_dirty(club.rating_list, first.date)  # enqueued for a worker (the broker: memory)
recompute.recompute_list(club.rating_list_id, trigger="commit", options=options)  # the worker's run
"""


def _manage(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}", "CELERY_BROKER_URL": ""}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=REPO, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip


def _rows(db: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT system, seq, player_id, game_id, rank_after, rating_after FROM ratings_historyentry "
            "ORDER BY system, seq, colour"
        ).fetchall()


def _indexes(db: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'ratings_historyentry' "
            "ORDER BY name"
        ).fetchall()


@pytest.mark.not_for_mutants
@pytest.mark.parametrize("rebuild", [False, True], ids=["writing-into-the-indexes", "indexes-dropped"])
def test_a_killed_worker_leaves_the_previous_history_and_the_next_run_finishes(
    tmp_path: Path, rebuild: bool
) -> None:
    db = tmp_path / "killed.sqlite3"
    _manage(db, "migrate", "--noinput", "-v0")
    _manage(db, "generate", "--games", "1500", "--players", "40", "--clubs", "1", "--seed", "4")
    _manage(db, "recompute", "--no-progress")
    before, indexes_before = _rows(db), _indexes(db)
    assert len(indexes_before) >= 3
    games_before = sqlite3.connect(db).execute("SELECT count(*) FROM ratings_game").fetchone()[0]

    flag = tmp_path / "in-the-write"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}", "CELERY_BROKER_URL": "memory://"}
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "shell", "-c", HANG_IN_WRITE.format(flag=str(flag), rebuild=rebuild)],
        cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
    )  # fmt: skip
    try:
        wait_until(
            lambda: (flag.exists() and " " in flag.read_text()) or worker.poll() is not None,
            120,
            "the recompute never reached its write",
        )
        assert worker.poll() is None, worker.stderr.read().decode() if worker.stderr else "worker died"
        written, indexes = map(int, flag.read_text().split())
        assert written > 0, "the killed run had written rows in its transaction"
        assert (indexes == 0) == rebuild, (
            "it was killed with the indexes dropped" if rebuild else "with indexes"
        )
    finally:
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait()

    assert _rows(db) == before, "the previous history is intact"
    assert _indexes(db) == indexes_before, "and so are its indexes"
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM ratings_game").fetchone()[0] == games_before + 1, (
            "no game lost"
        )
        assert conn.execute("SELECT dirty_from FROM ratings_ratinglist").fetchone()[0] is not None, (
            "still dirty"
        )
        assert (
            conn.execute("SELECT status FROM ratings_recomputerun ORDER BY id DESC").fetchone()[0]
            == "running"
        )

    _manage(db, "recompute", "--no-progress")  # the sweeper's run
    with sqlite3.connect(db) as conn:
        statuses = [s for (s,) in conn.execute("SELECT status FROM ratings_recomputerun ORDER BY id")]
        assert conn.execute("SELECT dirty_from FROM ratings_ratinglist").fetchone()[0] is None
    assert statuses[-2:] == ["abandoned", "done"]
    caught_up = _rows(db)
    assert caught_up != before
    _manage(db, "recompute", "--full", "--no-progress")
    assert _rows(db) == caught_up, "the run after the crash gives the full replay"
