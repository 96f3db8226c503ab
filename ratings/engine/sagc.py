"""The South African Go Clubs (SAGC) rating system (the SAGC FAQ).

Every player has a whole rank (30k .. 9d) and an integer index in
-999 .. +999.  After a game each player's index changes by

    Level Factor x Game Status Factor x Opponent Factor x Game Result Factor x Handicap Factor

(the SAGC FAQ, "How do I calculate my index adjustment?"), rounded to a whole
point.  Going past +999 promotes the player one rank and going past -999
demotes them one rank; either way the index restarts at 0 ("How does the
system work?").  Losses are limited by the demotion restrictions ("What
restrictions are in place with regards to demotions?").

Each rule is stated once, as a small function of
:mod:`ratings.engine.sagc_rules`; lookup tables are built from them once
per process (:mod:`ratings.engine.sagc_tables`), and the replay loop of
:class:`SAGC` only reads those tables (a million games in
a few seconds).  Every factor is a whole number of its own
unit (LF in 1/30000, GSF in halves, OF in tenths, GRF in hundredths, HF in
twentieths), so the product is an exact fraction and an exact half rounds as
a half (:func:`rounded_change`): in floating point 591.67 x 0.5 x 0.6 is
177.49999999999997, not 177.5.  Decisions where the SAGC FAQ is silent or
contradicts itself are marked "Decision:" and explained in
docs/rating-systems.md.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ratings.engine.base import (
    Adjustment,
    Event,
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
from ratings.engine.ranks import MAX_RANK, MIN_RANK, format_rank
from ratings.engine.sagc_rules import (
    HISTORY,
    INDEX_MAX,
    INDEX_MIN,
    MAX_HANDICAP,
    MAX_KOMI,
    clamped,
    differential,
    effective_handicap,
    handicap_twentieths,
    rounded_change,
    settle_within,
    start_rank,
)
from ratings.engine.sagc_tables import lookup_tables


@dataclass(frozen=True, slots=True)
class SAGCState:
    """One player between games: rank, index, and the opponents of their
    last ten games (oldest first), which the Opponent Factor needs."""

    rank: int
    index: int
    recent: tuple[PlayerId, ...] = ()

    @property
    def rating(self) -> float:
        return float(self.index)

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "index": self.index, "recent": list(self.recent)}


# --- the system ---------------------------------------------------------------


class SAGC:
    """South African Go Clubs ranks and indexes (the SAGC FAQ).

    ``beyond_three_rows``: read the result table's ">+3" and "<-3" rows for
    differentials beyond 3 instead of treating them as 3 (default False,
    following the SAGC FAQ's sentence; see :func:`result_factor`).
    """

    name: ClassVar[str] = "sagc"
    unit: ClassVar[str] = "index"

    def __init__(self, *, beyond_three_rows: bool = False) -> None:
        self.beyond_three_rows = beyond_three_rows
        bound = 4 if beyond_three_rows else 3
        self._bound = bound
        self._tables = lookup_tables(bound)

    # -- state ----------------------------------------------------------------

    def state_from_json(self, data: Mapping[str, Any]) -> SAGCState:
        """Rebuild a player's state from :meth:`SAGCState.to_json`."""
        try:
            rank = data["rank"]
            index = data["index"]
            recent = data.get("recent", [])
        except KeyError as missing:
            raise ValueError(f"SAGC state: missing field {missing}") from None
        if not isinstance(rank, int) or not MIN_RANK <= rank <= MAX_RANK:
            raise ValueError(f"SAGC state: rank: expected a whole rank {MIN_RANK}..{MAX_RANK}, got {rank!r}")
        if not isinstance(index, int) or not INDEX_MIN <= index <= INDEX_MAX:
            raise ValueError(f"SAGC state: index: expected a whole number -999..999, got {index!r}")
        if not isinstance(recent, list | tuple) or len(recent) > HISTORY:
            raise ValueError("SAGC state: recent: expected a list of at most ten opponents")
        return SAGCState(rank, index, tuple(recent))

    #: The opponents of the last ten games come from the games of the
    #: player's last rows (a few more than ten: forfeits and adjustments
    #: among them do not count).
    history_games: ClassVar[int] = HISTORY + 2
    #: A game moves its two players' indexes, nobody else's.
    period_wide: ClassVar[bool] = False
    #: The last ten opponents change with every game.
    earlier_settles: ClassVar[bool] = False

    def state_from_history(self, stored: Stored) -> SAGCState | None:
        """The rank and index after the player's last row, and the
        opponents of their last ten games as the replay of their last rows'
        games alone gives them (``alone``: forfeits do not count); None
        when those rows hold fewer than ten such games and the player has
        earlier rows (base.RatingSystem)."""
        recent: tuple[PlayerId, ...] = stored.alone.recent if stored.alone is not None else ()
        if len(recent) < HISTORY and not stored.complete:
            return None
        return SAGCState(int(stored.rank), int(stored.rating), recent)

    # -- replay ---------------------------------------------------------------

    def rate(
        self,
        events: Sequence[Event],
        state: State | None = None,
        starts: Mapping[PlayerId, Start] | None = None,
        *,
        explain: bool = False,
        explain_only: Collection[int] | None = None,
    ) -> Result:
        """Replay ``events`` in order from ``state`` (never mutated).

        With ``explain``, the result also holds an :class:`Explanation` of
        every row, made of the very numbers the replay computed it from
        (with ``explain_only`` too, of the rows of those events only).
        """
        given: Mapping[PlayerId, Any] = state if state is not None else {}
        start_of: Mapping[PlayerId, Start] = starts if starts is not None else {}
        ledger = LedgerColumns(len(events))
        # Working state: player -> [rank, index, deque of the last ten opponents].
        players: dict[PlayerId, list[Any]] = {}

        def enter(i: int, player: PlayerId, field: str) -> list[Any]:
            known = given.get(player)
            if known is not None:
                entry = [known.rank, float(known.index), deque(known.recent, HISTORY)]
            else:
                start = start_of.get(player)
                if start is None:
                    raise UnknownPlayer(i, player)
                if start.rank is None:
                    raise InvalidEvent(
                        i, field, f"player {player!r}: SAGC needs a starting rank such as '11k', not an index"
                    )
                entry = [start_rank(start.rank), 0.0, deque(maxlen=HISTORY)]  # a new player starts at index 0
            players[player] = entry
            return entry

        sink: list[tuple[Any, ...]] | None = [] if explain else None
        self._replay(events, ledger, players, enter, sink)
        final: dict[PlayerId, Any] = dict(given)
        for player, (rank, index, recent) in players.items():
            final[player] = SAGCState(rank, int(index), tuple(recent))
        explanations = None
        if sink is not None:
            from ratings.engine.explanations import explain_sagc  # only when explaining

            explanations = explain_sagc(len(events), sink, self._bound, explain_only)
        return Result(ledger.ledger(), final, explanations)

    def _replay(
        self,
        events: Sequence[Event],
        ledger: LedgerColumns,
        players: dict[PlayerId, list[Any]],
        enter: Any,
        sink: list[tuple[Any, ...]] | None,
    ) -> None:
        """The hot loop: tables and arrays in locals, no per-game objects.

        Each player's change is :func:`rounded_change` of the product of the
        factors in units and :func:`settle_within` (the rules written once).
        With a ``sink``, every rated player's terms go into it as they are
        computed (:func:`explanations.explain_sagc` names them).
        """
        # Declared types: compiled by mypyc (setup.py), the arithmetic below
        # runs on machine numbers; interpreted, the annotations cost nothing.
        tables = self._tables
        level_status: dict[Kind, list[list[float]]] = tables.level_status_opponent
        win_promo: list[float] = tables.win_promo
        loss_promo: list[float] = tables.loss_promo
        win_demo: list[float] = tables.win_demo
        loss_demo: list[float] = tables.loss_demo
        first_limit: list[int] = tables.first_limit
        negative_limit: list[list[int]] = tables.negative_limit
        bound: int = self._bound
        rank_before = ledger.rank_before
        rating_before = ledger.rating_before
        change_col = ledger.change
        rank_after = ledger.rank_after
        rating_after = ledger.rating_after
        get = players.get
        game_type = Game
        free, internet, club, tournament = Kind.FREE, Kind.INTERNET, Kind.CLUB, Kind.TOURNAMENT
        level_club = level_status[club]
        level_tournament = level_status[tournament]
        level_internet = level_status[internet]
        white_won, black_won, jigo = Winner.WHITE, Winner.BLACK, Winner.JIGO
        max_handicap = MAX_HANDICAP
        max_komi, min_komi = MAX_KOMI, -MAX_KOMI

        rw: int  # rank, index and last ten opponents of White and Black
        iw: float  # indexes are whole numbers held as doubles; rate() returns ints
        hw: deque[PlayerId]
        rb: int
        ib: float
        hb: deque[PlayerId]
        i = -1
        try:
            for i, event in enumerate(events):
                if type(event) is not game_type:
                    self._adjust(i, event, ledger, players, enter)
                    continue
                white = event.white
                black = event.black
                pw = get(white)
                if pw is None:
                    pw = enter(i, white, "white_start")
                pb = get(black)
                if pb is None:
                    pb = enter(i, black, "black_start")
                if pw is pb:
                    raise same_player(i, black)
                rw, iw, hw = pw
                rb, ib, hb = pb
                kind = event.kind
                winner = event.winner
                handicap = event.handicap
                komi = event.komi
                if not 0 <= handicap <= max_handicap or handicap % 1:
                    raise InvalidEvent(i, "handicap", f"expected 0..{max_handicap} stones, got {handicap!r}")
                if not min_komi <= komi <= max_komi:
                    raise InvalidEvent(i, "komi", f"expected a number of points, got {komi!r}")
                if kind is club:
                    level = level_club
                elif kind is tournament:
                    level = level_tournament
                elif kind is internet:
                    level = level_internet
                elif kind is not free:
                    raise unknown_kind(i, kind)
                if winner is white_won:
                    white_wins = True
                elif winner is black_won:
                    white_wins = False
                elif winner is not jigo:
                    raise InvalidEvent(i, "winner", f"expected white, black or jigo, got {winner!r}")
                forfeit = event.forfeit
                cw: float
                cb: float
                niw: float
                nib: float
                nrw: int
                nrb: int
                if forfeit or kind is free or winner is jigo:
                    # the SAGC FAQ: free games have status factor 0, so they
                    # change nothing.  Decision: a jigo has neither victor nor
                    # loser in the result table and changes no index either.
                    # Decision: a forfeit is no game at all (below, it is not
                    # counted among the previous ten games).
                    cw = cb = 0.0
                    nrw, niw, nrb, nib = rw, iw, rb, ib
                    if sink is not None:
                        sink.append((i, -1, rw, iw, rb, ib, event))
                else:
                    eff: int = effective_handicap(handicap, komi)
                    hf: float = float(handicap_twentieths(eff))
                    # Black's differential, within the table's rows; White's is -diff.
                    diff: int = clamped(differential(rb, rw, eff, True), bound)
                    nw: int = hw.count(black)
                    nb: int = hb.count(white)
                    if white_wins:
                        gw = (win_promo if iw >= 0 else win_demo)[-diff]
                        gb = (loss_promo if ib >= 0 else loss_demo)[diff]
                    else:
                        gw = (loss_promo if iw >= 0 else loss_demo)[-diff]
                        gb = (win_promo if ib >= 0 else win_demo)[diff]
                    # Whole numbers below 2^53: the products are exact.
                    xw: float = level[rw][nw] * gw * hf
                    xb: float = level[rb][nb] * gb * hf
                    cw = rounded_change(xw)
                    cb = rounded_change(xb)
                    lw = first_limit[rw] if iw >= 0 else negative_limit[rw][int(-iw)]
                    lb = first_limit[rb] if ib >= 0 else negative_limit[rb][int(-ib)]
                    if sink is not None:
                        sink.append((i, 0, rw, iw, nw, gw, hf, xw, cw, lw, eff, -diff, kind, event))
                        sink.append((i, 1, rb, ib, nb, gb, hf, xb, cb, lb, eff, diff, kind, event))
                    nrw, niw, cw = settle_within(rw, iw, cw, lw)
                    nrb, nib, cb = settle_within(rb, ib, cb, lb)
                    pw[0] = nrw
                    pw[1] = niw
                    pb[0] = nrb
                    pb[1] = nib
                if not forfeit:
                    # the SAGC FAQ: free games count among the previous ten games.
                    hw.append(black)  # a deque of at most ten: the oldest drops out
                    hb.append(white)
                slot = i + i
                rank_before[slot] = rw
                rating_before[slot] = iw
                change_col[slot] = cw
                rank_after[slot] = nrw
                rating_after[slot] = niw
                slot += 1
                rank_before[slot] = rb
                rating_before[slot] = ib
                change_col[slot] = cb
                rank_after[slot] = nrb
                rating_after[slot] = nib
        except (TypeError, AttributeError) as error:
            # A malformed event (a string where a number belongs, a missing
            # field): name the event, the field and what went wrong.
            raise InvalidEvent(i, _bad_field(events[i]), f"cannot rate {events[i]!r}: {error}") from error

    def _adjust(
        self,
        i: int,
        event: Event,
        ledger: LedgerColumns,
        players: dict[PlayerId, list[Any]],
        enter: Any,
    ) -> None:
        """A committee adjustment (the SAGC FAQ, "ranks are periodically
        synchronized with the SAGA ranks"; record sheet "same name indicates
        an adjustment").  It sets the rank and the index (0 unless given);
        its change is the new index minus the old one."""
        if not isinstance(event, Adjustment):
            raise InvalidEvent(i, "event", f"expected a Game or an Adjustment, got {type(event).__name__}")
        rank = event.rank
        if not isinstance(rank, int | float) or not MIN_RANK <= rank <= MAX_RANK or rank != int(rank):
            raise InvalidEvent(
                i, "rank", f"expected a whole rank from 30k to 9d, got {rank!r} ({_describe(rank)})"
            )
        index = 0.0 if event.rating is None else event.rating
        if not isinstance(index, int | float) or not INDEX_MIN <= index <= INDEX_MAX or index != int(index):
            raise InvalidEvent(i, "rating", f"expected a whole index from -999 to 999, got {index!r}")
        entry = players.get(event.player)
        if entry is None:
            try:
                entry = enter(i, event.player, "player")
            except UnknownPlayer:
                # Decision: an adjustment may introduce a player; it is their start.
                entry = [int(rank), float(int(index)), deque(maxlen=HISTORY)]
                players[event.player] = entry
        slot = 2 * i
        ledger.rank_before[slot] = entry[0]
        ledger.rating_before[slot] = entry[1]
        ledger.change[slot] = int(index) - entry[1]
        entry[0] = int(rank)
        entry[1] = float(int(index))
        ledger.rank_after[slot] = entry[0]
        ledger.rating_after[slot] = entry[1]


def _bad_field(event: object) -> str:
    """The first field of a malformed game whose type is wrong."""
    for field in ("handicap", "komi"):
        value = getattr(event, field, None)
        if not isinstance(value, int | float) or isinstance(value, bool):
            return field
    return "event"


def _describe(rank: object) -> str:
    if isinstance(rank, int | float) and math.isfinite(rank):
        return format_rank(float(rank))
    return "not a rank"
