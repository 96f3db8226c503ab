"""Replaying a list's timeline with each of its systems, from a checkpoint
or the beginning: the new ledgers and checkpoints, ready to be written
(writing.py)."""

from __future__ import annotations

import functools
import time
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Container, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from itertools import chain, compress
from typing import Any

from django.db import transaction
from django.db.models import Count

from ratings import models as m
from ratings.engine import base, get_system
from ratings.recompute.columns import SEQ_STRIDE, Columns
from ratings.recompute.errors import RecomputeError
from ratings.recompute.measure import timings
from ratings.recompute.rows import history_rows
from ratings.recompute.timeline import Timeline, load_timeline

#: Events between two checkpoints: a late game replays at most about this
#: many events before its date (a few hundredths of a second of engine time).
CHECKPOINT_EVERY = 5_000

#: Builds the rating system of a name (cached_system, or a test's own).
SystemFactory = Callable[[str], base.RatingSystem]


def _boundaries(timeline: Timeline, write_from: int, every: int) -> list[int]:
    """Where to cut the replay and store a checkpoint: every ``every``
    events or so, on the first event of a date that no multi-day period
    straddles, and only at or after ``write_from``."""
    days, periods = timeline.days, timeline.periods
    spans: dict[str, list[date]] = {}
    for i in compress(range(len(periods)), periods):  # tournament games only
        period = periods[i]
        assert period is not None  # compress kept the events of a period only
        span = spans.setdefault(period, [days[i], days[i]])
        span[1] = days[i]
    inside: set[date] = set()
    for first, last in spans.values():
        day = first
        while day < last:
            day += timedelta(days=1)
            inside.add(day)
    cuts: list[int] = []
    i = max(write_from, 1, every)
    while i < len(days):
        if days[i] != days[i - 1] and days[i] not in inside:
            cuts.append(i)
            i += every
        else:
            i += 1
    return cuts


@functools.cache
def cached_system(name: str) -> base.RatingSystem:
    """One instance per system and process: a system is immutable once
    built, and a late game's recompute need not build it every time (SAGC's
    lookup tables are built once per process in any case,
    ratings/engine/sagc_tables.py)."""
    return get_system(name)


def list_systems(
    rating_list: m.RatingList, system: SystemFactory = cached_system
) -> list[tuple[str, base.RatingSystem]]:
    """The list's systems, primary first, built by ``system``."""
    return [(name, system(name)) for name in rating_list.systems]


def resume_date(rating_list: m.RatingList, names: Sequence[str], start: date) -> date | None:
    """The latest date at or before ``start`` where every one of the
    systems ``names`` has a checkpoint (None: replay from the beginning)."""
    if not names:
        return None
    return (
        m.RatingCheckpoint.objects.filter(rating_list=rating_list, system__in=names, date__lte=start)
        .values("date")
        .annotate(n=Count("id"))
        .filter(n=len(set(names)))
        .order_by("-date")
        .values_list("date", flat=True)
        .first()
    )


def checkpointed(rating_list: m.RatingList, names: Sequence[str]) -> bool:
    """Whether every one of the systems ``names`` has a checkpoint (at any
    date): each has been replayed and has its history, so a late game
    before the first checkpoint may replay from the beginning and still
    write only from its date.  (A system just added has none: its whole
    history is written.)"""
    stored = m.RatingCheckpoint.objects.filter(rating_list=rating_list, system__in=names)
    return stored.values("system").distinct().count() == len(set(names))


def checkpoints_at(
    rating_list: m.RatingList, names: Sequence[str], resume: date | None
) -> dict[str, m.RatingCheckpoint]:
    """The checkpoints of ``names`` stored at ``resume``, by system (none
    when the replay starts from the beginning)."""
    if resume is None:
        return {}
    found = m.RatingCheckpoint.objects.filter(rating_list=rating_list, date=resume, system__in=names)
    return {cp.system: cp for cp in found}


def checkpoint_state(
    system: base.RatingSystem, checkpoint: m.RatingCheckpoint | None, players: Container[int] | None = None
) -> Mapping[Any, Any] | None:
    """Every player's state in ``system`` at a checkpoint, by player id
    (only those of ``players``, when given: a replay that keeps no
    checkpoint need not build the others); None (every player enters at
    their start) without a checkpoint."""
    if checkpoint is None:
        return None
    states = checkpoint.states.items()
    if players is not None:
        return {int(k): system.state_from_json(v) for k, v in states if int(k) in players}
    return {int(k): system.state_from_json(v) for k, v in states}


def replay(
    rating_list: m.RatingList,
    systems: list[tuple[str, base.RatingSystem]],
    start: date | None,
    resume: date | None,
    run: m.RecomputeRun,
    progress: Callable[[int], object] | None,
    checkpoint_every: int = CHECKPOINT_EVERY,
    timeline: Timeline | None = None,
    binary: bool | None = None,
    sheets: Mapping[int, str] | None = None,
) -> Rewrite:
    """Replay from ``resume`` (a checkpoint date, or the beginning) outside
    any transaction (it only reads); the rows from ``start`` on are built
    when the returned rewrite is written.  A checkpoint is stored about
    every ``checkpoint_every`` events.  ``timeline`` (already read) and
    ``binary`` (rows for PostgreSQL's binary COPY) given, a full replay
    makes no query at all: it may run in a thread without a connection.
    ``sheets``: the list's sheet_events, when the caller has read them
    (load_timeline reads them otherwise)."""
    clock = time.perf_counter
    if timeline is None:
        began = clock()
        timeline = load_timeline(rating_list, resume, events=sheets)
        timings["load"] += clock() - began
    if binary is None:
        binary = transaction.get_connection().vendor == "postgresql"
    events = timeline.events
    write_from = 0 if start is None else bisect_left(timeline.days, start)
    cuts = _boundaries(timeline, write_from, checkpoint_every)
    checkpoints = checkpoints_at(rating_list, [n for n, _ in systems], resume)
    games0 = {int(k): v for k, v in next(iter(checkpoints.values())).games.items()} if checkpoints else {}
    # Games counted per player at each cut (the same for every system).
    games_at_cut, final_games = _count_games(timeline, cuts, games0)
    ledgers: list[tuple[str, list[tuple[int, base.Ledger]]]] = []
    new_checkpoints: list[m.RatingCheckpoint] = []
    final_state: Mapping[Any, Any] = {}
    for number, (name, system) in enumerate(systems):
        state = checkpoint_state(system, checkpoints.get(name))
        chunks: list[tuple[int, base.Ledger]] = []
        for lo, hi in zip([0, *cuts], [*cuts, len(events)], strict=True):
            try:
                began = clock()
                result = system.rate(events[lo:hi], state=state, starts=timeline.starts)
                timings["engine"] += clock() - began
            except base.RatingError as error:
                raise RecomputeError(_describe_error(error, timeline, lo)) from error
            state = result.state
            chunks.append((lo, result.ledger))
            if hi < len(events):
                new_checkpoints.append(
                    m.RatingCheckpoint(
                        rating_list=rating_list,
                        system=name,
                        date=timeline.days[hi],
                        seq=timeline.days[hi].toordinal() * SEQ_STRIDE,  # columns.event_seqs
                        states={str(k): v.to_json() for k, v in state.items()},
                        games=games_at_cut[hi],
                    )
                )
            if progress is not None:
                progress(hi - lo)
        ledgers.append((name, chunks))
        if number == 0:
            final_state = state or {}
    run.games_replayed = timeline.games()

    columns = Columns.of(timeline, binary=binary)

    def rows() -> Iterator[tuple[Any, ...]]:
        # chain, not a generator with ``yield from``: no Python frame per
        # row (2,000,000 rows: ~1.5 s, profiled).
        return chain.from_iterable(
            history_rows(rating_list.pk, name, columns, ledger, lo, write_from)
            for name, chunks in ledgers
            for lo, ledger in chunks
        )

    # The timeline itself is not kept: the rows need only its columns.
    expected = 2 * len(systems) * (len(events) - write_from)
    return Rewrite(
        rating_list,
        systems,
        start,
        resume,
        rows,
        expected,
        new_checkpoints,
        final_state,
        final_games,
        ledgers,
        columns,
    )


@dataclass
class Rewrite:
    """A replayed list, ready to be written: what writing.rewrite_list needs."""

    rating_list: m.RatingList
    systems: list[tuple[str, base.RatingSystem]]
    start: date | None
    resume: date | None
    rows: Callable[[], Iterator[tuple[Any, ...]]]
    #: About how many history rows ``rows`` gives (2 slots an event a system).
    expected: int
    checkpoints: list[m.RatingCheckpoint]
    final_state: Mapping[Any, Any]
    final_games: Mapping[int, int]
    #: Per system, its ledger in stretches (timeline index of the first
    #: event, ledger), and the timeline's columns: what the ripple compares
    #: with the stored history (ripple.py).
    ledgers: list[tuple[str, list[tuple[int, base.Ledger]]]]
    columns: Columns


def _describe_error(error: base.RatingError, timeline: Timeline, offset: int) -> str:
    index = getattr(error, "index", None)
    if index is None or not 0 <= offset + index < len(timeline.events):
        return str(error)
    at = offset + index
    pk = timeline.game_ids[at]
    what = "game"
    if pk is None:
        what, pk = "adjustment", timeline.adjustment_ids[at]
    detail = f"{error.field}: {error.message}" if isinstance(error, base.InvalidEvent) else str(error)
    return f"{what} {pk} of {timeline.events[at].date}: {detail}"


def _count_games(
    timeline: Timeline, cuts: Sequence[int], games0: Mapping[int, int]
) -> tuple[dict[int, dict[str, int]], dict[int, int]]:
    """Games per player (forfeits not counted) at each cut and at the end."""
    counts: dict[Any, int] = dict(games0)
    at_cut: dict[int, dict[str, int]] = {}
    first, second, counted = timeline.first, timeline.second, timeline.counted
    n = len(counted)
    lo = 0
    for hi in [*cuts, n]:
        # Counted in C (Counter) per stretch between two cuts, then added.
        played = Counter(compress(first[lo:hi], counted[lo:hi]))
        played.update(compress(second[lo:hi], counted[lo:hi]))
        for player, games in played.items():
            counts[player] = counts.get(player, 0) + games
        if hi < n:
            at_cut[hi] = {str(k): v for k, v in counts.items()}
        lo = hi
    return at_cut, counts
