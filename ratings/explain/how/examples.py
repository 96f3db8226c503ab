"""The worked example of every "How ratings work" page, computed by the
engine from the demo's games, so that it cannot drift from the code.

The demo's history is planned without a database
(:func:`ratings.demo.history.plan_demo`); a representative game is chosen
(the first counted one, with a handicap where the system has handicaps, in
which both players had already played), the pure engine replays the list's
events up to the end of that game's rating period with explanations, and
the game's two explanations are shown term by term with the arithmetic
(written as the game page writes it: ratings/explain/steps.py).
Computed once a day per system and process (:func:`worked_example`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, time
from functools import lru_cache
from typing import Any

from django.utils import timezone

from ratings.demo.history import DEMO_SEED, LADDER_SLUG, DemoHistory, ListPlan, engine_history, plan_demo
from ratings.engine import get_system
from ratings.engine.base import Event, Explanation, Game, Row, period_key
from ratings.engine.ranks import format_rank
from ratings.explain.steps import signed_text, steps, value_text

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


# --- showing the example (numbers and steps as the game page writes them) ------


def standing(system: str, unit: str, rank: float, rating: float) -> str:
    """Where a player stands, in the system's words."""
    if system == "sagc":
        return f"{format_rank(rank)}, index {signed_text(rating)}"
    if system in LADDER_SYSTEMS:
        return f"rung {format_rank(rating)}"
    return f"{unit} {value_text(rating)} ({format_rank(rank)})"


def _side(system: str, unit: str, player: str, colour: int, explanation: Explanation, row: Row) -> Side:
    terms = explanation.terms
    return Side(
        player=player,
        colour="White" if colour == 0 else "Black",
        explanation=explanation,
        row=row,
        before=standing(system, unit, row.rank_before, row.rating_before),
        change=signed_text(row.change),
        after=standing(system, unit, row.rank_after, row.rating_after),
        terms=tuple(Shown(key, value_text(value)) for key, value in terms.items()),
        working=tuple(steps(system, terms)),
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
