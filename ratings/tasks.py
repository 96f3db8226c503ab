"""Celery tasks of the ratings app: thin wrappers around ratings/recompute.py.

They take ids, never model instances; the work (load, lock, record a run,
replay, write, record the outcome) is in :mod:`ratings.recompute`.
"""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from ratings import recompute


@shared_task(
    bind=True,
    acks_late=True,
    autoretry_for=(OperationalError,),  # transient database errors only
    retry_backoff=5,
    retry_backoff_max=300,
    retry_jitter=True,
    max_retries=8,
)
def recompute_club_task(self, club_id: int, full: bool = False) -> int | None:  # type: ignore[no-untyped-def]
    """Recompute one club; returns the recorded run's id (None: nothing to do)."""
    run = recompute.recompute_club(club_id, full=full, trigger="celery")
    return run.pk if run is not None else None


@shared_task
def sweep_dirty_clubs() -> list[int]:
    """Periodic (Celery beat): enqueue a recompute of every club still dirty."""
    return recompute.sweep()
