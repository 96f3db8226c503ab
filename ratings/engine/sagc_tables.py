"""The SAGC replay's lookup tables, built from the rules of
:mod:`ratings.engine.sagc_rules`: the loop of :class:`ratings.engine.sagc.SAGC`
reads a factor's product or a demotion limit from a list instead of calling
the rule for every game (the rules stay the only statement of each rule)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from ratings.engine.base import Kind
from ratings.engine.ranks import MAX_RANK, MIN_RANK
from ratings.engine.sagc_rules import (
    HISTORY,
    NO_LIMIT,
    RESULT_HUNDREDTHS,
    STATUS_HALVES,
    clamped,
    level_units,
    loss_limit,
    opponent_tenths,
)

_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class LookupTables:
    """What the replay loop reads instead of calling the rules, built from
    them (:func:`lookup_tables`).  Shared by every SAGC of the process and
    never written after they are built."""

    #: LF x GSF x OF in units (level_units x STATUS_HALVES x
    #: opponent_tenths) by [rank][games against the opponent], one table per
    #: kind: whole numbers held in doubles (exact below 2^53, see
    #: rounded_change).
    level_status_opponent: dict[Kind, list[list[float]]]
    #: The demotion restrictions (loss_limit): the limit of a loss from a
    #: non-negative index by rank, and from index -k by [rank][k]; NO_LIMIT
    #: where a loss may demote.
    first_limit: list[int]
    negative_limit: list[list[int]]
    #: Game Result Factor in hundredths by differential, for won/lost and
    #: promotion/demotion zone.
    win_promo: list[float]
    loss_promo: list[float]
    win_demo: list[float]
    loss_demo: list[float]


@functools.cache
def lookup_tables(bound: int) -> LookupTables:
    """The replay's lookup tables for differentials clamped to ``bound``,
    built once per process: building them calls the demotion rule 39,000
    times (10 ms compiled, which every direct ``get_system("sagc")`` paid
    before).  ``lookup_tables.cache_clear()`` drops them, for mutation
    testing (tests/conftest.py), where each test must build them with the
    rule under test changed."""
    return _build_tables(bound)


def _build_tables(bound: int) -> LookupTables:
    # Tables are indexed with Python's negative indexes so that the loop
    # reads them by rank (-30..8) and by differential (-4..4) directly:
    # _by_rank(f)[r] == f(r); the result rows likewise by differential.
    level_status_opponent = {
        kind: _by_rank(
            lambda r, kind=kind: [  # type: ignore[misc]  # mypy infers no type for a lambda with a default
                float(level_units(r) * STATUS_HALVES[kind] * opponent_tenths(n)) for n in range(HISTORY + 1)
            ]
        )
        for kind in Kind
    }
    rows = [RESULT_HUNDREDTHS[clamped(d, bound)] for d in range(0, 5)] + [
        RESULT_HUNDREDTHS[clamped(d, bound)] for d in range(-4, 0)
    ]
    return LookupTables(
        level_status_opponent=level_status_opponent,
        first_limit=_by_rank(lambda r: _limit_or_none(r, 0)),
        negative_limit=_by_rank(lambda r: [_limit_or_none(r, -k) for k in range(1000)]),
        win_promo=[float(row[0]) for row in rows],
        loss_promo=[float(row[1]) for row in rows],
        win_demo=[float(row[2]) for row in rows],
        loss_demo=[float(row[3]) for row in rows],
    )


def _by_rank(function: Callable[[int], _T]) -> list[_T]:
    """A table read as table[rank] for ranks -30..8: ranks 0..8 first, then
    -30..-1, which Python's negative indexes reach from the end."""
    return [function(r) for r in range(0, MAX_RANK + 1)] + [function(r) for r in range(MIN_RANK, 0)]


def _limit_or_none(rank: int, index: int) -> int:
    limit = loss_limit(rank, index)
    return NO_LIMIT if limit is None else limit
