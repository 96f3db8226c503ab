"""Fault and load suite: the Celery worker is killed (SIGKILL) in
the middle of the write of a 100,000-game recompute. The server rolls the
write back (no row of it stays, the history's indexes are intact), and a
worker started afterwards resumes the recompute at once (its start sweeps
the dirty lists) with nobody saving anything. Pages read
meanwhile never answer 5xx; the games are all there once; the history equals
a full replay.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import close_old_connections, connection
from django.test import Client

from ratings import recompute
from ratings.models import Game, HistoryEntry, RatingList, RecomputeRun
from tests.faults.machinery import (
    FAULT_SUITE,
    celery_worker,
    figures,
    history_problems,
    private_redis,
    site_database_url,
    site_env,
    snapshot,
    wait_for,
)

pytestmark = FAULT_SUITE

GAMES = 100_000


def copying_backend() -> int | None:
    """The server process of a connection COPYing history rows (the
    recompute's write transaction), if any."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() "
            "AND state = 'active' AND query ILIKE 'COPY%%ratings_historyentry%%'"
        )
        row = cursor.fetchone()
    return row[0] if row else None


def backend_alive(pid: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid])
        return cursor.fetchone() is not None


def history_indexes() -> list[tuple[str, str]]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'ratings_historyentry' ORDER BY 1"
        )
        found: list[tuple[str, str]] = cursor.fetchall()
        return found


class Reader(threading.Thread):
    """Someone reading the public pages the whole time (statuses kept)."""

    def __init__(self, paths: list[str]) -> None:
        super().__init__(daemon=True)
        self.paths, self.halt = paths, threading.Event()
        self.statuses: list[int] = []

    def run(self) -> None:
        client = Client(raise_request_exception=False)  # a 500 is a status to count
        try:
            while not self.halt.is_set():
                for path in self.paths:
                    self.statuses.append(client.get(path).status_code)
                self.halt.wait(0.2)
        finally:
            close_old_connections()
            connection.close()


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_in_a_100k_game_recompute_is_resumed_by_the_next_worker_alone(tmp_path: Path) -> None:
    began = time.monotonic()
    call_command("generate", games=GAMES, players=400, clubs=1, seed=13, stdout=StringIO())
    generated = time.monotonic() - began
    rating_list = RatingList.objects.get()
    assert rating_list.dirty_from is not None, "generate leaves the list to compute"
    indexes = history_indexes()
    reader = Reader(["/players/", f"/lists/{rating_list.slug}/", "/recompute/"])
    reader.start()
    try:
        with private_redis(tmp_path) as redis:
            env = site_env(site_database_url(), redis.url, "fault-kill")
            # The worker's start sweeps the dirty lists: the recompute begins.
            with celery_worker(env, tmp_path / "worker-1.log") as worker:
                started = time.monotonic()
                wait_for(copying_backend, 180, "the recompute to reach its write", every=0.02)
                pid = copying_backend()
                os.killpg(worker.pid, signal.SIGKILL)
                killed = time.monotonic()
                worker.wait(30)
            assert pid is not None
            rolled_back = wait_for(
                lambda: not backend_alive(pid), 60, "the server to end the killed connection"
            )
            assert HistoryEntry.objects.count() == 0, "no row of the killed write stays"
            assert history_indexes() == indexes, "the indexes it had dropped are back"
            assert RatingList.objects.get(pk=rating_list.pk).dirty_from is not None, "the list stays dirty"
            assert RecomputeRun.objects.get().status == "running", "the killed run could not record its end"
            restarted = time.monotonic()
            with celery_worker(env, tmp_path / "worker-2.log"):  # nothing saved, nothing enqueued by us
                ready = time.monotonic()
                wait_for(
                    lambda: RatingList.objects.filter(pk=rating_list.pk, dirty_from__isnull=True).exists(),
                    240,
                    "the new worker to resume the recompute",
                    every=0.2,
                )
                resumed = time.monotonic()
    finally:
        reader.halt.set()
        reader.join(30)
    statuses = list(RecomputeRun.objects.order_by("id").values_list("status", flat=True))
    assert statuses == ["abandoned", "done"], statuses
    with connection.cursor() as cursor:
        assert Game.objects.filter(rating_list=rating_list).count() == GAMES, "no game lost or doubled"
        assert history_problems(cursor, rating_list.pk, len(rating_list.systems)) == []
        kept = snapshot(cursor, rating_list.pk)
        replay_began = time.monotonic()
        recompute.recompute_list(rating_list.pk, full=True)
        replayed = time.monotonic() - replay_began
        assert snapshot(cursor, rating_list.pk) == kept, "the stored history is the full replay's"
    figures(
        "worker SIGKILLed in a 100k-game recompute",
        games=GAMES, generated_s=generated, killed_after_s=killed - started, killed_in="COPY of the history",
        server_rolled_back_after_s=rolled_back, new_worker_started_s=ready - restarted,
        resumed_and_done_after_kill_s=resumed - killed, done_after_new_worker_ready_s=resumed - ready,
        full_replay_in_process_s=replayed, page_reads=len(reader.statuses),
        page_statuses={s: reader.statuses.count(s) for s in sorted(set(reader.statuses))},
    )  # fmt: skip
    assert reader.statuses and all(s < 500 for s in reader.statuses), "no page answered 5xx"
