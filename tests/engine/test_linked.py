"""The events linked to one event (ratings/engine/linked.py) rate it as
the whole stretch does: the game page replays only those.

Properties over random histories with committee adjustments, in every
system: the linked events alone, replayed from the same states, give the
event's rows and explanations exactly; and the French ladders need their
period links (a club night closed by a pair that never meets the game's).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.engine import SYSTEM_NAMES, get_system
from ratings.engine.base import Adjustment, Event, Game, Kind, PlayerId, RatingSystem, Start, Winner
from ratings.engine.linked import connected_events
from tests.engine.test_explain_only import with_adjustments
from tests.support import examples


def _players(events: list[Event]) -> tuple[list[PlayerId], list[PlayerId | None]]:
    first = [event.player if isinstance(event, Adjustment) else event.white for event in events]
    second = [None if isinstance(event, Adjustment) else event.black for event in events]
    return first, second


def _rows(system: RatingSystem, events: list[Event], starts: Mapping[PlayerId, Start], at: int) -> Any:
    """Event ``at``'s two rows and their explanations."""
    result = system.rate(events, starts=starts, explain=True, explain_only={at})
    assert result.explanations is not None
    return [(result.ledger.row(at, colour), result.explanations[2 * at + colour]) for colour in (0, 1)]


def _linked_rows(
    system: RatingSystem, events: list[Event], starts: Mapping[PlayerId, Start], at: int, wide: bool
) -> Any:
    chosen = connected_events(events, *_players(events), at, wide)
    return _rows(system, [events[i] for i in chosen], starts, chosen.index(at))


@pytest.mark.parametrize("name", SYSTEM_NAMES)
@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(history=with_adjustments(), data=st.data())
def test_the_linked_events_rate_an_event_as_the_whole_stretch(
    name: str, history: tuple[list[Event], dict[PlayerId, Start]], data: st.DataObject
) -> None:
    events, starts = history
    at = data.draw(st.integers(0, len(events) - 1), label="at")
    system = get_system(name)
    assert _linked_rows(system, events, starts, at, system.period_wide) == _rows(system, events, starts, at)


DAY = date(2025, 3, 7)


def _club(white: str, black: str, winner: Winner = Winner.WHITE) -> Game:
    return Game(DAY, white, black, winner, 0, 6.5, Kind.CLUB, club="club")


#: 2-3 play a tournament game in the middle of the club night: on a French
#: ladder that closes the club night's period for all its players, so 0-1's
#: second game opens a new one, though 0 and 1 never meet 2 or 3.
CLOSED_BY_ANOTHER_PAIR: list[Event] = [
    _club("p0", "p1"),
    _club("p2", "p3"),
    Game(DAY, "p3", "p4", Winner.BLACK, 0, 6.5, Kind.TOURNAMENT, event="Open", event_class="A"),
    _club("p0", "p1", Winner.BLACK),
]
STARTS: dict[PlayerId, Start] = {f"p{i}": Start(rank=float(-10 + i)) for i in range(5)}


@pytest.mark.parametrize("name", ["ffg", "ffg-old"])
def test_a_french_ladder_needs_the_period_links(name: str) -> None:
    system = get_system(name)
    assert system.period_wide
    whole = _rows(system, CLOSED_BY_ANOTHER_PAIR, STARTS, 3)
    assert _linked_rows(system, CLOSED_BY_ANOTHER_PAIR, STARTS, 3, True) == whole
    assert _linked_rows(system, CLOSED_BY_ANOTHER_PAIR, STARTS, 3, False) != whole, (
        "players alone miss the close"
    )


def test_players_link_events_through_others_and_periods_only_when_asked() -> None:
    events = [*CLOSED_BY_ANOTHER_PAIR, Adjustment(DAY, "p4", -3.0), _club("p5", "p6")]
    first, second = _players(events)
    assert connected_events(events, first, second, 0, False) == [0, 3]
    assert connected_events(events, first, second, 1, False) == [1, 2, 4]
    assert connected_events(events, first, second, 0, True) == [0, 1, 2, 3, 4, 5], "one club night"
    assert connected_events(events, first, second, 5, False) == [5], "p5-p6 meet nobody else"
