"""The backup script (backup/dump_restore_compare.py) on a real
PostgreSQL: a scratch database with the demo site is dumped, dropped,
restored and compared table by table; a change it must see is seen."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from django.conf import settings
from psycopg import sql

from backup.dump_restore_compare import compare, digest
from tests.support import REPO

pytestmark = [pytest.mark.postgresql, pytest.mark.slow]


@pytest.fixture
def scratch() -> Iterator[str]:
    """A scratch database beside the test database, with the demo site in it."""
    db = settings.DATABASES["default"]
    host, port, user = db.get("HOST") or "127.0.0.1", db.get("PORT") or 5432, db.get("USER") or "postgres"
    auth = f"{user}:{db['PASSWORD']}" if db.get("PASSWORD") else user
    name = f"backup_check_{os.getpid()}"
    server = f"postgres://{auth}@{host}:{port}/postgres"
    url = urlunsplit(urlsplit(server)._replace(path=f"/{name}"))
    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    env = {**os.environ, "DATABASE_URL": url, "PYTHONPATH": str(REPO)}
    for argv in (["migrate", "-v0"], ["demo", "--password", "x"]):
        done = subprocess.run(
            [sys.executable, "manage.py", *argv], cwd=REPO, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
    yield url
    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def test_a_dump_of_the_site_restores_identical(scratch: str) -> None:
    before = digest(scratch)
    assert before["ratings_game"][0] > 1000, "the demo's games are there to compare"
    done = subprocess.run(
        [sys.executable, "backup/dump_restore_compare.py", "--database-url", scratch, "--drop"],
        cwd=REPO, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "dropped, restored" in done.stdout and "identical" in done.stdout
    assert compare(before, digest(scratch)) == []
    with psycopg.connect(scratch, autocommit=True) as connection:
        connection.execute(
            "UPDATE ratings_game SET komi = komi + 1 WHERE id = (SELECT min(id) FROM ratings_game)"
        )
        connection.execute(
            "DELETE FROM ratings_logentry_players WHERE id = (SELECT max(id) FROM ratings_logentry_players)"
        )
    problems = compare(before, digest(scratch))
    assert any(line.startswith("ratings_game: contents differ") for line in problems), problems
    assert any(line.startswith("ratings_logentry_players: rows differ") for line in problems), problems


def test_it_refuses_to_drop_without_being_told(scratch: str) -> None:
    done = subprocess.run(
        [sys.executable, "backup/dump_restore_compare.py", "--database-url", scratch],
        cwd=REPO, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 2 and "say --drop" in done.stderr
