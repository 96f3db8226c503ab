"""The timeline as the columns that every system's history rows share."""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from itertools import chain, repeat
from operator import is_not
from typing import Any

from ratings.recompute.errors import RecomputeError
from ratings.recompute.timeline import Cache, Timeline

#: The history's columns, in the order of PostgreSQL's binary COPY rows.
HISTORY_COLUMNS = (
    "rating_list_id", "system", "seq", "date", "player_id", "game_id", "adjustment_id", "colour", "opponent_id",
    "rank_before", "rating_before", "change", "rank_after", "rating_after",
)  # fmt: skip
#: The history's float columns, before and after each event.
FLOAT_COLUMNS = ("rank_before", "rating_before", "change", "rank_after", "rating_after")
#: PostgreSQL's binary date: days since 2000-01-01.
PG_EPOCH = date(2000, 1, 1).toordinal()
#: An event's ``seq`` is its date's ordinal times SEQ_STRIDE plus its
#: place among the list's events of that day (event_seqs).
SEQ_STRIDE = 1 << 20


def day_seq(day: date) -> int:
    """The ``seq`` of the first event of ``day``: every event of an earlier
    day has a smaller one, every later event a larger one."""
    return day.toordinal() * SEQ_STRIDE


def event_seqs(days: Iterable[date]) -> list[int]:
    """The ``seq`` of each event of a timeline whose events ``days`` are
    in rating order, starting on a day's first event: the date's ordinal
    times SEQ_STRIDE plus the event's place in its day.  Sparse, so that an
    event entered late shifts only the later events of its own day: the
    rows of every other day keep their seq, and a late game's rewrite
    writes only the rows whose values changed (docs/recompute.md, "Writing
    only what changed").  Below 2**53 (a JSON number) until the year 9999.
    One range per distinct day: no Python code per event."""
    per_day = Counter(days)  # in the timeline's (date) order
    if per_day and max(per_day.values()) > SEQ_STRIDE:
        day, n = per_day.most_common(1)[0]
        raise RecomputeError(f"{n} events on {day}: at most {SEQ_STRIDE} a day")
    return list(chain.from_iterable(range(day_seq(day), day_seq(day) + n) for day, n in per_day.items()))


@dataclass
class Columns:
    """The timeline as columns, shared by every system's rows: per event its
    date (ISO text for SQLite, days since 2000 for PostgreSQL's binary
    COPY), its seq (event_seqs), the first slot's player (White, or the adjusted player), the
    second slot's (Black, None for an adjustment), game id, adjustment id,
    and whether it is a game."""

    days: list[Any]
    seq: list[int]
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
            days = list(map(Cache(lambda d: d.toordinal() - PG_EPOCH).__getitem__, timeline.days))
        else:
            days = list(map(Cache(date.isoformat).__getitem__, timeline.days))
        is_game = list(map(is_not, timeline.game_ids, repeat(None)))
        return cls(
            days,
            event_seqs(timeline.days),
            timeline.first,
            timeline.second,
            timeline.game_ids,
            timeline.adjustment_ids,
            is_game,
            binary,
        )

    def day(self, i: int) -> date:
        """The date of event ``i``."""
        value = self.days[i]
        return date.fromordinal(value + PG_EPOCH) if self.binary else date.fromisoformat(value)

    def index_of(self, day: date) -> int:
        """The first event dated ``day`` or later (len(days): none)."""
        return bisect_left(self.days, day.toordinal() - PG_EPOCH if self.binary else day.isoformat())
