"""Explanations of rating changes: the replay's own numbers, named.

Each system's replay, when asked (``rate(..., explain=True)``), records the
terms it computed every change from, as it computes them; the functions
here only give those recorded numbers their names (and the formula that
combines them), so an explanation cannot drift from the computation.
Pure Python, like the rest of the engine; never imported by a replay that
does not explain.  It reads the systems' rules (``sagc_rules``,
``egf_rules``), never the systems themselves, which import it when asked
to explain: no import runs both ways.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from fractions import Fraction
from typing import Any, Final

from ratings.engine.base import Event, Explanation, Game, Kind, Winner
from ratings.engine.egf_rules import beta, old_a
from ratings.engine.ranks import format_rank
from ratings.engine.sagc_rules import (
    HANDICAP_UNIT,
    LEVEL_UNIT,
    NO_LIMIT,
    OPPONENT_UNIT,
    PRODUCT_UNIT,
    RESULT_UNIT,
    STATUS_HALVES,
    STATUS_UNIT,
    level_units,
    opponent_tenths,
    settle_within,
    stones_weaker_than_7d,
)

FFG_FORMULA: Final = (
    "change = coefficient × K × (R − P + ε/2); P = 1 / (e^(D/a) + 1), D = opponent's level − own level"
    " (Black counts level + 100 (H − 0.5)), a = (1250 − weaker level) / 7; start levels past their"
    " threshold are corrected by (variation − threshold) and the tournament rated again (settling)"
)
EGF_FORMULA: Final = "change = weight × (con × (Sa − Se) + bonus); Se = 1 / (1 + e^(β(opponent) − β(own)))"
OLD_EGF_FORMULA: Final = "change = weight × con × (Sa − Se); Se = 1 / (e^(D/a) + 1) − ε/2, D = opponent − own"
OLD_FFG_FORMULA: Final = (
    "change = basic × coefficient × weight; basic = stage 1 (15 + (NFP − NFG)/15 within its limits),"
    " coefficient = stages 2-4 (1 − H/10, board, time; 1 below −2000 but for time), weight = 1 − level/1000"
    " within 0.1..2.5 (stage 5)"
)
WEST_SURREY_FORMULA: Final = (
    "change = rung after − rung before; the winner climbs one rung, the loser goes down one"
)


def times(count: int) -> str:
    """How often a step was taken, in words: "once", "twice", "3 times"."""
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def not_counted(game: Game, counted_kinds: Sequence[Kind] | None = None) -> str:
    """Why a game changes nothing, in words."""
    if game.forfeit:
        return "a forfeit is not a game"
    if game.kind is Kind.FREE:
        return "free games do not count"
    if counted_kinds is not None and game.kind not in counted_kinds:
        return f"{game.kind.value} games do not count here"
    if game.winner is Winner.JIGO:
        return "a jigo has no winner"
    return "this game does not count (board size, time or handicap)"


def unchanged(level: float, reason: str) -> Explanation:
    return Explanation({"level": level, "change": 0.0, "reason": reason}, f"no change: {reason}")


def explain_ladder_period(
    events: Sequence[Event],
    period: Any,
    limits: Sequence[float],
    trace: Mapping[int, tuple[float, ...]],
    trail: Sequence[Sequence[float]],
    iterations: int,
    final: Sequence[float],
    settled: Sequence[float],
    out: list[Explanation | None],
    name: Callable[[tuple[float, ...], int, Game], dict[str, Any]],
    formula: str,
    only: Collection[int] | None = None,
) -> None:
    """Name the terms a French ladder recorded for one period (with ``only``,
    of the games at those indices only).

    ``trace`` holds, per counted game of the period, the numbers its last
    rating computed, which ``name`` names for one colour; ``trail`` holds
    each player's start levels, entry first, one per correction of the
    adjustment ("settling"), ``limits`` their thresholds, ``final`` and
    ``settled`` their levels at the end of the period, before and after
    rounding.
    """
    for i, k in enumerate(period.games):
        if only is not None and k not in only:
            continue
        game = events[k]
        assert isinstance(game, Game)
        terms = trace.get(i)
        for colour, p in ((0, period.gw[i]), (1, period.gb[i])):
            settling = {
                "entry_level": trail[p][0],
                "threshold": limits[p],
                "start_levels": list(trail[p]),
                "iterations": iterations,
                "special_case": (
                    f"start level corrected {times(len(trail[p]) - 1)}: the variation passed the threshold"
                    if len(trail[p]) > 1
                    else "none: the start level stands"
                ),
                "level_at_period_end": final[p],
                "published": settled[p],
            }
            if terms is None:
                explanation = unchanged(trail[p][-1], not_counted(game))
                out[2 * k + colour] = Explanation({**explanation.terms, **settling}, explanation.formula)
            else:
                out[2 * k + colour] = Explanation({**name(terms, colour, game), **settling}, formula)


def ffg_terms(terms: tuple[float, ...], colour: int, game: Game) -> dict[str, Any]:
    """The FFG 2022 ladder's recorded numbers of one game, named for one
    colour: (White's and Black's levels, Black's fictitious level, P of
    each, ε/2, R of each, coefficient of each, K of each, change of each)."""
    lw, lb, fb, pw, pb, half, rw, rb, qw, qb, kw, kb, cw, cb = terms
    white = colour == 0
    return {
        "level": lw if white else lb,
        "opponent_level": lb if white else lw,
        "handicap_bonus": fb - lb,
        "D": fb - lw if white else lw - fb,
        "a": (1250.0 - min(lw, fb)) / 7.0,
        "P": pw if white else pb,
        "epsilon": 2.0 * half,
        "epsilon_half": half,
        "R": rw if white else rb,
        "K": kw if white else kb,
        "coefficient": qw if white else qb,
        "change": cw if white else cb,
    }


def old_ffg_terms(terms: tuple[float, ...], colour: int, game: Game) -> dict[str, Any]:
    """The old FFG ladder's recorded numbers of one game, named for one
    colour: (White's and Black's levels before it, Black's handicap bonus,
    stage 1's basic change of each, the coefficient of stages 2-4 of each,
    stage 5's weight of each, the change of each)."""
    lw, lb, bonus, bw, bb, qw, qb, ww, wb, cw, cb = terms
    white = colour == 0
    return {
        "level": lw if white else lb,
        "opponent_level": lb if white else lw,
        "handicap_bonus": bonus,
        "result": "win" if (game.winner is Winner.WHITE) == white else "loss",
        "stage_1_basic": bw if white else bb,
        "stages_2_4_coefficient": qw if white else qb,
        "stage_5_weight": ww if white else wb,
        "change": cw if white else cb,
    }


def explain_egf(
    events: Sequence[Event],
    sink: Sequence[tuple[Any, ...]],
    revised: bool,
    epsilon: float,
    floor: float,
    ledger: Any,
    only: Collection[int] | None = None,
) -> list[Explanation | None]:
    """Name the terms the EGF replay recorded (see ``egf_common``): per rated
    row the class weight, con and bonus at the period's start rating, Sa and
    Se, the start ratings as they count in Se (Black's raised by the handicap),
    the change and the sum of the period's changes so far (the rating after
    is the period's start rating plus that sum, at least the floor); an
    adjustment's row from the ledger.  With ``only``, the events at those
    indices only."""
    out: list[Explanation | None] = [None] * (2 * len(events))
    for k, event in enumerate(events):
        if not isinstance(event, Game) and (only is None or k in only):
            before, after = ledger.rating_before[2 * k], ledger.rating_after[2 * k]
            out[2 * k] = Explanation(
                {
                    "rating": before,
                    "adjusted_to": after,
                    "change": after - before,
                    "reason": "committee adjustment",
                },
                "change = adjusted_to − rating",
            )
    for item in sink:
        k, colour = item[0], item[1]
        if only is not None and k not in only:
            continue
        game = events[k]
        assert isinstance(game, Game)
        if colour < 0:
            if game.forfeit or game.kind is Kind.FREE:
                reason = not_counted(game)
            else:
                reason = "this game does not count (a board other than 19x19, or a fast game)"
            for side in (0, 1):
                out[2 * k + side] = unchanged(ledger.rating_before[2 * k + side], reason)
            continue
        _, _, weight, con, bonus, sa, se, own, own_in_se, opponent_in_se, before, after, change, total = item
        terms: dict[str, Any] = {
            "rating": own,
            "handicap": game.handicap,
            "handicap_shift": own_in_se - own if colour == 1 else 0.0,
            "rating_in_Se": own_in_se,
            "opponent_in_Se": opponent_in_se,
            "Sa": sa,
            "Se": se,
            "con": con,
        }
        if revised:
            terms |= {"beta": beta(own_in_se), "beta_opponent": beta(opponent_in_se), "bonus": bonus}
        else:
            terms |= {"a": old_a(min(own_in_se, opponent_in_se)), "epsilon": epsilon}
        terms |= {
            "class": game.event_class,
            "weight": weight,
            "change": change,
            "rating_before": before,
            "period_changes": total,
            "rating_after": after,
            "floor": floor,
            "floored": own + total < floor,
        }
        out[2 * k + colour] = Explanation(terms, EGF_FORMULA if revised else OLD_EGF_FORMULA)
    return out


SAGC_FORMULA: Final = (
    "change = round(LF × GSF × OF × GRF × HF), halves away from zero; a loss stops at loss_limit;"
    " past +999 the rank goes up one and the index restarts at 0, past −999 down one"
)


def explain_sagc(
    events: int, sink: Sequence[tuple[Any, ...]], bound: int, only: Collection[int] | None = None
) -> list[Explanation | None]:
    """Name the terms the replay put into ``sink`` (one tuple per rated player);
    with ``only``, of the events at those indices only.

    A rated player's change is re-applied with :func:`settle_within` from the
    recorded rounded change and limit, the same call the replay made.
    """
    out: list[Explanation | None] = [None] * (2 * events)
    for item in sink:
        i = item[0]
        if only is not None and i not in only:
            continue
        if item[1] < 0:  # a game that changes nothing
            _, _, rw, iw, rb, ib, game = item
            if game.forfeit:
                reason = "a forfeit is not a game"
            elif game.kind is Kind.FREE:
                reason = "free games have a Game Status Factor of 0"
            else:
                reason = "a jigo is neither a victory nor a defeat in the result table"
            for colour, (rank, index) in enumerate(((rw, iw), (rb, ib))):
                out[2 * i + colour] = Explanation(
                    {"rank": format_rank(rank), "index": int(index), "change": 0, "reason": reason},
                    f"no change: {reason}",
                )
            continue
        _, colour, rank, index, times, grf, hf, units, rounded, limit, eff, diff, kind, game = item
        new_rank, new_index, change = settle_within(rank, index, rounded, limit)
        boundary = None
        if new_rank > rank:
            boundary = "promoted past +999"
        elif new_rank < rank:
            boundary = "demoted past −999"
        elif change != rounded:
            boundary = "stopped at +999 (9d)" if rounded > 0 else f"stopped at the demotion mark {limit}"
        won = (game.winner is Winner.WHITE) == (colour == 0)
        terms: dict[str, Any] = {
            "rank": format_rank(rank),
            "index": int(index),
            "x": stones_weaker_than_7d(rank),
            "LF": Fraction(level_units(rank), LEVEL_UNIT),
            "kind": kind.value,
            "GSF": Fraction(STATUS_HALVES[kind], STATUS_UNIT),
            "games_against_opponent": times,
            "OF": Fraction(opponent_tenths(times), OPPONENT_UNIT),
            "handicap": game.handicap,
            "komi": game.komi,
            "eff_handicap": eff,
            "differential": diff,
            "beyond_three_rows": bound == 4,
            "zone": "promotion" if index >= 0 else "demotion",
            "result": "victory" if won else "defeat",
            "GRF": Fraction(int(grf), RESULT_UNIT),
            "HF": Fraction(int(hf), HANDICAP_UNIT),
            "product": Fraction(int(units), PRODUCT_UNIT),
            "rounded": int(rounded),
            "loss_limit": None if limit == NO_LIMIT else limit,
            "change": int(change),
            "boundary": boundary,
            "rank_after": format_rank(new_rank),
            "index_after": int(new_index),
        }
        out[2 * i + colour] = Explanation(terms, SAGC_FORMULA)
    return out
