"""What the current and the pre-2021 EGF GoR systems share.

Both systems (:mod:`ratings.engine.egf`, :mod:`ratings.engine.egf_old`)
rate a tournament as a whole, weight it by its EGF class, start new players
at their grade and keep no GoR below the floor (-900, before 2021 100).  Only the formulas for the
expected result and for ``con`` differ, so one replay loop serves both; it
calls the functions below, each rule written once (compiled with the
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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import exp
from typing import Any, ClassVar, Final

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
    UnknownPlayer,
    Winner,
)
from ratings.engine.ranks import MAX_RANK, rank_to_gor

#: EGF tournament classes and their weights "for inclusion to EGF ratings":
#: A 1.00, B 0.75, C 0.50 (EGF class rules since 1999), D 0.25 (internet
#: tournaments, a class created in 2015; Sensei's "EGF tournament class").
CLASS_WEIGHTS: Mapping[str, float] = {"A": 1.0, "B": 0.75, "C": 0.5, "D": 0.25}

#: "If player's rating drops below -900, it is reset to GoR=-900 which is
#: fixed as the bottom value" (EGD, "General info").
FLOOR: Final = -900.0
#: The floor before 2021: GoR 100, 20 kyu.  The EGF's Rating System
#: Commission (eurogofed.org, "Rating System Commission") recommended that
#: "the Rating System floor should be moved from 20 kyu to 30 kyu" and noted
#: that an entrant below 20 kyu was shown at 20 kyu; the revised system of
#: 2021 did both.
OLD_FLOOR: Final = 100.0

#: The revised formulas are defined below GoR 3300 only ("a perfect player
#: would have about 3300 GoR", the Revised European Ratings page): con and beta take logarithms and
#: powers of 3300 - r.  A rating (or a handicap-raised rating) at or above
#: this cap is counted as the cap; no real player comes near it.
REVISED_CAP: Final = 3299.0

#: Pre-2021 system, the EGD table of con per 100 GoR from 100 to 2700
#: (interpolated in between, flat outside; EGD "System description" of the
#: old system, the same table as Sensei's "GoR" page and online-go/goratings).
OLD_CON_TABLE: Final[tuple[float, ...]] = (
    116, 110, 105, 100, 95, 90, 85, 80, 75, 70, 65, 60, 55,  # 100 .. 1300
    51, 47, 43, 39, 35, 31, 27, 24, 21, 18, 15, 13, 11, 10,  # 1400 .. 2700
)  # fmt: skip


def grade_rank(gor: float) -> float:
    """The whole grade a GoR falls in (2050..2149 = 1d), at most 9d.

    Same as :func:`ratings.engine.ranks.gor_to_rank` (the EGD convention
    that a grade's GoR is the middle of its band) with the float floor
    division the hot loop uses, capped at the top of the rank scale: the
    EGD counts pros from 2700 (1p = 7d) up, beyond our 9d.
    """
    rank = (gor - 2050.0) // 100.0
    return rank if rank < MAX_RANK else float(MAX_RANK)


def revised_con(gor: float) -> float:
    """con = ((3300 - r) / 200) ^ 1.6 (the Revised European Ratings page; EGD since 2021)."""
    r = gor if gor < REVISED_CAP else REVISED_CAP
    return float(((3300.0 - r) / 200.0) ** 1.6)


def revised_bonus(gor: float) -> float:
    """bonus = ln(1 + exp((2300 - r) / 80)) / 5 (the Revised European Ratings page, "to counter deflation")."""
    x = (2300.0 - gor) / 80.0
    # log1p(exp(x)) overflows for x above ~709 (GoR below about -54,400,
    # unreachable above the floor); for large x it equals x to double precision.
    return (x if x > 35.0 else math.log1p(math.exp(x))) / 5.0


def beta(gor: float) -> float:
    """beta(r) = -7 ln(3300 - r) (the Revised European Ratings page, "the integral of 1 / a")."""
    r = gor if gor < REVISED_CAP else REVISED_CAP
    return -7.0 * math.log(3300.0 - r)


def revised_expected(gor: float, opponent: float) -> float:
    """Se = 1 / (1 + exp(beta(r2) - beta(r1))) (the Revised European Ratings page, Bradley-Terry).

    With beta = -7 ln(3300 - r) that is 1 / (1 + q^7), q = (3300 - r1) /
    (3300 - r2): computed so, without a logarithm or an exponential.
    """
    q = (3300.0 - (gor if gor < REVISED_CAP else REVISED_CAP)) / (
        3300.0 - (opponent if opponent < REVISED_CAP else REVISED_CAP)
    )
    q2 = q * q
    return 1.0 / (1.0 + q2 * q2 * q2 * q)


def gor_to_elo(gor: float) -> float:
    """Rough conversion to Rémi Coulom's goratings.org Elo (the Revised European Ratings page).

    "Elo = -7 * ln(3300 - GoR) * 400 / ln(10) + 10500"; e.g. 2700 (1p) -> 2721.
    """
    return beta(gor) * 400.0 / math.log(10.0) + 10500.0


def elo_to_gor(elo: float) -> float:
    """The Revised European Ratings page's inverse, "GoR = 3300 - exp(((10500 - Elo) / 7) * ln(10) / 400)"."""
    return 3300.0 - math.exp(((10500.0 - elo) / 7.0) * math.log(10.0) / 400.0)


def old_con(gor: float) -> float:
    """con of the pre-2021 system: the EGD table, linear between its rows.

    Below 100 and above 2700 the end values hold (116 and 10): the old
    documentation bounds its tables to GoR 100..2700.
    """
    if gor <= 100.0:
        return float(OLD_CON_TABLE[0])
    if gor >= 2700.0:
        return float(OLD_CON_TABLE[-1])
    pos = (gor - 100.0) / 100.0
    row = int(pos)
    low = OLD_CON_TABLE[row]
    return float(low + (pos - row) * (OLD_CON_TABLE[row + 1] - low))


def old_a(gor: float) -> float:
    """a = 200 - (r - 100) / 20 for GoR 100..2700 (200 at 20k, 70 at 7d), flat outside."""
    r = 100.0 if gor < 100.0 else 2700.0 if gor > 2700.0 else gor
    return 205.0 - r / 20.0


def old_expected(gor: float, opponent: float, epsilon: float = 0.0) -> float:
    """Se of the pre-2021 system for the player rated ``gor``.

    Se(A) = 1 / (e^(D/a) + 1) - epsilon / 2, D = opponent - gor, and ``a``
    taken at the weaker player's rating (EGD old "System description";
    its Example 5 uses the handicap-raised rating of the weaker player).
    With epsilon it may be below 0 (a 300 against a 1500): no source bounds
    it, so a loss there gains a little.
    """
    # A conditional, not min(), and exp imported by name: this runs once a
    # game in the pure engine, where each call and lookup shows.
    a = old_a(gor if gor < opponent else opponent)
    return 1.0 / (exp((opponent - gor) / a) + 1.0) - epsilon / 2.0


def handicap_points(handicap: int) -> float:
    """The rating points a handicap is worth in Se: 100 (H - 0.5) for H >= 1.

    EGD: "the rating of the weaker player is increased by 100*(H-0.5)" where
    H is the number of handicap stones; H = 1 is a game without komi (Black
    moves first), worth half a grade.  An even game (H = 0) gets nothing,
    whatever its komi: the EGD records only stones, never komi.
    """
    return 100.0 * (handicap - 0.5) if handicap > 0 else 0.0


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
    ) -> Result:
        """Replay ``events``; with ``explain`` the result also explains every
        row with the numbers the replay computed it from."""
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
                raise InvalidEvent(k, "black", f"player {w!r} cannot play themselves")
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

            explanations = explain_egf(events, sink, self._revised, self.epsilon, floor, ledger)
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
