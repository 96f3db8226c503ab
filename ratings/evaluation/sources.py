"""Tournament results files (EGD h9, FFG .tou, ...) as games to evaluate.

The files are read by :mod:`ratings.exchange` (``read_tournament``); this
turns a :class:`~ratings.exchange.Tournament` into engine games and starts:

* players are ``(tag, key)`` pairs, so that two files never share a player
  (nothing in them says two entries are the same person);
* a player starts at the rank the file gives; games of a player without a
  rank are left out (counted in ``skipped``);
* games are in round order, dated by the game's date, else the
  tournament's start, else 1 January 2000 plus the round (the date does not
  matter inside one event: it is one rating period);
* every game is a tournament game of the file's event, with its EGF class,
  board, minutes, handicap and komi.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta

from ratings.engine.base import Game, Kind, PlayerId, Start
from ratings.exchange import Tournament

__all__ = ["TournamentGames", "tournament_games"]

_NO_DATE = date(2000, 1, 1)


@dataclass(slots=True)
class TournamentGames:
    games: list[Game] = field(default_factory=list)
    starts: dict[PlayerId, Start] = field(default_factory=dict)
    names: dict[PlayerId, str] = field(default_factory=dict)
    skipped: int = 0


def tournament_games(tournament: Tournament, tag: str) -> TournamentGames:
    """The games of ``tournament``, players named ``(tag, key)``."""
    out = TournamentGames()
    ranks = {p.key: p.rank for p in tournament.players}
    for p in tournament.players:
        out.names[(tag, p.key)] = p.name
        if p.rank is not None:
            out.starts[(tag, p.key)] = Start(rank=p.rank)
    event = f"{tag}: {tournament.name}"
    for g in sorted(tournament.games, key=lambda g: g.round):
        if ranks.get(g.white) is None or ranks.get(g.black) is None:
            out.skipped += 1
            continue
        day = g.date or tournament.start or _NO_DATE + timedelta(days=g.round)
        out.games.append(
            Game(
                date=day,
                white=(tag, g.white),
                black=(tag, g.black),
                winner=g.winner,
                handicap=g.handicap,
                komi=g.komi,
                kind=Kind.TOURNAMENT,
                board=g.board,
                minutes=tournament.minutes,
                event=event,
                event_class=tournament.event_class,
            )
        )
    return out
