"""The French federation's ladder (échelle FFG) since 6 October 2022 (seed 002).

Every game of a period (a tournament, or one club's day) is rated from the
levels its players had when the period began:

* Black's level counts as the fictitious level Niveau + 100 (H - 0.5) in a
  handicap game ("le niveau à l'échelle de Noir est remplacé par le niveau
  fictif Niveau+100*(H-0,5)");
* the expected result is P = 1 / (e^(D/a) + 1) with D the difference of the
  (fictitious) levels and a = (1250 - level) / 7 of the weaker (fictitious)
  level;
* each player's change is K (R - P + ε/2), K from the player's own level
  (the seed's worked example, see :func:`k_factor`), ε from the stronger
  player's level;
* times the game's coefficient (stage 2, see :func:`game_coefficient`);
* the level at the end of the period stays within -2950..850;
* then the start level of every player whose variation passes the
  threshold (:func:`threshold`) is corrected by delta - threshold, and the
  period is rated again, until the levels move less than 0.1 between two
  iterations, or after 100 iterations ("Ajustements").  The same corrected
  start levels are reached in far fewer iterations by secant steps (the
  default, ``adjustment="accelerated"``); ``adjustment="literal"`` runs the
  seed's iteration step by step.

docs/rating-systems.md explains every rule and every decision to a committee.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Sequence
from typing import ClassVar, Final, Literal

from librt.vecs import vec

from ratings.systems._ffg_common import (
    BEGINNER,
    CEILING,
    COUNTED_KINDS,
    FLOOR,
    SEN_KOMI,
    LadderBase,
    Period,
    game_coefficient,
    handicap_bonus,
    handicap_stones,
)
from ratings.systems.base import Event, Game, Kind, LedgerColumns, Winner

#: seed 002, table of K: "supérieur ou égal à 650 | 10", "550 | 11", ...,
#: "inférieur ou égal à -1950 | 116", one value every 100 levels from 650
#: down to -1950.  Linear between two rows (see :func:`k_factor`).
K_TABLE: Final[tuple[float, ...]] = (
    10.0, 11.0, 13.0, 15.0, 18.0, 21.0, 24.0, 27.0, 31.0, 35.0, 39.0, 43.0, 47.0, 51.0,
    55.0, 60.0, 65.0, 70.0, 75.0, 80.0, 85.0, 90.0, 95.0, 100.0, 105.0, 110.0, 116.0,
)  # fmt: skip
K_TOP: Final = 650.0
K_BOTTOM: Final = -1950.0


def k_factor(level: float) -> float:
    """K of seed 002's table at a player's own level.

    The seed says K "dépend du niveau du joueur le plus faible", but its
    worked example gives each player their own K ("K est égal à 90 pour le
    joueur 15k et 85 pour le joueur 14k"): we follow the example.  The rows
    are the middles of the grades (650 = 7d ... -1950 = 20k) and the first
    and last rows read "supérieur ou égal à 650" and "inférieur ou égal à
    -1950", so between two rows we interpolate linearly, as the EGF does
    with the same table of ``con`` (GoR = level + 2050).  On a row, K is the
    row's value, as in the example.
    """
    if level >= K_TOP:
        return 10.0
    if level <= K_BOTTOM:
        return 116.0
    pos = (K_TOP - level) / 100.0
    row = int(pos)
    low = K_TABLE[row]
    return low + (pos - row) * (K_TABLE[row + 1] - low)


def epsilon(level: float) -> float:
    """ε of seed 002's table, at the level of the stronger player."""
    if level >= 400.0:
        return 0.0  # "supérieur ou égal à 400 | 0 %"
    if level >= 0.0:
        return 0.01  # "supérieur ou égal à 0 et inférieur à 400 | 1 %"
    if level >= -1000.0:
        return 0.05  # "supérieur ou égal à -1000 et inférieur à 0 | 5 %"
    if level >= -2000.0:
        return 0.10  # "supérieur ou égal à -2000 et inférieur à -1000 | 10 %"
    return 0.15  # "inférieur à -2000 | 15 %"


def threshold(level: float, known: bool) -> float:
    """The adjustment threshold ("seuil d'ajustement") of seed 002's table.

    Known player ("ayant au moins une partie déjà comptée à l'échelle"): 20
    above 675, (6200 - 4 level) / 175 down to -1950 excluded, 80 below.  An
    unknown player's threshold is half of it ("le garde-fou est plus
    souple": 10, (6200 - 4 level) / 350, 40).
    """
    if level > 675.0:
        value = 20.0
    elif level > -1950.0:
        value = (6200.0 - 4.0 * level) / 175.0
    else:
        value = 80.0
    return value if known else value / 2.0


def expected(level: float, opponent: float) -> float:
    """P = 1 / (e^(D/a) + 1), a = (1250 - weaker level) / 7 (seed 002).

    Both levels are as they count in the game (Black's fictitious level in a
    handicap game).
    """
    weak = level if level < opponent else opponent
    return 1.0 / (math.exp((opponent - level) / ((1250.0 - weak) / 7.0)) + 1.0)


#: The two ways of running seed 002's adjustment (see :meth:`FFG._settle`).
AdjustmentMode = Literal["accelerated", "literal"]
ADJUSTMENTS: tuple[AdjustmentMode, ...] = ("accelerated", "literal")
#: The smallest threshold of seed 002's table (unknown player above 675): a
#: variation within it never needs the table.
SMALLEST_THRESHOLD: Final = 10.0
#: The longest secant step of the accelerated adjustment, in levels.
MAX_STEP: Final = 200.0


class _Games:
    """The counted games of one period in columns, and the changes they give.

    ``replay`` rates games again from the current start levels; the
    adjustment calls it for the games of the corrected players only.  A class
    rather than a closure: compiled by mypyc, its columns are read directly.
    """

    def __init__(
        self,
        gw: list[int],
        gb: list[int],
        gbonus: vec[float],
        gcoef: vec[float],
        gbeg: vec[float],
        grw: vec[float],
        start: vec[float],
        kf: vec[float],
    ) -> None:
        self.gw = gw  # local White and Black of each game of the period
        self.gb = gb
        self.gbonus = gbonus  # Black's handicap bonus 100 (H - 0.5)
        self.gcoef = gcoef  # the game's coefficient
        self.gbeg = gbeg  # White's coefficient when below -2000
        self.grw = grw  # White's result R
        self.start = start  # start levels (corrected by the adjustment)
        self.kf = kf  # K at the start levels
        n = len(gw)
        self.acc = vec[float]([0.0] * len(start))  # sum of each player's changes in the period
        self.cws = vec[float]([0.0] * n)  # each game's changes, White's and Black's
        self.cbs = vec[float]([0.0] * n)

    def replay(self, which: list[int]) -> None:
        """Rate the counted games ``which`` from the current start levels."""
        gw = self.gw
        gb = self.gb
        gbonus = self.gbonus
        gcoef = self.gcoef
        gbeg = self.gbeg
        grw = self.grw
        start = self.start
        kf = self.kf
        acc = self.acc
        cws = self.cws
        cbs = self.cbs
        beginner = BEGINNER
        for j in which:
            w = gw[j]
            b = gb[j]
            lw = start[w]
            lb = start[b]
            fb = lb + gbonus[j]  # Black's fictitious level
            # P = 1 / (e^(D/a) + 1), a = (1250 - weaker fictitious level) / 7
            if fb < lw:
                pw = 1.0 / (math.exp((fb - lw) * 7.0 / (1250.0 - fb)) + 1.0)
            else:
                pw = 1.0 / (math.exp((fb - lw) * 7.0 / (1250.0 - lw)) + 1.0)
            strong = lw if lw > lb else lb
            # ε / 2 from the table of ε, at the stronger player's level
            if strong >= 400.0:
                half = 0.0
            elif strong >= 0.0:
                half = 0.005
            elif strong >= -1000.0:
                half = 0.025
            elif strong >= -2000.0:
                half = 0.05
            else:
                half = 0.075
            rw = grw[j]
            # K (R - P + ε/2), times the game's coefficient
            cw = (gbeg[j] if lw < beginner else gcoef[j]) * kf[w] * (rw - pw + half)
            cb = (1.0 if lb < beginner else gcoef[j]) * kf[b] * (pw - rw + half)
            acc[w] += cw - cws[j]
            acc[b] += cb - cbs[j]
            cws[j] = cw
            cbs[j] = cb


class FFG(LadderBase):
    """The FFG ladder since 2022; settings in the constructor.

    ``coefficients``: apply the game coefficients of stage 2 (handicap
    1 - H/10, 13x13 0.2, 9x9 0.1, 30-59 minutes 0.5; other sizes, faster games
    and more than 9 stones not counted), which seed 002's note on players below
    -2000 presupposes; False rates every game with the bare formula.
    ``counted_kinds``: the kinds of game that count (free games never do by
    default).  ``adjust``: run the adjustment of start levels.
    ``adjustment``: "accelerated" (default) reaches the adjustment's fixed
    point by secant steps, "literal" runs the seed's iteration as written
    (see :meth:`_settle`).  ``round_levels``: publish whole levels at the end
    of each period.  ``tolerance`` and ``max_iterations``: when the
    adjustment stops.
    """

    name: ClassVar[str] = "ffg"
    unit: ClassVar[str] = "level"
    _ceiling: float | None = CEILING

    def __init__(
        self,
        *,
        coefficients: bool = True,
        counted_kinds: Collection[Kind] = COUNTED_KINDS,
        adjust: bool = True,
        adjustment: AdjustmentMode = "accelerated",
        round_levels: bool = True,
        tolerance: float = 0.1,
        max_iterations: int = 100,
    ) -> None:
        super().__init__(
            counted_kinds=counted_kinds,
            adjust=adjust,
            round_levels=round_levels,
            max_iterations=max_iterations,
        )
        if not tolerance > 0.0:
            raise ValueError(f"tolerance must be above 0, got {tolerance!r}")
        if adjustment not in ADJUSTMENTS:
            raise ValueError(f"adjustment must be one of {', '.join(ADJUSTMENTS)}, got {adjustment!r}")
        self.coefficients = coefficients
        self.adjustment: AdjustmentMode = adjustment
        self.tolerance = float(tolerance)

    def _rate_period(
        self,
        events: Sequence[Event],
        period: Period,
        levels: list[float],
        known: list[bool],
        ledger: LedgerColumns,
    ) -> None:
        """Rate one period (seed 002), adjust its start levels, write its rows.

        The period's players get local numbers 0..m-1; what each counted game
        needs (Black's handicap bonus, coefficient, White's coefficient below
        -2000, White's result) is read once, so that the adjustment can rate
        games again without reading the events.
        """
        counted_kinds = self.counted_tuple
        use_coefficients = self.coefficients
        white_wins = Winner.WHITE
        black_wins = Winner.BLACK
        floor = FLOOR
        ceiling = CEILING

        games = period.games
        gw = period.gw  # local White and Black of each game
        gb = period.gb
        player = period.players  # each local player's replay number
        entry = [levels[p] for p in player]  # the levels the period starts from
        n = len(games)
        # Vectors of doubles: compiled, their items are read and stored unboxed.
        zeros = [0.0] * n
        gbonus = vec[float](zeros)  # Black's handicap bonus 100 (H - 0.5)
        gcoef = vec[float](zeros)  # the game's coefficient
        gbeg = vec[float]([1.0] * n)  # White's coefficient when below -2000
        grw = vec[float](zeros)  # White's result R
        counted: list[int] = []  # the games that count
        for i in range(n):
            g: Game = events[games[i]]  # type: ignore[assignment]  # the driver sends games only
            # "Les résultats par forfait ne comptent pas"; free games never count.
            if g.forfeit or g.kind not in counted_kinds:
                continue
            winner = g.winner
            rw = 1.0 if winner is white_wins else 0.0 if winner is black_wins else 0.5
            handicap = g.handicap
            if handicap == 0 and g.board == 19 and g.minutes is None and g.komi >= SEN_KOMI:
                gcoef[i] = 1.0  # the common case: an even 19x19 game, bonus 0
            else:
                stones = handicap_stones(handicap, g.komi)
                coefficient = game_coefficient(stones, g.board, g.minutes)[0] if use_coefficients else 1.0
                if coefficient == 0.0:
                    continue
                gbonus[i] = handicap_bonus(stones)
                gcoef[i] = coefficient
                # Note of seed 002: below -2000 "le coefficient est 1 quels que
                # soient le handicap, la taille du goban ou le temps de
                # réflexion, sauf quand Blanc perd une partie 19x19 à handicap"
                # -- then White keeps the game's coefficient.
                if rw == 0.0 and stones > 0 and g.board == 19:
                    gbeg[i] = coefficient
            grw[i] = rw
            counted.append(i)

        m = len(entry)
        start = vec[float](entry)  # start levels, corrected by the adjustment
        kf = vec[float]([k_factor(x) for x in entry])  # K at the (corrected) start level
        rated = _Games(gw, gb, gbonus, gcoef, gbeg, grw, start, kf)
        acc = rated.acc
        cws = rated.cws
        cbs = rated.cbs
        rated.replay(counted)
        # seed 002: levels below -2950 are brought back to -2950, above 850 to 850.
        final = vec[float]([0.0] * m)
        for p in range(m):
            x = start[p] + acc[p]
            final[p] = floor if x < floor else ceiling if x > ceiling else x
        if self.adjust and counted:
            smallest = SMALLEST_THRESHOLD
            for p in range(m):
                x = final[p] - start[p]
                if (x > smallest or x < -smallest) and abs(x) > threshold(start[p], known[player[p]]):
                    limit = [threshold(start[q], known[player[q]]) for q in range(m)]
                    self._settle(start, kf, acc, final, limit, gw, gb, counted, rated)
                    break

        # Ledger rows: a player's rows chain from the (corrected) start level
        # through the changes of their games in the period; the last one shows
        # the level the period ends with, as published (whole levels when
        # ``round_levels``, half away from zero).
        settled = final
        if self.round_levels:
            settled = vec[float](
                [float(math.floor(x + 0.5)) if x >= 0.0 else -float(math.floor(-x + 0.5)) for x in final]
            )
        last = [0] * m
        for i in range(n):
            last[gw[i]] = i
            last[gb[i]] = i
        run = vec[float](start)
        rank_before = ledger.rank_before
        rating_before = ledger.rating_before
        change_col = ledger.change
        rank_after = ledger.rank_after
        rating_after = ledger.rating_after
        for i in range(n):
            slot = 2 * games[i]
            p = gw[i]
            c = cws[i]
            x = run[p]
            before = floor if x < floor else ceiling if x > ceiling else x
            x += c
            run[p] = x
            after = settled[p] if last[p] == i else floor if x < floor else ceiling if x > ceiling else x
            rank_before[slot] = before // 100.0
            rating_before[slot] = before
            change_col[slot] = c
            rank_after[slot] = after // 100.0
            rating_after[slot] = after
            slot += 1
            p = gb[i]
            c = cbs[i]
            x = run[p]
            before = floor if x < floor else ceiling if x > ceiling else x
            x += c
            run[p] = x
            after = settled[p] if last[p] == i else floor if x < floor else ceiling if x > ceiling else x
            rank_before[slot] = before // 100.0
            rating_before[slot] = before
            change_col[slot] = c
            rank_after[slot] = after // 100.0
            rating_after[slot] = after
        for p in range(m):
            levels[player[p]] = settled[p]
        for j in counted:
            known[player[gw[j]]] = True
            known[player[gb[j]]] = True

    def _settle(
        self,
        start: vec[float],
        kf: vec[float],
        acc: vec[float],
        final: vec[float],
        limit: list[float],
        gw: list[int],
        gb: list[int],
        counted: list[int],
        period: _Games,
    ) -> int:
        """seed 002, "L'algorithme d'ajustement", on one period.

        "pour tous les joueurs dont la variation delta dépasse le seuil, le
        niveau de départ est corrigé de delta-seuil.  Cet algorithme est
        éventuellement répété jusqu'à convergence ... lorsque les variations
        entre deux itérations successives des niveaux calculés restent en deça
        de 0,1 (ou après 100 itérations)."  ``limit`` holds each player's
        threshold, read at their level and known flag at the start of the
        period.  Only the games of corrected players are rated again: the
        others' changes depend on levels that did not move.  ``start``,
        ``kf``, ``acc`` and ``final`` are updated in place; returns the number
        of iterations (the first, full calculation included).
        """
        games_of: list[list[int]] = [[] for _ in start]
        for j in counted:
            games_of[gw[j]].append(j)
            games_of[gb[j]].append(j)
        if self.adjustment == "literal":
            return self._settle_literal(start, kf, acc, final, limit, gw, gb, games_of, period)
        return self._settle_accelerated(start, kf, acc, final, limit, gw, gb, games_of, period)

    def _rerate(
        self,
        corrected: list[int],
        start: vec[float],
        acc: vec[float],
        final: vec[float],
        gw: list[int],
        gb: list[int],
        games_of: list[list[int]],
        period: _Games,
    ) -> tuple[set[int], float]:
        """Rate again the games of the ``corrected`` players.

        Returns the players whose computed level may have moved (the
        corrected ones and their opponents) and the largest move of a
        computed level, which the seed's stopping rule compares with 0.1.
        """
        floor = FLOOR
        ceiling = CEILING
        if len(corrected) == 1:
            redo = games_of[corrected[0]]
        else:
            redo = sorted({j for p in corrected for j in games_of[p]})
        period.replay(redo)
        touched = set(corrected)
        for j in redo:
            touched.add(gw[j])
            touched.add(gb[j])
        moved = 0.0
        for p in touched:
            x = start[p] + acc[p]
            x = floor if x < floor else ceiling if x > ceiling else x
            d = x - final[p]
            if d < 0.0:
                d = -d
            if d > moved:
                moved = d
            final[p] = x
        return touched, moved

    def _settle_literal(
        self,
        start: vec[float],
        kf: vec[float],
        acc: vec[float],
        final: vec[float],
        limit: list[float],
        gw: list[int],
        gb: list[int],
        games_of: list[list[int]],
        period: _Games,
    ) -> int:
        """The seed's iteration as written: every player past the threshold
        moves by delta - seuil, then the period is rated again.

        Each step moves a start level by the excess only, while the excess
        shrinks by a few percent per step (a player's variation depends
        weakly on their own start level), so this takes tens of iterations
        and often reaches the cap of 100.
        """
        tolerance = self.tolerance
        iterations = 1
        # Only a player whose computed level moved can newly pass the
        # threshold: the first time every player is a candidate, then only
        # those the last iteration touched.
        candidates: Iterable[int] = range(len(start))
        while iterations < self.max_iterations:
            corrected = []
            for p in candidates:
                s = start[p]
                delta = final[p] - s
                t = limit[p]
                if delta > t:
                    s += delta - t
                elif delta < -t:
                    s += delta + t
                else:
                    continue
                start[p] = s
                kf[p] = k_factor(s)
                corrected.append(p)
            if not corrected:
                break  # nothing moves: another iteration would repeat this one
            iterations += 1
            candidates, moved = self._rerate(corrected, start, acc, final, gw, gb, games_of, period)
            if moved < tolerance:
                break
        return iterations

    def _settle_accelerated(
        self,
        start: vec[float],
        kf: vec[float],
        acc: vec[float],
        final: vec[float],
        limit: list[float],
        gw: list[int],
        gb: list[int],
        games_of: list[list[int]],
        period: _Games,
    ) -> int:
        """The same corrections as :meth:`_settle_literal`, in few iterations.

        The literal iteration of one player is the fixed-point iteration
        s <- s + f(s) on f(s) = delta(s) - seuil (with the sign of the
        correction); it converges to the start level where f = 0, the
        variation exactly at the threshold, but only by a few percent a step
        because f changes slowly with s.  Here each corrected player steps to
        the root of the secant through their last two iterates, and falls
        back on the literal step when the secant is unsafe:

        * a player's first correction is the literal step (no secant yet);
        * a player with an opponent who is being corrected too takes the
          literal step: two such players pull each other's variations in,
          and which of them gets back inside first, and so keeps only part
          of their correction, depends on the literal iteration's path, so
          that path is followed step by step (it is not unique otherwise);
          the secant is used again once the opponents stop moving;
        * a step is never shorter than the literal one (the secant's slope
          must lie in (-1, 0), as f's does);
        * a start level known to put the variation back inside the threshold
          bounds the steps (regula falsi between that level and the current
          one);
        * a player whose variation is back inside after an overshoot returns
          toward the threshold, but never behind the level the literal step
          had reached: a player pushed inside by their opponents' corrections
          keeps the correction, as in the literal iteration.

        It stops on the seed's rule (computed levels moved less than
        ``tolerance``) once start levels also moved less than that and no
        literal step of the last iteration left more than half the tolerance
        to go (a literal step of r leaves r / (1 - ratio) to go, ratio its
        last shrinking factor, taken as 0.9 while unknown), or when nobody
        moves, or after ``max_iterations``.
        """
        nan = math.nan
        floor = FLOOR
        ceiling = CEILING
        tolerance = self.tolerance
        small = tolerance / 2.0
        m = len(start)
        direction = [0] * m  # +1 / -1 once a player's start is corrected
        committed = list(start)  # never step back behind this (literal) level
        prev_s = [nan] * m  # the previous iterate and its residual
        prev_r = [0.0] * m
        out_s = [nan] * m  # last start level with the variation outside
        out_r = [0.0] * m
        in_s = [nan] * m  # last start level with the variation back inside
        in_r = [0.0] * m
        # The bracket end a regula falsi step kept the last time (+1 outside,
        # -1 inside): kept twice, its residual is halved (Illinois), which
        # stops the steps from creeping toward the fixed point from one side.
        kept = [0] * m
        opponents: list[list[int] | None] = [None] * m
        moving: set[int] = set()  # corrected in the last iteration
        literal = [False] * m  # the last step was the literal one
        ratio = [0.0] * m  # residual / residual before that literal step
        iterations = 1
        candidates: Iterable[int] = range(m)
        while iterations < self.max_iterations:
            # Who passes the threshold now, with their residual r (0 at the
            # threshold, of the correction's sign while outside).
            outside: list[tuple[int, float]] = []
            inside: list[tuple[int, float]] = []
            for p in candidates:
                s = start[p]
                delta = final[p] - s
                t = limit[p]
                d = direction[p]
                if d == 0:
                    if delta > t:
                        d = 1
                    elif delta < -t:
                        d = -1
                    else:
                        continue
                    # Not while an opponent overshot the fixed point (back
                    # inside, past the level the literal step had reached):
                    # the literal iteration never puts them there, so it
                    # would not have corrected this player either.
                    coupled = opponents[p]
                    if coupled is None:
                        coupled = opponents[p] = [gb[j] if gw[j] == p else gw[j] for j in games_of[p]]
                    for q in coupled:
                        e = direction[q]
                        if e != 0 and (start[q] - committed[q]) * e > 0.0:
                            x = final[q] - start[q]
                            if (x - limit[q] if e > 0 else x + limit[q]) * e < 0.0:
                                break
                    else:
                        direction[p] = d
                    if direction[p] == 0:
                        continue
                elif ((delta < -t) if d > 0 else (delta > t)) and (s - committed[p]) * d <= 0.0:
                    # Past the threshold on the other side at a level the
                    # literal step reached (the variation jumps where ε or the
                    # coefficient below -2000 changes): the literal iteration
                    # corrects back; start afresh.  (Reached by a secant step,
                    # it is an overshoot: stepped back below.)
                    d = direction[p] = -d
                    committed[p] = s
                    prev_s[p] = out_s[p] = in_s[p] = nan
                    kept[p] = 0
                r = delta - t if d > 0 else delta + t
                if r * d > 0.0:
                    outside.append((p, r))
                elif r != 0.0:
                    inside.append((p, r))
            now = set()
            for p, r in outside:
                now.add(p)
                pr = prev_r[p]
                ratio[p] = r / pr if literal[p] and r * pr > 0.0 else -1.0
            corrected = []
            blind = False  # a literal step far from the fixed point was taken
            stepped = 0.0  # the largest step of a start level
            for p, r in outside:
                s = start[p]
                d = direction[p]
                out_s[p] = s
                out_r[p] = r
                new = s + r  # the literal step
                committed[p] = new
                # A secant through the last two iterates is safe only when no
                # opponent moved between them nor moves now: otherwise the
                # literal iteration's path (which of two coupled players stops
                # first) decides the end point, and it is followed step by step.
                coupled = opponents[p]
                if coupled is None:
                    coupled = opponents[p] = [gb[j] if gw[j] == p else gw[j] for j in games_of[p]]
                alone = True
                for q in coupled:
                    if q in now or q in moving:
                        alone = False
                        break
                secant = False
                ps = prev_s[p]
                pr = prev_r[p]
                if alone and ps == ps and ps != s and r != pr:
                    slope = (r - pr) / (s - ps)
                    if -1.0 < slope < 0.0:
                        new = s - r / slope
                        secant = True
                        # A nearly flat secant is not trusted over two grades.
                        if new - s > MAX_STEP:
                            new = s + MAX_STEP
                        elif new - s < -MAX_STEP:
                            new = s - MAX_STEP
                    bound = in_s[p]
                    if bound == bound:
                        if (bound - (s + r)) * d <= 0.0:
                            in_s[p] = nan  # stale: the literal step passes it
                        elif (bound - new) * d <= 0.0:
                            if kept[p] < 0:
                                in_r[p] *= 0.5
                            new = s - r * (bound - s) / (in_r[p] - r)  # regula falsi
                            secant = True
                            kept[p] = -1
                        else:
                            kept[p] = 0
                    if (new - s - r) * d < 0.0:
                        new = s + r  # never short of the literal step
                if not secant:
                    # What the literal iteration still has to go: r / (1 - ratio).
                    lam = ratio[p]
                    if (r if r > 0.0 else -r) > small * (1.0 - lam if 0.0 < lam < 1.0 else 0.1):
                        blind = True
                literal[p] = new == s + r
                # The fixed point lies within the bounds (past 850 - seuil a
                # winner's computed level is cut at 850, and so is the
                # variation); a flat secant must not throw a level beyond them.
                new = floor if new < floor else ceiling if new > ceiling else new
                if (new - s if new > s else s - new) > stepped:
                    stepped = new - s if new > s else s - new
                prev_s[p] = s
                prev_r[p] = r
                start[p] = new
                kf[p] = k_factor(new)
                corrected.append(p)
            for p, r in inside:
                # Back inside the threshold: after an overshoot of a secant
                # step, return toward the threshold, never behind the level the
                # literal step had reached; otherwise stay, as literally.
                s = start[p]
                d = direction[p]
                in_s[p] = s
                in_r[p] = r
                c = committed[p]
                if (s - c) * d <= 0.0:
                    continue
                o = out_s[p]
                if o == o:
                    if kept[p] > 0:
                        out_r[p] *= 0.5
                    new = s - r * (s - o) / (r - out_r[p])  # regula falsi
                    kept[p] = 1
                else:
                    new = c
                if (new - c) * d < 0.0:
                    new = c
                literal[p] = False
                if (new - s if new > s else s - new) > stepped:
                    stepped = new - s if new > s else s - new
                prev_s[p] = s
                prev_r[p] = r
                start[p] = new
                kf[p] = k_factor(new)
                corrected.append(p)
            if not corrected:
                break
            moving = set(corrected)
            iterations += 1
            candidates, moved = self._rerate(corrected, start, acc, final, gw, gb, games_of, period)
            if moved < tolerance and stepped < tolerance and not blind:
                break
        return iterations
