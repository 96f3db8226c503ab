"""The migrations: one squashed set per app that builds a fresh database and
matches the models, that databases at the end of the former chain take as
applied, and check ratings.E001 for a database stopped part-way through it."""

from __future__ import annotations

from collections.abc import Iterator
from io import StringIO

import pytest
from django.core.checks import Error
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder

from ratings.migration_checks import E001, check_squashed_chains, partly_applied

RATINGS_SQUASH = ("ratings", "0001_squashed_0013_former_slugs")
ACCOUNTS_SQUASH = ("accounts", "0001_squashed_0003_invitations_link_requests")
#: The migrations made after the squash, in order.
AFTER_SQUASH = [
    ("ratings", "0002_history_without_state"),
    ("ratings", "0003_result_changes"),
    ("ratings", "0004_player_account_per_list"),
    ("ratings", "0005_sync_line_list_rank"),
    ("ratings", "0006_national_codes"),
    ("ratings", "0007_rank_sync_selection_and_outcomes"),
    ("ratings", "0008_events"),
    ("ratings", "0009_player_search_key"),
    ("ratings", "0010_change_notices"),
    ("ratings", "0011_different_people"),
    ("ratings", "0012_game_indexes_not_twice"),
    ("ratings", "0013_sparse_seq"),
    ("ratings", "0014_checkpoint_lz4"),
    ("ratings", "0015_sheet_tournament_events"),
]


def replaced(key: tuple[str, str]) -> list[tuple[str, str]]:
    """The former chain a squash replaces, read from the squash itself."""
    return list(MigrationLoader(None).disk_migrations[key].replaces)


@pytest.fixture
def recorder(db: None) -> Iterator[MigrationRecorder]:
    """The test database's django_migrations table (its rows are rolled back
    with the test's transaction)."""
    yield MigrationRecorder(connection)


def record_former_chain(recorder: MigrationRecorder, app_squash: tuple[str, str], upto: int) -> None:
    """Record the database as it was before the squash: the first ``upto``
    migrations of the former chain applied, the squash not recorded.  (A
    database built from the squash has rows for the squash and for each
    migration it replaces: Django records both.)"""
    recorder.record_unapplied(*app_squash)
    chain = replaced(app_squash)
    for app, name in chain[upto:]:
        recorder.record_unapplied(app, name)
    for app, name in chain[:upto]:
        recorder.record_applied(app, name)


def test_each_app_has_one_migration_set_starting_from_its_squash() -> None:
    loader = MigrationLoader(None)
    ratings = sorted(name for app, name in loader.disk_migrations if app == "ratings")
    accounts = sorted(name for app, name in loader.disk_migrations if app == "accounts")
    assert ratings == [RATINGS_SQUASH[1], *(name for _, name in AFTER_SQUASH)]
    assert accounts == [ACCOUNTS_SQUASH[1]]
    assert len(replaced(RATINGS_SQUASH)) == 13 and len(replaced(ACCOUNTS_SQUASH)) == 3
    for key in (RATINGS_SQUASH, ACCOUNTS_SQUASH):
        # No data migration: a fresh database has nothing to convert.
        operations = loader.disk_migrations[key].operations
        assert not [op for op in operations if type(op).__name__ in ("RunPython", "RunSQL")]


@pytest.mark.django_db
def test_the_test_database_was_built_from_the_squashes_and_nothing_is_left_to_apply() -> None:
    executor = MigrationExecutor(connection)
    applied = executor.loader.applied_migrations
    assert {RATINGS_SQUASH, ACCOUNTS_SQUASH, *AFTER_SQUASH} <= set(applied)
    assert executor.migration_plan(executor.loader.graph.leaf_nodes()) == []


@pytest.mark.django_db
def test_the_models_match_the_migrations() -> None:
    out = StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)
    assert "No changes detected" in out.getvalue()


def test_a_database_at_the_end_of_the_former_chain_takes_the_squash_as_applied(
    recorder: MigrationRecorder,
) -> None:
    record_former_chain(recorder, RATINGS_SQUASH, upto=13)
    record_former_chain(recorder, ACCOUNTS_SQUASH, upto=3)
    for later in AFTER_SQUASH:  # as it was before this release
        recorder.record_unapplied(*later)
    executor = MigrationExecutor(connection)
    assert {RATINGS_SQUASH, ACCOUNTS_SQUASH} <= set(executor.loader.applied_migrations)
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    assert [(m.app_label, m.name, backwards) for m, backwards in plan] == [
        (*later, False) for later in AFTER_SQUASH
    ]
    assert check_squashed_chains(databases=["default"]) == []


@pytest.mark.parametrize("upto", [1, 8, 12])
def test_a_database_part_way_through_the_former_chain_is_refused_with_e001(
    recorder: MigrationRecorder, upto: int
) -> None:
    record_former_chain(recorder, RATINGS_SQUASH, upto=upto)
    errors = check_squashed_chains(databases=["default"])
    assert [(type(e), e.id) for e in errors] == [(Error, E001)]
    last = replaced(RATINGS_SQUASH)[upto - 1][1]
    assert f"the last applied is {last}" in errors[0].msg
    assert "0013_former_slugs" in errors[0].msg and "'default'" in errors[0].msg
    assert "release from before the squash" in (errors[0].hint or "")


def test_migrate_stops_at_e001_before_touching_the_database(recorder: MigrationRecorder) -> None:
    record_former_chain(recorder, RATINGS_SQUASH, upto=8)
    with pytest.raises(SystemCheckError, match=E001):
        call_command("migrate", skip_checks=False, verbosity=0)
    assert ("ratings", "0009_rating_lists") not in recorder.applied_migrations()


def test_e001_names_the_app_of_a_partly_applied_accounts_chain(recorder: MigrationRecorder) -> None:
    record_former_chain(recorder, ACCOUNTS_SQUASH, upto=2)
    errors = check_squashed_chains(databases=["default"])
    assert [e.id for e in errors] == [E001]
    assert "former accounts migrations" in errors[0].msg


def test_no_check_without_a_database_to_read() -> None:
    """``check`` and ``runserver`` pass no database: nothing is read."""
    assert check_squashed_chains(databases=None) == []


def test_a_chain_whose_replaced_files_are_still_there_is_left_to_django() -> None:
    squash, chain = ("app", "0001_squashed"), [("app", "0001"), ("app", "0002")]
    assert partly_applied([(squash, chain)], on_disk=chain, applied=chain[:1]) == []
    assert partly_applied([(squash, chain)], on_disk=[], applied=chain[:1]) == [
        (squash, chain[:1], chain[1:])
    ]
    assert partly_applied([(squash, chain)], on_disk=[], applied=[]) == []
    assert partly_applied([(squash, chain)], on_disk=[], applied=[squash, chain[0]]) == []
