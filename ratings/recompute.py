"""The ratings update: mark a club dirty, recompute its history, tell the pages.

The process (docs/recompute.md):

1. A service that writes games or adjustments calls :func:`mark_dirty` inside
   its transaction.  The club's ``dirty_from`` becomes the earliest stale
   date and ``dirty_generation`` is bumped; after commit the recompute runs
   (in-process without a broker, else a Celery task by club id).
2. :func:`recompute_club` replays the club's timeline for every system the
   club computes and rewrites the history.
3. :func:`pending_notices` tells every page which clubs are being updated.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Case, F, Value, When
from django.utils import timezone
from django.utils.formats import date_format

from ratings import models as m
from ratings.systems import base, get_system

log = logging.getLogger(__name__)


# --- 1. marking a club dirty -------------------------------------------------


def mark_dirty(club: m.Club | int, from_date: date) -> None:
    """Mark ``club`` stale from ``from_date`` in the caller's transaction.

    ``dirty_from`` becomes min(dirty_from, from_date) and the generation is
    bumped, both in one UPDATE so concurrent callers never lose a date.  The
    recompute is arranged for after commit; a burst of late entries coalesces
    into one run from the earliest date (the run finds nothing to do once an
    earlier one has caught up).
    """
    club_id = club if isinstance(club, int) else club.pk
    m.Club.objects.filter(pk=club_id).update(
        dirty_from=Case(
            When(dirty_from__isnull=True, then=Value(from_date)),
            When(dirty_from__gt=from_date, then=Value(from_date)),
            default=F("dirty_from"),
        ),
        dirty_generation=F("dirty_generation") + 1,
    )
    _schedule_once(club_id)


class _AfterCommit:
    """The after-commit callback of one club (found again by its club id)."""

    def __init__(self, club_id: int) -> None:
        self.club_id = club_id

    def __call__(self) -> None:
        enqueue(self.club_id)


def _schedule_once(club_id: int) -> None:
    """One after-commit recompute per club per transaction.

    The pending callbacks are looked up in the connection's own list, so a
    rolled-back transaction or savepoint takes its callback with it.
    """
    connection = transaction.get_connection()
    if connection.in_atomic_block:
        for _sids, func, _robust in connection.run_on_commit:
            if isinstance(func, _AfterCommit) and func.club_id == club_id:
                return
        transaction.on_commit(_AfterCommit(club_id), robust=True)
    else:
        enqueue(club_id)


def enqueue(club_id: int, trigger: str = "commit") -> None:
    """Run the recompute now (no broker) or hand it to a Celery worker."""
    if settings.CELERY_BROKER_URL:
        from ratings.tasks import recompute_club_task

        recompute_club_task.delay(club_id)
    else:
        try:
            recompute_club(club_id, trigger=trigger)
        except Exception:
            # The club stays dirty; the page that saved must not fail
            # because the ratings could not be brought up to date.
            log.exception("recompute of club %s failed; it stays dirty", club_id)


# --- 3. notices --------------------------------------------------------------


def pending_notices() -> list[str]:
    """One sentence per club whose ratings are being updated (one query)."""
    rows = m.Club.objects.filter(dirty_from__isnull=False).values_list("name", "dirty_from")
    return [
        f"Ratings after {date_format(day, 'j F Y')} are being updated for {name}."
        for name, day in rows
    ]


# --- 2. the recompute --------------------------------------------------------


@dataclass
class Timeline:
    """The club's events in timeline order and what the rows need."""

    events: list[base.Event] = field(default_factory=list)
    #: Per event: ("g", game id) or ("a", adjustment id).
    refs: list[tuple[str, int]] = field(default_factory=list)
    starts: dict[int, base.Start] = field(default_factory=dict)


def load_timeline(club: m.Club, from_date: date | None = None) -> Timeline:
    """Games and adjustments of ``club`` (from ``from_date``) in timeline
    order: date, then entry order (entered_at, id); on one date and instant
    a game comes before an adjustment."""
    games = m.Game.objects.filter(club=club)
    adjustments = m.RankAdjustment.objects.filter(club=club)
    if from_date is not None:
        games = games.filter(date__gte=from_date)
        adjustments = adjustments.filter(date__gte=from_date)
    merged: list[tuple[Any, ...]] = []
    for row in games.values_list(
        "date", "entered_at", "id", "white_id", "black_id", "winner", "handicap", "komi",
        "kind", "board", "minutes", "forfeit", "sheet__event", "sheet__kind",
    ).order_by():
        merged.append((row[0], row[1], 0, row[2], row))
    for row in adjustments.values_list("date", "entered_at", "id", "player_id", "rank", "rating").order_by():
        merged.append((row[0], row[1], 1, row[2], row))
    merged.sort(key=lambda item: item[:4])
    timeline = Timeline()
    events, refs = timeline.events, timeline.refs
    winners = {w.value: w for w in base.Winner}
    kinds = {k.value: k for k in base.Kind}
    slug = club.slug
    for _day, _at, tag, pk, row in merged:
        if tag == 0:
            (day, _, _, white, black, winner, handicap, komi, kind, board, minutes, forfeit, event, sheet_kind) = row
            events.append(
                base.Game(
                    date=day, white=white, black=black, winner=winners[winner], handicap=handicap,
                    komi=float(komi), kind=kinds[kind], board=board, minutes=minutes,
                    event=_event_key(event, sheet_kind, day), club=slug, forfeit=forfeit,
                )
            )
            refs.append(("g", pk))
        else:
            (day, _, _, player, rank, rating) = row
            events.append(base.Adjustment(date=day, player=player, rank=rank, rating=rating))
            refs.append(("a", pk))
    for pk, start_rank in m.Player.objects.filter(club=club).values_list("id", "start_rank"):
        timeline.starts[pk] = base.Start(rank=start_rank)
    return timeline


def _event_key(event: str, sheet_kind: str, day: date) -> str | None:
    """The rating period of a game (base.period_key): a tournament sheet's
    event, per year so that next year's edition is another period; other
    games form their club's day."""
    if event and sheet_kind == m.Kind.TOURNAMENT:
        return f"{event} ({day.year})"
    return None


def _systems(club: m.Club) -> list[tuple[str, base.RatingSystem]]:
    """The club's systems, primary first; a system whose module is not there
    yet is skipped with a warning."""
    found = []
    for name in club.systems:
        try:
            found.append((name, get_system(name)))
        except ImportError:
            log.warning("rating system %s is not available; skipped for club %s", name, club.slug)
    return found


_HISTORY_FIELDS = (
    "club_id", "system", "seq", "date", "player_id", "game_id", "adjustment_id", "colour", "opponent_id",
    "rank_before", "rating_before", "change", "rank_after", "rating_after", "state",
)


def history_rows(
    club_id: int, system: str, timeline: Timeline, result: base.Result, first_seq: int
) -> Iterable[tuple[Any, ...]]:
    """The HistoryEntry rows of one system's ledger, as tuples in the order
    of _HISTORY_FIELDS (state left None here)."""
    ledger = result.ledger
    rb, gb, ch, ra, ga = ledger.rank_before, ledger.rating_before, ledger.change, ledger.rank_after, ledger.rating_after
    for i, (event, (tag, pk)) in enumerate(zip(timeline.events, timeline.refs, strict=True)):
        seq = first_seq + i
        if tag == "g":
            assert isinstance(event, base.Game)
            s = 2 * i
            if ch[s] == ch[s]:  # not NaN
                yield (club_id, system, seq, event.date, event.white, pk, None, "w", event.black,
                       rb[s], gb[s], ch[s], ra[s], ga[s], None)
            s += 1
            if ch[s] == ch[s]:
                yield (club_id, system, seq, event.date, event.black, pk, None, "b", event.white,
                       rb[s], gb[s], ch[s], ra[s], ga[s], None)
        else:
            assert isinstance(event, base.Adjustment)
            s = 2 * i
            if ch[s] == ch[s]:
                yield (club_id, system, seq, event.date, event.player, None, pk, "", None,
                       rb[s], gb[s], ch[s], ra[s], ga[s], None)


def recompute_club(
    club_id: int,
    *,
    full: bool = False,
    trigger: str = "call",
    progress: Callable[[int], None] | None = None,
) -> m.RecomputeRun | None:
    """Recompute ``club_id`` now; returns the recorded run (None when the
    club had nothing to do)."""
    club = m.Club.objects.get(pk=club_id)
    if not full and club.dirty_from is None:
        if m.HistoryEntry.objects.filter(club=club).exists() or not m.Game.objects.filter(club=club).exists():
            return None
        full = True  # never computed: e.g. a club filled by a script
    generation = club.dirty_generation
    run = m.RecomputeRun.objects.create(
        club=club, from_date=None, full=True, trigger=trigger, generation=generation
    )
    started = time.perf_counter()
    try:
        timeline = load_timeline(club)
        written = 0
        results: list[tuple[str, base.Result]] = []
        for name, system in _systems(club):
            results.append((name, system.rate(timeline.events, starts=timeline.starts)))
        with transaction.atomic():
            m.HistoryEntry.objects.filter(club=club).delete()
            for name, result in results:
                rows = [m.HistoryEntry(**dict(zip(_HISTORY_FIELDS, row, strict=True)))
                        for row in history_rows(club.pk, name, timeline, result, 0)]
                m.HistoryEntry.objects.bulk_create(rows, batch_size=2000)
                written += len(rows)
            if results:
                _update_players(club, timeline, results[0][1])
            _mark_clean(club.pk, generation)
        run.status = m.RecomputeRun.Status.DONE
        run.games_replayed = sum(1 for tag, _ in timeline.refs if tag == "g")
        run.rows_written = written
    except Exception as error:
        run.status = m.RecomputeRun.Status.FAILED
        run.error = f"{type(error).__name__}: {error}"
        raise
    finally:
        run.duration = time.perf_counter() - started
        run.finished_at = timezone.now()
        run.save(update_fields=["status", "games_replayed", "rows_written", "error", "duration", "finished_at"])
    return run


def _update_players(club: m.Club, timeline: Timeline, result: base.Result) -> None:
    """Cache rank, rating and games count from the primary system."""
    counts: dict[int, int] = {}
    for event in timeline.events:
        if isinstance(event, base.Game):
            counts[event.white] = counts.get(event.white, 0) + 1  # type: ignore[call-overload]
            counts[event.black] = counts.get(event.black, 0) + 1  # type: ignore[call-overload]
    players = list(m.Player.objects.filter(club=club).only("id", "start_rank", "rank", "rating", "games_count"))
    for player in players:
        state = result.state.get(player.pk)
        player.rank = float(state.rank) if state is not None else float(player.start_rank)
        player.rating = float(state.rating) if state is not None else 0.0
        player.games_count = counts.get(player.pk, 0)
    m.Player.objects.bulk_update(players, ["rank", "rating", "games_count"], batch_size=1000)


def _mark_clean(club_id: int, generation: int) -> None:
    """Clean the club unless more work arrived while the run ran."""
    updated = m.Club.objects.filter(pk=club_id, dirty_generation=generation).update(
        dirty_from=None, clean_generation=generation
    )
    if not updated:
        m.Club.objects.filter(pk=club_id).update(clean_generation=generation)


def sweep() -> list[int]:
    """Recompute every dirty club (the periodic sweeper)."""
    dirty = list(m.Club.objects.filter(dirty_from__isnull=False).values_list("id", flat=True))
    for club_id in dirty:
        enqueue(club_id, trigger="sweeper")
    return dirty


__all__: Sequence[str] = ("mark_dirty", "recompute_club", "pending_notices", "sweep", "enqueue")
