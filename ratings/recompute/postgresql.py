"""Writing the history on PostgreSQL: rows as binary COPY tuples, and the
staging table that a federation's full recompute swaps in."""

from __future__ import annotations

import functools
import struct
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain, compress, islice, repeat, starmap
from operator import and_, eq, not_
from typing import Any

import orjson
from django.db import transaction

from ratings import models as m
from ratings.engine import base
from ratings.recompute.columns import HISTORY_COLUMNS, PG_EPOCH, Columns
from ratings.recompute.errors import RecomputeError
from ratings.recompute.sqlite import tune_connection

#: Rows per block written to PostgreSQL's COPY.
COPY_BLOCK = 20_000
#: PostgreSQL's binary COPY: signature, flags and header extension ...
COPY_HEADER = b"PGCOPY\n\xff\r\n\x00" + bytes(8)
#: ... and the end marker (a tuple of -1 fields).
COPY_TRAILER = b"\xff\xff"


#: A binary COPY field's length word: 4 (a date), 8 (a bigint or a double).
_FOUR, _EIGHT = struct.pack(">i", 4), struct.pack(">i", 8)
#: After a game row's game id: adjustment NULL, colour (its length, then
#: "w" or "b"), then the opponent's length word ...
_GAME_MIDDLES = tuple(struct.pack(">ii1si", -1, 1, colour, 8) for colour in (b"w", b"b"))
#: ... and after an adjustment row's player: game NULL, the adjustment's
#: length word; after its id: colour "" (length 0), opponent NULL.
_ADJUSTMENT_MIDDLES = (struct.pack(">ii", -1, 8), struct.pack(">ii", 0, -1))


@functools.cache
def _binary_formats(rating_list_id: int, system: str) -> tuple[bytes, struct.Struct, struct.Struct]:
    """The constant head of a binary COPY tuple of the list and system
    (field count, list, system, the seq's length word), and the tuple of a
    game's row and of an adjustment's (fields in the order of
    HISTORY_COLUMNS, each an int32 length and its bytes, -1 for NULL).  Every
    run of constant bytes between two values is passed as one ``s`` field
    (the head, a length word, the middles above): a row is 20 values packed
    rather than 30 (400,000 rows: 0.19-0.31 -> 0.15 s CPU, measured)."""
    name = system.encode()
    head = struct.pack(f">hiqi{len(name)}si", len(HISTORY_COLUMNS), 8, rating_list_id, len(name), name, 8)
    start = f">{len(head)}s q 4s i 4s q"  # head, seq, date, player
    floats = " 4s d" * 5
    game = struct.Struct(f"{start} 4s q {len(_GAME_MIDDLES[0])}s q{floats}")  # game, colour, opponent
    adjustment = struct.Struct(
        f"{start} {len(_ADJUSTMENT_MIDDLES[0])}s q {len(_ADJUSTMENT_MIDDLES[1])}s{floats}"
    )  # adjustment
    return head, game, adjustment


def binary_rows(
    rating_list_id: int,
    system: str,
    c: Columns,
    ledger: base.Ledger,
    lo: int,
    hi: int,
    offset: int,
) -> Iterator[bytes]:
    """history_rows for PostgreSQL's binary COPY: ledger events lo..hi
    (timeline events offset+lo..offset+hi), each row packed by one C call
    (struct), so there is no text to format here nor to parse in the
    server (measured, docs/recompute.md)."""
    head, game, adjustment = _binary_formats(rating_list_id, system)
    four, eight = repeat(_FOUR), repeat(_EIGHT)
    t_lo, t_hi = offset + lo, offset + hi
    start = (repeat(head), c.seq[t_lo:t_hi], four, c.days[t_lo:t_hi], eight)
    is_game = c.is_game[t_lo:t_hi]
    parts = []
    for parity in (0, 1):
        change = ledger.change[2 * lo + parity : 2 * hi : 2]
        filled = list(map(eq, change, change))  # NaN != NaN: empty slots dropped
        floats: list[Iterable[Any]] = []
        for column in (
            ledger.rank_before,
            ledger.rating_before,
            ledger.change,
            ledger.rank_after,
            ledger.rating_after,
        ):
            floats += [eight, column[2 * lo + parity : 2 * hi : 2]]
        player, opponent = (c.first, c.second) if parity == 0 else (c.second, c.first)
        games = zip(
            *start, player[t_lo:t_hi], eight, c.game[t_lo:t_hi], repeat(_GAME_MIDDLES[parity]),
            opponent[t_lo:t_hi], *floats,
        )  # fmt: skip
        parts.append(starmap(game.pack, compress(games, map(and_, filled, is_game))))
        if parity == 0 and not all(is_game):  # adjustments have only a first slot
            adjustments = zip(
                *start, player[t_lo:t_hi], repeat(_ADJUSTMENT_MIDDLES[0]), c.adjustment[t_lo:t_hi],
                repeat(_ADJUSTMENT_MIDDLES[1]), *floats,
            )  # fmt: skip
            parts.append(
                starmap(adjustment.pack, compress(adjustments, map(and_, filled, map(not_, is_game))))
            )
    return chain(*parts)


#: The checkpoints' columns, in the order of checkpoint_rows.
CHECKPOINT_COLUMNS = ("rating_list_id", "system", "date", "seq", "states", "games")


def checkpoint_rows(checkpoints: Iterable[m.RatingCheckpoint]) -> Iterator[bytes]:
    """The checkpoints as binary COPY tuples: jsonb as its version byte and
    the JSON text, so the server does not unescape a COPY text field
    first (a list of 200,000 games: 39 checkpoints, 5.5 MB of JSON; the
    server's CPU 0.35-0.37 -> 0.29-0.30 s, measured).  The JSON by orjson:
    a checkpoint of 1,317 players 0.08 ms instead of json.dumps' 1.2 ms;
    the full recompute at a million games 0.3-0.4 s less CPU (alternated
    runs, docs/recompute.md).  (It writes a NaN as null where json.dumps
    wrote NaN, which jsonb refused.)"""
    for cp in checkpoints:
        system = cp.system.encode()
        states, games = (b"\x01" + orjson.dumps(value) for value in (cp.states, cp.games))
        yield b"".join(
            (
                struct.pack(f">hiqi{len(system)}siiiq", len(CHECKPOINT_COLUMNS), 8, cp.rating_list.pk,
                            len(system), system, 4, cp.date.toordinal() - PG_EPOCH, 8, cp.seq),
                struct.pack(">i", len(states)), states, struct.pack(">i", len(games)), games,
            )
        )  # fmt: skip


def copy_binary(
    rows: Iterable[bytes], table: str | None = None, columns: Sequence[str] = HISTORY_COLUMNS
) -> int:
    """COPY rows of the binary format (binary_rows, checkpoint_rows) into
    ``table`` (default: the history) in blocks of COPY_BLOCK rows, in the
    caller's transaction, through psycopg's ``Cursor.copy``.  Returns how
    many rows were written."""
    conn = transaction.get_connection()
    quote = conn.ops.quote_name
    names = ", ".join(quote(col) for col in columns)
    target = quote(table or m.HistoryEntry._meta.db_table)
    iterator = iter(rows)
    written = 0
    with (
        conn.cursor() as cursor,
        cursor.copy(f"COPY {target} ({names}) FROM STDIN WITH (FORMAT binary)") as copy,
    ):
        copy.write(COPY_HEADER)
        while block := list(islice(iterator, COPY_BLOCK)):
            copy.write(b"".join(block))
            written += len(block)
        copy.write(COPY_TRAILER)
    return written


class StagedHistory:
    """recompute_all's history on PostgreSQL, written into a fresh table
    and swapped in at the end, in the caller's one transaction.

    begin() locks the history in EXCLUSIVE mode (readers go on reading the
    previous history; writers of history rows, such as a deleted game's
    cascade, wait until commit and then apply to the new table: PostgreSQL
    looks a waiting statement's table up again by name) and creates the
    staging table with the history's columns, defaults, checks and
    identity but no index, not even the primary key.  The caller COPYs the rows into it
    (write_history into ``target``) and builds the indexes (the statements in
    ``create``); swap() drops the old table and gives the staging table, its
    indexes, constraints and identity sequence the old names.  Readers
    wait only for swap() and the commit, not for the whole write, as
    DROP INDEX or TRUNCATE on the history itself made them (measured,
    docs/recompute.md).  A failure or a killed process rolls it all back:
    the staging table goes with the transaction.  With ``large`` false
    (a small federation) begin() does nothing and the caller writes into
    the history as it is.  (SQLite does not need this: its readers keep
    their snapshot of the previous history until the commit.)"""

    def __init__(self, large: bool) -> None:
        self.large = large
        self.conn = transaction.get_connection()
        self.table = m.HistoryEntry._meta.db_table
        self.staging = f"{self.table}_new"
        #: Statements that build the staging table's indexes (the caller
        #: runs them once its rows are written) ...
        self.create: list[str] = []
        #: ... and that give them the history's names after the swap.
        self.renames: list[str] = []
        #: Whether the rows go into the staging table (begin() made it).
        self.staged = False

    @property
    def target(self) -> str:
        """The table the rows are written into."""
        return self.staging if self.staged else self.table

    def begin(self) -> bool:
        """Lock the history and create the staging table; whether the
        rows go there (false: a small federation)."""
        tune_connection()
        if not self.large:
            return False
        quote = self.conn.ops.quote_name
        table, staging = quote(self.table), quote(self.staging)
        create = self.create
        with self.conn.cursor() as cursor:
            cursor.execute(f"LOCK TABLE {table} IN EXCLUSIVE MODE")
            cursor.execute(f"CREATE TABLE {staging} (LIKE {table} INCLUDING ALL EXCLUDING INDEXES)")
            self.staged = True
            cursor.execute(
                "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
                "WHERE conrelid = %s::regclass AND contype IN ('p', 'u') ORDER BY contype, conname",
                [self.table],
            )
            for name, definition in cursor.fetchall():
                # The primary key too is built after the rows: 2,000,000 rows
                # COPYed into it cost 0.9 s more of the server's CPU, building
                # it afterwards 0.5 s (measured).
                temporary = _temporary_name(name)
                create.append(f"ALTER TABLE {staging} ADD CONSTRAINT {quote(temporary)} {definition}")
                self.renames.append(
                    f"ALTER TABLE {table} RENAME CONSTRAINT {quote(temporary)} TO {quote(name)}"
                )
            cursor.execute(
                "SELECT c.relname, pg_get_indexdef(i.indexrelid) FROM pg_index i "
                "JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = %s::regclass "
                "AND i.indexrelid NOT IN (SELECT conindid FROM pg_constraint WHERE conrelid = %s::regclass) "
                "ORDER BY 1",
                [self.table, self.table],
            )
            for name, definition in cursor.fetchall():
                temporary = _temporary_name(name)
                head, on, rest = definition.partition(" ON ")
                if not head.endswith(f" INDEX {quote(name)}") and not head.endswith(f" INDEX {name}"):
                    raise RecomputeError(f"unexpected index definition: {definition}")
                head = head[: head.rindex(" INDEX ")] + f" INDEX {quote(temporary)}"
                _relation, using, columns = rest.partition(" USING ")
                create.append(f"{head}{on}{staging}{using}{columns}")
                self.renames.append(f"ALTER INDEX {quote(temporary)} RENAME TO {quote(name)}")
            cursor.execute("SELECT pg_get_serial_sequence(%s, 'id'), pg_get_serial_sequence(%s, 'id')",
                           [self.table, self.staging])  # fmt: skip
            old_sequence, new_sequence = cursor.fetchone()
            if old_sequence and new_sequence:
                name = old_sequence.rpartition(".")[2]
                self.renames.append(f"ALTER SEQUENCE {new_sequence} RENAME TO {name}")
            # Room to sort in memory while building the indexes.
            cursor.execute("SET LOCAL maintenance_work_mem = '256MB'")
        return True

    def swap(self) -> None:
        """The staging table, its indexes built, becomes the history."""
        if not self.staged:
            return
        quote = self.conn.ops.quote_name
        with self.conn.cursor() as cursor:
            cursor.execute(f"DROP TABLE {quote(self.table)}")
            cursor.execute(f"ALTER TABLE {quote(self.staging)} RENAME TO {quote(self.table)}")
            for statement in self.renames:
                cursor.execute(statement)
        self.staged = False


def _temporary_name(name: str) -> str:
    """A name for an index or constraint of the staging table while the
    history's own still holds ``name`` (PostgreSQL: at most 63 bytes)."""
    return f"{name[:59]}_new"
