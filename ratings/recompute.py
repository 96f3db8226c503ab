"""The ratings update: mark a list dirty, recompute its history, tell the pages.

The process (docs/recompute.md):

1. A service that writes games or adjustments calls :func:`mark_dirty` inside
   its transaction.  The list's ``dirty_from`` becomes the earliest stale
   date and ``dirty_generation`` is bumped; after commit the recompute runs
   (in-process without a broker, else a Celery task by list id).
2. :func:`recompute_list` replays the list's timeline for every system the
   list computes and rewrites the history.
3. :func:`pending_notices` tells every page which lists are being updated.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import gc
import heapq
import json
import logging
import os
import struct
import threading
import time
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from itertools import chain, compress, islice, repeat, starmap
from operator import and_, eq, is_not, not_
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connections, transaction
from django.db.models import Case, Count, F, Min, Value, When
from django.utils import timezone
from django.utils.formats import date_format

from ratings import models as m
from ratings import predictions
from ratings.systems import SYSTEM_NAMES, base, get_system

log = logging.getLogger(__name__)


# --- 1. marking a list dirty -------------------------------------------------


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
    _schedule(rating_list_id)


def _schedule(rating_list_id: int) -> None:
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
        from ratings.tasks import recompute_list_task

        recompute_list_task.delay_on_commit(rating_list_id)
    else:
        transaction.on_commit(functools.partial(_recompute_in_process, rating_list_id, "commit"))


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
        from ratings.tasks import recompute_list_task

        recompute_list_task.delay(rating_list_id)
    else:
        _recompute_in_process(rating_list_id, trigger)


def first_event_date(rating_list: m.RatingList) -> date | None:
    """The date of the list's first game or adjustment (None: nothing yet)."""
    days = [
        m.Game.objects.filter(rating_list=rating_list).aggregate(first=Min("date"))["first"],
        m.RankAdjustment.objects.filter(rating_list=rating_list).aggregate(first=Min("date"))["first"],
    ]
    return min((d for d in days if d is not None), default=None)


# --- 3. notices --------------------------------------------------------------


def pending_notices() -> list[str]:
    """One sentence per list whose ratings are being updated (one query)."""
    rows = m.RatingList.objects.filter(dirty_from__isnull=False).values_list("name", "dirty_from")
    return [f"Ratings after {date_format(day, 'j F Y')} are being updated for {name}." for name, day in rows]


# --- 2. the recompute --------------------------------------------------------

#: Events between two checkpoints: a late game replays at most about this
#: many events before its date (a few hundredths of a second of engine time).
CHECKPOINT_EVERY = 5_000
#: Rounds one locked call runs while more work keeps arriving.
MAX_ROUNDS = 10
#: Namespace of the PostgreSQL advisory locks ("RATE").
LOCK_NAMESPACE = 0x52415445
#: Rows per INSERT statement on SQLite.
SQLITE_ROWS_PER_INSERT = 100
#: Rows per block written to PostgreSQL's COPY.
COPY_BLOCK = 20_000
#: SQLite page cache of the recompute's connection, in KiB.
SQLITE_CACHE_KIB = 262_144
#: A rewrite drops the history's secondary indexes and builds them again
#: when it writes at least this many rows and at least 1/REBUILD_SHARE of
#: the rows that stay in the table (_drop_indexes).
REBUILD_MIN_ROWS = 100_000
REBUILD_SHARE = 2


#: Seconds spent in each step by the runs of this process (bench/recompute.py
#: reports them; "engine" is the rating systems' own time, "load" reading
#: the timeline, "write" the transaction that rewrites the history).
timings: dict[str, float] = {"load": 0.0, "engine": 0.0, "write": 0.0, "index": 0.0}


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """The cyclic garbage collector off while a recompute builds millions of
    objects (events, rows) that make no cycles: each collection walks every
    object still alive, which grows with the federation (a million games:
    the read alone 16.7 -> 11.5 s CPU, measured).  Refcounting still frees
    everything; the collector is restored afterwards."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@dataclass
class Timeline:
    """The list's events in timeline order, and the same events as columns
    (what the checkpoints and the history rows need, without reading every
    event's attributes back: a million events)."""

    events: list[base.Event] = field(default_factory=list)
    #: Per event: the game's id (None for an adjustment) ...
    game_ids: list[int | None] = field(default_factory=list)
    #: ... and the adjustment's id (None for a game).
    adjustment_ids: list[int | None] = field(default_factory=list)
    #: Per event: its date; the first slot's player (White, or the adjusted
    #: player) and the second's (Black; None for an adjustment).
    days: list[date] = field(default_factory=list)
    first: list[Any] = field(default_factory=list)
    second: list[Any] = field(default_factory=list)
    #: Per event: a game that counts in the players' games (not forfeited).
    counted: list[bool] = field(default_factory=list)
    #: Per event: the game's rating period when it is a tournament's
    #: (base.Game.event), else None.
    periods: list[str | None] = field(default_factory=list)
    starts: dict[Any, base.Start] = field(default_factory=dict)

    def games(self) -> int:
        return len(self.game_ids) - self.game_ids.count(None)

    def extend(self, other: Timeline) -> None:
        for name in ("events", "game_ids", "adjustment_ids", "days", "first", "second", "counted", "periods"):
            getattr(self, name).extend(getattr(other, name))

    def add_adjustment(self, pk: int, adjustment: base.Adjustment) -> None:
        self.events.append(adjustment)
        self.game_ids.append(None)
        self.adjustment_ids.append(pk)
        self.days.append(adjustment.date)
        self.first.append(adjustment.player)
        self.second.append(None)
        self.counted.append(False)
        self.periods.append(None)


def load_timeline(rating_list: m.RatingList, from_date: date | None = None) -> Timeline:
    """Games and adjustments of ``list`` dated ``from_date`` or later, in
    timeline order: date, then entry order (entered_at, id); a game and an
    adjustment entered at the same instant: the game first.

    Raw SQL in the order of the game_timeline index: the ORM's per-value
    converters cost more than the rating engine itself at a million games.
    """
    conn = transaction.get_connection()
    quote = conn.ops.quote_name
    game_table = quote(m.Game._meta.db_table)
    after = "" if from_date is None else "AND g.date >= %s"
    params: list[Any] = [rating_list.pk] if from_date is None else [rating_list.pk, from_date.isoformat()]
    adjustments = m.RankAdjustment.objects.filter(rating_list=rating_list)
    if from_date is not None:
        adjustments = adjustments.filter(date__gte=from_date)
    adjustment_rows = list(
        adjustments.order_by("date", "entered_at", "id").values_list(
            "date", "entered_at", "id", "player_id", "rank", "rating"
        )
    )
    # Dates as ISO text (parsed once per distinct date in _games); the entry
    # time only when adjustments must be merged in (parsing a million
    # timestamps costs seconds).
    entered = "g.entered_at" if adjustment_rows else "NULL"
    games_sql = (
        f"SELECT CAST(g.date AS TEXT), {entered}, g.id, g.white_id, g.black_id, g.winner, g.handicap, "
        "CAST(g.komi AS DOUBLE PRECISION), g.kind, g.board, g.minutes, g.forfeit, g.sheet_id, g.club_id "
        f"FROM {game_table} g WHERE g.rating_list_id = %s {after} ORDER BY g.date, g.entered_at, g.id"
    )
    # A game's club (by slug) makes its day a rating period of its own: two
    # clubs of a list playing on one day are two club nights.
    slug = dict(m.Club.objects.filter(rating_list=rating_list).values_list("id", "slug"))
    with conn.cursor() as cursor, _index_order(cursor, conn.vendor):
        cursor.execute(games_sql, params)
        game_rows = cursor.fetchall()
    # The sheets' events as a dict rather than a join in the query (cheaper
    # on both backends, measured: 0.2-0.3 s a list of 200,000 games).
    events_of = _sheet_events(m.RecordSheet.objects.filter(club__rating_list=rating_list))
    if not adjustment_rows:
        # The common case: games only, column by column (no merge layer).
        timeline = _games(game_rows, slug, events_of)
    else:
        # Few adjustments: merge them into the games by timeline key, on
        # one footing (the backends give dates and datetimes differently).
        timeline = Timeline()
        merged: Iterable[tuple[Any, ...]] = heapq.merge(
            ((_as_date(r[0]), _as_utc(r[1]), 0, r[2], r) for r in game_rows),
            ((_as_date(r[0]), _as_utc(r[1]), 1, r[2], r) for r in adjustment_rows),
            key=lambda item: item[:4],
        )
        run: list[tuple[Any, ...]] = []
        for _day, _at, tag, _pk, row in merged:
            if tag == 0:
                run.append(row)
                continue
            if run:
                timeline.extend(_games(run, slug, events_of))
                run = []
            day, _, pk, player, rank, rating = row
            timeline.add_adjustment(pk, base.Adjustment(day, player, rank, rating))
        if run:
            timeline.extend(_games(run, slug, events_of))
    for pk, start_rank in m.Player.objects.filter(rating_list=rating_list).values_list("id", "start_rank"):
        timeline.starts[pk] = base.Start(rank=start_rank)
    return timeline


@contextlib.contextmanager
def _index_order(cursor: Any, vendor: str) -> Iterator[None]:
    """PostgreSQL: read in the order of the game_timeline index rather than
    sort (the planner sorts a whole list's games, 0.6 s a list of 200,000
    with work_mem spilling to disk, against 0.25 s by the index, measured).
    The setting is restored afterwards."""
    if vendor != "postgresql":
        yield
        return
    cursor.execute("SELECT current_setting('enable_sort'), set_config('enable_sort', 'off', false)")
    previous = cursor.fetchone()[0]
    try:
        yield
    finally:
        # Not over the query's own error (in a failed transaction the
        # setting is rolled back with it anyway).
        with contextlib.suppress(DatabaseError):
            cursor.execute("SELECT set_config('enable_sort', %s, false)", [previous])


def _sheet_events(sheets: Any) -> dict[int, str | None]:
    """Sheet id -> the event that makes its games one rating period, None
    for every other sheet.  The period of a game (base.period_key) is a
    tournament sheet's event, one period per year so that next year's
    edition is another period (_games adds the year); every other game
    belongs to its club's day."""
    tournament = m.Kind.TOURNAMENT.value
    return {
        pk: event if event and kind == tournament else None
        for pk, event, kind in sheets.values_list("id", "event", "kind")
    }


class _Cache(dict[Any, Any]):
    """A dict that computes a missing value once: ``map(cache.__getitem__,
    column)`` converts a column in C, calling Python once per distinct
    value only."""

    def __init__(self, convert: Callable[[Any], Any]) -> None:
        super().__init__()
        self.convert = convert

    def __missing__(self, key: Any) -> Any:
        value = self[key] = self.convert(key)
        return value


def _day(value: Any) -> date:
    return value if isinstance(value, date) else date.fromisoformat(value)


def _games(
    rows: Sequence[tuple[Any, ...]], slug: Mapping[int, str], events_of: Mapping[int, str | None]
) -> Timeline:
    """The timeline of the rows of the timeline query (games only).

    The hot path of the read (a million rows): the rows are turned into
    columns and every conversion is a ``map`` over a column (each distinct
    date or value converted once), so no Python code runs per game but
    base.Game's own constructor (measured, docs/recompute.md)."""
    if not rows:
        return Timeline()
    (
        days_raw,
        _,
        ids,
        whites,
        blacks,
        winners,
        handicaps,
        komis,
        kinds,
        boards,
        minutes,
        forfeits,
        sheets,
        clubs,
    ) = zip(*rows, strict=True)
    days = list(map(_Cache(_day).__getitem__, days_raw))
    # The period (see _sheet_events): a tournament sheet's event and year.
    periods: list[str | None] = list(map(events_of.__getitem__, sheets))
    for i in compress(range(len(periods)), periods):
        periods[i] = f"{periods[i]} ({days[i].year})"
    forfeited = list(map(bool, forfeits))  # 0/1 on SQLite
    winner_of = {w.value: w for w in base.Winner}
    kind_of = {k.value: k for k in base.Kind}
    events: list[base.Event] = list(
        map(
            base.Game,
            days,
            whites,
            blacks,
            map(winner_of.__getitem__, winners),
            handicaps,
            komis,  # a float already: CAST(... AS DOUBLE PRECISION)
            map(kind_of.__getitem__, kinds),
            boards,
            minutes,
            periods,
            repeat(None),
            map(slug.__getitem__, clubs),
            forfeited,
        )
    )
    return Timeline(
        events=events,
        game_ids=list(ids),
        adjustment_ids=[None] * len(events),
        days=days,
        first=list(whites),
        second=list(blacks),
        counted=list(map(not_, forfeited)),
        periods=periods,
    )


def _as_date(value: Any) -> date:
    return value if isinstance(value, date) else date.fromisoformat(value)


def _as_utc(value: Any) -> datetime:
    """A naive UTC datetime from an aware one, a naive UTC one (SQLite) or text."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if value.tzinfo is not None:
        value = value.astimezone(UTC).replace(tzinfo=None)
    return value  # type: ignore[no-any-return]


def period_start(rating_list: m.RatingList, day: date) -> date:
    """``day`` moved back to the first date of any multi-day rating period
    (a tournament) that it would split: EGF and FFG rate a period at once
    (seed 004; seed 002 "Chaque itération se fait sur l'ensemble des rondes
    du tournoi"), so a recompute may only start on a period boundary."""
    pairs = (
        m.Game.objects.filter(rating_list=rating_list, sheet__kind=m.Kind.TOURNAMENT, date__lt=day)
        .filter(date__gte=date(day.year, 1, 1))
        .exclude(sheet__event="")
        .values_list("sheet__event")
        .annotate(first=Min("date"))
        .order_by()
    )
    firsts = dict(pairs)
    if not firsts:
        return day
    later = set(
        m.Game.objects.filter(
            rating_list=rating_list,
            sheet__kind=m.Kind.TOURNAMENT,
            date__gte=day,
            sheet__event__in=list(firsts),
        )
        .filter(date__lte=date(day.year, 12, 31))
        .values_list("sheet__event", flat=True)
        .distinct()
        .order_by()
    )
    split = [first for event, first in firsts.items() if event in later]
    return min(split, default=day)


def _boundaries(timeline: Timeline, write_from: int) -> list[int]:
    """Where to cut the replay and store a checkpoint: every CHECKPOINT_EVERY
    events or so, on the first event of a date that no multi-day period
    straddles, and only at or after ``write_from``."""
    days, periods = timeline.days, timeline.periods
    spans: dict[str, list[date]] = {}
    for i in compress(range(len(periods)), periods):  # tournament games only
        span = spans.setdefault(periods[i], [days[i], days[i]])  # type: ignore[arg-type]
        span[1] = days[i]
    inside: set[date] = set()
    for first, last in spans.values():
        day = first
        while day < last:
            day += timedelta(days=1)
            inside.add(day)
    cuts: list[int] = []
    i = max(write_from, 1, CHECKPOINT_EVERY)
    while i < len(days):
        if days[i] != days[i - 1] and days[i] not in inside:
            cuts.append(i)
            i += CHECKPOINT_EVERY
        else:
            i += 1
    return cuts


@functools.cache
def _system(name: str) -> base.RatingSystem:
    """One instance per system and process: a system is immutable once
    built, and building one precomputes its tables (0.1 s for SAGC), which
    a late game's recompute need not pay every time."""
    return get_system(name)


def _systems(rating_list: m.RatingList) -> list[tuple[str, base.RatingSystem]]:
    """The list's systems, primary first; a system whose module is missing
    (a colleague is still writing it) is skipped with a warning."""
    found = []
    for name in rating_list.systems:
        try:
            found.append((name, _system(name)))
        except ImportError:
            log.warning("rating system %s is not available; skipped for list %s", name, rating_list.slug)
    return found


_HISTORY_COLUMNS = (
    "rating_list_id", "system", "seq", "date", "player_id", "game_id", "adjustment_id", "colour", "opponent_id",
    "rank_before", "rating_before", "change", "rank_after", "rating_after",
)  # fmt: skip

#: PostgreSQL's binary COPY: signature, flags and header extension ...
_COPY_HEADER = b"PGCOPY\n\xff\r\n\x00" + bytes(8)
#: ... and the end marker (a tuple of -1 fields).
_COPY_TRAILER = b"\xff\xff"
#: PostgreSQL's binary date: days since 2000-01-01.
_PG_EPOCH = date(2000, 1, 1).toordinal()


@dataclass
class Columns:
    """The timeline as columns, shared by every system's rows: per event its
    date (ISO text for SQLite, days since 2000 for PostgreSQL's binary
    COPY), the first slot's player (White, or the adjusted player), the
    second slot's (Black, None for an adjustment), game id, adjustment id,
    and whether it is a game."""

    days: list[Any]
    first: list[Any]
    second: list[Any]
    game: list[int | None]
    adjustment: list[int | None]
    is_game: list[bool]
    #: Rows as PostgreSQL binary COPY tuples (bytes) rather than tuples.
    binary: bool = False

    @classmethod
    def of(cls, timeline: Timeline, binary: bool = False) -> Columns:
        """``binary``: rows for PostgreSQL's binary COPY; else tuples with
        dates as ISO text (SQLite)."""
        if binary:
            days = list(map(_Cache(lambda d: d.toordinal() - _PG_EPOCH).__getitem__, timeline.days))
        else:
            days = list(map(_Cache(date.isoformat).__getitem__, timeline.days))
        is_game = list(map(is_not, timeline.game_ids, repeat(None)))
        return cls(
            days,
            timeline.first,
            timeline.second,
            timeline.game_ids,
            timeline.adjustment_ids,
            is_game,
            binary,
        )


def history_rows(
    rating_list_id: int,
    system: str,
    columns: Columns,
    ledger: base.Ledger,
    offset: int,
    first_seq: int,
    write_from: int = 0,
) -> Iterator[Any]:
    """The HistoryEntry rows of one system's ledger (whose event 0 is event
    ``offset`` of the timeline) for the events from ``write_from`` on: for
    PostgreSQL (Columns.binary) each row as a tuple of the binary COPY
    (bytes), for SQLite _Blocks of rows; an empty (NaN) slot gives no row.
    Built by zip over the ledger's columns: no Python code per row."""
    lo = max(offset, write_from)
    hi = offset + len(ledger)
    if lo >= hi:
        return iter(())
    if columns.binary:
        return _binary_rows(
            rating_list_id, system, columns, ledger, lo - offset, hi - offset, first_seq + offset, offset
        )
    return _sqlite_blocks(
        rating_list_id, system, columns, ledger, lo - offset, hi - offset, first_seq + offset, offset
    )


_FLOAT_COLUMNS = ("rank_before", "rating_before", "change", "rank_after", "rating_after")


@dataclass
class _Block:
    """SQLite: history rows that share their list, system, colour and kind
    (one slot of one system's chunk), written with those as literals in the
    INSERT, so each row binds only what varies: 10 values rather than 14
    (measured: 4.4-5.9 -> 3.2-3.5 us a row).  ``rows`` are (seq, date,
    player, game, opponent, 5 doubles) for games, (seq, date, player,
    adjustment, 5 doubles) for an adjustment."""

    rating_list_id: int
    system: str
    colour: str
    game: bool
    rows: Iterable[tuple[Any, ...]]

    def statement(self, quote: Callable[[str], str]) -> tuple[str, str, int]:
        """INSERT ... VALUES, one row's VALUES tuple, and its parameters."""
        if not self.system.replace("-", "").replace("_", "").isalnum() or self.colour not in ("w", "b", ""):
            raise ValueError(f"not a literal: {self.system!r} {self.colour!r}")
        fixed = [str(int(self.rating_list_id)), f"'{self.system}'", f"'{self.colour}'"]
        if self.game:
            names = [
                "rating_list_id",
                "system",
                "colour",
                "adjustment_id",
                "seq",
                "date",
                "player_id",
                "game_id",
            ]
            names += ["opponent_id", *_FLOAT_COLUMNS]
            fixed.append("NULL")
        else:
            names = [
                "rating_list_id",
                "system",
                "colour",
                "game_id",
                "opponent_id",
                "seq",
                "date",
                "player_id",
            ]
            names += ["adjustment_id", *_FLOAT_COLUMNS]
            fixed += ["NULL", "NULL"]
        width = len(names) - len(fixed)
        insert = (
            f"INSERT INTO {quote(m.HistoryEntry._meta.db_table)} ({', '.join(map(quote, names))}) VALUES "
        )
        return insert, f"({', '.join(fixed + ['%s'] * width)})", width


def _sqlite_blocks(
    rating_list_id: int,
    system: str,
    c: Columns,
    ledger: base.Ledger,
    lo: int,
    hi: int,
    seq0: int,
    offset: int,
) -> Iterator[_Block]:
    """history_rows for SQLite: ledger events lo..hi (timeline events
    offset+lo..offset+hi) as _Blocks of tuples built by zip (no Python
    code per row)."""
    t_lo, t_hi = offset + lo, offset + hi
    seqs = range(seq0 + lo, seq0 + hi)
    days = c.days[t_lo:t_hi]
    is_game = c.is_game[t_lo:t_hi]
    blocks = []
    for parity in (0, 1):
        change = ledger.change[2 * lo + parity : 2 * hi : 2]
        filled = list(map(eq, change, change))  # NaN != NaN: empty slots dropped
        floats = [getattr(ledger, name)[2 * lo + parity : 2 * hi : 2] for name in _FLOAT_COLUMNS]
        player, opponent = (c.first, c.second) if parity == 0 else (c.second, c.first)
        games = zip(seqs, days, player[t_lo:t_hi], c.game[t_lo:t_hi], opponent[t_lo:t_hi], *floats)  # noqa: B905
        blocks.append(
            _Block(rating_list_id, system, "wb"[parity], True, compress(games, map(and_, filled, is_game)))
        )
        if parity == 0 and not all(is_game):  # adjustments have only a first slot
            adjustments = zip(seqs, days, player[t_lo:t_hi], c.adjustment[t_lo:t_hi], *floats)  # noqa: B905
            mask = map(and_, filled, map(not_, is_game))
            blocks.append(_Block(rating_list_id, system, "", False, compress(adjustments, mask)))
    return iter(blocks)


@functools.cache
def _binary_formats(system: str) -> tuple[struct.Struct, struct.Struct]:
    """The binary COPY tuple of a game's row and of an adjustment's (fields
    in the order of _HISTORY_COLUMNS, each an int32 length and its bytes,
    -1 for NULL); the constant lengths are passed as values."""
    head = f">h iq i{len(system.encode())}s iq ii iq"  # count, list, system, seq, date, player
    floats = " id" * 5
    game = struct.Struct(f"{head} iq i i1s iq{floats}")  # game, NULL, colour, opponent
    adjustment = struct.Struct(f"{head} i iq i i{floats}")  # NULL, adjustment, "", NULL
    return game, adjustment


def _binary_rows(
    rating_list_id: int,
    system: str,
    c: Columns,
    ledger: base.Ledger,
    lo: int,
    hi: int,
    seq0: int,
    offset: int,
) -> Iterator[bytes]:
    """history_rows for PostgreSQL's binary COPY: ledger events lo..hi
    (timeline events offset+lo..offset+hi), each row packed by one C call
    (struct), so there is no text to format here nor to parse in the
    server (measured, docs/recompute.md)."""
    game, adjustment = _binary_formats(system)
    name = system.encode()
    eight, four = repeat(8), repeat(4)
    t_lo, t_hi = offset + lo, offset + hi
    seqs = range(seq0 + lo, seq0 + hi)
    days = c.days[t_lo:t_hi]
    is_game = c.is_game[t_lo:t_hi]
    head = (
        repeat(14),
        eight,
        repeat(rating_list_id),
        repeat(len(name)),
        repeat(name),
        eight,
        seqs,
        four,
        days,
        eight,
    )
    parts = []
    for parity in (0, 1):
        change = ledger.change[2 * lo + parity : 2 * hi : 2]
        filled = list(map(eq, change, change))  # NaN != NaN: empty slots dropped
        floats: list[Iterable[Any]] = []
        for column in (
            ledger.rank_before,
            ledger.rating_before,
            ledger.change,
            ledger.rank_after,
            ledger.rating_after,
        ):
            floats += [eight, column[2 * lo + parity : 2 * hi : 2]]
        player, opponent = (c.first, c.second) if parity == 0 else (c.second, c.first)
        colour = repeat(b"wb"[parity : parity + 1])
        games = zip(
            *head, player[t_lo:t_hi], eight, c.game[t_lo:t_hi], repeat(-1), repeat(1), colour, eight,
            opponent[t_lo:t_hi], *floats,
        )  # fmt: skip
        parts.append(starmap(game.pack, compress(games, map(and_, filled, is_game))))
        if parity == 0 and not all(is_game):  # adjustments have only a first slot
            adjustments = zip(
                *head, player[t_lo:t_hi], repeat(-1), eight, c.adjustment[t_lo:t_hi], repeat(0), repeat(-1),
                *floats,
            )  # fmt: skip
            parts.append(
                starmap(adjustment.pack, compress(adjustments, map(and_, filled, map(not_, is_game))))
            )
    return chain(*parts)


def write_history(rows: Iterable[Any]) -> int:
    """Insert history rows (see history_rows) in bulk: rows of binary COPY
    (bytes, PostgreSQL) go to one ``COPY ... (FORMAT binary)`` as blocks;
    tuples (SQLite) to copy_rows.  Returns how many rows were written."""
    iterator = iter(rows)
    head = next(iterator, None)
    if head is None:
        return 0
    rows = chain([head], iterator)
    if isinstance(head, _Block):
        conn = transaction.get_connection()
        written = 0
        with conn.cursor() as cursor:
            for block in rows:
                insert, one, width = block.statement(conn.ops.quote_name)
                written += _insert_many(cursor, insert, one, width, block.rows)
        return written
    if not isinstance(head, bytes):
        return copy_rows(m.HistoryEntry._meta.db_table, _HISTORY_COLUMNS, rows)
    conn = transaction.get_connection()
    quote = conn.ops.quote_name
    names = ", ".join(quote(col) for col in _HISTORY_COLUMNS)
    table = getattr(conn, _STAGING, None) or m.HistoryEntry._meta.db_table  # _staged_history
    written = 0
    with (
        conn.cursor() as cursor,
        cursor.cursor.copy(f"COPY {quote(table)} ({names}) FROM STDIN WITH (FORMAT binary)") as copy,
    ):
        copy.write(_COPY_HEADER)
        while block := list(islice(rows, COPY_BLOCK)):
            copy.write(b"".join(block))
            written += len(block)
        copy.write(_COPY_TRAILER)
    return written


def copy_rows(table: str, columns: Sequence[str], rows: Iterable[tuple[Any, ...]]) -> int:
    """Insert rows in bulk: COPY on PostgreSQL (psycopg 3), elsewhere
    (SQLite; dates as ISO text) INSERTs of SQLITE_ROWS_PER_INSERT rows each
    in one executemany.  Returns how many rows were written.  Runs in the caller's transaction."""
    conn = transaction.get_connection()
    quote = conn.ops.quote_name
    names = ", ".join(quote(c) for c in columns)
    written = 0
    with conn.cursor() as cursor:
        if conn.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {quote(table)} ({names}) FROM STDIN") as copy:
                write_row = copy.write_row
                for row in rows:
                    write_row(row)
                    written += 1
            return written
        one = f"({', '.join(['%s'] * len(columns))})"
        written = _insert_many(
            cursor, f"INSERT INTO {quote(table)} ({names}) VALUES ", one, len(columns), rows
        )
    return written


def _insert_many(cursor: Any, insert: str, one: str, width: int, rows: Iterable[tuple[Any, ...]]) -> int:
    """SQLite: ``rows`` (``width`` parameters each) as INSERTs of
    SQLITE_ROWS_PER_INSERT rows (``insert`` + that many ``one``) in one
    executemany.  SQLite does some work per statement (the AUTOINCREMENT
    counter, the statement journal) that one row a statement paid per row
    (measured: 7.5 -> 4.2 us a row).  The rows are flattened straight into
    each statement's parameters.  Returns how many rows were written."""
    values = chain.from_iterable(rows)
    size = width * SQLITE_ROWS_PER_INSERT
    rest: tuple[Any, ...] = ()
    written = 0

    def statements() -> Iterator[tuple[Any, ...]]:
        nonlocal rest, written
        while len(params := tuple(islice(values, size))) == size:
            written += SQLITE_ROWS_PER_INSERT
            yield params
        rest = params

    cursor.executemany(insert + ", ".join([one] * SQLITE_ROWS_PER_INSERT), statements())
    if rest:
        cursor.executemany(insert + one, [rest[i : i + width] for i in range(0, len(rest), width)])
        written += len(rest) // width
    return written


# --- the lock ------------------------------------------------------------------

_memory_locks: dict[tuple[str, int], threading.Lock] = {}
_memory_locks_guard = threading.Lock()


@contextlib.contextmanager
def list_lock(rating_list_id: int) -> Iterator[bool]:
    """Try to take the list's recompute lock; yields whether it was taken.

    PostgreSQL: a session advisory lock (released by the server if the
    process dies).  SQLite: an flock on a file beside the database (released
    by the kernel if the process dies); an in-memory database (tests) is
    private to its process, so a process-wide lock is enough there.
    """
    conn = transaction.get_connection()
    if conn.vendor == "postgresql":
        with conn.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [LOCK_NAMESPACE, rating_list_id])
            taken = bool(cursor.fetchone()[0])
        try:
            yield taken
        finally:
            if taken:
                with contextlib.suppress(Exception), conn.cursor() as cursor:
                    cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [LOCK_NAMESPACE, rating_list_id])
        return
    name = str(conn.settings_dict["NAME"])
    if name == ":memory:" or "mode=memory" in name or not name:
        with _memory_locks_guard:
            lock = _memory_locks.setdefault((name, rating_list_id), threading.Lock())
        taken = lock.acquire(blocking=False)
        try:
            yield taken
        finally:
            if taken:
                lock.release()
        return
    fd = os.open(f"{name}.recompute-{rating_list_id}.lock", os.O_CREAT | os.O_RDWR, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
        else:
            yield True
    finally:
        os.close(fd)  # closing the descriptor releases the flock


# --- the run -------------------------------------------------------------------


def recompute_list(
    rating_list_id: int,
    *,
    full: bool = False,
    from_date: date | None = None,
    trigger: str = "call",
    progress: Callable[[int], None] | None = None,
    raise_if_busy: bool = False,
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
                rating_list_id, full=full, from_date=from_date, trigger=trigger, progress=progress
            )
        last = run or last
        full, from_date = False, None
        # Re-read after releasing the lock: a run enqueued while we held it
        # gave up, so its work is ours (no lost wake-up).
        if m.RatingList.objects.filter(pk=rating_list_id, dirty_from__isnull=False).exists() is False:
            if last is not None:
                predictions.schedule(rating_list_id)  # the committee's figures (issue 17)
            return last
    return last


def recompute_all(
    *, trigger: str = "call", progress: Callable[[int], None] | None = None, raise_if_busy: bool = False
) -> list[m.RecomputeRun]:
    """Recompute every list's whole history (the federation's full
    recompute: a system changed, or a restore) in ONE write transaction.

    Every list is replayed first, outside any transaction; then one
    transaction drops the history's secondary indexes, rewrites every
    list and builds the indexes once (per list, the later lists would
    either rebuild the indexes over the lists already written or insert
    into them row by row: measured, docs/recompute.md).  A crash or an
    error rolls it all back: the previous history stays, every list stays
    dirty.  It holds every list's lock; if one is busy (a recompute is
    running), it falls back to one full recompute per list (which raises
    :class:`RecomputeBusy` for a busy list with ``raise_if_busy``).
    """
    rating_lists = list(m.RatingList.objects.order_by("pk"))
    with contextlib.ExitStack() as locks:
        if not all(locks.enter_context(list_lock(rating_list.pk)) for rating_list in rating_lists):
            locks.close()
            one_by_one = [
                recompute_list(
                    rating_list.pk, full=True, trigger=trigger, progress=progress, raise_if_busy=raise_if_busy
                )
                for rating_list in rating_lists
            ]
            return [run for run in one_by_one if run is not None]
        runs: list[m.RecomputeRun] = []
        for rating_list in rating_lists:
            m.RecomputeRun.objects.filter(
                rating_list=rating_list, status=m.RecomputeRun.Status.RUNNING
            ).update(
                status=m.RecomputeRun.Status.ABANDONED,
                finished_at=timezone.now(),
                error="The process running it died.",
            )
            runs.append(
                m.RecomputeRun.objects.create(
                    rating_list=rating_list,
                    from_date=None,
                    full=True,
                    trigger=trigger,
                    generation=rating_list.dirty_generation,
                )
            )
        began = time.perf_counter()
        try:
            with _gc_paused():
                if transaction.get_connection().vendor == "postgresql":
                    _replay_and_write_overlapped(rating_lists, runs, progress)
                else:
                    _replay_then_write(rating_lists, runs, progress)
            for rating_list, run in zip(rating_lists, runs, strict=True):
                _mark_clean_outside(rating_list.pk, run.generation)
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
                run.save(
                    update_fields=[
                        "status",
                        "games_replayed",
                        "rows_written",
                        "error",
                        "duration",
                        "finished_at",
                    ]
                )
    return runs


def _replay_then_write(
    rating_lists: list[m.RatingList], runs: list[m.RecomputeRun], progress: Callable[[int], None] | None
) -> None:
    """recompute_all's work on SQLite: replay every list, then rewrite the
    history in one transaction with one index rebuild.  (Overlapping the
    write with the replays, as on PostgreSQL, did not pay here, measured:
    SQLite's work runs in this process and binding the rows holds the GIL,
    so a writer thread mostly takes turns with the engine: 41-47 s either
    way at a million games, within the machine's noise.)"""
    rewrites = [
        _replay(rating_list, _systems(rating_list), None, None, run, progress)
        for rating_list, run in zip(rating_lists, runs, strict=True)
    ]
    write_began = time.perf_counter()
    with transaction.atomic():
        _tune_connection()
        expected = sum(rewrite.expected for rewrite in rewrites)
        rebuild = _drop_secondary_indexes() if expected >= REBUILD_MIN_ROWS else []
        _empty_history()  # every list's history is rewritten from scratch
        for rewrite, run in zip(rewrites, runs, strict=True):
            _rewrite(rewrite, run, emptied=True)
        if rebuild:
            _create_indexes(rebuild)
    _time_write(time.perf_counter() - write_began, locked=bool(rebuild))


def _replay_and_write_overlapped(
    rating_lists: list[m.RatingList], runs: list[m.RecomputeRun], progress: Callable[[int], None] | None
) -> None:
    """recompute_all's work on PostgreSQL: every list's timeline is read
    first; then, in one write transaction, a writer thread COPYs each
    replayed list while this thread replays the next one.  The server
    ingests the rows (another process, another core) while Python runs the
    engine; the writer waits on the socket without the GIL.  The connection
    is shared with the writer, which alone uses it until it has finished
    (a full replay from a read timeline makes no query).  The rows go
    into a staging table that replaces the history at the end
    (_StagedHistory), so readers wait only for that swap."""
    clock = time.perf_counter
    began = clock()
    timelines: list[Timeline | None] = [load_timeline(rating_list) for rating_list in rating_lists]
    timings["load"] += clock() - began
    systems = [_systems(rating_list) for rating_list in rating_lists]
    expected = sum(
        2 * len(each) * len(timeline.events)
        for each, timeline in zip(systems, timelines, strict=True)
        if timeline
    )
    conn = transaction.get_connection()
    write_began = clock()
    locked = 0.0
    with _staged_history(expected >= REBUILD_MIN_ROWS) as staging, transaction.atomic():
        staged = staging.begin()
        if not staged:  # a small federation: written into the table and its indexes
            _empty_history()

        def share() -> None:  # the writer thread uses this transaction's connection
            connections[conn.alias] = conn

        conn.inc_thread_sharing()
        writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="recompute-writer", initializer=share)
        try:
            written = []
            for number, (rating_list, run) in enumerate(zip(rating_lists, runs, strict=True)):
                for future in written:  # a write that failed stops the replays too
                    if future.done():
                        future.result()
                timeline, timelines[number] = timelines[number], None  # freed once replayed
                rewrite = _replay(rating_list, systems[number], None, None, run, progress, timeline)
                del timeline
                written.append(writer.submit(_rewrite, rewrite, run, True))
                del rewrite
            for future in written:
                future.result()  # the writer's error, if any, is this transaction's
        finally:
            writer.shutdown(wait=True, cancel_futures=True)
            conn.dec_thread_sharing()
        if staged:
            _create_indexes(staging.create)
            locked = clock()
            staging.swap()
    _time_write(clock() - write_began, locked=staged, locked_for=clock() - locked if staged else None)


def _recompute_locked(
    rating_list_id: int,
    *,
    full: bool,
    from_date: date | None,
    trigger: str,
    progress: Callable[[int], None] | None,
) -> m.RecomputeRun | None:
    rating_list = m.RatingList.objects.get(pk=rating_list_id)
    # We hold the lock, so a run still marked running died with its process.
    m.RecomputeRun.objects.filter(rating_list=rating_list, status=m.RecomputeRun.Status.RUNNING).update(
        status=m.RecomputeRun.Status.ABANDONED,
        finished_at=timezone.now(),
        error="The process running it died.",
    )
    generation = rating_list.dirty_generation
    start: date | None = None
    if not full:
        candidates = [d for d in (rating_list.dirty_from, from_date) if d is not None]
        if candidates:
            start = period_start(rating_list, min(candidates))
        elif m.HistoryEntry.objects.filter(rating_list=rating_list).exists() or not (
            m.Game.objects.filter(rating_list=rating_list).exists()
            or m.RankAdjustment.objects.filter(rating_list=rating_list).exists()
        ):
            return None
        # else: never computed (a list filled by a script): replay it all.
    systems = _systems(rating_list)
    names = [name for name, _ in systems]
    # Resume from the latest date at or before ``start`` where every system
    # has a checkpoint; none (a small list, a newly added system): replay
    # and rewrite everything.
    resume: date | None = None
    if start is not None and names:
        resume = (
            m.RatingCheckpoint.objects.filter(rating_list=rating_list, system__in=names, date__lte=start)
            .values("date")
            .annotate(n=Count("id"))
            .filter(n=len(names))
            .order_by("-date")
            .values_list("date", flat=True)
            .first()
        )
        if resume is None:
            start = None
    run = m.RecomputeRun.objects.create(
        rating_list=rating_list, from_date=start, full=start is None, trigger=trigger, generation=generation
    )
    began = time.perf_counter()
    try:
        with _gc_paused():
            _replay_and_write(rating_list, systems, start, resume, run, progress)
        _mark_clean_outside(rating_list.pk, generation)
        run.status = m.RecomputeRun.Status.DONE
    except Exception as error:
        run.status = m.RecomputeRun.Status.FAILED
        run.error = f"{type(error).__name__}: {error}"
        raise
    finally:
        run.duration = time.perf_counter() - began
        run.finished_at = timezone.now()
        run.save(
            update_fields=["status", "games_replayed", "rows_written", "error", "duration", "finished_at"]
        )
    return run


def _replay(
    rating_list: m.RatingList,
    systems: list[tuple[str, base.RatingSystem]],
    start: date | None,
    resume: date | None,
    run: m.RecomputeRun,
    progress: Callable[[int], None] | None,
    timeline: Timeline | None = None,
) -> _Rewrite:
    """Replay from ``resume`` (a checkpoint date, or the beginning) outside
    any transaction (it only reads); the rows from ``start`` on are built
    when the returned rewrite is written.  ``timeline``: already read (a
    full replay then touches no database)."""
    clock = time.perf_counter
    if timeline is None:
        began = clock()
        timeline = load_timeline(rating_list, resume)
        timings["load"] += clock() - began
    events = timeline.events
    write_from = 0 if start is None else bisect_left(timeline.days, start)
    cuts = _boundaries(timeline, write_from)
    checkpoints = {
        cp.system: cp for cp in m.RatingCheckpoint.objects.filter(rating_list=rating_list, date=resume, system__in=[n for n, _ in systems])
    } if resume is not None else {}  # fmt: skip
    first_seq = next(iter(checkpoints.values())).seq if checkpoints else 0
    games0 = {int(k): v for k, v in next(iter(checkpoints.values())).games.items()} if checkpoints else {}
    # Games counted per player at each cut (the same for every system).
    games_at_cut, final_games = _count_games(timeline, cuts, games0)
    ledgers: list[tuple[str, list[tuple[int, base.Ledger]]]] = []
    new_checkpoints: list[m.RatingCheckpoint] = []
    final_state: Mapping[Any, Any] = {}
    for number, (name, system) in enumerate(systems):
        cp = checkpoints.get(name)
        state: Mapping[Any, Any] | None = (
            {int(k): system.state_from_json(v) for k, v in cp.states.items()} if cp is not None else None
        )
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
                        seq=first_seq + hi,
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

    columns = Columns.of(timeline, binary=transaction.get_connection().vendor == "postgresql")

    def rows() -> Iterator[tuple[Any, ...]]:
        # chain, not a generator with ``yield from``: no Python frame per
        # row (2,000,000 rows: ~1.5 s, profiled).
        return chain.from_iterable(
            history_rows(rating_list.pk, name, columns, ledger, lo, first_seq, write_from)
            for name, chunks in ledgers
            for lo, ledger in chunks
        )

    # The timeline itself is not kept: the rows need only its columns.
    expected = 2 * len(systems) * (len(events) - write_from)
    return _Rewrite(
        rating_list, systems, start, resume, rows, expected, new_checkpoints, final_state, final_games
    )


@dataclass
class _Rewrite:
    """A replayed list, ready to be written: what _rewrite needs."""

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


def _replay_and_write(
    rating_list: m.RatingList,
    systems: list[tuple[str, base.RatingSystem]],
    start: date | None,
    resume: date | None,
    run: m.RecomputeRun,
    progress: Callable[[int], None] | None,
) -> None:
    """Replay from ``resume`` (a checkpoint date, or the beginning), then
    rewrite the history from ``start`` in one transaction."""
    rewrite = _replay(rating_list, systems, start, resume, run, progress)
    began = time.perf_counter()
    with transaction.atomic():
        _tune_connection()
        # A rewrite of a large share of the table (a full recompute) drops
        # the history's secondary indexes and builds them again afterwards,
        # in this same transaction (DDL is transactional on both backends,
        # so a crash still leaves the previous history and its indexes).
        rebuild = _drop_indexes(rating_list, start, rewrite.expected)
        _rewrite(rewrite, run)
        if rebuild:
            _create_indexes(rebuild)
    _time_write(time.perf_counter() - began, locked=bool(rebuild))


def _time_write(took: float, locked: bool, locked_for: float | None = None) -> None:
    """Count a write transaction of ``took`` seconds; ``locked``: it locked
    the history against readers on PostgreSQL, for ``locked_for`` seconds
    at its end or else for all of it."""
    timings["write"] += took
    if locked:  # how long pages reading the history waited, on PostgreSQL
        waited = took if locked_for is None else locked_for
        timings["longest locked write"] = max(timings.get("longest locked write", 0.0), waited)


def _rewrite(rewrite: _Rewrite, run: m.RecomputeRun, emptied: bool = False) -> None:
    """Delete the stale history and checkpoints of one list and write the
    new ones, in the caller's transaction (``emptied``: the caller has
    emptied the whole history already, _empty_history)."""
    rating_list, start, resume = rewrite.rating_list, rewrite.start, rewrite.resume
    # The tail of every system, by the (list, system, date) index; all
    # rows of a system the list no longer computes.
    computed = {name for name, _ in rewrite.systems}
    for stored in [] if emptied else SYSTEM_NAMES if start is not None else [None]:
        history = m.HistoryEntry.objects.filter(rating_list=rating_list)
        if stored is not None:
            history = history.filter(system=stored)
            if stored in computed:
                history = history.filter(date__gte=start)
        history._raw_delete(history.db)  # no signals or cascades hang off history rows
    stale_checkpoints = m.RatingCheckpoint.objects.filter(rating_list=rating_list)
    if resume is not None:
        stale_checkpoints = stale_checkpoints.filter(date__gt=resume)
    stale_checkpoints.delete()
    run.rows_written = write_history(rewrite.rows())
    _write_checkpoints(rewrite.checkpoints)
    if rewrite.systems:
        _update_players(rating_list, rewrite.final_state, rewrite.final_games)


def _empty_history() -> None:
    """Empty the whole history in the caller's transaction: TRUNCATE on
    PostgreSQL (a DELETE of 2,000,000 rows took 2.8 s and left them all as
    dead rows for VACUUM; TRUNCATE 20 ms), on SQLite a DELETE without WHERE
    (its truncate optimisation).  Both roll back with the transaction;
    TRUNCATE locks the table against readers until commit, as DROP INDEX
    already does for a large rewrite."""
    conn = transaction.get_connection()
    if conn.vendor == "postgresql":
        with conn.cursor() as cursor:
            cursor.execute(f"TRUNCATE {conn.ops.quote_name(m.HistoryEntry._meta.db_table)}")
    else:
        everything = m.HistoryEntry.objects.all()
        everything._raw_delete(everything.db)


def _write_checkpoints(checkpoints: Sequence[m.RatingCheckpoint]) -> None:
    """Insert the checkpoints as JSON text by COPY (PostgreSQL) or
    executemany (SQLite).  Not bulk_create: on PostgreSQL it sends each
    column as an array (UNNEST), and escaping every quote of the states'
    JSON as an array element cost seconds at a million games (profiled)."""
    iso = transaction.get_connection().vendor != "postgresql"
    rows = (
        (
            cp.rating_list.pk,
            cp.system,
            cp.date.isoformat() if iso else cp.date,
            cp.seq,
            json.dumps(cp.states),
            json.dumps(cp.games),
        )
        for cp in checkpoints
    )
    copy_rows(
        m.RatingCheckpoint._meta.db_table,
        ("rating_list_id", "system", "date", "seq", "states", "games"),
        rows,
    )


#: Set on a PostgreSQL connection while its transaction writes the new
#: history into a staging table (_staged_history): write_history's target.
_STAGING = "_recompute_history_staging"


class _StagedHistory:
    """recompute_all's history on PostgreSQL, written into a fresh table
    and swapped in at the end, in the caller's one transaction.

    begin() locks the history in EXCLUSIVE mode (readers go on reading the
    previous history; writers of history rows, such as a deleted game's
    cascade, wait until commit and then apply to the new table: PostgreSQL
    looks a waiting statement's table up again by name) and creates the
    staging table with the history's columns, defaults, checks and
    identity but no index, not even the primary key.  The caller COPYs the rows into it
    (write_history) and builds the indexes (the statements in
    ``create``); swap() drops the old table and gives the staging table, its
    indexes, constraints and identity sequence the old names.  Readers
    wait only for swap() and the commit, not for the whole write, as
    DROP INDEX or TRUNCATE on the history itself made them (measured,
    docs/recompute.md).  A failure or a killed process rolls it all back:
    the staging table goes with the transaction.  With ``large`` false
    (a small federation) begin() does nothing and the caller writes into
    the history as it is.  (SQLite does not need this: its readers keep
    their snapshot of the previous history until the commit.)"""

    def __init__(self, large: bool) -> None:
        self.large = large
        self.conn = transaction.get_connection()
        self.table = m.HistoryEntry._meta.db_table
        self.staging = f"{self.table}_new"
        #: Statements that build the staging table's indexes (the caller
        #: runs them once its rows are written) ...
        self.create: list[str] = []
        #: ... and that give them the history's names after the swap.
        self.renames: list[str] = []

    def begin(self) -> bool:
        """Lock the history and create the staging table; whether the
        rows go there (false: a small federation)."""
        _tune_connection()
        if not self.large:
            return False
        quote = self.conn.ops.quote_name
        table, staging = quote(self.table), quote(self.staging)
        create = self.create
        with self.conn.cursor() as cursor:
            cursor.execute(f"LOCK TABLE {table} IN EXCLUSIVE MODE")
            cursor.execute(f"CREATE TABLE {staging} (LIKE {table} INCLUDING ALL EXCLUDING INDEXES)")
            setattr(self.conn, _STAGING, self.staging)
            cursor.execute(
                "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
                "WHERE conrelid = %s::regclass AND contype IN ('p', 'u') ORDER BY contype, conname",
                [self.table],
            )
            for name, definition in cursor.fetchall():
                # The primary key too is built after the rows: 2,000,000 rows
                # COPYed into it cost 0.9 s more of the server's CPU, building
                # it afterwards 0.5 s (measured).
                temporary = _temporary_name(name)
                create.append(f"ALTER TABLE {staging} ADD CONSTRAINT {quote(temporary)} {definition}")
                self.renames.append(
                    f"ALTER TABLE {table} RENAME CONSTRAINT {quote(temporary)} TO {quote(name)}"
                )
            cursor.execute(
                "SELECT c.relname, pg_get_indexdef(i.indexrelid) FROM pg_index i "
                "JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = %s::regclass "
                "AND i.indexrelid NOT IN (SELECT conindid FROM pg_constraint WHERE conrelid = %s::regclass) "
                "ORDER BY 1",
                [self.table, self.table],
            )
            for name, definition in cursor.fetchall():
                temporary = _temporary_name(name)
                head, on, rest = definition.partition(" ON ")
                if not head.endswith(f" INDEX {quote(name)}") and not head.endswith(f" INDEX {name}"):
                    raise RecomputeError(f"unexpected index definition: {definition}")
                head = head[: head.rindex(" INDEX ")] + f" INDEX {quote(temporary)}"
                _relation, using, columns = rest.partition(" USING ")
                create.append(f"{head}{on}{staging}{using}{columns}")
                self.renames.append(f"ALTER INDEX {quote(temporary)} RENAME TO {quote(name)}")
            cursor.execute("SELECT pg_get_serial_sequence(%s, 'id'), pg_get_serial_sequence(%s, 'id')",
                           [self.table, self.staging])  # fmt: skip
            old_sequence, new_sequence = cursor.fetchone()
            if old_sequence and new_sequence:
                name = old_sequence.rpartition(".")[2]
                self.renames.append(f"ALTER SEQUENCE {new_sequence} RENAME TO {name}")
            # Room to sort in memory while building the indexes.
            cursor.execute("SET LOCAL maintenance_work_mem = '256MB'")
        return True

    def swap(self) -> None:
        """The staging table, its indexes built, becomes the history."""
        if not hasattr(self.conn, _STAGING):
            return
        quote = self.conn.ops.quote_name
        with self.conn.cursor() as cursor:
            cursor.execute(f"DROP TABLE {quote(self.table)}")
            cursor.execute(f"ALTER TABLE {quote(self.staging)} RENAME TO {quote(self.table)}")
            for statement in self.renames:
                cursor.execute(statement)
        self.end()

    def end(self) -> None:
        if hasattr(self.conn, _STAGING):
            delattr(self.conn, _STAGING)


@contextlib.contextmanager
def _staged_history(large: bool) -> Iterator[_StagedHistory]:
    """A _StagedHistory around the caller's write transaction: whatever
    the outcome, its connection stops writing into the staging table."""
    staged = _StagedHistory(large)
    try:
        yield staged
    finally:
        staged.end()


def _temporary_name(name: str) -> str:
    """A name for an index or constraint of the staging table while the
    history's own still holds ``name`` (PostgreSQL: at most 63 bytes)."""
    return f"{name[:59]}_new"


def _drop_indexes(rating_list: m.RatingList, start: date | None, expected: int) -> list[str]:
    """Drop the history's secondary indexes when about ``expected`` new rows
    are a large share of what the table will hold (at least
    REBUILD_MIN_ROWS and at least a 1/REBUILD_SHARE of the rows that stay);
    returns the statements that create them again.

    Why: each index costs 4-8 s per 2 million rows inserted in random key
    order, and building one afresh from the finished table (a sort) costs
    under a second (measured, docs/recompute.md).  The price: on
    PostgreSQL ``DROP INDEX`` takes an exclusive lock on the table until
    commit, so pages that read the history wait for the rest of the
    rewrite (a full recompute of a big list: seconds); on SQLite readers
    keep their snapshot and do not wait.  The primary key stays (ids are
    appended in order: cheap).
    """
    if expected < REBUILD_MIN_ROWS:
        return []
    stale = m.HistoryEntry.objects.filter(rating_list=rating_list)
    if start is not None:
        stale = stale.filter(date__gte=start)
    staying = m.HistoryEntry.objects.count() - stale.count()
    if expected * REBUILD_SHARE < staying:
        return []
    return _drop_secondary_indexes()


def _drop_secondary_indexes() -> list[str]:
    """Drop every index and unique constraint of the history but its
    primary key, in the caller's transaction; returns the statements that
    create them again, as the database itself reports them."""
    conn = transaction.get_connection()
    table = m.HistoryEntry._meta.db_table
    quote = conn.ops.quote_name
    drop: list[str] = []
    create: list[str] = []
    with conn.cursor() as cursor:
        if conn.vendor == "postgresql":
            cursor.execute(
                "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
                "WHERE conrelid = %s::regclass AND contype = 'u' ORDER BY conname",
                [table],
            )
            for name, definition in cursor.fetchall():
                drop.append(f"ALTER TABLE {quote(table)} DROP CONSTRAINT {quote(name)}")
                create.append(f"ALTER TABLE {quote(table)} ADD CONSTRAINT {quote(name)} {definition}")
            cursor.execute(
                "SELECT indexrelid::regclass::text, pg_get_indexdef(indexrelid) FROM pg_index "
                "WHERE indrelid = %s::regclass AND NOT indisprimary AND indexrelid NOT IN "
                "(SELECT conindid FROM pg_constraint WHERE conrelid = %s::regclass) ORDER BY 1",
                [table, table],
            )
            for name, definition in cursor.fetchall():
                drop.append(f"DROP INDEX {name}")
                create.append(definition)
            # Room to sort in memory while building them again.
            cursor.execute("SET LOCAL maintenance_work_mem = '256MB'")
        else:
            cursor.execute(
                "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = %s "
                "AND sql IS NOT NULL ORDER BY name",
                [table],
            )
            for name, definition in cursor.fetchall():
                drop.append(f"DROP INDEX {quote(name)}")
                create.append(definition)
        for statement in drop:
            cursor.execute(statement)
    return create


def _create_indexes(statements: Sequence[str]) -> None:
    began = time.perf_counter()
    with transaction.get_connection().cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)
    timings["index"] += time.perf_counter() - began


def _tune_connection() -> None:
    """SQLite: a page cache large enough for the history indexes, so a
    rewrite of millions of rows does not go to disk for every index page
    (measured: ~5x faster at 200,000 rows, see docs/recompute.md)."""
    conn = transaction.get_connection()
    if conn.vendor == "sqlite":
        with conn.cursor() as cursor:
            cursor.execute(f"PRAGMA cache_size = -{SQLITE_CACHE_KIB}")


class RecomputeBusy(Exception):
    """Another process holds the list's recompute lock."""

    def __init__(self, rating_list_id: int) -> None:
        self.rating_list_id = rating_list_id
        super().__init__(f"another recompute of list {rating_list_id} is running")


class RecomputeError(Exception):
    """An event the engine refused, named by its game or adjustment."""


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


def _update_players(rating_list: m.RatingList, state: Mapping[Any, Any], games: Mapping[int, int]) -> None:
    """Cache rank, rating and games count from the primary system, writing
    only the players whose values changed."""
    changed = []
    for player in m.Player.objects.filter(rating_list=rating_list).only(
        "id", "start_rank", "rank", "rating", "games_count"
    ):
        own = state.get(player.pk)
        rank = float(own.rank) if own is not None else float(player.start_rank)
        rating = float(own.rating) if own is not None else 0.0
        count = games.get(player.pk, 0)
        if (player.rank, player.rating, player.games_count) != (rank, rating, count):
            player.rank, player.rating, player.games_count = rank, rating, count
            changed.append(player)
    if changed:
        # Lock the rows in primary-key order first, so this never deadlocks
        # with a sheet being saved that updates the same players; then one
        # executemany (bulk_update's CASE expressions cost seconds to build
        # for thousands of players).
        pks = [p.pk for p in changed]
        list(m.Player.objects.select_for_update().filter(pk__in=pks).order_by("pk").values_list("pk"))
        conn = transaction.get_connection()
        quote = conn.ops.quote_name
        table = quote(m.Player._meta.db_table)
        with conn.cursor() as cursor:
            if conn.vendor == "postgresql":
                # One statement over arrays: an executemany sends one UPDATE
                # per player (5,000 at a federation's full recompute).
                cursor.execute(
                    f"UPDATE {table} SET {quote('rank')} = v.rank, {quote('rating')} = v.rating, "
                    f"{quote('games_count')} = v.games FROM unnest(%s::bigint[], %s::float8[], "
                    f"%s::float8[], %s::integer[]) AS v(id, rank, rating, games) WHERE {table}.{quote('id')} = v.id",
                    [
                        pks,
                        [p.rank for p in changed],
                        [p.rating for p in changed],
                        [p.games_count for p in changed],
                    ],
                )
                return
            cursor.executemany(
                f"UPDATE {table} SET {quote('rank')} = %s, {quote('rating')} = %s, "
                f"{quote('games_count')} = %s WHERE {quote('id')} = %s",
                [(p.rank, p.rating, p.games_count, p.pk) for p in changed],
            )


def _mark_clean_outside(rating_list_id: int, generation: int) -> None:
    """Clean the list unless more work arrived while the run ran (then it
    stays dirty from its date and the loop in recompute_list runs again)."""
    updated = m.RatingList.objects.filter(pk=rating_list_id, dirty_generation=generation).update(
        dirty_from=None, clean_generation=generation
    )
    if not updated:
        m.RatingList.objects.filter(pk=rating_list_id).update(clean_generation=generation)


def sweep() -> list[int]:
    """Recompute (or enqueue) every list still dirty: the periodic sweeper
    that finishes the job after a crash or a lost task."""
    dirty = list(m.RatingList.objects.filter(dirty_from__isnull=False).values_list("id", flat=True))
    for rating_list_id in dirty:
        enqueue(rating_list_id, trigger="sweeper")
    return dirty
