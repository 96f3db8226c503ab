"""A club's games over a period as one tournament, for the EGD, FFG and AGA files.

Results files are organised in rounds, one game per player per round; club
games are not.  Decision (docs/formats.md, "Rounds of a club
export"): the games are taken in date order and each is put in the first
round after the last round of both its players, i.e. round = 1 + the later
of the two players' previous rounds.  Each player's games then keep their
order, nobody plays twice in a round, and a round where a player has no
game is written as "no game" ('0-' in h9, '0=' in .tou).  A player's nth
game is in round n or later (later when the opponent had already played
more games).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import date

from .errors import ExchangeError
from .model import Player, Tournament, TournamentGame


def assign_rounds(games: Iterable[TournamentGame]) -> tuple[TournamentGame, ...]:
    """Rounds for games in date order (games without a date keep their given order, first)."""
    ordered = sorted(enumerate(games), key=lambda item: (item[1].date or date.min, item[0]))
    last: dict[str, int] = {}
    result: list[TournamentGame] = []
    for _, game in ordered:
        if game.white == game.black:
            raise ExchangeError(None, f"a game of {game.date} has the same player on both sides")
        round_ = max(last.get(game.white, 0), last.get(game.black, 0)) + 1
        last[game.white] = last[game.black] = round_
        result.append(replace(game, round=round_))
    return tuple(result)


def club_tournament(
    name: str,
    players: Sequence[Player],
    games: Iterable[TournamentGame],
    *,
    start: date | None = None,
    end: date | None = None,
    event_class: str = "C",
    place: str | None = None,
    komi: float | None = None,
    minutes: int | None = None,
) -> Tournament:
    """The club's games as a class C "club ladder", rounds assigned.

    ``games`` name players by ``Player.key`` (the club's player id) and
    carry their dates; ``round`` is ignored.  ``start``/``end`` default to
    the first and last game dates.  Only players with games are written.
    """
    numbered = assign_rounds(games)
    dates = [g.date for g in numbered if g.date is not None]
    playing = {g.white for g in numbered} | {g.black for g in numbered}
    known = {p.key for p in players}
    missing = sorted(playing - known)
    if missing:
        raise ExchangeError(None, f"games name players who are not in the player list: {', '.join(missing)}")
    return Tournament(
        name=name,
        start=start or (min(dates) if dates else None),
        end=end or (max(dates) if dates else None),
        event_class=event_class,
        place=place,
        komi=komi,
        minutes=minutes,
        players=tuple(p for p in players if p.key in playing),
        games=numbered,
    )
