"""Players' search key (ratings.exchange.names.search_key), filled for the
players already stored, and on PostgreSQL the extensions pg_trgm and
unaccent and a GIN trigram index on the key, which serves the name search
(ratings/names/search.py).  On SQLite the extensions and the index are
skipped: the search scores every player of the list there."""

from django.contrib.postgres.operations import TrigramExtension, UnaccentExtension
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

from ratings.exchange.names import search_key

INDEX = "ratings_player_search_key_trgm"


def fill_search_keys(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Player = apps.get_model("ratings", "Player")
    players = list(Player.objects.only("pk", "name"))
    for player in players:
        player.search_key = search_key(player.name)
    Player.objects.bulk_update(players, ["search_key"], batch_size=1000)


def create_index(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {INDEX} ON ratings_player USING gin (search_key gin_trgm_ops)"
        )


def drop_index(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):

    dependencies = [
        ("ratings", "0008_events"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="search_key",
            field=models.CharField(default="", editable=False, max_length=200),
        ),
        migrations.RunPython(fill_search_keys, migrations.RunPython.noop),
        # No-ops on any database but PostgreSQL (Django's CreateExtension).
        TrigramExtension(),
        UnaccentExtension(),
        migrations.RunPython(create_index, drop_index),
    ]
