"""Before every game, each system's probability that White wins it.

:func:`evaluate` rates the events with each system (the engine's
``rate()``), reads from the ledger each player's standing as it was known
*before* the game, and turns the two standings and the game's handicap and
komi into P(White wins):

* EGF (current and pre-2021): the system's own Se
  (:func:`ratings.evaluation.readings.se_probability`);
* SAGC, the FFG ladders, West Surrey: a logistic curve of the strength
  difference less the handicap, fitted walk-forward
  (:class:`ratings.evaluation.fit.WalkForward`);
* baseline ``even``: always 50 %;
* baseline ``ranks``: the same fitted curve on the players' declared ranks
  (their start rank, changed only by committee adjustments), with the EGF
  reading of the handicap.

"Known before the game".  SAGC and West Surrey rate game by game: the
ledger's ``rating_before`` is it.  EGF and the FFG ladders rate a period (a
tournament, a club's day) at once from the ratings its players had when it
began, and the FFG corrects those start levels with the whole period's
results; so for them a player's standing before a game is the one they
left their previous period with (``rating_after`` of the last row of their
previous run of games under another period key, or of their last
adjustment), and before their first period their entry rating (the
start's rating, else their rank in the system's unit).  That is also the
rating the EGF's Se of the game uses.

Forfeits are not predicted (nobody played); every other game is, rated or
not by the system (free games, small boards), so that every predictor is
scored on the same games.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from ratings.engine import SYSTEM_NAMES, get_system
from ratings.engine.base import Adjustment, Event, Game, Ledger, PlayerId, Start, Winner, period_key
from ratings.engine.egf_rules import FLOOR as EGF_FLOOR
from ratings.engine.ffg_common import CEILING as FFG_CEILING
from ratings.engine.ffg_common import clamp_start
from ratings.engine.ranks import rank_to_ffg, rank_to_gor
from ratings.evaluation.fit import PRIOR, LogisticCurve, Prior, WalkForward
from ratings.evaluation.readings import (
    FITTED_SYSTEMS,
    SE_SYSTEMS,
    advantage,
    egf_advantage,
    se_probability,
    strength,
)

__all__ = ["BASELINES", "PREDICTORS", "Evaluation", "evaluate", "outcome"]

#: The two baselines, named like systems in every table.
BASELINES: Final = ("even", "ranks")
#: Every predictor: the systems, then the baselines.
PREDICTORS: Final = (*SYSTEM_NAMES, *BASELINES)
#: Systems that rate a period at once (base.period_key).
PERIOD_SYSTEMS: Final = frozenset({"egf", "egf-old", "ffg", "ffg-old"})
#: No period key yet (a player's first game).
_NONE: Final = object()


def outcome(winner: Winner) -> float:
    """1 when White won, 0 when Black did, 0.5 for a jigo."""
    return 1.0 if winner is Winner.WHITE else 0.0 if winner is Winner.BLACK else 0.5


@dataclass(slots=True)
class Evaluation:
    """The games predicted and, per predictor, P(White wins) for each.

    ``indexes`` are the games' positions in the events given; ``ranks``
    the (White, Black) declared ranks before each game, None when a player
    has none (the bands of :mod:`ratings.evaluation.report` use them).
    ``curves`` holds the curve each fitted predictor ends with, fitted on
    every game (what a new pairing would be predicted with).
    """

    games: list[Game] = field(default_factory=list)
    indexes: list[int] = field(default_factory=list)
    outcomes: list[float] = field(default_factory=list)
    ranks: list[tuple[float | None, float | None]] = field(default_factory=list)
    probabilities: dict[str, list[float]] = field(default_factory=dict)
    curves: dict[str, LogisticCurve] = field(default_factory=dict)


def _entry_rating(system: str, start: Start | None) -> float | None:
    """A period system's rating for a player before their first period.

    The start's rating, else the rank in the system's unit (EGF: 1d = 2100;
    FFG: 1d = 50), within the system's bounds.  None when unknown (the
    player came in through an adjustment; its row is read instead).
    """
    if start is None:
        return None
    if system in ("egf", "egf-old"):
        value = start.rating if start.rating is not None else rank_to_gor(start.rank or 0.0)
        return max(value, EGF_FLOOR)
    value = start.rating if start.rating is not None else rank_to_ffg(start.rank or 0.0)
    return clamp_start(value, FFG_CEILING if system == "ffg" else None)


def _standings(
    system: str,
    events: Sequence[Event],
    starts: Mapping[PlayerId, Start],
    ledger: Ledger,
) -> Callable[[int], tuple[float, float]]:
    """A function giving, for event ``k`` (a game), the strengths of White
    and Black known before it, as stones (:func:`readings.strength`);
    EGF ratings are kept as GoR (their Se reads GoR)."""
    before_rank, before, after = ledger.rank_before, ledger.rating_before, ledger.rating_after
    if system not in PERIOD_SYSTEMS:

        def by_row(k: int) -> tuple[float, float]:
            slot = 2 * k
            return (
                strength(system, before_rank[slot], before[slot]),
                strength(system, before_rank[slot + 1], before[slot + 1]),
            )

        return by_row

    known: dict[PlayerId, float] = {}  # the rating a player left their previous run with
    run_key: dict[PlayerId, Hashable] = {}  # the period key of their current run
    last_after: dict[PlayerId, float] = {}  # rating_after of their latest row in the run
    values: dict[int, tuple[float, float]] = {}
    for k, event in enumerate(events):
        if isinstance(event, Adjustment):
            known[event.player] = after[2 * k]
            run_key.pop(event.player, None)
            last_after.pop(event.player, None)
            continue
        key = period_key(event)
        pair: list[float] = []
        for slot, player in ((2 * k, event.white), (2 * k + 1, event.black)):
            if run_key.get(player, _NONE) != key:
                if player in last_after:
                    known[player] = last_after.pop(player)
                run_key[player] = key
            if player not in known:
                entry = _entry_rating(system, starts.get(player))
                known[player] = before[slot] if entry is None else entry
            pair.append(known[player])
            last_after[player] = after[slot]
        values[k] = (pair[0], pair[1])

    if system in SE_SYSTEMS:
        return values.__getitem__

    def scaled(k: int) -> tuple[float, float]:
        w, b = values[k]
        return strength(system, math.nan, w), strength(system, math.nan, b)

    return scaled


def _declared_ranks(
    events: Sequence[Event], starts: Mapping[PlayerId, Start]
) -> list[tuple[float | None, float | None]]:
    """Per event, the (White, Black) declared ranks before it: the start
    rank, then the rank of each committee adjustment (None: no rank known,
    a start given as a rating only)."""
    rank: dict[PlayerId, float | None] = {p: s.rank for p, s in starts.items()}
    out: list[tuple[float | None, float | None]] = []
    for event in events:
        if isinstance(event, Adjustment):
            out.append((rank.get(event.player), None))
            rank[event.player] = event.rank
            continue
        out.append((rank.get(event.white), rank.get(event.black)))
    return out


def evaluate(
    events: Sequence[Event],
    starts: Mapping[PlayerId, Start],
    systems: Sequence[str] = SYSTEM_NAMES,
    prior: Prior = PRIOR,
    settings: Mapping[str, Mapping[str, object]] | None = None,
) -> Evaluation:
    """Every predictor's P(White wins) for every game of ``events`` but forfeits.

    ``systems`` are system names (each rated with ``settings[name]``, if
    given); the two baselines are always added.  The engine's errors
    (``InvalidEvent``, ``UnknownPlayer``) pass through, naming the event.
    """
    for name in systems:
        if name not in SYSTEM_NAMES:
            raise ValueError(f"unknown rating system {name!r}; choose among {', '.join(SYSTEM_NAMES)}")
    played = [k for k, e in enumerate(events) if isinstance(e, Game) and not e.forfeit]
    games = [e for e in (events[k] for k in played) if isinstance(e, Game)]
    result = Evaluation(games=games, indexes=played, outcomes=[outcome(g.winner) for g in games])
    declared = _declared_ranks(events, starts)
    result.ranks = [declared[k] for k in played]

    for name in systems:
        system = get_system(name, **dict((settings or {}).get(name, {})))
        ledger = system.rate(events, starts=starts).ledger
        standing = _standings(name, events, starts, ledger)
        if name in SE_SYSTEMS:
            result.probabilities[name] = [
                se_probability(name, *standing(k), g.handicap) for k, g in zip(played, games, strict=True)
            ]
            continue
        assert name in FITTED_SYSTEMS
        walk = WalkForward(prior)
        probabilities = []
        for k, g, y in zip(played, games, result.outcomes, strict=True):
            w, b = standing(k)
            x = w - b - advantage(name, g.handicap, g.komi)
            probabilities.append(walk.probability(x))
            walk.observe(x, y)
        result.probabilities[name] = probabilities
        result.curves[name] = walk.final_curve()

    result.probabilities["even"] = [0.5] * len(games)
    walk = WalkForward(prior)
    probabilities = []
    for (rw, rb), g, y in zip(result.ranks, games, result.outcomes, strict=True):
        if rw is None or rb is None:
            probabilities.append(0.5)  # no declared rank: nothing to go on
            continue
        x = rw - rb - egf_advantage(g.handicap, g.komi)
        probabilities.append(walk.probability(x))
        walk.observe(x, y)
    result.probabilities["ranks"] = probabilities
    result.curves["ranks"] = walk.final_curve()
    return result
