"""The browser tests' fixtures: Debian's Chromium through Playwright, the
screenshot folder, and a club with a rated history to browse."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.support import PASSWORD, REPO, make_pool, need

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture
def artifacts() -> Path:
    folder = Path(os.environ.get("ARTIFACTS_DIR") or REPO / "artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    need(CHROMIUM.exists(), "Chromium", "REQUIRE_BROWSER")
    try:
        from playwright import sync_api
    except ImportError:
        need(False, "Playwright (pip install -e '.[dev]')", "REQUIRE_BROWSER")
        raise
    # Playwright's sync API runs an event loop in this thread; the Django ORM
    # calls the test makes meanwhile are safe (one thread, no async code).
    # Scoped to this test: left in os.environ it would leak into later
    # subprocesses (manage.py check --deploy refuses it, rightly).
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()
            # With Playwright's loop running, the test's ORM calls got a
            # connection of their own (Django's connections are local to
            # the asyncio context); close it, or PostgreSQL cannot drop the
            # test database at the end of the run.
            from django.db import connections

            connections.close_all()


@pytest.fixture
def history(transactional_db: None) -> dict[str, Any]:
    """A club with three players and two games already rated, and a volunteer."""
    from django.contrib.auth.models import User

    from accounts.models import Volunteer
    from ratings import services
    from ratings.models import Player
    from ratings.recompute import recompute_list
    from ratings.services import GameRow

    club = make_pool(name="Stellenbosch Go Club", slug="stellenbosch", primary_system="sagc")
    long_ago = date.today() - timedelta(days=400)
    people = {
        name: Player.objects.create(
            name=name,
            slug=slug,
            rating_list=club.rating_list,
            home_club=club,
            start_rank=rank,
            rank=rank,
            since=long_ago,
        )
        for name, slug, rank in [
            ("Alice Mokoena", "alice", -5),
            ("Bob Smit", "bob", -8),
            ("Chen Wei", "chen", -12),
        ]
    }
    alice, bob, chen = people.values()
    services.save_sheet(
        club=club,
        date=date.today() - timedelta(days=10),
        rows=[
            GameRow(white=alice, black=bob, winner="white"),
            GameRow(white=bob, black=chen, winner="black", handicap=4),
        ],
    )
    recompute_list(club.rating_list_id, full=True)
    volunteer = User.objects.create_user("volunteer", password=PASSWORD)
    Volunteer.objects.create(user=volunteer, club=club)
    return {"club": club, **people}


@pytest.fixture
def checked_list(transactional_db: None) -> Any:
    """A club whose list asks to confirm results below 5 % and handicaps off
    the rule; Alice Mokoena 5k and Dan Kyu 10k; a volunteer of the club."""
    from django.contrib.auth.models import User

    from accounts.models import Volunteer
    from ratings.models import Player

    club = make_pool(
        name="Stellenbosch Go Club", slug="stellenbosch", improbable_below=0.05, check_handicap=True
    )
    long_ago = date.today() - timedelta(days=400)
    for name, slug, rank in [("Alice Mokoena", "alice", -5), ("Dan Kyu", "dan", -10)]:
        Player.objects.create(
            name=name, slug=slug, rating_list=club.rating_list, home_club=club, start_rank=rank, rank=rank,
            since=long_ago,
        )  # fmt: skip
    volunteer = User.objects.create_user("volunteer", password=PASSWORD)
    Volunteer.objects.create(user=volunteer, club=club)
    return club
