"""What-if runs: any rating system on a CSV of games, without the database.

The core of ``manage.py rate GAMES.csv --system NAME [--out FILE]``, kept
free of Django so that it runs anywhere (and before ``migrate``).

Input: a header row, then one game a row.  Columns (any order, names in
lower case):

==============  ========  ==================================================
column          required  values
==============  ========  ==================================================
``date``        yes       ``YYYY-MM-DD``; rows must not go back in time
``white``       yes       the player's name (any text; it is their id)
``black``       yes       idem, not the same as ``white``
``winner``      yes       ``white``, ``black`` or ``jigo``
``handicap``    yes       stones, 0 for an even game
``komi``        yes       to White; negative = komi to Black (the SAGC FAQ)
``event``       no        the tournament's name; empty = a club game
``kind``        no        ``free``, ``internet``, ``club`` (default),
                          ``tournament``
``class``       no        the event's EGF class ``A``..``D`` (EGF weights)
``board``       no        19 (default), 13 or 9
``minutes``     no        main time per player; empty = unknown (normal)
``white_start`` no        see below
``black_start`` no        see below
==============  ========  ==================================================

A start is read the first time a player appears: a rank (``11k``, ``2d``,
``1.3d``) declares a new player at that rank (``Start(rank=...)``); a plain
number is an established rating in the system's own unit
(``Start(rating=...)``: SAGC index, GoR, FFG level, West Surrey strength).
A player's first row must have one.  Later start cells of a player are
checked for form but not used.

Output: a header row and, for every game in input order, White's row then
Black's, with ``date, event, player, opponent, rank_before, rating_before,
change, rank_after, rating_after`` (and ``explanation`` with ``--explain``:
a JSON object ``{"terms": {...}, "formula": "..."}`` of the system's named
terms, see :class:`ratings.engine.base.Explanation`).  Ranks are written like ``11k``, ``2d``
or ``1.2d`` (:func:`ranks.format_rank`).  Ratings and changes are written
with :func:`rating_decimals` decimals: the SAGC index as a whole number, FFG
levels and West Surrey strengths to 0.1, GoR to 0.001.

Decisions:

* Rows going back in time are refused (with the line), not sorted: the
  input order is the timeline, and the output follows it row for row.
* Games without an ``event`` have no club here, so all of one day's club
  games form one rating period (:func:`ratings.engine.base.period_key`).
* Any error (a bad cell, an unknown column, a game the system refuses) is a
  :class:`WhatIfError` naming the line (the header is line 1) and the
  column; nothing is produced.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import TypeVar

from ratings.engine import get_system
from ratings.engine.base import (
    Game,
    InvalidEvent,
    Kind,
    PlayerId,
    RatingSystem,
    Result,
    Start,
    UnknownPlayer,
    Winner,
)
from ratings.engine.ranks import MAX_RANK, MIN_RANK, RankError, format_rank, parse_rank
from ratings.exchange.cells import csv_lines

__all__ = [
    "OUTPUT_COLUMNS",
    "WhatIfError",
    "WhatIfInput",
    "format_rows",
    "rate_csv",
    "rating_decimals",
    "read_games",
    "start_ranks",
]

REQUIRED_COLUMNS = ("date", "white", "black", "winner", "handicap", "komi")
OPTIONAL_COLUMNS = ("event", "kind", "class", "board", "minutes", "white_start", "black_start")
#: The column ``--explain`` adds after OUTPUT_COLUMNS.
EXPLANATION_COLUMN = "explanation"
OUTPUT_COLUMNS = (
    "date",
    "event",
    "player",
    "opponent",
    "rank_before",
    "rating_before",
    "change",
    "rank_after",
    "rating_after",
)

# Decimals of the rating and change columns, by system.  A system may say
# otherwise with a ``rating_decimals`` class attribute.
_DECIMALS: Mapping[str, int] = {
    "sagc": 0,  # the SAGC FAQ: the index is a whole number
    "egf": 3,  # GoR to 0.001, as the EGD prints rating changes
    "egf-old": 3,
    "ffg": 1,  # the FFG algorithm page's worked example: 41,3 / -34,7 points
    "ffg-old": 1,
    "west-surrey": 1,  # the West Surrey ladder page's rungs are tenths of a grade
}
_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_RANK_LIKE = re.compile(r"[kKdD]")
_BOARDS = (19, 13, 9)
T = TypeVar("T")
_CLASSES = ("A", "B", "C", "D")


class WhatIfError(ValueError):
    """A row (or the header) that cannot be run; names the line and column."""

    def __init__(self, line: int, column: str, message: str) -> None:
        super().__init__(f"line {line}, column {column}: {message}")
        self.line = line
        self.column = column
        self.message = message


@dataclass(frozen=True, slots=True)
class WhatIfInput:
    """The games of a what-if CSV, the players' starts and each game's line."""

    games: list[Game]
    starts: dict[PlayerId, Start]
    lines: list[int]


def rating_decimals(system: RatingSystem) -> int:
    """How many decimals the rating and change columns get for ``system``."""
    own = getattr(system, "rating_decimals", None)
    if isinstance(own, int):
        return own
    return _DECIMALS.get(system.name, 2)


def start_ranks(system: RatingSystem) -> tuple[float, float]:
    """The lowest and highest rank a start may declare for ``system``: 30k..9d,
    or the system's own ``start_ranks`` (West Surrey: its end rungs 40k..9.9d)."""
    own = getattr(system, "start_ranks", None)
    if isinstance(own, tuple) and len(own) == 2:
        return float(own[0]), float(own[1])
    return float(MIN_RANK), float(MAX_RANK)


def read_games(
    lines: Iterable[str], ranks: tuple[float, float] = (float(MIN_RANK), float(MAX_RANK))
) -> WhatIfInput:
    """Parse a what-if CSV (an iterable of text lines, header first); a start
    rank must lie within ``ranks`` (see :func:`start_ranks`)."""
    reader = csv.reader(lines)
    try:
        header = next(reader)
    except StopIteration:
        raise WhatIfError(1, "date", "the file is empty; expected a header row") from None
    columns = [name.strip().lower() for name in header]
    known = set(REQUIRED_COLUMNS) | set(OPTIONAL_COLUMNS)
    for name in columns:
        if name not in known:
            raise WhatIfError(
                1, name, f"unknown column (expected {', '.join(REQUIRED_COLUMNS + OPTIONAL_COLUMNS)})"
            )
        if columns.count(name) > 1:
            raise WhatIfError(1, name, "column given twice")
    for name in REQUIRED_COLUMNS:
        if name not in columns:
            raise WhatIfError(1, name, "required column missing from the header")
    position = {name: i for i, name in enumerate(columns)}

    games: list[Game] = []
    starts: dict[PlayerId, Start] = {}
    game_lines: list[int] = []
    previous: date | None = None
    for row in reader:
        line = reader.line_num
        if not any(cell.strip() for cell in row):
            continue  # blank line
        if len(row) != len(columns):
            raise WhatIfError(
                line,
                columns[min(len(row), len(columns) - 1)],
                f"{len(row)} cells, the header has {len(columns)}",
            )

        def cell(name: str, row: list[str] = row) -> str:
            i = position.get(name)  # an optional column may be absent
            return "" if i is None else row[i].strip()

        day = _date(line, cell("date"))
        if previous is not None and day < previous:
            raise WhatIfError(
                line,
                "date",
                f"{day.isoformat()} is before the previous game's {previous.isoformat()}; rows must be in date order",
            )
        previous = day
        white = cell("white")
        black = cell("black")
        if not white:
            raise WhatIfError(line, "white", "empty; expected the white player's name")
        if not black:
            raise WhatIfError(line, "black", "empty; expected the black player's name")
        if white == black:
            raise WhatIfError(line, "black", f"{black!r} cannot play against themselves")
        for player, column in ((white, "white_start"), (black, "black_start")):
            text = cell(column)
            start = _start(line, column, text, ranks) if text else None
            if player not in starts:
                if start is None:
                    raise WhatIfError(
                        line,
                        column,
                        f"{player!r} appears for the first time without a start "
                        "(a rank such as 11k or 2d, or a rating in the system's unit)",
                    )
                starts[player] = start
        winner = _choice(line, "winner", cell("winner").lower(), {w.value: w for w in Winner})
        handicap = _integer(line, "handicap", cell("handicap"), minimum=0)
        komi = _number(line, "komi", cell("komi"))
        kind_text = cell("kind").lower()
        kind = _choice(line, "kind", kind_text, {k.value: k for k in Kind}) if kind_text else Kind.CLUB
        board_text = cell("board")
        board = _integer(line, "board", board_text, minimum=9) if board_text else 19
        if board not in _BOARDS:
            raise WhatIfError(line, "board", f"{board} is not a board size (expected 19, 13 or 9)")
        minutes_text = cell("minutes")
        minutes = _integer(line, "minutes", minutes_text, minimum=1) if minutes_text else None
        event = cell("event") or None
        class_text = cell("class").upper()
        if class_text and class_text not in _CLASSES:
            raise WhatIfError(line, "class", f"{class_text!r} is not an EGF class (expected A, B, C or D)")
        games.append(
            Game(
                date=day,
                white=white,
                black=black,
                winner=winner,
                handicap=handicap,
                komi=komi,
                kind=kind,
                board=board,
                minutes=minutes,
                event=event,
                event_class=class_text or None,
            )
        )
        game_lines.append(line)
    return WhatIfInput(games, starts, game_lines)


def format_rows(
    games: Sequence[Game],
    result: Result,
    decimals: int,
) -> list[list[str]]:
    """The output rows (header first) for ``games`` rated into ``result``;
    with a last column ``explanation`` (JSON ``{"terms": ..., "formula": ...}``)
    when the result holds explanations."""
    ledger = result.ledger
    rank_before, rating_before, change = ledger.rank_before, ledger.rating_before, ledger.change
    rank_after, rating_after = ledger.rank_after, ledger.rating_after

    def number(value: float) -> str:
        if math.isnan(value):
            return ""
        text = f"{value:.{decimals}f}"
        return "0" if decimals == 0 and text == "-0" else text

    def rank(value: float) -> str:
        return "" if math.isnan(value) else format_rank(value)

    explanations = result.explanations
    rows: list[list[str]] = [
        list(OUTPUT_COLUMNS) + ([EXPLANATION_COLUMN] if explanations is not None else [])
    ]
    for i, game in enumerate(games):
        for slot, player, opponent in ((2 * i, game.white, game.black), (2 * i + 1, game.black, game.white)):
            row = [
                game.date.isoformat(),
                game.event or "",
                str(player),
                str(opponent),
                rank(rank_before[slot]),
                number(rating_before[slot]),
                number(change[slot]),
                rank(rank_after[slot]),
                number(rating_after[slot]),
            ]
            if explanations is not None:
                explanation = explanations[slot]
                row.append(
                    "" if explanation is None else json.dumps(explanation.to_json(), ensure_ascii=False)
                )
            rows.append(row)
    return rows


def rate_csv(text: str, system_name: str, *, explain: bool = False) -> str:
    """Run ``system_name`` on the CSV ``text``; the output CSV as a string.
    With ``explain`` each row also gets the column ``explanation``: the
    system's named terms and formula the change was computed from, as JSON.

    Raises :class:`WhatIfError` (bad input, or a game the system refuses,
    named by its line and column) or ``ValueError`` (unknown system).
    """
    system = get_system(system_name)
    data = read_games(io.StringIO(text.removeprefix("\ufeff"), newline=""), start_ranks(system))
    try:
        result = system.rate(data.games, starts=data.starts, explain=explain)
    except InvalidEvent as error:
        line = data.lines[error.index] if 0 <= error.index < len(data.lines) else 0
        raise WhatIfError(line, _column_of(error.field), error.message) from error
    except UnknownPlayer as error:  # cannot happen: every player has a start
        line = data.lines[error.index] if 0 <= error.index < len(data.lines) else 0
        raise WhatIfError(line, "white_start", str(error)) from error
    rows = format_rows(data.games, result, rating_decimals(system))
    return "".join(csv_lines(rows, lineterminator="\n"))  # cells safe from spreadsheet formulas


def _column_of(field: str) -> str:
    """The CSV column of a Game field named in an InvalidEvent."""
    return {"event_class": "class"}.get(field, field)


def _date(line: int, text: str) -> date:
    if not _DATE_RE.match(text):
        raise WhatIfError(line, "date", f"{text!r} is not a date (expected YYYY-MM-DD)")
    try:
        return date.fromisoformat(text)
    except ValueError as error:
        raise WhatIfError(line, "date", f"{text!r} is not a date: {error}") from None


def _integer(line: int, column: str, text: str, minimum: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise WhatIfError(line, column, f"{text!r} is not a whole number") from None
    if value < minimum:
        raise WhatIfError(line, column, f"{value} is below {minimum}")
    return value


def _number(line: int, column: str, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise WhatIfError(line, column, f"{text!r} is not a number (use a point: 6.5)") from None
    if not math.isfinite(value):
        raise WhatIfError(line, column, f"{text!r} is not a finite number")
    return value


def _choice(line: int, column: str, text: str, choices: Mapping[str, T]) -> T:
    try:
        return choices[text]
    except KeyError:
        raise WhatIfError(line, column, f"{text!r} is not one of {', '.join(choices)}") from None


def _start(line: int, column: str, text: str, ranks: tuple[float, float]) -> Start:
    """A rank (``11k``, ``2d``, ``1.3d``) or a rating in the system's unit."""
    if _RANK_LIKE.search(text):
        try:
            rank = parse_rank(text)
        except RankError as error:
            raise WhatIfError(line, column, str(error)) from None
        low, high = ranks
        if not low <= rank <= high:
            raise WhatIfError(line, column, f"{text!r} is outside {format_rank(low)}..{format_rank(high)}")
        return Start(rank=rank)
    return Start(rating=_number(line, column, text))
