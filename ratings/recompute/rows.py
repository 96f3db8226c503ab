"""The history rows of a replayed ledger, in the form its database's
writer takes (sqlite.py, postgresql.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ratings.engine import base
from ratings.recompute.columns import Columns
from ratings.recompute.postgresql import binary_rows
from ratings.recompute.sqlite import sqlite_blocks


def history_rows(
    rating_list_id: int,
    system: str,
    columns: Columns,
    ledger: base.Ledger,
    offset: int,
    write_from: int = 0,
) -> Iterator[Any]:
    """The HistoryEntry rows of one system's ledger (whose event 0 is event
    ``offset`` of the timeline) for the events from ``write_from`` on: for
    PostgreSQL (Columns.binary) each row as a tuple of the binary COPY
    (bytes), for SQLite sqlite.Blocks of rows; an empty (NaN) slot gives no row.
    Built by zip over the ledger's columns: no Python code per row."""
    lo = max(offset, write_from)
    hi = offset + len(ledger)
    if lo >= hi:
        return iter(())
    if columns.binary:
        return binary_rows(rating_list_id, system, columns, ledger, lo - offset, hi - offset, offset)
    return sqlite_blocks(rating_list_id, system, columns, ledger, lo - offset, hi - offset, offset)
