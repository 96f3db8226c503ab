"""The ratings update: mark a list dirty, recompute its history, tell the
pages.  The process, step by step, and the module of each step:
README.md in this package.

This package is the public API; callers import from here.

May import: ratings.engine, ratings.models.
"""

from ratings.recompute.errors import RecomputeBusy, RecomputeError
from ratings.recompute.locking import list_lock
from ratings.recompute.measure import gc_paused, timings
from ratings.recompute.orchestration import Options, recompute_all, recompute_list
from ratings.recompute.replay import (
    CHECKPOINT_EVERY,
    cached_system,
    checkpoint_state,
    checkpoints_at,
    list_systems,
    resume_date,
)
from ratings.recompute.scheduling import (
    enqueue,
    first_event_date,
    mark_dirty,
    pending_notices,
    schedule,
    sweep,
)
from ratings.recompute.stored import earlier_states, states_before
from ratings.recompute.timeline import (
    Timeline,
    load_timeline,
    period_bounds,
    period_end,
    period_start,
    sheet_events,
)
from ratings.recompute.writing import copy_rows, write_history

__all__ = [
    "CHECKPOINT_EVERY",
    "Options",
    "RecomputeBusy",
    "RecomputeError",
    "Timeline",
    "cached_system",
    "checkpoint_state",
    "checkpoints_at",
    "copy_rows",
    "earlier_states",
    "enqueue",
    "first_event_date",
    "gc_paused",
    "list_lock",
    "list_systems",
    "load_timeline",
    "mark_dirty",
    "pending_notices",
    "period_bounds",
    "period_end",
    "period_start",
    "recompute_all",
    "recompute_list",
    "resume_date",
    "schedule",
    "sheet_events",
    "states_before",
    "sweep",
    "timings",
    "write_history",
]
