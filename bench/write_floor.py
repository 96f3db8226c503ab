"""The write floor of the federation's full recompute on PostgreSQL
(bench/recompute.py measures it in the same run, issue 28).

The floor is what writing the recompute's rows would cost if nothing else
had to be done: the history's rows, as the recompute left them, COPYed in
binary into a bare table of the same columns (the history's own staging
table, ``postgresql.StagedHistory``: columns, defaults, identity, no index)
and the history's indexes and constraints built on it, in one transaction
that is rolled back.  The rows are first dumped by ``COPY ... TO STDOUT``
into a temporary file (not timed), so the timed COPY sends the bytes the
recompute would send, in its order (by id), with no Python code per row.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

#: Bytes read from the dump and written to the COPY at a time.
CHUNK = 1 << 20


@dataclass(frozen=True)
class Floor:
    """The floor's figures: rows, wall seconds of the COPY and of the index
    builds, CPU seconds of this process and of the server."""

    rows: int
    copy: float
    indexes: float
    cpu: float  # this process
    server: float | None  # the server's CPU (None: not local)

    @property
    def wall(self) -> float:
        return self.copy + self.indexes


def write_floor(connection: Any, server_cpu: Callable[[], float] | None) -> Floor:
    """Time the binary COPY of the history's rows into a bare table of the
    same columns, then the history's index builds on it; roll it back."""
    from django.db import transaction

    from ratings.models import HistoryEntry
    from ratings.recompute.columns import HISTORY_COLUMNS
    from ratings.recompute.postgresql import StagedHistory

    quote = connection.ops.quote_name
    names = ", ".join(quote(column) for column in HISTORY_COLUMNS)
    table = quote(HistoryEntry._meta.db_table)
    with tempfile.TemporaryFile() as dump:
        with connection.cursor() as cursor:
            with cursor.copy(
                f"COPY (SELECT {names} FROM {table} ORDER BY id) TO STDOUT (FORMAT binary)"
            ) as out:
                for block in out:
                    dump.write(block)
            cursor.execute(f"SELECT count(*) FROM {table}")
            rows = cursor.fetchone()[0]
        dump.seek(0)
        clock = time.perf_counter
        server_before = server_cpu() if server_cpu else 0.0
        cpu = time.process_time()
        with transaction.atomic():
            staging = StagedHistory(large=True)
            staging.begin()
            began = clock()
            with connection.cursor() as cursor:
                target = quote(staging.target)
                with cursor.copy(f"COPY {target} ({names}) FROM STDIN WITH (FORMAT binary)") as into:
                    # The dump is a whole binary COPY (header, rows, trailer).
                    while chunk := dump.read(CHUNK):
                        into.write(chunk)
                copied = clock()
                for statement in staging.create:
                    cursor.execute(statement)
                built = clock()
            transaction.set_rollback(True)
        cpu = time.process_time() - cpu
        server = server_cpu() - server_before if server_cpu else None
    return Floor(rows, copied - began, built - copied, cpu, server)
