"""The ripple of a run: which later results its causes (the games entered
late, corrected or deleted since the last run) changed, old and new.

After the replay and before the write, the stored history of the replayed
range is still the old one: each system's stored rows are compared with
the replayed ledger, a stretch of dates at a time, and every result that
exists on both sides and differs becomes a ResultChange, written in the
run's write transaction (record).  The causing games and adjustments are
not ripple; a result that only exists on one side (a game added or
deleted) is not a change of a result.  The comparison reads the history
under the list's lock, outside the write transaction, so the write (and on
SQLite its lock on writers) is not made longer by it.  A rewrite from a
date (a late game) replaces only the rows that changed (changed.py) and
takes the ripple from them instead (replaced): no stored row is read.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from itertools import chain, compress
from operator import eq
from typing import Any

from django.db import transaction
from django.db.models import Case, JSONField, QuerySet, When
from django.utils import timezone

from ratings import models as m
from ratings.engine import base
from ratings.recompute.changed import Replaced
from ratings.recompute.columns import Columns
from ratings.recompute.measure import timings
from ratings.recompute.replay import Rewrite
from ratings.recompute.timeline import period_start
from ratings.recompute.writing import copy_rows

#: Events compared at a time: the stored rows and replayed results of one
#: stretch are held as sets (about 250 bytes a row), so memory stays
#: bounded whatever the share of the history replayed.
STRETCH = 50_000

#: A result as compared: (player, game, adjustment) and the values the
#: record sheet shows (change, rating after, rank after).
Result = tuple[int, int | None, int | None, float, float, float]

_COLUMNS = (
    "rating_list_id", "run_id", "system", "player_id", "game_id", "adjustment_id", "date",
    "old_change", "new_change", "old_rating", "new_rating", "old_rank", "new_rank", "changed_at",
)  # fmt: skip


@dataclass(frozen=True)
class Causes:
    """What the run's log entries changed: these games and adjustments are
    the causes, not ripple; ``since`` is the earliest date they touched
    (None: no cause, no ripple to look for)."""

    games: frozenset[int]
    adjustments: frozenset[int]
    since: date | None

    @classmethod
    def of(cls, entries: QuerySet[m.LogEntry]) -> Causes:
        return cls.of_rows(cls.read(entries))

    @staticmethod
    def read(entries: QuerySet[m.LogEntry]) -> list[tuple[Any, ...]]:
        """(id, game, adjustment, event date, changes of a move) of each of
        ``entries``, in one statement: what of_rows needs, and the ids a
        run claims (runs.claim_causes), read together."""
        # A game moved later changed the ratings from its old date on: its
        # entry's changes, read in the same statement (only for a move).
        moved = Case(
            When(action=m.LogEntry.Action.EDIT, changes__has_key="date", then="changes"),
            default=None,
            output_field=JSONField(),
        )
        return list(
            entries.annotate(moved=moved).values_list("id", "game_id", "adjustment_id", "event_date", "moved")
        )

    @classmethod
    def of_rows(cls, rows: Sequence[tuple[Any, ...]]) -> Causes:
        """The causes of the entries' rows read by read()."""
        days = [day for _, _, _, day, _ in rows]
        for *_, changes in rows:
            old = changes["date"][0] if changes and isinstance(changes["date"], list) else None
            if isinstance(old, str):
                days.append(date.fromisoformat(old))
        return cls(
            frozenset(game for _, game, _, _, _ in rows if game is not None),
            frozenset(adjustment for _, _, adjustment, _, _ in rows if adjustment is not None),
            min(days, default=None),
        )

    def excluding(self, entries: QuerySet[m.LogEntry]) -> Causes:
        """These causes, also excluding the games and adjustments of
        ``entries`` from the ripple (entries committed after the run
        claimed its causes, whose changes its replay may hold)."""
        more = Causes.of(entries)
        return Causes(self.games | more.games, self.adjustments | more.adjustments, self.since)


def find(
    rewrite: Rewrite, run: m.RecomputeRun, causes: Causes, known: Mapping[date, date] | None = None
) -> list[tuple[Any, ...]]:
    """The ripple of ``causes`` in ``rewrite``, as rows of ResultChange
    (record writes them).  Only the replayed range is compared, from the
    earliest date a cause touched (its rating period's start), and only the
    systems the list computed before and computes now.  ``known``: rating
    periods' starts the run has already looked up (date -> period_start),
    most often the very date a late game's run started from."""
    if causes.since is None or not rewrite.ledgers:
        return []
    began = time.perf_counter()
    since = (known or {}).get(causes.since) or period_start(rewrite.rating_list, causes.since)
    if rewrite.start is not None:
        since = max(since, rewrite.start)
    columns = rewrite.columns
    first = columns.index_of(since)
    now = timezone.now()
    found: list[tuple[Any, ...]] = []
    for name, chunks in rewrite.ledgers:
        for lo, hi in _stretches(columns, first):
            old = set(_stored(rewrite.rating_list.pk, name, columns.day(lo), _end(columns, hi)))
            new = set(_replayed(columns, chunks, lo, hi))
            changed = new - old
            if not changed:
                continue
            before = {result[:3]: result for result in old - new}
            pairs = [
                (before[result[:3]], result)
                for result in changed
                if result[:3] in before
                and result[1] not in causes.games
                and result[2] not in causes.adjustments
            ]
            found += _rows(rewrite.rating_list.pk, run.pk, name, columns, lo, hi, pairs, now)
    timings["ripple"] += time.perf_counter() - began
    return found


def replaced(
    rewrite: Rewrite,
    run: m.RecomputeRun,
    causes: Causes,
    rows: Replaced,
    known: Mapping[date, date] | None = None,
) -> list[tuple[Any, ...]]:
    """The ripple of ``causes`` when the write replaced only the rows that
    changed (changed.apply): every result whose row was replaced, dated
    from the earliest date a cause touched, that is in both the deleted
    and the inserted rows with other values.  The same results find()
    gives, from the few replaced rows instead of the whole stored tail
    (a late game at 50 % of 200,000 games: about 2,000 rows instead of
    200,222, read in the same statements that replace them)."""
    if causes.since is None or not rewrite.ledgers or rewrite.start is None:
        return []
    began = time.perf_counter()
    conn = transaction.get_connection()
    since = (known or {}).get(causes.since) or period_start(rewrite.rating_list, causes.since)
    since = conn.ops.adapt_datefield_value(max(since, rewrite.start))
    old = {row[:4]: row[5:] for row in rows.deleted if conn.ops.adapt_datefield_value(row[4]) >= since}
    stamp = conn.ops.adapt_datetimefield_value(timezone.now())
    found = []
    for system, player, game, adjustment, day, *new in sorted(rows.inserted, key=_order):
        before = old.get((system, player, game, adjustment))
        if before is None or tuple(new) == before or game in causes.games or adjustment in causes.adjustments:
            continue
        if conn.ops.adapt_datefield_value(day) < since:
            continue
        found.append((
            rewrite.rating_list.pk, run.pk, system, player, game, adjustment, conn.ops.adapt_datefield_value(day),
            before[0], new[0], before[1], new[1], before[2], new[2], stamp,
        ))  # fmt: skip
    timings["ripple"] += time.perf_counter() - began
    return found


def _order(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """Rows by system, player, game, adjustment (as find() records them)."""
    return (row[0], row[1], row[2] or 0, row[3] or 0)


def record(rows: Sequence[tuple[Any, ...]]) -> int:
    """Write the ripple's rows (find) in the caller's transaction: the
    run's write, so a run that fails records none."""
    if not rows:
        return 0
    return copy_rows(m.ResultChange._meta.db_table, _COLUMNS, rows)


def _stretches(columns: Columns, first: int) -> Iterator[tuple[int, int]]:
    """Event ranges from ``first`` of about STRETCH events, cut where the
    date changes: a result keeps its date unless its game is a cause, so
    both sides of a stretch hold the same results."""
    days, n = columns.days, len(columns.days)
    lo = first
    while lo < n:
        hi = min(lo + STRETCH, n)
        while hi < n and days[hi] == days[hi - 1]:
            hi += 1
        yield lo, hi
        lo = hi


def _end(columns: Columns, hi: int) -> date | None:
    return columns.day(hi) if hi < len(columns.days) else None


def _stored(rating_list_id: int, system: str, start: date, end: date | None) -> list[Result]:
    """The stored results of ``system`` dated from ``start`` (to before
    ``end``), by the history's (list, system, date) index."""
    conn = transaction.get_connection()
    quote = conn.ops.quote_name
    table = quote(m.HistoryEntry._meta.db_table)
    columns = ", ".join(
        quote(c) for c in ("player_id", "game_id", "adjustment_id", "change", "rating_after", "rank_after")
    )
    sql = f"SELECT {columns} FROM {table} WHERE {quote('rating_list_id')} = %s AND {quote('system')} = %s"
    sql += f" AND {quote('date')} >= %s"
    params: list[Any] = [rating_list_id, system, conn.ops.adapt_datefield_value(start)]
    if end is not None:
        sql += f" AND {quote('date')} < %s"
        params.append(conn.ops.adapt_datefield_value(end))
    with conn.cursor() as cursor:
        cursor.execute(sql, params)
        stored: list[Result] = cursor.fetchall()
    return stored


def _replayed(
    columns: Columns, chunks: Sequence[tuple[int, base.Ledger]], lo: int, hi: int
) -> Iterator[Result]:
    """The replayed results of events lo..hi, built by zip over the
    ledger's columns (no Python code per result); empty slots dropped."""
    parts = []
    for offset, ledger in chunks:
        a, b = max(lo, offset), min(hi, offset + len(ledger))
        if a >= b:
            continue
        for parity, players in ((0, columns.first), (1, columns.second)):
            slots = slice(2 * (a - offset) + parity, 2 * (b - offset), 2)
            change = ledger.change[slots]
            results = zip(  # noqa: B905 (every column has b - a items)
                players[a:b],
                columns.game[a:b],
                columns.adjustment[a:b],
                change,
                ledger.rating_after[slots],
                ledger.rank_after[slots],
            )
            parts.append(compress(results, map(eq, change, change)))  # NaN != NaN
    return chain.from_iterable(parts)


def _rows(
    rating_list_id: int,
    run_id: int,
    system: str,
    columns: Columns,
    lo: int,
    hi: int,
    pairs: Sequence[tuple[Result, Result]],
    now: Any,
) -> list[tuple[Any, ...]]:
    """ResultChange rows of (old, new) pairs, dated from the timeline."""
    if not pairs:
        return []
    conn = transaction.get_connection()
    events = range(lo, hi)
    games = dict(zip(columns.game[lo:hi], events, strict=True))
    adjustments = dict(zip(columns.adjustment[lo:hi], events, strict=True))
    stamp = conn.ops.adapt_datetimefield_value(now)
    rows = []
    for old, new in sorted(pairs, key=lambda pair: (pair[1][0], pair[1][1] or 0, pair[1][2] or 0)):
        player, game, adjustment, change, rating, rank = new
        event = games[game] if game is not None else adjustments[adjustment]
        day = conn.ops.adapt_datefield_value(columns.day(event))
        values = (old[3], change, old[4], rating, old[5], rank)
        rows.append((rating_list_id, run_id, system, player, game, adjustment, day, *values, stamp))
    return rows
