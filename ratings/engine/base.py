"""The common interface of every rating system.

A system is an object whose settings are given to its constructor.  It reads
events in timeline order (games and committee rank adjustments) and returns a
:class:`Result`: for every event the value before, the change and the value
after of each player in it (a columnar :class:`Ledger`), and the final state of
every player.  The state it was given is never mutated, so a caller may keep
it and resume from it later (incremental recompute):

    result = system.rate(events[:k], starts=starts)
    tail = system.rate(events[k:], state=result.state, starts=starts)

gives the same rows for ``events[k:]`` as one call on all events, provided
``k`` falls on a period boundary (see :func:`period_key`).

This package never imports Django (tests/engine/test_engine_purity.py proves it).
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from enum import Enum
from typing import Any, ClassVar, NamedTuple, Protocol, TypeAlias

from librt.vecs import vec

PlayerId: TypeAlias = Hashable


class Kind(str, Enum):
    """Game status (the SAGC FAQ, "The Game Status Factor")."""

    FREE = "free"
    INTERNET = "internet"
    CLUB = "club"
    TOURNAMENT = "tournament"


class Winner(str, Enum):
    WHITE = "white"
    BLACK = "black"
    JIGO = "jigo"


@dataclass(slots=True)
class Game:
    """One game as written on a record sheet.

    ``komi`` is given to White; a negative komi is given to Black (the SAGC FAQ,
    record sheet column 5).  ``handicap`` is the number of handicap stones,
    0 for an even game.  ``minutes`` is the main time per player, None when
    unknown (counted as a normal game).  ``event`` names the tournament the
    game belongs to; ``event_class`` is its EGF class (A, B, C or D).
    ``club`` is used to form the rating period of games without an event.
    ``forfeit`` games are recorded but never rated (the FFG algorithm page: "Les résultats
    par forfait ne comptent pas").

    Not frozen: no system changes an event, and a frozen dataclass costs
    about three times as much to build (every field set through
    ``object.__setattr__``), which a full recompute does a million times
    (bench/README.md).  Like any value, a Game is not changed after it is
    made.
    """

    date: date
    white: PlayerId
    black: PlayerId
    winner: Winner
    handicap: int = 0
    komi: float = 6.5
    kind: Kind = Kind.CLUB
    board: int = 19
    minutes: int | None = None
    event: str | None = None
    event_class: str | None = None
    club: str | None = None
    forfeit: bool = False

    def between(self, white: PlayerId, black: PlayerId) -> Game:
        """This game played by ``white`` and ``black`` instead, every other
        field the same: ``dataclasses.replace`` goes through keyword
        arguments and costs six times as much, and the game page renames
        the players of some 5,000 games (replayed_states)."""
        return Game(
            self.date, white, black, self.winner, self.handicap, self.komi, self.kind,
            self.board, self.minutes, self.event, self.event_class, self.club, self.forfeit,
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class Adjustment:
    """A rank set by the committee from ``date`` on (e.g. national sync).

    ``rank`` is on the scale of :mod:`ratings.engine.ranks`.  ``rating`` is an
    optional value in the system's own unit (SAGC index, GoR, FFG level);
    when None each system starts the player at the bottom of the new rank's
    band as it would a new player of that rank (SAGC: index 0).
    """

    date: date
    player: PlayerId
    rank: float
    rating: float | None = None


Event: TypeAlias = Game | Adjustment


@dataclass(frozen=True, slots=True)
class Start:
    """How a player enters a system the first time they appear.

    Exactly one of ``rank`` (a new player declared at that rank, e.g. their
    national rank) or ``rating`` (an established rating in the system's own
    unit) is given.
    """

    rank: float | None = None
    rating: float | None = None

    def __post_init__(self) -> None:
        if (self.rank is None) == (self.rating is None):
            raise ValueError("a Start takes exactly one of rank or rating")


class RatingError(Exception):
    """Base class of the engine's errors."""


class InvalidEvent(RatingError):
    """An event a system cannot rate; names the event's position and field."""

    def __init__(self, index: int, field: str, message: str) -> None:
        super().__init__(f"event {index}: {field}: {message}")
        self.index = index
        self.field = field
        self.message = message


def same_player(index: int, player: PlayerId) -> InvalidEvent:
    """The error every system gives a game whose two sides are one player."""
    return InvalidEvent(index, "black", f"player {player!r} cannot play against themselves")


def unknown_kind(index: int, kind: object) -> InvalidEvent:
    """The error every system gives a game of no known kind."""
    return InvalidEvent(index, "kind", f"expected free, internet, club or tournament, got {kind!r}")


class UnknownPlayer(RatingError):
    """A player appears with no state and no :class:`Start`."""

    def __init__(self, index: int, player: PlayerId) -> None:
        super().__init__(f"event {index}: player {player!r} has no start rank or rating")
        self.index = index
        self.player = player


class Row(NamedTuple):
    rank_before: float
    rating_before: float
    change: float
    rank_after: float
    rating_after: float


WHITE = 0
BLACK = 1


@dataclass(slots=True)
class Ledger:
    """What every event did, in columns (two slots an event).

    Slot ``2 * i`` is White of game ``i`` (or the adjusted player of
    adjustment ``i``), slot ``2 * i + 1`` is Black (NaN for an adjustment).
    ``change`` is the change as the system computed it, which need not equal
    ``rating_after - rating_before`` (SAGC resets the index to 0 when a rank
    changes).  Arrays of doubles keep a million games in about 80 MB.
    """

    rank_before: array[float] = field(default_factory=lambda: array("d"))
    rating_before: array[float] = field(default_factory=lambda: array("d"))
    change: array[float] = field(default_factory=lambda: array("d"))
    rank_after: array[float] = field(default_factory=lambda: array("d"))
    rating_after: array[float] = field(default_factory=lambda: array("d"))

    def __len__(self) -> int:
        return len(self.change) // 2

    def row(self, event: int, colour: int = WHITE) -> Row | None:
        """The row of one player of one event; None for an empty slot."""
        slot = 2 * event + colour
        if math.isnan(self.change[slot]):
            return None
        return Row(
            self.rank_before[slot],
            self.rating_before[slot],
            self.change[slot],
            self.rank_after[slot],
            self.rating_after[slot],
        )


class LedgerColumns:
    """A :class:`Ledger` while a replay writes it: five vectors of doubles.

    ``librt.vecs.vec[float]`` (the runtime library of mypyc, the compiler of
    the engine) holds unboxed doubles: compiled code stores a float into it
    without creating a float object, where an ``array`` item store parses its
    argument (about 360 machine instructions, measured with callgrind).
    Interpreted, it is as fast as an array.  :meth:`ledger` hands the columns
    over as arrays, one copy a column, so that a :class:`Ledger` stays a
    plain picklable value.
    """

    __slots__ = ("change", "rank_after", "rank_before", "rating_after", "rating_before")

    def __init__(self, events: int) -> None:
        """Columns for ``events`` events, every slot NaN until written."""
        blank = array("d", [math.nan]) * (2 * events)
        self.rank_before: vec[float] = vec[float](blank)
        self.rating_before: vec[float] = vec[float](blank)
        self.change: vec[float] = vec[float](blank)
        self.rank_after: vec[float] = vec[float](blank)
        self.rating_after: vec[float] = vec[float](blank)

    def ledger(self) -> Ledger:
        """The written columns as a :class:`Ledger` (these columns are emptied)."""
        out: list[array[float]] = []
        for name in ("rank_before", "rating_before", "change", "rank_after", "rating_after"):
            column = array("d")
            column.frombytes(memoryview(getattr(self, name)).cast("B"))
            setattr(self, name, vec[float]())  # one column copied at a time: a low peak
            out.append(column)
        return Ledger(*out)


class PlayerState(Protocol):
    """What a system knows of one player between events.

    Every system's state has at least a rank and a rating in its own unit,
    and converts to and from plain JSON for storage.
    """

    @property
    def rank(self) -> float: ...

    @property
    def rating(self) -> float: ...

    def to_json(self) -> dict[str, Any]: ...


State: TypeAlias = Mapping[PlayerId, Any]


@dataclass(frozen=True, slots=True)
class Explanation:
    """Why one player's rating moved as it did in one event.

    ``terms`` are the named terms of the system's rule, with the values the
    replay computed the change from (and the change itself, under
    ``"change"``); ``formula`` says in the system's own notation how they
    combine.  Terms are numbers (``int``, ``float``, or ``Fraction`` where
    the system computes exactly), text, booleans or None.
    """

    terms: Mapping[str, Any]
    formula: str

    def to_json(self) -> dict[str, Any]:
        """Plain JSON: exact fractions become the nearest float."""
        return {"terms": {name: _plain(value) for name, value in self.terms.items()}, "formula": self.formula}


def _plain(value: Any) -> Any:
    from fractions import Fraction  # only when explaining: a replay never needs it

    if isinstance(value, Fraction):
        return float(value)
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    return value


@dataclass(frozen=True, slots=True)
class Stored:
    """What a player's stored history says of them before a point of the
    timeline, from which a system rebuilds their state there
    (RatingSystem.state_from_history)."""

    player: PlayerId
    #: The rank and the rating after their last row there.
    rank: float
    rating: float
    #: The state the games of their last rows there (the system's
    #: ``history_games`` of them, or more) give when replayed alone
    #: (replayed_states; None when those rows hold no game).
    alone: Any
    #: Those rows are all the player's rows before that point.
    complete: bool
    #: How the player entered (None: an adjustment introduced them).
    start: Start | None
    #: Their state at a checkpoint at or before that point (None: not
    #: read, or they had none there), for a system whose ``earlier_settles``.
    earlier: Any = None


@dataclass(frozen=True, slots=True)
class Result:
    """What a replay did.  ``explanations`` (only when asked for, ``explain=True``)
    holds one :class:`Explanation` or None per ledger slot (two an event); with
    ``explain_only``, None at every event not named there."""

    ledger: Ledger
    state: Mapping[PlayerId, Any]
    explanations: Sequence[Explanation | None] | None = None


class RatingSystem(Protocol):
    """What every system in :mod:`ratings.engine` provides."""

    name: ClassVar[str]
    #: The label of its rating column ("index", "GoR", "level", "strength").
    unit: ClassVar[str]

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
        row, or with ``explain_only`` too only the rows of the events at those
        indices (None at the others; the ledger and state are the same)."""
        ...

    def state_from_json(self, data: Mapping[str, Any]) -> Any:
        """Rebuild one player's state from what its ``to_json`` returned."""
        ...

    #: How many of a player's last stored rows :meth:`state_from_history`
    #: reads the games of (0: none).
    history_games: ClassVar[int]

    #: Whether the players of one rating period move each other's rows
    #: without meeting (the French ladders: a period is rated as a whole,
    #: and any of its players closes it); False: an event's rows depend only
    #: on the events linked to it through players (:mod:`ratings.engine.linked`).
    period_wide: ClassVar[bool]

    #: Whether a state at an earlier checkpoint (:attr:`Stored.earlier`)
    #: can settle what the games of the last rows would: a part of the state
    #: that, once set, never changes back (a French ladder's known flag).
    earlier_settles: ClassVar[bool]

    def state_from_history(self, stored: Stored) -> Any:
        """One player's state at a point of the timeline, rebuilt from what
        their stored history before it says (:class:`Stored`); None when
        that does not settle the state (the caller then replays instead)."""
        ...


def period_key(game: Game) -> Hashable:
    """The rating period of a game, for systems that rate a period at once.

    EGF and FFG do not update ratings between the games of one tournament
    (the Revised European Ratings page; the FFG algorithm page "Chaque itération se fait sur l'ensemble des rondes du
    tournoi").  A game with an event belongs to that event.  A club game
    without one belongs to its club's day: the games one club played on one
    day form one period (our default, docs/rating-systems.md).
    """
    if game.event:
        return ("event", game.event)
    return ("club-day", game.club, game.date)


def replayed_states(system: RatingSystem, games: Mapping[PlayerId, Sequence[Game]]) -> dict[PlayerId, Any]:
    """The state each player ends with when only their games ``games``
    (oldest first) are replayed by ``system``, everyone entering at rank 0:
    what a state holds that depends on the games alone and never on
    ratings, by the system's own rule (SAGC's opponents of the last ten
    games, a French ladder's flag of a player with a game that counted).

    One replay for all the players: in it each player is a stand-in
    (``("own", player)``) that plays only their own games, against their
    real opponents."""
    own: list[Event] = []
    starts: dict[PlayerId, Start] = {}
    entry = Start(rank=0.0)
    for player, theirs in games.items():
        me = ("own", player)
        starts[me] = entry
        for game in theirs:
            white, black = game.white, game.black
            if white == player:
                white = me
                starts[black] = entry
            else:
                black = me
                starts[white] = entry
            own.append(game.between(white, black))
    state = system.rate(own, starts=starts).state
    return {player: state[("own", player)] for player, theirs in games.items() if theirs}
