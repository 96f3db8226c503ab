"""The run bookkeeping: a RecomputeRun row per list and run, the log
entries it rates (its causes), its outcome, the runs a dead process left,
and the list's dirty flag cleared."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import UTC, datetime, timedelta

from django.db.models import QuerySet, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from ratings import models as m

#: How long before the last finished run a log entry may be dated and still
#: be unrated: its transaction wrote it (``at``) before that run started
#: and committed after the run had read the timeline.  No save lasts an
#: hour; the bound keeps the claim a short read of the log's (list, at)
#: index, and keeps the log written before runs recorded their causes
#: from being claimed all at once.
CLAIM_GRACE = timedelta(hours=1)

#: Before any log entry.
_EVER = datetime(1970, 1, 1, tzinfo=UTC)

#: Causes written per INSERT.
CLAIM_BATCH = 2_000

_OUTCOME_FIELDS = ["status", "games_replayed", "rows_written", "error", "duration", "finished_at"]


def abandon_running(rating_list: m.RatingList) -> None:
    """Mark the list's runs still marked running as abandoned: the caller
    holds the list's lock, so they died with their process."""
    m.RecomputeRun.objects.filter(rating_list=rating_list, status=m.RecomputeRun.Status.RUNNING).update(
        status=m.RecomputeRun.Status.ABANDONED,
        finished_at=timezone.now(),
        error="The process running it died.",
    )


def unrated(rating_list_id: int) -> QuerySet[m.LogEntry]:
    """The list's log entries that no finished run has rated yet (a failed
    or abandoned run's causes are rated again by the next run), dated from
    CLAIM_GRACE before the last finished run's start."""
    entries = m.LogEntry.objects.filter(rating_list_id=rating_list_id).exclude(
        recompute_runs__status=m.RecomputeRun.Status.DONE
    )
    finished = m.RecomputeRun.objects.filter(rating_list_id=rating_list_id, status=m.RecomputeRun.Status.DONE)
    # In the same statement (a run reads it twice): no finished run, no bound.
    last = finished.order_by("-started_at").values("started_at")[:1]
    return entries.filter(at__gte=Coalesce(Subquery(last) - Value(CLAIM_GRACE), Value(_EVER)))


def claim_causes(run: m.RecomputeRun, ids: Iterable[int] | None = None) -> QuerySet[m.LogEntry]:
    """Record on ``run`` the log entries it rates, read before its replay
    reads the timeline: every entry it claims is in that timeline.  An
    entry committed later is the next run's (the generation it bumped
    makes one).  By ids, not model instances: the first run of a list
    filled by an import claims its whole log.  ``ids``: the ids of
    ``unrated(run.rating_list_id)`` when the caller has read them (a late
    game's run reads them with what they changed, ripple.Causes.read: one
    statement fewer)."""
    through = m.RecomputeRun.causes.through
    if ids is None:
        ids = unrated(run.rating_list_id).values_list("id", flat=True)
    through.objects.bulk_create(
        (through(recomputerun_id=run.pk, logentry_id=pk) for pk in ids), batch_size=CLAIM_BATCH
    )
    return m.LogEntry.objects.filter(recompute_runs=run)


@contextlib.contextmanager
def recorded(runs: Sequence[m.RecomputeRun]) -> Iterator[Callable[[], None]]:
    """Record the outcome of the work done in the block on ``runs``: done,
    or failed with the error (which is raised on); its duration and end.

    The block may call the function it is given inside its last write
    transaction: the runs are then saved as done in that transaction (a
    late game's run: one commit fewer), and as failed after it if it fails
    after all.  Otherwise they are saved when the block ends."""
    began = time.perf_counter()
    saved = False

    def done() -> None:
        nonlocal saved
        for run in runs:
            run.status = m.RecomputeRun.Status.DONE
        _save_outcome(runs, began)
        saved = True

    try:
        yield done
        for run in runs:
            run.status = m.RecomputeRun.Status.DONE
    except Exception as error:
        saved = False
        for run in runs:
            run.status = m.RecomputeRun.Status.FAILED
            run.error = f"{type(error).__name__}: {error}"
        raise
    finally:
        if not saved:
            _save_outcome(runs, began)


def _save_outcome(runs: Sequence[m.RecomputeRun], began: float) -> None:
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
