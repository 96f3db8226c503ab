"""The ledger a replay writes (base.LedgerColumns) and the one it returns (base.Ledger)."""

from __future__ import annotations

import math
import pickle
from array import array

import pytest

from ratings.engine import get_system
from ratings.engine.base import BLACK, WHITE, Ledger, LedgerColumns, Row
from ratings.synthetic import synthetic_history

COLUMNS = ("rank_before", "rating_before", "change", "rank_after", "rating_after")


def test_every_slot_is_empty_until_written() -> None:
    columns = LedgerColumns(3)
    ledger = columns.ledger()
    assert len(ledger) == 3
    for name in COLUMNS:
        column = getattr(ledger, name)
        assert isinstance(column, array) and column.typecode == "d"
        assert len(column) == 6 and all(math.isnan(x) for x in column)
    assert ledger.row(1, BLACK) is None


def test_the_written_values_come_back_in_their_slots() -> None:
    columns = LedgerColumns(2)
    for k, name in enumerate(COLUMNS):
        getattr(columns, name)[3] = -1.5 * (k + 1)
    columns.rank_before[0] = -12  # an int is stored as a double, as in an array
    ledger = columns.ledger()
    assert ledger.row(1, BLACK) == Row(-1.5, -3.0, -4.5, -6.0, -7.5)
    assert ledger.rank_before[0] == -12.0 and math.isnan(ledger.change[0])
    assert ledger.row(0, WHITE) is None  # change still empty: no row
    for name in COLUMNS:  # handed over: the vectors are emptied, one at a time
        assert len(getattr(columns, name)) == 0


def test_a_column_refuses_what_is_not_a_number() -> None:
    columns = LedgerColumns(1)
    with pytest.raises(TypeError):
        columns.change[0] = "12"  # type: ignore[assignment]  # the wrong type on purpose
    with pytest.raises(IndexError):
        columns.change[2] = 1.0


def test_the_returned_ledger_is_a_plain_value() -> None:
    events, starts = synthetic_history(300, players=40, seed=3)
    ledger = get_system("ffg").rate(events, starts=starts).ledger
    again = pickle.loads(pickle.dumps(ledger))
    assert isinstance(again, Ledger)
    for name in COLUMNS:
        assert getattr(again, name).tobytes() == getattr(ledger, name).tobytes()
    assert sum(1 for i in range(len(ledger)) if ledger.row(i) is not None) == len(events)
