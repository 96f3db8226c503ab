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
  iterations, or after 100 iterations ("Ajustements").

docs/_parts/ffg.md explains every rule and every decision to a committee.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Sequence

from ratings.systems._ffg_common import (
    BEGINNER,
    CEILING,
    COUNTED_KINDS,
    FLOOR,
    SEN_KOMI,
    LadderBase,
    game_coefficient,
    handicap_bonus,
    handicap_stones,
)
from ratings.systems.base import Event, Game, Kind, Ledger, Winner

#: seed 002, table of K: "supérieur ou égal à 650 | 10", "550 | 11", ...,
#: "inférieur ou égal à -1950 | 116", one value every 100 levels from 650
#: down to -1950.  Linear between two rows (see :func:`k_factor`).
K_TABLE: tuple[float, ...] = (
    10.0, 11.0, 13.0, 15.0, 18.0, 21.0, 24.0, 27.0, 31.0, 35.0, 39.0, 43.0, 47.0, 51.0,
    55.0, 60.0, 65.0, 70.0, 75.0, 80.0, 85.0, 90.0, 95.0, 100.0, 105.0, 110.0, 116.0,
)  # fmt: skip
K_TOP = 650.0
K_BOTTOM = -1950.0


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


class FFG(LadderBase):
    """The FFG ladder since 2022; settings in the constructor.

    ``coefficients``: apply the game coefficients of stage 2 (handicap
    1 - H/10, 13x13 0.2, 9x9 0.1, 30-59 minutes 0.5; other sizes, faster games
    and more than 9 stones not counted), which seed 002's note on players below
    -2000 presupposes; False rates every game with the bare formula.
    ``counted_kinds``: the kinds of game that count (free games never do by
    default).  ``adjust``: run the adjustment of start levels.
    ``round_levels``: publish whole levels at the end of each period.
    ``tolerance`` and ``max_iterations``: when the adjustment stops.
    """

    name = "ffg"
    unit = "level"
    _ceiling = CEILING

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
            max_iterations=max_iterations,
        )
        if not tolerance > 0.0:
            raise ValueError(f"tolerance must be above 0, got {tolerance!r}")
        self.coefficients = coefficients
        self.tolerance = float(tolerance)
        #: Tests only: send every period through the adjusted path.
        self._always_adjusted = False

    def _rate_period(
        self,
        events: Sequence[Event],
        games: list[int],
        white: list[int],
        black: list[int],
        levels: list[float],
        known: list[bool],
        ledger: Ledger,
    ) -> None:
        """Rate one period: a single pass when no player passes the threshold.

        The pass rates every game from the start levels and writes the rows
        as it goes.  If then some player's variation passes their threshold,
        :meth:`_rate_adjusted` rates the period again with the adjustment and
        rewrites its rows.  Both paths apply the same formulas (a test runs
        every period through both and compares the rows).
        """
        exp = math.exp
        counted_kinds = self.counted_tuple
        use_coefficients = self.coefficients
        white_wins = Winner.WHITE
        black_wins = Winner.BLACK
        floor = FLOOR
        ceiling = CEILING
        beginner = BEGINNER
        rank_before = ledger.rank_before
        rating_before = ledger.rating_before
        change_col = ledger.change
        rank_after = ledger.rank_after
        rating_after = ledger.rating_after

        start: dict[int, float] = {}  # player number -> level at the period's start
        kf: dict[int, float] = {}  # K at that level
        run: dict[int, float] = {}  # start level plus the changes so far
        last: dict[int, int] = {}  # the player's last slot in the period
        counted_by: list[int] = []  # players of the counted games
        for k in games:
            g = events[k]
            assert isinstance(g, Game)
            w = white[k]
            b = black[k]
            lw = start.get(w)
            if lw is None:
                lw = start[w] = run[w] = levels[w]
                kf[w] = k_factor(lw)
            lb = start.get(b)
            if lb is None:
                lb = start[b] = run[b] = levels[b]
                kf[b] = k_factor(lb)
            slot = 2 * k
            last[w] = slot
            last[b] = slot + 1
            cw = cb = 0.0
            # "Les résultats par forfait ne comptent pas"; free games never count.
            if not g.forfeit and g.kind in counted_kinds:
                handicap = g.handicap
                if handicap == 0 and g.board == 19 and g.minutes is None and g.komi >= SEN_KOMI:
                    bonus = 0.0
                    coefficient = 1.0
                    stones = 0
                else:
                    stones = handicap_stones(handicap, g.komi)
                    bonus = handicap_bonus(stones)
                    coefficient = game_coefficient(stones, g.board, g.minutes)[0] if use_coefficients else 1.0
                if coefficient > 0.0:
                    counted_by.append(w)
                    counted_by.append(b)
                    winner = g.winner
                    rw = 1.0 if winner is white_wins else 0.0 if winner is black_wins else 0.5
                    fb = lb + bonus
                    if fb < lw:
                        pw = 1.0 / (exp((fb - lw) * 7.0 / (1250.0 - fb)) + 1.0)
                    else:
                        pw = 1.0 / (exp((fb - lw) * 7.0 / (1250.0 - lw)) + 1.0)
                    strong = lw if lw > lb else lb
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
                    if lw < beginner:
                        cw = kf[w] * (rw - pw + half)
                        if rw == 0.0 and stones > 0 and g.board == 19:
                            cw *= coefficient
                    else:
                        cw = coefficient * kf[w] * (rw - pw + half)
                    cb = (1.0 if lb < beginner else coefficient) * kf[b] * (pw - rw + half)
            x = run[w]
            before = floor if x < floor else ceiling if x > ceiling else x
            x += cw
            run[w] = x
            after = floor if x < floor else ceiling if x > ceiling else x
            rank_before[slot] = before // 100.0
            rating_before[slot] = before
            change_col[slot] = cw
            rank_after[slot] = after // 100.0
            rating_after[slot] = after
            slot += 1
            x = run[b]
            before = floor if x < floor else ceiling if x > ceiling else x
            x += cb
            run[b] = x
            after = floor if x < floor else ceiling if x > ceiling else x
            rank_before[slot] = before // 100.0
            rating_before[slot] = before
            change_col[slot] = cb
            rank_after[slot] = after // 100.0
            rating_after[slot] = after

        if counted_by and (self.adjust or self._always_adjusted):
            for p, s in start.items():
                x = run[p]
                x = floor if x < floor else ceiling if x > ceiling else x
                delta = x - s
                if self._always_adjusted or (delta if delta > 0.0 else -delta) > threshold(s, known[p]):
                    self._rate_adjusted(events, games, white, black, levels, known, ledger)
                    return
        settled = self._settled
        for p, slot in last.items():
            x = run[p]
            x = settled(floor if x < floor else ceiling if x > ceiling else x)
            rank_after[slot] = x // 100.0
            rating_after[slot] = x
            levels[p] = x
        for p in counted_by:
            known[p] = True

    def _rate_adjusted(
        self,
        events: Sequence[Event],
        games: list[int],
        white: list[int],
        black: list[int],
        levels: list[float],
        known: list[bool],
        ledger: Ledger,
    ) -> None:
        exp = math.exp
        counted_kinds = self.counted_tuple
        use_coefficients = self.coefficients
        white_wins = Winner.WHITE
        black_wins = Winner.BLACK
        floor = FLOOR
        ceiling = CEILING
        beginner = BEGINNER

        # The period's players get local numbers 0..m-1.
        local: dict[int, int] = {}
        player: list[int] = []  # local -> player number
        start: list[float] = []  # start level, corrected by the adjustment
        kf: list[float] = []  # K at the start level
        # Per game of the period: local white, local black, and for a counted
        # game its index among the counted ones (-1: not counted).
        lw_of: list[int] = []
        lb_of: list[int] = []
        counted_at: list[int] = []
        # Counted games: players, Black's handicap bonus, coefficient,
        # White's coefficient below -2000, White's result, changes.
        gw: list[int] = []
        gb: list[int] = []
        gbonus: list[float] = []
        gcoef: list[float] = []
        gbeg: list[float] = []
        grw: list[float] = []
        for k in games:
            g = events[k]
            assert isinstance(g, Game)
            w = local.get(white[k])
            if w is None:
                w = local[white[k]] = len(player)
                player.append(white[k])
                start.append(levels[white[k]])
            b = local.get(black[k])
            if b is None:
                b = local[black[k]] = len(player)
                player.append(black[k])
                start.append(levels[black[k]])
            lw_of.append(w)
            lb_of.append(b)
            # "Les résultats par forfait ne comptent pas"; free games never count.
            if g.forfeit or g.kind not in counted_kinds:
                counted_at.append(-1)
                continue
            stones = handicap_stones(g.handicap, g.komi)
            if use_coefficients:
                coefficient, _ = game_coefficient(stones, g.board, g.minutes)
                if coefficient == 0.0:
                    counted_at.append(-1)
                    continue
            else:
                coefficient = 1.0
            winner = g.winner
            rw = 1.0 if winner is white_wins else 0.0 if winner is black_wins else 0.5
            counted_at.append(len(gw))
            gw.append(w)
            gb.append(b)
            gbonus.append(handicap_bonus(stones))
            gcoef.append(coefficient)
            # Note of seed 002: below -2000 "le coefficient est 1 quels que soient
            # le handicap, la taille du goban ou le temps de réflexion, sauf quand
            # Blanc perd une partie 19x19 à handicap" -- then White keeps the
            # game's coefficient.
            gbeg.append(coefficient if (rw == 0.0 and stones > 0 and g.board == 19) else 1.0)
            grw.append(rw)
        m = len(player)
        count = len(gw)
        cws = [0.0] * count
        cbs = [0.0] * count
        acc = [0.0] * m  # sum of each player's changes in the period
        kf = [k_factor(x) for x in start]

        def replay(which: Iterable[int]) -> None:
            """Rate the counted games ``which`` from the current start levels."""
            for j in which:
                w = gw[j]
                b = gb[j]
                lw = start[w]
                lb = start[b]
                fb = lb + gbonus[j]  # Black's fictitious level
                # P = 1 / (e^(D/a) + 1), a = (1250 - weaker fictitious level) / 7
                if fb < lw:
                    pw = 1.0 / (exp((fb - lw) * 7.0 / (1250.0 - fb)) + 1.0)
                else:
                    pw = 1.0 / (exp((fb - lw) * 7.0 / (1250.0 - lw)) + 1.0)
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

        replay(range(count))
        # seed 002: levels below -2950 are brought back to -2950, above 850 to 850.
        final = [start[p] + acc[p] for p in range(m)]
        final = [floor if x < floor else ceiling if x > ceiling else x for x in final]
        if self.adjust and count:
            self._settle(start, kf, acc, final, gw, gb, replay, [known[q] for q in player])

        # Ledger rows: a player's rows chain from the (corrected) start level
        # through the changes of their games in the period; the last one shows
        # the level the period ends with, as published.
        settled = [self._settled(x) for x in final]
        last = [0] * m
        for i in range(len(games)):
            last[lw_of[i]] = i
            last[lb_of[i]] = i
        run = list(start)
        rank_before = ledger.rank_before
        rating_before = ledger.rating_before
        change_col = ledger.change
        rank_after = ledger.rank_after
        rating_after = ledger.rating_after
        for i, k in enumerate(games):
            j = counted_at[i]
            slot = 2 * k
            for p, c in ((lw_of[i], cws[j] if j >= 0 else 0.0), (lb_of[i], cbs[j] if j >= 0 else 0.0)):
                before = run[p]
                before = floor if before < floor else ceiling if before > ceiling else before
                if last[p] == i:
                    after = settled[p]
                else:
                    after = run[p] + c
                    after = floor if after < floor else ceiling if after > ceiling else after
                run[p] += c
                rank_before[slot] = before // 100.0
                rating_before[slot] = before
                change_col[slot] = c
                rank_after[slot] = after // 100.0
                rating_after[slot] = after
                slot += 1
        for p in range(m):
            levels[player[p]] = settled[p]
        for j in range(count):
            known[player[gw[j]]] = True
            known[player[gb[j]]] = True

    def _settle(
        self,
        start: list[float],
        kf: list[float],
        acc: list[float],
        final: list[float],
        gw: list[int],
        gb: list[int],
        replay: Callable[[Iterable[int]], None],
        was_known: list[bool],
    ) -> None:
        """seed 002, "L'algorithme d'ajustement", on one period.

        "pour tous les joueurs dont la variation delta dépasse le seuil, le
        niveau de départ est corrigé de delta-seuil.  Cet algorithme est
        éventuellement répété jusqu'à convergence ... lorsque les variations
        entre deux itérations successives des niveaux calculés restent en deça
        de 0,1 (ou après 100 itérations)."  The threshold is read at each
        player's level and known flag at the start of the period.  Only the
        games of corrected players are rated again: the others' changes depend
        on levels that did not move.  ``start``, ``kf``, ``acc`` and ``final``
        are updated in place.
        """
        floor = FLOOR
        ceiling = CEILING
        m = len(start)
        limit = [threshold(start[p], was_known[p]) for p in range(m)]
        games_of: list[list[int]] | None = None
        tolerance = self.tolerance
        iterations = 1
        # Only a player whose computed level moved can newly pass the
        # threshold: the first time every player is a candidate, then only
        # those the last iteration touched.
        candidates: Iterable[int] = range(m)
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
                return  # nothing moves: another iteration would repeat this one
            iterations += 1
            if games_of is None:
                games_of = [[] for _ in range(m)]
                for j in range(len(gw)):
                    games_of[gw[j]].append(j)
                    games_of[gb[j]].append(j)
            redo = sorted({j for p in corrected for j in games_of[p]})
            replay(redo)
            touched = set(corrected)
            for j in redo:
                touched.add(gw[j])
                touched.add(gb[j])
            candidates = touched
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
            if moved < tolerance:
                return
