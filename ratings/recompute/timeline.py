"""The list's timeline: its games and adjustments in rating order, read
from the database as columns (and where a recompute may start)."""

from __future__ import annotations

import contextlib
import heapq
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from itertools import compress, repeat
from operator import not_
from typing import Any

from django.db import DatabaseError, transaction
from django.db.models import Max, Min

from ratings import models as m
from ratings.engine import base


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


#: The columns of a game that _games reads, in its order (``entered``: the
#: entry time, or NULL when no adjustment is merged in).
GAME_COLUMNS = (
    "CAST(g.date AS TEXT), {entered}, g.id, g.white_id, g.black_id, g.winner, g.handicap, "
    "CAST(g.komi AS DOUBLE PRECISION), g.kind, g.board, g.minutes, g.forfeit, g.sheet_id, g.club_id"
)


def load_timeline(
    rating_list: m.RatingList,
    from_date: date | None = None,
    until: date | None = None,
    events: Mapping[int, str] | None = None,
) -> Timeline:
    """Games and adjustments of ``list`` dated ``from_date`` or later (and
    ``until`` or earlier, when given: a game's explanation reads no further
    than its rating period, period_end), in timeline order: date, then
    entry order (entered_at, id); a game and an adjustment entered at the
    same instant: the game first.

    Raw SQL in the order of the game_timeline index: the ORM's per-value
    converters cost more than the rating engine itself at a million games.
    ``events``: the list's sheet_events, when the caller has read them.
    """
    conn = transaction.get_connection()
    quote = conn.ops.quote_name
    game_table = quote(m.Game._meta.db_table)
    after = "" if from_date is None else "AND g.date >= %s"
    params: list[Any] = [rating_list.pk] if from_date is None else [rating_list.pk, from_date.isoformat()]
    if until is not None:
        after += " AND g.date <= %s"
        params.append(until.isoformat())
    adjustments = m.RankAdjustment.objects.filter(rating_list=rating_list)
    if from_date is not None:
        adjustments = adjustments.filter(date__gte=from_date)
    if until is not None:
        adjustments = adjustments.filter(date__lte=until)
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
        f"SELECT {GAME_COLUMNS.format(entered=entered)} "
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
    events_of = sheet_events(rating_list) if events is None else events
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
    players = m.Player.objects.filter(rating_list=rating_list).order_by()  # in no order: a dict
    # One Start a rank (it is frozen): some forty built, not one a player.
    start_of = Cache(lambda rank: base.Start(rank=rank))
    for pk, start_rank in players.values_list("id", "start_rank"):
        timeline.starts[pk] = start_of[start_rank]
    return timeline


def games_of(rows: Sequence[tuple[Any, ...]]) -> Timeline:
    """The games of rows of GAME_COLUMNS (any order) as the engine reads
    them, for what depends on a game alone (whether it counts, who played
    it): their rating period is not read (base.Game.event and club are
    None)."""
    return _games(rows, Cache(lambda _club: None), {})


@contextlib.contextmanager
def _index_order(cursor: Any, vendor: str) -> Iterator[None]:
    """PostgreSQL: read in the order of the game_timeline index rather than
    sort (the planner sorts a whole list's games, 0.6 s a list of 200,000
    with work_mem spilling to disk, against 0.25 s by the index, measured).
    The setting is restored afterwards."""
    with session_setting(cursor, vendor, "enable_sort", "off"):
        yield


@contextlib.contextmanager
def session_setting(cursor: Any, vendor: str, name: str, value: str) -> Iterator[None]:
    """PostgreSQL: the setting ``name`` at ``value`` for the statements run
    inside (nothing on another database), restored afterwards."""
    if vendor != "postgresql":
        yield
        return
    cursor.execute("SELECT current_setting(%s), set_config(%s, %s, false)", [name, name, value])
    previous = cursor.fetchone()[0]
    try:
        yield
    finally:
        # Not over the query's own error (in a failed transaction the
        # setting is rolled back with it anyway).
        with contextlib.suppress(DatabaseError):
            cursor.execute("SELECT set_config(%s, %s, false)", [name, previous])


def sheet_events(rating_list: m.RatingList) -> dict[int, str]:
    """Sheet id -> the event that makes its games one rating period, for
    the list's tournament sheets with an event (any other sheet is not in
    it: its games have no period of their own).  The period of a game
    (base.period_key) is a tournament sheet's event, one period per year so
    that next year's edition is another period (_games adds the year);
    every other game belongs to its club's day.  Only these sheets are
    read: one in twenty at a million games (a late game's read: 8 ms less)."""
    sheets = m.RecordSheet.objects.filter(club__rating_list=rating_list, kind=m.Kind.TOURNAMENT)
    # In no order (the model's newest-first would sort them): a dict.
    return dict(sheets.exclude(event="").order_by().values_list("id", "event"))


class Cache(dict[Any, Any]):
    """A dict that computes a missing value once: ``map(cache.__getitem__,
    column)`` converts a column in C, calling Python once per distinct
    value only."""

    def __init__(self, convert: Callable[[Any], Any]) -> None:
        super().__init__()
        self.convert = convert

    def __missing__(self, key: Any) -> Any:
        value = self[key] = self.convert(key)
        return value


def _as_date(value: Any) -> date:
    return value if isinstance(value, date) else date.fromisoformat(value)


def _games(
    rows: Sequence[tuple[Any, ...]], slug: Mapping[int, str], events_of: Mapping[int, str]
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
    days = list(map(Cache(_as_date).__getitem__, days_raw))
    # The period (see sheet_events): a tournament sheet's event and year.
    periods: list[str | None] = list(map(events_of.get, sheets))
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


def _as_utc(value: datetime | str) -> datetime:
    """A naive UTC datetime from an aware one, a naive UTC one (SQLite) or text."""
    moment = datetime.fromisoformat(value) if isinstance(value, str) else value
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment


def period_start(rating_list: m.RatingList, day: date, events: Mapping[int, str] | None = None) -> date:
    """``day`` moved back to the first date of any multi-day rating period
    (a tournament) that it would split, and of any that one would split
    (overlapping tournaments): EGF and FFG rate a period at once
    (the Revised European Ratings page; the FFG algorithm page "Chaque itération se fait sur l'ensemble des rondes
    du tournoi"), so a recompute may only start on a period boundary.
    ``events``: the list's sheet_events, when the caller has read them."""
    return _start(_tournament_spans(rating_list, day.year, events).values(), day)


def period_end(rating_list: m.RatingList, day: date) -> date:
    """``day`` moved forward to the last date of any multi-day rating period
    (a tournament of the same year) in progress on it, and so on while
    another one is in progress on that date: the events up to the returned
    date, and no further, end every period they begin (what period_start
    is to the first event of a replay, this is to its last)."""
    return _end(_tournament_spans(rating_list, day.year).values(), day)


def period_bounds(
    rating_list: m.RatingList, day: date, events: Mapping[int, str] | None = None
) -> tuple[date, date]:
    """(period_start, period_end) of ``day``, reading the year's
    tournaments once (a game's explanation needs both; ``events``: the
    list's sheet_events, when the caller has read them)."""
    spans = _tournament_spans(rating_list, day.year, events).values()
    return _start(spans, day), _end(spans, day)


def _start(spans: Collection[tuple[date, date]], day: date) -> date:
    """``day`` moved back to the first day of every tournament in progress
    on it, and so on while another one is in progress on that day (two
    tournaments that overlap: the later one's first day may fall inside the
    earlier one)."""
    start = day
    while True:
        first = min((first for first, last in spans if first < start <= last), default=start)
        if first >= start:
            return start
        start = first


def _end(spans: Collection[tuple[date, date]], day: date) -> date:
    end = day
    while True:
        last = max((last for first, last in spans if first <= end), default=end)
        if last <= end:
            return end
        end = last


def _tournament_spans(
    rating_list: m.RatingList, year: int, events: Mapping[int, str] | None = None
) -> dict[str, tuple[date, date]]:
    """The first and last date of each tournament's games in ``year`` (its
    rating period: the event in that year), for period_start and period_end.

    Two short reads: the list's tournament sheets with an event
    (sheet_events, as load_timeline reads periods), and the first and last
    date of each sheet's games of the year, grouped by the database (by
    the timeline index: a few hundred rows); Python groups the sheets by
    event.  The ORM's joins they replace (games to sheets, one query for
    the start and two or more for the end) were planned through every
    tournament sheet's games: 20-50 ms each at a million games, and a game
    page's period_end ran two or more (68 ms, measured); one query joining
    the grouped games to the sheets was planned the same way (100 ms)."""
    if events is None:
        events = sheet_events(rating_list)
    spans: dict[str, tuple[date, date]] = {}
    if not events:
        return spans
    sheets = (
        m.Game.objects.filter(rating_list=rating_list, date__range=(date(year, 1, 1), date(year, 12, 31)))
        .values("sheet_id")
        .order_by()
        .annotate(first=Min("date"), last=Max("date"))
        .values_list("sheet_id", "first", "last")
    )
    for sheet, first, last in sheets:
        event = events.get(sheet)
        if event is not None:
            known = spans.get(event, (first, last))
            spans[event] = (min(known[0], first), max(known[1], last))
    return spans
