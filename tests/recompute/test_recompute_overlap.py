"""recompute_all writes every club in one transaction (docs/recompute.md,
"The federation's full recompute"); on PostgreSQL a replay thread replays
the next club while this thread writes the previous one (SQLite: every
club is replayed first).  A replay that fails on the second club leaves
every club as it was and the connection usable.  On PostgreSQL a large
federation is written into a staging table swapped in at the end, so
readers wait only for the swap."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from datetime import date, timedelta
from typing import Any, cast

import pytest
from django.db import connection

from ratings import recompute
from ratings.engine import get_system
from ratings.engine.base import RatingSystem, Result
from ratings.models import Club, Game, HistoryEntry, RatingList, RecomputeRun, RecordSheet
from tests.support import MakePlayer, make_pool, stored_history

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


@pytest.fixture
def three_clubs(club: Club, make_player: MakePlayer) -> list[Club]:
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


class BreaksOn:
    """A rating system that delegates to the real one but breaks on the
    events of one club (an engine bug that only that club's games hit);
    records the threads it rated in."""

    def __init__(self, name: str, club_slug: str, threads: set[str]) -> None:
        self.real, self.club_slug, self.threads = get_system(name), club_slug, threads

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self.real, attribute)

    def rate(self, events: Any, state: Any = None, starts: Any = None) -> Result:
        self.threads.add(threading.current_thread().name)
        if any(getattr(event, "club", None) == self.club_slug for event in events):
            raise RuntimeError("engine broke")
        return self.real.rate(events, state=state, starts=starts)


@pytest.mark.django_db
def test_a_replay_failing_on_the_second_club_rolls_every_club_back(three_clubs: list[Club]) -> None:
    large = recompute.Options(rebuild_min_rows=0)  # the indexes are dropped too
    for each in three_clubs:
        recompute.recompute_list(each.rating_list_id, full=True, options=large)
    before = [stored_history(each, COLUMNS) for each in three_clubs]
    assert all(before)
    RatingList.objects.filter(pk=three_clubs[1].rating_list_id).update(
        dirty_from=date(2025, 2, 1), dirty_generation=7
    )
    writers: list[str] = []
    replayers: set[str] = set()

    def recorded_write(rows: Iterable[Any], table: str | None) -> int:
        writers.append(threading.current_thread().name)
        return recompute.write_history(rows, table)

    breaking = recompute.Options(
        rebuild_min_rows=0,
        write_history=recorded_write,
        # A test double: it delegates everything but ``rate`` to the real system.
        system=lambda name: cast(RatingSystem, BreaksOn(name, three_clubs[1].slug, replayers)),
    )
    with pytest.raises(RuntimeError, match="engine broke"):
        recompute.recompute_all(trigger="command", options=breaking)

    here = threading.current_thread().name
    if connection.vendor == "postgresql":
        assert writers == [here], "the first club was written, in this thread, while the next was replayed"
        assert replayers and here not in replayers, "the replays ran in the replay thread"
    else:
        assert writers == [] and replayers == {here}, "every club is replayed before anything is written"
    assert [stored_history(each, COLUMNS) for each in three_clubs] == before, "every club as it was"
    assert set(RecomputeRun.objects.filter(trigger="command").values_list("status", flat=True)) == {"failed"}
    assert RatingList.objects.get(pk=three_clubs[1].rating_list_id).dirty_from == date(2025, 2, 1), (
        "the dirty club stays dirty"
    )

    runs = recompute.recompute_all(
        trigger="retry", options=large
    )  # the connection is usable; the retry succeeds
    assert [run.status for run in runs] == ["done"] * 3
    assert [stored_history(each, COLUMNS) for each in three_clubs] == before


@pytest.mark.postgresql
@pytest.mark.django_db
def test_on_postgresql_readers_of_the_history_wait_only_for_the_swap(three_clubs: list[Club]) -> None:
    """recompute_all writes the federation into a staging table that
    replaces the history at the end: while it writes, another session
    reads the history without waiting (TRUNCATE or DROP INDEX would have
    locked it until commit), and afterwards the table has its indexes,
    constraints and identity sequence under their own names."""
    import psycopg

    for each in three_clubs:  # small rewrites, into the indexes (a DROP INDEX would lock
        recompute.recompute_list(
            each.rating_list_id, full=True
        )  # the table until the test's transaction ends)
    before = [stored_history(each, COLUMNS) for each in three_clubs]
    table = HistoryEntry._meta.db_table

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

    def write_and_read_meanwhile(rows: Iterable[Any], target: str | None) -> int:
        written = recompute.write_history(rows, target)
        # Another session reads while this transaction is still writing.
        counted = other.execute(f"SELECT count(*) FROM {table}").fetchone()
        assert counted is not None
        reads.append(counted[0])
        return written

    # recompute_all: a large rewrite, staged
    staged = recompute.Options(rebuild_min_rows=0, write_history=write_and_read_meanwhile)
    try:
        runs = recompute.recompute_all(trigger="command", options=staged)
    finally:
        other.close()
    assert len(reads) == 3, "each club's write let the other session read the history"
    assert [run.status for run in runs] == ["done"] * 3
    assert [stored_history(each, COLUMNS) for each in three_clubs] == before
    assert shape() == shape_before, "the same indexes, constraints and sequence, by name"
    with connection.cursor() as cursor:
        cursor.execute("SELECT to_regclass(%s)", [f"{table}_new"])
        assert cursor.fetchone()[0] is None, "no staging table left behind"
    # The identity sequence still numbers new rows: a later recompute appends.
    RatingList.objects.filter(pk=three_clubs[0].rating_list_id).update(
        dirty_from=date(2025, 2, 3), dirty_generation=9
    )
    assert recompute.recompute_list(three_clubs[0].rating_list_id) is not None
    assert stored_history(three_clubs[0], COLUMNS) == before[0]
