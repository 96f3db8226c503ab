"""Shared fixtures: a rating list and its club, the personas, and real-service guards.

Personas (STYLE.md, healthchecks' hc/test.py): ``anonymous``, ``player``
(a user linked to a Player), ``volunteer`` (of the club) and ``committee``
(of its list); ``outsiders`` adds a volunteer of another club of the list,
the committee of another list and a site admin.  ``client_for`` gives a test
client logged in as one of the four.

Tests that need a real service (Chromium, Redis, PostgreSQL, a Celery worker)
skip when it is missing, unless REQUIRE_BROWSER / REQUIRE_SERVICES is set
(CI sets both), in which case they fail: CI must never pass by skipping.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

REPO = Path(__file__).resolve().parent.parent
SHARED_DATA = REPO.parent / "shared" / "data"
PASSWORD = "correct-horse-battery-staple"
#: The lists of the fixtures do not ask to confirm improbable results or
#: handicaps off the rule (issue 17): tests of other features enter
#: whatever games they need; tests of the check turn it on
#: (tests/site/test_improbable_entry.py).
NO_ENTRY_CHECKS: dict[str, Any] = {"improbable_below": 0.0, "check_handicap": False}
ROLES = ("anonymous", "player", "volunteer", "committee")


def pytest_configure(config: pytest.Config) -> None:
    """Hash test passwords with MD5: PBKDF2 costs about a second per user on
    this machine, and tests create many users.  Never used outside tests."""
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def need(available: bool, what: str, env: str = "REQUIRE_SERVICES") -> None:
    """Skip (or fail, when ``env`` is set) a test whose real service is missing."""
    if available:
        return
    if os.environ.get(env):
        pytest.fail(f"{what} is required here ({env} is set) but not available")
    pytest.skip(f"{what} not available")


def shared_data(name: str) -> Path:
    """A file of ../shared/data, or skip cleanly when the folder is absent."""
    path = SHARED_DATA / name
    if not path.exists():
        pytest.skip(f"{path} not present (the shared data folder is not part of a user's clone)")
    return path


@pytest.fixture
def rating_list(db):  # type: ignore[no-untyped-def]
    from ratings.models import RatingList

    return RatingList.objects.create(name="South African Go Clubs", slug="sagc", **NO_ENTRY_CHECKS)


@pytest.fixture
def club(rating_list):  # type: ignore[no-untyped-def]
    from ratings.models import Club

    return Club.objects.create(rating_list=rating_list, name="Stellenbosch Go Club", slug="stellenbosch")


@pytest.fixture
def other_club(rating_list):  # type: ignore[no-untyped-def]
    """Another club of the same list (club B)."""
    from ratings.models import Club

    return Club.objects.create(rating_list=rating_list, name="Cape Town Go Club", slug="cape-town")


@pytest.fixture
def other_list(db):  # type: ignore[no-untyped-def]
    """An unrelated list with one club (a town ladder that never mixes)."""
    from ratings.models import Club, RatingList

    ladder = RatingList.objects.create(
        name="Guildford Ladder", slug="guildford", primary_system="west-surrey", **NO_ENTRY_CHECKS
    )
    Club.objects.create(rating_list=ladder, name="Guildford Go Club", slug="guildford-club")
    return ladder


@pytest.fixture
def make_player(club):  # type: ignore[no-untyped-def]
    from ratings.models import Player

    def make(name: str, rank: int = -10, since: date = date(2020, 1, 1), **extra: object) -> Player:
        slug = extra.pop("slug", None) or name.lower().replace(" ", "-")
        home = extra.pop("club", club)
        rating_list = extra.pop("rating_list", None) or home.rating_list  # type: ignore[attr-defined]
        return Player.objects.create(
            name=name, slug=slug, rating_list=rating_list, home_club=home, start_rank=rank, rank=rank, since=since,
            **extra,
        )  # fmt: skip

    return make


def _user(username: str, **extra: Any) -> User:
    return User.objects.create_user(username, f"{username}@example.org", PASSWORD, **extra)


def volunteer_of(user: User, club: Any) -> User:
    from accounts.models import Volunteer

    Volunteer.objects.create(user=user, club=club)
    return user


def committee_of(user: User, rating_list: Any) -> User:
    from accounts.models import CommitteeMember

    CommitteeMember.objects.create(user=user, rating_list=rating_list)
    return user


@pytest.fixture
def personas(db, club, make_player) -> dict[str, User | None]:  # type: ignore[no-untyped-def]
    """The four personas of the club and its list; the outsiders of issue 11
    (another club's volunteer, another list's committee, the site admin) are
    in :func:`outsiders`."""
    player_user = _user("player")
    make_player("Player One", rank=-12, user=player_user)
    return {
        "anonymous": None,
        "player": player_user,
        "volunteer": volunteer_of(_user("volunteer"), club),
        "committee": committee_of(_user("committee"), club.rating_list),
    }


@pytest.fixture
def outsiders(personas, other_club, other_list) -> dict[str, User]:  # type: ignore[no-untyped-def]
    """Volunteer of club B (same list), committee of list 2, site admin."""
    return {
        "volunteer_b": volunteer_of(_user("volunteer-b"), other_club),
        "committee_2": committee_of(_user("committee-2"), other_list),
        "site_admin": _user("admin", is_superuser=True, is_staff=True),
    }


@pytest.fixture
def client_for(personas) -> Callable[[str], Client]:  # type: ignore[no-untyped-def]
    def make(role: str) -> Client:
        client = Client()
        user = personas[role]
        if user is not None:
            client.force_login(user)
        return client

    return make


@contextlib.contextmanager
def celery_broker(settings: Any, url: str, queue: str | None = None) -> Iterator[None]:
    """Point the site's Celery app (and settings) at ``url`` for a while.

    The app derives its read and write URLs from ``broker_url`` once and keeps
    its connection and producer pools bound to its first broker, so all three
    URLs are set and the pools dropped (``close()``, and ``amqp``, a cached
    property, made anew), both ways."""
    from clubrating.celery import app

    keys = ("broker_url", "broker_read_url", "broker_write_url", "task_default_queue")
    saved = {key: app.conf[key] for key in keys}
    settings.CELERY_BROKER_URL = url
    app.conf.update(broker_url=url, broker_read_url=url, broker_write_url=url)
    if queue is not None:
        app.conf.task_default_queue = queue
    app.close()
    del app.amqp
    try:
        yield
    finally:
        app.conf.update(saved)
        app.close()
        del app.amqp


def make_pool(name: str, slug: str, **list_fields: Any) -> Any:
    """A separate rating pool: a new list holding one club of the same name
    (what an independent club was before lists); returns the club."""
    from ratings.models import Club, RatingList

    pool = RatingList.objects.create(name=name, slug=slug, **{**NO_ENTRY_CHECKS, **list_fields})
    return Club.objects.create(rating_list=pool, name=name, slug=slug)
