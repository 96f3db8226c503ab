"""Which system predicts a list's results best, for the site.

The pure work is in :mod:`ratings.evaluation`; this module is its Django
edge:

* :func:`compute` evaluates a list's whole timeline with the list's systems
  and stores the tables, the calibration bins and the fitted curves in its
  :class:`~ratings.models.ListEvaluation`;
* :func:`schedule` runs it after a recompute that left the list clean (on the
  recompute's ``list_recomputed`` signal; a Celery task with a broker, in
  process without one), so the committee's
  page reads stored figures: at 100,000 games the evaluation takes far too
  long for a request (docs/evaluation.md, "The committee's page");
* :func:`curve` gives the curve a system's probabilities use (the stored
  one, else the prior's mean) and :func:`standing` a player's standing in
  a system before a date: what entry (ratings/entry/improbable.py) and the
  handicap advice (ratings/evaluation/advice.py) need.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Hashable
from dataclasses import asdict, dataclass
from datetime import date

from celery import current_app
from django.conf import settings
from django.dispatch import receiver
from django.utils import timezone

from ratings import models as m
from ratings.engine import get_system
from ratings.engine.base import WHITE, Game, Start, Winner
from ratings.evaluation.fit import PRIOR, LogisticCurve
from ratings.evaluation.metrics import calibration
from ratings.evaluation.predict import PERIOD_SYSTEMS, evaluate
from ratings.evaluation.report import summary
from ratings.recompute import load_timeline
from ratings.recompute.signals import list_recomputed

log = logging.getLogger(__name__)

#: The Celery task that runs :func:`compute` (ratings/tasks.py).
EVALUATE_TASK = "ratings.tasks.evaluate_list_task"

#: Bands of the calibration chart: tenths of P(White wins).
CALIBRATION_BINS = 10


def is_due(rating_list_id: int) -> bool:
    """Whether the list's figures are worth computing after a recompute: the
    list is clean (a dirty list has a recompute coming, which schedules its
    own evaluation) and its figures are not of this generation already.
    Evaluations queued behind a burst of saves so coalesce into one."""
    rating_list = (
        m.RatingList.objects.filter(pk=rating_list_id).only("dirty_from", "clean_generation").first()
    )
    if rating_list is None or rating_list.dirty_from is not None:
        return False
    done = (
        m.ListEvaluation.objects.filter(rating_list_id=rating_list_id)
        .values_list("generation", flat=True)
        .first()
    )
    return done != rating_list.clean_generation


def compute(rating_list_id: int) -> m.ListEvaluation:
    """Evaluate the list's games with its systems and store the figures."""
    rating_list = m.RatingList.objects.get(pk=rating_list_id)
    generation = rating_list.clean_generation
    began = time.perf_counter()
    timeline = load_timeline(rating_list)
    systems = rating_list.systems
    evaluation = evaluate(timeline.events, timeline.starts, systems)
    tables = {
        scope: {name: asdict(metrics) for name, metrics in rows.items()}
        for scope, rows in summary(evaluation).items()
    }
    bins = {
        name: [
            [b.low, b.high, b.games, b.predicted, b.observed]
            for b in calibration(probabilities, evaluation.outcomes, CALIBRATION_BINS)
        ]
        for name, probabilities in evaluation.probabilities.items()
    }
    curves = {name: [c.intercept, c.slope] for name, c in evaluation.curves.items()}
    stored, _ = m.ListEvaluation.objects.update_or_create(
        rating_list=rating_list,
        defaults={
            "generation": generation,
            "computed_at": timezone.now(),
            "seconds": time.perf_counter() - began,
            "games": len(evaluation.games),
            "systems": systems,
            "tables": tables,
            "calibration": bins,
            "curves": curves,
        },
    )
    return stored


@receiver(list_recomputed)
def _after_recompute(sender: object, rating_list_id: int, **kwargs: object) -> None:
    schedule(rating_list_id)


def schedule(rating_list_id: int, force: bool = False) -> None:
    """Recompute the figures after a recompute: by a worker when there is a
    broker, else now (a failure is logged; the ratings are saved already)."""
    if settings.CELERY_BROKER_URL:
        # By name from the Celery app's registry, as the recompute enqueues
        # its own task (no import of ratings.tasks, which imports this module).
        current_app.tasks[EVALUATE_TASK].delay(rating_list_id, force)
        return
    try:
        if force or is_due(rating_list_id):
            compute(rating_list_id)
    except Exception:
        log.exception("evaluation of list %s failed; its page keeps the previous figures", rating_list_id)


def curve(rating_list: m.RatingList, system: str) -> LogisticCurve:
    """The curve fitted on the list's games for ``system`` (stored by
    :func:`compute`), else the prior's mean: before any game, a player one
    stone stronger wins two games in three (docs/evaluation.md)."""
    stored = m.ListEvaluation.objects.filter(rating_list=rating_list).values_list("curves", flat=True).first()
    if stored and system in stored:
        intercept, slope = stored[system]
        return LogisticCurve(float(intercept), float(slope))
    return PRIOR.curve


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's rank and rating in a system's own unit."""

    rank: float
    rating: float


def entry_standing(system: str, rank: float) -> Standing:
    """Where a new player at ``rank`` enters ``system``: read from the
    system's own ledger for a first game (its ``rank_before`` and
    ``rating_before``), so each system's entry rule is written once."""
    day = date(2000, 1, 1)
    game = Game(date=day, white="new", black="other", winner=Winner.WHITE)
    starts: dict[Hashable, Start] = {"new": Start(rank=rank), "other": Start(rank=rank)}
    row = get_system(system).rate([game], starts=starts).ledger.row(0, WHITE)
    assert row is not None
    return Standing(row.rank_before, row.rating_before)


def standing(
    system: str, player: m.Player | None, rank: float, on: date, *, excluding: int | None = None
) -> Standing:
    """``player``'s standing in ``system`` known before a game on ``on``.

    The last history row before it: for a system that rates game by game
    any row up to that day (a game entered now follows the day's games
    already entered); for one that rates a period at once (EGF, FFG) rows
    of earlier days only, since a day's games are rated from the ratings
    the day began with.  A player without such a row (a new name on the
    sheet: ``player`` None) enters at ``rank`` by the system's entry rule.
    ``excluding``: the id of a game being corrected: on its own day, the
    rows before its own (its result as first saved, and the day's later
    games, were not known before it); on another day, all but its own row.
    """
    if player is not None and player.pk is not None:
        rows = m.HistoryEntry.objects.filter(player=player, system=system)
        own = rows.filter(game=excluding).values_list("date", "seq").first() if excluding else None
        if own is not None and own[0] == on:
            rows = rows.filter(seq__lt=own[1])  # the corrected game's day: what came before it
        elif own is not None:
            rows = rows.exclude(game=excluding)
        rows = rows.filter(date__lt=on) if system in PERIOD_SYSTEMS else rows.filter(date__lte=on)
        last = rows.order_by("-seq").values_list("rank_after", "rating_after").first()
        if last is not None:
            return Standing(*last)
        rank = player.start_rank
    return entry_standing(system, rank)
