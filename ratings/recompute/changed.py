"""A late game's rewrite: only the history rows whose values changed.

A late game changes a few later results (its ripple), not the hundreds of
thousands of rows after it: at 50 % of a list of 200,000 games, 1,012
results of 200,222 rows (docs/recompute.md, "Writing only what changed").
Since ``seq`` is sparse (columns.event_seqs), a row that did not change is
the very same row before and after.  So the new rows of the tail go into a
temporary table and are compared with the stored tail on the server: every
stored row with no identical new row is deleted, every new row with no
identical stored row is inserted.  The unchanged rows (and their index
entries) stay as they are.  All in the caller's transaction: a failure
rolls back the deletes and inserts.

PostgreSQL pairs the two sides in one pass, a full join on the key
(player, system, seq) that returns only the pairs that differ (the stored
row's id, the new row's ctid in the temporary table), then deletes and
inserts those by id and ctid: one hash of the tail instead of two (a
DELETE anti-joined on every column, an INSERT anti-joined on the key), at
50 % of 200,000 games 0.20-0.28 s of the server's time instead of
0.37-0.40 s (measured, docs/recompute.md).  SQLite keeps the two
statements (a full join needs SQLite 3.39; not measured there).
(Comparing on the client instead, the stored tail read back by a binary
COPY and compared as bytes, cost this process as much CPU as it saved the
server: measured, not kept.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db import transaction

from ratings import models as m
from ratings.recompute.columns import HISTORY_COLUMNS

#: The temporary table of the new rows (this connection's own).
STAGE = "recompute_new_tail"
#: The columns that may be NULL: compared NULL-safe.
_NULLABLE = frozenset({"game_id", "adjustment_id", "opponent_id"})
#: A row's key: the history_unique_row constraint.
_KEY = ("player_id", "system", "seq")
#: PostgreSQL's planner settings for apply's join (_pair_on_key).
_PLANNER = {"work_mem": "64MB", "enable_nestloop": "off", "enable_mergejoin": "off"}


def stage() -> str:
    """Create the (empty) temporary table of the new rows, with the
    history's columns but no id and no index; returns its name."""
    conn = transaction.get_connection()
    quote = conn.ops.quote_name
    names = ", ".join(map(quote, HISTORY_COLUMNS))
    # A write that fails rolls the CREATE back on PostgreSQL (apply drops
    # the stage when it is done); on SQLite a stage may be left by a
    # failed write: dropped here first.
    with conn.cursor() as cursor:
        if conn.vendor != "postgresql":
            cursor.execute(f"DROP TABLE IF EXISTS {quote(STAGE)}")
        cursor.execute(
            f"CREATE TEMPORARY TABLE {quote(STAGE)} AS SELECT {names} "
            f"FROM {quote(m.HistoryEntry._meta.db_table)} WHERE 1 = 0"
        )
    return STAGE


@dataclass(frozen=True)
class Replaced:
    """The rows apply replaced: those deleted and those inserted, each as
    a Result (what the ripple compares, ripple.replaced)."""

    deleted: list[Result]
    inserted: list[Result]


#: A row as apply returns it: system, player, game, adjustment, date, and
#: the values the record sheet shows (change, rating after, rank after).
Result = tuple[Any, ...]
_RESULT = ("system", "player_id", "game_id", "adjustment_id", "date", "change", "rating_after", "rank_after")


@dataclass(frozen=True)
class _Parts:
    """The parts of apply's statements, built once per call: the quoted
    tables, the history's columns and the RETURNING clause."""

    quote: Callable[[str], str]
    history: str
    staged: str
    names: str
    returning: str

    @classmethod
    def of(cls, conn: Any) -> _Parts:
        quote = conn.ops.quote_name
        return cls(
            quote,
            quote(m.HistoryEntry._meta.db_table),
            quote(STAGE),
            ", ".join(map(quote, HISTORY_COLUMNS)),
            " RETURNING " + ", ".join(map(quote, _RESULT)),
        )


def apply(rating_list_id: int, systems: Sequence[str], start: date) -> Replaced:
    """Make the list's stored rows of ``systems`` dated ``start`` or later
    equal to the staged rows (stage, then the rows written into it):
    delete the stored rows that differ or are gone, insert the staged rows
    not stored.  Returns the rows deleted and inserted (a few in a hundred:
    RETURNING gives the ripple its old and new results without reading
    the tail); drops the stage.  PostgreSQL pairs the two sides on the key
    (_pair_on_key), SQLite compares every column (_compare_every_column)."""
    conn = transaction.get_connection()
    parts = _Parts.of(conn)
    with conn.cursor() as cursor:
        if conn.vendor != "postgresql":
            deleted, inserted = _compare_every_column(
                cursor, parts, rating_list_id, systems, conn.ops.adapt_datefield_value(start)
            )
            cursor.execute(f"DROP TABLE {parts.staged}")
            return Replaced(deleted, inserted)
        # The hash of the tail in memory (200,000 rows: 4 batches written to
        # disk and read back at the default 4 MB).  A temporary table has no
        # statistics: without them (or with those of one column) the
        # planner took the staged rows for a few and scanned them for every
        # stored row (minutes at 200,000), or sorted both sides for a merge
        # join (0.6 s).  A hash join, then; cheaper than ANALYZE (0.1-0.3 s,
        # measured).  Set for the transaction in one statement, which also
        # reads the values they replace (put back below, in one statement too).
        cursor.execute(
            "SELECT " + ", ".join("current_setting(%s)" for _ in _PLANNER)
            + ", " + ", ".join("set_config(%s, %s, true)" for _ in _PLANNER),
            [*_PLANNER, *(x for pair in _PLANNER.items() for x in pair)],
        )  # fmt: skip
        previous = list(cursor.fetchone()[: len(_PLANNER)])
        deleted, inserted = _pair_on_key(cursor, parts, rating_list_id, systems, start)
        cursor.execute(f"DROP TABLE {parts.staged}")
        # The rest of the transaction (the players' ranks) planned as usual.
        cursor.execute(
            "SELECT " + ", ".join("set_config(%s, %s, true)" for _ in _PLANNER),
            [x for pair in zip(_PLANNER, previous, strict=True) for x in pair],
        )
    return Replaced(deleted, inserted)


def _compare_every_column(
    cursor: Any, parts: _Parts, rating_list_id: int, systems: Sequence[str], start: Any
) -> tuple[list[Result], list[Result]]:
    """apply() on SQLite (``start`` as the database stores dates): per
    system, a DELETE of every stored row of the tail with no identical
    staged row (every column compared, NULL-safe where it may be NULL), by
    the (list, system, date) index; then one INSERT of every staged row
    whose key is no longer stored.  Returns the rows deleted and inserted."""
    quote, history, staged = parts.quote, parts.history, parts.staged
    same = " AND ".join(
        f"s.{quote(c)} {'IS' if c in _NULLABLE else '='} h.{quote(c)}"
        for c in (*_KEY, *(c for c in HISTORY_COLUMNS if c not in _KEY))
    )
    same_key = " AND ".join(f"h.{quote(c)} = s.{quote(c)}" for c in _KEY)
    deleted: list[Result] = []
    for system in systems:
        cursor.execute(
            f"DELETE FROM {history} AS h WHERE h.{quote('rating_list_id')} = %s "
            f"AND h.{quote('system')} = %s AND h.{quote('date')} >= %s "
            f"AND NOT EXISTS (SELECT 1 FROM {staged} AS s WHERE {same}){parts.returning}",
            [rating_list_id, system, start],
        )
        deleted += cursor.fetchall()
    # What is left of the stored tail is identical to its staged row.
    # Compared with the tail (by the (list, date) columns) rather than the
    # whole history: one pass over the tail, not a probe of the unique
    # index for every staged row.
    cursor.execute(
        f"INSERT INTO {history} ({parts.names}) SELECT {parts.names} FROM {staged} AS s "
        f"WHERE NOT EXISTS (SELECT 1 FROM {history} AS h WHERE h.{quote('rating_list_id')} = %s "
        f"AND h.{quote('date')} >= %s AND {same_key}){parts.returning}",
        [rating_list_id, start],
    )
    inserted: list[Result] = cursor.fetchall()
    return deleted, inserted


def _pair_on_key(
    cursor: Any, parts: _Parts, rating_list_id: int, systems: Sequence[str], start: date
) -> tuple[list[Result], list[Result]]:
    """apply() on PostgreSQL: one full join of the stored tail (by the
    (list, system, date) index) and the staged rows on the key returns the
    pairs that differ: a stored row with no new row or other values (its
    id), a new row with no stored row or other values (its ctid, the
    temporary table's own row address: nothing updates or moves it before
    the stage is dropped).  Then a DELETE by the primary key and an INSERT
    by ctid (a TID scan), each of those few rows.  The key's columns are
    equal by the join; the others are compared with ``<>``, or NULL-safe
    where they may be NULL (a row missing on one side is caught first, by
    its id or ctid being NULL).  Returns the rows deleted and inserted."""
    quote, history, staged = parts.quote, parts.history, parts.staged
    on_key = " AND ".join(f"h.{quote(c)} = s.{quote(c)}" for c in _KEY)
    differ = " OR ".join(
        f"s.{quote(c)} {'IS DISTINCT FROM' if c in _NULLABLE else '<>'} h.{quote(c)}"
        for c in HISTORY_COLUMNS
        if c not in _KEY
    )
    cursor.execute(
        f"SELECT h.id, s.ctid FROM (SELECT * FROM {history} WHERE {quote('rating_list_id')} = %s "
        f"AND {quote('system')} = ANY(%s) AND {quote('date')} >= %s) AS h "
        f"FULL JOIN {staged} AS s ON {on_key} WHERE h.id IS NULL OR s.ctid IS NULL OR {differ}",
        [rating_list_id, list(systems), start],
    )
    pairs = cursor.fetchall()
    deleted: list[Result] = []
    inserted: list[Result] = []
    if gone := [stored for stored, _ in pairs if stored is not None]:
        cursor.execute(f"DELETE FROM {history} WHERE id = ANY(%s){parts.returning}", [gone])
        deleted = cursor.fetchall()
    if new := [row for _, row in pairs if row is not None]:
        cursor.execute(
            f"INSERT INTO {history} ({parts.names}) SELECT {parts.names} FROM {staged} "
            f"WHERE ctid = ANY(%s::tid[]){parts.returning}",
            [new],
        )
        inserted = cursor.fetchall()
    return deleted, inserted
