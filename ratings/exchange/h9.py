"""EGD tournament results files ("h9"), read and written.

FORMATS.md, "EGD tournament results": header tags on ';' lines, then one
line per player: place, 'Surname Firstname', grade, country, club, some
tie-break columns, one result per round ``<opp><+|-|=|?>/<w|b><h>``, and an
optional ``|PIN``.  Opponents are referred to by the position of their line
(1 = first player line), not by the place column: places repeat on ties and
are then left blank (tournoi-chinois.h9, players 10, 12 to 17 and 19 to 24).
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from datetime import date

from ratings.systems.ranks import format_rank

from ._pairings import PlayerLine, ResultCell, assemble_games
from .errors import ExchangeError
from .model import Player, Tournament
from .names import split_first_word_surname
from .text import decode_text, split_lines

_TAG = re.compile(r"\b([A-Z]{2})\[([^\]]*)\]")
_PLAYER = re.compile(
    r"^\s*(?P<place>\d+)?\s+(?P<name>\S.*?)\s+(?P<grade>\d{1,2}[kdpKDP])\s+"
    r"(?P<country>[A-Za-z]{2})\s+(?P<club>\S+)(?P<rest>.*)$"
)
_RESULT = re.compile(r"^(?P<opp>\d+)(?P<outcome>[-+=?])(?:/(?P<colour>[wbWB])(?P<handicap>\d)?)?$")
_TIEBREAK = re.compile(r"^-?\d+(?:[.,]\d+)?$")
_ANONYMOUS = re.compile(r"^[?\s]*$")


def grade_rank(grade: str) -> float:
    """'5d' -> 4, '12K' -> -12; a pro grade ('1p') is held at 9d, the top of the shared scale."""
    number = int(grade[:-1])
    unit = grade[-1].lower()
    if unit == "k":
        return float(-number)
    if unit == "p":
        return 8.0
    return float(number - 1)


def _iso_date(line: int, text: str) -> date:
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise ExchangeError(line, f"DT[...]: {text.strip()!r} is not an ISO date (yyyy-mm-dd)") from None


def parse_h9(text: str) -> Tournament:
    tags: dict[str, tuple[str, int]] = {}
    players: list[Player] = []
    lines: list[PlayerLine] = []
    for number, line in enumerate(split_lines(text), start=1):
        if not line.strip():
            continue
        if line.lstrip().startswith(";"):
            for tag, value in _TAG.findall(line):
                tags.setdefault(tag, (value, number))
            continue
        body, bar, pin_text = line.partition("|")
        match = _PLAYER.match(body)
        if match is None:
            raise ExchangeError(
                number,
                "not an EGD results line (expected 'place Surname Firstname grade country club "
                "tie-breaks results', e.g. '1 Dupont Jean 5k FR 75Pa 3 2+/w0')",
            )
        pin = pin_text.strip() or None
        if bar and (pin is None or not pin.isdigit()):
            raise ExchangeError(
                number, f"PIN {pin_text.strip()!r} after '|' is not a number", column=len(body) + 2
            )
        name = match.group("name").strip()
        anonymous = bool(_ANONYMOUS.match(name))
        position = len(lines) + 1
        cells: list[ResultCell] = []
        rest_offset = match.start("rest")
        for token in re.finditer(r"\S+", match.group("rest")):
            column = rest_offset + token.start() + 1
            result = _RESULT.match(token.group())
            if result is None:
                if cells or not _TIEBREAK.match(token.group()):
                    raise ExchangeError(
                        number,
                        f"{token.group()!r} is neither a tie-break number nor a result like '11-/b5' or '0+'",
                        column=column,
                    )
                continue
            handicap = result.group("handicap")
            colour = result.group("colour")
            cells.append(
                ResultCell(
                    round=len(cells) + 1,
                    opponent=int(result.group("opp")),
                    outcome=result.group("outcome"),
                    colour=colour.lower() if colour else None,
                    handicap=int(handicap) if handicap else 0,
                    text=token.group(),
                    column=column,
                )
            )
        key = str(position)
        lines.append(PlayerLine(position, key, number, anonymous, tuple(cells)))
        if anonymous:
            continue
        surname, given = split_first_word_surname(name)
        country = match.group("country").upper()
        club = match.group("club")
        players.append(
            Player(
                key=key,
                name=name.replace("_", " "),
                surname=surname,
                given_name=given,
                rank=grade_rank(match.group("grade")),
                country=None if country == "XX" else country,
                club=None if set(club.lower()) == {"x"} else club,
                egd_pin=pin,
                line=number,
            )
        )
    if not lines:
        raise ExchangeError(None, "no player lines: this is not an EGD results (h9) file")
    komi = _float_tag(tags, "KM")
    handicap_rule: int | None = None
    if "HA" in tags:
        rule = re.fullmatch(r"\s*[hH](\d)\s*", tags["HA"][0])
        if rule is None:
            raise ExchangeError(tags["HA"][1], f"HA[{tags['HA'][0]}]: expected hN, e.g. HA[h9]")
        handicap_rule = int(rule.group(1))
    event_class = tags["CL"][0].strip().upper() if "CL" in tags else None
    if event_class is not None and event_class not in {"A", "B", "C", "D"}:
        raise ExchangeError(tags["CL"][1], f"CL[{event_class}]: the class is A, B, C or D")
    start = end = None
    if "DT" in tags:
        value, at = tags["DT"]
        parts = [p for p in value.split(",") if p.strip()]
        if not parts:
            raise ExchangeError(at, "DT[] is empty (expected DT[start,end])")
        start = _iso_date(at, parts[0])
        end = _iso_date(at, parts[-1])
    minutes = _float_tag(tags, "TM")
    games, skipped = assemble_games(lines, komi)
    place = (
        ", ".join(p.strip() for p in reversed(tags["PC"][0].split(",")) if p.strip())
        if "PC" in tags
        else None
    )
    return Tournament(
        name=tags["EV"][0].strip() if "EV" in tags else "",
        start=start,
        end=end,
        event_class=event_class,
        place=place or None,
        komi=komi,
        handicap_rule=handicap_rule,
        minutes=None if minutes is None else int(minutes),
        players=tuple(players),
        games=tuple(games),
        skipped=tuple(skipped),
        format="h9",
    )


def _float_tag(tags: dict[str, tuple[str, int]], tag: str) -> float | None:
    if tag not in tags:
        return None
    value, at = tags[tag]
    try:
        number = float(value.strip().replace(",", "."))
    except ValueError:
        number = math.nan
    if not math.isfinite(number):
        raise ExchangeError(at, f"{tag}[{value}]: expected a number")
    return number


def read_h9(data: bytes) -> Tournament:
    decoded = decode_text(data)
    tournament = parse_h9(decoded.text)
    return _with_encoding(tournament, decoded.encoding)


def _with_encoding(tournament: Tournament, encoding: str) -> Tournament:
    from dataclasses import replace

    return replace(tournament, encoding=encoding)


# --- writing -------------------------------------------------------------------


def whole_grade(rank: float | None) -> str:
    """The whole grade to write for a shared-scale rank: the grade band it falls in (1.3d -> 1d,
    14.5k -> 15k); no rank -> 30k, the bottom of the scale."""
    if rank is None:
        return "30k"
    return format_rank(math.floor(rank + 1e-9))


def _name_parts(player: Player) -> str:
    """The name column.  A '|' would start the PIN column, so one in a name
    stored before names were cleaned (exchange.clean_name refuses it now)
    is written as '/'."""
    if player.surname:
        surname = player.surname.replace(" ", "_")
        given = (player.given_name or "").replace(" ", "_")
        return f"{surname} {given}".strip().replace("|", "/")
    words = player.name.split()
    return " ".join(words).replace("|", "/") if words else "?"


def write_h9(tournament: Tournament, *, event_class: str = "C") -> str:
    """An EGD results file: one line per player, one result column per round.

    A player with no game in a round gets '0-' (not paired, no point), as
    OpenGotha writes them (tournoi-chinois.h9).  The one tie-break column is
    the number of wins.  The class defaults to C, a club ladder (issue 5).
    """
    tournament.check()
    rounds = tournament.rounds()
    cells: dict[str, list[str]] = defaultdict(lambda: ["0-"] * rounds)
    wins: dict[str, int] = defaultdict(int)
    position = {p.key: i for i, p in enumerate(tournament.players, start=1)}
    for game in tournament.games:
        white_mark = {"white": "+", "black": "-", "jigo": "="}[game.winner.value]
        black_mark = {"+": "-", "-": "+", "=": "="}[white_mark]
        cells[game.white][game.round - 1] = f"{position[game.black]}{white_mark}/w{game.handicap}"
        cells[game.black][game.round - 1] = f"{position[game.white]}{black_mark}/b{game.handicap}"
        if white_mark == "+":
            wins[game.white] += 1
        elif black_mark == "+":
            wins[game.black] += 1
    out = [f"; CL[{tournament.event_class or event_class}]", f"; EV[{_tag_text(tournament.name)}]"]
    if tournament.place:
        out.append(f"; PC[{_tag_text(tournament.place)}]")
    if tournament.start:
        end = tournament.end or tournament.start
        out.append(f"; DT[{tournament.start.isoformat()},{end.isoformat()}]")
    if tournament.handicap_rule is not None:
        out.append(f"; HA[h{tournament.handicap_rule}]")
    if tournament.komi is not None:
        out.append(f"; KM[{tournament.komi:g}]")
    if tournament.minutes is not None:
        out.append(f"; TM[{tournament.minutes}]")
    out.append("; Generated by clubrating")
    out.append(";")
    out.append(f"; {'Pl':>3} {'Name':<30} {'Rk':>3} Co Club  NbW")
    for index, player in enumerate(tournament.players, start=1):
        results = " ".join(f"{c:<8}" for c in cells[player.key]).rstrip()
        country = (player.country or "XX")[:2].upper()
        club = (player.club or "xxxx").replace(" ", "_")[:4]
        line = (
            f"{index:5d} {_name_parts(player):<30} {whole_grade(player.rank):>3} {country} {club:<4} "
            f"{wins[player.key]:4d}   {results}"
        ).rstrip()
        if player.egd_pin:
            line += f" |{player.egd_pin}"
        out.append(line)
    return "\n".join(out) + "\n"


def _tag_text(text: str) -> str:
    return text.replace("]", ")").replace("[", "(").replace("\n", " ")
