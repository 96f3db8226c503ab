"""Shared fixtures: a club, the four personas, and real-service guards.

Personas (STYLE.md, healthchecks' hc/test.py): ``anonymous``, ``player``
(a user linked to a Player), ``volunteer`` and ``committee``.  ``client_for``
gives a test client logged in as one of them.

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
from django.contrib.auth.models import Group, User
from django.test import Client

REPO = Path(__file__).resolve().parent.parent
SHARED_DATA = REPO.parent / "shared" / "data"
PASSWORD = "correct-horse-battery-staple"
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
def club(db):  # type: ignore[no-untyped-def]
    from ratings.models import Club

    return Club.objects.create(name="Stellenbosch Go Club", slug="stellenbosch")


@pytest.fixture
def make_player(club):  # type: ignore[no-untyped-def]
    from ratings.models import Player

    def make(name: str, rank: int = -10, since: date = date(2020, 1, 1), **extra: object) -> Player:
        slug = extra.pop("slug", None) or name.lower().replace(" ", "-")
        return Player.objects.create(
            name=name,
            slug=slug,
            club=extra.pop("club", club),
            start_rank=rank,
            rank=rank,
            since=since,
            **extra,
        )

    return make


def _user(username: str, group: str | None = None) -> User:
    user = User.objects.create_user(username, f"{username}@example.org", PASSWORD)
    if group:
        # get_or_create: a transactional test before this one may have flushed
        # the groups the data migration made.
        user.groups.add(Group.objects.get_or_create(name=group)[0])
    return user


@pytest.fixture
def personas(db, make_player) -> dict[str, User | None]:  # type: ignore[no-untyped-def]
    player_user = _user("player")
    make_player("Player One", rank=-12, user=player_user)
    return {
        "anonymous": None,
        "player": player_user,
        "volunteer": _user("volunteer", "volunteer"),
        "committee": _user("committee", "committee"),
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
