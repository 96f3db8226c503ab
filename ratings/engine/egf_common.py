"""What the current and the pre-2021 EGF GoR systems share.

Both systems (:mod:`ratings.engine.egf`, :mod:`ratings.engine.egf_old`)
rate a tournament as a whole, weight it by its EGF class, start new players
at their grade and keep no GoR below the floor (-900, before 2021 100).  Only the formulas for the
expected result and for ``con`` differ, so one replay loop serves both; it
calls the functions of :mod:`ratings.engine.egf_rules`, each rule written
once (compiled with the
engine, a call is a direct C call: a million games still take about a
second).

Sources (docs/rating-systems.md lists them with addresses):

* the Revised European Ratings page (goratings.eu) and the EGD page "EGF Official ratings system"
  (europeangodatabase.eu/EGD/EGF_rating_system.php) for the current system;
* the EGD page of the old system (EGF_rating_system_old.php) for the
  pre-2021 one;
* the EGF tournament class rules (Sensei's Library "EGF tournament class",
  britgo.org "British Go Tournaments and the European Rating List").

Periods.  "Ratings are not updated between the games of one tournament"
(EGD "Remarks"): every game of a period is computed from the
ratings its two players had when the period began, and the changes are
summed.  A period is :func:`ratings.engine.base.period_key` (an event, or a
club's day).  We track it per player: a player's period opens with their
first game of that key and closes when they next play a game of another
key (or get an adjustment, or the replay ends).  So two tournaments whose
events interleave in the timeline do not disturb each other, and a player's
period never straddles another of their periods.

Ledger rows inside a period chain: ``rating_before`` is the period's start
rating plus the changes of the player's earlier games in the period,
``rating_after`` adds this game's change (kept at or above the floor), so
the last row of a period shows the rating the period ends with, while the
expected result of every game uses the start ratings.
"""

from __future__ import annotations

import math
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
from ratings.engine.egf_rules import (
    CLASS_WEIGHTS,
    FLOOR,
    REVISED_CAP,
    grade_rank,
    old_con,
    old_expected,
    revised_bonus,
    revised_con,
    revised_expected,
)
from ratings.engine.ranks import MAX_RANK, rank_to_gor


@dataclass(frozen=True, slots=True)
class EGFState:
    """A player's GoR between periods; the rank is the grade it falls in."""

    rating: float

    @property
    def rank(self) -> float:
        return grade_rank(self.rating)

    def to_json(self) -> dict[str, Any]:
        return {"rating": self.rating}


def state_from_json(data: Mapping[str, Any]) -> EGFState:
    try:
        rating = float(data["rating"])
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"EGF state needs a numeric 'rating', got {data!r}") from error
    if not math.isfinite(rating):
        raise ValueError(f"EGF state rating must be finite, got {rating!r}")
    return EGFState(rating)


class EGFBase:
    """The replay loop of both EGF systems; subclasses set ``_revised``."""

    name: ClassVar[str]
    unit: ClassVar[str] = "GoR"
    _revised: ClassVar[bool]

    def __init__(
        self,
        *,
        class_weights: Mapping[str, float] | None = None,
        tournament_class: str = "A",
        club_class: str = "C",
        internet_class: str = "D",
        floor: float = FLOOR,
        min_minutes: int = 25,
        epsilon: float = 0.0,
    ) -> None:
        weights = dict(CLASS_WEIGHTS if class_weights is None else class_weights)
        for key, weight in list(weights.items()):
            if not (isinstance(weight, int | float) and weight >= 0.0):
                raise ValueError(f"class weight of {key!r} must be a number >= 0, got {weight!r}")
            weights[key.upper()] = float(weight)
            weights[key.lower()] = float(weight)
        for label, value in (
            ("tournament", tournament_class),
            ("club", club_class),
            ("internet", internet_class),
        ):
            if value not in weights:
                raise ValueError(f"{label}_class {value!r} is not one of the classes {sorted(weights)}")
        self.class_weights = weights
        self.tournament_class = tournament_class
        self.club_class = club_class
        self.internet_class = internet_class
        self.floor = float(floor)
        self.min_minutes = min_minutes
        self.epsilon = float(epsilon)

    def state_from_json(self, data: Mapping[str, Any]) -> EGFState:
        return state_from_json(data)

    #: The GoR is the whole state: no earlier game is needed.
    history_games: ClassVar[int] = 0
    #: A period is the player's own (opened and closed by their games).
    period_wide: ClassVar[bool] = False
    earlier_settles: ClassVar[bool] = False

    def state_from_history(self, stored: Stored) -> EGFState:
        """The GoR after the player's last row (base.RatingSystem)."""
        return EGFState(stored.rating)

    def _start_rating(self, index: int, player: PlayerId, start: Start | None) -> float:
        if start is None:
            raise UnknownPlayer(index, player)
        if start.rating is not None:
            rating = float(start.rating)
        elif start.rank is not None:
            rating = rank_to_gor(start.rank)
        else:  # pragma: no cover - Start refuses this
            raise UnknownPlayer(index, player)
        if not math.isfinite(rating) or (self._revised and rating > REVISED_CAP):
            raise InvalidEvent(index, "start", f"player {player!r}: GoR {rating!r} is outside the EGF scale")
        # EGD: a GoR below -900 "is reset to GoR=-900"; before 2021 a
        # newcomer below 20 kyu entered at 20 kyu (the floor, OLD_FLOOR).
        return rating if rating > self.floor else self.floor

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
        row with the numbers the replay computed it from (with ``explain_only``
        too, the rows of those events only)."""
        state = {} if state is None else state
        starts = {} if starts is None else starts
        n = len(events)
        ledger = LedgerColumns(n)
        rank_before = ledger.rank_before
        rating_before = ledger.rating_before
        change_col = ledger.change
        rank_after = ledger.rank_after
        rating_after = ledger.rating_after

        floor = self.floor
        weights = self.class_weights
        w_tournament = weights[self.tournament_class]
        w_club = weights[self.club_class]
        w_internet = weights[self.internet_class]
        min_minutes = self.min_minutes
        revised = self._revised
        half_eps = self.epsilon / 2.0
        top = float(MAX_RANK)
        free = Kind.FREE
        club = Kind.CLUB
        internet = Kind.INTERNET
        white_wins = Winner.WHITE
        black_wins = Winner.BLACK
        game_type = Game

        # When explaining: (event, colour, weight, con, bonus, Sa, Se, own start
        # rating, own and opponent's start ratings as they count in Se, before,
        # after, change, sum of the period's changes so far) of every rated
        # row; (event, -1, weight) of a game that is not rated.
        sink: list[tuple[Any, ...]] | None = [] if explain else None

        # Per-player columns, indexed by a small int per player:
        ids: list[PlayerId] = []
        index: dict[PlayerId, int] = {}
        base: list[float] = []  # rating when the open period began (or the current one)
        cum: list[float] = []  # sum of the changes in the open period
        okey: list[object] = []  # key of the open period; None when none is open
        pcon: list[float] = []  # con at the period's start rating
        pbonus: list[float] = []  # bonus at the period's start rating (0 in the old system)

        def add_player(player: PlayerId, at: int) -> int:
            known = state.get(player)
            rating = (
                float(known.rating)
                if known is not None
                else self._start_rating(at, player, starts.get(player))
            )
            i = len(ids)
            ids.append(player)
            index[player] = i
            base.append(rating)
            cum.append(0.0)
            okey.append(None)
            pcon.append(0.0)
            pbonus.append(0.0)
            return i

        for k, event in enumerate(events):
            if type(event) is not game_type:
                if not isinstance(event, Adjustment):
                    raise InvalidEvent(k, "event", f"not a Game or Adjustment: {type(event).__name__}")
                self._adjust(k, event, index, add_player, base, cum, okey, ledger)
                continue
            g: Game = event
            w = g.white
            b = g.black
            if w == b:
                raise same_player(k, w)
            h = g.handicap
            if type(h) is not int or not 0 <= h <= 9:
                raise InvalidEvent(k, "handicap", f"must be a whole number of stones from 0 to 9, got {h!r}")
            iw = index.get(w)
            if iw is None:
                iw = add_player(w, k)
            ib = index.get(b)
            if ib is None:
                ib = add_player(b, k)

            # Which games count, and with what weight (EGF tournament classes).
            kind = g.kind
            if kind.__class__ is not Kind:
                raise unknown_kind(k, kind)
            weight = 0.0
            if kind is not free and not g.forfeit and g.board == 19:
                minutes = g.minutes
                if minutes is None or minutes >= min_minutes:
                    cls = g.event_class
                    if cls:
                        found = weights.get(cls)
                        if found is None:
                            raise InvalidEvent(
                                k, "event_class", f"unknown EGF class {cls!r}; use A, B, C or D"
                            )
                        weight = found
                    elif kind is club:
                        weight = w_club
                    elif kind is internet:
                        weight = w_internet
                    else:
                        weight = w_tournament

            two = 2 * k
            if weight == 0.0:
                # Not rated: both rows show the current (chained) rating, change 0.
                for slot, i in ((two, iw), (two + 1, ib)):
                    r = base[i] + cum[i]
                    if r < floor:
                        r = floor
                    rk = (r - 2050.0) // 100.0
                    if rk > top:
                        rk = top
                    rank_before[slot] = rk
                    rating_before[slot] = r
                    change_col[slot] = 0.0
                    rank_after[slot] = rk
                    rating_after[slot] = r
                if sink is not None:
                    sink.append((k, -1, weight))
                continue

            # The period: the event, else the club's day (base.period_key).
            ev = g.event
            key: object = ev if ev else (g.club, g.date)
            # Ratings at the start of each player's period; a player whose
            # open period is another one closes it first (its summed changes
            # become their rating, kept at or above the floor).
            if okey[iw] == key:
                rw = base[iw]
                cum_w = cum[iw]
            else:
                rw = base[iw] + cum[iw]
                if rw < floor:
                    rw = floor
                base[iw] = rw
                cum_w = 0.0
                okey[iw] = key
                if revised:
                    pcon[iw] = revised_con(rw)
                    pbonus[iw] = revised_bonus(rw)
                else:
                    pcon[iw] = old_con(rw)
            if okey[ib] == key:
                rb = base[ib]
                cum_b = cum[ib]
            else:
                rb = base[ib] + cum[ib]
                if rb < floor:
                    rb = floor
                base[ib] = rb
                cum_b = 0.0
                okey[ib] = key
                if revised:
                    pcon[ib] = revised_con(rb)
                    pbonus[ib] = revised_bonus(rb)
                else:
                    pcon[ib] = old_con(rb)

            # Expected results from the start ratings; the handicap raises
            # Black's rating by 100 (H - 0.5) in Se only.
            eb = rb + 100.0 * (h - 0.5) if h else rb
            if revised:
                se_w = revised_expected(rw, eb)
                se_b = 1.0 - se_w
            else:
                # EGD old: each player's Se is lowered by epsilon / 2.
                p = old_expected(rw, eb)
                se_w = p - half_eps
                se_b = 1.0 - p - half_eps

            winner = g.winner
            sa_w = 1.0 if winner is white_wins else 0.0 if winner is black_wins else 0.5

            # r' = r + con (Sa - Se) + bonus, times the class weight; the rows
            # chain through the period (before = start + earlier changes).
            c = weight * (pcon[iw] * (sa_w - se_w) + pbonus[iw])
            before = rw + cum_w
            cum_w += c
            cum[iw] = cum_w
            after = rw + cum_w
            if before < floor:
                before = floor
            if after < floor:
                after = floor
            rk = (before - 2050.0) // 100.0
            rank_before[two] = rk if rk < top else top
            rating_before[two] = before
            change_col[two] = c
            rk = (after - 2050.0) // 100.0
            rank_after[two] = rk if rk < top else top
            rating_after[two] = after
            if sink is not None:
                sink.append(
                    (k, 0, weight, pcon[iw], pbonus[iw], sa_w, se_w, rw, rw, eb, before, after, c, cum_w)
                )

            two += 1
            c = weight * (pcon[ib] * ((1.0 - sa_w) - se_b) + pbonus[ib])
            before = rb + cum_b
            cum_b += c
            cum[ib] = cum_b
            after = rb + cum_b
            if before < floor:
                before = floor
            if after < floor:
                after = floor
            rk = (before - 2050.0) // 100.0
            rank_before[two] = rk if rk < top else top
            rating_before[two] = before
            change_col[two] = c
            rk = (after - 2050.0) // 100.0
            rank_after[two] = rk if rk < top else top
            rating_after[two] = after
            if sink is not None:
                sink.append(
                    (
                        k,
                        1,
                        weight,
                        pcon[ib],
                        pbonus[ib],
                        1.0 - sa_w,
                        se_b,
                        rb,
                        eb,
                        rw,
                        before,
                        after,
                        c,
                        cum_b,
                    )
                )

        # Let go of the columns, so that each is freed as it is handed over.
        del rank_before, rating_before, change_col, rank_after, rating_after
        final: dict[PlayerId, Any] = dict(state)
        for i, player in enumerate(ids):
            r = base[i] + cum[i]
            final[player] = EGFState(r if r > floor else floor)
        explanations = None
        if sink is not None:
            from ratings.engine.explanations import explain_egf  # only when explaining

            explanations = explain_egf(events, sink, self._revised, self.epsilon, floor, ledger, explain_only)
        return Result(ledger.ledger(), final, explanations)

    def _adjust(
        self,
        k: int,
        adj: Adjustment,
        index: dict[PlayerId, int],
        add_player: Any,
        base: list[float],
        cum: list[float],
        okey: list[object],
        ledger: LedgerColumns,
    ) -> None:
        """A committee adjustment closes the player's period and sets the GoR.

        The GoR becomes ``adj.rating`` when given, else the grade's GoR
        (rank_to_gor: 1d = 2100), as for a new player of that grade.  The
        reported change is the difference, new GoR minus old.
        """
        i = index.get(adj.player)
        if i is None:
            i = add_player(adj.player, k)
        before = base[i] + cum[i]
        if before < self.floor:
            before = self.floor
        if adj.rating is not None:
            after = float(adj.rating)
        else:
            if not (isinstance(adj.rank, int | float) and math.isfinite(adj.rank)):
                raise InvalidEvent(k, "rank", f"not a rank: {adj.rank!r}")
            after = rank_to_gor(adj.rank)
        if not math.isfinite(after) or (self._revised and after > REVISED_CAP):
            raise InvalidEvent(k, "rating", f"GoR {after!r} is outside the EGF scale")
        if after < self.floor:
            after = self.floor
        base[i] = after
        cum[i] = 0.0
        okey[i] = None
        slot = 2 * k
        ledger.rank_before[slot] = grade_rank(before)
        ledger.rating_before[slot] = before
        ledger.change[slot] = after - before
        ledger.rank_after[slot] = grade_rank(after)
        ledger.rating_after[slot] = after
