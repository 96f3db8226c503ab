"""Fault and load suite: twenty volunteers each save fifty sheets
at once, over HTTP, to a real web server (gunicorn) with a real Celery
worker on a real Redis and PostgreSQL. Every sheet is saved once, none is
lost or doubled, no request answers 5xx, and the ratings the worker keeps
up to date equal a full replay of the games.

Run with ``pytest -m fault`` and DATABASE_URL on PostgreSQL (docs/reliability.md).
"""

from __future__ import annotations

import statistics
import threading
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
    seed,
    sheet,
    site_database_url,
    site_env,
    wait_for,
    web_server,
)

pytestmark = FAULT_SUITE

CLIENTS, SHEETS_EACH, GAMES_PER_SHEET = 20, 50, 2


@pytest.mark.django_db(transaction=True)
def test_twenty_volunteers_saving_fifty_sheets_each_at_once_lose_and_double_nothing(tmp_path: Path) -> None:
    seeded = seed("load", volunteers=CLIENTS, players=40)
    rating_list = RatingList.objects.get(pk=seeded["list"])
    tally = Tally()
    with private_redis(tmp_path) as redis:
        env = site_env(site_database_url(), redis.url, "fault-load")
        cpu: dict[str, float] = {}
        with (
            celery_worker(env, tmp_path / "worker.log", cpu),
            web_server(env, tmp_path / "web.log", 10, cpu) as server,
        ):
            start = threading.Barrier(CLIENTS)

            def client(number: int) -> None:
                volunteer = Volunteer(server, seeded["sessions"][number], tally)
                start.wait(timeout=60)
                for n in range(SHEETS_EACH):
                    volunteer.post(
                        "/sheets/new/", sheet(seeded["club"], seeded["players"], number, n, GAMES_PER_SHEET)
                    )

            began = time.monotonic()
            Clients(CLIENTS, client).join(240)
            saving = time.monotonic() - began
            caught_up = wait_for(
                lambda: list_caught_up(rating_list.pk),
                120,
                "the worker to bring the list up to date",
                every=0.2,
            )
    latencies = [o.ended - o.began for o in tally.outcomes]
    figures(
        "20 clients x 50 sheets",
        requests=len(tally.outcomes), statuses=tally.statuses(), failures=len(tally.failures()),
        saving_s=saving, sheets_per_s=len(tally.outcomes) / saving, median_latency_s=statistics.median(latencies),
        slowest_s=max(latencies), ratings_caught_up_after_last_save_s=caught_up,
        web_server_cpu_s=cpu["web server"], worker_cpu_s=cpu["worker"],
    )  # fmt: skip
    assert tally.statuses() == {302: CLIENTS * SHEETS_EACH}, "every save answered with the saved sheet"
    with connection.cursor() as cursor:
        assert_all_saved_once_and_replayed(
            cursor, seeded, CLIENTS * SHEETS_EACH, GAMES_PER_SHEET,
            lambda: recompute.recompute_list(rating_list.pk, full=True),
        )  # fmt: skip
