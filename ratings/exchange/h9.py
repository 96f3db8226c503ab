"""EGD tournament results files ("h9"), read and written.

The EGD's tournament results format (docs/formats.md): header tags on ';' lines, then one
line per player: place, 'Surname Firstname', grade, country, club, some
tie-break columns, one result per round ``<opp><+|-|=|?>/<w|b><h>``, and an
optional ``|PIN``.  Opponents are referred to by the position of their line
(1 = first player line), not by the place column: places repeat on ties and
are then left blank (tournoi-chinois.h9, players 10, 12 to 17 and 19 to 24).

The files other software writes differ (docs/formats.md "EGD
tournament results"): results before, after or between the tie-breaks,
tie-breaks like '408?' or '322½', '!' for games won or lost by default, a
bare '?' for "not paired", tab-separated columns, loose DT and TM tags,
grades without k/d, names running into the grade, CL[X].
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from datetime import date

from ratings.engine.ranks import format_rank

from ._pairings import AMBIGUOUS, PlayerLine, ResultCell, assemble_games, result_cell
from .errors import ExchangeError
from .model import Player, Skipped, Tournament
from .names import split_first_word_surname
from .text import split_lines

_TAG = re.compile(r"\b([A-Z]{2})\[([^\]]*)\]")
# A player line: optional place (blank on ties), name, grade, country, club,
# then tie-breaks and results.  Tried in order: the grade as written
# ('5d', '12K'); a grade without k/d ('11': polish-students-2006.h9, kyu);
# a name running into its grade ('Breitenstein Alexander10K', egc-2009.h9).
# Whitespace is spaces or tabs (wagc-1981.h9 is tab-separated).
_HEAD = r"^\s*(?P<place>\d+)?\s+"
_TAIL = r"\s+(?P<country>[A-Za-z]{2})\s+(?P<club>\S+)(?P<rest>(?:\s.*)?)$"
_PLAYER_FORMS = (
    re.compile(_HEAD + r"(?P<name>\S.*?)\s+(?P<grade>\d{1,2}[kdpKDP])" + _TAIL),
    re.compile(_HEAD + r"(?P<name>\S.*?)\s+(?P<grade>[1-9]\d?)" + _TAIL),
    re.compile(_HEAD + r"(?P<name>\S.*?[^\s\d])(?P<grade>\d{1,2}[kdpKDP])" + _TAIL.replace("A-Za-z", "A-Z")),
)
# Tie-break figures: '3', '-2', '12.5', '322½' (Latin-1 half), '408?' and
# '3?' (OpenGotha's uncertain figures), '16S' (wagc-2021.h9).
_TIEBREAK = re.compile(r"^(?:-?\d+(?:[.,]\d+)?½?|½)\??[A-Za-z]?$")
_ANONYMOUS = re.compile(r"^[?_'\s-]*$")
_CLASSES = {"A", "B", "C", "D"}


def grade_rank(grade: str) -> float:
    """'5d' -> 4, '12K' -> -12; a pro grade ('1p') is held at 9d, the top of the shared scale.

    A grade without k/d ('10', written by hand in polish-students-2006.h9
    and kpmc-2007.h9 for 10k) is a kyu grade: 1d would be written '1d'.
    """
    if grade.isdigit():
        return float(-int(grade))
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


def _dates(value: str, at: int, notes: list[Skipped]) -> tuple[date, date]:
    """DT[start,end]; also DT[start] and the short end 'DT[2005-05-24~27]' (wagc-2005-oddDT.h9).

    An end before the start (polish-women-2025.h9: DT[2025-07-19,2025-06-20])
    is a typing slip: the start is kept for both, and it is reported.
    """
    parts = [p.strip() for p in re.split(r"[,~]", value) if p.strip()]
    if not parts:
        raise ExchangeError(at, "DT[] is empty (expected DT[start,end], e.g. DT[2019-10-26,2019-10-27])")
    start = _iso_date(at, parts[0])
    end_text = parts[-1]
    if re.fullmatch(r"\d{1,2}", end_text):  # '~27': the day of the start's month
        end_text = f"{start:%Y-%m}-{int(end_text):02d}"
    elif re.fullmatch(r"\d{1,2}-\d{1,2}", end_text):  # '~06-02': month and day of the start's year
        month, day = end_text.split("-")
        end_text = f"{start:%Y}-{int(month):02d}-{int(day):02d}"
    end = _iso_date(at, end_text)
    if end < start:
        notes.append(Skipped(at, None, f"DT[{value}]: the end is before the start; {start} is used for both"))
        end = start
    return start, end


def _minutes(value: str, at: int) -> int:
    """TM[82], TM[82.5] (whole minutes kept), TM[3h] (kpmc-2003.h9, wagc-2005-oddDT.h9)."""
    match = re.fullmatch(r"\s*(\d+(?:[.,]\d+)?)\s*(h|min|m)?\s*", value, re.IGNORECASE)
    if match is None:
        raise ExchangeError(at, f"TM[{value}]: expected the main time in minutes, e.g. TM[60] or TM[3h]")
    number = float(match.group(1).replace(",", "."))
    if (match.group(2) or "").lower() == "h":
        number *= 60
    return int(number)


def _player_match(line: str) -> re.Match[str] | None:
    for form in _PLAYER_FORMS:
        match = form.match(line)
        if match is not None:
            return match
    return None


def _line_cells(
    number: int, rest: str, offset: int
) -> tuple[list[ResultCell], list[tuple[str, int]], tuple[str, ...]]:
    """The results of one line, the uncertain 'N?' tokens right after
    them, and the line's tie-break figures (before and after the results).

    Tie-breaks may come before the results (OpenGotha), after them (the
    EGD's current download: kpmc-2016.h9) or both (wagc-2021.h9); the
    results are the one unbroken run of result cells.
    """
    tokens = [(m.group(), offset + m.start() + 1) for m in re.finditer(r"\S+", rest)]
    kinds: list[str] = []
    for text, column in tokens:
        if AMBIGUOUS.match(text):
            kinds.append("?")
        elif result_cell(text, 0, column) is not None:
            kinds.append("r")
        elif _TIEBREAK.match(text):
            kinds.append("t")
        else:
            raise ExchangeError(
                number,
                f"{text!r} is neither a tie-break number nor a result like '11-/b5', '3+' or '0+'",
                column=column,
            )
    results = [i for i, kind in enumerate(kinds) if kind == "r"]
    if not results:
        return [], [], tuple(text for (text, _), kind in zip(tokens, kinds, strict=True) if kind != "r")
    first, last = results[0], results[-1]
    for i in range(first, last + 1):
        if kinds[i] == "t":
            raise ExchangeError(
                number,
                f"{tokens[i][0]!r} stands between two round results; the results must be side by side",
                column=tokens[i][1],
            )
    cells = [_cell(tokens[i], k + 1) for k, i in enumerate(range(first, last + 1))]
    after = [tokens[i] for i in range(last + 1, len(tokens)) if kinds[i] == "?"]
    taken = _run_length(kinds[last + 1 :])
    tiebreaks = [tokens[i][0] for i in range(first)] + [
        tokens[i][0] for i in range(last + 1 + taken, len(tokens))
    ]
    return cells, after[:taken], tuple(tiebreaks)


def _run_length(kinds: list[str]) -> int:
    count = 0
    while count < len(kinds) and kinds[count] == "?":
        count += 1
    return count


def _cell(token: tuple[str, int], round: int) -> ResultCell:
    cell = result_cell(token[0], round, token[1])
    # The run holds results and 'N?' tokens only (a tie-break inside it is
    # refused), and result_cell reads both ('N?': outcome '?').
    assert cell is not None
    return cell


def parse_h9(text: str) -> Tournament:
    tags: dict[str, tuple[str, int]] = {}
    players: list[Player] = []
    lines: list[PlayerLine] = []
    pending: list[tuple[int, bool, list[ResultCell], list[tuple[str, int]]]] = []
    notes: list[Skipped] = []
    header = ""
    for number, line in enumerate(split_lines(text), start=1):
        if not line.strip():
            continue
        if line.lstrip().startswith(";"):
            for tag, value in _TAG.findall(line):
                tags.setdefault(tag, (value, number))
            if not pending and re.search(r"\bClub\b", line, re.IGNORECASE):
                words = re.split(r"\bClub\b", line, maxsplit=1, flags=re.IGNORECASE)[1].split()
                # The rounds' own headings ("R1 R2 R3") are not tie-breaks.
                header = " ".join(w for w in words if not re.fullmatch(r"(?i)r(ound)?\d+", w))
            continue
        body, _bar, pin_text = line.partition("|")
        match = _player_match(body)
        if match is None:
            raise ExchangeError(
                number,
                "not an EGD results line (expected 'place Surname Firstname grade country club "
                "tie-breaks results', e.g. '1 Dupont Jean 5k FR 75Pa 3 2+/w0')",
            )
        pin = pin_text.strip() or None
        if pin is not None and not pin.isdigit():
            raise ExchangeError(
                number, f"PIN {pin_text.strip()!r} after '|' is not a number", column=len(body) + 2
            )
        name = match.group("name").strip()
        anonymous = bool(_ANONYMOUS.match(name))
        cells, extra, tiebreaks = _line_cells(number, match.group("rest"), match.start("rest"))
        pending.append((number, anonymous, cells, extra))
        if anonymous:
            continue
        surname, given = split_first_word_surname(name)
        country = match.group("country").upper()
        club = match.group("club")
        players.append(
            Player(
                key=str(len(pending)),
                name=name.replace("_", " "),
                surname=surname,
                given_name=given,
                rank=grade_rank(match.group("grade")),
                country=None if country == "XX" else country,
                club=None if set(club.lower()) == {"x"} else club,
                egd_pin=pin,
                line=number,
                place=match.group("place"),
                tiebreaks=tiebreaks,
            )
        )
    if not pending:
        raise ExchangeError(None, "no player lines: this is not an EGD results (h9) file")
    # A line with fewer rounds than the others takes the uncertain 'N?'
    # tokens right after its results as unknown results.
    rounds = max(len(cells) for _, _, cells, _ in pending)
    for position, (number, anonymous, cells, extra) in enumerate(pending, start=1):
        while len(cells) < rounds and extra:
            cells.append(_cell(extra.pop(0), len(cells) + 1))
        lines.append(PlayerLine(position, str(position), number, anonymous, tuple(cells)))
    komi = _float_tag(tags, "KM")
    handicap_rule: int | None = None
    if "HA" in tags:
        rule = re.fullmatch(r"\s*[hH](\d)\s*", tags["HA"][0])
        if rule is None:
            raise ExchangeError(tags["HA"][1], f"HA[{tags['HA'][0]}]: expected hN, e.g. HA[h9]")
        handicap_rule = int(rule.group(1))
    event_class = tags["CL"][0].strip().upper() if "CL" in tags else None
    if event_class == "X":
        # OpenGotha's class for a tournament not sent to the EGD (oustalous-internet-2020.h9).
        notes.append(
            Skipped(tags["CL"][1], None, "CL[X]: not an EGD class; the games are imported without one")
        )
        event_class = None
    elif event_class is not None and event_class not in _CLASSES:
        raise ExchangeError(tags["CL"][1], f"CL[{event_class}]: the class is A, B, C or D (or X: none)")
    start = end = None
    if "DT" in tags:
        start, end = _dates(tags["DT"][0], tags["DT"][1], notes)
    minutes = _minutes(*tags["TM"]) if "TM" in tags else None
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
        minutes=minutes,
        players=tuple(players),
        games=tuple(games),
        skipped=tuple(notes + skipped),
        format="h9",
        tiebreak_header=header,
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
    the number of wins.  The class defaults to C, a club ladder.
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
    out.append(f"; {'Pl':>2} {'Name':<30} {'Rk':>3} Co Club  NbW")
    for index, player in enumerate(tournament.players, start=1):
        results = " ".join(f"{c:<8}" for c in cells[player.key]).rstrip()
        country = (player.country or "XX")[:2].upper()
        club = (player.club or "xxxx").replace(" ", "_")[:4]
        line = (
            f"{index:4d} {_name_parts(player):<30} {whole_grade(player.rank):>3} {country} {club:<4} "
            f"{wins[player.key]:4d}   {results}"
        ).rstrip()
        if player.egd_pin:
            line += f" |{player.egd_pin}"
        out.append(line)
    return "\n".join(out) + "\n"


def _tag_text(text: str) -> str:
    return text.replace("]", ")").replace("[", "(").replace("\n", " ")
