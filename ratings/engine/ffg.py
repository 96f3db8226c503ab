"""The French federation's ladder (échelle FFG) since 6 October 2022 (the FFG algorithm page).

Every game of a period (a tournament, or one club's day) is rated from the
levels its players had when the period began:

* Black's level counts as the fictitious level Niveau + 100 (H - 0.5) in a
  handicap game ("le niveau à l'échelle de Noir est remplacé par le niveau
  fictif Niveau+100*(H-0,5)");
* the expected result is P = 1 / (e^(D/a) + 1) with D the difference of the
  (fictitious) levels and a = (1250 - level) / 7 of the weaker (fictitious)
  level;
* each player's change is K (R - P + ε/2), K from the player's own level
  (the FFG algorithm page's worked example, see :func:`k_factor`), ε from the stronger
  player's level;
* times the game's coefficient (stage 2, see :func:`game_coefficient`);
* the level at the end of the period stays within -2950..850;
* then the start level of every player whose variation passes the
  threshold (:func:`threshold`) is corrected by delta - threshold, and the
  period is rated again, until the levels move less than 0.1 between two
  iterations, or after 100 iterations ("Ajustements"), step by step as the
  FFG algorithm page says.  (An accelerated iteration once reached a nearby
  end point in fewer steps, but not the page's own, so it was removed.)

docs/rating-systems.md explains every rule and every decision to a committee.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Sequence
from typing import ClassVar, Final

from librt.vecs import vec

from ratings.engine.base import Event, Explanation, Game, Kind, LedgerColumns, Winner
from ratings.engine.ffg_common import (
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

#: the FFG algorithm page, table of K: "supérieur ou égal à 650 | 10", "550 | 11", ...,
#: "inférieur ou égal à -1950 | 116", one value every 100 levels from 650
#: down to -1950.  Linear between two rows (see :func:`k_factor`).
K_TABLE: Final[tuple[float, ...]] = (
    10.0, 11.0, 13.0, 15.0, 18.0, 21.0, 24.0, 27.0, 31.0, 35.0, 39.0, 43.0, 47.0, 51.0,
    55.0, 60.0, 65.0, 70.0, 75.0, 80.0, 85.0, 90.0, 95.0, 100.0, 105.0, 110.0, 116.0,
)  # fmt: skip
K_TOP: Final = 650.0
K_BOTTOM: Final = -1950.0


def k_factor(level: float) -> float:
    """K of the FFG algorithm page's table at a player's own level.

    The FFG algorithm page says K "dépend du niveau du joueur le plus faible", but its
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
    """ε of the FFG algorithm page's table, at the level of the stronger player."""
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
    """The adjustment threshold ("seuil d'ajustement") of the FFG algorithm page's table.

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
    """P = 1 / (e^(D/a) + 1), a = (1250 - weaker level) / 7 (the FFG algorithm page).

    Both levels are as they count in the game (Black's fictitious level in a
    handicap game).
    """
    weak = level if level < opponent else opponent
    return 1.0 / (math.exp((opponent - level) * 7.0 / (1250.0 - weak)) + 1.0)


#: The smallest threshold of the FFG algorithm page's table (unknown player above 675): a
#: variation within it never needs the table.
SMALLEST_THRESHOLD: Final = 10.0


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
        #: When explaining: each game's terms, as its last rating computed them.
        self.trace: dict[int, tuple[float, ...]] | None = None

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
        trace = self.trace
        beginner = BEGINNER
        for j in which:
            w = gw[j]
            b = gb[j]
            lw = start[w]
            lb = start[b]
            fb = lb + gbonus[j]  # Black's fictitious level
            pw = expected(lw, fb)
            half = epsilon(lw if lw > lb else lb) * 0.5  # at the stronger player's level
            rw = grw[j]
            rb = 1.0 - rw  # Black's result and expectation
            pb = 1.0 - pw
            # K (R - P + ε/2), times the game's coefficient
            qw = gbeg[j] if lw < beginner else gcoef[j]
            qb = 1.0 if lb < beginner else gcoef[j]
            cw = qw * kf[w] * (rw - pw + half)
            cb = qb * kf[b] * (rb - pb + half)
            acc[w] += cw - cws[j]
            acc[b] += cb - cbs[j]
            cws[j] = cw
            cbs[j] = cb
            if trace is not None:
                trace[j] = (lw, lb, fb, pw, pb, half, rw, rb, qw, qb, kf[w], kf[b], cw, cb)


class FFG(LadderBase):
    """The FFG ladder since 2022; settings in the constructor.

    ``coefficients``: apply the game coefficients of stage 2 (handicap
    1 - H/10, 13x13 0.2, 9x9 0.1, 30-59 minutes 0.5; other sizes, faster games
    and more than 9 stones not counted), which the FFG algorithm page's note on players below
    -2000 presupposes; False rates every game with the bare formula.
    ``counted_kinds``: the kinds of game that count (free games never do by
    default).  ``adjust``: run the adjustment of start levels (the FFG algorithm page's
    iteration as written, see :meth:`_settle`).  ``round_levels``: publish whole levels at the end
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
        round_levels: bool = True,
        tolerance: float = 0.1,
        max_iterations: int = 100,
    ) -> None:
        super().__init__(
            counted_kinds=counted_kinds,
            adjust=adjust,
            round_levels=round_levels,
            tolerance=tolerance,
            max_iterations=max_iterations,
        )
        self.coefficients = coefficients

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
        """Rate one period (the FFG algorithm page), adjust its start levels, write its rows.

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
                # Note of the FFG algorithm page: below -2000 "le coefficient est 1 quels que
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
        trail: list[list[float]] | None = None
        iterations = 1
        if explanations is not None:
            rated.trace = {}
            trail = [[x] for x in entry]
        acc = rated.acc
        cws = rated.cws
        cbs = rated.cbs
        rated.replay(counted)
        # the FFG algorithm page: levels below -2950 are brought back to -2950, above 850 to 850.
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
                    iterations = self._settle(start, kf, acc, final, limit, gw, gb, counted, rated, trail)
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
        if explanations is not None and rated.trace is not None and trail is not None:
            from ratings.engine.explanations import FFG_FORMULA, explain_ladder_period, ffg_terms

            explain_ladder_period(
                events,
                period,
                [threshold(entry[q], known[player[q]]) for q in range(m)],
                rated.trace,
                trail,
                iterations,
                list(final),
                list(settled),
                explanations,
                ffg_terms,
                FFG_FORMULA,
                only,
            )
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
        trail: list[list[float]] | None = None,
    ) -> int:
        """the FFG algorithm page, "L'algorithme d'ajustement", on one period.

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
        return self._settle_literal(start, kf, acc, final, limit, gw, gb, games_of, period, trail)

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
        computed level, which the FFG algorithm page's stopping rule compares with 0.1.
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
        trail: list[list[float]] | None,
    ) -> int:
        """The FFG algorithm page's iteration as written: every player past the threshold
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
                if trail is not None:
                    trail[p].append(s)
            if not corrected:
                break  # nothing moves: another iteration would repeat this one
            iterations += 1
            candidates, moved = self._rerate(corrected, start, acc, final, gw, gb, games_of, period)
            if moved < tolerance:
                break
        return iterations
