"""The worked example of every "How ratings work" page, computed by the
engine from the demo's games, so that it cannot drift from the code.

The demo's history is planned without a database
(:func:`ratings.demo.history.plan_demo`); a representative game is chosen
(the first counted one, with a handicap where the system has handicaps, in
which both players had already played), the pure engine replays the list's
events up to the end of that game's rating period with explanations, and
the game's two explanations are shown term by term with the arithmetic.
Computed once a day per system and process (:func:`worked_example`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time
from fractions import Fraction
from functools import lru_cache
from typing import Any

from django.utils import timezone

from ratings.demo.history import DEMO_SEED, LADDER_SLUG, DemoHistory, ListPlan, engine_history, plan_demo
from ratings.engine import get_system
from ratings.engine.base import Event, Explanation, Game, Row, period_key
from ratings.engine.ranks import format_rank

#: The demo list whose games each system's example comes from: the list
#: that computes it (the town ladder for West Surrey), else the SAGC list.
LADDER_SYSTEMS = frozenset({"west-surrey"})
#: Systems whose rule does not look at the handicap played.
NO_HANDICAP = frozenset({"west-surrey"})
#: Systems that rate a tournament (or a club's day) at once.
PERIOD_SYSTEMS = frozenset({"egf", "egf-old", "ffg", "ffg-old"})


@dataclass(frozen=True)
class Shown:
    """One term of an explanation as the page shows it."""

    key: str
    value: str


@dataclass(frozen=True)
class Side:
    """One player's row of the example game."""

    player: str
    colour: str
    explanation: Explanation
    row: Row
    before: str
    change: str
    after: str
    terms: tuple[Shown, ...]
    working: tuple[str, ...]
    #: Why "after" is not "before" + "change", when it is not.
    note: str | None = None


@dataclass(frozen=True)
class WorkedExample:
    system: str
    list_name: str
    club_name: str
    game: Game
    #: The game's place in the list's timeline, and how many events were
    #: replayed to explain it (to the end of its rating period).
    position: int
    replayed: int
    sides: tuple[Side, Side]

    @property
    def games_before(self) -> int:
        return self.position


@lru_cache(maxsize=2)
def demo_history(today: date) -> DemoHistory:
    """The demo as ``manage.py demo`` would make it on ``today``."""
    end = datetime.combine(today, time(23, 59), timezone.get_current_timezone())
    return plan_demo(random.Random(DEMO_SEED), today, end)


@lru_cache(maxsize=16)
def worked_example(system: str, today: date) -> WorkedExample:
    """The example of ``system`` from the demo of ``today`` (cached in-process)."""
    return example_for(system, demo_history(today))


def list_of(system: str, history: DemoHistory) -> ListPlan:
    return next(
        p for p in history.lists() if (p.rating_list.slug == LADDER_SLUG) == (system in LADDER_SYSTEMS)
    )


def example_for(system: str, history: DemoHistory) -> WorkedExample:
    """The worked example of ``system`` on the demo ``history``."""
    plan = list_of(system, history)
    timeline = engine_history(plan)
    events = timeline.events
    engine = get_system(system)
    whole = engine.rate(events, starts=timeline.starts, explain=True).explanations
    assert whole is not None
    k = choose_game(system, events, whole)
    end = period_end(events, k)
    result = engine.rate(events[:end], starts=timeline.starts, explain=True)
    assert result.explanations is not None
    game = events[k]
    assert isinstance(game, Game)
    sides = []
    for colour, player in ((0, game.white), (1, game.black)):
        explanation = result.explanations[2 * k + colour]
        row = result.ledger.row(k, colour)
        assert explanation is not None and row is not None
        sides.append(_side(system, engine.unit, str(player), colour, explanation, row))
    club = next((c.name for c in plan.clubs if c.slug == game.club), str(game.club))
    return WorkedExample(system, plan.rating_list.name, club, game, k, end, (sides[0], sides[1]))


def choose_game(system: str, events: Sequence[Event], explanations: Sequence[Explanation | None]) -> int:
    """The first counted game (with handicap stones, where the system uses
    them) between two players who both had a rating from an earlier counted
    game: of an earlier rating period, for the systems that rate periods."""
    periods: dict[Any, set[Any]] = {}
    for k, event in enumerate(events):
        if not isinstance(event, Game):
            continue
        pair = (explanations[2 * k], explanations[2 * k + 1])
        if not all(e is not None and e.terms.get("reason") is None for e in pair):
            continue
        key = period_key(event) if system in PERIOD_SYSTEMS else k
        rated = all(periods.get(p, set()) - {key} for p in (event.white, event.black))
        if rated and (system in NO_HANDICAP or event.handicap >= 1):
            return k
        for player in (event.white, event.black):
            periods.setdefault(player, set()).add(key)
    raise LookupError(f"no game of the demo can show {system}")


def period_end(events: Sequence[Event], k: int) -> int:
    """One past the last event of the rating period of game ``k``."""
    game = events[k]
    assert isinstance(game, Game)
    key = period_key(game)
    last = k
    for i in range(k + 1, len(events)):
        event = events[i]
        if isinstance(event, Game) and period_key(event) == key:
            last = i
    return last + 1


# --- showing numbers ------------------------------------------------------------


def number(value: float, places: int = 4) -> str:
    """A number as the page shows it: at most ``places`` decimals, a true minus sign."""
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text.replace("-", "−")


def signed(value: float, places: int = 4) -> str:
    return ("+" if value > 0 else "") + number(value, places)


def show(value: Any) -> str:
    """A term's value: exact fractions as decimals (and exactly, when the
    decimals are not), lists joined, booleans and None in words."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return number(value.numerator)
        text = number(float(value))
        exact = Fraction(text.replace("−", "-")) == value
        return text if exact else f"{text} (exactly {str(value).replace('-', '−')})"
    if isinstance(value, int):
        return number(value)
    if isinstance(value, float):
        return number(value)
    if isinstance(value, list | tuple):
        items = [show(item) for item in value]
        if len(items) > LONGEST_LIST:
            return f"{', '.join(items[:3])}, …, {', '.join(items[-2:])} ({len(items)} in all)"
        return ", ".join(items)
    return str(value)


#: Lists longer than this (the start levels of a long settling) are shortened.
LONGEST_LIST = 8


def bracketed(text: str) -> str:
    """A shown number as an operand: a negative one in brackets."""
    return f"({text})" if text.startswith("−") else text


def plus(value: float) -> str:
    """A change added to a rating: "+ 6.9673", or a minus sign and 7.6349."""
    return ("− " if value < 0 else "+ ") + number(abs(value))


def standing(system: str, unit: str, rank: float, rating: float) -> str:
    """Where a player stands, in the system's words."""
    if system == "sagc":
        return f"{format_rank(rank)}, index {signed(rating)}"
    if system in LADDER_SYSTEMS:
        return f"rung {format_rank(rating)}"
    return f"{unit} {number(rating, 3)} ({format_rank(rank)})"


def _side(system: str, unit: str, player: str, colour: int, explanation: Explanation, row: Row) -> Side:
    terms = explanation.terms
    return Side(
        player=player,
        colour="White" if colour == 0 else "Black",
        explanation=explanation,
        row=row,
        before=standing(system, unit, row.rank_before, row.rating_before),
        change=signed(row.change),
        after=standing(system, unit, row.rank_after, row.rating_after),
        terms=tuple(Shown(key, show(value)) for key, value in terms.items()),
        working=tuple(WORKING[system](terms)),
        note=_note(system, row),
    )


def _note(system: str, row: Row) -> str | None:
    if abs(row.rating_after - row.rating_before - row.change) < 1e-6:
        return None
    if system == "sagc":
        return "The rank changed, so the index starts again at 0."
    return (
        "This is the player's last game of the rating period: the rating after it is the one the period "
        "ends with, as published (rounded, and after any settling)."
    )


# --- the arithmetic, system by system ---------------------------------------------


def _sagc(t: Mapping[str, Any]) -> list[str]:
    s = {key: show(value) for key, value in t.items()}
    lines = [
        f"LF = x² + 1.5x + 55 + x⁵/30000 with x = {s['x']}: {s['LF']}",
        f"GSF of a {s['kind']} game: {s['GSF']}",
        f"OF = 1 − 0.1 × {s['games_against_opponent']} = {s['OF']}",
        f"eff_handicap = int({s['handicap']} − ({s['komi']} − 6)/10) = {s['eff_handicap']}; "
        f"HF = 1 − 0.05 × {s['eff_handicap']} = {s['HF']}",
        f"differential {s['differential']}, {s['zone']} zone, {s['result']}: GRF = {s['GRF']}",
        f"LF × GSF × OF × GRF × HF = {s['LF']} × {s['GSF']} × {s['OF']} × {bracketed(s['GRF'])} × {s['HF']} = "
        f"{s['product']}, rounded {signed(t['rounded'])}",
    ]
    if t["loss_limit"] is not None:
        lines.append(f"a loss may take the index down to {s['loss_limit']} at most")
    if t["boundary"] is not None:
        lines.append(f"{s['boundary']}: change {signed(t['change'])}")
    lines.append(
        f"{s['rank']}, index {signed(t['index'])} → {s['rank_after']}, index {signed(t['index_after'])}"
    )
    return lines


def _egf(t: Mapping[str, Any]) -> list[str]:
    s = {key: show(value) for key, value in t.items()}
    revised = "bonus" in t
    lines = [f"con at {s['rating']}: {s['con']}"]
    if revised:
        lines.append(f"bonus = ln(1 + e^((2300 − {bracketed(s['rating'])})/80))/5 = {s['bonus']}")
    if t["handicap_shift"]:
        lines.append(
            f"{s['handicap']} stones: Black counts {s['rating']} + {s['handicap_shift']} = {s['rating_in_Se']}"
        )
    if revised:
        lines.append(f"Se = 1 / (1 + e^(β({s['opponent_in_Se']}) − β({s['rating_in_Se']}))) = {s['Se']}")
    else:
        lines.append(
            f"a = {s['a']}; Se = 1 / (e^(({s['opponent_in_Se']} − {s['rating_in_Se']})/{s['a']}) + 1) − "
            f"{s['epsilon']}/2 = {s['Se']}"
        )
    given = f"class {s['class']}" if t["class"] else "no class on the sheet, so the default for its kind"
    lines.append(f"Sa = {s['Sa']}; {given}: weight {s['weight']}")
    bonus = f" + {s['bonus']}" if revised else ""
    inner = f"{s['con']} × ({s['Sa']} − {s['Se']}){bonus}"
    lines.append(f"change = {s['weight']} × ({inner}) = {signed(t['change'])}")
    lines.append(
        f"{s['rating_before']} {plus(t['change'])} "
        + (f"is below the floor: {s['rating_after']}" if t["floored"] else f"= {s['rating_after']}")
        + f" (the period's changes so far: {signed(t['period_changes'])})"
    )
    return lines


def _ffg_settling(t: Mapping[str, Any]) -> list[str]:
    s = {key: show(value) for key, value in t.items()}
    return [
        f"threshold {s['threshold']}; {s['special_case']} (start levels tried: {s['start_levels']}; "
        f"{s['iterations']} iteration(s))",
        f"level at the period's end {s['level_at_period_end']}, published {s['published']}",
    ]


def _ffg(t: Mapping[str, Any]) -> list[str]:
    s = {key: show(value) for key, value in t.items()}
    return [
        f"level {s['level']}, opponent {s['opponent_level']}, Black's handicap bonus {s['handicap_bonus']}",
        f"D = {s['D']}; a = {s['a']}; P = 1 / (e^(D/a) + 1) = {s['P']}",
        f"ε = {s['epsilon']}, ε/2 = {s['epsilon_half']}; R = {s['R']}; K = {s['K']}; coefficient {s['coefficient']}",
        f"change = {s['coefficient']} × {s['K']} × ({s['R']} − {s['P']} + {s['epsilon_half']}) = {signed(t['change'])}",
        *_ffg_settling(t),
    ]


def _ffg_old(t: Mapping[str, Any]) -> list[str]:
    s = {key: show(value) for key, value in t.items()}
    return [
        f"level {s['level']}, opponent {s['opponent_level']}, Black's handicap bonus {s['handicap_bonus']}; {s['result']}",
        f"stage 1: basic change {s['stage_1_basic']}; stages 2–4: coefficient {s['stages_2_4_coefficient']}; "
        f"stage 5: weight {s['stage_5_weight']}",
        f"change = {s['stage_1_basic']} × {s['stages_2_4_coefficient']} × {s['stage_5_weight']} = {signed(t['change'])}",
        *_ffg_settling(t),
    ]


def _west_surrey(t: Mapping[str, Any]) -> list[str]:
    s = {key: show(value) for key, value in t.items()}
    return [
        f"rung {s['rung']} against {s['opponent_rung']}: handicap {s['handicap_levels']} "
        f"(taken as {s['handicap_options']})",
        f"{s['result']}: {s['move']}, to {s['rung_after']}",
        f"change = {bracketed(s['strength_after'])} − {bracketed(s['strength'])} = {signed(t['change'])}",
    ]


WORKING: Mapping[str, Callable[[Mapping[str, Any]], list[str]]] = {
    "sagc": _sagc,
    "egf": _egf,
    "egf-old": _egf,
    "ffg": _ffg,
    "ffg-old": _ffg_old,
    "west-surrey": _west_surrey,
}
