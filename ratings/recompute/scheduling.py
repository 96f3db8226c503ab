"""Scheduling: mark a list dirty in the caller's transaction, arrange its
recompute for after the commit, sweep the lists still dirty, and tell the
pages which lists are being updated.

With a broker the recompute is a Celery task, found by its name in the
Celery app's registry (ratings/tasks.py defines it and imports this
package; this package never imports the task module).  Without a broker it
runs in this process after the commit."""

from __future__ import annotations

import functools
import logging
from datetime import date
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.db.models import Case, F, Min, Value, When
from django.utils.formats import date_format

from ratings import models as m
from ratings.recompute.orchestration import recompute_list

log = logging.getLogger(__name__)

#: The Celery task that recomputes a list by id (ratings/tasks.py).
RECOMPUTE_TASK = "ratings.tasks.recompute_list_task"


def mark_dirty(rating_list: m.RatingList | int, from_date: date) -> None:
    """Mark ``list`` stale from ``from_date`` in the caller's transaction.

    ``dirty_from`` becomes min(dirty_from, from_date) and the generation is
    bumped, both in one UPDATE so concurrent callers never lose a date.  The
    recompute is arranged for after commit; a burst of late entries coalesces
    into one run from the earliest date (the run finds nothing to do once an
    earlier one has caught up).
    """
    rating_list_id = rating_list if isinstance(rating_list, int) else rating_list.pk
    m.RatingList.objects.filter(pk=rating_list_id).update(
        dirty_from=Case(
            When(dirty_from__isnull=True, then=Value(from_date)),
            When(dirty_from__gt=from_date, then=Value(from_date)),
            default=F("dirty_from"),
        ),
        dirty_generation=F("dirty_generation") + 1,
    )
    schedule(rating_list_id)


def schedule(rating_list_id: int) -> None:
    """Arrange the recompute of ``rating_list_id`` for after the caller's commit.

    With a broker, Celery's ``delay_on_commit`` hands the list's id to a
    worker; a broker that cannot take it (down, unreachable) is logged and
    the list stays dirty, so the save still succeeds and the sweeper (or
    the next worker start) runs it.  Without a broker the recompute runs
    in-process after commit.  Several calls in one transaction enqueue
    several tasks: they coalesce, since a run that finds the list's
    generation already clean does nothing.  A rolled-back transaction takes
    its callbacks with it.
    """
    if settings.CELERY_BROKER_URL:
        recompute_task().delay_on_commit(rating_list_id)
    else:
        transaction.on_commit(functools.partial(_recompute_in_process, rating_list_id, "commit"))


def recompute_task() -> Any:
    """The recompute task, from the Celery app's registry by name."""
    return current_app.tasks[RECOMPUTE_TASK]


def _recompute_in_process(rating_list_id: int, trigger: str) -> None:
    try:
        recompute_list(rating_list_id, trigger=trigger)
    except Exception:
        # The list stays dirty; the page that saved must not fail
        # because the ratings could not be brought up to date.
        log.exception("recompute of list %s failed; it stays dirty", rating_list_id)


def enqueue(rating_list_id: int, trigger: str = "commit") -> None:
    """Run the recompute now (no broker) or hand it to a Celery worker."""
    if settings.CELERY_BROKER_URL:
        recompute_task().delay(rating_list_id)
    else:
        _recompute_in_process(rating_list_id, trigger)


def sweep() -> list[int]:
    """Recompute (or enqueue) every list still dirty: the periodic sweeper
    that finishes the job after a crash or a lost task."""
    dirty = list(m.RatingList.objects.filter(dirty_from__isnull=False).values_list("id", flat=True))
    for rating_list_id in dirty:
        enqueue(rating_list_id, trigger="sweeper")
    return dirty


def first_event_date(rating_list: m.RatingList) -> date | None:
    """The date of the list's first game or adjustment (None: nothing yet)."""
    days = [
        m.Game.objects.filter(rating_list=rating_list).aggregate(first=Min("date"))["first"],
        m.RankAdjustment.objects.filter(rating_list=rating_list).aggregate(first=Min("date"))["first"],
    ]
    return min((d for d in days if d is not None), default=None)


def pending_notices() -> list[str]:
    """One sentence per list whose ratings are being updated (one query)."""
    rows = m.RatingList.objects.filter(dirty_from__isnull=False).values_list("name", "dirty_from")
    return [
        f"Ratings after {date_format(day, 'j F Y')} are being updated for {name}."
        for name, day in rows
        if day is not None  # the filter's promise, spelt out for the type checker
    ]
