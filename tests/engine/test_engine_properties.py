"""Properties every registered rating system must have (the engine contract).

For each name in ``SYSTEM_NAMES``, on random small histories (hypothesis) and
on a synthetic one:

* ranks stay in bounds and ratings are finite;
* every player of every rated game gets a row;
* ``rate()`` does not mutate the state, the starts or the events it is given;
* resuming from ``result.state`` at a day boundary (a period boundary: all
  games of the day on one side) gives exactly the rows of a full replay, and
  the same final states;
* ``state_from_json(to_json())`` rebuilds every state, through real JSON, and
  resuming from rebuilt states changes nothing;
* the same input gives the same output.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from datetime import date, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.engine import SYSTEM_NAMES, get_system
from ratings.engine.base import (
    Adjustment,
    Event,
    Game,
    Kind,
    Ledger,
    PlayerId,
    RatingSystem,
    Result,
    Start,
    Winner,
)
from ratings.engine.ranks import MAX_RANK, MIN_RANK
from ratings.synthetic import synthetic_history
from tests.support import examples

# Rank bounds by system.  West Surrey's ladder has rungs from 40k to 9.9d
# (the West Surrey ladder page, "The rungs"); every other system stays within 30k..9d.
BOUNDS: Mapping[str, tuple[float, float]] = {"west-surrey": (-40.0, 8.9)}
SETTINGS = settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
History = tuple[list[Event], dict[PlayerId, Start]]


@pytest.fixture(scope="module", params=SYSTEM_NAMES)
def system(request: pytest.FixtureRequest) -> RatingSystem:
    name: str = request.param
    return get_system(name)


# --- histories --------------------------------------------------------------


@st.composite
def histories(draw: st.DrawFn) -> History:
    """A few days of games among a few players, in timeline order.

    Each day has an optional committee adjustment first, then an optional
    tournament (one named event, one class), then club-night games (club,
    internet, free).  Handicaps 0-9 (komi 0.5), even games with komi 6.5,
    reverse komi or an integer komi (jigo possible then), small boards,
    rapid games, the odd forfeit.
    """
    players = list(range(draw(st.integers(2, 7))))
    starts: dict[PlayerId, Start] = {
        p: Start(rank=float(draw(st.integers(MIN_RANK, MAX_RANK)))) for p in players
    }
    events: list[Event] = []
    day = date(2023, 1, 7)
    pair = st.lists(st.sampled_from(players), min_size=2, max_size=2, unique=True)
    for d in range(draw(st.integers(1, 5))):
        day += timedelta(days=draw(st.integers(1, 10)))
        if draw(st.integers(0, 5)) == 0:
            events.append(
                Adjustment(day, draw(st.sampled_from(players)), float(draw(st.integers(MIN_RANK, MAX_RANK))))
            )
        blocks = draw(st.sampled_from([("club",), ("tournament",), ("tournament", "club")]))
        for block in blocks:
            event = f"Open {d}" if block == "tournament" else None
            event_class = draw(st.sampled_from("ABCD")) if event else None
            for _ in range(draw(st.integers(1, 5))):
                white, black = draw(pair)
                handicap = draw(st.sampled_from([0, 0, 0, 1, 2, 3, 5, 9]))
                komi = 0.5 if handicap else draw(st.sampled_from([6.5, 6.5, 0.5, 7.5, -5.5, 6.0, 0.0]))
                winners = [Winner.WHITE, Winner.BLACK] + ([Winner.JIGO] if komi == int(komi) else [])
                kind = (
                    Kind.TOURNAMENT
                    if event
                    else draw(st.sampled_from([Kind.CLUB, Kind.CLUB, Kind.INTERNET, Kind.FREE]))
                )
                events.append(
                    Game(
                        day,
                        white,
                        black,
                        draw(st.sampled_from(winners)),
                        handicap,
                        komi,
                        kind,
                        board=draw(st.sampled_from([19, 19, 19, 13, 9])),
                        minutes=draw(st.sampled_from([None, None, 10, 60])),
                        event=event,
                        event_class=event_class,
                        club="club" if event is None else None,
                        forfeit=draw(st.integers(0, 19)) == 0,
                    )
                )
    return events, starts


def day_boundaries(events: Sequence[Event]) -> list[int]:
    """Cut points k where events[k - 1] and events[k] are on different days."""
    return [0] + [k for k in range(1, len(events)) if events[k].date != events[k - 1].date] + [len(events)]


# --- comparing results ------------------------------------------------------


def slots(ledger: Ledger, start: int = 0, stop: int | None = None) -> list[tuple[float | None, ...]]:
    """The ledger's slots ``2 * start .. 2 * stop`` as tuples, NaN as None."""
    stop = len(ledger) if stop is None else stop
    columns = (
        ledger.rank_before,
        ledger.rating_before,
        ledger.change,
        ledger.rank_after,
        ledger.rating_after,
    )
    return [
        tuple(None if math.isnan(column[s]) else column[s] for column in columns)
        for s in range(2 * start, 2 * stop)
    ]


def states(result: Result) -> dict[PlayerId, dict[str, Any]]:
    return {player: state.to_json() for player, state in result.state.items()}


# --- the properties ---------------------------------------------------------


@given(history=histories())
@SETTINGS
def test_ranks_stay_in_bounds_and_every_player_of_every_game_has_a_row(
    system: RatingSystem, history: History
) -> None:
    events, starts = history
    result = system.rate(events, starts=starts)
    low, high = BOUNDS.get(system.name, (float(MIN_RANK), float(MAX_RANK)))
    assert len(result.ledger) == len(events)
    for i, event in enumerate(events):
        for colour, row in enumerate(slots(result.ledger, i, i + 1)):
            if isinstance(event, Game) and not event.forfeit:
                assert None not in row, (i, colour, event, row)
            if isinstance(event, Adjustment) and colour == 0:
                assert row[3] is not None, (i, event, row)
            if None in row:
                continue
            rank_before, rating_before, change, rank_after, rating_after = row
            assert rank_before is not None and rank_after is not None  # no None left in the row
            assert rating_before is not None and change is not None and rating_after is not None
            assert low <= rank_before <= high and low <= rank_after <= high, (i, event, row)
            assert all(math.isfinite(x) for x in (rating_before, change, rating_after)), (i, event, row)
    for state in result.state.values():
        assert low <= state.rank <= high
        assert math.isfinite(state.rating)


@given(history=histories(), data=st.data())
@SETTINGS
def test_rate_mutates_neither_the_state_nor_its_other_arguments(
    system: RatingSystem, history: History, data: st.DataObject
) -> None:
    events, starts = history
    cut = data.draw(st.sampled_from(day_boundaries(events)))
    head = system.rate(events[:cut], starts=starts)
    given_state = head.state
    before = dict(given_state)
    before_json = {p: json.dumps(s.to_json(), sort_keys=True) for p, s in given_state.items()}
    events_before, starts_before = list(events), dict(starts)
    system.rate(events[cut:], state=given_state, starts=starts)
    assert dict(given_state) == before
    assert all(given_state[p] is before[p] for p in before)
    assert {p: json.dumps(s.to_json(), sort_keys=True) for p, s in given_state.items()} == before_json
    assert events == events_before
    assert starts == starts_before


@given(history=histories(), data=st.data())
@SETTINGS
def test_resuming_at_a_day_boundary_gives_the_rows_of_a_full_replay(
    system: RatingSystem, history: History, data: st.DataObject
) -> None:
    events, starts = history
    cut = data.draw(st.sampled_from(day_boundaries(events)))
    full = system.rate(events, starts=starts)
    head = system.rate(events[:cut], starts=starts)
    tail = system.rate(events[cut:], state=head.state, starts=starts)
    assert slots(head.ledger) == slots(full.ledger, 0, cut)
    assert slots(tail.ledger) == slots(full.ledger, cut)
    assert states(tail) == states(full)


@given(history=histories(), data=st.data())
@SETTINGS
def test_states_round_trip_through_json(system: RatingSystem, history: History, data: st.DataObject) -> None:
    events, starts = history
    cut = data.draw(st.sampled_from(day_boundaries(events)))
    head = system.rate(events[:cut], starts=starts)
    rebuilt = {}
    for player, state in head.state.items():
        stored = json.loads(json.dumps(state.to_json()))
        again = system.state_from_json(stored)
        assert again.to_json() == state.to_json()
        assert (again.rank, again.rating) == (state.rank, state.rating)
        rebuilt[player] = again
    from_original = system.rate(events[cut:], state=head.state, starts=starts)
    from_rebuilt = system.rate(events[cut:], state=rebuilt, starts=starts)
    assert slots(from_rebuilt.ledger) == slots(from_original.ledger)
    assert states(from_rebuilt) == states(from_original)


@given(history=histories())
@SETTINGS
def test_the_same_input_gives_the_same_output(system: RatingSystem, history: History) -> None:
    events, starts = history
    first = system.rate(events, starts=starts)
    second = system.rate(list(events), starts=dict(starts))
    third = get_system(system.name).rate(events, starts=starts)
    assert slots(first.ledger) == slots(second.ledger) == slots(third.ledger)
    assert states(first) == states(second) == states(third)


# --- on a realistic synthetic history --------------------------------------


@pytest.fixture(scope="module")
def synthetic() -> History:
    return synthetic_history(3000, players=300, seed=5, clubs=2)


def test_a_synthetic_history_rates_fully_and_resumes_exactly(
    system: RatingSystem, synthetic: History
) -> None:
    events, starts = synthetic
    full = system.rate(events, starts=starts)
    rows = slots(full.ledger)
    for i, event in enumerate(events):
        if isinstance(event, Game):
            assert None not in rows[2 * i] and None not in rows[2 * i + 1], (i, event)
    low, high = BOUNDS.get(system.name, (float(MIN_RANK), float(MAX_RANK)))
    assert all(
        low <= r[0] <= high and low <= r[3] <= high for r in rows if r[0] is not None and r[3] is not None
    )
    boundaries = day_boundaries(events)
    cut = boundaries[len(boundaries) // 2]
    head = system.rate(events[:cut], starts=starts)
    tail = system.rate(events[cut:], state=head.state, starts=starts)
    assert slots(tail.ledger) == slots(full.ledger, cut)
    assert states(tail) == states(full)


def test_every_registered_system_is_tested_here() -> None:
    # The parametrisation follows the public list of names; each must build
    # the system of that name (a renamed module or class fails here).
    for name in SYSTEM_NAMES:
        assert get_system(name).name == name
