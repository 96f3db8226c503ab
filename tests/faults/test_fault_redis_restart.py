"""Fault and load suite: the broker (Redis) is stopped and started
again while volunteers save sheets over HTTP to a real web server with a
real Celery worker. Saves during the outage succeed (the list stays dirty); once Redis is back the worker brings the ratings up to
date, and they equal a full replay. Nothing lost, nothing doubled, no 5xx.

The Redis stopped is a private redis-server of this test, on a port of its
own, never the machine's shared one.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from django.db import connection

from ratings import recompute
from ratings.models import RatingList
from tests.faults.machinery import (
    FAULT_SUITE,
    Clients,
    Tally,
    Volunteer,
    assert_all_saved_once_and_replayed,
    celery_worker,
    figures,
    list_caught_up,
    private_redis,
    redis_answers,
    seed,
    sheet,
    site_database_url,
    site_env,
    think,
    wait_for,
    web_server,
)

pytestmark = FAULT_SUITE

CLIENTS, SHEETS_EACH, GAMES_PER_SHEET = 6, 12, 2
#: The outage lasts at least this long and a third of the saves.
OUTAGE_SECONDS = 3.0


@pytest.mark.django_db(transaction=True)
def test_saves_while_redis_is_down_succeed_and_the_ratings_catch_up_when_it_is_back(tmp_path: Path) -> None:
    seeded = seed("redis", volunteers=CLIENTS, players=20)
    rating_list = RatingList.objects.get(pk=seeded["list"])
    total = CLIENTS * SHEETS_EACH
    tally = Tally()
    with private_redis(tmp_path) as redis:
        env = site_env(site_database_url(), redis.url, "fault-redis")
        with celery_worker(env, tmp_path / "worker.log"), web_server(env, tmp_path / "web.log") as server:

            def client(number: int) -> None:
                volunteer = Volunteer(server, seeded["sessions"][number], tally)
                for n in range(SHEETS_EACH):
                    volunteer.post(
                        "/sheets/new/", sheet(seeded["club"], seeded["players"], number, n, GAMES_PER_SHEET)
                    )
                    think(0.05)

            clients = Clients(CLIENTS, client)
            wait_for(lambda: len(tally.outcomes) >= total // 3, 120, "a third of the saves before the outage")
            down = time.monotonic()
            redis.stop()
            assert not redis_answers(redis.port)
            during = len(tally.outcomes)
            wait_for(
                lambda: len(tally.outcomes) >= 2 * total // 3 and time.monotonic() - down >= OUTAGE_SECONDS,
                120,
                "a third of the saves during the outage",
            )
            dirty_during_outage = RatingList.objects.get(pk=rating_list.pk).dirty_from is not None
            saved_during = len(tally.outcomes) - during
            redis.start()
            up = time.monotonic()
            clients.join(120)
            wait_for(
                lambda: list_caught_up(rating_list.pk),
                120,
                "the worker to catch up after Redis came back",
                every=0.1,
            )
            caught_up = time.monotonic() - up
    in_outage = [o for o in tally.outcomes if down <= o.began < up]
    figures(
        "Redis stopped and restarted under writes",
        requests=len(tally.outcomes), statuses=tally.statuses(), failures=len(tally.failures()),
        outage_s=up - down, saves_during_outage=saved_during, answered_5xx_during_outage=sum(
            o.status >= 500 or o.status == 0 for o in in_outage),
        ratings_caught_up_after_redis_back_s=caught_up, slowest_request_s=tally.slowest(),
    )  # fmt: skip
    assert saved_during > 0 and in_outage, "saves ran during the outage"
    assert dirty_during_outage, "the list stayed dirty while nothing could be enqueued"
    assert tally.statuses() == {302: total}, "every save succeeded, during the outage too"
    with connection.cursor() as cursor:
        assert_all_saved_once_and_replayed(
            cursor,
            seeded,
            total,
            GAMES_PER_SHEET,
            lambda: recompute.recompute_list(rating_list.pk, full=True),
        )
