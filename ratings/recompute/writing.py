"""Writing one replayed list in the caller's transaction: the stale
history and checkpoints out, the new rows, checkpoints and players' cached
values in.  The rows go to their database's writer (sqlite.py,
postgresql.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import date
from itertools import chain
from typing import Any

import orjson
from django.db import transaction
from django.db.models import Q

from ratings import models as m
from ratings.engine import SYSTEM_NAMES
from ratings.recompute import changed
from ratings.recompute.players import update_players
from ratings.recompute.postgresql import CHECKPOINT_COLUMNS, checkpoint_rows, copy_binary
from ratings.recompute.replay import Rewrite
from ratings.recompute.sqlite import Block, insert_many, write_blocks

#: A writer of history rows (write_history's signature): the rows, the
#: table they go into (None: the history), returns how many were written.
WriteHistory = Callable[[Iterable[Any], str | None], int]


def write_history(rows: Iterable[Any], table: str | None = None) -> int:
    """Insert history rows (see rows.history_rows) in bulk into ``table``
    (default: the history): rows of binary COPY (bytes, PostgreSQL) go to
    one ``COPY ... (FORMAT binary)`` as blocks; sqlite.Blocks to multi-row
    INSERTs.  Returns how many rows were written."""
    iterator = iter(rows)
    head = next(iterator, None)
    if head is None:
        return 0
    rows = chain([head], iterator)
    if isinstance(head, Block):
        return write_blocks(rows, table)
    return copy_binary(rows, table)


def copy_rows(table: str, columns: Sequence[str], rows: Iterable[tuple[Any, ...]]) -> int:
    """Insert rows in bulk: COPY on PostgreSQL (psycopg 3), elsewhere
    (SQLite; dates as ISO text) INSERTs of sqlite.SQLITE_ROWS_PER_INSERT
    rows each in one executemany.  Returns how many rows were written.
    Runs in the caller's transaction."""
    conn = transaction.get_connection()
    quote = conn.ops.quote_name
    names = ", ".join(quote(c) for c in columns)
    written = 0
    with conn.cursor() as cursor:
        if conn.vendor == "postgresql":
            with cursor.copy(f"COPY {quote(table)} ({names}) FROM STDIN") as copy:
                write_row = copy.write_row
                for row in rows:
                    write_row(row)
                    written += 1
            return written
        one = f"({', '.join(['%s'] * len(columns))})"
        written = insert_many(
            cursor, f"INSERT INTO {quote(table)} ({names}) VALUES ", one, len(columns), rows
        )
    return written


def rewrite_list(
    rewrite: Rewrite,
    run: m.RecomputeRun,
    *,
    emptied: bool = False,
    table: str | None = None,
    write: WriteHistory = write_history,
    only_changed: bool = False,
) -> changed.Replaced | None:
    """Delete the stale history and checkpoints of one list and write the
    new ones, in the caller's transaction (``emptied``: the caller has
    emptied the whole history already, empty_history; ``table``: where the
    history rows go, default the history; ``write``: the writer of the
    rows; ``only_changed``: a rewrite from a date replaces only the rows
    whose values changed, changed.py, and returns them)."""
    rating_list, start, resume = rewrite.rating_list, rewrite.start, rewrite.resume
    computed = sorted({name for name, _ in rewrite.systems})
    only_changed = only_changed and start is not None and not emptied and table is None
    if start is None and not emptied:
        _delete_history(rating_list.pk, None, None)
    elif not emptied:
        # All rows of the systems the list no longer computes (one
        # statement: usually none), and the tail of every system it
        # computes, by the (list, system, date) index.
        _delete_history(rating_list.pk, [name for name in SYSTEM_NAMES if name not in computed], None)
        for name in [] if only_changed else computed:
            _delete_history(rating_list.pk, [name], start)
    replaced = None
    if only_changed:
        assert start is not None  # only_changed needs a start
        write(rewrite.rows(), changed.stage())
        replaced = changed.apply(rating_list.pk, computed, start)
        run.rows_written = len(replaced.inserted)
    else:
        run.rows_written = write(rewrite.rows(), table)
    stale_checkpoints = m.RatingCheckpoint.objects.filter(rating_list=rating_list)
    if resume is not None:
        # Those after the resume, and every one of a system the list no
        # longer computes: its rows are gone, so a later run that finds the
        # system ticked again must replay it whole, not resume it.
        stale_checkpoints = stale_checkpoints.filter(Q(date__gt=resume) | ~Q(system__in=computed))
    stale_checkpoints.delete()
    _write_checkpoints(rewrite.checkpoints)
    if rewrite.systems:
        update_players(rating_list, rewrite.final_state, rewrite.final_games)
    return replaced


def _delete_history(rating_list_id: int, systems: Sequence[str] | None, start: date | None) -> None:
    """Delete the list's history rows (of ``systems``, dated ``start`` or
    later when given) with one plain DELETE: no signals or cascades hang
    off history rows, and the ORM's delete() would first read every id."""
    conn = transaction.get_connection()
    quote = conn.ops.quote_name
    sql = f"DELETE FROM {quote(m.HistoryEntry._meta.db_table)} WHERE {quote('rating_list_id')} = %s"
    params: list[Any] = [rating_list_id]
    if systems is not None:
        if not systems:
            return
        sql += f" AND {quote('system')} IN ({', '.join(['%s'] * len(systems))})"
        params += systems
    if start is not None:
        sql += f" AND {quote('date')} >= %s"
        params.append(conn.ops.adapt_datefield_value(start))
    with conn.cursor() as cursor:
        cursor.execute(sql, params)


def empty_history() -> None:
    """Empty the whole history in the caller's transaction: TRUNCATE on
    PostgreSQL (a DELETE of 2,000,000 rows took 2.8 s and left them all as
    dead rows for VACUUM; TRUNCATE 20 ms), on SQLite a DELETE without WHERE
    (its truncate optimisation).  Both roll back with the transaction;
    TRUNCATE locks the table against readers until commit, as DROP INDEX
    already does for a large rewrite."""
    conn = transaction.get_connection()
    table = conn.ops.quote_name(m.HistoryEntry._meta.db_table)
    with conn.cursor() as cursor:
        cursor.execute(f"TRUNCATE {table}" if conn.vendor == "postgresql" else f"DELETE FROM {table}")


def _write_checkpoints(checkpoints: Sequence[m.RatingCheckpoint]) -> None:
    """Insert the checkpoints by binary COPY (PostgreSQL,
    postgresql.checkpoint_rows) or as JSON text by executemany (SQLite).
    Not bulk_create: on PostgreSQL it sends each column as an array
    (UNNEST), and escaping every quote of the states' JSON as an array
    element cost seconds at a million games (profiled)."""
    if transaction.get_connection().vendor == "postgresql":
        copy_binary(checkpoint_rows(checkpoints), m.RatingCheckpoint._meta.db_table, CHECKPOINT_COLUMNS)
        return
    rows = (
        (
            cp.rating_list.pk,
            cp.system,
            cp.date.isoformat(),
            cp.seq,
            orjson.dumps(cp.states).decode(),
            orjson.dumps(cp.games).decode(),
        )
        for cp in checkpoints
    )
    copy_rows(m.RatingCheckpoint._meta.db_table, CHECKPOINT_COLUMNS, rows)
