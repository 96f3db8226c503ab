"""The ratings schema in one migration: the squash of the former chain
0001_initial .. 0013_former_slugs.

A fresh database is built from this file alone.  A database that had the
whole former chain applied is marked as having this one applied (``replaces``)
without running anything.  The former chain's data migrations (each club
becoming a list of its own) are left out: a fresh database has no data to
convert.  A database part-way through the former chain cannot upgrade from
here; check ``ratings.E001`` (ratings/migration_checks.py) says so.
"""

import datetime
import django.core.validators
import django.db.models.deletion
import django.utils.timezone
from decimal import Decimal
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    replaces = [
        ("ratings", "0001_initial"),
        ("ratings", "0002_recompute_run"),
        ("ratings", "0003_rating_checkpoint"),
        ("ratings", "0004_history_indexes"),
        ("ratings", "0005_rank_sync"),
        ("ratings", "0006_history_no_db_constraints"),
        ("ratings", "0007_plural_names"),
        ("ratings", "0008_history_unique_index"),
        ("ratings", "0009_rating_lists"),
        ("ratings", "0010_predictions"),
        ("ratings", "0011_rank_sync_rejected_lines"),
        ("ratings", "0012_import_preview"),
        ("ratings", "0013_former_slugs"),
    ]

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Club',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=100)),
                ('slug', models.SlugField(max_length=60, unique=True)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
            ],
            options={
                'ordering': ['name'],
            },
        ),
        migrations.CreateModel(
            name='RatingList',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=100, unique=True)),
                ('slug', models.SlugField(max_length=60, unique=True)),
                ('primary_system', models.CharField(choices=[('sagc', 'South African Go Clubs'), ('egf', 'EGF GoR (since 2021)'), ('egf-old', 'EGF GoR (before 2021)'), ('ffg', 'FFG ladder (since 2022)'), ('ffg-old', 'FFG ladder (before 2022)'), ('west-surrey', 'West Surrey club ladder')], default='sagc', max_length=16)),
                ('compared_systems', models.JSONField(blank=True, default=list)),
                ('api_token_hash', models.CharField(blank=True, max_length=64)),
                ('dirty_from', models.DateField(blank=True, null=True)),
                ('improbable_below', models.FloatField(default=0.05, validators=[django.core.validators.MinValueValidator(0.0), django.core.validators.MaxValueValidator(0.5)])),
                ('check_handicap', models.BooleanField(default=True)),
                ('dirty_generation', models.PositiveBigIntegerField(default=0)),
                ('clean_generation', models.PositiveBigIntegerField(default=0)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
            ],
            options={
                'ordering': ['name'],
            },
        ),
        migrations.CreateModel(
            name='ImportPreview',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('filename', models.CharField(blank=True, max_length=200)),
                ('format', models.CharField(max_length=4)),
                ('data', models.BinaryField()),
                ('report', models.JSONField(default=dict)),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='ratings.club')),
                ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['-created_at', '-id'],
            },
        ),
        migrations.CreateModel(
            name='Player',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=100)),
                ('suffix', models.CharField(blank=True, max_length=40)),
                ('name_key', models.CharField(editable=False, max_length=150)),
                ('slug', models.SlugField(max_length=120, unique=True)),
                ('saga_id', models.CharField(blank=True, max_length=20, verbose_name='SAGA id')),
                ('egd_pin', models.CharField(blank=True, max_length=8, verbose_name='EGD PIN')),
                ('ffg_licence', models.CharField(blank=True, max_length=7, verbose_name='FFG licence')),
                ('aga_id', models.CharField(blank=True, max_length=10, verbose_name='AGA id')),
                ('start_rank', models.SmallIntegerField(validators=[django.core.validators.MinValueValidator(-30), django.core.validators.MaxValueValidator(8)])),
                ('since', models.DateField(default=datetime.date.today)),
                ('rank', models.FloatField()),
                ('rating', models.FloatField(default=0)),
                ('games_count', models.PositiveIntegerField(default=0)),
                ('last_updated', models.DateField(blank=True, null=True)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('home_club', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='members', to='ratings.club')),
                ('user', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='player', to=settings.AUTH_USER_MODEL)),
                ('rating_list', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='players', to='ratings.ratinglist')),
            ],
            options={
                'ordering': ['name', 'suffix'],
            },
        ),
        migrations.CreateModel(
            name='Game',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('date', models.DateField()),
                ('handicap', models.PositiveSmallIntegerField(default=0, validators=[django.core.validators.MaxValueValidator(9)])),
                ('komi', models.DecimalField(decimal_places=1, default=Decimal('6.5'), max_digits=4, validators=[django.core.validators.MinValueValidator(Decimal('-99.5')), django.core.validators.MaxValueValidator(Decimal('99.5'))])),
                ('winner', models.CharField(choices=[('white', 'White'), ('black', 'Black'), ('jigo', 'Jigo (draw)')], max_length=5)),
                ('kind', models.CharField(choices=[('free', 'Free / teaching'), ('internet', 'Internet'), ('club', 'Club'), ('tournament', 'Tournament')], default='club', max_length=12)),
                ('board', models.PositiveSmallIntegerField(choices=[(19, '19×19'), (13, '13×13'), (9, '9×9')], default=19)),
                ('minutes', models.PositiveSmallIntegerField(blank=True, help_text='Main time per player', null=True)),
                ('forfeit', models.BooleanField(default=False)),
                ('comments', models.CharField(blank=True, max_length=200)),
                ('flagged', models.CharField(blank=True, db_default='', default='', max_length=300)),
                ('entered_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('updated_at', models.DateTimeField(auto_now=True)),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='games', to='ratings.club')),
                ('entered_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('black', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='games_as_black', to='ratings.player')),
                ('white', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='games_as_white', to='ratings.player')),
                ('rating_list', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='games', to='ratings.ratinglist')),
            ],
            options={
                'ordering': ['date', 'entered_at', 'id'],
            },
        ),
        migrations.CreateModel(
            name='FormerSlug',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('slug', models.SlugField(max_length=120, unique=True)),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='former_slugs', to='ratings.player')),
            ],
        ),
        migrations.CreateModel(
            name='RankAdjustment',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('date', models.DateField()),
                ('rank', models.FloatField(validators=[django.core.validators.MinValueValidator(-30), django.core.validators.MaxValueValidator(8)])),
                ('rating', models.FloatField(blank=True, null=True)),
                ('reason', models.CharField(blank=True, max_length=200)),
                ('entered_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('entered_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='adjustments', to='ratings.player')),
                ('rating_list', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='adjustments', to='ratings.ratinglist')),
            ],
            options={
                'ordering': ['date', 'entered_at', 'id'],
            },
        ),
        migrations.CreateModel(
            name='RankSync',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('filename', models.CharField(blank=True, max_length=200)),
                ('format', models.CharField(choices=[('ffg', 'FFG ladder'), ('aga', 'AGA TD list'), ('egd', 'EGD rating list'), ('csv', 'CSV')], max_length=3)),
                ('encoding', models.CharField(blank=True, max_length=20)),
                ('as_of', models.DateField(blank=True, null=True)),
                ('read', models.PositiveIntegerField(default=0)),
                ('matched', models.PositiveIntegerField(default=0)),
                ('ambiguous', models.PositiveIntegerField(default=0)),
                ('unmatched', models.PositiveIntegerField(default=0)),
                ('changes', models.PositiveIntegerField(default=0)),
                ('rejected', models.JSONField(blank=True, default=list)),
                ('applied', models.PositiveIntegerField(default=0)),
                ('effective', models.DateField(blank=True, null=True)),
                ('applied_at', models.DateTimeField(blank=True, null=True)),
                ('applied_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('rating_list', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rank_syncs', to='ratings.ratinglist')),
            ],
            options={
                'ordering': ['-created_at', '-id'],
            },
        ),
        migrations.CreateModel(
            name='RankSyncLine',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('match', models.CharField(choices=[('id', 'national id'), ('name', 'name'), ('confirmed', 'confirmed'), ('ambiguous', 'ambiguous'), ('missing', 'not in the list')], max_length=9)),
                ('line', models.PositiveIntegerField(blank=True, null=True)),
                ('national_name', models.CharField(blank=True, max_length=200)),
                ('national_id', models.CharField(blank=True, max_length=20)),
                ('national_rank', models.FloatField(blank=True, null=True)),
                ('club_rank', models.FloatField()),
                ('club_rating', models.FloatField()),
                ('candidates', models.JSONField(blank=True, default=list)),
                ('applied', models.BooleanField(default=False)),
                ('adjustment', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='ratings.rankadjustment')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='ratings.player')),
                ('sync', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='lines', to='ratings.ranksync')),
            ],
            options={
                'ordering': ['player__name', 'player__suffix'],
            },
        ),
        migrations.CreateModel(
            name='ListEvaluation',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('generation', models.PositiveBigIntegerField(default=0)),
                ('computed_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('seconds', models.FloatField(default=0.0)),
                ('games', models.PositiveIntegerField(default=0)),
                ('systems', models.JSONField(default=list)),
                ('tables', models.JSONField(default=dict)),
                ('calibration', models.JSONField(default=dict)),
                ('curves', models.JSONField(default=dict)),
                ('rating_list', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='evaluation', to='ratings.ratinglist')),
            ],
        ),
        migrations.CreateModel(
            name='HistoryEntry',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('system', models.CharField(choices=[('sagc', 'South African Go Clubs'), ('egf', 'EGF GoR (since 2021)'), ('egf-old', 'EGF GoR (before 2021)'), ('ffg', 'FFG ladder (since 2022)'), ('ffg-old', 'FFG ladder (before 2022)'), ('west-surrey', 'West Surrey club ladder')], max_length=16)),
                ('seq', models.PositiveBigIntegerField()),
                ('date', models.DateField()),
                ('colour', models.CharField(blank=True, max_length=1)),
                ('rank_before', models.FloatField()),
                ('rating_before', models.FloatField()),
                ('change', models.FloatField()),
                ('rank_after', models.FloatField()),
                ('rating_after', models.FloatField()),
                ('state', models.JSONField(blank=True, null=True)),
                ('game', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='ratings.game')),
                ('opponent', models.ForeignKey(blank=True, db_constraint=False, db_index=False, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='ratings.player')),
                ('player', models.ForeignKey(db_constraint=False, db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='history', to='ratings.player')),
                ('adjustment', models.ForeignKey(blank=True, db_constraint=False, db_index=False, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='ratings.rankadjustment')),
                ('rating_list', models.ForeignKey(db_constraint=False, db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='ratings.ratinglist')),
            ],
            options={
                'verbose_name_plural': 'history entries',
            },
        ),
        migrations.AddField(
            model_name='club',
            name='rating_list',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='clubs', to='ratings.ratinglist'),
        ),
        migrations.CreateModel(
            name='RecomputeRun',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('from_date', models.DateField(blank=True, null=True)),
                ('full', models.BooleanField(default=False)),
                ('trigger', models.CharField(blank=True, max_length=20)),
                ('games_replayed', models.PositiveIntegerField(default=0)),
                ('rows_written', models.PositiveIntegerField(default=0)),
                ('status', models.CharField(choices=[('running', 'Running'), ('done', 'Done'), ('failed', 'Failed'), ('abandoned', 'Abandoned')], default='running', max_length=10)),
                ('error', models.TextField(blank=True)),
                ('started_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('finished_at', models.DateTimeField(blank=True, null=True)),
                ('duration', models.FloatField(blank=True, help_text='Seconds', null=True)),
                ('generation', models.PositiveBigIntegerField(default=0)),
                ('rating_list', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='recompute_runs', to='ratings.ratinglist')),
            ],
            options={
                'ordering': ['-started_at', '-id'],
            },
        ),
        migrations.CreateModel(
            name='RecordSheet',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('event', models.CharField(blank=True, max_length=200)),
                ('event_class', models.CharField(blank=True, max_length=1)),
                ('date', models.DateField()),
                ('kind', models.CharField(choices=[('free', 'Free / teaching'), ('internet', 'Internet'), ('club', 'Club'), ('tournament', 'Tournament')], default='club', max_length=12)),
                ('comments', models.TextField(blank=True)),
                ('entered_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='sheets', to='ratings.club')),
                ('entered_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['-entered_at'],
            },
        ),
        migrations.CreateModel(
            name='LogEntry',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('at', models.DateTimeField(default=django.utils.timezone.now)),
                ('action', models.CharField(choices=[('add', 'Added'), ('edit', 'Edited'), ('delete', 'Deleted')], max_length=6)),
                ('event_date', models.DateField(help_text='Date of the game or adjustment')),
                ('summary', models.CharField(max_length=300)),
                ('changes', models.JSONField(blank=True, default=dict)),
                ('actor', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='club_log', to=settings.AUTH_USER_MODEL)),
                ('club', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='ratings.club')),
                ('game', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='log', to='ratings.game')),
                ('players', models.ManyToManyField(blank=True, related_name='+', to='ratings.player')),
                ('adjustment', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='log', to='ratings.rankadjustment')),
                ('rating_list', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='log', to='ratings.ratinglist')),
                ('sheet', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='ratings.recordsheet')),
            ],
            options={
                'verbose_name': 'log entry',
                'verbose_name_plural': 'log entries',
                'ordering': ['-at', '-id'],
            },
        ),
        migrations.AddField(
            model_name='game',
            name='sheet',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='games', to='ratings.recordsheet'),
        ),
        migrations.CreateModel(
            name='RatingCheckpoint',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('system', models.CharField(choices=[('sagc', 'South African Go Clubs'), ('egf', 'EGF GoR (since 2021)'), ('egf-old', 'EGF GoR (before 2021)'), ('ffg', 'FFG ladder (since 2022)'), ('ffg-old', 'FFG ladder (before 2022)'), ('west-surrey', 'West Surrey club ladder')], max_length=16)),
                ('date', models.DateField()),
                ('seq', models.PositiveBigIntegerField()),
                ('states', models.JSONField(default=dict)),
                ('games', models.JSONField(default=dict)),
                ('rating_list', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='ratings.ratinglist')),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('rating_list', 'system', 'date'), name='checkpoint_unique_date')],
            },
        ),
        migrations.AddIndex(
            model_name='rankadjustment',
            index=models.Index(fields=['rating_list', 'date', 'entered_at', 'id'], name='adjustment_timeline'),
        ),
        migrations.AddConstraint(
            model_name='rankadjustment',
            constraint=models.CheckConstraint(condition=models.Q(('rank__gte', -30), ('rank__lte', 8)), name='adjustment_rank_range'),
        ),
        migrations.AddIndex(
            model_name='player',
            index=models.Index(fields=['rating_list', 'name'], name='ratings_pla_rating__572c23_idx'),
        ),
        migrations.AddConstraint(
            model_name='player',
            constraint=models.CheckConstraint(condition=models.Q(('start_rank__gte', -30), ('start_rank__lte', 8)), name='player_start_rank_range'),
        ),
        migrations.AddConstraint(
            model_name='player',
            constraint=models.CheckConstraint(condition=models.Q(('name_key', ''), _negated=True), name='player_name_key_set'),
        ),
        migrations.AddConstraint(
            model_name='player',
            constraint=models.UniqueConstraint(fields=('rating_list', 'name_key'), name='player_unique_name_in_list'),
        ),
        migrations.AddIndex(
            model_name='historyentry',
            index=models.Index(fields=['rating_list', 'system', 'date'], name='history_list_date'),
        ),
        migrations.AddIndex(
            model_name='historyentry',
            index=models.Index(condition=models.Q(('adjustment__isnull', False)), fields=['adjustment'], name='history_adjustment'),
        ),
        migrations.AddConstraint(
            model_name='historyentry',
            constraint=models.UniqueConstraint(models.F('player'), models.F('system'), models.F('seq'), name='history_unique_row'),
        ),
        migrations.AddConstraint(
            model_name='club',
            constraint=models.UniqueConstraint(fields=('rating_list', 'name'), name='club_unique_name_in_list'),
        ),
        migrations.AddIndex(
            model_name='recomputerun',
            index=models.Index(fields=['rating_list', '-started_at'], name='recompute_run_list'),
        ),
        migrations.AddIndex(
            model_name='logentry',
            index=models.Index(fields=['rating_list', '-at'], name='log_list_at'),
        ),
        migrations.AddIndex(
            model_name='game',
            index=models.Index(fields=['rating_list', 'date', 'entered_at', 'id'], name='game_timeline'),
        ),
        migrations.AddIndex(
            model_name='game',
            index=models.Index(fields=['white', 'date'], name='ratings_gam_white_i_95c585_idx'),
        ),
        migrations.AddIndex(
            model_name='game',
            index=models.Index(fields=['black', 'date'], name='ratings_gam_black_i_2c5b3c_idx'),
        ),
        migrations.AddConstraint(
            model_name='game',
            constraint=models.CheckConstraint(condition=models.Q(('white', models.F('black')), _negated=True), name='game_distinct_players'),
        ),
        migrations.AddConstraint(
            model_name='game',
            constraint=models.CheckConstraint(condition=models.Q(('handicap__gte', 0), ('handicap__lte', 9)), name='game_handicap_range'),
        ),
        migrations.AddConstraint(
            model_name='game',
            constraint=models.CheckConstraint(condition=models.Q(('komi__gte', -99.5), ('komi__lte', 99.5)), name='game_komi_range'),
        ),
        migrations.AddConstraint(
            model_name='game',
            constraint=models.CheckConstraint(condition=models.Q(('winner__in', ['white', 'black', 'jigo'])), name='game_winner_valid'),
        ),
        migrations.AddConstraint(
            model_name='game',
            constraint=models.CheckConstraint(condition=models.Q(('kind__in', ['free', 'internet', 'club', 'tournament'])), name='game_kind_valid'),
        ),
        migrations.AddConstraint(
            model_name='game',
            constraint=models.CheckConstraint(condition=models.Q(('board__in', [9, 13, 19])), name='game_board_valid'),
        ),
    ]
