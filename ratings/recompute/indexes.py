"""The history's secondary indexes, dropped before a large rewrite and
built again after it, in the same transaction."""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import date

from django.db import transaction

from ratings import models as m
from ratings.recompute.measure import timings

#: A rewrite drops the history's secondary indexes and builds them again
#: when it writes at least this many rows and at least 1/REBUILD_SHARE of
#: the rows that stay in the table (drop_indexes).
REBUILD_MIN_ROWS = 100_000
REBUILD_SHARE = 2


def drop_indexes(
    rating_list: m.RatingList,
    start: date | None,
    expected: int,
    min_rows: int = REBUILD_MIN_ROWS,
    share: int = REBUILD_SHARE,
) -> list[str]:
    """Drop the history's secondary indexes when about ``expected`` new rows
    are a large share of what the table will hold (at least ``min_rows``
    and at least 1/``share`` of the rows that stay);
    returns the statements that create them again.

    Why: each index costs 4-8 s per 2 million rows inserted in random key
    order, and building one afresh from the finished table (a sort) costs
    under a second (measured, docs/recompute.md).  The price: on
    PostgreSQL ``DROP INDEX`` takes an exclusive lock on the table until
    commit, so pages that read the history wait for the rest of the
    rewrite (a full recompute of a big list: seconds); on SQLite readers
    keep their snapshot and do not wait.  The primary key stays (ids are
    appended in order: cheap).
    """
    if expected < min_rows:
        return []
    stale = m.HistoryEntry.objects.filter(rating_list=rating_list)
    if start is not None:
        stale = stale.filter(date__gte=start)
    staying = m.HistoryEntry.objects.count() - stale.count()
    if expected * share < staying:
        return []
    return drop_secondary_indexes()


def drop_secondary_indexes() -> list[str]:
    """Drop every index and unique constraint of the history but its
    primary key, in the caller's transaction; returns the statements that
    create them again, as the database itself reports them."""
    conn = transaction.get_connection()
    table = m.HistoryEntry._meta.db_table
    quote = conn.ops.quote_name
    drop: list[str] = []
    create: list[str] = []
    with conn.cursor() as cursor:
        if conn.vendor == "postgresql":
            cursor.execute(
                "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
                "WHERE conrelid = %s::regclass AND contype = 'u' ORDER BY conname",
                [table],
            )
            for name, definition in cursor.fetchall():
                drop.append(f"ALTER TABLE {quote(table)} DROP CONSTRAINT {quote(name)}")
                create.append(f"ALTER TABLE {quote(table)} ADD CONSTRAINT {quote(name)} {definition}")
            cursor.execute(
                "SELECT indexrelid::regclass::text, pg_get_indexdef(indexrelid) FROM pg_index "
                "WHERE indrelid = %s::regclass AND NOT indisprimary AND indexrelid NOT IN "
                "(SELECT conindid FROM pg_constraint WHERE conrelid = %s::regclass) ORDER BY 1",
                [table, table],
            )
            for name, definition in cursor.fetchall():
                drop.append(f"DROP INDEX {name}")
                create.append(definition)
            # Room to sort in memory while building them again.
            cursor.execute("SET LOCAL maintenance_work_mem = '256MB'")
        else:
            cursor.execute(
                "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = %s "
                "AND sql IS NOT NULL ORDER BY name",
                [table],
            )
            for name, definition in cursor.fetchall():
                drop.append(f"DROP INDEX {quote(name)}")
                create.append(definition)
        for statement in drop:
            cursor.execute(statement)
    return create


def create_indexes(statements: Sequence[str]) -> None:
    """Run the statements drop_indexes returned (or StagedHistory.create),
    in the caller's transaction; the time goes to timings["index"]."""
    began = time.perf_counter()
    with transaction.get_connection().cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)
    timings["index"] += time.perf_counter() - began
