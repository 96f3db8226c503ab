"""The recompute's tests in a mutation run (docs/testing.md, "The
recompute"): the list's evaluation after each recompute is left out.

Every recompute announces the clean list (``list_recomputed``), and without
a broker the prediction figures (``ratings.predictions``) are computed at
once: every system of the list replays the whole history again.  In a
mutation run the engine is pure and every call goes through mutmut's
trampolines, and that evaluation took most of the recompute tests' time in
mutmut's stats step (over 12 minutes of one core before it was left out).
It is not the recompute: its own tests (``tests/committee``) and
``test_the_prediction_figures_follow_the_signal`` (marked ``evaluation``,
which keeps it) test it, in every run.  Outside a mutation run nothing
changes."""

from __future__ import annotations

import pytest

from ratings import predictions
from tests.support import MUTATION_RUN


@pytest.fixture(autouse=True)
def _no_evaluation_in_a_mutation_run(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if MUTATION_RUN and request.node.get_closest_marker("evaluation") is None:
        monkeypatch.setattr(predictions, "schedule", lambda rating_list_id, force=False: None)
