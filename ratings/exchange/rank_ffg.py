"""The FFG ladder (``ech_ffg_V3.txt``, and the older ``ech_ffg.txt``/``ech_ffg_new.txt``).

The FFG ladder list (docs/formats.md): first line ``#Echelle au dd/mm/yyyy [hh:mm:ss]``, then one player
a line: ``NAME Firstname  level status licence club country``.  The real
files (the FFG's published lists, 2012 to 2021) also show:

- the older five-field layout (2012, ``ech_ffg_new`` of 2014): one field
  after the licence, a club (``94MJ``) or, for players abroad, a country
  (``NL``);
- a V3 line whose country is empty (``BON Maxence -1600 - 0637009 xxxx``);
- the FFG's superseded records, the name ending ``_(obsolète)`` (cut to
  ``_(obso`` in the 2012 list), which repeat a licence number: rejected
  with that reason, never imported as players.
"""

from __future__ import annotations

import re
from datetime import date

from ratings.engine.ranks import ffg_to_rank

from ._rankbase import RankEntry, RankList, checked_date, clamp, collect, column_of, none_if_placeholder
from .errors import ExchangeError
from .names import split_upper_surname
from .text import split_lines

_HEADER = re.compile(r"^#\s*Echelle au\s+(\d{1,2})/(\d{1,2})/(\d{4})")
_LEVEL = re.compile(r"^-?\d+$")
_LICENCE = re.compile(r"^(?:-------|[0-9A-Za-z]{7})$")
# Name (may hold spaces), level, status letter, licence, then up to two fields.
_LINE = re.compile(
    r"^(?P<name>\S.*?)\s+(?P<level>-?\d+)\s+(?P<status>\S)\s+(?P<licence>-------|[0-9A-Za-z]{7})"
    r"(?:\s+(?P<first>\S+))?(?:\s+(?P<second>\S+))?\s*$"
)
_OBSOLETE = "_(obso"
FFG_NOT_RATED = -9999


def ffg_level_to_rank(level: int) -> float | None:
    """FFG ladder levels: 0..99 = 1d, 100..199 = 2d, -100..-1 = 1k; -9999 = not rated."""
    if level == FFG_NOT_RATED:
        return None
    return clamp(ffg_to_rank(level))


def _diagnose(number: int, line: str) -> ExchangeError:
    """Why a line is not a ladder line, naming the field (split from the right as in V3)."""
    fields = line.rsplit(None, 5)
    if len(fields) < 5:
        return ExchangeError(
            number, f"expected 'NAME Firstname level status licence club country', found {len(fields)} fields"
        )
    level_text, licence = fields[1], fields[3]
    if not _LEVEL.match(level_text):
        return ExchangeError(
            number, f"level {level_text!r} is not a whole number", column=column_of(line, level_text)
        )
    if not _LICENCE.match(licence):
        return ExchangeError(
            number, f"licence {licence!r} is not 7 characters or '-------'", column=column_of(line, licence)
        )
    return ExchangeError(number, "expected 'NAME Firstname level status licence club country'")


def read_ffg_line(number: int, line: str) -> RankEntry | None:
    if not line.strip() or line.startswith("#"):
        return None
    match = _LINE.match(line)
    if match is None:
        raise _diagnose(number, line)
    name = match.group("name").strip()
    licence = match.group("licence")
    if _OBSOLETE in name:
        raise ExchangeError(
            number,
            f"a record the FFG marks obsolete ('{name[name.index(_OBSOLETE) :]}', licence {licence}): "
            "an old line of a player, not imported",
        )
    first, second = match.group("first"), match.group("second")
    if second is not None:  # V3: club and country
        club, country = first, second
    elif first is not None and re.fullmatch(r"[A-Z]{2}", first):  # five fields, a player abroad
        club, country = None, first
    else:  # five fields, a club; or V3 with an empty country
        club, country = first, None
    if country is not None and not re.fullmatch(r"[A-Za-z]{2}", country):
        raise ExchangeError(
            number, f"country {country!r} is not a 2-letter code", column=column_of(line, country)
        )
    level_text = match.group("level")
    level = int(level_text)
    if level != FFG_NOT_RATED and not -5000 <= level <= 1200:
        raise ExchangeError(number, f"level {level} is out of range", column=column_of(line, level_text))
    surname, given = split_upper_surname(name)
    return RankEntry(
        line=number,
        name=name,
        surname=surname,
        given_name=given,
        national_id=None if licence == "-------" else licence,
        rank=ffg_level_to_rank(level),
        rating=None if level == FFG_NOT_RATED else float(level),
        country=None if country is None else none_if_placeholder(country),
        club=None if club is None else none_if_placeholder(club),
    )


def parse_ffg_ladder(text: str) -> RankList:
    """The list must start with its '#Echelle au' line (else it is not the
    ladder, or its beginning is missing); every other line is read alone."""
    lines = list(enumerate(split_lines(text), start=1))
    first = next(((n, line) for n, line in lines if line.strip()), None)
    header = _HEADER.match(first[1].lstrip("\ufeff")) if first is not None else None
    if first is None or header is None:
        raise ExchangeError(
            first[0] if first else None,
            "the FFG ladder starts with the line '#Echelle au dd/mm/yyyy'; this file does not "
            "(not the ladder, or its beginning is missing)",
        )
    as_of: date = checked_date(first[0], int(header.group(3)), int(header.group(2)), int(header.group(1)))
    entries, rejected = collect(lines[first[0] :], read_ffg_line)
    return RankList("ffg", "", as_of, tuple(entries), tuple(rejected))
