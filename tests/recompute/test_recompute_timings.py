"""What a run spent its time on (``measure.timings``, which
bench/recompute.py prints step by step): every step a late game's run
takes adds its own time, none more than the run took."""

from __future__ import annotations

import pytest

from ratings import recompute
from ratings.models import Club, Game, Player
from ratings.recompute.measure import timings
from tests.recompute.test_recompute_changed import OPTIONS, logged
from tests.recompute.test_recompute_changed import history as history
from tests.recompute.test_recompute_changed import players as players
from tests.recompute.test_recompute_statements import late_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("cause", [True, False], ids=["entered-by-the-sheet-service", "no-log-entry"])
def test_a_late_games_run_adds_the_time_of_each_of_its_steps(
    cause: bool,
    club: Club,
    players: list[Player],
    history: list[Game],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    late_game(club, players, monkeypatch)
    if cause:
        # The log entry the sheet service writes with the game: the run's
        # cause, whose ripple (the later results it changed) is looked for.
        logged(Game.objects.latest("entered_at"))
    before = dict(timings)
    run = recompute.recompute_list(club.rating_list_id, options=OPTIONS)
    assert run is not None and not run.full
    added = {
        step: timings[step] - before.get(step, 0.0) for step in ("load", "engine", "write", "ripple", "index")
    }
    assert all(added[step] > 0 for step in ("load", "engine", "write")), added
    if cause:
        assert added["ripple"] > 0, "the entered game's ripple is looked for in the replaced rows"
    else:
        assert added["ripple"] == 0, "no log entry, no cause: the ripple is not looked for"
    assert added["index"] == 0, "a late game's small rewrite keeps the indexes"
    run.refresh_from_db()
    assert run.duration is not None
    assert all(added[step] <= run.duration for step in added), (added, run.duration)
