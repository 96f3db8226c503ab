"""In a mutation run each test builds the SAGC lookup tables again
(tests/conftest.py, pytest_runtest_setup): tables built by an earlier test
from the rules as written would hide a rule's mutant from the fast loop."""

from __future__ import annotations

from typing import Any

import pytest

from ratings.engine.sagc_tables import lookup_tables
from tests import conftest


@pytest.mark.parametrize("mutation_run", [True, False])
def test_a_mutation_runs_test_builds_the_tables_again(
    mutation_run: bool, request: pytest.FixtureRequest, monkeypatch: Any
) -> None:
    monkeypatch.setattr(conftest, "MUTATION_RUN", mutation_run)
    before = lookup_tables(3)
    conftest.pytest_runtest_setup(request.node)
    assert (lookup_tables(3) is not before) is mutation_run
