"""What the runs of this process spent their time on, and the garbage
collector paused while a run builds millions of objects."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

#: Seconds spent in each step by the runs of this process (bench/recompute.py
#: reports them; "engine" is the rating systems' own time, "load" reading
#: the timeline, "write" the transaction that rewrites the history,
#: "ripple" comparing the stored results with the replayed ones).
timings: dict[str, float] = {"load": 0.0, "engine": 0.0, "write": 0.0, "index": 0.0, "ripple": 0.0}


def time_write(took: float, locked: bool, locked_for: float | None = None) -> None:
    """Count a write transaction of ``took`` seconds; ``locked``: it locked
    the history against readers on PostgreSQL, for ``locked_for`` seconds
    at its end or else for all of it."""
    timings["write"] += took
    if locked:  # how long pages reading the history waited, on PostgreSQL
        waited = took if locked_for is None else locked_for
        timings["longest locked write"] = max(timings.get("longest locked write", 0.0), waited)


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic garbage collector off while a recompute builds millions of
    objects (events, rows) that make no cycles, or a game's explanation
    thousands: each collection walks every object still alive, which grows
    with the federation (a million games: the read alone 16.7 -> 11.5 s
    CPU, measured).  Refcounting still frees everything; the collector is
    restored afterwards."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
