"""The SAGC replay's lookup tables (ratings.engine.sagc_tables): built from
the rules once per process, the same tables for every SAGC of a bound, and
each entry the rule's own value."""

from __future__ import annotations

from ratings.engine.base import Kind
from ratings.engine.ranks import MAX_RANK, MIN_RANK
from ratings.engine.sagc import SAGC
from ratings.engine.sagc_rules import (
    HISTORY,
    NO_LIMIT,
    RESULT_HUNDREDTHS,
    STATUS_HALVES,
    level_units,
    loss_limit,
    opponent_tenths,
)
from ratings.engine.sagc_tables import lookup_tables


def test_the_tables_are_built_once_per_bound_until_forgotten() -> None:
    three, four = lookup_tables(3), lookup_tables(4)
    assert three is not four
    assert lookup_tables(3) is three and lookup_tables(4) is four
    lookup_tables.cache_clear()
    again = lookup_tables(3)
    assert again is not three and again == three


def test_every_sagc_reads_the_tables_of_its_bound() -> None:
    assert SAGC()._tables is lookup_tables(3)
    assert SAGC(beyond_three_rows=True)._tables is lookup_tables(4)


def test_each_entry_is_its_rules_value() -> None:
    tables = lookup_tables(3)
    for rank in range(MIN_RANK, MAX_RANK + 1):
        first = loss_limit(rank, 0)
        assert tables.first_limit[rank] == (NO_LIMIT if first is None else first), rank
        for k in range(1000):
            limit = loss_limit(rank, -k)
            assert tables.negative_limit[rank][k] == (NO_LIMIT if limit is None else limit), (rank, k)
        for kind in Kind:
            assert tables.level_status_opponent[kind][rank] == [
                float(level_units(rank) * STATUS_HALVES[kind] * opponent_tenths(n))
                for n in range(HISTORY + 1)
            ], (rank, kind)


def test_the_result_rows_are_read_by_differential_up_to_the_bound() -> None:
    for bound in (3, 4):
        tables = lookup_tables(bound)
        for differential in range(-4, 5):
            row = RESULT_HUNDREDTHS[max(-bound, min(bound, differential))]
            read = (
                tables.win_promo[differential],
                tables.loss_promo[differential],
                tables.win_demo[differential],
                tables.loss_demo[differential],
            )
            assert read == tuple(float(value) for value in row), (bound, differential)
