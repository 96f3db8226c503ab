"""What every rank-list reader returns, and the line-by-line collection they share.

A national list is imported line by line.  A line that does not
read is *rejected* (its number and the reason are kept in
:attr:`RankList.rejected`, for the committee's preview) and the others are
imported; only a list broken as a whole (no header, truncated, a footer that
does not match, mostly unreadable lines) is refused with
:class:`ExchangeError`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date
from typing import Literal, TypeAlias

from ratings.engine.ranks import MAX_RANK, MIN_RANK

from .errors import ExchangeError

RankFormat: TypeAlias = Literal["ffg", "aga", "egd", "csv"]
RANK_FORMATS: tuple[RankFormat, ...] = ("ffg", "aga", "egd", "csv")

#: The unit of ``RankEntry.rating`` for each format.
RATING_UNITS: dict[RankFormat, str | None] = {
    "ffg": "FFG level",
    "aga": "AGA rating",
    "egd": "GoR",
    "csv": None,
}


@dataclass(frozen=True, slots=True)
class RankEntry:
    """One player of a national list, as written there.

    ``rank`` is a whole grade on the shared scale, None when the list says
    the player is not rated.  ``rating`` is the raw figure in the list's unit
    (FFG level, AGA rating, GoR; None for a CSV or an unrated player).
    """

    line: int
    name: str
    surname: str | None
    given_name: str | None
    national_id: str | None
    rank: float | None
    rating: float | None
    country: str | None
    club: str | None


@dataclass(frozen=True, slots=True)
class Rejected:
    """A line of a list that is not imported: its number, why, and its text (cut to 120 characters)."""

    line: int
    reason: str
    text: str = ""
    column: int | None = None

    def __str__(self) -> str:
        return f"line {self.line}: {self.reason}"


@dataclass(frozen=True, slots=True)
class RankList:
    format: RankFormat
    encoding: str
    #: The list's own date when it says one (FFG "#Echelle au", EGD header).
    as_of: date | None
    entries: tuple[RankEntry, ...]
    #: Lines not imported, in file order, each with its reason.
    rejected: tuple[Rejected, ...] = ()

    @property
    def rating_unit(self) -> str | None:
        return RATING_UNITS[self.format]


LineReader: TypeAlias = Callable[[int, str], RankEntry | None]


def collect(
    lines: Iterable[tuple[int, str]], read_line: LineReader
) -> tuple[list[RankEntry], list[Rejected]]:
    """Read each line; a line the reader refuses is kept as :class:`Rejected`.
    ``read_line`` returns None for a line that is no player (title, blank)."""
    entries: list[RankEntry] = []
    rejected: list[Rejected] = []
    for number, line in lines:
        try:
            entry = read_line(number, line)
        except ExchangeError as error:
            rejected.append(Rejected(number, error.message, line.strip()[:120], error.column))
            continue
        if entry is not None:
            entries.append(entry)
    return entries, rejected


def clamp(rank: int) -> float:
    """Ranks outside 30k..9d (AGA has -49.7, i.e. 49k) are held at the ends of the scale."""
    return float(min(MAX_RANK, max(MIN_RANK, rank)))


def none_if_placeholder(value: str) -> str | None:
    """'xxxx', 'XXXX', 'xxx', '' -> None: the placeholders lists use for 'no club/country'."""
    stripped = value.strip()
    if not stripped.strip("xX") or stripped in {"-", "--", "-------"}:
        return None
    return stripped


def checked_date(line: int, year: int, month: int, day: int) -> date:
    try:
        return date(year, month, day)
    except ValueError:
        raise ExchangeError(line, f"{day:02d}/{month:02d}/{year} is not a date") from None


def column_of(line: str, field: str) -> int:
    return line.rfind(field) + 1


def field_column(fields: list[str], index: int) -> int:
    return sum(len(f) + 1 for f in fields[:index]) + 1
