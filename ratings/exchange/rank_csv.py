"""A plain CSV rank list: a header naming the columns name, national id and rank.

Comma, semicolon or tab separated (the one the header line uses most).  The
rank is written like '11k', '2d' or '1.3d' (ranks.parse_rank); an empty rank
means not rated.  The name may be 'Last, First' (quoted) or free.  A row
that does not read is rejected with its line; the header is required.
"""

from __future__ import annotations

import csv
import io
import re

from ratings.engine.ranks import MAX_RANK, MIN_RANK, RankError, parse_rank

from ._rankbase import RankEntry, RankList, Rejected
from .errors import ExchangeError
from .names import split_comma_name
from .text import split_lines

CSV_COLUMNS: dict[str, tuple[str, ...]] = {
    "name": ("name", "nom", "player", "joueur"),
    "national_id": (
        "national id",
        "id",
        "saga id",
        "saga",
        "licence",
        "license",
        "pin",
        "egd pin",
        "aga id",
        "member id",
    ),
    "rank": ("rank", "grade", "niveau", "level"),
}


def csv_header_key(cell: str) -> str:
    return re.sub(r"[\s_]+", " ", cell.strip().lstrip("\ufeff").casefold())


def _row_entry(number: int, row: list[str], width: int, positions: dict[str, int]) -> RankEntry:
    if len(row) != width:
        raise ExchangeError(number, f"expected {width} fields like the header, found {len(row)}")
    name = row[positions["name"]].strip()
    national_id = row[positions["national_id"]].strip() or None
    rank_text = row[positions["rank"]].strip()
    if not name:
        raise ExchangeError(number, "the name is empty", column=positions["name"] + 1)
    rank: float | None = None
    if rank_text:
        try:
            rank = parse_rank(rank_text)
        except RankError as error:
            raise ExchangeError(number, f"rank: {error}", column=positions["rank"] + 1) from None
        if not MIN_RANK <= rank <= MAX_RANK:
            raise ExchangeError(
                number, f"rank {rank_text!r} is outside 30k..9d", column=positions["rank"] + 1
            )
    surname, given = split_comma_name(name)
    return RankEntry(number, name, surname, given, national_id, rank, None, None, None)


def parse_rank_csv(text: str) -> RankList:
    lines = split_lines(text)
    header_index = next((i for i, line in enumerate(lines) if line.strip()), None)
    if header_index is None:
        raise ExchangeError(None, "the file is empty")
    header_line = lines[header_index]
    delimiter = max(",;\t", key=header_line.count)
    reader = csv.reader(io.StringIO("\n".join(lines)), delimiter=delimiter, strict=True)
    try:
        rows = list(reader)
    except csv.Error as error:
        raise ExchangeError(reader.line_num, f"not valid CSV: {error}") from None
    header = [csv_header_key(cell) for cell in rows[header_index]]
    positions: dict[str, int] = {}
    for field, names in CSV_COLUMNS.items():
        found = [i for i, cell in enumerate(header) if cell in names]
        if not found:
            raise ExchangeError(
                header_index + 1,
                f"the header has no {field.replace('_', ' ')!r} column "
                f"(expected one of {', '.join(names)}; found {', '.join(header)})",
            )
        positions[field] = found[0]
    entries: list[RankEntry] = []
    rejected: list[Rejected] = []
    for number, row in enumerate(rows[header_index + 1 :], start=header_index + 2):
        if not any(cell.strip() for cell in row):
            continue
        try:
            entries.append(_row_entry(number, row, len(header), positions))
        except ExchangeError as error:
            text = lines[number - 1] if number <= len(lines) else delimiter.join(row)
            rejected.append(Rejected(number, error.message, text.strip()[:120], error.column))
    return RankList("csv", "", None, tuple(entries), tuple(rejected))
