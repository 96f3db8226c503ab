"""What tournament readers return and results writers take.

A :class:`Tournament` is the same object whichever file it came from (EGD
h9, FFG .tou, AGA results, the CSV game records) or is going to, so that a
round trip is a comparison of two of them.  Players are referred to by
``key``: their number in the file when read, the club's player id when the
club exports.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import date

from ratings.engine.base import Winner

from .errors import ExchangeError

__all__ = ["HANDICAP_KOMI", "Player", "Skipped", "Tournament", "TournamentGame", "Winner", "game_komi"]

#: Komi of a handicap game: half a point to White, so there is no jigo (EGF
#: convention for handicap games, also OpenGotha's default).  Neither h9 nor
#: .tou write a game's komi; it is derived from the handicap.
HANDICAP_KOMI = 0.5

#: Komi when a file gives none (same default as ratings.engine.base.Game).
DEFAULT_KOMI = 6.5


def game_komi(handicap: int, tournament_komi: float | None) -> float:
    """Even game (handicap 0): the tournament's komi; handicap 1 or more: 0.5."""
    if handicap > 0:
        return HANDICAP_KOMI
    return DEFAULT_KOMI if tournament_komi is None else tournament_komi


@dataclass(frozen=True, slots=True)
class Player:
    """A player as a results file names them.

    ``rank`` is on the shared scale of :mod:`ratings.engine.ranks` (whole
    grades in these files).  ``line`` is the line that introduced the player
    (None for a player the club exports).
    """

    key: str
    name: str
    surname: str | None = None
    given_name: str | None = None
    rank: float | None = None
    country: str | None = None
    club: str | None = None
    egd_pin: str | None = None
    ffg_licence: str | None = None
    aga_id: str | None = None
    line: int | None = None
    #: The place the file gives (h9: blank on a tie, so None), and its
    #: tie-break figures as written ('36', '128', '408?', '322½'), in order.
    place: str | None = None
    tiebreaks: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TournamentGame:
    """One game, once.  ``lines`` are the lines that reported it (both players' lines)."""

    round: int
    white: str
    black: str
    winner: Winner
    handicap: int = 0
    komi: float = DEFAULT_KOMI
    date: date | None = None
    lines: tuple[int, ...] = ()
    kind: str = "tournament"
    board: int = 19
    #: The game's own event when it differs from the file's (club exports).
    event: str | None = None
    #: Won or lost by default (h9 '!'): kept with the event, never rated.
    forfeit: bool = False


@dataclass(frozen=True, slots=True)
class Skipped:
    """Something in the file that is not imported as a game, and why.

    ``bye`` is True for a round in which a player had no opponent (a bye
    '0+', '0=', or not paired '0-', '?'): no game, but part of the event,
    so the import keeps it with the record sheet.
    """

    line: int
    round: int | None
    reason: str
    bye: bool = False


@dataclass(frozen=True, slots=True)
class Tournament:
    name: str
    start: date | None = None
    end: date | None = None
    #: EGF tournament class A, B, C or D (docs/formats.md); None when the file has none (.tou).
    event_class: str | None = None
    place: str | None = None
    komi: float | None = None
    #: N of the EGD rule HA[hN] (handicap = grade difference minus N).
    handicap_rule: int | None = None
    minutes: int | None = None
    players: tuple[Player, ...] = ()
    games: tuple[TournamentGame, ...] = ()
    skipped: tuple[Skipped, ...] = ()
    #: "h9", "tou", "aga", "csv", "json" when read; "" when built by the club.
    format: str = ""
    encoding: str = ""
    board: int = 19
    #: The names of the tie-break columns as the file's header writes them
    #: (h9: the words after "Club" on the last ';' line before the players,
    #: e.g. ("MMS", "SOSSOSOS"): OpenGotha runs some names together).
    tiebreak_header: str = ""
    _by_key: dict[str, Player] = field(default_factory=dict, init=False, repr=False, compare=False)

    def player(self, key: str) -> Player:
        if not self._by_key:
            self._by_key.update((p.key, p) for p in self.players)
        return self._by_key[key]

    def rounds(self) -> int:
        return max((g.round for g in self.games), default=0)

    def check(self) -> None:
        """Raise ExchangeError when games name unknown players or rounds repeat a player.

        Writers call it: a file in which a player plays twice in a round
        cannot be written as h9 or .tou.
        """
        if not self.players:
            raise ExchangeError(
                None, "no players and no games to write (an empty file could not be read back)"
            )
        keys = {p.key for p in self.players}
        if len(keys) != len(self.players):
            raise ExchangeError(None, "two players share the same key")
        busy: set[tuple[int, str]] = set()
        for index, game in enumerate(self.games, start=1):
            for side in (game.white, game.black):
                if side not in keys:
                    raise ExchangeError(None, f"game {index}: player {side!r} is not in the player list")
                if (game.round, side) in busy:
                    raise ExchangeError(
                        None, f"game {index}: player {side!r} plays twice in round {game.round}"
                    )
                busy.add((game.round, side))
            if game.white == game.black:
                raise ExchangeError(None, f"game {index}: a player cannot play themselves")
            if game.round < 1:
                raise ExchangeError(None, f"game {index}: rounds are numbered from 1")
            if not 0 <= game.handicap <= 9 or not math.isfinite(game.komi):
                raise ExchangeError(
                    None, f"game {index}: handicap {game.handicap} or komi {game.komi} is invalid"
                )
