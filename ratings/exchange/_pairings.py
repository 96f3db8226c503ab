"""Turning per-player result columns (h9, .tou) into games, each once.

Both formats write every game twice, once on each player's line, in the
column of its round.  :func:`assemble_games` checks that the two lines agree
(opponent, result, colour, handicap) and raises naming both lines if not;
byes, unknown results and games with anonymous players are returned as
:class:`Skipped` items.  A game won or lost by default ('!' on either line)
is a game, marked ``forfeit``: kept with the event, never rated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ratings.engine.base import Winner

from .errors import ExchangeError
from .model import Skipped, TournamentGame, game_komi

_OPPOSITE = {"+": "-", "-": "+", "=": "=", "?": "?"}

#: One round's cell, as h9 and .tou files write it: opponent, outcome, then
#: colour and handicap, with or without the '/' (h9 ``11-/b5``, .tou
#: ``11-b5``; OpenGotha 3.51 writes h9 cells in its .tou files too), and a
#: '!' after the outcome or at the end for a game won or lost by default
#: (``21+!b0``, ``32+!``).  The colour and handicap may be left out
#: (``3+``, ``4+/w``).
RESULT = re.compile(
    r"^(?P<opp>\d+)(?P<outcome>[-+=?])(?P<forfeit>!)?(?:/?(?P<colour>[wbWB])(?P<handicap>\d)?)?(?P<late>!)?$"
)
#: 'N?' without a colour: an unknown result against N, or a tie-break figure
#: OpenGotha marks as uncertain ('3?' in rennes-2021-reversed.h9).
AMBIGUOUS = re.compile(r"^\d+\?$")


def result_cell(token: str, round: int, column: int) -> ResultCell | None:
    """The cell a token writes, or None when it is not a result.  A bare '?' is "not paired"."""
    if token == "?":
        return ResultCell(round, 0, "?", None, 0, token, column)
    match = RESULT.match(token)
    if match is None:
        return None
    colour = match.group("colour")
    handicap = match.group("handicap")
    return ResultCell(
        round=round,
        opponent=int(match.group("opp")),
        outcome=match.group("outcome"),
        colour=colour.lower() if colour else None,
        handicap=int(handicap) if handicap else 0,
        text=token,
        column=column,
        forfeit=bool(match.group("forfeit") or match.group("late")),
    )


_WORDS = {"+": "won", "-": "lost", "=": "drew (jigo)", "?": "has an unknown result"}


@dataclass(frozen=True, slots=True)
class ResultCell:
    """One round's column on one player's line."""

    round: int
    opponent: int  # 0 = no opponent (bye / not paired)
    outcome: str  # '+', '-', '=' or '?'
    colour: str | None  # 'w', 'b', or None when the file does not say
    handicap: int | None
    text: str
    column: int
    #: '!': won or lost by default, not played (kept, never rated).
    forfeit: bool = False


@dataclass(frozen=True, slots=True)
class PlayerLine:
    number: int  # how opponents refer to this player
    key: str
    line: int
    anonymous: bool
    results: tuple[ResultCell, ...]


def _describe(cell: ResultCell) -> str:
    colour = {"w": " with White", "b": " with Black", None: ""}[cell.colour]
    stones = f", {cell.handicap} stones" if cell.handicap else ""
    return f"{_WORDS[cell.outcome]} against {cell.opponent}{colour}{stones} ({cell.text!r})"


def assemble_games(
    players: list[PlayerLine], komi: float | None
) -> tuple[list[TournamentGame], list[Skipped]]:
    by_number = {p.number: p for p in players}
    games: list[TournamentGame] = []
    skipped: list[Skipped] = []
    done: set[tuple[int, int, int]] = set()
    for player in players:
        if player.anonymous:
            skipped.append(Skipped(player.line, None, "anonymous player ('? ?'): not imported"))
        for cell in player.results:
            if cell.opponent == 0:
                what = "not paired" if cell.text == "?" else "bye"
                skipped.append(
                    Skipped(player.line, cell.round, f"no game this round ({what}: {cell.text!r})", bye=True)
                )
                continue
            opponent = by_number.get(cell.opponent)
            if opponent is None:
                raise ExchangeError(
                    player.line,
                    f"round {cell.round}: opponent {cell.opponent} is not a player of this file",
                    column=cell.column,
                )
            if opponent is player:
                raise ExchangeError(
                    player.line, f"round {cell.round}: a player cannot play themselves", column=cell.column
                )
            pair = (cell.round, min(player.number, opponent.number), max(player.number, opponent.number))
            if pair in done:
                continue
            done.add(pair)
            other = opponent.results[cell.round - 1] if len(opponent.results) >= cell.round else None
            if other is None or other.opponent != player.number:
                found = "no result" if other is None else _describe(other)
                raise ExchangeError(
                    player.line,
                    f"round {cell.round}: line {player.line} says player {player.number} "
                    f"{_describe(cell)}, but line {opponent.line} (player {opponent.number}) has {found}",
                    column=cell.column,
                    other_line=opponent.line,
                )
            same_game = (cell.colour is None or other.colour is None or cell.colour != other.colour) and (
                cell.handicap or 0
            ) == (other.handicap or 0)
            # OpenGotha writes its "both win" / "both lose" results (an
            # arbiter's decision, not a played game) as '+' / '-' on both
            # lines; tournoi-chinois.h9 lines 20-21 have one.  Not a
            # contradiction: reported and skipped like a bye.
            both = cell.outcome == other.outcome and cell.outcome in "+-"
            if same_game and both:
                verdict = "win" if cell.outcome == "+" else "lose"
                skipped.append(
                    Skipped(
                        player.line,
                        cell.round,
                        f"players {player.number} and {opponent.number} both {verdict} "
                        f"(lines {player.line} and {opponent.line}): an arbiter's result, not a game",
                    )
                )
                continue
            if not (same_game and other.outcome == _OPPOSITE[cell.outcome]):
                raise ExchangeError(
                    player.line,
                    f"round {cell.round}: the two lines disagree about this game: line {player.line} says "
                    f"player {player.number} {_describe(cell)}, line {opponent.line} says player "
                    f"{opponent.number} {_describe(other)}",
                    column=cell.column,
                    other_line=opponent.line,
                )
            lines = (player.line, opponent.line)
            if cell.outcome == "?":
                skipped.append(
                    Skipped(
                        player.line,
                        cell.round,
                        f"unknown result ('?') between players {player.number} and {opponent.number} "
                        f"(lines {player.line} and {opponent.line})",
                    )
                )
                continue
            if player.anonymous or opponent.anonymous:
                skipped.append(
                    Skipped(
                        player.line,
                        cell.round,
                        f"game between players {player.number} and {opponent.number} has an anonymous player",
                    )
                )
                continue
            # Colour not written (h9 allows '3+'): White is the player of the
            # first line, as good as any choice for an even game.
            colour = cell.colour or (other.colour and _OPPOSITE_COLOUR[other.colour]) or "w"
            white, black = (player, opponent) if colour == "w" else (opponent, player)
            white_cell = cell if white is player else other
            winner = {"+": Winner.WHITE, "-": Winner.BLACK, "=": Winner.JIGO}[white_cell.outcome]
            handicap = cell.handicap or 0
            games.append(
                TournamentGame(
                    round=cell.round,
                    white=white.key,
                    black=black.key,
                    winner=winner,
                    handicap=handicap,
                    komi=game_komi(handicap, komi),
                    lines=lines,
                    forfeit=cell.forfeit or other.forfeit,
                )
            )
    games.sort(key=lambda g: (g.round, g.lines))
    return games, skipped


_OPPOSITE_COLOUR = {"w": "b", "b": "w"}
