"""One rating list shared by many clubs (issue 11).

Each existing club becomes a list holding that one club: the list takes the
club's id, name, slug, systems, recompute bookkeeping and API token (stored
from now on as its SHA-256), and every row that belonged to the club's pool
(players, games, adjustments, history, checkpoints, runs, rank syncs, log)
now belongs to that list.  A player's club becomes their home club.  Players
get the normalised identity key the list's uniqueness rule compares; two
players of one club whose names differed only in case or spacing (allowed
before) are told apart by a suffix ("2", "3", ...) rather than refused.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Callable
from typing import Any

import django.db.models.deletion
import django.utils.timezone
from django.core.management.color import no_style
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

TABLES_OF_A_POOL = ("game", "historyentry", "logentry", "player", "rankadjustment", "ranksync",
                    "ratingcheckpoint", "recomputerun")  # fmt: skip


def _key(name: str) -> str:
    # The identity rule of ratings.exchange.names.identity_key, frozen here
    # as it was when this migration was written.
    folded = unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())
    return re.sub(r"\s+", " ", folded).strip()


def clubs_become_lists(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Club = apps.get_model("ratings", "Club")
    RatingList = apps.get_model("ratings", "RatingList")
    Player = apps.get_model("ratings", "Player")
    for club in Club.objects.order_by("pk"):
        token = club.api_token
        RatingList.objects.create(
            pk=club.pk,
            name=club.name,
            slug=club.slug,
            primary_system=club.primary_system,
            compared_systems=club.compared_systems,
            api_token_hash=hashlib.sha256(token.encode()).hexdigest() if token else "",
            dirty_from=club.dirty_from,
            dirty_generation=club.dirty_generation,
            clean_generation=club.clean_generation,
        )
    # The lists took their clubs' ids: the id sequence must move past them.
    connection = schema_editor.connection
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), [RatingList]):
            cursor.execute(sql)
    Club.objects.update(rating_list_id=models.F("pk"))
    for name in TABLES_OF_A_POOL:
        apps.get_model("ratings", name).objects.update(rating_list_id=models.F("club_id"))
    seen: set[tuple[int, str]] = set()
    for player in Player.objects.order_by("club_id", "pk").only("pk", "club_id", "name"):
        suffix, n = "", 1
        while (player.club_id, _key(f"{player.name} ({suffix})" if suffix else player.name)) in seen:
            n += 1
            suffix = str(n)
        full = f"{player.name} ({suffix})" if suffix else player.name
        seen.add((player.club_id, _key(full)))
        Player.objects.filter(pk=player.pk).update(suffix=suffix, name_key=_key(full))
    if connection.vendor == "postgresql":
        # The foreign keys' deferred checks of these updates must run before
        # the same transaction alters the tables ("pending trigger events").
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")


def _list_fk(related_name: str, on_delete: Callable[..., None], **extra: Any) -> models.ForeignKey[Any, Any]:
    return models.ForeignKey(on_delete=on_delete, related_name=related_name, to="ratings.ratinglist", **extra)


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0008_history_unique_index"),
    ]

    operations = [
        # --- 1. the list, and the new columns, nullable while they are filled ---
        migrations.CreateModel(
            name="RatingList",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=100, unique=True)),
                ("slug", models.SlugField(max_length=60, unique=True)),
                ("primary_system", models.CharField(choices=[("sagc", "South African Go Clubs"), ("egf", "EGF GoR (since 2021)"), ("egf-old", "EGF GoR (before 2021)"), ("ffg", "FFG ladder (since 2022)"), ("ffg-old", "FFG ladder (before 2022)"), ("west-surrey", "West Surrey club ladder")], default="sagc", max_length=16)),
                ("compared_systems", models.JSONField(blank=True, default=list)),
                ("api_token_hash", models.CharField(blank=True, max_length=64)),
                ("dirty_from", models.DateField(blank=True, null=True)),
                ("dirty_generation", models.PositiveBigIntegerField(default=0)),
                ("clean_generation", models.PositiveBigIntegerField(default=0)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
            ],
            options={"ordering": ["name"]},
        ),
        migrations.AddField("club", "created_at", models.DateTimeField(default=django.utils.timezone.now)),
        migrations.AddField("club", "rating_list", _list_fk("clubs", django.db.models.deletion.PROTECT, null=True)),
        migrations.AddField("game", "rating_list", _list_fk("games", django.db.models.deletion.PROTECT, null=True)),
        migrations.AddField("historyentry", "rating_list", _list_fk("+", django.db.models.deletion.CASCADE, null=True, db_index=False, db_constraint=False)),
        migrations.AddField("logentry", "rating_list", _list_fk("log", django.db.models.deletion.CASCADE, null=True)),
        migrations.AddField("player", "rating_list", _list_fk("players", django.db.models.deletion.PROTECT, null=True)),
        migrations.AddField("rankadjustment", "rating_list", _list_fk("adjustments", django.db.models.deletion.PROTECT, null=True)),
        migrations.AddField("ranksync", "rating_list", _list_fk("rank_syncs", django.db.models.deletion.CASCADE, null=True)),
        migrations.AddField("ratingcheckpoint", "rating_list", _list_fk("+", django.db.models.deletion.CASCADE, null=True)),
        migrations.AddField("recomputerun", "rating_list", _list_fk("recompute_runs", django.db.models.deletion.CASCADE, null=True)),
        migrations.AddField("player", "suffix", models.CharField(blank=True, max_length=40)),
        migrations.AddField("player", "name_key", models.CharField(default="", editable=False, max_length=150)),
        # --- 2. each club becomes a list ---
        migrations.RunPython(clubs_become_lists, migrations.RunPython.noop, elidable=False),
        # --- 3. the club's pool columns go; the list's become required ---
        migrations.RemoveConstraint(model_name="player", name="player_unique_name_in_club"),
        migrations.RemoveConstraint(model_name="ratingcheckpoint", name="checkpoint_unique_date"),
        migrations.RemoveIndex(model_name="game", name="game_timeline"),
        migrations.RemoveIndex(model_name="historyentry", name="history_club_date"),
        migrations.RemoveIndex(model_name="logentry", name="ratings_log_club_id_90a31b_idx"),
        migrations.RemoveIndex(model_name="player", name="ratings_pla_club_id_4aa002_idx"),
        migrations.RemoveIndex(model_name="rankadjustment", name="adjustment_timeline"),
        migrations.RemoveIndex(model_name="recomputerun", name="recompute_run_club"),
        *[migrations.RemoveField(model_name="club", name=name) for name in (
            "api_token", "clean_generation", "compared_systems", "dirty_from", "dirty_generation", "primary_system")],
        *[migrations.RemoveField(model_name=model, name="club") for model in (
            "historyentry", "rankadjustment", "ranksync", "ratingcheckpoint", "recomputerun")],
        migrations.RenameField(model_name="player", old_name="club", new_name="home_club"),
        migrations.AlterField(
            model_name="player",
            name="home_club",
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="members", to="ratings.club"),
        ),
        migrations.AlterField(
            model_name="logentry",
            name="club",
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to="ratings.club"),
        ),
        migrations.AlterField("club", "name", models.CharField(max_length=100)),
        migrations.AlterField("player", "name_key", models.CharField(editable=False, max_length=150)),
        migrations.AlterField("club", "rating_list", _list_fk("clubs", django.db.models.deletion.PROTECT)),
        migrations.AlterField("game", "rating_list", _list_fk("games", django.db.models.deletion.PROTECT)),
        migrations.AlterField("historyentry", "rating_list", _list_fk("+", django.db.models.deletion.CASCADE, db_index=False, db_constraint=False)),
        migrations.AlterField("logentry", "rating_list", _list_fk("log", django.db.models.deletion.CASCADE)),
        migrations.AlterField("player", "rating_list", _list_fk("players", django.db.models.deletion.PROTECT)),
        migrations.AlterField("rankadjustment", "rating_list", _list_fk("adjustments", django.db.models.deletion.PROTECT)),
        migrations.AlterField("ranksync", "rating_list", _list_fk("rank_syncs", django.db.models.deletion.CASCADE)),
        migrations.AlterField("ratingcheckpoint", "rating_list", _list_fk("+", django.db.models.deletion.CASCADE)),
        migrations.AlterField("recomputerun", "rating_list", _list_fk("recompute_runs", django.db.models.deletion.CASCADE)),
        migrations.AlterModelOptions(name="player", options={"ordering": ["name", "suffix"]}),
        migrations.AlterModelOptions(name="ranksyncline", options={"ordering": ["player__name", "player__suffix"]}),
        migrations.AddIndex("game", models.Index(fields=["rating_list", "date", "entered_at", "id"], name="game_timeline")),
        migrations.AddIndex("historyentry", models.Index(fields=["rating_list", "system", "date"], name="history_list_date")),
        migrations.AddIndex("logentry", models.Index(fields=["rating_list", "-at"], name="log_list_at")),
        migrations.AddIndex("player", models.Index(fields=["rating_list", "name"], name="ratings_pla_rating__572c23_idx")),
        migrations.AddIndex("rankadjustment", models.Index(fields=["rating_list", "date", "entered_at", "id"], name="adjustment_timeline")),
        migrations.AddIndex("recomputerun", models.Index(fields=["rating_list", "-started_at"], name="recompute_run_list")),
        migrations.AddConstraint("club", models.UniqueConstraint(fields=("rating_list", "name"), name="club_unique_name_in_list")),
        migrations.AddConstraint("player", models.CheckConstraint(condition=models.Q(("name_key", ""), _negated=True), name="player_name_key_set")),
        migrations.AddConstraint("player", models.UniqueConstraint(fields=("rating_list", "name_key"), name="player_unique_name_in_list")),
        migrations.AddConstraint("ratingcheckpoint", models.UniqueConstraint(fields=("rating_list", "system", "date"), name="checkpoint_unique_date")),
    ]
