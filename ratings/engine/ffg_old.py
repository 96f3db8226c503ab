"""The French federation's older ladder (the French Ladder page, Sensei's Library).

Games are rated one after the other, each from the levels the players have
after their previous games ("used for the next round of the tournament"):

* stage 1, basic change: 15 + (NFP - NFG) / 15 for the winner within 1..40
  (0..40 above level 400), the opposite for the loser within -15..-1
  (-1..0 below -2000), and within -1..1 for a player of -2000 or more against
  a player below -2000;
* stage 2, handicap: times 1 - H/10 (not counted above 9 stones);
* stage 3, board: times 0.2 on 13x13, 0.1 on 9x9 (other sizes not counted);
* stages 2 and 3 do not apply to a player below -2000;
* stage 4, time: times 0.5 for 30 to 59 minutes a player (faster: not
  counted);
* stage 5, weight: times 1 - N/1000 within 0.1..2.5, N the player's level;
* stage 6, barrier: never below -2950.

Then, for the whole period, the start level of every player whose variation
passes 50 (unknown player) or 100 (known player) is corrected by delta -
threshold and the period is rated again, until the levels move less than 10.

docs/rating-systems.md explains every rule and every decision to a committee.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from typing import ClassVar, Final

from ratings.engine.base import Event, Explanation, Game, Kind, LedgerColumns, Winner
from ratings.engine.ffg_common import (
    BEGINNER,
    COUNTED_KINDS,
    FLOOR,
    SEN_KOMI,
    LadderBase,
    Period,
    game_coefficient,
    handicap_bonus,
    handicap_stones,
)

#: the French Ladder page, "Special Cases": "above 50 points in absolute terms" for players
#: unknown to the ladder, "the threshold is fixed at 100" for known ones.
UNKNOWN_THRESHOLD: Final = 50.0
KNOWN_THRESHOLD: Final = 100.0


def basic_change(
    winner: float, loser: float, winner_counts: float, loser_counts: float
) -> tuple[float, float]:
    """Stage 1: the basic changes (winner's, loser's).

    ``winner`` and ``loser`` are the players' levels, ``winner_counts`` and
    ``loser_counts`` their effective levels NFG and NFP (Black's raised by
    100 (H - 0.5) in a handicap game).
    """
    # "15 + (NFP-NFG)/15 limited to an interval of (1 .. 40)"; "If the winner
    # has a level above 400, ... limited to the interval (0 .. 40)".
    gain = 15.0 + (loser_counts - winner_counts) / 15.0
    low = 0.0 if winner > 400.0 else 1.0
    gain = low if gain < low else 40.0 if gain > 40.0 else gain
    # "The basic change of the loser is opposite to that of the winner, but
    # limited to the interval (-15 .. -1)"; "If the loser has a level below
    # -2000, ... limited to the interval (-1 .. 0)".
    loss = -gain
    if loser < BEGINNER:
        loss = -1.0 if loss < -1.0 else loss
    else:
        loss = -15.0 if loss < -15.0 else -1.0 if loss > -1.0 else loss
    # "a player whose level is above or equal to -2000 against a player whose
    # level is below -2000 is limited to the interval (-1 .. 1)".
    if winner >= BEGINNER > loser:
        gain = 1.0 if gain > 1.0 else gain
    if loser >= BEGINNER > winner:
        loss = -1.0 if loss < -1.0 else loss
    return gain, loss


def weight(level: float) -> float:
    """Stage 5: 1 - N/1000 "limited to an interval (0,1 .. 2,5)"."""
    x = 1.0 - level / 1000.0
    return 0.1 if x < 0.1 else 2.5 if x > 2.5 else x


class _Plays:
    """One period's games in columns, by the players' local numbers 0..m-1:
    White and Black, whether the game counts, Black's bonus 100 (H - 0.5),
    the coefficient of stages 2-4 and that of stage 4 alone, White won."""

    def __init__(self, white: list[int], black: list[int]) -> None:
        n = len(white)
        self.white = white
        self.black = black
        self.counted = [False] * n
        self.bonus = [0.0] * n
        self.coefficient = [0.0] * n
        self.timing = [0.0] * n
        self.white_won = [False] * n
        self.cws = [0.0] * n  # each game's changes, White's and Black's
        self.cbs = [0.0] * n
        self.bws = [0.0] * n  # the levels before each game, from the last run
        self.bbs = [0.0] * n
        #: When explaining: each counted game's terms, as the last run computed them.
        self.trace: dict[int, tuple[float, ...]] | None = None

    def run(self, start: list[float]) -> list[float]:
        """Rate the games in order from the ``start`` levels (stages 1-6);
        returns the levels at the end of the period."""
        floor = FLOOR
        beginner = BEGINNER
        gw = self.white
        gb = self.black
        counted = self.counted
        gbonus = self.bonus
        gcoef = self.coefficient
        gtime = self.timing
        gwon = self.white_won
        cws = self.cws
        cbs = self.cbs
        bws = self.bws
        bbs = self.bbs
        trace = self.trace
        cur = list(start)
        for i in range(len(gw)):
            w = gw[i]
            b = gb[i]
            lw = cur[w]
            lb = cur[b]
            bws[i] = lw
            bbs[i] = lb
            if not counted[i]:
                continue
            # Stage 1 on the effective levels NFB = NB, NFN = NN + 100 (H - 0.5).
            if gwon[i]:
                bw, bb = basic_change(lw, lb, lw, lb + gbonus[i])
            else:
                bb, bw = basic_change(lb, lw, lb + gbonus[i], lw)
            # Stages 2-4; "For players whose level is less than -2000,
            # conversion rate is 1 with no regard to the handicap" (stage 2)
            # "... with no regard to the Goban size" (stage 3).
            coefficient = gcoef[i]
            timing = gtime[i]
            qw = timing if lw < beginner else coefficient
            qb = timing if lb < beginner else coefficient
            # Stage 5: weight 1 - N/1000 within 0.1..2.5.
            ww = weight(lw)
            wb = weight(lb)
            cw = bw * qw * ww
            cb = bb * qb * wb
            cws[i] = cw
            cbs[i] = cb
            if trace is not None:
                trace[i] = (lw, lb, gbonus[i], bw, bb, qw, qb, ww, wb, cw, cb)
            # Stage 6: the barrier at -2950.
            lw += cw
            lb += cb
            cur[w] = floor if lw < floor else lw
            cur[b] = floor if lb < floor else lb
        return cur


class OldFFG(LadderBase):
    """The FFG ladder before 2022 (the French Ladder page); settings in the constructor.

    ``counted_kinds``: the kinds of game that count (free games never do by
    default).  ``adjust``: run the adjustment of start levels.
    ``round_levels``: publish whole levels at the end of each period.
    ``tolerance`` and ``max_iterations``: when the adjustment stops ("until
    convergence where the change is less than 10"; the cap of 100 iterations
    is the FFG algorithm page's, the French Ladder page names none).
    """

    name: ClassVar[str] = "ffg-old"
    unit: ClassVar[str] = "level"
    _ceiling: float | None = None  # the French Ladder page has a barrier at -2950 only

    def __init__(
        self,
        *,
        counted_kinds: Collection[Kind] = COUNTED_KINDS,
        adjust: bool = True,
        round_levels: bool = True,
        tolerance: float = 10.0,
        max_iterations: int = 100,
    ) -> None:
        super().__init__(
            counted_kinds=counted_kinds,
            adjust=adjust,
            round_levels=round_levels,
            tolerance=tolerance,
            max_iterations=max_iterations,
        )

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
        counted_kinds = self.counted_tuple
        white_wins = Winner.WHITE
        black_wins = Winner.BLACK
        floor = FLOOR

        games = period.games
        gw = period.gw  # local White and Black of each game
        gb = period.gb
        player = period.players  # each local player's replay number
        start = [levels[p] for p in player]  # the levels the period starts from
        n = len(games)
        plays = _Plays(gw, gb)
        for i in range(n):
            g: Game = events[games[i]]  # type: ignore[assignment]  # the driver sends games only
            winner = g.winner
            handicap = g.handicap
            if handicap == 0 and g.board == 19 and g.minutes is None and g.komi >= SEN_KOMI:
                stones = 0  # the common case: an even 19x19 game, coefficients 1
                coefficient = timing = 1.0
            else:
                stones = handicap_stones(handicap, g.komi)
                coefficient, timing = game_coefficient(stones, g.board, g.minutes)
            # Forfeits and free games are never rated; the French Ladder page knows only a
            # winner and a loser, so a jigo does not count either.
            decided = winner is white_wins or winner is black_wins
            if g.forfeit or g.kind not in counted_kinds or coefficient == 0.0 or not decided:
                continue
            plays.counted[i] = True
            plays.bonus[i] = handicap_bonus(stones)
            plays.coefficient[i] = coefficient
            plays.timing[i] = timing
            plays.white_won[i] = winner is white_wins

        m = len(start)
        trail: list[list[float]] | None = None
        if explanations is not None:
            plays.trace = {}
            trail = [[x] for x in start]
        final = plays.run(start)
        # "for all the players in the change who exceed the threshold (50 or
        # 100), the level is corrected by delta-threshold.  The algorithm is
        # repeated until convergence where the change is less than 10."
        limit = [KNOWN_THRESHOLD if known[q] else UNKNOWN_THRESHOLD for q in player]
        iterations = 1
        if self.adjust:
            tolerance = self.tolerance
            while iterations < self.max_iterations:
                changed = False
                for p in range(m):
                    s = start[p]
                    delta = final[p] - s
                    t = limit[p]
                    if delta > t:
                        start[p] = s + delta - t
                    elif delta < -t:
                        start[p] = s + delta + t
                    else:
                        continue
                    changed = True
                    if trail is not None:
                        trail[p].append(start[p])
                if not changed:
                    break
                iterations += 1
                again = plays.run(start)
                moved = 0.0
                for p in range(m):
                    x = again[p] - final[p]
                    if x < 0.0:
                        x = -x
                    if x > moved:
                        moved = x
                final = again
                if moved < tolerance:
                    break

        # Ledger rows follow the levels game by game; a player's last row in
        # the period shows the level the period ends with, as published (whole
        # levels when ``round_levels``, half away from zero).
        if self.round_levels:
            settled = [
                float(math.floor(x + 0.5)) if x >= 0.0 else -float(math.floor(-x + 0.5)) for x in final
            ]
        else:
            settled = final
        last = [0] * m
        for i in range(n):
            last[gw[i]] = i
            last[gb[i]] = i
        cws = plays.cws
        cbs = plays.cbs
        bws = plays.bws
        bbs = plays.bbs
        rank_before = ledger.rank_before
        rating_before = ledger.rating_before
        change_col = ledger.change
        rank_after = ledger.rank_after
        rating_after = ledger.rating_after
        for i in range(n):
            slot = 2 * games[i]
            p = gw[i]
            before = bws[i]
            c = cws[i]
            if last[p] == i:
                after = settled[p]
            else:
                after = before + c
                after = floor if after < floor else after
            rank_before[slot] = before // 100.0
            rating_before[slot] = before
            change_col[slot] = c
            rank_after[slot] = after // 100.0
            rating_after[slot] = after
            slot += 1
            p = gb[i]
            before = bbs[i]
            c = cbs[i]
            if last[p] == i:
                after = settled[p]
            else:
                after = before + c
                after = floor if after < floor else after
            rank_before[slot] = before // 100.0
            rating_before[slot] = before
            change_col[slot] = c
            rank_after[slot] = after // 100.0
            rating_after[slot] = after
        if explanations is not None and plays.trace is not None and trail is not None:
            from ratings.engine.explanations import OLD_FFG_FORMULA, explain_ladder_period, old_ffg_terms

            explain_ladder_period(
                events,
                period,
                limit,
                plays.trace,
                trail,
                iterations,
                final,
                settled,
                explanations,
                old_ffg_terms,
                OLD_FFG_FORMULA,
                only,
            )
        for p in range(m):
            levels[player[p]] = settled[p]
        counted = plays.counted
        for i in range(n):
            if counted[i]:
                known[player[gw[i]]] = True
                known[player[gb[i]]] = True
