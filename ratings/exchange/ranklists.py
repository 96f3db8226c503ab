"""National rank lists: FFG ladder, AGA TD list, EGD allworld_lp, plain CSV.

Every reader turns a list into :class:`RankEntry` rows with the rank on the
one scale of :mod:`ratings.systems.ranks` (30k = -30, 1k = -1, 1d = 0) and the
rating in the list's own unit.  Reading is all-or-nothing: the whole file is
parsed before anything is returned, and the first line that does not parse
raises :class:`ExchangeError` naming it.  The conversions and every decision
are documented in docs/formats.md.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal, TypeAlias

from ratings.systems.ranks import MAX_RANK, MIN_RANK, RankError, ffg_to_rank, gor_to_rank, parse_rank

from .errors import ExchangeError
from .names import split_comma_name, split_first_word_surname, split_upper_surname
from .text import decode_text, split_lines

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
class RankList:
    format: RankFormat
    encoding: str
    #: The list's own date when it says one (FFG "#Echelle au", EGD header).
    as_of: date | None
    entries: tuple[RankEntry, ...]

    @property
    def rating_unit(self) -> str | None:
        return RATING_UNITS[self.format]


def _clamp(rank: int) -> float:
    """Ranks outside 30k..9d (AGA has -49.7, i.e. 49k) are held at the ends of the scale."""
    return float(min(MAX_RANK, max(MIN_RANK, rank)))


def _none_if_placeholder(value: str) -> str | None:
    """'xxxx', 'XXXX', 'xxx', '' -> None: the placeholders lists use for 'no club/country'."""
    stripped = value.strip()
    if not stripped.strip("xX") or stripped in {"-", "--", "-------"}:
        return None
    return stripped


# --- FFG ladder (ech_ffg_V3.txt) -------------------------------------------

_FFG_HEADER = re.compile(r"^#\s*Echelle au\s+(\d{1,2})/(\d{1,2})/(\d{4})")
_FFG_LEVEL = re.compile(r"^-?\d+$")
_FFG_LICENCE = re.compile(r"^(?:-------|[0-9A-Za-z]{7})$")
FFG_NOT_RATED = -9999


def ffg_level_to_rank(level: int) -> float | None:
    """FORMATS.md: 0..99 = 1d, 100..199 = 2d, -100..-1 = 1k; -9999 = not rated."""
    if level == FFG_NOT_RATED:
        return None
    return _clamp(ffg_to_rank(level))


def parse_ffg_ladder(text: str) -> RankList:
    """``NAME Firstname  level status licence club country``, split from the right.

    The name is the only field that may hold spaces, so the five fields on
    its right are split off by whitespace and the rest is the name.
    """
    lines = split_lines(text)
    as_of: date | None = None
    entries: list[RankEntry] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        if line.startswith("#"):
            header = _FFG_HEADER.match(line)
            if header and as_of is None:
                as_of = _date(number, int(header.group(3)), int(header.group(2)), int(header.group(1)))
            continue
        fields = line.rsplit(None, 5)
        if len(fields) != 6:
            raise ExchangeError(
                number,
                "expected 'NAME Firstname level status licence club country' "
                f"(6 fields), found {len(fields)}",
            )
        name, level_text, _status, licence, club, country = fields
        if not _FFG_LEVEL.match(level_text):
            raise ExchangeError(
                number, f"level {level_text!r} is not a whole number", column=_column(line, level_text)
            )
        if not _FFG_LICENCE.match(licence):
            raise ExchangeError(
                number, f"licence {licence!r} is not 7 characters or '-------'", column=_column(line, licence)
            )
        if not re.fullmatch(r"[A-Za-z]{2}", country):
            raise ExchangeError(number, f"country {country!r} is not a 2-letter code", column=len(line) - 1)
        level = int(level_text)
        if level != FFG_NOT_RATED and not -5000 <= level <= 1200:
            raise ExchangeError(number, f"level {level} is out of range", column=_column(line, level_text))
        name = name.strip()
        surname, given = split_upper_surname(name)
        entries.append(
            RankEntry(
                line=number,
                name=name,
                surname=surname,
                given_name=given,
                national_id=None if licence == "-------" else licence,
                rank=ffg_level_to_rank(level),
                rating=None if level == FFG_NOT_RATED else float(level),
                country=_none_if_placeholder(country),
                club=_none_if_placeholder(club),
            )
        )
    return RankList("ffg", "", as_of, tuple(entries))


# --- AGA TD list (tdlista.txt) ---------------------------------------------

AGA_FIELDS = 9


def aga_rating_to_rank(rating: float) -> float:
    """AGA rating to a whole grade: 3.4 -> 3d (2), -20.05 -> 20k (-20).

    The AGA scale has no zero: 1.0 .. 1.999 is 1d, -1.0 .. -1.999 is 1k, and
    the fraction is how far into the grade the player is (-20.05 is a weak
    20k, not a 21k).  So the whole grade is the integer part, cut toward
    zero.  Ratings strictly between -1 and 1 do not occur on the AGA scale;
    they are taken as 1k (negative) or 1d (non-negative).
    """
    whole = math.trunc(rating)
    if rating < 0:
        return _clamp(min(whole, -1))
    return _clamp(max(whole, 1) - 1)


def parse_aga_tdlist(text: str) -> RankList:
    """Tab-separated: 'Last, First', id, membership, rating, expiry, chapter, state, sigma, last rated."""
    entries: list[RankEntry] = []
    for number, line in enumerate(split_lines(text), start=1):
        if not line.strip():
            continue
        fields = line.split("\t")
        if len(fields) != AGA_FIELDS:
            raise ExchangeError(
                number, f"expected {AGA_FIELDS} tab-separated fields (AGA TD list), found {len(fields)}"
            )
        name, member_id, _kind, rating_text, _expiry, chapter, _state, _sigma, _last = (
            f.strip() for f in fields
        )
        if not name:
            raise ExchangeError(number, "the name (field 1) is empty", column=1)
        if not member_id.isdigit():
            raise ExchangeError(
                number, f"AGA id {member_id!r} (field 2) is not a number", column=_field_column(fields, 1)
            )
        rating: float | None = None
        if rating_text:
            try:
                rating = float(rating_text)
            except ValueError:
                rating = math.nan
            if not math.isfinite(rating) or not -100 < rating < 100:
                raise ExchangeError(
                    number,
                    f"rating {rating_text!r} (field 4) is not a signed number like -20.05 or 3.4",
                    column=_field_column(fields, 3),
                )
        surname, given = split_comma_name(name)
        entries.append(
            RankEntry(
                line=number,
                name=name,
                surname=surname,
                given_name=given,
                national_id=member_id,
                rank=None if rating is None else aga_rating_to_rank(rating),
                rating=rating,
                # The list has no country; the state is where a member lives, kept as "club" context.
                country=None,
                club=chapter or None,
            )
        )
    return RankList("aga", "", None, tuple(entries))


# --- EGD rating list (allworld_lp) -----------------------------------------

_EGD_LINE = re.compile(
    r"^\s*(?P<pin>\d{8})\s+(?P<name>\S.*?)\s+(?P<country>[A-Z]{2})\s+(?P<club>\S{1,6})\s+"
    r"(?P<grade>\d{1,2}[kdpKDP])\s+(?P<promotion>--|\d{1,2}[kdpKDP])\s+(?P<gor>-?\d+)\s+"
    r"(?P<tournaments>\d+)\s*(?P<last>\S+)?\s*$"
)
_EGD_COUNT = re.compile(r"^\s*Number of players:\s*(\d+)\s*$")
_EGD_DATE = re.compile(r"^\s*\((\d{1,2}) (\w{3}) (\d{4})\)\s*$")
_MONTHS = {
    m: i
    for i, m in enumerate(
        ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], start=1
    )
}


def egd_grade_to_rank(grade: str, gor: float) -> float:
    """The declared grade; a professional grade ('3p') takes the grade its GoR falls in.

    Pro grades are not on the amateur scale; their GoR (2700+) says where
    they stand, held at 9d.
    """
    if grade[-1] in "pP":
        return _clamp(gor_to_rank(gor))
    return _clamp(int(parse_rank(grade)))


def parse_egd_allworld(text: str) -> RankList:
    """EGD ``allworld_lp`` list, as the .html (a <pre> block) or the unzipped .txt.

    Data lines start with an 8-digit PIN; everything else (HTML, notation,
    column titles) is skipped.  The list ends with 'Number of players: N':
    when present it must equal the lines read, which catches a truncated
    download.
    """
    as_of: date | None = None
    declared: tuple[int, int] | None = None
    entries: list[RankEntry] = []
    for number, line in enumerate(split_lines(text), start=1):
        if not re.match(r"^\s*\d{8}\s", line):
            count = _EGD_COUNT.match(line)
            if count:
                declared = (int(count.group(1)), number)
            stamp = _EGD_DATE.match(line)
            if stamp and as_of is None and stamp.group(2).lower() in _MONTHS:
                as_of = _date(
                    number, int(stamp.group(3)), _MONTHS[stamp.group(2).lower()], int(stamp.group(1))
                )
            continue
        match = _EGD_LINE.match(line)
        if match is None:
            raise ExchangeError(
                number,
                "expected 'PIN Surname Firstname country club grade promotion GoR tournaments last' "
                "(EGD allworld_lp)",
            )
        name = match.group("name").strip()
        gor = float(match.group("gor"))
        surname, given = split_first_word_surname(name)
        entries.append(
            RankEntry(
                line=number,
                name=name,
                surname=surname,
                given_name=given,
                national_id=match.group("pin"),
                rank=egd_grade_to_rank(match.group("grade"), gor),
                rating=gor,
                country=_none_if_placeholder(match.group("country")),
                club=_none_if_placeholder(match.group("club")),
            )
        )
    if declared is not None and declared[0] != len(entries):
        raise ExchangeError(
            declared[1],
            f"the list says it has {declared[0]} players but {len(entries)} were read (truncated file?)",
        )
    return RankList("egd", "", as_of, tuple(entries))


# --- plain CSV: name, national id, rank ------------------------------------

_CSV_COLUMNS: dict[str, tuple[str, ...]] = {
    "name": ("name", "nom", "player", "joueur"),
    "national_id": ("national id", "national_id", "id", "licence", "license", "pin", "aga id", "member id"),
    "rank": ("rank", "grade", "niveau", "level"),
}


def _csv_header_key(cell: str) -> str:
    return re.sub(r"[\s_]+", " ", cell.strip().lstrip("\ufeff").casefold())


def parse_rank_csv(text: str) -> RankList:
    """A CSV with a header naming the columns name, national id and rank.

    Comma, semicolon or tab separated (the one the header line uses).  The
    rank is written like '11k', '2d' or '1.3d' (ranks.parse_rank); an empty
    rank means not rated.  The name may be 'Last, First' (quoted) or free.
    """
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
    header = [_csv_header_key(cell) for cell in rows[header_index]]
    positions: dict[str, int] = {}
    for field, names in _CSV_COLUMNS.items():
        found = [i for i, cell in enumerate(header) if cell in names]
        if not found:
            raise ExchangeError(
                header_index + 1,
                f"the header has no {field.replace('_', ' ')!r} column "
                f"(expected one of {', '.join(names)}; found {', '.join(header)})",
            )
        positions[field] = found[0]
    entries: list[RankEntry] = []
    for number, row in enumerate(rows[header_index + 1 :], start=header_index + 2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            raise ExchangeError(number, f"expected {len(header)} fields like the header, found {len(row)}")
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
        entries.append(RankEntry(number, name, surname, given, national_id, rank, None, None, None))
    return RankList("csv", "", None, tuple(entries))


# --- detection and the one entry point ---------------------------------------

_PARSERS: dict[RankFormat, Callable[[str], RankList]] = {
    "ffg": parse_ffg_ladder,
    "aga": parse_aga_tdlist,
    "egd": parse_egd_allworld,
    "csv": parse_rank_csv,
}


def detect_rank_format(text: str, filename: str | None = None) -> RankFormat:
    """Which list this is, from its first lines; the file name only breaks a tie.

    FFG: '#Echelle' header or lines ending 'level status licence club XX';
    AGA: lines of 9 tab-separated fields; EGD: lines starting with an 8-digit
    PIN; CSV: a header line naming a name and a rank column.
    """
    lines = [line for line in split_lines(text[:20000]) if line.strip()][:40]
    if not lines:
        raise ExchangeError(None, "the file is empty")
    if lines[0].lstrip("\ufeff").startswith("#Echelle"):
        return "ffg"
    scores: dict[RankFormat, int] = dict.fromkeys(RANK_FORMATS, 0)
    for line in lines:
        if line.count("\t") == AGA_FIELDS - 1:
            scores["aga"] += 1
        if _EGD_LINE.match(line):
            scores["egd"] += 1
        fields = line.rsplit(None, 5)
        if len(fields) == 6 and _FFG_LEVEL.match(fields[1]) and _FFG_LICENCE.match(fields[3]):
            scores["ffg"] += 1
    header = {_csv_header_key(cell) for cell in re.split(r"[,;\t]", lines[0])}
    if any(h in _CSV_COLUMNS["name"] for h in header) and any(h in _CSV_COLUMNS["rank"] for h in header):
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


def parse_rank_list(text: str, format: RankFormat | None = None, filename: str | None = None) -> RankList:
    """Parse decoded text; ``format`` forces a reader, else it is detected."""
    chosen = format or detect_rank_format(text, filename)
    if chosen not in _PARSERS:
        raise ExchangeError(
            None, f"unknown rank list format {chosen!r} (expected one of {', '.join(RANK_FORMATS)})"
        )
    result = _PARSERS[chosen](text)
    if not result.entries:
        raise ExchangeError(None, f"no players found in this {chosen.upper()} list")
    _refuse_duplicate_ids(result.entries)
    return result


def _refuse_duplicate_ids(entries: tuple[RankEntry, ...]) -> None:
    """Two rows with one national id contradict each other (which rank is right?): refused.

    None of the real lists (ech_ffg_V3.txt, tdlista.txt) has one.
    """
    first: dict[str, RankEntry] = {}
    for entry in entries:
        if entry.national_id is None:
            continue
        earlier = first.setdefault(entry.national_id, entry)
        if earlier is not entry:
            raise ExchangeError(
                entry.line,
                f"national id {entry.national_id} is also on line {earlier.line} "
                f"({earlier.name!r} and {entry.name!r})",
                other_line=earlier.line,
            )


def read_rank_list(data: bytes, format: RankFormat | None = None, filename: str | None = None) -> RankList:
    """Bytes of an uploaded list -> :class:`RankList`, or :class:`ExchangeError` naming the line."""
    decoded = decode_text(data)
    result = parse_rank_list(decoded.text, format, filename)
    return RankList(result.format, decoded.encoding, result.as_of, result.entries)


# --- helpers ------------------------------------------------------------------


def _date(line: int, year: int, month: int, day: int) -> date:
    try:
        return date(year, month, day)
    except ValueError:
        raise ExchangeError(line, f"{day:02d}/{month:02d}/{year} is not a date") from None


def _column(line: str, field: str) -> int:
    return line.rfind(field) + 1


def _field_column(fields: list[str], index: int) -> int:
    return sum(len(f) + 1 for f in fields[:index]) + 1


def parse_date_text(text: str) -> date:
    """dd/mm/yyyy or yyyy-mm-dd -> date (raises ValueError)."""
    for pattern in ("%d/%m/%Y", "%Y-%m-%d"):
        try:
            return datetime.strptime(text.strip(), pattern).date()
        except ValueError:
            continue
    raise ValueError(f"not a date: {text!r}")
