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
from collections.abc import Collection, Sequence

from ratings.systems._ffg_common import (
    BEGINNER,
    CEILING,
    COUNTED_KINDS,
    FLOOR,
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
        exp = math.exp
        counted_kinds = self.counted_kinds
        use_coefficients = self.coefficients
        white_wins = Winner.WHITE
        black_wins = Winner.BLACK
        floor = FLOOR
        ceiling = CEILING
        beginner = BEGINNER

        start: dict[int, float] = {}  # start level of the period, corrected by the adjustment
        kf: dict[int, float] = {}  # K at the start level
        acc: dict[int, float] = {}  # sum of the changes in the period
        # One entry per game: [w, b, counted, bonus, coefficient, white's
        # coefficient below -2000, R of White]; changes in cws / cbs.
        plays: list[tuple[int, int, bool, float, float, float, float]] = []
        cws: list[float] = []
        cbs: list[float] = []
        for k in games:
            g = events[k]
            assert isinstance(g, Game)
            w = white[k]
            b = black[k]
            if w not in start:
                start[w] = s = levels[w]
                kf[w] = k_factor(s)
                acc[w] = 0.0
            if b not in start:
                start[b] = s = levels[b]
                kf[b] = k_factor(s)
                acc[b] = 0.0
            # "Les résultats par forfait ne comptent pas"; free games never count.
            if g.forfeit or g.kind not in counted_kinds:
                plays.append((w, b, False, 0.0, 0.0, 0.0, 0.0))
                cws.append(0.0)
                cbs.append(0.0)
                continue
            stones = handicap_stones(g.handicap, g.komi)
            if use_coefficients:
                coefficient, _ = game_coefficient(stones, g.board, g.minutes)
                if coefficient == 0.0:
                    plays.append((w, b, False, 0.0, 0.0, 0.0, 0.0))
                    cws.append(0.0)
                    cbs.append(0.0)
                    continue
            else:
                coefficient = 1.0
            winner = g.winner
            rw = 1.0 if winner is white_wins else 0.0 if winner is black_wins else 0.5
            # Note of seed 002: below -2000 "le coefficient est 1 quels que soient
            # le handicap, la taille du goban ou le temps de réflexion, sauf quand
            # Blanc perd une partie 19x19 à handicap" -- then White keeps the
            # game's coefficient.
            beginner_white = coefficient if (rw == 0.0 and stones > 0 and g.board == 19) else 1.0
            plays.append((w, b, True, handicap_bonus(stones), coefficient, beginner_white, rw))
            cws.append(0.0)
            cbs.append(0.0)

        def play(i: int) -> None:
            w, b, counted, bonus, coefficient, beginner_white, rw = plays[i]
            if not counted:
                return
            lw = start[w]
            lb = start[b]
            fb = lb + bonus  # Black's fictitious level
            weak = fb if fb < lw else lw
            pw = 1.0 / (exp((fb - lw) * 7.0 / (1250.0 - weak)) + 1.0)
            strong = lw if lw > lb else lb
            half = (
                0.0
                if strong >= 400.0
                else 0.005
                if strong >= 0.0
                else 0.025
                if strong >= -1000.0
                else 0.05
                if strong >= -2000.0
                else 0.075
            )  # ε / 2, seed 002's table of ε
            cw = (beginner_white if lw < beginner else coefficient) * kf[w] * (rw - pw + half)
            cb = (1.0 if lb < beginner else coefficient) * kf[b] * (pw - rw + half)
            acc[w] += cw - cws[i]
            acc[b] += cb - cbs[i]
            cws[i] = cw
            cbs[i] = cb

        for i in range(len(plays)):
            play(i)

        def level_of(p: int) -> float:
            x = start[p] + acc[p]
            # seed 002: levels below -2950 are brought back to -2950, above 850 to 850.
            return floor if x < floor else ceiling if x > ceiling else x

        final = {p: level_of(p) for p in start}
        iterations = 1
        if self.adjust:
            # seed 002, "L'algorithme d'ajustement": thresholds from each
            # player's level and known flag at the start of the period.
            limit = {p: threshold(s, known[p]) for p, s in start.items()}
            involved: dict[int, list[int]] | None = None
            tolerance = self.tolerance
            while iterations < self.max_iterations:
                corrected = []
                for p, s in start.items():
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
                    break  # nothing moves: the next iteration would repeat this one
                iterations += 1
                if involved is None:
                    involved = {p: [] for p in start}
                    for i, entry in enumerate(plays):
                        if entry[2]:
                            involved[entry[0]].append(i)
                            involved[entry[1]].append(i)
                redo = sorted({i for p in corrected for i in involved[p]})
                for i in redo:
                    play(i)
                touched = set(corrected)
                for i in redo:
                    touched.add(plays[i][0])
                    touched.add(plays[i][1])
                moved = 0.0
                for p in touched:
                    x = level_of(p)
                    d = abs(x - final[p])
                    if d > moved:
                        moved = d
                    final[p] = x
                # "réputée atteinte lorsque les variations entre deux itérations
                # successives des niveaux calculés restent en deça de 0,1"
                if moved < tolerance:
                    break

        # Ledger rows: a player's rows chain from the (corrected) start level
        # through the changes of their games in the period; the last one shows
        # the level the period ends with, as published.
        settled = {p: self._settled(x) for p, x in final.items()}
        last: dict[int, int] = {}
        for i, entry in enumerate(plays):
            last[entry[0]] = i
            last[entry[1]] = i
        run = dict(start)
        rank_before = ledger.rank_before
        rating_before = ledger.rating_before
        change_col = ledger.change
        rank_after = ledger.rank_after
        rating_after = ledger.rating_after
        for i, k in enumerate(games):
            entry = plays[i]
            for slot, p, c in ((2 * k, entry[0], cws[i]), (2 * k + 1, entry[1], cbs[i])):
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
        for p, x in settled.items():
            levels[p] = x
        for entry in plays:
            if entry[2]:
                known[entry[0]] = True
                known[entry[1]] = True
