"""recompute_all on PostgreSQL writes each replayed club from a writer
thread while the next club is replayed (docs/recompute.md, "The
federation's full recompute").  A replay that fails while the writer is
still writing an earlier club must wait for it, then roll every club back;
the connection stays usable.  (On SQLite the same calls run one after the
other, and the test checks the same outcome.)"""

from __future__ import annotations

import threading
import time
from datetime import date, timedelta

import pytest
from django.db import connection

from ratings import recompute
from ratings.models import Club, Game, HistoryEntry, RatingList, RecomputeRun, RecordSheet
from tests.conftest import make_pool

COLUMNS = (
    "system",
    "seq",
    "date",
    "player_id",
    "opponent_id",
    "game_id",
    "colour",
    "rank_after",
    "rating_after",
)


def history(club: Club) -> list[tuple[object, ...]]:
    return list(
        HistoryEntry.objects.filter(rating_list=club.rating_list).order_by("system", "seq", "colour").values_list(*COLUMNS)
    )


@pytest.fixture
def three_clubs(club, make_player):  # type: ignore[no-untyped-def]
    clubs = [club]
    clubs += [make_pool(name=f"Club {n}", slug=f"club-{n}", primary_system="egf") for n in (2, 3)]
    for each in clubs:
        players = [make_player(f"{each.slug} P{i}", rank=-12 + i, club=each) for i in range(5)]
        sheet = RecordSheet.objects.create(club=each, date=date(2025, 2, 1))
        for n in range(20):
            Game.objects.create(
                club=each, sheet=sheet, date=date(2025, 2, 1) + timedelta(days=n // 4), white=players[n % 5],
                black=players[(n + 2) % 5], winner="black" if n % 3 else "white",
            )  # fmt: skip
    return clubs


@pytest.mark.django_db
def test_a_replay_failing_while_an_earlier_club_is_written_rolls_every_club_back(three_clubs, monkeypatch):
    monkeypatch.setattr(recompute, "REBUILD_MIN_ROWS", 0)  # the indexes are dropped too
    for each in three_clubs:
        recompute.recompute_list(each.rating_list_id, full=True)
    before = [history(each) for each in three_clubs]
    assert all(before)
    RatingList.objects.filter(pk=three_clubs[1].rating_list_id).update(dirty_from=date(2025, 2, 1), dirty_generation=7)

    writing, written = threading.Event(), threading.Event()
    writers: set[str] = set()
    real_write, real_replay = recompute.write_history, recompute._replay

    def slow_write(rows):  # type: ignore[no-untyped-def]
        writers.add(threading.current_thread().name)
        writing.set()
        time.sleep(0.3)  # still writing the first club when the second replay fails
        try:
            return real_write(rows)
        finally:
            written.set()

    replays: list[int] = []

    def replay_failing_on_the_second_club(*args, **kwargs):  # type: ignore[no-untyped-def]
        replays.append(1)
        if len(replays) == 2:
            if connection.vendor == "postgresql":
                assert writing.wait(5), "the writer thread writes the first club meanwhile"
            raise RuntimeError("engine broke")
        return real_replay(*args, **kwargs)

    monkeypatch.setattr(recompute, "write_history", slow_write)
    monkeypatch.setattr(recompute, "_replay", replay_failing_on_the_second_club)
    with pytest.raises(RuntimeError, match="engine broke"):
        recompute.recompute_all(trigger="command")

    assert written.is_set() or not writing.is_set(), "the writer had finished before the rollback"
    if connection.vendor == "postgresql":
        assert writers and threading.current_thread().name not in writers, "written from the writer thread"
    time.sleep(0.5)  # nothing is written after the rollback either
    assert [history(each) for each in three_clubs] == before, "every club as it was"
    assert set(RecomputeRun.objects.filter(trigger="command").values_list("status", flat=True)) == {"failed"}
    assert RatingList.objects.get(pk=three_clubs[1].rating_list_id).dirty_from == date(2025, 2, 1), "the dirty club stays dirty"

    monkeypatch.setattr(recompute, "_replay", real_replay)
    monkeypatch.setattr(recompute, "write_history", real_write)
    runs = recompute.recompute_all(trigger="retry")  # the connection is usable; the retry succeeds
    assert [run.status for run in runs] == ["done"] * 3
    assert [history(each) for each in three_clubs] == before


@pytest.mark.django_db
def test_on_postgresql_readers_of_the_history_wait_only_for_the_swap(three_clubs, monkeypatch):
    """recompute_all writes the federation into a staging table that
    replaces the history at the end: while it writes, another session
    reads the history without waiting (TRUNCATE or DROP INDEX would have
    locked it until commit), and afterwards the table has its indexes,
    constraints and identity sequence under their own names."""
    if connection.vendor != "postgresql":
        pytest.skip("the staging table is PostgreSQL's (SQLite readers keep their snapshot)")
    import psycopg

    for each in three_clubs:  # small rewrites, into the indexes (a DROP INDEX would lock
        recompute.recompute_list(each.rating_list_id, full=True)  # the table until the test's transaction ends)
    before = [history(each) for each in three_clubs]
    table = HistoryEntry._meta.db_table
    monkeypatch.setattr(recompute, "REBUILD_MIN_ROWS", 0)  # recompute_all: a large rewrite, staged

    def shape() -> tuple[object, ...]:
        with connection.cursor() as cursor:
            found = connection.introspection.get_constraints(cursor, table)
            cursor.execute("SELECT pg_get_serial_sequence(%s, 'id')", [table])
            sequence = cursor.fetchone()[0]
        return sequence, {name: (tuple(info["columns"]), info["unique"]) for name, info in found.items()}

    shape_before = shape()
    settings = connection.settings_dict
    other = psycopg.connect(
        dbname=settings["NAME"], user=settings["USER"], host=settings["HOST"] or None,
        port=settings["PORT"] or None, password=settings["PASSWORD"] or None, autocommit=True,
    )  # fmt: skip
    other.execute("SET lock_timeout = '3s'")
    reads: list[int] = []
    real_write = recompute.write_history

    def write_and_read_meanwhile(rows):  # type: ignore[no-untyped-def]
        written = real_write(rows)
        # Another session reads while this transaction is still writing.
        reads.append(other.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
        return written

    monkeypatch.setattr(recompute, "write_history", write_and_read_meanwhile)
    try:
        runs = recompute.recompute_all(trigger="command")
    finally:
        other.close()
        monkeypatch.setattr(recompute, "write_history", real_write)
    assert len(reads) == 3, "each club's write let the other session read the history"
    assert [run.status for run in runs] == ["done"] * 3
    assert [history(each) for each in three_clubs] == before
    assert shape() == shape_before, "the same indexes, constraints and sequence, by name"
    with connection.cursor() as cursor:
        cursor.execute("SELECT to_regclass(%s)", [f"{table}_new"])
        assert cursor.fetchone()[0] is None, "no staging table left behind"
    # The identity sequence still numbers new rows: a later recompute appends.
    RatingList.objects.filter(pk=three_clubs[0].rating_list_id).update(dirty_from=date(2025, 2, 3), dirty_generation=9)
    assert recompute.recompute_list(three_clubs[0].rating_list_id) is not None
    assert history(three_clubs[0]) == before[0]
