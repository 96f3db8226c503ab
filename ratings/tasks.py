"""Celery tasks of the ratings app: thin wrappers around ratings/recompute/.

They take ids, never model instances; the work (load, lock, record a run,
replay, write, record the outcome) is in :mod:`ratings.recompute`.  The
dependency goes one way: this module imports the recompute, which enqueues
these tasks by name (ratings/recompute/scheduling.py) and never imports
this module; ratings/apps.py imports it so that every process has them.

The recompute's work is also recorded in the database (the list's dirty
flag), so a message the broker cannot take is not lost work: the save that
asked for it succeeds, and the sweeper runs it: periodically, and each time a worker (re)connects
to the broker (ratings/worker_steps.py).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from celery import shared_task
from celery.contrib.django.task import DjangoTask
from celery.result import AsyncResult
from django.conf import settings
from django.db import OperationalError
from kombu.exceptions import OperationalError as BrokerError

from ratings import predictions, recompute
from ratings.archive import scheduled
from ratings.notices import mail

log = logging.getLogger(__name__)


class DirtyFlagTask(DjangoTask[Any, Any]):
    """A task whose pending work the database already records: when the
    broker cannot take the message, log it and leave the work to the
    sweeper instead of failing the request that enqueued it."""

    # The override returns None instead of a result when the broker is down:
    # Celery's stubs declare an AsyncResult and every option by name.
    def apply_async(  # type: ignore[override]
        self, args: tuple[Any, ...] | None = None, kwargs: dict[str, Any] | None = None, **options: Any
    ) -> AsyncResult[Any] | None:
        try:
            return super().apply_async(args, kwargs, **options)
        except BrokerError:
            log.warning("broker unavailable: %s%r left to the sweeper", self.name, tuple(args or ()))
            return None


@shared_task(
    base=DirtyFlagTask,
    bind=True,
    acks_late=True,
    autoretry_for=(OperationalError,),  # transient database errors only
    retry_backoff=5,
    retry_backoff_max=300,
    retry_jitter=True,
    max_retries=8,
)
def recompute_list_task(self: DirtyFlagTask, rating_list_id: int, full: bool = False) -> int | None:
    """Recompute one list; returns the recorded run's id (None: nothing to do)."""
    run = recompute.recompute_list(rating_list_id, full=full, trigger="celery")
    return run.pk if run is not None else None


@shared_task(base=DirtyFlagTask, acks_late=True)
def evaluate_list_task(rating_list_id: int, force: bool = False) -> int:
    """Which system predicts the list best, after a recompute
    (ratings/predictions.py); returns the number of games predicted.  A
    message the broker cannot take is lost: the next recompute schedules
    it again, and the page says when its figures were computed.  Returns 0
    without computing when the figures are not due (predictions.is_due),
    unless ``force`` (the committee's "Compute now")."""
    if not force and not predictions.is_due(rating_list_id):
        return 0
    return predictions.compute(rating_list_id).games


@shared_task(base=DirtyFlagTask, acks_late=True)
def notify_changes_task(rating_list_id: int, run_id: int) -> int:
    """E-mail the players who asked to hear of late changes to their results
    (ratings/notices/mail.py) after a recompute; returns how many were sent."""
    return mail.tell(rating_list_id, run_id)


@shared_task(base=DirtyFlagTask)
def sweep_dirty_lists() -> list[int]:
    """Periodic (Celery beat), and each time a worker connects to the
    broker (ratings/worker_steps.py): enqueue a recompute of every list
    still dirty (after a crash, a killed worker or a broker outage)."""
    return recompute.sweep()


@shared_task(acks_late=True)
def archive_lists_task() -> list[str]:
    """Periodic (Celery beat, when LIST_ARCHIVE_DIR is set): every list's
    archive into that folder, the newest LIST_ARCHIVE_KEEP of each kept
    (ratings/archive/scheduled.py)."""
    folder = Path(settings.LIST_ARCHIVE_DIR)
    return [str(path) for path in scheduled.archive_lists(folder, settings.LIST_ARCHIVE_KEEP)]
