"""AGA results files (to submit games to the American Go Association).

The AGA's results file (docs/formats.md): ``TOURNEY name, place, dates``, then
``start=`` / ``finish=`` / ``rules=AGA`` lines, ``PLAYERS`` followed by
``id Last, First rank``, ``GAMES`` followed by
``whiteID blackID w|b handicap komi``.  '#' starts a comment.

Decisions (docs/formats.md): dates are written mm/dd/yyyy (the AGA is
American; the reader also takes yyyy-mm-dd); a player without an AGA id is
written with ``X`` + the club's id so the ratings coordinator can see who
needs a temporary id; the AGA has no jigo, so a jigo is left out with a
comment line saying so; the file has no rounds, so the reader numbers them
as a club export does (ratings.exchange.club.assign_rounds).
"""

from __future__ import annotations

import math
import re
from datetime import date, datetime

from ratings.engine.base import Winner
from ratings.engine.ranks import RankError, parse_rank

from .club import assign_rounds
from .errors import ExchangeError
from .h9 import whole_grade
from .model import Player, Skipped, Tournament, TournamentGame
from .names import split_comma_name
from .text import split_lines

_PLAYER = re.compile(r"^\s*(?P<id>\S+)\s+(?P<name>\S.*?)\s+(?P<rank>\d{1,2}(?:\.\d+)?[kdKD])\s*$")
_GAME = re.compile(
    r"^\s*(?P<white>\S+)\s+(?P<black>\S+)\s+(?P<winner>[wbWB?])\s+(?P<handicap>\d+)\s+(?P<komi>-?\d+(?:\.\d+)?)\s*$"
)
_SETTING = re.compile(r"^\s*(start|finish|rules|location)\s*=\s*(.*?)\s*$", re.IGNORECASE)
# OpenGotha writes one GAMES section per round ('GAMES 1') and a closing END.
_SECTION = re.compile(r"^\s*(PLAYERS|GAMES)(?:\s+(\d+))?\s*$", re.IGNORECASE)


def _aga_date(line: int, text: str) -> date:
    for pattern in ("%m/%d/%Y", "%Y-%m-%d"):
        try:
            return datetime.strptime(text, pattern).date()
        except ValueError:
            continue
    raise ExchangeError(line, f"{text!r} is not a date (expected mm/dd/yyyy)")


def _player_id(player: Player) -> str:
    return player.aga_id or f"X{player.key}".replace(" ", "_")


def write_aga(tournament: Tournament) -> str:
    tournament.check()
    ids = {p.key: _player_id(p) for p in tournament.players}
    if len(set(ids.values())) != len(ids):
        raise ExchangeError(None, "two players would be written with the same AGA id")
    header = ", ".join(
        part
        for part in (
            tournament.name,
            tournament.place or "",
            " - ".join(d.isoformat() for d in (tournament.start, tournament.end) if d is not None),
        )
        if part
    )
    out = [f"TOURNEY {header}"]
    if tournament.start:
        out.append(f"\tstart={tournament.start.strftime('%m/%d/%Y')}")
    if tournament.end or tournament.start:
        finish = tournament.end or tournament.start
        assert finish is not None
        out.append(f"\tfinish={finish.strftime('%m/%d/%Y')}")
    out.append("\trules=AGA")
    out.append("PLAYERS")
    for player in tournament.players:
        name = (
            f"{player.surname}, {player.given_name}"
            if player.surname and player.given_name
            else (player.surname or " ".join(player.name.split()))
        )
        note = "" if player.aga_id else "  # no AGA id"
        out.append(f"{ids[player.key]:>8} {name:<30} {whole_grade(player.rank)}{note}")
    out.append("GAMES")
    for game in sorted(tournament.games, key=lambda g: g.round):
        if game.winner is Winner.JIGO:
            out.append(f"# jigo {ids[game.white]} {ids[game.black]} left out: the AGA format has no jigo")
            continue
        winner = "w" if game.winner is Winner.WHITE else "b"
        out.append(f"{ids[game.white]} {ids[game.black]} {winner} {game.handicap} {game.komi:g}")
    return "\n".join(out) + "\n"


def parse_aga(text: str) -> Tournament:
    section = ""
    name = ""
    settings: dict[str, tuple[str, int]] = {}
    players: list[Player] = []
    seen: dict[str, int] = {}
    raw_games: list[TournamentGame] = []
    skipped: list[Skipped] = []
    round_number = 0
    for number, raw in enumerate(split_lines(text), start=1):
        line = raw.split("#", 1)[0].rstrip()
        if raw.lstrip().startswith("# jigo"):
            skipped.append(Skipped(number, None, raw.strip().lstrip("# ")))
        if not line.strip():
            continue
        word = line.strip().split(None, 1)
        if word[0].upper() == "TOURNEY":
            section, name = "tourney", (word[1] if len(word) > 1 else "")
            continue
        header = _SECTION.match(line)
        if header:
            section = header.group(1).lower()
            round_number = int(header.group(2) or 0)
            continue
        if line.strip().upper() == "END":
            section = "end"
            continue
        setting = _SETTING.match(line)
        if setting and section == "tourney":
            settings[setting.group(1).lower()] = (setting.group(2).strip("'\""), number)
            continue
        if section == "players":
            players.append(_player(number, line, seen))
        elif section == "games":
            game = _game(number, line, seen, round_number)
            if game is None:
                skipped.append(Skipped(number, round_number or None, "unknown result ('?'): not imported"))
            else:
                raw_games.append(game)
        else:
            raise ExchangeError(
                number, "expected TOURNEY, start=, finish=, location=, rules=, PLAYERS, GAMES or END"
            )
    if not name and not players:
        raise ExchangeError(None, "no TOURNEY or PLAYERS section: this is not an AGA results file")
    start = _aga_date(settings["start"][1], settings["start"][0]) if "start" in settings else None
    end = _aga_date(settings["finish"][1], settings["finish"][0]) if "finish" in settings else start
    place = settings["location"][0] if "location" in settings else None
    # Rounds as the file numbers them ('GAMES 1'); a file without them gets
    # rounds as a club export does.
    numbered = all(g.round > 0 for g in raw_games)
    return Tournament(
        name=name.split(",")[0].strip(),
        start=start,
        end=end,
        place=place or None,
        players=tuple(players),
        games=tuple(raw_games) if numbered else assign_rounds(raw_games),
        skipped=tuple(skipped),
        format="aga",
    )


def _player(number: int, line: str, seen: dict[str, int]) -> Player:
    match = _PLAYER.match(line)
    if match is None:
        raise ExchangeError(number, "expected a player line 'id Last, First rank', e.g. '12345 Doe, John 5k'")
    player_id = match.group("id")
    if player_id in seen:
        raise ExchangeError(number, f"player id {player_id} is listed twice", other_line=seen[player_id])
    seen[player_id] = number
    try:
        rank = parse_rank(match.group("rank"))
    except RankError as error:
        raise ExchangeError(number, str(error)) from None
    full = match.group("name").strip()
    surname, given = split_comma_name(full)
    return Player(
        key=player_id,
        name=f"{given} {surname}" if surname and given else full,
        surname=surname,
        given_name=given,
        rank=rank,
        aga_id=None if player_id.startswith("X") else player_id,
        line=number,
    )


def _game(number: int, line: str, seen: dict[str, int], round_number: int) -> TournamentGame | None:
    """One game line; None for an unknown result ('?', as OpenGotha writes an unplayed game)."""
    match = _GAME.match(line)
    if match is None:
        raise ExchangeError(number, "expected a game line 'whiteID blackID w|b handicap komi'")
    white, black = match.group("white"), match.group("black")
    for side, player_id in (("white", white), ("black", black)):
        if player_id not in seen:
            # The column is a character column, as in every other refusal.
            column = match.start(side) + 1
            raise ExchangeError(number, f"player {player_id} is not in PLAYERS", column=column)
    if white == black:
        raise ExchangeError(number, "the same player is on both sides")
    handicap = int(match.group("handicap"))
    komi = float(match.group("komi"))
    if handicap > 9 or not math.isfinite(komi):
        raise ExchangeError(number, f"handicap {handicap} is out of range (0..9)")
    if match.group("winner") == "?":
        return None
    return TournamentGame(
        round=round_number,
        white=white,
        black=black,
        winner=Winner.WHITE if match.group("winner").lower() == "w" else Winner.BLACK,
        handicap=handicap,
        komi=komi,
        lines=(number,),
    )
