"""The EGD rating list (``allworld_lp``, also distributed as ``egf_db.txt``).

An HTML page with a ``<pre>`` block (or the same text unzipped): a date line
``(dd Mon yyyy)``, notation, column titles, one line per player starting
with an 8-digit PIN, then ``Number of players: N``.  Every other line is
skipped.  Real downloads show:

- lines in two encodings in one file (egf_db of December 2018: UTF-8 and
  Latin-1 names): decoded line by line (ratings.exchange.text);
- one corrupt row among 45,000 (allworld_lp of February 2019 line 32372,
  ``Qiu Danyun  0+  8+  8d``: results where country and club belong):
  rejected, the others imported;
- a download cut short, without its closing count (egf_rl-fixture.html):
  refused, since players are missing and nothing says which.
"""

from __future__ import annotations

import re
from datetime import date

from ratings.engine.ranks import gor_to_rank, parse_rank

from ._rankbase import RankEntry, RankList, checked_date, clamp, collect, none_if_placeholder
from .errors import ExchangeError
from .names import split_first_word_surname
from .text import split_lines

LINE = re.compile(
    r"^\s*(?P<pin>\d{8})\s+(?P<name>\S.*?)\s+(?P<country>[A-Z]{2})\s+(?P<club>\S{1,6})\s+"
    r"(?P<grade>\d{1,2}[kdpKDP])\s+(?P<promotion>--|\d{1,2}[kdpKDP])\s+(?P<gor>-?\d+)\s+"
    r"(?P<tournaments>\d+)\s*(?P<last>\S+)?\s*$"
)
_PIN = re.compile(r"^\s*\d{8}\s")
_COUNT = re.compile(r"^\s*Number of players:\s*(\d+)\s*$")
_DATE = re.compile(r"^\s*\((\d{1,2}) (\w{3}) (\d{4})\)\s*$")
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
        return clamp(gor_to_rank(gor))
    return clamp(int(parse_rank(grade)))


def read_egd_line(number: int, line: str) -> RankEntry | None:
    if not _PIN.match(line):
        return None
    match = LINE.match(line)
    if match is None:
        raise ExchangeError(
            number,
            "expected 'PIN Surname Firstname country club grade promotion GoR tournaments last' "
            "(EGD allworld_lp)",
        )
    name = match.group("name").strip()
    gor = float(match.group("gor"))
    surname, given = split_first_word_surname(name)
    return RankEntry(
        line=number,
        name=name,
        surname=surname,
        given_name=given,
        national_id=match.group("pin"),
        rank=egd_grade_to_rank(match.group("grade"), gor),
        rating=gor,
        country=none_if_placeholder(match.group("country")),
        club=none_if_placeholder(match.group("club")),
    )


def parse_egd_allworld(text: str) -> RankList:
    """The closing 'Number of players: N' is required and must count every
    player line, imported or rejected: it is how a cut download shows."""
    lines = list(enumerate(split_lines(text), start=1))
    as_of: date | None = None
    declared: tuple[int, int] | None = None
    for number, line in lines:
        count = _COUNT.match(line)
        if count:
            declared = (int(count.group(1)), number)
        stamp = _DATE.match(line)
        if stamp and as_of is None and stamp.group(2).lower() in _MONTHS:
            as_of = checked_date(
                number, int(stamp.group(3)), _MONTHS[stamp.group(2).lower()], int(stamp.group(1))
            )
    entries, rejected = collect(lines, read_egd_line)
    if declared is None:
        raise ExchangeError(
            lines[-1][0] if lines else None,
            "the list ends without its closing line 'Number of players: N': the download is incomplete "
            "(truncated?); download it again",
        )
    if declared[0] != len(entries) + len(rejected):
        raise ExchangeError(
            declared[1],
            f"the list says it has {declared[0]} players but {len(entries) + len(rejected)} player lines "
            "were found (truncated or damaged file?)",
        )
    return RankList("egd", "", as_of, tuple(entries), tuple(rejected))
