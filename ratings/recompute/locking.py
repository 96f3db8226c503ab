"""The list's recompute lock: one recompute of a list at a time, across
processes."""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
from collections.abc import Iterator

from django.db import transaction

#: Namespace of the PostgreSQL advisory locks ("RATE").
LOCK_NAMESPACE = 0x52415445

_memory_locks: dict[tuple[str, int], threading.Lock] = {}
_memory_locks_guard = threading.Lock()


@contextlib.contextmanager
def list_lock(rating_list_id: int) -> Iterator[bool]:
    """Try to take the list's recompute lock; yields whether it was taken.

    PostgreSQL: a session advisory lock (released by the server if the
    process dies).  SQLite: an flock on a file beside the database (released
    by the kernel if the process dies); an in-memory database (tests) is
    private to its process, so a process-wide lock is enough there.
    """
    conn = transaction.get_connection()
    if conn.vendor == "postgresql":
        with conn.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [LOCK_NAMESPACE, rating_list_id])
            taken = bool(cursor.fetchone()[0])
        try:
            yield taken
        finally:
            if taken:
                with contextlib.suppress(Exception), conn.cursor() as cursor:
                    cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [LOCK_NAMESPACE, rating_list_id])
        return
    name = str(conn.settings_dict["NAME"])
    if name == ":memory:" or "mode=memory" in name or not name:
        with _memory_locks_guard:
            lock = _memory_locks.setdefault((name, rating_list_id), threading.Lock())
        taken = lock.acquire(blocking=False)
        try:
            yield taken
        finally:
            if taken:
                lock.release()
        return
    fd = os.open(f"{name}.recompute-{rating_list_id}.lock", os.O_CREAT | os.O_RDWR, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
        else:
            yield True
    finally:
        os.close(fd)  # closing the descriptor releases the flock
