"""A rating list's own ranks written in the layouts pairing programs import.

Three layouts, each the one its readers in this package (and pairing
programs such as OpenGotha) read, so a club tournament takes the list's
ranks directly (docs/formats.md, "Publishing a list's ranks"):

- ``ech_ffg_V3.txt``, the FFG ladder: every player; ISO-8859-1 and CRLF as
  the FFG's own file, fixed columns (name 38, level 5, status, licence 7,
  club 4, country 2).
- ``egf_db.txt``, the EGD list: the players with an EGD PIN (the list is
  keyed by PIN; a made-up one would travel into the results files a pairing
  program writes); fixed columns as the EGD's download, then
  ``Number of players: N``.
- ``tdlista.txt``, the AGA TD list: the players with an AGA id,
  tab-separated.

Every writer takes :class:`RankEntry` rows (``rank`` on the shared scale,
fractional allowed; ``rating`` in the layout's unit when the list computes
it, else None: the middle of the rank's grade is written).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime

from ratings.engine.ranks import rank_to_ffg, rank_to_gor

from ._rankbase import RankEntry, RankFormat
from .h9 import whole_grade
from .names import to_ascii

__all__ = ["RANK_FILES", "RankFile", "split_given_surname", "write_rank_file"]

#: Lower-case words that belong to the surname that follows them ("Thabo le Roux", "Barbara van Aarle").
PARTICLES = frozenset({"da", "das", "de", "del", "della", "der", "di", "do", "dos", "du", "la", "le", "ten", "ter", "van", "von"})  # fmt: skip


def split_given_surname(name: str) -> tuple[str, str]:
    """'Thabo le Roux' -> ('le Roux', 'Thabo'): a name written given names
    first, as the site writes them; the surname is the last word and the
    lower-case particles before it.  One word is a surname alone."""
    words = name.split()
    start = max(len(words) - 1, 0)
    while start > 1 and words[start - 1] in PARTICLES:
        start -= 1
    return " ".join(words[start:]), " ".join(words[:start])


def _grade(rank: float) -> int:
    """The grade band a rank falls in (1.3d -> 1d, 14.5k -> 15k), as whole_grade."""
    return math.floor(rank + 1e-9)


def _part(text: str) -> str:
    """A name part as the lists join its words: with '_'."""
    return "_".join(text.split())


def _names(entry: RankEntry) -> tuple[str, str]:
    if entry.surname:
        return entry.surname, entry.given_name or ""
    return split_given_surname(entry.name)


def _latin1(text: str) -> str:
    """The text, each character outside ISO-8859-1 transliterated (the FFG's file is Latin-1)."""
    return "".join(c if ord(c) < 256 else to_ascii(c) for c in text)


def ffg_writes(entry: RankEntry) -> bool:
    """Every ranked player: a player without a licence is written with '-------'."""
    return entry.rank is not None


def egd_writes(entry: RankEntry) -> bool:
    """The players with an EGD PIN (eight digits): the EGD list is keyed by it."""
    pin = entry.national_id or ""
    return entry.rank is not None and len(pin) == 8 and pin.isdigit()


def aga_writes(entry: RankEntry) -> bool:
    """The players with an AGA id (digits): the TD list is keyed by it."""
    return entry.rank is not None and (entry.national_id or "").isdigit()


def ffg_line(entry: RankEntry) -> str:
    surname, given = _names(entry)
    name = f"{_part(_latin1(surname)).upper()} {_part(_latin1(given))}".strip()[:37]
    level = (
        math.floor(entry.rating) if entry.rating is not None else round(rank_to_ffg(_grade(entry.rank or 0)))
    )
    licence = entry.national_id if entry.national_id and len(entry.national_id) == 7 else "-------"
    club = (entry.club or "xxxx")[:4]
    country = entry.country or "XX"
    return f"{name:<38}{level:>5} - {licence:<7} {club:<4} {country}"


def write_ffg_ladder(entries: Sequence[RankEntry], as_of: datetime, title: str = "") -> str:
    """The FFG ladder layout: '#Echelle au dd/mm/yyyy hh:mm:ss', then a line a player."""
    lines = [f"#Echelle au {as_of:%d/%m/%Y %H:%M:%S}"]
    if title:
        lines.append(f"# {_latin1(title)}")
    lines += [ffg_line(e) for e in entries if ffg_writes(e)]
    return "\r\n".join(lines) + "\r\n"


def egd_line(entry: RankEntry) -> str:
    surname, given = _names(entry)
    name = f"{_part(surname)} {_part(given)}".strip()[:37]
    rank = entry.rank or 0
    gor = round(entry.rating) if entry.rating is not None else round(rank_to_gor(_grade(rank)))
    country = entry.country or "XX"
    club = (entry.club or "xxxx")[:4]
    return f" {entry.national_id:>8}  {name:<37} {country:<2}  {club:<4}   {whole_grade(rank):>3}   -- {gor:>6}     0"


def write_egd_list(entries: Sequence[RankEntry], as_of: date, title: str = "") -> str:
    """The EGD list layout: the date '(dd Mon yyyy)', column titles, a line
    a player with an 8-digit PIN, then 'Number of players: N'."""
    players = [egd_line(e) for e in entries if egd_writes(e)]
    lines = [
        f"({as_of.day:02d} {as_of:%b %Y})",
        *([title] if title else []),
        "   PIN          Name                              Club     Grade P&D    GoR    NT",
        *players,
        f"Number of players: {len(players)}",
    ]
    return "\n".join(lines) + "\n"


def aga_rating(rank: float) -> float:
    """The middle of the rank's grade on the AGA scale, which has no zero:
    1d = 1.5, 1k = -1.5, 20k = -20.5."""
    grade = _grade(rank)
    return grade + 1.5 if grade >= 0 else grade - 0.5


def aga_line(entry: RankEntry) -> str:
    surname, given = _names(entry)
    rating = entry.rating if entry.rating is not None else aga_rating(entry.rank or 0)
    name = f"{surname}, {given}" if given else surname
    return "\t".join(
        [f" {name}", entry.national_id or "", "Full", f"{rating:.5f}", "", entry.club or "", "", "", ""]
    )


def write_aga_tdlist(entries: Sequence[RankEntry], as_of: date, title: str = "") -> str:
    """The AGA TD list layout: tab-separated, no header (``title`` and
    ``as_of`` have no place in it)."""
    return "".join(f"{aga_line(e)}\r\n" for e in entries if aga_writes(e))


@dataclass(frozen=True)
class RankFile:
    """A published layout: its file name, the national list it imitates
    (the reader that reads it back), media type, encoding and writer."""

    name: str
    format: RankFormat
    label: str
    encoding: str
    write: Callable[..., str]
    #: Whether a player is written (the EGD and AGA lists: only with their id).
    writes: Callable[[RankEntry], bool]


RANK_FILES: dict[str, RankFile] = {
    f.name: f
    for f in (
        RankFile(
            "ech_ffg_V3.txt", "ffg", "FFG ladder (ech_ffg_V3.txt)", "iso-8859-1", write_ffg_ladder, ffg_writes
        ),
        RankFile("egf_db.txt", "egd", "EGD rating list (egf_db.txt)", "utf-8", write_egd_list, egd_writes),
        RankFile("tdlista.txt", "aga", "AGA TD list (tdlista.txt)", "utf-8", write_aga_tdlist, aga_writes),
    )
}


def write_rank_file(name: str, entries: Iterable[RankEntry], as_of: datetime, title: str = "") -> bytes:
    """The file ``name`` of :data:`RANK_FILES`, encoded as its national list is."""
    layout = RANK_FILES[name]
    stamp: date | datetime = as_of if layout.format == "ffg" else as_of.date()
    return layout.write(list(entries), stamp, title).encode(layout.encoding)
