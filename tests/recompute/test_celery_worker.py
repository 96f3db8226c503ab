"""Integration: a real Celery worker on real Redis and real PostgreSQL picks
up the recompute of late games posted through the entry page, and the games
appear on the players' record sheets.

The worker is a separate process, so it must see the test database: this
needs pytest-django's test database on PostgreSQL (DATABASE_URL pointing to
PostgreSQL).  On SQLite the test database is in memory, private to the test
process, so the test skips there; CI runs it on its PostgreSQL pass, where
REQUIRE_SERVICES=1 makes a missing Redis a failure, not a skip.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.urls import reverse
from pytest_django import Settings

from ratings import services
from ratings.models import Club, Game, HistoryEntry, RatingList, RecomputeRun
from tests.support import ClientFor, MakePlayer, celery_broker, need, wait_until

# The worker process must see the test database: PostgreSQL only, deselected
# on SQLite at collection, before pytest-django sets up a transactional test
# database (its serialized rollback cannot run on SQLite's in-memory one).
pytestmark = pytest.mark.postgresql

REPO = Path(__file__).resolve().parent.parent.parent
REDIS = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/14")


def _redis_up(url: str) -> bool:
    host_port = url.split("//", 1)[1].split("/", 1)[0]
    host, _, port = host_port.rpartition(":")
    try:
        with socket.create_connection((host or "127.0.0.1", int(port or 6379)), timeout=2) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def _closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _database_url() -> str:
    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


@pytest.fixture
def role_groups(transactional_db: None) -> None:
    """The groups of accounts' data migration: a transactional test that ran
    before may have flushed them (serialized rollback is no help: under
    xdist it reloads them into a database that still has them)."""
    from django.contrib.auth.models import Group

    for name in ("volunteer", "committee"):
        Group.objects.get_or_create(name=name)


@contextlib.contextmanager
def running_worker(settings: Settings) -> Iterator[subprocess.Popen[str]]:
    """A real Celery worker on the real Redis, seeing the test database."""
    need(_redis_up(REDIS), f"Redis at {REDIS}")
    queue = f"test-recompute-{os.getpid()}"
    env = {**os.environ, "DATABASE_URL": _database_url(), "CELERY_BROKER_URL": REDIS, "CONN_MAX_AGE": "0"}
    process = subprocess.Popen(
        [
            sys.executable, "-m", "celery", "-A", "clubrating", "worker", "--pool=solo", "--concurrency=1",
            "-Q", queue, "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "info",
        ],
        cwd=REPO, env={**env, "CELERY_TASK_DEFAULT_QUEUE": queue}, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    lines: list[str] = []
    deadline = time.monotonic() + 90
    assert process.stdout is not None
    try:
        while True:
            line = process.stdout.readline()
            lines.append(line)
            if "ready." in line:
                break
            assert line or process.poll() is None, "".join(lines)
            assert time.monotonic() < deadline, "the worker did not start:\n" + "".join(lines)
        with celery_broker(settings, REDIS, queue):
            yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture
def worker(settings: Settings, role_groups: None) -> Iterator[subprocess.Popen[str]]:
    with running_worker(settings) as process:
        yield process


def wait_until_clean(club: Club, seconds: float = 90) -> None:
    wait_until(
        lambda: RatingList.objects.get(pk=club.rating_list_id).dirty_from is None,
        seconds,
        "the worker never brought the club up to date",
    )


@pytest.mark.django_db(transaction=True)
def test_a_worker_that_starts_resumes_a_club_left_dirty_while_the_broker_was_down(
    settings: Settings, role_groups: None, make_player: MakePlayer
) -> None:
    club = Club.objects.get(slug="stellenbosch")
    ann, ben = make_player("Ann Botha", rank=-12), make_player("Ben Nel", rank=-12)
    dead = f"redis://127.0.0.1:{_closed_port()}/0"
    with celery_broker(settings, dead):
        services.save_sheet(
            club=club, date=date.today(), rows=[services.GameRow(white=ann, black=ben, winner="white")]
        )
    assert RatingList.objects.get(pk=club.rating_list_id).dirty_from is not None, "nothing could be enqueued"
    with running_worker(settings):  # nothing enqueued since: the worker's start resumes the club
        wait_until_clean(club)
    assert HistoryEntry.objects.filter(game__isnull=False).count() == 2 * len(club.rating_list.systems)


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_recomputes_late_games_posted_through_the_entry_page(
    worker: subprocess.Popen[bytes], client_for: ClientFor, make_player: MakePlayer
) -> None:
    club = Club.objects.get(slug="stellenbosch")
    ann = make_player("Ann Botha", rank=-12)
    make_player("Ben Nel", rank=-12)
    volunteer = client_for("volunteer")
    today = date.today()
    for days_ago in (3, 10):  # the second sheet is late: dated before the first
        day = today - timedelta(days=days_ago)
        response = volunteer.post(
            reverse("sheet_new"),
            {
                "club": club.pk, "date": day.isoformat(), "event": "", "kind": "club", "comments": "",
                "row-0-white": "Ann Botha", "row-0-black": "Ben Nel", "row-0-handicap": "0",
                "row-0-komi": "6.5", "row-0-winner": "white", "row-0-date": "", "row-0-comments": "",
            },
        )  # fmt: skip
        assert response.status_code == 302, response.content.decode()[:2000]
    assert Game.objects.filter(club=club).count() == 2

    wait_until(
        lambda: (
            RatingList.objects.get(pk=club.rating_list_id).dirty_from is None
            and HistoryEntry.objects.count() >= 4
        ),
        90,
        "the worker never brought the club up to date",
    )
    run = RecomputeRun.objects.filter(rating_list=club.rating_list, status="done").first()
    assert run is not None and run.trigger == "celery"
    sheet = volunteer.get(reverse("player", args=[ann.slug]))
    assert sheet.status_code == 200
    assert sheet.content.decode().count("Ben Nel") >= 2, "both games are on Ann's record sheet"
    ann.refresh_from_db()
    assert ann.games_count == 2
    oldest = (
        HistoryEntry.objects.filter(player=ann, system=club.rating_list.primary_system)
        .order_by("seq")
        .first()
    )
    assert oldest is not None and oldest.date == today - timedelta(days=10), "the late game comes first"
