"""A list's past from another system: a CSV of games, one a line, with the
players' ranks at the time (docs/formats.md, "Past games").

Columns (a header line names them, in any order; names are case-free):
``date`` (YYYY-MM-DD), ``white``, ``white_rank``, ``black``, ``black_rank``
(ranks as on a record sheet, '5k', '1d'; empty = unknown), ``handicap``
(0-9, empty 0), ``komi`` (empty = the list's default), ``result``
(white, black or jigo; also W, B, draw), ``kind`` (club, tournament,
internet, free; empty club) and ``club`` (the club's name or address on
the list).  Pure Python: bytes in, rows out, or an ExchangeError naming the
line and column.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation

from .errors import ExchangeError
from .records import rank_cell
from .text import decode_text

COLUMNS = ("date", "white", "white_rank", "black", "black_rank", "handicap", "komi", "result", "kind", "club")
REQUIRED = ("date", "white", "black", "result", "club")
RESULTS = {"white": "white", "w": "white", "black": "black", "b": "black", "jigo": "jigo", "draw": "jigo"}
KINDS = ("club", "tournament", "internet", "free")


@dataclass(frozen=True)
class PastGame:
    line: int
    date: date
    white: str
    white_rank: float | None
    black: str
    black_rank: float | None
    handicap: int
    komi: Decimal | None
    winner: str
    kind: str
    club: str


def _game(line: int, row: dict[str, str]) -> PastGame:
    cell = {name: " ".join((row.get(name) or "").split()) for name in COLUMNS}
    for name in REQUIRED:
        if not cell[name]:
            raise ExchangeError(line, f"{name}: missing")
    try:
        day = date.fromisoformat(cell["date"])
    except ValueError:
        raise ExchangeError(line, f"date: {cell['date']!r} is not a date (YYYY-MM-DD)") from None
    if not cell["handicap"].isdigit() and cell["handicap"]:
        raise ExchangeError(line, f"handicap: {cell['handicap']!r} is not a whole number")
    handicap = int(cell["handicap"] or 0)
    if handicap > 9:
        raise ExchangeError(line, f"handicap: {handicap} is out of range (0..9)")
    try:
        komi = Decimal(cell["komi"]) if cell["komi"] else None
    except InvalidOperation:
        raise ExchangeError(line, f"komi: {cell['komi']!r} is not a number") from None
    winner = RESULTS.get(cell["result"].lower())
    if winner is None:
        raise ExchangeError(line, f"result: {cell['result']!r}: expected white, black or jigo")
    kind = cell["kind"].lower() or "club"
    if kind not in KINDS:
        raise ExchangeError(line, f"kind: {cell['kind']!r}: expected one of {', '.join(KINDS)}")
    if cell["white"].casefold() == cell["black"].casefold():
        raise ExchangeError(line, "the same player is on both sides")
    return PastGame(
        line, day, cell["white"], rank_cell(line, "white_rank", cell["white_rank"]), cell["black"],
        rank_cell(line, "black_rank", cell["black_rank"]), handicap, komi, winner, kind, cell["club"],
    )  # fmt: skip


def read_past_games(data: bytes) -> list[PastGame]:
    """Every game of the file, in its order; the first problem raises."""
    text = decode_text(data).text
    reader = csv.DictReader(io.StringIO(text), strict=True)
    header = [name.strip().lower() for name in reader.fieldnames or ()]
    missing = [name for name in REQUIRED if name not in header]
    if missing:
        raise ExchangeError(1, f"the header lacks the columns {', '.join(missing)}")
    reader.fieldnames = header
    games = []
    try:
        for row in reader:
            if None in row:
                raise ExchangeError(reader.line_num, f"more fields than the header's {len(header)}")
            games.append(_game(reader.line_num, row))
    except csv.Error as error:
        raise ExchangeError(reader.line_num, f"not valid CSV: {error}") from None
    if not games:
        raise ExchangeError(None, "no game in the file")
    return games
