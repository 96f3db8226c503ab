"""National rank lists: FFG ladder, AGA TD list, EGD allworld_lp, plain CSV.

Every reader turns a list into :class:`RankEntry` rows with the rank on the
one scale of :mod:`ratings.engine.ranks` (30k = -30, 1k = -1, 1d = 0) and the
rating in the list's own unit.  The valid lines are imported and
each line that does not read is listed in :attr:`RankList.rejected` with its
number and reason (the committee sees them in the preview); a list broken
as a whole is refused with :class:`ExchangeError` naming the line: no
header, truncated, a footer that does not match, more rejected lines than
players, no player at all.  The readers are one module per list
(rank_ffg, rank_aga, rank_egd, rank_csv); conversions and decisions are in
docs/formats.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from ._rankbase import RANK_FORMATS, RATING_UNITS, RankEntry, RankFormat, RankList, Rejected
from .errors import ExchangeError
from .rank_aga import AGA_FIELDS, aga_rating_to_rank, parse_aga_tdlist
from .rank_csv import CSV_COLUMNS, csv_header_key, parse_rank_csv
from .rank_egd import LINE as EGD_LINE
from .rank_egd import egd_grade_to_rank, parse_egd_allworld
from .rank_ffg import FFG_NOT_RATED, ffg_level_to_rank, parse_ffg_ladder, read_ffg_line
from .text import decode_text, split_lines

__all__ = [
    "FFG_NOT_RATED",
    "RANK_FORMATS",
    "RATING_UNITS",
    "RankEntry",
    "RankFormat",
    "RankList",
    "Rejected",
    "aga_rating_to_rank",
    "detect_rank_format",
    "egd_grade_to_rank",
    "ffg_level_to_rank",
    "parse_rank_list",
    "rank_format",
    "read_rank_list",
]

_PARSERS: dict[RankFormat, Callable[[str], RankList]] = {
    "ffg": parse_ffg_ladder,
    "aga": parse_aga_tdlist,
    "egd": parse_egd_allworld,
    "csv": parse_rank_csv,
}
_LABELS: dict[RankFormat, str] = {
    "ffg": "FFG ladder",
    "aga": "AGA TD list",
    "egd": "EGD rating list",
    "csv": "CSV rank list",
}


def detect_rank_format(text: str, filename: str | None = None) -> RankFormat:
    """Which list this is, from its first lines; the file name only breaks a tie.

    FFG: '#Echelle' header or lines reading as ladder lines; AGA: lines of
    tab-separated fields; EGD: lines starting with an 8-digit PIN; CSV: a
    header line naming a name and a rank column.
    """
    lines = [line for line in split_lines(text[:20000]) if line.strip("\ufeff \t")][:40]
    if not lines:
        raise ExchangeError(None, "the file is empty")
    if lines[0].lstrip("\ufeff").startswith("#Echelle"):
        return "ffg"
    scores: dict[RankFormat, int] = dict.fromkeys(RANK_FORMATS, 0)
    for number, line in enumerate(lines, start=1):
        if 3 <= line.count("\t") <= AGA_FIELDS - 1:
            scores["aga"] += 1
        if EGD_LINE.match(line):
            scores["egd"] += 1
        try:
            if read_ffg_line(number, line) is not None:
                scores["ffg"] += 1
        except ExchangeError:
            pass
    header = {csv_header_key(cell) for cell in re.split(r"[,;\t]", lines[0])}
    if any(h in CSV_COLUMNS["name"] for h in header) and any(h in CSV_COLUMNS["rank"] for h in header):
        scores["csv"] = len(lines)
    hint = _format_from_filename(filename)
    best = max(scores.values())
    if best == 0:
        raise ExchangeError(
            1,
            "not a rank list this site knows (expected the FFG ladder, the AGA TD list, "
            "the EGD allworld_lp list or a CSV with name, national id and rank columns)",
        )
    leaders = [fmt for fmt in RANK_FORMATS if scores[fmt] == best]
    if hint in leaders:
        return hint
    return leaders[0]


def _format_from_filename(filename: str | None) -> RankFormat | None:
    if not filename:
        return None
    lower = filename.lower().rsplit("/", 1)[-1]
    if lower.startswith("ech"):
        return "ffg"
    if lower.startswith("tdlist"):
        return "aga"
    if lower.startswith("allworld") or lower.startswith("egf") or lower.startswith("egd"):
        return "egd"
    if lower.endswith(".csv"):
        return "csv"
    return None


def rank_format(name: str) -> RankFormat:
    """A rank list format name given by a person, checked."""
    if name not in RANK_FORMATS:
        raise ExchangeError(
            None, f"unknown rank list format {name!r} (expected one of {', '.join(RANK_FORMATS)})"
        )
    return name


def parse_rank_list(text: str, format: RankFormat | None = None, filename: str | None = None) -> RankList:
    """Parse decoded text; ``format`` forces a reader, else it is detected."""
    chosen = rank_format(format or detect_rank_format(text, filename))
    result = _PARSERS[chosen](text)
    first = result.rejected[0] if result.rejected else None
    if not result.entries:
        raise ExchangeError(
            first.line if first else None,
            f"no players found in this {_LABELS[chosen]}" + (f": {first.reason}" if first else ""),
            column=first.column if first else None,
        )
    if first is not None and len(result.rejected) > len(result.entries):
        raise ExchangeError(
            first.line,
            f"{len(result.rejected)} lines do not read and only {len(result.entries)} do: this is not an "
            f"{_LABELS[chosen]}, or it is damaged (this line: {first.reason})",
            column=first.column,
        )
    return _without_duplicate_ids(result)


def _without_duplicate_ids(ranks: RankList) -> RankList:
    """Two rows with one national id contradict each other (which rank is right?):
    both are rejected, each naming the other, and the rest of the list is imported.

    Once the FFG's obsolete records are set aside, none of the real lists has one.
    """
    lines: dict[str, list[RankEntry]] = {}
    for entry in ranks.entries:
        if entry.national_id is not None:
            lines.setdefault(entry.national_id, []).append(entry)
    clashes = {id_: found for id_, found in lines.items() if len(found) > 1}
    if not clashes:
        return ranks
    rejected = list(ranks.rejected)
    dropped: set[int] = set()
    for national_id, found in clashes.items():
        for entry in found:
            others = ", ".join(str(e.line) for e in found if e is not entry)
            rejected.append(
                Rejected(
                    entry.line,
                    f"national id {national_id} is also on line {others}; neither is imported",
                    entry.name,
                )
            )
            dropped.add(entry.line)
    return replace(
        ranks,
        entries=tuple(e for e in ranks.entries if e.line not in dropped),
        rejected=tuple(sorted(rejected, key=lambda r: r.line)),
    )


def read_rank_list(data: bytes, format: RankFormat | None = None, filename: str | None = None) -> RankList:
    """Bytes of an uploaded list -> :class:`RankList`, or :class:`ExchangeError` naming the line.

    Lines are decoded one by one when the file mixes encodings (egf_db of
    December 2018 holds UTF-8 and Latin-1 names).
    """
    decoded = decode_text(data, per_line=True)
    result = parse_rank_list(decoded.text, format, filename)
    return replace(result, encoding=decoded.encoding)
