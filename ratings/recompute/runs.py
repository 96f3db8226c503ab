"""The run bookkeeping: a RecomputeRun row per list and run, its outcome,
the runs a dead process left, and the list's dirty flag cleared."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator, Sequence

from django.utils import timezone

from ratings import models as m

_OUTCOME_FIELDS = ["status", "games_replayed", "rows_written", "error", "duration", "finished_at"]


def abandon_running(rating_list: m.RatingList) -> None:
    """Mark the list's runs still marked running as abandoned: the caller
    holds the list's lock, so they died with their process."""
    m.RecomputeRun.objects.filter(rating_list=rating_list, status=m.RecomputeRun.Status.RUNNING).update(
        status=m.RecomputeRun.Status.ABANDONED,
        finished_at=timezone.now(),
        error="The process running it died.",
    )


@contextlib.contextmanager
def recorded(runs: Sequence[m.RecomputeRun]) -> Iterator[None]:
    """Record the outcome of the work done in the block on ``runs``: done,
    or failed with the error (which is raised on); its duration and end."""
    began = time.perf_counter()
    try:
        yield
        for run in runs:
            run.status = m.RecomputeRun.Status.DONE
    except Exception as error:
        for run in runs:
            run.status = m.RecomputeRun.Status.FAILED
            run.error = f"{type(error).__name__}: {error}"
        raise
    finally:
        took = time.perf_counter() - began
        for run in runs:
            run.duration = took
            run.finished_at = timezone.now()
            run.save(update_fields=_OUTCOME_FIELDS)


def mark_clean(rating_list_id: int, generation: int) -> None:
    """Clean the list unless more work arrived while the run ran (then it
    stays dirty from its date and the loop in recompute_list runs again)."""
    updated = m.RatingList.objects.filter(pk=rating_list_id, dirty_generation=generation).update(
        dirty_from=None, clean_generation=generation
    )
    if not updated:
        m.RatingList.objects.filter(pk=rating_list_id).update(clean_generation=generation)
