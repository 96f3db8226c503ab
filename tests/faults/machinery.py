"""The fault and load suite's machinery (docs/reliability.md):
real services as subprocesses, volunteers saving sheets over HTTP, and the
checks every scenario ends with.

- :class:`PrivateRedis`: a redis-server of the test's own on a free port,
  stopped and started at will (the machine's shared Redis is never touched).
- :class:`PrivateCluster`: a PostgreSQL cluster of the test's own (initdb,
  ``pg_ctl start/stop/restart``), run as the ``postgres`` user when the test
  runs as root; the shared server is never restarted.
- :func:`celery_worker`, :func:`web_server`: a real Celery worker and a
  gunicorn serving the site, both on the given database and broker.
- :class:`Volunteer`: a logged-in volunteer posting sheets over HTTP to
  127.0.0.1, every request timed and its status kept in a :class:`Tally`.
- :func:`snapshot`, :func:`history_problems`, :func:`duplicated_sheets`:
  what is compared with a full replay, what would show a lost or doubled
  game.

Every wait is bounded; every process is stopped by the context manager
that started it (terminate, then kill).
"""

from __future__ import annotations

import contextlib
import glob
import http.client
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from tests.support import POLL_SECONDS, need, wait_until

REPO = Path(__file__).resolve().parent.parent.parent
#: Every scenario's marks: ``pytest -m fault``; deselected on SQLite (decided at
#: collection, before pytest-django sets up a transactional test database).
FAULT_SUITE = [
    pytest.mark.fault,
    # Its worker and web server processes must see the test database.
    pytest.mark.postgresql,
]
#: The sheet comment every scenario's saves carry: the client's own key for
#: "was this sheet saved?" (its idempotency check before a retry).
TOKEN = "fault-suite {client}/{sheet}"
#: A CSRF secret of the clients' own: sent as the cookie and as the header
#: (Django compares the two; the site never has to hand one out).
CSRF = "faultsuitecsrfsecret0123456789ab"


def free_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(
    predicate: Callable[[], object], seconds: float, what: str, every: float = POLL_SECONDS
) -> float:
    """Wait until ``predicate`` is true (:func:`tests.support.wait_until`);
    the seconds it took, a figure the scenarios report."""
    began = time.monotonic()
    wait_until(predicate, seconds, what, every)
    return time.monotonic() - began


def think(seconds: float) -> None:
    """A volunteer's pause between two saves, or before sending a failed one
    again: the shape of the load (people do not post back to back), not a
    wait for something to happen; those are :func:`wait_for`'s."""
    time.sleep(seconds)


def tail(path: Path, lines: int = 40) -> str:
    with contextlib.suppress(OSError):
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    return ""


def stop(process: subprocess.Popen[Any] | None, timeout: float = 20) -> None:
    """Terminate ``process`` (and its process group), kill it if it lingers."""
    if process is None or process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)


def group_cpu_seconds(pgid: int) -> float:
    """CPU seconds (user + system) used so far by the live processes of a
    process group (Linux /proc), to compare runs on a busy machine."""
    ticks = 0
    for stat in glob.glob("/proc/[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = Path(stat).read_text().rsplit(")", 1)[1].split()
            if int(fields[2]) == pgid:  # fields from the state on: pgrp, then utime and stime at 11, 12
                ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def _spawn(args: Sequence[str], log: Path, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    with log.open("ab") as out:
        return subprocess.Popen(
            args, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True,  # its own process group: stop() and SIGKILL reach every child
        )  # fmt: skip


# --- Redis ---------------------------------------------------------------------


def redis_answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


class PrivateRedis:
    """A redis-server of this test's own, without persistence: stopping it
    loses every queued message, as a crashed broker would."""

    def __init__(self, directory: Path) -> None:
        self.binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        need(Path(self.binary).exists(), "redis-server (a private Redis for the fault suite)")
        self.directory, self.port = directory, free_port()
        self.log = directory / "redis.log"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = _spawn(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--daemonize", "no", "--dir", str(self.directory)],
            self.log,
        )  # fmt: skip
        wait_for(lambda: redis_answers(self.port), 15, "the private Redis to answer")

    def stop(self) -> None:
        stop(self.process)
        self.process = None


@contextlib.contextmanager
def private_redis(directory: Path) -> Iterator[PrivateRedis]:
    redis = PrivateRedis(directory)
    redis.start()
    try:
        yield redis
    finally:
        redis.stop()


# --- PostgreSQL ------------------------------------------------------------------


def _pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class PrivateCluster:
    """A PostgreSQL cluster of this test's own on a free port (trust auth on
    127.0.0.1, its socket in its own directory, fsync off: a test cluster)."""

    def __init__(self) -> None:
        self.bin = _pg_bin()
        need(self.bin is not None, "PostgreSQL's initdb and pg_ctl (a private cluster for the fault suite)")
        as_root = os.geteuid() == 0
        runuser = shutil.which("runuser")
        if as_root:
            need(runuser is not None, "runuser (PostgreSQL must run as the postgres user)")
        self.prefix = [str(runuser), "-u", "postgres", "--"] if as_root else []
        self.directory = Path(tempfile.mkdtemp(prefix="clubrating-faults-pg-"))
        if as_root:
            shutil.chown(self.directory, "postgres", "postgres")
        self.data, self.log = self.directory / "data", self.directory / "server.log"
        self.port = free_port()
        self.started = False

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def _run(self, *args: str, timeout: float = 60) -> None:
        assert self.bin is not None
        done = subprocess.run(
            [*self.prefix, str(self.bin / args[0]), *args[1:]], capture_output=True, text=True, timeout=timeout,
            stdin=subprocess.DEVNULL,
        )  # fmt: skip
        assert done.returncode == 0, f"{args[0]} failed:\n{done.stdout}\n{done.stderr}\n{tail(self.log)}"

    def _ctl(self, action: str) -> None:
        options = (
            f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=60"
        )
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-m", "fast", "-w", "-t", "60",
                  "-o", options, action)  # fmt: skip

    def init(self) -> None:
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync")
        self._ctl("start")
        self.started = True

    def restart(self) -> None:
        self._ctl("restart")

    def close(self) -> None:
        try:
            if self.started:
                try:
                    self._ctl("stop")
                except Exception:  # never leave a server running on a removed directory
                    self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "-t", "30", "stop")
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)


@contextlib.contextmanager
def private_cluster() -> Iterator[PrivateCluster]:
    cluster = PrivateCluster()
    try:
        cluster.init()
        yield cluster
    finally:
        cluster.close()


# --- the site's processes ------------------------------------------------------


def site_env(database_url: str, broker_url: str, queue: str) -> dict[str, str]:
    """The environment of a worker or web server on these services."""
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": broker_url,
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        "PYTHONPATH": str(REPO),
        "LOG_LEVEL": "INFO",
    }


@contextlib.contextmanager
def celery_worker(
    env: dict[str, str], log: Path, cpu: dict[str, float] | None = None
) -> Iterator[subprocess.Popen[bytes]]:
    """A real Celery worker (solo pool: the recompute runs in this very
    process, so SIGKILL of it kills the recompute), ready when yielded."""
    before = log.stat().st_size if log.exists() else 0
    process = _spawn(
        [sys.executable, "-m", "celery", "-A", "clubrating", "worker", "--pool=solo", "--concurrency=1",
         "-Q", env["CELERY_TASK_DEFAULT_QUEUE"], "--without-gossip", "--without-mingle", "--without-heartbeat",
         "-l", "info"],
        log, {**env, "CONN_MAX_AGE": "0"},
    )  # fmt: skip

    def ready() -> bool:
        assert process.poll() is None, f"the worker exited:\n{tail(log)}"
        with log.open("rb") as out:
            out.seek(before)
            return b"ready." in out.read()

    try:
        wait_for(ready, 120, f"the Celery worker to start\n{tail(log)}", every=0.1)
        yield process
    finally:
        if cpu is not None:
            cpu["worker"] = group_cpu_seconds(process.pid)
        stop(process, timeout=30)


@contextlib.contextmanager
def web_server(
    env: dict[str, str], log: Path, threads: int = 8, cpu: dict[str, float] | None = None
) -> Iterator[tuple[str, int]]:
    """gunicorn serving the site on 127.0.0.1 (two processes, ``threads``
    threads each); yields (host, port). ``cpu`` receives the CPU seconds
    its processes used."""
    port = free_port()
    process = _spawn(
        [sys.executable, "-m", "gunicorn", "clubrating.wsgi:application", "--bind", f"127.0.0.1:{port}",
         "--workers", "2", "--worker-class", "gthread", "--threads", str(threads), "--timeout", "60",
         "--graceful-timeout", "5"],
        log, env,
    )  # fmt: skip

    def answers() -> bool:
        assert process.poll() is None, f"the web server exited:\n{tail(log)}"
        return get(("127.0.0.1", port), "/accounts/login/") == 200

    try:
        wait_for(answers, 90, "the web server to answer", every=0.1)
        yield ("127.0.0.1", port)
    finally:
        if cpu is not None:
            cpu["web server"] = group_cpu_seconds(process.pid)
        stop(process)


def get(server: tuple[str, int], path: str) -> int:
    """The status of a GET (0: no answer)."""
    conn = http.client.HTTPConnection(*server, timeout=10)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        return response.status
    except (OSError, http.client.HTTPException):
        return 0
    finally:
        conn.close()


# --- volunteers ---------------------------------------------------------------------


@dataclass
class Outcome:
    status: int  # 0: no answer (refused, reset, timed out)
    began: float
    ended: float


@dataclass
class Tally:
    """Every request of a scenario, thread-safe."""

    outcomes: list[Outcome] = field(default_factory=list)
    confirmed: int = 0  # failed answers whose sheet was found saved (not sent again)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, outcome: Outcome) -> None:
        with self.lock:
            self.outcomes.append(outcome)

    def failures(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.status == 0 or o.status >= 500]

    def statuses(self) -> dict[int, int]:
        counts: dict[int, int] = {}
        for outcome in self.outcomes:
            counts[outcome.status] = counts.get(outcome.status, 0) + 1
        return dict(sorted(counts.items()))

    def slowest(self) -> float:
        return max((o.ended - o.began for o in self.outcomes), default=0.0)


class Volunteer:
    """A volunteer logged in (a session of the site's database) posting
    sheets to the web server over HTTP."""

    def __init__(self, server: tuple[str, int], session: str, tally: Tally) -> None:
        self.server, self.tally = server, tally
        self.headers = {
            "Cookie": f"sessionid={session}; csrftoken={CSRF}",
            "X-CSRFToken": CSRF,
            "Content-Type": "application/x-www-form-urlencoded",
        }

    def post(self, path: str, data: dict[str, str]) -> Outcome:
        began = time.monotonic()
        conn = http.client.HTTPConnection(*self.server, timeout=60)
        try:
            conn.request("POST", path, urlencode(data), self.headers)
            response = conn.getresponse()
            response.read()
            status = response.status
        except (OSError, http.client.HTTPException):
            status = 0
        finally:
            conn.close()
        outcome = Outcome(status, began, time.monotonic())
        self.tally.add(outcome)
        return outcome


class Clients:
    """``count`` client threads running ``work(number)``, started at once;
    their errors are kept and raised by :meth:`join`."""

    def __init__(self, count: int, work: Callable[[int], None]) -> None:
        self.errors: list[BaseException] = []

        def run(number: int) -> None:
            try:
                work(number)
            except BaseException as error:
                self.errors.append(error)

        self.threads = [threading.Thread(target=run, args=(n,), daemon=True) for n in range(count)]
        for thread in self.threads:
            thread.start()

    def join(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        for thread in self.threads:
            thread.join(max(0.1, deadline - time.monotonic()))
        assert not any(thread.is_alive() for thread in self.threads), (
            f"the clients did not finish in {seconds} s"
        )
        assert not self.errors, self.errors


def sheet(club_id: int, players: Sequence[str], client: int, number: int, games: int = 2) -> dict[str, str]:
    """The POST of one sheet: late and out of date order (up to ~300 days
    back), ``games`` games between players of the list, its token as the
    sheet's comment."""
    day = date.today() - timedelta(days=1 + (client * 37 + number * 13) % 300)
    data = {
        "club": str(club_id), "date": day.isoformat(), "event": "", "kind": "club",
        "comments": TOKEN.format(client=client, sheet=number),
        # The same pairings come back on one day: confirmed as the volunteer
        # would ("save anyway" past the repeated-sheet warning).
        "save_anyway": "1",
    }  # fmt: skip
    count = len(players)
    for g in range(games):
        white = (client * 7 + number * 3 + g * 5) % count
        black = (white + 1 + (number + g) % (count - 1)) % count
        data.update({
            f"row-{g}-white": players[white], f"row-{g}-black": players[black], f"row-{g}-handicap": "0",
            f"row-{g}-komi": "6.5", f"row-{g}-winner": "white" if (client + number + g) % 3 else "black",
            f"row-{g}-date": "", f"row-{g}-comments": "",
        })  # fmt: skip
    return data


def seed(slug: str, volunteers: int, players: int) -> dict[str, Any]:
    """A list with one club, ``players`` players and ``volunteers`` volunteers
    of the club, each with a session; what the clients need, as JSON-able
    values. Runs in the test process or in ``manage.py shell`` (a private
    database)."""
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.test import Client

    from accounts.models import Volunteer as VolunteerRole
    from ratings.models import Club, Player, RatingList

    # Without the list's entry checks (improbable results, the handicap
    # rule): the clients' pairings are arbitrary, and every save must save.
    rating_list = RatingList.objects.create(
        name=f"Fault suite {slug}", slug=slug, improbable_below=0.0, check_handicap=False
    )
    club = Club.objects.create(rating_list=rating_list, name=f"Fault suite club {slug}", slug=f"{slug}-club")
    names = [f"Fault Player {i:02d}" for i in range(players)]
    for i, name in enumerate(names):
        rank = -20 + i % 22
        Player.objects.create(
            name=name, slug=f"{slug}-player-{i}", rating_list=rating_list, home_club=club, start_rank=rank,
            rank=rank, since=date.today() - timedelta(days=400),
        )  # fmt: skip
    sessions = []
    for i in range(volunteers):
        user = User.objects.create_user(f"{slug}-volunteer-{i}")
        VolunteerRole.objects.create(user=user, club=club)
        client = Client()
        client.force_login(user)
        sessions.append(client.cookies[settings.SESSION_COOKIE_NAME].value)
    return {
        "list": rating_list.pk, "slug": slug, "club": club.pk, "systems": len(rating_list.systems), "players": names,
        "sessions": sessions,
    }  # fmt: skip


# --- the checks -------------------------------------------------------------------


def snapshot(cursor: Any, list_id: int) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The list's stored history and its players' cached ranks (a DB-API
    cursor: Django's or psycopg's)."""
    cursor.execute(
        "SELECT system, seq, player_id, game_id, colour, rank_after, rating_after FROM ratings_historyentry "
        "WHERE rating_list_id = %s ORDER BY system, seq, colour",
        [list_id],
    )
    history = cursor.fetchall()
    cursor.execute(
        "SELECT id, rank, rating, games_count FROM ratings_player WHERE rating_list_id = %s ORDER BY id",
        [list_id],
    )
    return history, cursor.fetchall()


def history_problems(cursor: Any, list_id: int, systems: int) -> list[tuple[Any, ...]]:
    """Games without exactly two history rows (white, black) per system,
    and history rows of no game of the list: a lost or doubled game shows
    here."""
    cursor.execute(
        "SELECT g.id, count(h.id) FROM ratings_game g LEFT JOIN ratings_historyentry h ON h.game_id = g.id "
        "WHERE g.rating_list_id = %s GROUP BY g.id HAVING count(h.id) <> %s "
        "UNION ALL SELECT h.game_id, -1 FROM ratings_historyentry h LEFT JOIN ratings_game g ON g.id = h.game_id "
        "WHERE h.rating_list_id = %s AND h.game_id IS NOT NULL AND g.id IS NULL LIMIT 20",
        [list_id, 2 * systems, list_id],
    )
    return list(cursor.fetchall())


def saved_sheets(cursor: Any, club_id: int) -> dict[str, tuple[int, int]]:
    """Token -> (sheets, games) of every fault-suite sheet at the club."""
    cursor.execute(
        "SELECT s.comments, count(DISTINCT s.id), count(g.id) FROM ratings_recordsheet s "
        "LEFT JOIN ratings_game g ON g.sheet_id = s.id WHERE s.club_id = %s GROUP BY s.comments",
        [club_id],
    )
    return {token: (sheets, games) for token, sheets, games in cursor.fetchall()}


def list_caught_up(rating_list_id: int) -> bool:
    """The list is clean and every game of it has its history rows (this
    process's database)."""
    from ratings.models import Game, HistoryEntry, RatingList

    rating_list = RatingList.objects.get(pk=rating_list_id)
    return (
        rating_list.dirty_from is None
        and HistoryEntry.objects.filter(rating_list=rating_list, game__isnull=False).count()
        == 2 * len(rating_list.systems) * Game.objects.filter(rating_list=rating_list).count()
    )


def assert_all_saved_once_and_replayed(
    cursor: Any, seeded: dict[str, Any], sheets: int, games_per_sheet: int, replay: Callable[[], object]
) -> None:
    """Every sheet saved once with all its games, each game with its history
    rows, and the stored history and cached ranks equal to what ``replay``
    (a full recompute) writes. ``cursor``: autocommit (a full recompute
    drops the history's indexes: an open transaction reading it would
    block it)."""
    saved = saved_sheets(cursor, seeded["club"])
    assert len(saved) == sheets, f"{sheets - len(saved)} sheets lost"
    assert set(saved.values()) == {(1, games_per_sheet)}, "no sheet or game doubled"
    cursor.execute("SELECT count(*) FROM ratings_game WHERE rating_list_id = %s", [seeded["list"]])
    assert cursor.fetchone()[0] == sheets * games_per_sheet, "no game lost or doubled"
    assert history_problems(cursor, seeded["list"], seeded["systems"]) == []
    kept = snapshot(cursor, seeded["list"])
    replay()
    assert snapshot(cursor, seeded["list"]) == kept, "the stored history is the full replay's"


def figures(scenario: str, **values: object) -> None:
    """Print the scenario's figures (``pytest -s`` shows them)."""
    shown = ", ".join(f"{k.replace('_', ' ')} {v:.2f}" if isinstance(v, float) else f"{k.replace('_', ' ')} {v}"
                      for k, v in values.items())  # fmt: skip
    print(f"\n[fault] {scenario}: {shown}", flush=True)


def site_database_url() -> str:
    """The URL of pytest-django's test database, for the subprocesses."""
    from django.db import connection

    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"
