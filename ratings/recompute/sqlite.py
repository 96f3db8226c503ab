"""Writing the history on SQLite: rows as blocks of multi-row INSERTs."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import chain, compress, islice
from operator import and_, eq, not_
from typing import Any

from django.db import transaction

from ratings import models as m
from ratings.engine import base
from ratings.recompute.columns import FLOAT_COLUMNS, Columns

#: Rows per INSERT statement on SQLite.
SQLITE_ROWS_PER_INSERT = 100
#: SQLite page cache of the recompute's connection, in KiB.
SQLITE_CACHE_KIB = 262_144


@dataclass
class Block:
    """SQLite: history rows that share their list, system, colour and kind
    (one slot of one system's chunk), written with those as literals in the
    INSERT, so each row binds only what varies: 10 values rather than 14
    (measured: 4.4-5.9 -> 3.2-3.5 us a row).  ``rows`` are (seq, date,
    player, game, opponent, 5 doubles) for games, (seq, date, player,
    adjustment, 5 doubles) for an adjustment."""

    rating_list_id: int
    system: str
    colour: str
    game: bool
    rows: Iterable[tuple[Any, ...]]

    def statement(self, quote: Callable[[str], str], table: str | None = None) -> tuple[str, str, int]:
        """INSERT ... VALUES (into ``table``, default the history), one
        row's VALUES tuple, and its parameters."""
        if not self.system.replace("-", "").replace("_", "").isalnum() or self.colour not in ("w", "b", ""):
            raise ValueError(f"not a literal: {self.system!r} {self.colour!r}")
        fixed = [str(int(self.rating_list_id)), f"'{self.system}'", f"'{self.colour}'"]
        if self.game:
            names = [
                "rating_list_id",
                "system",
                "colour",
                "adjustment_id",
                "seq",
                "date",
                "player_id",
                "game_id",
            ]
            names += ["opponent_id", *FLOAT_COLUMNS]
            fixed.append("NULL")
        else:
            names = [
                "rating_list_id",
                "system",
                "colour",
                "game_id",
                "opponent_id",
                "seq",
                "date",
                "player_id",
            ]
            names += ["adjustment_id", *FLOAT_COLUMNS]
            fixed += ["NULL", "NULL"]
        width = len(names) - len(fixed)
        insert = f"INSERT INTO {quote(table or m.HistoryEntry._meta.db_table)} ({', '.join(map(quote, names))}) VALUES "
        return insert, f"({', '.join(fixed + ['%s'] * width)})", width


def sqlite_blocks(
    rating_list_id: int,
    system: str,
    c: Columns,
    ledger: base.Ledger,
    lo: int,
    hi: int,
    offset: int,
) -> Iterator[Block]:
    """history_rows for SQLite: ledger events lo..hi (timeline events
    offset+lo..offset+hi) as _Blocks of tuples built by zip (no Python
    code per row)."""
    t_lo, t_hi = offset + lo, offset + hi
    seqs = c.seq[t_lo:t_hi]
    days = c.days[t_lo:t_hi]
    is_game = c.is_game[t_lo:t_hi]
    blocks = []
    for parity in (0, 1):
        change = ledger.change[2 * lo + parity : 2 * hi : 2]
        filled = list(map(eq, change, change))  # NaN != NaN: empty slots dropped
        floats = [getattr(ledger, name)[2 * lo + parity : 2 * hi : 2] for name in FLOAT_COLUMNS]
        player, opponent = (c.first, c.second) if parity == 0 else (c.second, c.first)
        games = zip(seqs, days, player[t_lo:t_hi], c.game[t_lo:t_hi], opponent[t_lo:t_hi], *floats)  # noqa: B905
        blocks.append(
            Block(rating_list_id, system, "wb"[parity], True, compress(games, map(and_, filled, is_game)))
        )
        if parity == 0 and not all(is_game):  # adjustments have only a first slot
            adjustments = zip(seqs, days, player[t_lo:t_hi], c.adjustment[t_lo:t_hi], *floats)  # noqa: B905
            mask = map(and_, filled, map(not_, is_game))
            blocks.append(Block(rating_list_id, system, "", False, compress(adjustments, mask)))
    return iter(blocks)


def insert_many(cursor: Any, insert: str, one: str, width: int, rows: Iterable[tuple[Any, ...]]) -> int:
    """SQLite: ``rows`` (``width`` parameters each) as INSERTs of
    SQLITE_ROWS_PER_INSERT rows (``insert`` + that many ``one``) in one
    executemany.  SQLite does some work per statement (the AUTOINCREMENT
    counter, the statement journal) that one row a statement paid per row
    (measured: 7.5 -> 4.2 us a row).  The rows are flattened straight into
    each statement's parameters.  Returns how many rows were written."""
    values = chain.from_iterable(rows)
    size = width * SQLITE_ROWS_PER_INSERT
    rest: tuple[Any, ...] = ()
    written = 0

    def statements() -> Iterator[tuple[Any, ...]]:
        nonlocal rest, written
        while len(params := tuple(islice(values, size))) == size:
            written += SQLITE_ROWS_PER_INSERT
            yield params
        rest = params

    cursor.executemany(insert + ", ".join([one] * SQLITE_ROWS_PER_INSERT), statements())
    if rest:
        cursor.executemany(insert + one, [rest[i : i + width] for i in range(0, len(rest), width)])
        written += len(rest) // width
    return written


def write_blocks(blocks: Iterable[Block], table: str | None = None) -> int:
    """Insert the history rows of ``blocks`` into ``table`` (default: the
    history) in the caller's transaction; returns how many rows were
    written."""
    conn = transaction.get_connection()
    written = 0
    with conn.cursor() as cursor:
        for block in blocks:
            insert, one, width = block.statement(conn.ops.quote_name, table)
            written += insert_many(cursor, insert, one, width, block.rows)
    return written


def tune_connection() -> None:
    """A page cache large enough for the history indexes, so a rewrite of
    millions of rows does not go to disk for every index page (measured:
    ~5x faster at 200,000 rows, see docs/recompute.md).  In the caller's
    transaction; nothing to do on other databases."""
    conn = transaction.get_connection()
    if conn.vendor == "sqlite":
        with conn.cursor() as cursor:
            cursor.execute(f"PRAGMA cache_size = -{SQLITE_CACHE_KIB}")
