"""Why a game moved each player's rating, in every system of its list.

The history stores only before, change and after; the terms a change was
computed from come from the engine, which explains on demand
(``rate(..., explain=True)``).  So the game's rating period is replayed,
with the explanations of the game alone (``explain_only``): the list's
timeline from the period's start through its end (period_bounds), and no
further, and of it only the events linked to the game through players (and
in the French ladders through the period: ratings/engine/linked.py), from
their players' states at the period's start.  Those states are rebuilt from
the stored history (each player's last row before the period, and in SAGC
and the French ladders the games of a few of their rows:
ratings/recompute/stored.py); a system whose rows do not settle some
player's state replays instead the whole period from the
latest checkpoint at or before the period's start.  Each explained row is
checked against the stored history: what the page shows as "after" is what
the record sheet shows.

A list with a recompute pending from on or before the game's period has no
explanation yet ("ratings are being updated"): its stored history and its
checkpoints may be stale there.  A forfeit is not replayed at all: no
system rates it.
"""

from __future__ import annotations

import logging
import math
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from enum import Enum
from typing import Any

from ratings import models as m
from ratings.engine import SYSTEM_LABELS
from ratings.engine.base import Event, Ledger, RatingSystem, Start
from ratings.engine.linked import connected_events
from ratings.presentation.tables import unit_of
from ratings.recompute import (
    Timeline,
    checkpoint_state,
    checkpoints_at,
    earlier_states,
    gc_paused,
    list_systems,
    load_timeline,
    period_bounds,
    resume_date,
    sheet_events,
    states_before,
)

log = logging.getLogger(__name__)

#: How close a replayed value must be to the stored one (both are the same
#: computation's doubles; the margin only absorbs a database's rounding).
SAME = 1e-9


class Status(str, Enum):
    EXPLAINED = "explained"
    #: A recompute is pending from on or before the game's period.
    PENDING = "pending"
    #: A forfeit: no system rates it.
    FORFEIT = "forfeit"


@dataclass(frozen=True, slots=True)
class Side:
    """One player's row of the game in one system, as the replay computed
    it, with the terms it was computed from."""

    player: m.Player
    #: "w" or "b".
    colour: str
    rank_before: float
    rating_before: float
    change: float
    rank_after: float
    rating_after: float
    #: The named terms (empty when the system does not rate the game).
    terms: Mapping[str, Any]
    formula: str
    #: Why the game changes nothing in this system (None: it is rated).
    reason: str | None
    #: The stored history row agrees with the replay (before and after).
    stored: bool


@dataclass(frozen=True, slots=True)
class SystemExplanation:
    system: str
    label: str
    #: The name of the system's rating ("index", "GoR", "level", "strength").
    unit: str
    white: Side
    black: Side

    @property
    def sides(self) -> tuple[Side, Side]:
        return (self.white, self.black)


@dataclass(frozen=True)
class GameExplanation:
    game: m.Game
    status: Status
    #: Primary system first, as the list computes them.
    systems: list[SystemExplanation] = field(default_factory=list)

    @property
    def consistent(self) -> bool:
        """Every row agrees with the stored history."""
        return all(side.stored for each in self.systems for side in each.sides)


def _pending_from(rating_list: m.RatingList, day: date) -> bool:
    """A recompute is pending from ``day`` or earlier."""
    return rating_list.dirty_from is not None and rating_list.dirty_from <= day


def explain_game(game: m.Game) -> GameExplanation:
    """``game`` (with its rating list, players loaded) explained in every
    system of its list; see the module's docstring.

    The garbage collector is paused meanwhile: the rows, games and states
    read make no cycles, and a collection walks every object alive (at a
    million games a page of 270 players took 55-60 ms of CPU without one
    and 110-125 with, one time in two or three, measured)."""
    with gc_paused():
        return _explain(game)


def _explain(game: m.Game) -> GameExplanation:
    rating_list = game.rating_list
    if game.forfeit:
        return GameExplanation(game, Status.FORFEIT)
    if _pending_from(rating_list, game.date):
        return GameExplanation(game, Status.PENDING)
    events = sheet_events(rating_list)  # read once: the period's bounds and the timeline
    start, end = period_bounds(rating_list, game.date, events)
    if _pending_from(rating_list, end):
        return GameExplanation(game, Status.PENDING)
    stored = {
        (row.system, row.player_id): row
        for row in m.HistoryEntry.objects.filter(game=game).only(
            "system", "player_id", "rank_before", "rating_before", "rank_after", "rating_after"
        )
    }
    systems = list_systems(rating_list)
    names = [name for name, _ in systems]
    if any((name, pk) not in stored for name in names for pk in (game.white_id, game.black_id)):
        return GameExplanation(game, Status.PENDING)  # never computed yet
    timeline = load_timeline(rating_list, start, until=end, events=events)
    if game.pk not in timeline.game_ids:
        return GameExplanation(game, Status.PENDING)  # changed since it was read
    at = timeline.game_ids.index(game.pk)
    # Each system replays only the events linked to the game (linked.py),
    # from their players' states at the period's start: the stored
    # history's, where its rows settle them (stored.py), else the whole
    # period from a checkpoint.
    stretches = {wide: _Stretch.of(timeline, at, wide) for wide in {s.period_wide for _, s in systems}}
    states: dict[str, Any] = {}
    for wide, stretch in stretches.items():
        group = [(name, system) for name, system in systems if system.period_wide == wide]
        earlier = earlier_states(rating_list, group, start, stretch.players)
        states |= states_before(group, start, stretch.players, timeline.starts, earlier)
    replayed: _Replayed | None = None
    explained = []
    for name, system in systems:
        state = states[name]
        if state is not None:
            stretch = stretches[system.period_wide]
            row = stretch.at
            ledger, explanations = _replay(system, stretch.events, timeline.starts, state, 0, row)
        else:
            row = at
            replayed = replayed or _Replayed.read(rating_list, names, start, end, events)
            ledger, explanations = replayed.explain(name, system, at)
        sides = [
            _side(game, ledger, explanations, row, colour, stored[(name, player.pk)])
            for colour, player in enumerate((game.white, game.black))
        ]
        explained.append(SystemExplanation(name, SYSTEM_LABELS.get(name, name), unit_of(name), *sides))
    result = GameExplanation(game, Status.EXPLAINED, explained)
    if not result.consistent:
        log.warning("game %s: the replay differs from the stored history", game.pk)
    return result


@dataclass(frozen=True, slots=True)
class _Stretch:
    """The events of the game's period linked to it (linked.py), and their
    players."""

    events: list[Event]
    players: set[Any]
    #: The game's place among ``events``.
    at: int

    @classmethod
    def of(cls, timeline: Timeline, at: int, period_wide: bool) -> _Stretch:
        chosen = connected_events(timeline.events, timeline.first, timeline.second, at, period_wide)
        players = {timeline.first[i] for i in chosen} | {timeline.second[i] for i in chosen}
        players.discard(None)
        return cls([timeline.events[i] for i in chosen], players, chosen.index(at))


@dataclass
class _Replayed:
    """The list's timeline from the latest checkpoint at or before the
    period's start through its end, and the checkpoints there: the states
    at the period's start of a system whose stored rows do not settle them."""

    timeline: Timeline
    checkpoints: Mapping[str, m.RatingCheckpoint]
    #: The period's first event in the timeline.
    first: int
    #: The players of the replayed events: only they need their checkpoint state.
    players: set[Any]

    @classmethod
    def read(
        cls,
        rating_list: m.RatingList,
        names: Sequence[str],
        start: date,
        end: date,
        events: Mapping[int, str],
    ) -> _Replayed:
        resume = resume_date(rating_list, names, start)
        timeline = load_timeline(rating_list, resume, until=end, events=events)
        return cls(
            timeline,
            checkpoints_at(rating_list, names, resume),
            bisect_left(timeline.days, start),
            {*timeline.first, *timeline.second},
        )

    def explain(self, name: str, system: RatingSystem, at: int) -> tuple[Ledger, Sequence[Any]]:
        """The period explained in ``system`` (its event ``at`` only),
        replayed from the checkpoint."""
        timeline = self.timeline
        state = checkpoint_state(system, self.checkpoints.get(name), self.players)
        ledger, explanations = _replay(system, timeline.events, timeline.starts, state, self.first, at)
        return ledger, explanations


def _replay(
    system: RatingSystem,
    events: Sequence[Event],
    starts: Mapping[Any, Start],
    state: Mapping[Any, Any] | None,
    first: int,
    at: int,
) -> tuple[Ledger, Sequence[Any]]:
    """The events up to ``first`` plainly (a period boundary), the rest
    replayed with the explanations of their event ``at`` only (the page's
    game; counted from ``first``): the replayed stretch's ledger and
    explanations."""
    if first:
        state = system.rate(events[:first], state=state, starts=starts).state
    result = system.rate(
        events[first:], state=state, starts=starts, explain=True, explain_only=frozenset({at})
    )
    assert result.explanations is not None
    return result.ledger, result.explanations


def _side(
    game: m.Game, ledger: Ledger, explanations: Sequence[Any], at: int, colour: int, row: m.HistoryEntry
) -> Side:
    slot = 2 * at + colour
    explanation = explanations[slot]
    terms: Mapping[str, Any] = explanation.terms if explanation is not None else {}
    reason = terms.get("reason")
    values = (
        ledger.rank_before[slot],
        ledger.rating_before[slot],
        ledger.rank_after[slot],
        ledger.rating_after[slot],
    )
    stored = (row.rank_before, row.rating_before, row.rank_after, row.rating_after)
    return Side(
        player=game.white if colour == 0 else game.black,
        colour="wb"[colour],
        rank_before=values[0],
        rating_before=values[1],
        change=ledger.change[slot],
        rank_after=values[2],
        rating_after=values[3],
        terms={} if reason else terms,
        formula="" if explanation is None or reason else explanation.formula,
        reason=str(reason) if reason else None,
        stored=all(
            math.isclose(a, b, rel_tol=0.0, abs_tol=SAME) for a, b in zip(values, stored, strict=True)
        ),
    )
