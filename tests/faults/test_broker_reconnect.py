"""A worker that loses its broker sweeps the dirty lists when it reconnects.

A sheet saved while Redis is down is saved (its recompute message could not
be published, so the list stays dirty), and no later save re-sends it. The
real worker of this test, on a private Redis that is stopped and started
again, must bring the list up to date by itself once the broker is back,
with no periodic sweep (no beat runs here) and no further save.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ratings.models import RatingList
from tests.faults.machinery import (
    FAULT_SUITE,
    Tally,
    Volunteer,
    celery_worker,
    list_caught_up,
    private_redis,
    redis_answers,
    seed,
    sheet,
    site_database_url,
    site_env,
    wait_for,
    web_server,
)

pytestmark = FAULT_SUITE


@pytest.mark.django_db(transaction=True)
def test_a_sheet_saved_while_redis_is_down_is_rated_once_the_worker_reconnects(tmp_path: Path) -> None:
    seeded = seed("reconnect", volunteers=1, players=6)
    tally = Tally()
    with private_redis(tmp_path) as redis:
        env = site_env(site_database_url(), redis.url, "reconnect")
        with celery_worker(env, tmp_path / "worker.log"), web_server(env, tmp_path / "web.log") as server:
            volunteer = Volunteer(server, seeded["sessions"][0], tally)
            assert (
                volunteer.post("/sheets/new/", sheet(seeded["club"], seeded["players"], 0, 0)).status == 302
            )
            wait_for(lambda: list_caught_up(seeded["list"]), 60, "the first sheet to be rated")

            redis.stop()
            assert not redis_answers(redis.port)
            assert (
                volunteer.post("/sheets/new/", sheet(seeded["club"], seeded["players"], 0, 1)).status == 302
            )
            assert RatingList.objects.get(pk=seeded["list"]).dirty_from is not None, (
                "saved while Redis was down"
            )

            redis.start()
            wait_for(
                lambda: list_caught_up(seeded["list"]),
                60,
                "the reconnected worker to rate the sheet saved during the outage",
                every=0.1,
            )
    assert tally.statuses() == {302: 2}
