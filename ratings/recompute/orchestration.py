"""The recompute of one list (recompute_list) and of the whole federation
(recompute_all): the lock, the run, the replay, the write, in that order
(README.md in this package)."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import date

from django.db import transaction

from ratings import models as m
from ratings.engine import base
from ratings.recompute.errors import RecomputeBusy
from ratings.recompute.indexes import (
    REBUILD_MIN_ROWS,
    REBUILD_SHARE,
    create_indexes,
    drop_indexes,
    drop_secondary_indexes,
)
from ratings.recompute.locking import list_lock
from ratings.recompute.measure import gc_paused, time_write, timings
from ratings.recompute.postgresql import StagedHistory
from ratings.recompute.replay import (
    CHECKPOINT_EVERY,
    Rewrite,
    SystemFactory,
    cached_system,
    checkpointed,
    list_systems,
    replay,
    resume_date,
)
from ratings.recompute.ripple import Causes, find, record
from ratings.recompute.ripple import replaced as replaced_ripple
from ratings.recompute.runs import abandon_running, claim_causes, mark_clean, recorded, unrated
from ratings.recompute.signals import list_recomputed
from ratings.recompute.sqlite import tune_connection
from ratings.recompute.timeline import load_timeline, period_start, sheet_events
from ratings.recompute.writing import WriteHistory, empty_history, rewrite_list, write_history

log = logging.getLogger(__name__)

#: Rounds one locked call runs while more work keeps arriving.
MAX_ROUNDS = 10

Progress = Callable[[int], object] | None


@dataclass(frozen=True)
class Options:
    """How a recompute runs: its tuning, and the parts a caller may
    replace (a test: a writer that fails half-way, a system that refuses an
    event, checkpoints every few events).  The defaults are production's."""

    #: Events between two checkpoints.
    checkpoint_every: int = CHECKPOINT_EVERY
    #: A rewrite of at least this many rows and 1/rebuild_share of the
    #: history drops its secondary indexes and builds them again.
    rebuild_min_rows: int = REBUILD_MIN_ROWS
    rebuild_share: int = REBUILD_SHARE
    #: Builds a rating system by name.
    system: SystemFactory = cached_system
    #: Writes history rows into a table (None: the history).
    write_history: WriteHistory = write_history
    #: Runs the statements that build the dropped indexes again.
    create_indexes: Callable[[Sequence[str]], None] = create_indexes


DEFAULT = Options()


def recompute_list(
    rating_list_id: int,
    *,
    full: bool = False,
    from_date: date | None = None,
    trigger: str = "call",
    progress: Progress = None,
    raise_if_busy: bool = False,
    options: Options = DEFAULT,
) -> m.RecomputeRun | None:
    """Bring ``rating_list_id``'s history up to date now, under the list's lock.

    Without ``full`` or ``from_date`` it replays from the list's dirty date
    (nothing to do when clean).  If more work arrives while it runs, it runs
    again (up to MAX_ROUNDS).  Returns the last recorded run, or None when
    there was nothing to do or another process holds the lock (that process
    sees the new generation and runs again; with ``raise_if_busy``, for a
    caller that asked for this very run, :class:`RecomputeBusy` is raised
    instead).  An error is recorded on the run and raised; the list stays
    dirty.
    """
    last: m.RecomputeRun | None = None
    for _round in range(MAX_ROUNDS):
        with list_lock(rating_list_id) as taken:
            if not taken and raise_if_busy and last is None:
                raise RecomputeBusy(rating_list_id)
            if not taken:
                log.info(
                    "list %s: a recompute is already running; it will pick up the new work", rating_list_id
                )
                return last
            run = _recompute_locked(
                rating_list_id,
                full=full,
                from_date=from_date,
                trigger=trigger,
                progress=progress,
                options=options,
            )
        last = run or last
        full, from_date = False, None
        # Re-read after releasing the lock: a run enqueued while we held it
        # gave up, so its work is ours (no lost wake-up).
        if m.RatingList.objects.filter(pk=rating_list_id, dirty_from__isnull=False).exists() is False:
            if last is not None:
                announce(rating_list_id, last)
            return last
    return last


def announce(rating_list_id: int, run: m.RecomputeRun) -> None:
    """Send :data:`list_recomputed`; a receiver's failure is logged, never
    raised: the ratings are saved already."""
    for receiver, outcome in list_recomputed.send_robust(
        sender=m.RatingList, rating_list_id=rating_list_id, run=run
    ):
        if isinstance(outcome, Exception):
            log.error("list %s: %r failed after the recompute", rating_list_id, receiver, exc_info=outcome)


def _recompute_locked(
    rating_list_id: int,
    *,
    full: bool,
    from_date: date | None,
    trigger: str,
    progress: Progress,
    options: Options,
) -> m.RecomputeRun | None:
    """One round of recompute_list, under the list's lock."""
    rating_list = m.RatingList.objects.get(pk=rating_list_id)
    generation = rating_list.dirty_generation
    start: date | None = None
    known: dict[date, date] = {}  # period starts looked up, for the ripple
    # The list's tournament sheets' events, read once for the period's
    # start and the timeline (a late game's run read them twice).
    events: dict[int, str] | None = None
    if not full:
        candidates = [d for d in (rating_list.dirty_from, from_date) if d is not None]
        if candidates:
            events = sheet_events(rating_list)
            start = known[min(candidates)] = period_start(rating_list, min(candidates), events)
        elif m.HistoryEntry.objects.filter(rating_list=rating_list).exists() or not (
            m.Game.objects.filter(rating_list=rating_list).exists()
            or m.RankAdjustment.objects.filter(rating_list=rating_list).exists()
        ):
            return None
        # else: never computed (a list filled by a script): replay it all.
    systems = list_systems(rating_list, options.system)
    names = [name for name, _ in systems]
    # Resume from the latest date at or before ``start`` where every system
    # has a checkpoint.  None: replay from the beginning, and write from
    # ``start`` when every system has checkpoints after it (a late game
    # before the first one), else rewrite everything (a small list, a
    # newly added system).
    resume: date | None = None
    if start is not None and names:
        resume = resume_date(rating_list, names, start)
        if resume is None and not checkpointed(rating_list, names):
            start = None
    # The runs a dead process left, this run and its causes: one commit,
    # before the replay (a crash from here on leaves this run running,
    # marked abandoned by the next).
    with transaction.atomic():
        abandon_running(rating_list)
        run = m.RecomputeRun.objects.create(
            rating_list=rating_list,
            from_date=start,
            full=start is None,
            trigger=trigger,
            generation=generation,
        )
        # The entries it rates and what they changed, in one read.
        claimed = Causes.read(unrated(rating_list.pk))
        claim_causes(run, [entry[0] for entry in claimed])
    causes = Causes.of_rows(claimed)
    with recorded([run]) as done:
        with gc_paused():
            rewrite = replay(
                rating_list, systems, start, resume, run, progress, options.checkpoint_every, sheets=events
            )
            rated = causes.excluding(unrated(rating_list.pk))
            # Before a full write, while the stored history is still the old
            # one; a rewrite from a date takes it from the rows it replaces.
            ripple = find(rewrite, run, rated, known) if rewrite.start is None else []
            _write_one(rewrite, run, options, ripple, (rated, known), done)
        # Not in the write transaction: a sheet being saved may hold the
        # list's row (mark_dirty) while it waits for a player's row that
        # the write has locked.
        mark_clean(rating_list.pk, generation)
    return run


def _write_one(
    rewrite: Rewrite,
    run: m.RecomputeRun,
    options: Options,
    ripple: Sequence[tuple[object, ...]] = (),
    causes: tuple[Causes, Mapping[date, date]] | None = None,
    done: Callable[[], None] | None = None,
) -> None:
    """Rewrite one list's history from its start, and record the ripple
    (the later results that changed), in one transaction: ``ripple``, or
    when only the changed rows are replaced, the ripple of ``causes`` (and
    the rating periods' starts known) among them; ``done`` records the run
    as done in that same transaction (runs.recorded)."""
    began = time.perf_counter()
    with transaction.atomic():
        tune_connection()
        # A full rewrite of a large share of the table drops the history's
        # secondary indexes and builds them again afterwards, in this same
        # transaction (DDL is transactional on both backends, so a crash
        # still leaves the previous history and its indexes).  A rewrite
        # from a date (a late game) writes only the rows that changed, a
        # few in a hundred (changed.py): it never rebuilds.
        rebuild = (
            drop_indexes(
                rewrite.rating_list,
                rewrite.start,
                rewrite.expected,
                options.rebuild_min_rows,
                options.rebuild_share,
            )
            if rewrite.start is None
            else []
        )
        replaced = rewrite_list(rewrite, run, write=options.write_history, only_changed=True)
        if replaced is not None and causes is not None:
            ripple = replaced_ripple(rewrite, run, causes[0], replaced, causes[1])
        record(ripple)
        if rebuild:
            options.create_indexes(rebuild)
        if done is not None:
            done()
    time_write(time.perf_counter() - began, locked=bool(rebuild))


def recompute_all(
    *,
    trigger: str = "call",
    progress: Progress = None,
    raise_if_busy: bool = False,
    options: Options = DEFAULT,
) -> list[m.RecomputeRun]:
    """Recompute every list's whole history (the federation's full
    recompute: a system changed, or a restore) in ONE write transaction.

    Every list is replayed first, outside any transaction; then one
    transaction rewrites every list and builds the history's indexes once
    (per list, the later lists would either rebuild the indexes over the
    lists already written or insert into them row by row: measured,
    docs/recompute.md).  A crash or an error rolls it all back: the
    previous history stays, every list stays dirty.  It holds every list's
    lock; if one is busy (a recompute is running), it falls back to one
    full recompute per list (which raises :class:`RecomputeBusy` for a busy
    list with ``raise_if_busy``).
    """
    rating_lists = list(m.RatingList.objects.order_by("pk"))
    with contextlib.ExitStack() as locks:
        if not all(locks.enter_context(list_lock(rating_list.pk)) for rating_list in rating_lists):
            locks.close()
            one_by_one = [
                recompute_list(
                    rating_list.pk,
                    full=True,
                    trigger=trigger,
                    progress=progress,
                    raise_if_busy=raise_if_busy,
                    options=options,
                )
                for rating_list in rating_lists
            ]
            return [run for run in one_by_one if run is not None]
        runs: list[m.RecomputeRun] = []
        for rating_list in rating_lists:
            abandon_running(rating_list)
            runs.append(
                m.RecomputeRun.objects.create(
                    rating_list=rating_list,
                    from_date=None,
                    full=True,
                    trigger=trigger,
                    generation=rating_list.dirty_generation,
                )
            )
            # Rated, without a ripple: the federation's full recompute
            # (a system changed, a restore) records none (docs/recompute.md).
            claim_causes(runs[-1])
        with recorded(runs):
            with gc_paused():
                if transaction.get_connection().vendor == "postgresql":
                    _replay_beside_the_write(rating_lists, runs, progress, options)
                else:
                    rewrites = [
                        replay(
                            rating_list,
                            list_systems(rating_list, options.system),
                            None,
                            None,
                            run,
                            progress,
                            options.checkpoint_every,
                        )
                        for rating_list, run in zip(rating_lists, runs, strict=True)
                    ]
                    _write_all(rewrites, sum(rewrite.expected for rewrite in rewrites), runs, options)
            for run in runs:
                mark_clean(run.rating_list_id, run.generation)
    return runs


def _replay_beside_the_write(
    rating_lists: list[m.RatingList], runs: list[m.RecomputeRun], progress: Progress, options: Options
) -> None:
    """recompute_all on PostgreSQL: the reads, the replays and the COPYs
    one list behind the other.  In the write transaction, this thread reads
    a list's timeline and hands it to a replay thread, reads the next list's
    while that one is replayed, then COPYs the replayed list while the next
    is replayed: the server answers a query or ingests rows (another
    process, another core) while Python runs the engine, and this thread
    waits on the socket without the GIL.  (Reading every timeline first left
    the server's core idle for the whole read, 3-6 s at a million games,
    measured, docs/recompute.md.)  The replay thread makes no query (a full
    replay of a timeline already read), so it has no connection: none is
    shared across threads.  (SQLite's work runs in this process and binding
    its rows holds the GIL: overlapping did not pay there, measured.)"""
    systems = [list_systems(rating_list, options.system) for rating_list in rating_lists]
    expected = _expected_rows(rating_lists, systems, options.rebuild_min_rows)
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="recompute-replay") as replayer:
        futures: list[Future[Rewrite]] = []

        def submit(i: int) -> None:
            began = time.perf_counter()
            timeline = load_timeline(rating_lists[i])
            timings["load"] += time.perf_counter() - began
            future = replayer.submit(
                replay, rating_lists[i], systems[i], None, None, runs[i], progress, options.checkpoint_every,
                timeline, True,
            )  # fmt: skip
            futures.append(future)

        def replayed() -> Iterator[Rewrite]:
            # In order, inside the write transaction; each timeline and
            # rewrite is freed once written.
            for i in range(len(rating_lists)):
                if i == 0:
                    submit(0)
                if i + 1 < len(rating_lists):
                    submit(i + 1)  # read while list i is replayed
                yield futures.pop(0).result()

        try:
            _write_all(replayed(), expected, runs, options)
        finally:
            for future in futures:  # a failed write or replay: no more replays
                future.cancel()


def _expected_rows(
    rating_lists: list[m.RatingList], systems: list[list[tuple[str, base.RatingSystem]]], enough: int
) -> int:
    """About how many history rows the lists will have (2 a game a system,
    1 an adjustment a system), counted only as far as ``enough``: whether
    the write is large is all recompute_all needs to know before the
    timelines are read (a count stopped by LIMIT, a few milliseconds)."""
    total = 0
    for rating_list, each in zip(rating_lists, systems, strict=True):
        if not each or total >= enough:
            continue
        per_event = 2 * len(each)
        cap = enough // per_event + 1
        games = m.Game.objects.filter(rating_list=rating_list).order_by()[:cap].count()
        adjustments = m.RankAdjustment.objects.filter(rating_list=rating_list).order_by()[:cap].count()
        total += per_event * games + len(each) * adjustments
    return total


def _write_all(
    rewrites: Iterable[Rewrite], expected: int, runs: list[m.RecomputeRun], options: Options
) -> None:
    """recompute_all's write: every list's history from scratch (about
    ``expected`` rows), in one transaction with one index build.

    SQLite: the history is emptied, its secondary indexes dropped and built
    again at the end (its readers keep their snapshot until the commit).
    PostgreSQL: a large federation is written into a staging table that
    replaces the history at the end (postgresql.StagedHistory), so readers
    wait only for that swap."""
    clock = time.perf_counter
    began = clock()
    large = expected >= options.rebuild_min_rows
    locked_from: float | None = None
    with transaction.atomic():
        if transaction.get_connection().vendor == "postgresql":
            staging = StagedHistory(large)
            staged = staging.begin()
            if not staged:  # a small federation: written into the table and its indexes
                empty_history()
            for rewrite, run in zip(rewrites, runs, strict=True):
                rewrite_list(rewrite, run, emptied=True, table=staging.target, write=options.write_history)
            if staged:
                options.create_indexes(staging.create)
                locked_from = clock()
                staging.swap()
            locked = staged
        else:
            tune_connection()
            rebuild = drop_secondary_indexes() if large else []
            empty_history()  # every list's history is rewritten from scratch
            for rewrite, run in zip(rewrites, runs, strict=True):
                rewrite_list(rewrite, run, emptied=True, write=options.write_history)
            if rebuild:
                options.create_indexes(rebuild)
            locked = bool(rebuild)
    time_write(
        clock() - began, locked=locked, locked_for=None if locked_from is None else clock() - locked_from
    )
