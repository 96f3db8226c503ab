"""Fault and load suite: PostgreSQL is restarted while volunteers
save sheets over HTTP to a real web server (gunicorn) with a real Celery
worker. Saves during the restart may fail (5xx only then); a client whose
save failed asks the database whether its sheet was saved (by the sheet's
comment, a token of its own) before sending it again, so nothing is doubled;
all saves resume after the restart; nothing is lost; the ratings catch up
and equal a full replay.

The cluster restarted is a private one made by this test (initdb, pg_ctl,
on a port of its own), never the machine's shared server; its database is
migrated and filled by ``manage.py`` subprocesses.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import psycopg

from tests.faults.machinery import (
    FAULT_SUITE,
    REPO,
    TOKEN,
    Clients,
    Tally,
    Volunteer,
    assert_all_saved_once_and_replayed,
    celery_worker,
    figures,
    private_cluster,
    private_redis,
    sheet,
    site_env,
    think,
    wait_for,
    web_server,
)
from tests.support import wait_until

pytestmark = FAULT_SUITE

CLIENTS, SHEETS_EACH, GAMES_PER_SHEET = 6, 12, 2
#: A failed save answered after the restart had finished plus this long is a failure of the test.
GRACE = 1.0


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=REPO, env=env, capture_output=True, text=True, timeout=300,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert done.returncode == 0, f"manage.py {args[0]} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def query(url: str, sql: str, params: Any = ()) -> list[tuple[Any, ...]] | None:
    """Rows of ``sql`` on the private database (None: it does not answer)."""
    try:
        with psycopg.connect(url, connect_timeout=2) as conn:
            return conn.execute(sql, params).fetchall()
    except psycopg.OperationalError:
        return None


def saved(url: str, token: str) -> str | None:
    """Whether the sheet of ``token`` is in the database ("saved" or "not
    saved"), None while the database does not answer."""
    rows = query(url, "SELECT 1 FROM ratings_recordsheet WHERE comments = %s", [token])
    return None if rows is None else ("saved" if rows else "not saved")


def test_saves_through_a_postgresql_restart_resume_and_nothing_is_lost_or_doubled(tmp_path: Path) -> None:
    total = CLIENTS * SHEETS_EACH
    tally = Tally()
    with private_cluster() as cluster, private_redis(tmp_path) as redis:
        admin = psycopg.connect(cluster.url("postgres"), autocommit=True)
        admin.execute("CREATE DATABASE clubrating")
        admin.close()
        url = cluster.url("clubrating")
        env = site_env(url, redis.url, "fault-postgres")
        began = time.monotonic()
        manage(env, "migrate", "--noinput", "-v0")
        migrated = time.monotonic() - began
        script = f"import json; from tests.faults.machinery import seed; print(json.dumps(seed('pg', {CLIENTS}, 20)))"
        seeded = json.loads(manage(env, "shell", "-c", script).strip().splitlines()[-1])
        window: list[float] = []
        with celery_worker(env, tmp_path / "worker.log"), web_server(env, tmp_path / "web.log") as server:

            def save(volunteer: Volunteer, number: int, n: int, deadline: float) -> None:
                data = sheet(seeded["club"], seeded["players"], number, n, GAMES_PER_SHEET)
                token = TOKEN.format(client=number, sheet=n)
                while True:
                    outcome = volunteer.post("/sheets/new/", data)
                    if outcome.status == 302:
                        return
                    assert outcome.status == 0 or outcome.status >= 500, f"{token}: answered {outcome.status}"
                    # Saved or not? Ask the database (waiting for it) before sending it again.
                    answer = wait_until(
                        lambda: saved(url, token),
                        max(0.0, deadline - time.monotonic()),
                        f"{token}: the database never came back",
                        every=0.2,
                    )
                    if answer == "saved":
                        with tally.lock:
                            tally.confirmed += 1
                        return
                    assert time.monotonic() < deadline, f"{token}: never saved"
                    think(0.2)

            def client(number: int) -> None:
                volunteer = Volunteer(server, seeded["sessions"][number], tally)
                deadline = time.monotonic() + 150
                for n in range(SHEETS_EACH):
                    save(volunteer, number, n, deadline)
                    think(0.05)

            clients = Clients(CLIENTS, client)
            wait_for(
                lambda: len(tally.outcomes) >= total // 3, 120, "a third of the saves before the restart"
            )
            window.append(time.monotonic())
            cluster.restart()  # pg_ctl -m fast -w: connections cut, then the server is back
            window.append(time.monotonic())
            clients.join(160)
            after = [o for o in tally.outcomes if o.began >= window[1]]
            first_ok = min((o.ended for o in after if o.status == 302), default=float("nan"))
            wait_for(
                lambda: query(
                    url,
                    "SELECT 1 FROM ratings_ratinglist WHERE id = %s AND dirty_from IS NULL",
                    [seeded["list"]],
                ),
                120,
                "the worker to bring the list up to date after the restart",
                every=0.2,
            )
            caught_up = time.monotonic() - window[1]
        down, up = window
        outside = [o for o in tally.failures() if not (o.began < up + GRACE and o.ended > down)]
        figures(
            "PostgreSQL restarted under writes",
            migrate_s=migrated, requests=len(tally.outcomes), statuses=tally.statuses(),
            failures=len(tally.failures()), failures_outside_the_restart=len(outside),
            failed_but_found_saved=tally.confirmed, restart_s=up - down,
            first_save_ok_after_restart_s=first_ok - up, ratings_caught_up_after_restart_s=caught_up,
        )  # fmt: skip
        assert outside == [], "5xx or no answer only during the restart"
        with psycopg.connect(url, autocommit=True) as conn, conn.cursor() as cursor:
            assert_all_saved_once_and_replayed(
                cursor, seeded, total, GAMES_PER_SHEET,
                lambda: manage({**env, "CELERY_BROKER_URL": ""}, "recompute", "--list", "pg", "--full", "--no-progress"),
            )  # fmt: skip
