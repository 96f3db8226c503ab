"""What the FFG ladder since 2022 and the older FFG ladder share.

Both French systems (:mod:`ratings.engine.ffg`, :mod:`ratings.engine.ffg_old`)
keep a *level* per player (the French Ladder page: "100..199 = 2d, 0..99 = 1d, -100..-1 =
1k"), start new players at their entry level (1d = 50, 1k = -50), never let a
level fall below -2950, rate a tournament as a whole and then correct the
start level of every player whose variation over the tournament passes a
threshold, repeating until the levels settle (the French Ladder page "Special Cases",
the FFG algorithm page "Ajustements").  This module holds what they share: the player
state, the rules on which games count and with what coefficient (the French Ladder page
stages 2 to 4), and the replay driver that cuts the timeline into periods.

Periods.  A period is the set of games sharing :func:`base.period_key`
(an event, or one club's day) that a player plays without playing a game of
another period in between.  A period opens with its first game and closes
as soon as one of its players plays a game of another period or gets a
committee adjustment, or at the end of the replay.  Its levels are computed
when it closes, from the levels its players had when they joined it (each
player is in at most one open period, so these are final).  Two tournaments
whose games interleave in the timeline therefore do not disturb each other,
as long as they share no player while both are running.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from ratings.engine.base import (
    Adjustment,
    Event,
    Explanation,
    Game,
    InvalidEvent,
    Kind,
    LedgerColumns,
    PlayerId,
    Result,
    Start,
    State,
    Stored,
    UnknownPlayer,
    Winner,
    same_player,
    unknown_kind,
)
from ratings.engine.ranks import MAX_RANK, MIN_RANK, rank_to_ffg

#: the FFG algorithm page: "Lorsque le niveau calculé ... descend en dessous de -2950, il est
#: ramené à -2950"; the French Ladder page stage 6: "descends beneath -2950 then it remains
#: at -2950".
FLOOR: Final = -2950.0
#: the FFG algorithm page: "Lorsque le niveau calculé ... monte au-dessus de 850, il est
#: ramené à 850" (the old ladder has no ceiling).
CEILING: Final = 850.0
#: the French Ladder and FFG algorithm pages: the special rules "for players whose level is less than
#: -2000" (the FFG algorithm page: "de niveau inférieur à -2000").
BEGINNER: Final = -2000.0
#: Kinds of game that count by default: every kind but free games (a
#: free game counts for no system; the FFG itself only sees tournament games, a club may count the others).
COUNTED_KINDS: Final[frozenset[Kind]] = frozenset({Kind.INTERNET, Kind.CLUB, Kind.TOURNAMENT})
#: Komi below which a game without stones is a sen game, H = 1 (the French Ladder page:
#: "H = 1 for an 'even game' with komi of 0.5"; the FFG algorithm page: "H=1 pour une
#: partie à sen").  Half a normal komi: the nearer of the two cases.
SEN_KOMI: Final = 3.5


@dataclass(frozen=True, slots=True)
class LadderPlayer:
    """One player's place on a French ladder between periods.

    ``known`` is True once a game of the player has counted on the ladder
    (the FFG algorithm page: "joueur connu ayant au moins une partie déjà comptée à
    l'échelle"), or when the player entered with an established level.
    """

    level: float
    known: bool

    @property
    def rank(self) -> float:
        """The grade the level falls in: 0..99 = 1d (0), -100..-1 = 1k (-1)."""
        return float(self.level // 100.0)

    @property
    def rating(self) -> float:
        return self.level

    def to_json(self) -> dict[str, Any]:
        return {"level": self.level, "known": self.known}


def ladder_player_from_json(data: Mapping[str, Any]) -> LadderPlayer:
    """Inverse of :meth:`LadderPlayer.to_json`, with errors naming the field."""
    try:
        level = float(data["level"])
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"FFG state needs a numeric 'level', got {data!r}") from error
    if not math.isfinite(level):
        raise ValueError(f"FFG state 'level' must be finite, got {level!r}")
    known = data.get("known")
    if not isinstance(known, bool):
        raise ValueError(f"FFG state needs 'known' true or false, got {known!r}")
    return LadderPlayer(level, known)


def handicap_stones(handicap: int, komi: float) -> int:
    """H of the French Ladder and FFG algorithm pages from a record sheet's stones and komi.

    H is the number of stones; a game without stones is even (H = 0) when
    White gets at least :data:`SEN_KOMI` points of komi, and a sen game
    (H = 1, Black simply moves first) with less komi or with reverse komi.
    """
    if handicap > 0:
        return handicap
    return 0 if komi >= SEN_KOMI else 1


def handicap_bonus(stones: int) -> float:
    """How much higher Black counts in a handicap game: 100 (H - 0.5).

    The FFG algorithm page: "le niveau ... de Noir est remplacé par le niveau fictif
    Niveau+100*(H-0,5)"; the French Ladder page: "NN + 100*(H - 0.5)" unless the game is
    even (H = 0), when Black's level is used as it is.
    """
    return 100.0 * (stones - 0.5) if stones > 0 else 0.0


def game_coefficient(stones: int, board: int, minutes: int | None) -> tuple[float, float]:
    """The French Ladder page stages 2 to 4: (coefficient, time coefficient) of a game.

    The coefficient multiplies both players' changes: 1 - H/10 for the
    handicap (stage 2), 0.2 for 13x13 and 0.1 for 9x9 (stage 3), 0.5 for a
    game with 30 to 59 minutes per player (stage 4).  The second value is
    stage 4's alone, the part that still applies to players below -2000 in
    the old ladder.  (0.0, 0.0) means the game does not count: "Games with
    handicap above 9 stones do not count", "Games other than 19x19, 13x13 or
    9x9 do not count", "Games faster than 30 minutes for each player do not
    count".  Unknown time (None) counts as a normal game.
    """
    if stones > 9:
        return 0.0, 0.0
    if board == 19:
        size = 1.0
    elif board == 13:
        size = 0.2
    elif board == 9:
        size = 0.1
    else:
        return 0.0, 0.0
    if minutes is None or minutes >= 60:
        timing = 1.0
    elif minutes >= 30:
        timing = 0.5
    else:
        return 0.0, 0.0
    return (1.0 - stones / 10.0) * size * timing, timing


_WHITE: Final = Winner.WHITE
_BLACK: Final = Winner.BLACK
_JIGO: Final = Winner.JIGO
_KINDS: Final = tuple(Kind)


def check_game(index: int, game: Game) -> None:
    """Refuse a game no French ladder can read, naming the field.

    Written with identity and class tests rather than isinstance on enums and
    unions: it runs once for each of a million games.
    """
    if game.white == game.black:
        raise same_player(index, game.white)
    handicap = game.handicap
    if type(handicap) is not int or handicap < 0:
        raise InvalidEvent(
            index, "handicap", f"must be a whole number of stones, 0 or more, got {handicap!r}"
        )
    komi = game.komi
    if (type(komi) is not float and type(komi) is not int) or not -1000.0 < komi < 1000.0:
        raise InvalidEvent(index, "komi", f"must be a finite number, got {komi!r}")
    board = game.board
    if type(board) is not int or board < 2:
        raise InvalidEvent(index, "board", f"must be a board size such as 19, 13 or 9, got {board!r}")
    minutes = game.minutes
    if minutes is not None and (type(minutes) is not int or minutes < 0):
        raise InvalidEvent(index, "minutes", f"must be a whole number of minutes, 0 or more, got {minutes!r}")
    winner = game.winner
    if winner is not _WHITE and winner is not _BLACK and winner is not _JIGO:
        raise InvalidEvent(index, "winner", f"must be white, black or jigo, got {winner!r}")
    if game.kind not in _KINDS:
        raise unknown_kind(index, game.kind)


def clamp_start(level: float, ceiling: float | None) -> float:
    """A start level kept inside the ladder's bounds (the French Ladder page, stage 6; the FFG algorithm page).

    Real FFG lists hold levels such as -3000 (the FFG's published ech_ffg_V3.txt); they enter
    the ladder at its floor rather than being refused.
    """
    if level < FLOOR:
        return FLOOR
    if ceiling is not None and level > ceiling:
        return ceiling
    return level


class Period:
    """A period as the driver collects it: its key, its games (event
    indices), its players (replay numbers, numbered 0..m-1 locally in order
    of appearance) and each game's local White and Black."""

    __slots__ = ("games", "gb", "gw", "key", "players")

    def __init__(self, key: Hashable) -> None:
        self.key = key
        self.games: list[int] = []
        self.players: list[int] = []
        self.gw: list[int] = []
        self.gb: list[int] = []


class LadderBase:
    """Settings and the replay driver of both French ladders."""

    name: ClassVar[str]
    unit: ClassVar[str] = "level"
    #: Highest level (None: no ceiling, the old ladder).
    _ceiling: float | None

    def __init__(
        self,
        *,
        counted_kinds: Collection[Kind] = COUNTED_KINDS,
        adjust: bool = True,
        round_levels: bool = True,
        tolerance: float,
        max_iterations: int = 100,
    ) -> None:
        kinds = frozenset(counted_kinds)
        for kind in kinds:
            if not isinstance(kind, Kind):
                raise ValueError(f"counted_kinds holds {kind!r}, not a game kind")
        if not tolerance > 0.0:
            raise ValueError(f"tolerance must be above 0, got {tolerance!r}")
        if max_iterations < 1:
            raise ValueError(f"max_iterations must be at least 1, got {max_iterations!r}")
        self.counted_kinds = kinds
        # A tuple: membership by identity, without Enum's Python-level hash.
        self.counted_tuple: tuple[Kind, ...] = tuple(kinds)
        self.adjust = adjust
        self.round_levels = round_levels
        #: The adjustment stops when no level moves by this much (each ladder its own).
        self.tolerance = float(tolerance)
        self.max_iterations = max_iterations

    def state_from_json(self, data: Mapping[str, Any]) -> LadderPlayer:
        return ladder_player_from_json(data)

    #: Whether a player is known: one of their games counted, most often
    #: their last one as any other (known is never lost).
    history_games: ClassVar[int] = 4
    #: A period is rated as a whole, and any of its players closes it.
    period_wide: ClassVar[bool] = True
    #: Known is never lost: known at a checkpoint, known ever after.
    earlier_settles: ClassVar[bool] = True

    def state_from_history(self, stored: Stored) -> LadderPlayer | None:
        """The level after the player's last row, and whether they are
        known: they entered with an established level, were known at an
        earlier checkpoint (``earlier``: a player once known stays known),
        or one of their last rows' games counted, as the replay of those
        games alone says (``alone``: whether a game counts depends on the
        game and never on levels).  None when none of these holds and the
        player has earlier rows, or when they entered by an adjustment
        (base.RatingSystem)."""
        start, alone, earlier = stored.start, stored.alone, stored.earlier
        if start is None:
            return None
        known = (
            start.rating is not None
            or (earlier is not None and bool(earlier.known))
            or (alone is not None and bool(alone.known))
        )
        if not known and not stored.complete:
            return None
        return LadderPlayer(stored.rating, known)

    def _enter(self, index: int, player: PlayerId, start: Start | None) -> tuple[float, bool]:
        """Level and known flag of a player first seen at event ``index``.

        the French Ladder page: "Their initial level is their entry level in the tournament
        (1D = 50, 1k=-50)"; a Start with a rating is an established level,
        so the player counts as known.
        """
        if start is None:
            raise UnknownPlayer(index, player)
        if start.rating is not None:
            level = float(start.rating)
            known = True
        else:
            assert start.rank is not None  # Start holds exactly one of the two
            level = rank_to_ffg(start.rank)
            known = False
        if not math.isfinite(level):
            raise InvalidEvent(index, "start", f"player {player!r}: level {level!r} is not a number")
        return clamp_start(level, self._ceiling), known

    def _rate_period(
        self,
        events: Sequence[Event],
        period: Period,
        levels: list[float],
        known: list[bool],
        ledger: LedgerColumns,
        explanations: list[Explanation | None] | None = None,
        only: Collection[int] | None = None,
    ) -> None:
        raise NotImplementedError

    def rate(
        self,
        events: Sequence[Event],
        state: State | None = None,
        starts: Mapping[PlayerId, Start] | None = None,
        *,
        explain: bool = False,
        explain_only: Collection[int] | None = None,
    ) -> Result:
        """Replay ``events``; with ``explain`` the result also explains every
        row (with ``explain_only`` too, the rows of those events only)."""
        replay = _Replay(self, events, {} if state is None else state, {} if starts is None else starts)
        if explain:
            replay.explanations = [None] * (2 * len(events))
            replay.only = explain_only
        return replay.run()

    def _adjust_player(
        self,
        index: int,
        event: Adjustment,
        replay: _Replay,
    ) -> None:
        """A committee sets a player's level from a date.

        The new level is the adjustment's rating if given, else the entry
        level of its rank (1d = 50, 1k = -50) as for a new player, kept
        within the ladder's bounds.  The row's change is the new level minus
        the old one.  A player's known flag is kept; a player first seen in
        an adjustment (with no Start) is known only when it gives a rating
        (an established level, as for a Start) and their row's change is 0.
        """
        rank = event.rank
        if not isinstance(rank, int | float) or not MIN_RANK - 10 <= rank <= MAX_RANK + 1:
            raise InvalidEvent(index, "rank", f"not a rank on the shared scale: {rank!r}")
        rating = event.rating
        if rating is not None:
            if not isinstance(rating, int | float) or not math.isfinite(rating):
                raise InvalidEvent(index, "rating", f"must be a finite level, got {rating!r}")
            level = float(rating)
        else:
            level = rank_to_ffg(rank)
        level = clamp_start(level, self._ceiling)
        levels = replay.levels
        ledger = replay.ledger
        p = replay.number.get(event.player)
        if p is None:
            p = replay.add(event.player, index, (level, rating is not None))
        before = levels[p]
        levels[p] = level
        slot = 2 * index
        ledger.rank_before[slot] = before // 100.0
        ledger.rating_before[slot] = before
        ledger.change[slot] = level - before
        ledger.rank_after[slot] = level // 100.0
        ledger.rating_after[slot] = level
        if replay.explanations is not None and (replay.only is None or index in replay.only):
            replay.explanations[slot] = Explanation(
                {
                    "level": before,
                    "adjusted_to": level,
                    "change": level - before,
                    "reason": "committee adjustment",
                },
                "change = adjusted_to − level",
            )


class _Replay:
    """One run of :meth:`LadderBase.rate`: players, open periods, the ledger.

    Players get numbers in order of appearance; ``levels`` and ``known`` are
    their current level and known flag, ``local`` their number in the
    period they play in (see :class:`Period`).  A class rather than
    closures: compiled by mypyc, its fields are read directly.
    """

    def __init__(
        self,
        system: LadderBase,
        events: Sequence[Event],
        state: State,
        starts: Mapping[PlayerId, Start],
    ) -> None:
        n = len(events)
        self.system = system
        self.events = events
        self.state = state
        self.starts = starts
        self.ledger = LedgerColumns(n)
        self.ids: list[PlayerId] = []
        self.number: dict[PlayerId, int] = {}
        self.levels: list[float] = []
        self.known: list[bool] = []
        self.open_by_key: dict[Hashable, Period] = {}  # the open periods by key
        self.open_of: list[Period | None] = []  # each player's open period
        self.local: list[int] = []  # each player's local number in their open period
        self.explanations: list[Explanation | None] | None = None  # when explaining
        self.only: Collection[int] | None = None  # the events to explain (None: all)

    def add(self, player: PlayerId, at: int, entry: tuple[float, bool] | None = None) -> int:
        """Number a player first seen at event ``at``: from the given state,
        else ``entry`` (an adjustment's level), else their Start."""
        held = self.state.get(player)
        if held is not None:
            level = float(held.rating)
            is_known = bool(getattr(held, "known", True))
        elif entry is not None and player not in self.starts:
            level, is_known = entry
        else:
            level, is_known = self.system._enter(at, player, self.starts.get(player))
        i = len(self.ids)
        self.ids.append(player)
        self.number[player] = i
        self.levels.append(level)
        self.known.append(is_known)
        self.open_of.append(None)
        self.local.append(0)
        return i

    def close(self, period: Period) -> None:
        del self.open_by_key[period.key]
        open_of = self.open_of
        for p in period.players:
            open_of[p] = None
        explanations = self.explanations
        only = self.only
        if explanations is not None and only is not None and not any(k in only for k in period.games):
            # Nothing of this period is asked for: rate it as a plain replay
            # does, without recording its terms (recording changes no number).
            explanations = None
        self.system._rate_period(
            self.events, period, self.levels, self.known, self.ledger, explanations, only
        )

    def run(self) -> Result:
        events = self.events
        number = self.number
        open_by_key = self.open_by_key
        open_of = self.open_of
        local = self.local
        game_type = Game
        for k, event in enumerate(events):
            if type(event) is not game_type:
                if not isinstance(event, Adjustment):
                    raise InvalidEvent(k, "event", f"not a Game or Adjustment: {type(event).__name__}")
                p = number.get(event.player)
                if p is not None:
                    mine = open_of[p]
                    if mine is not None:
                        self.close(mine)
                self.system._adjust_player(k, event, self)
                continue
            g: Game = event  # checked just above
            check_game(k, g)
            w = number.get(g.white)
            if w is None:
                w = self.add(g.white, k)
            b = number.get(g.black)
            if b is None:
                b = self.add(g.black, k)
            # base.period_key: the event, else the club's day (an event name is
            # a str and never equals a club-day tuple).
            ev = g.event
            key: Hashable = ev if ev else (g.club, g.date)
            current = open_by_key.get(key)
            mine = open_of[w]
            if mine is not current and mine is not None:
                self.close(mine)
            mine = open_of[b]
            if mine is not current and mine is not None:
                self.close(mine)
            if current is None:
                current = open_by_key[key] = Period(key)
            players = current.players
            if open_of[w] is None:
                open_of[w] = current
                local[w] = len(players)
                players.append(w)
            if open_of[b] is None:
                open_of[b] = current
                local[b] = len(players)
                players.append(b)
            current.games.append(k)
            current.gw.append(local[w])
            current.gb.append(local[b])
        for period in list(open_by_key.values()):
            self.close(period)

        final: dict[PlayerId, Any] = dict(self.state)
        levels = self.levels
        known = self.known
        for i, player in enumerate(self.ids):
            final[player] = LadderPlayer(levels[i], known[i])
        return Result(self.ledger.ledger(), final, self.explanations)
