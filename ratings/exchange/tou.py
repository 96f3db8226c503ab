"""FFG ``.tou`` tournament files, read and written.

The FFG's .tou format (docs/formats.md): ';key=value' header lines (name, date dd/mm/yyyy,
vill, comm, prog, size, time, ta, komi), then one row per player: number,
name (fixed width), level ('12K', '3D'), a 7-character licence ('-------'
or blank when none: juvisy-2019.tou line 29), club, and per round
``2+w0`` (beat player 2 with White, handicap 0); ``0=`` is no game.
The first column is the place, blank for tied players; opponents are
referred to by the row's position (1 = the first row), as in h9.  OpenGotha
3.51 writes h9 cells (``2-/w0``, ``4+!w0``) in .tou files: both are read.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from datetime import datetime

from ._pairings import PlayerLine, ResultCell, assemble_games, result_cell
from .errors import ExchangeError
from .h9 import grade_rank, whole_grade
from .model import Player, Tournament
from .names import split_first_word_surname
from .text import split_lines

_HEADER = re.compile(r"^;\s*(\w+)\s*=(.*)$")
# The first column is the place, left blank for tied players (OpenGotha:
# veterans-2015.tou, frioul-2018.tou); opponents are the rows' positions.
# The name is 25 characters wide: a long one runs into the level
# ('Ohlenbusch-Schulz Heidrun19K', egc-2009.tou), the second form.
_LEVEL_TAIL = r"(?P<level>\d{1,2}[kdpKDP])\s(?P<licence>.{7})(?:\s+(?P<club>\S+))?(?P<rest>.*)$"
_ROWS = (
    re.compile(r"^\s*(?P<num>\d+)?\s+(?P<name>\S.*?)\s+" + _LEVEL_TAIL),
    re.compile(r"^\s*(?P<num>\d+)?\s+(?P<name>\S.*?[^\s\d])" + _LEVEL_TAIL),
)
_LICENCE = re.compile(r"^(?:-------|\s{7}|[0-9A-Za-z]{7})$")


def _row(line: str) -> re.Match[str] | None:
    for form in _ROWS:
        match = form.match(line)
        if match is not None and _LICENCE.match(match.group("licence")):
            return match
    return None


def parse_tou(text: str) -> Tournament:
    header: dict[str, tuple[str, int]] = {}
    players: list[Player] = []
    lines: list[PlayerLine] = []
    for number, line in enumerate(split_lines(text), start=1):
        if not line.strip():
            continue
        if line.lstrip().startswith(";"):
            field = _HEADER.match(line.strip())
            if field:
                header.setdefault(field.group(1).lower(), (field.group(2).strip(), number))
            continue
        match = _row(line)
        if match is None:
            raise ExchangeError(
                number,
                "not a .tou player row (expected 'number Surname Firstname level licence club results', "
                "e.g. '   1 Dupont Jean   3D 1800014 75Ju    2+w0')",
            )
        club = match.group("club")
        rest = match.group("rest")
        rest_offset = match.start("rest")
        if club is not None and result_cell(club, 0, 0) is not None:  # no club: a result follows the licence
            rest_offset = match.start("club")
            rest = line[rest_offset:]
            club = None
        cells: list[ResultCell] = []
        for token in re.finditer(r"\S+", rest):
            column = rest_offset + token.start() + 1
            cell = result_cell(token.group(), len(cells) + 1, column)
            if cell is None:
                raise ExchangeError(
                    number, f"{token.group()!r} is not a round result like '2+w0' or '0='", column=column
                )
            cells.append(cell)
        name = match.group("name").strip()
        anonymous = not name.strip("?_' -")
        position = len(lines) + 1
        if match.group("num") is not None and int(match.group("num")) != position:
            # Opponents are counted by row: a number that is not the row's
            # position means rows are missing, moved or numbered otherwise.
            shown = int(match.group("num"))
            raise ExchangeError(
                number,
                f"this row is numbered {shown} but it is row {position}; the first column is the place "
                "and opponents are counted by row, so rows are missing or out of order",
                other_line=lines[shown - 1].line if 0 < shown <= len(lines) else None,
            )
        key = str(position)
        lines.append(PlayerLine(position, key, number, anonymous, tuple(cells)))
        if anonymous:
            continue
        licence = match.group("licence").strip()
        surname, given = split_first_word_surname(name)
        players.append(
            Player(
                key=key,
                name=name.replace("_", " "),
                surname=surname,
                given_name=given,
                rank=grade_rank(match.group("level")),
                club=None if club is None or set(club.lower()) == {"x"} else club,
                ffg_licence=None if licence in {"", "-------"} else licence,
                line=number,
            )
        )
    if not lines:
        raise ExchangeError(None, "no player rows: this is not an FFG .tou file")
    komi = _number(header, "komi")
    minutes = _number(header, "ta")
    start = None
    if "date" in header:
        value, at = header["date"]
        try:
            start = datetime.strptime(value, "%d/%m/%Y").date()
        except ValueError:
            raise ExchangeError(at, f";date={value}: expected dd/mm/yyyy") from None
    size = _number(header, "size")
    games, skipped = assemble_games(lines, komi)
    name = header.get("name", ("", 0))[0]
    comment = header.get("comm", ("", 0))[0]
    return Tournament(
        name=name or comment,
        start=start,
        end=start,
        place=header.get("vill", ("", 0))[0] or None,
        komi=komi,
        minutes=None if minutes is None else int(minutes),
        players=tuple(players),
        games=tuple(games),
        skipped=tuple(skipped),
        format="tou",
        board=19 if size is None else int(size),
    )


def _number(header: dict[str, tuple[str, int]], key: str) -> float | None:
    if key not in header or not header[key][0]:
        return None
    value, at = header[key]
    try:
        number = float(value.replace(",", "."))
    except ValueError:
        number = math.nan
    if not math.isfinite(number):
        raise ExchangeError(at, f";{key}={value}: expected a number")
    return number


def write_tou(tournament: Tournament) -> str:
    """An FFG .tou file; a round without a game is written '0=' as OpenGotha does (juvisy-2019.tou)."""
    tournament.check()
    rounds = tournament.rounds()
    cells: dict[str, list[str]] = defaultdict(lambda: ["0="] * rounds)
    position = {p.key: i for i, p in enumerate(tournament.players, start=1)}
    for game in tournament.games:
        white_mark = {"white": "+", "black": "-", "jigo": "="}[game.winner.value]
        black_mark = {"+": "-", "-": "+", "=": "="}[white_mark]
        cells[game.white][game.round - 1] = f"{position[game.black]}{white_mark}w{game.handicap}"
        cells[game.black][game.round - 1] = f"{position[game.white]}{black_mark}b{game.handicap}"
    day = tournament.start.strftime("%d/%m/%Y") if tournament.start else ""
    komi = "" if tournament.komi is None else f"{tournament.komi:g}"
    out = [
        f";name={tournament.name}",
        f";date={day}",
        f";vill={tournament.place or ''}",
        f";comm={tournament.name}",
        ";prog=clubrating",
        f";size={tournament.board}",
        ";time=",
        f";ta={tournament.minutes if tournament.minutes is not None else ''}",
        f";komi={komi}",
        ";Num Nom Prenom               Niv Licence Club",
    ]
    for index, player in enumerate(tournament.players, start=1):
        if player.surname:
            name = f"{player.surname.replace(' ', '_')} {(player.given_name or '').replace(' ', '_')}".strip()
        else:
            name = " ".join(player.name.split()) or "?"
        licence = player.ffg_licence if player.ffg_licence and len(player.ffg_licence) == 7 else "-------"
        club = (player.club or "xxxx").replace(" ", "_")[:4]
        results = " ".join(f"{c:>7}" for c in cells[player.key])
        out.append(
            f"{index:4d} {name:<25} {whole_grade(player.rank).upper():>3} {licence} {club:<4} {results}".rstrip()
        )
    return "\n".join(out) + "\n"
