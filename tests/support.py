"""Helpers every area of the test suite shares (fixtures are in conftest.py).

- where things are: :data:`REPO`, :data:`DATA` (the fixture files we write);
- the real files written by other software, in a folder beside the
  repository that a user's clone does not have: :func:`shared_folder`,
  :func:`shared_data`, :func:`realdata`, and what the valid tournament
  files among them hold: :data:`VALID_TOURNAMENTS`;
- real services and the compiled engine: :func:`need`;
- a mutation run's hypothesis examples and test order: :data:`MUTATION_RUN`,
  :func:`examples`, :func:`fastest_first`;
- waiting for something to happen: :func:`wait_until` (never a bare sleep);
- the data of many tests: :data:`PASSWORD`, :data:`ROLES`,
  :data:`NO_ENTRY_CHECKS`, :func:`make_pool`, :func:`volunteer_of`,
  :func:`committee_of`, :func:`celery_broker`, :func:`list_admin_form`.

A missing prerequisite skips its test with a reason, unless the environment
variable named for it is set (``REQUIRE_SHARED``, ``REQUIRE_BROWSER``,
``REQUIRE_SERVICES``, ``REQUIRE_COMPILED``; CI sets all four): then the test
fails, so that CI can never pass by skipping.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable, Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, TypedDict, TypeVar

import pytest
from django.contrib.auth.models import User
from django.test import Client

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse

    from ratings.models import Club, Player

    # The test client's response (an HttpResponse with the request, the
    # templates, json()...): django-stubs names its type only privately, and
    # only for type checking (nothing of it runs).
    TestResponse: TypeAlias = _MonkeyPatchedWSGIResponse

REPO = Path(__file__).resolve().parent.parent
#: Fixture files we wrote ourselves (tests/README.md says how each was made).
DATA = Path(__file__).resolve().parent / "data"
PASSWORD = "correct-horse-battery-staple"
#: The lists of the fixtures do not ask to confirm improbable results or
#: handicaps off the rule: tests of other features enter whatever games they
#: need; tests of the check turn it on (tests/site/test_improbable_entry.py).
NO_ENTRY_CHECKS: dict[str, Any] = {"improbable_below": 0.0, "check_handicap": False}
ROLES = ("anonymous", "player", "volunteer", "committee")
#: The record-sheet entry page, posted to by the tests of sheets.
SHEET_URL = "/sheets/new/"

#: Where the real files written by other software are: the folder ``shared``
#: beside the repository, or the folder this environment variable names.
SHARED_ENV = "CLUBRATING_SHARED"
#: The variables that turn a missing prerequisite from a skip into a failure.
REQUIRE = ("REQUIRE_SHARED", "REQUIRE_BROWSER", "REQUIRE_SERVICES", "REQUIRE_COMPILED")
#: The end of every skip reason :func:`need` gives (conftest's report hook
#: knows by it that the skip was decided, not an accident).
DECIDED = "makes this a failure)"
#: The poll interval of :func:`wait_until`: short enough that a test goes on
#: within a twentieth of a second of its condition, long enough not to load
#: the machine (a predicate may query the database or a server).
POLL_SECONDS = 0.05

T = TypeVar("T")

#: A mutation run (``make mutation``, docs/testing.md): mutmut sets
#: ``MUTANT_UNDER_TEST`` in its own process from its first step
#: (``mutant_generation``), through its stats step (``stats``, every selected
#: test run once with every mutated function recording its callers) to each
#: mutant's run in a forked child (the mutant's name).  The hypothesis
#: properties then run the ``mutation`` profile (tests/conftest.py): few
#: examples, always the same ones, so that thousands of runs end in time and a
#: mutant's verdict does not depend on the examples drawn.
MUTATION_RUN = "MUTANT_UNDER_TEST" in os.environ
#: The examples of each property in a mutation run.
MUTATION_EXAMPLES = 10


def examples(count: int) -> int:
    """A property's ``max_examples``: ``count``, or at most
    :data:`MUTATION_EXAMPLES` in a mutation run (a property's own setting
    would otherwise win over the profile's)."""
    return min(count, MUTATION_EXAMPLES) if MUTATION_RUN else count


#: The tests' recorded times of a mutation run (mutmut's stats file), read
#: once: in the fork server's process, whose forked runs of each mutant
#: inherit them.
_durations: dict[str, float] = {}


def fastest_first(items: list[pytest.Item], folder: Path) -> None:
    """Order a mutation run's tests by the times mutmut recorded for them,
    fastest first (``folder``: the run's root, ``mutants/``, which holds
    ``mutmut-stats.json``).

    mutmut runs a mutant's tests with ``-x`` but in no particular order (a
    set of test ids), so a mutant that a 10 ms test kills could first wait
    for seconds of properties that do not notice it; fastest first, it ends
    at the first fast test that fails.  Without the file (the stats step
    writes it) the order is left alone."""
    if not _durations:
        with contextlib.suppress(OSError, ValueError):
            _durations.update(json.loads((folder / "mutmut-stats.json").read_text())["duration_by_test"])
    if _durations:
        items.sort(key=lambda item: _durations.get(item.nodeid, 0.0))


def need(available: bool, what: str, env: str = "REQUIRE_SERVICES") -> None:
    """Skip (or fail, when ``env`` is set) a test whose prerequisite is missing."""
    assert env in REQUIRE, env
    if available:
        return
    if os.environ.get(env):
        pytest.fail(f"{what} is required here ({env} is set) but not available")
    pytest.skip(f"{what} (setting {env} {DECIDED}")


def wait_until(predicate: Callable[[], T], timeout: float, what: str, every: float = POLL_SECONDS) -> T:
    """Poll ``predicate`` every ``every`` seconds until it returns something
    true, and return that; fail the test naming ``what`` after ``timeout``
    seconds.  The one place in the suite that pauses: a test waits for a
    condition with a deadline, never for a guessed time."""
    deadline = time.monotonic() + timeout
    while not (result := predicate()):
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: not within {timeout:.0f} s")
        time.sleep(every)
    return result


def shared_folder() -> Path:
    """The folder of real files written by other software (not in a clone)."""
    return Path(os.environ.get(SHARED_ENV) or REPO.parent / "shared")


def _shared(sub: str, name: str) -> Path:
    folder = shared_folder() / sub
    path = folder / name
    if not path.exists():
        need(
            False,
            f"needs the shared real-data folder beside the repository (../shared/{sub}, or set {SHARED_ENV}): "
            f"{path} is absent; these tests read files written by other software, which a clone does not hold",
            env="REQUIRE_SHARED",
        )
    return path


def shared_data(name: str) -> Path:
    """A real file of the shared ``data`` folder, or skip with the reason."""
    return _shared("data", name)


def shared_bytes(name: str) -> bytes:
    """The bytes of a real file of the shared ``data`` folder, or skip."""
    return shared_data(name).read_bytes()


def realdata(name: str) -> bytes:
    """The bytes of a real file of the shared ``realdata`` folder, or skip."""
    return _shared("realdata", name).read_bytes()


def realdata_folder() -> Path:
    """The shared ``realdata`` folder itself, or skip with the reason."""
    return _shared("realdata", "")


#: The valid tournament files of the real-data folder: file, player lines,
#: games, forfeits among them, start date.  Counted without our readers, by
#: the method tests/exchange/test_exchange_realdata.py repeats to check every
#: row; the start is the file's DT / ;date= / start= line.
VALID_TOURNAMENTS = [
    ("auvergne-maritime-2005.tou", 9, 12, 0, date(2005, 1, 8)),
    ("egc-2009.tou", 600, 2350, 0, date(2009, 7, 26)),  # one "both win" pair (lines 559, 584)
    ("egc-2013.h9", 594, 2259, 33, date(2013, 7, 28)),
    ("egc-2013.tou", 594, 2259, 0, date(2013, 7, 28)),  # .tou has no '!': the same games, unmarked
    ("frioul-2018.tou", 56, 99, 0, date(2018, 9, 7)),
    ("frioul-2019.tou", 40, 56, 0, date(2019, 9, 14)),
    ("juvisy-forfeit-2019.h9", 19, 36, 1, date(2019, 10, 26)),
    ("juvisy-forfeit-2019.tou", 19, 36, 0, date(2019, 10, 26)),
    ("kpmc-2003.h9", 58, 178, 0, date(2003, 9, 27)),
    ("kpmc-2007.h9", 66, 264, 0, date(2007, 10, 14)),
    ("kpmc-2016.h9", 54, 162, 0, date(2016, 9, 5)),
    ("kpmc-2019.h9", 62, 186, 0, date(2019, 9, 2)),
    ("kpmc-2020.h9", 61, 105, 0, date(2020, 8, 4)),
    ("levallois-2018.h9", 7, 9, 0, date(2018, 1, 13)),
    ("lyon-partlic-2017.h9", 22, 31, 0, date(2017, 2, 11)),
    ("open-france-2018.tou", 31, 105, 0, date(2018, 8, 24)),
    ("polish-students-2006.h9", 25, 66, 0, date(2006, 7, 20)),
    ("polish-women-2025.h9", 12, 21, 1, date(2025, 7, 19)),
    ("rennes-2021-reversed.h9", 21, 34, 0, date(2021, 4, 29)),
    ("rennes-2021.h9", 21, 34, 1, date(2021, 2, 27)),
    ("rennes-2021.tou", 21, 34, 0, date(2021, 2, 27)),
    ("toulouse-test-2021.h9", 4, 3, 1, date(2021, 7, 4)),
    ("toulouse-test-2021.tou", 4, 3, 1, date(2021, 7, 4)),
    ("veterans-2015.h9", 14, 35, 0, date(2015, 11, 7)),
    ("veterans-2015.tou", 14, 35, 0, date(2015, 11, 7)),
    ("wagc-1981.h9", 32, 60, 1, date(1981, 3, 10)),
    ("wagc-2005-oddDT.h9", 65, 256, 0, date(2005, 5, 24)),
    ("wagc-2021.h9", 57, 167, 0, date(2021, 6, 4)),  # lines 47 and 57 both lose by default: no game
    ("wagc-2022-online.h9", 45, 127, 0, date(2022, 11, 22)),
    # No result entered at all ('?' everywhere, or an empty round list): the
    # players and no game; the import then says there is no game to import.
    ("lille-nonlatin-2011.h9", 9, 0, 0, date(2011, 11, 5)),
    ("lille-nonlatin-iso-2011.tou", 9, 0, 0, date(2011, 11, 5)),
    ("oustalous-internet-2020.h9", 16, 0, 0, date(2020, 6, 4)),
    ("pairgo-european-2012.h9", 25, 0, 0, date(2012, 6, 2)),
    ("san-diego-2012.tou", 14, 0, 0, date(2012, 4, 15)),
]


def logged_in(user: Any) -> Any:
    """A test client signed in as ``user``."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


def refused_as(response: Any, expected: str | int) -> bool:
    """Whether the persona was refused as ``expected`` says ("login": sent to
    the login page; 403), asserting the refusal is exactly that; False when
    ``expected`` is a success (the caller checks it)."""
    if expected == "login":
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
        return True
    if expected == 403:
        assert response.status_code == 403
        return True
    return False


#: Every column of a stored history row (HistoryEntry), in the order tests compare them.
HISTORY_COLUMNS = (
    "system", "seq", "date", "player_id", "game_id", "adjustment_id", "colour", "opponent_id",
    "rank_before", "rating_before", "change", "rank_after", "rating_after",
)  # fmt: skip


def stored_history(club: Any, columns: tuple[str, ...] = HISTORY_COLUMNS) -> list[tuple[object, ...]]:
    """The stored history of ``club``'s list, ``columns`` of each row, in
    (system, seq, colour) order: what the recompute tests compare."""
    from ratings.models import HistoryEntry

    return list(
        HistoryEntry.objects.filter(rating_list=club.rating_list)
        .order_by("system", "seq", "colour")
        .values_list(*columns)
    )


def sheet_data(club: Any, rows: list[dict[str, Any]], **header: Any) -> dict[str, str]:
    """The POST of a record sheet at ``club``: yesterday's club night unless
    ``header`` says otherwise, one ``row-N-`` group of fields per game."""
    from django.utils import timezone

    data = {
        "club": str(club.pk),
        "event": "Tuesday club night",
        "date": (timezone.localdate() - timedelta(days=1)).isoformat(),
        "kind": "club",
        "comments": "",
        **header,
    }
    for n, row in enumerate(rows):
        values = {"white": "", "black": "", "handicap": "0", "komi": "", "winner": "", "date": "", **row}
        data.update({f"row-{n}-{name}": str(value) for name, value in values.items()})
    return data


def list_admin_form(club: Any, compared_systems: list[str]) -> dict[str, object]:
    """The POST of the Django admin's change page of ``club``'s list (the
    list and its one club, inline) with ``compared_systems`` ticked."""
    rating_list = club.rating_list
    return {
        "name": rating_list.name,
        "slug": rating_list.slug,
        "primary_system": rating_list.primary_system,
        "compared_systems": compared_systems,
        "clubs-TOTAL_FORMS": "1",
        "clubs-INITIAL_FORMS": "1",
        "clubs-0-id": str(club.pk),
        "clubs-0-rating_list": str(rating_list.pk),
        "clubs-0-name": club.name,
        "clubs-0-slug": club.slug,
    }


def volunteer_of(user: Any, club: Any) -> Any:
    from accounts.models import Volunteer

    Volunteer.objects.create(user=user, club=club)
    return user


def committee_of(user: Any, rating_list: Any) -> Any:
    from accounts.models import CommitteeMember

    CommitteeMember.objects.create(user=user, rating_list=rating_list)
    return user


def make_pool(name: str, slug: str, **list_fields: Any) -> Club:
    """A separate rating pool: a new list holding one club of the same name
    (what an independent club was before lists); returns the club."""
    from ratings.models import Club, RatingList

    pool = RatingList.objects.create(name=name, slug=slug, **{**NO_ENTRY_CHECKS, **list_fields})
    return Club.objects.create(rating_list=pool, name=name, slug=slug)


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


# --- the types of the shared fixtures (conftest.py) -------------------------------

#: The ``client_for`` fixture: a test client logged in as a persona ("anonymous": not logged in).
ClientFor = Callable[[str], Client]


class MakePlayer(Protocol):
    """The ``make_player`` fixture: a player of the club (or of ``club=``)."""

    def __call__(self, name: str, rank: float = -10, since: date = ..., **extra: Any) -> Player: ...


class Personas(TypedDict):
    """The ``personas`` fixture: the users of the four roles (nobody for "anonymous")."""

    anonymous: None
    player: User
    volunteer: User
    committee: User
