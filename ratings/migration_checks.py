"""System check ratings.E001: a database stopped part-way through a migration
chain that has since been squashed.

Each app's former chain of migrations (ratings 0001_initial ..
0013_former_slugs, accounts 0001_role_groups .. 0003_invitations_link_requests)
was squashed into one migration and the former files deleted.  A database
with none of the former chain applied is built from the squash; one with
all of it applied counts the squash as applied.  One with only some of it
applied can no longer migrate, since the files it needs next are gone:
Django would stop with a bare "depends on nonexistent node".  This check
says what to do instead, before ``migrate`` touches anything (``migrate``
runs the checks tagged ``database`` on the database it migrates).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.apps import AppConfig
from django.core.checks import CheckMessage, Error, Tags, register
from django.db import connections
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder

E001 = "ratings.E001"


def partly_applied(
    replacing: Iterable[tuple[tuple[str, str], Sequence[tuple[str, str]]]],
    on_disk: Iterable[tuple[str, str]],
    applied: Iterable[tuple[str, str]],
) -> list[tuple[tuple[str, str], list[tuple[str, str]], list[tuple[str, str]]]]:
    """Each squash (key, its replaced keys) whose former chain is recorded in
    part, with its replaced files gone: (squash, applied, missing)."""
    present, done = set(on_disk), set(applied)
    found = []
    for key, replaces in replacing:
        if key in done or all(name in present for name in replaces):
            continue
        have = [name for name in replaces if name in done]
        missing = [name for name in replaces if name not in done]
        if have and missing:
            found.append((key, have, missing))
    return found


@register(Tags.database)
def check_squashed_chains(
    app_configs: Sequence[AppConfig] | None = None, databases: Sequence[str] | None = None, **kwargs: Any
) -> list[CheckMessage]:
    """ratings.E001 for each database part-way through a squashed chain."""
    if not databases:
        return []  # checks without a database (runserver, check) read none
    disk = MigrationLoader(None, ignore_no_migrations=True)
    replacing = [(key, list(m.replaces)) for key, m in disk.disk_migrations.items() if m.replaces]
    errors: list[CheckMessage] = []
    for alias in databases:
        recorder = MigrationRecorder(connections[alias])
        if not recorder.has_table():
            continue
        for key, have, missing in partly_applied(
            replacing, disk.disk_migrations, recorder.applied_migrations()
        ):
            app, squash = key
            errors.append(
                Error(
                    f"Database {alias!r} stopped part-way through the former {app} migrations, which "
                    f"this release replaces with {app}.{squash}: the last applied is {have[-1][1]}, "
                    f"{len(missing)} more ({missing[0][1]} .. {missing[-1][1]}) are needed first.",
                    hint=(
                        f"Check out a release from before the squash (its {app}/migrations/ still holds "
                        f"{missing[-1][1]}), run 'manage.py migrate' there to apply the former chain to "
                        "its end, then come back to this release and migrate again "
                        "(docs/administration.md, Upgrading)."
                    ),
                    id=E001,
                )
            )
    return errors
