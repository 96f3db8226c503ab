"""The FFG ladder's default is the FFG algorithm page's adjustment exactly as written.

A slow reference below runs the FFG algorithm page's "algorithme d'ajustement" word for
word: a complete calculation of the tournament from the start levels, then
every player whose variation passes the threshold has their start level
corrected by delta - seuil, and the whole tournament is rated again, until
the computed levels move less than 0.1 between two iterations (or after 100
iterations).  It uses the engine's tables (K, ε, thresholds, coefficients),
which tests/engine/test_ffg.py checks against the FFG algorithm page's worked example; what it checks here is the
iteration.  The engine rates again only the games of corrected players, so
the two agree up to the order of float additions.
"""

from __future__ import annotations

import math
from datetime import date

import pytest
from hypothesis import HealthCheck, given, settings

from ratings.engine.base import Game, Kind, PlayerId, Start, Winner
from ratings.engine.ffg import FFG, epsilon, k_factor, threshold
from ratings.engine.ffg_common import game_coefficient, handicap_bonus, handicap_stones
from ratings.engine.ranks import rank_to_ffg
from tests.engine.ffg_helpers import histories
from tests.support import examples

DAY = date(2024, 3, 2)
W, B, J = Winner.WHITE, Winner.BLACK, Winner.JIGO


def reference(games: list[Game], starts: dict[PlayerId, Start]) -> dict[PlayerId, float]:
    """The FFG algorithm page on one tournament, slowly: the final levels before rounding."""
    start: dict[PlayerId, float] = {}
    known: dict[PlayerId, bool] = {}
    for g in games:
        for p in (g.white, g.black):
            s = starts[p]
            if s.rating is not None:
                first = s.rating
            else:
                assert s.rank is not None, p  # a Start gives its rating or its rank
                first = rank_to_ffg(s.rank)
            start[p] = min(850.0, max(-2950.0, first))
            known[p] = s.rating is not None
    counted = []
    for g in games:
        if g.forfeit or g.kind is Kind.FREE:
            continue
        stones = handicap_stones(g.handicap, g.komi)
        coefficient = game_coefficient(stones, g.board, g.minutes)[0]
        if coefficient:
            r = 1.0 if g.winner is W else 0.0 if g.winner is B else 0.5
            counted.append((g.white, g.black, r, stones, coefficient, g.board))
    seuil = {p: threshold(start[p], known[p]) for p in start}
    level = dict(start)

    def complete() -> dict[PlayerId, float]:
        total = dict.fromkeys(level, 0.0)
        for white, black, r, stones, coefficient, board in counted:
            lw, lb = level[white], level[black]
            fictitious = lb + handicap_bonus(stones)
            a = (1250.0 - min(lw, fictitious)) / 7.0
            p_white = 1.0 / (math.exp((fictitious - lw) / a) + 1.0)
            half = epsilon(max(lw, lb)) / 2.0
            # below -2000 the coefficient is 1, "sauf quand Blanc perd une partie 19x19 à handicap"
            cw = coefficient if lw >= -2000 or (r == 0.0 and stones > 0 and board == 19) else 1.0
            cb = coefficient if lb >= -2000 else 1.0
            total[white] += cw * k_factor(lw) * (r - p_white + half)
            total[black] += cb * k_factor(lb) * ((1.0 - r) - (1.0 - p_white) + half)
        return {p: min(850.0, max(-2950.0, level[p] + total[p])) for p in level}

    computed = complete()
    iterations = 1
    while iterations < 100:
        corrected = False
        for p in level:
            delta = computed[p] - level[p]
            if abs(delta) > seuil[p]:
                level[p] += delta - math.copysign(seuil[p], delta)
                corrected = True
        if not corrected:
            break
        iterations += 1
        again = complete()
        moved = max(abs(again[p] - computed[p]) for p in level)
        computed = again
        if moved < 0.1:
            break
    return computed


def tournament(*games: tuple[str, str, Winner, int]) -> list[Game]:
    return [
        Game(DAY, w, b, winner, handicap=h, komi=0.5 if h else 6.5, kind=Kind.TOURNAMENT, event="T")
        for w, b, winner, h in games
    ]


def final_levels(games: list[Game], starts: dict[PlayerId, Start]) -> dict[PlayerId, float]:
    return {p: s.level for p, s in FFG().rate(games, starts=starts).state.items()}


def test_the_minus_2323_player_who_draws_minus_625_and_beats_minus_884_at_nine_stones_ends_at_minus_1971() -> (
    None
):
    # At -2000 the player leaves the 9-stone exemption; the FFG algorithm page's
    # iteration settles at -1971 (the accelerated one gave -1953).
    games = tournament(("a", "p", J, 9), ("b", "p", B, 9))
    starts: dict[PlayerId, Start] = {
        "p": Start(rating=-2323.0),
        "a": Start(rating=-625.0),
        "b": Start(rating=-884.0),
    }
    assert reference(games, starts)["p"] == pytest.approx(-1971.05, abs=0.01)
    assert final_levels(games, starts)["p"] == -1971


@pytest.mark.parametrize(
    ("rank", "opponents", "winners", "level"),
    [
        # a new 10k (-950, unknown) who beats a -750 and a -2250 (accelerated: -664)
        (-10, (-750.0, -2250.0), (B, B), -665),
        # a new 10k who loses to a -950 (accelerated: -1058)
        (-10, (-950.0,), (W,), -1054),
        # a new 20k (-1950) who beats a -2050 (accelerated: -1687)
        (-20, (-2050.0,), (B,), -1688),
        # a new 20k who loses to a -2050 (accelerated: -2250)
        (-20, (-2050.0,), (W,), -2248),
    ],
)
def test_new_10k_and_20k_players_end_where_the_ffg_pages_iteration_ends(
    rank: int, opponents: tuple[float, ...], winners: tuple[Winner, ...], level: int
) -> None:
    games = tournament(*((f"o{i}", "new", winner, 0) for i, winner in enumerate(winners)))
    starts: dict[PlayerId, Start] = {
        "new": Start(rank=rank),
        **{f"o{i}": Start(rating=x) for i, x in enumerate(opponents)},
    }
    assert round(reference(games, starts)["new"]) == level
    assert final_levels(games, starts)["new"] == level


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories())
def test_the_default_ffg_ends_where_the_seeds_iteration_ends(
    history: tuple[list[Game], dict[PlayerId, Start]],
) -> None:
    events, starts = history
    games = [g for g in events if g.date == events[0].date]  # the first period: one tournament
    expected = reference(games, starts)
    result = FFG(round_levels=False).rate(games, starts=starts)
    for player, level in expected.items():
        assert result.state[player].level == pytest.approx(level, abs=1e-6), player
