"""On PostgreSQL, the checkpoints' JSON (states, games) compressed with lz4
instead of the default pglz.  A late game at 50 % of a list of 200,000
games rewrites about 20 checkpoints, 3.2 MB of JSON: COPYed into jsonb
columns they took the server 0.17-0.18 s with pglz, 0.06-0.07 s with lz4
(measured; docs/recompute.md, "Writing only what changed").  Only values
written from now on are compressed so; the stored ones are read either
way.  A server built without lz4 refuses the setting: pglz stays.  Not
SQLite (it does not compress)."""

from collections.abc import Callable

from django.db import DatabaseError, migrations, transaction
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

COLUMNS = ("states", "games")


def _compress_with(method: str) -> Callable[[StateApps, BaseDatabaseSchemaEditor], None]:
    def run(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
        conn = schema_editor.connection
        if conn.vendor != "postgresql":
            return
        table = conn.ops.quote_name(apps.get_model("ratings", "RatingCheckpoint")._meta.db_table)
        columns = ", ".join(
            f"ALTER COLUMN {conn.ops.quote_name(c)} SET COMPRESSION {method}" for c in COLUMNS
        )
        try:
            with transaction.atomic(using=conn.alias):  # a savepoint: a refusal leaves the rest
                schema_editor.execute(f"ALTER TABLE {table} {columns}")
        except DatabaseError:
            pass  # no lz4 in this server: the default stays

    return run


class Migration(migrations.Migration):
    dependencies = [("ratings", "0013_sparse_seq")]

    operations = [migrations.RunPython(_compress_with("lz4"), _compress_with("DEFAULT"), elidable=False)]
