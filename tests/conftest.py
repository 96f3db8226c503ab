"""Fixtures of the whole suite, and the hooks that decide what runs where.

Personas (healthchecks' hc/test.py): ``anonymous``, ``player`` (a user linked
to a Player), ``volunteer`` (of the club) and ``committee`` (of its list);
``outsiders`` adds a volunteer of another club of the list, the committee of
another list and a site admin.  ``client_for`` gives a test client logged in
as one of the four.  Helpers that are not fixtures are in tests/support.py.

What runs where (tests/README.md):

- ``postgresql``-marked tests are deselected (not skipped) on SQLite, and the
  run says how many and how to run them;
- a test whose prerequisite is missing skips through ``support.need`` with its
  reason; with ``REQUIRE_SHARED``, ``REQUIRE_BROWSER``, ``REQUIRE_SERVICES`` or
  ``REQUIRE_COMPILED`` set (CI sets all four) it fails instead, and so does
  any other skip: CI must never pass by skipping.
"""

from __future__ import annotations

import os
from collections.abc import Generator
from datetime import date
from typing import Any

import hypothesis
import pytest
from django.contrib.auth.models import User
from django.test import Client

from ratings.engine.sagc_tables import lookup_tables
from ratings.models import Club, RatingList
from tests.support import (
    DECIDED,
    MUTATION_EXAMPLES,
    MUTATION_RUN,
    NO_ENTRY_CHECKS,
    PASSWORD,
    REQUIRE,
    ClientFor,
    MakePlayer,
    Personas,
    committee_of,
    fastest_first,
    volunteer_of,
)

#: How many PostgreSQL-only tests this run deselected (the workers' counts
#: reach the controller through pytest-xdist's ``workeroutput``).
DESELECTED = "postgresql_deselected"


def pytest_configure(config: pytest.Config) -> None:
    """Hash test passwords with MD5: PBKDF2 costs about a second per user on
    this machine, and tests create many users.  Never used outside tests.

    In a mutation run (``support.MUTATION_RUN``) the hypothesis properties run
    the ``mutation`` profile: few examples, derandomised (the same examples
    for every mutant, no example database shared by the forked runs), no
    deadline (a loaded machine and mutmut's call tracing slow every call),
    and no shrinking: a mutant is killed by the first failing example, and
    shrinking it (minutes for the engine's properties, e.g. a mutated
    ``sagc_rules.index_change`` against the fast loop) would only make
    mutmut call it a timeout.
    Loaded here, before the test modules are imported, as each property's
    ``@settings`` takes what it does not set from the profile loaded then."""
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    config.stash[_deselected] = 0
    if MUTATION_RUN:
        hypothesis.settings.register_profile(
            "mutation",
            max_examples=MUTATION_EXAMPLES,
            derandomize=True,
            database=None,
            deadline=None,
            phases=[hypothesis.Phase.explicit, hypothesis.Phase.generate],
            suppress_health_check=[hypothesis.HealthCheck.too_slow],
        )
        hypothesis.settings.load_profile("mutation")


_deselected = pytest.StashKey[int]()


def on_postgresql() -> bool:
    from django.conf import settings

    return str(settings.DATABASES["default"]["ENGINE"]).endswith("postgresql")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselect the PostgreSQL-only tests on SQLite (they cannot run there);
    in a mutation run, order the tests fastest first (support.fastest_first)."""
    if MUTATION_RUN:
        fastest_first(items, config.rootpath)
    if on_postgresql():
        return
    keep = [item for item in items if item.get_closest_marker("postgresql") is None]
    dropped = [item for item in items if item.get_closest_marker("postgresql") is not None]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep
    config.stash[_deselected] = len(dropped)
    workeroutput = getattr(config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput[DESELECTED] = len(dropped)


def pytest_runtest_setup(item: pytest.Item) -> None:
    """In a mutation run, each test builds the SAGC lookup tables again
    (built once per process otherwise, sagc_tables.lookup_tables): built by
    an earlier test, with the rules as written, they would hide a mutant of
    a rule from the fast loop, and mutmut's stats step would see only the
    first test that builds them reach the rules."""
    if MUTATION_RUN:
        lookup_tables.cache_clear()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """pytest-xdist: a worker's count of deselected tests (all workers collect the same)."""
    count = getattr(node, "workeroutput", {}).get(DESELECTED, 0)
    node.config.stash[_deselected] = max(node.config.stash.get(_deselected, 0), count)


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    count = config.stash.get(_deselected, 0)
    if count:
        terminalreporter.write_line(
            f"{count} PostgreSQL-only tests deselected: run with "
            "DATABASE_URL=postgres://USER@HOST:5432/DBNAME to run them"
        )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, Any]:
    """When CI requires everything (any REQUIRE_* set), a skip that did not go
    through ``support.need`` (which fails by itself) is a failure too."""
    report = yield
    if (
        report.skipped
        and not hasattr(report, "wasxfail")
        and DECIDED not in str(report.longrepr)
        and any(os.environ.get(env) for env in REQUIRE)
    ):
        report.outcome = "failed"
        report.longrepr = f"skipped while {'/'.join(REQUIRE)} require every test to run: {report.longrepr}"
    return report


@pytest.fixture
def rating_list(db: None) -> RatingList:
    from ratings.models import RatingList

    return RatingList.objects.create(name="South African Go Clubs", slug="sagc", **NO_ENTRY_CHECKS)


@pytest.fixture
def club(rating_list: RatingList) -> Club:
    from ratings.models import Club

    return Club.objects.create(rating_list=rating_list, name="Stellenbosch Go Club", slug="stellenbosch")


@pytest.fixture
def other_club(rating_list: RatingList) -> Club:
    """Another club of the same list (club B)."""
    from ratings.models import Club

    return Club.objects.create(rating_list=rating_list, name="Cape Town Go Club", slug="cape-town")


@pytest.fixture
def other_list(db: None) -> RatingList:
    """An unrelated list with one club (a town ladder that never mixes)."""
    from ratings.models import Club, RatingList

    ladder = RatingList.objects.create(
        name="Guildford Ladder", slug="guildford", primary_system="west-surrey", **NO_ENTRY_CHECKS
    )
    Club.objects.create(rating_list=ladder, name="Guildford Go Club", slug="guildford-club")
    return ladder


@pytest.fixture
def make_player(club: Club) -> MakePlayer:
    from ratings.models import Player

    def make(name: str, rank: float = -10, since: date = date(2020, 1, 1), **extra: Any) -> Player:
        slug: str = extra.pop("slug", None) or name.lower().replace(" ", "-")
        home: Club = extra.pop("club", club)
        rating_list: RatingList = extra.pop("rating_list", None) or home.rating_list
        return Player.objects.create(
            name=name, slug=slug, rating_list=rating_list, home_club=home, start_rank=rank, rank=rank, since=since,
            **extra,
        )  # fmt: skip

    return make


def _user(username: str, **extra: Any) -> User:
    return User.objects.create_user(username, f"{username}@example.org", PASSWORD, **extra)


@pytest.fixture
def personas(db: None, club: Club, make_player: MakePlayer) -> Personas:
    """The four personas of the club and its list; the outsiders
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
def outsiders(personas: Personas, other_club: Club, other_list: RatingList) -> dict[str, User]:
    """Volunteer of club B (same list), committee of list 2, site admin."""
    return {
        "volunteer_b": volunteer_of(_user("volunteer-b"), other_club),
        "committee_2": committee_of(_user("committee-2"), other_list),
        "site_admin": _user("admin", is_superuser=True, is_staff=True),
    }


@pytest.fixture
def client_for(personas: Personas) -> ClientFor:
    users: dict[str, User | None] = {
        "anonymous": None,
        "player": personas["player"],
        "volunteer": personas["volunteer"],
        "committee": personas["committee"],
    }

    def make(role: str) -> Client:
        client = Client()
        user = users[role]
        if user is not None:
            client.force_login(user)
        return client

    return make
