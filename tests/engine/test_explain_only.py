"""Explaining some events only (``rate(..., explain=True, explain_only=...)``).

The game page asks for the explanations of its own game alone.  Properties
over random histories with committee adjustments, in every system: the
explanations asked for equal the full replay's at those events, every other
slot is None, and the ledger and the states are the very same.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.engine import SYSTEM_NAMES, get_system
from ratings.engine.base import Adjustment, Event, Game, PlayerId, Result, Start
from tests.engine.test_engine_explanations import NAMES, histories
from tests.support import examples


@st.composite
def with_adjustments(draw: st.DrawFn) -> tuple[list[Event], dict[PlayerId, Start]]:
    """A history of games with a few committee adjustments put between them."""
    games, starts = draw(histories())
    events: list[Event] = list(games)
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(events)))
        day = events[at - 1].date if at else events[0].date
        events.insert(at, Adjustment(day, draw(st.sampled_from(NAMES)), float(draw(st.integers(-20, 5)))))
    return events, starts


def columns(result: Result) -> list[bytes]:
    ledger = result.ledger
    return [
        column.tobytes()
        for column in (
            ledger.rank_before,
            ledger.rating_before,
            ledger.change,
            ledger.rank_after,
            ledger.rating_after,
        )
    ]


def states(result: Result) -> dict[PlayerId, Any]:
    return {player: state.to_json() for player, state in result.state.items()}


@pytest.mark.parametrize("system", SYSTEM_NAMES)
@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(history=with_adjustments(), data=st.data())
def test_the_explanations_asked_for_are_the_full_ones_and_only_those(
    system: str, history: tuple[list[Event], dict[PlayerId, Start]], data: st.DataObject
) -> None:
    events, starts = history
    only = data.draw(st.frozensets(st.integers(0, len(events) - 1), max_size=3), label="only")
    engine = get_system(system)
    full = engine.rate(events, starts=starts, explain=True)
    part = engine.rate(events, starts=starts, explain=True, explain_only=only)
    assert columns(part) == columns(full)
    assert states(part) == states(full)
    assert full.explanations is not None and part.explanations is not None
    assert len(part.explanations) == len(full.explanations) == 2 * len(events)
    for slot, explanation in enumerate(part.explanations):
        if slot // 2 in only:
            assert explanation == full.explanations[slot]
        else:
            assert explanation is None
    for k in only:
        # A game is always explained, White and Black (an adjustment's second slot is None).
        if isinstance(events[k], Game):
            assert part.explanations[2 * k] is not None and part.explanations[2 * k + 1] is not None
