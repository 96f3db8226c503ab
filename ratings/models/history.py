"""What the recompute writes: each result of each system (the history),
its runs and its checkpoints."""

from __future__ import annotations

from datetime import date

from django.db import models
from django.db.models import F, OuterRef, Q, Subquery
from django.utils import timezone

from ratings.engine.ranks import format_rank
from ratings.models.games import Game, RankAdjustment
from ratings.models.lists import SYSTEM_CHOICES, RatingList
from ratings.models.log import LogEntry
from ratings.models.players import Player

#: A chart's row: see HistoryQuerySet.for_charts.
ChartRow = tuple[str, int, date, float, float]
#: A hovered point's game: see HistoryQuerySet.point_details.
PointDetail = tuple[float, str | None, str | None, str, str | None]


class HistoryQuerySet(models.QuerySet["HistoryEntry"]):
    def for_sheet(self, player: Player, system: str) -> HistoryQuerySet:
        """The player's record sheet rows in one system, newest first."""
        return (
            self.filter(player=player, system=system)
            .select_related("game", "adjustment", "opponent")
            .order_by("-seq")
        )

    def for_chart(
        self, player: Player, system: str
    ) -> models.QuerySet[HistoryEntry, tuple[date, float, float]]:
        """(date, rank after, rating after) of each row, oldest first."""
        return (
            self.filter(player=player, system=system)
            .order_by("seq")
            .values_list("date", "rank_after", "rating_after")
        )

    def for_charts(self, player: Player, systems: list[str]) -> list[ChartRow]:
        """Each row of the player in ``systems``, oldest first, as the charts
        plot them: (system, seq, date, rank after, rating after); one query
        on the (player, system, seq) index, without a join: the games behind
        the few points marked for hover are read apart (:meth:`point_details`)."""
        return list(
            self.filter(player=player, system__in=systems)
            .order_by("system", "seq")
            .values_list("system", "seq", "date", "rank_after", "rating_after")
        )

    def point_details(self, player: Player, system: str, seqs: list[int]) -> dict[int, PointDetail]:
        """What the player's rows ``seqs`` in ``system`` say on hover, by seq:
        (change, opponent's name and suffix, colour, winner); one query on
        the (player, system, seq) index."""
        rows = (
            self.filter(player=player, system=system, seq__in=seqs)
            .order_by()
            .values_list("seq", "change", "opponent__name", "opponent__suffix", "colour", "game__winner")
        )
        return {
            seq: (change, name, suffix, colour, winner) for seq, change, name, suffix, colour, winner in rows
        }

    def with_opponent_rank(self) -> HistoryQuerySet:
        """Annotate ``opponent_rank``: the opponent's rank at the time of the
        game (the SAGC FAQ, record sheet column 2), read from the opponent's own
        row of the same game in the same system (``rank_before``), so it is
        right even when the game was entered late.  No extra column to keep
        in step: one correlated subquery, and a single probe of the unique
        (player, system, seq) index, since both rows of a game share the
        game's ``seq`` (its place in the timeline).  Looked up by game
        instead, it depended on the planner choosing the game index: without
        table statistics (a freshly rewritten history) PostgreSQL read every
        row of the opponent for each line, ~30 ms a page."""
        same_game = HistoryEntry.objects.filter(
            player=OuterRef("opponent"), system=OuterRef("system"), seq=OuterRef("seq"), game=OuterRef("game")
        ).values("rank_before")[:1]
        return self.annotate(opponent_rank=Subquery(same_game))


class HistoryEntry(models.Model):
    """One row per player per game or adjustment per rating system.

    Written only by the recompute (ratings/recompute/), in bulk.  ``seq``
    orders the list's timeline: the event's date's ordinal times 2**20 plus
    its place in its day (recompute.columns.event_seqs), so the rows of one
    player in one system sort by it, and an event entered late renumbers
    only the later events of its own day.
    """

    # Only the indexes the pages and the recompute use (every index costs
    # time on a full rewrite of millions of rows): list and player are
    # covered by the composite indexes below, opponent is never searched.
    # No foreign-key constraints in the database either (db_constraint=False):
    # their per-row checks were most of the time of a full rewrite on
    # PostgreSQL (docs/recompute.md).  The rows are written only by the
    # recompute, from events it has just read in the same transaction, and
    # Django still cascades the deletes (on_delete=CASCADE).
    rating_list = models.ForeignKey(
        RatingList, on_delete=models.CASCADE, related_name="+", db_index=False, db_constraint=False
    )
    system = models.CharField(max_length=16, choices=SYSTEM_CHOICES)
    seq = models.PositiveBigIntegerField()
    date = models.DateField()
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="history", db_index=False, db_constraint=False
    )
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, null=True, blank=True, related_name="+", db_constraint=False
    )
    adjustment = models.ForeignKey(
        RankAdjustment,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        db_index=False,
        db_constraint=False,
    )
    colour = models.CharField(max_length=1, blank=True)  # "w", "b", "" for an adjustment
    opponent = models.ForeignKey(
        Player,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        db_index=False,
        db_constraint=False,
    )
    rank_before = models.FloatField()
    rating_before = models.FloatField()
    change = models.FloatField()
    rank_after = models.FloatField()
    rating_after = models.FloatField()

    objects = HistoryQuerySet.as_manager()

    class Meta:
        verbose_name_plural = "history entries"
        # One row per player, event and system.  Written with expressions
        # so that it is a separate unique index on SQLite too (a plain
        # UniqueConstraint lives inside SQLite's table definition, where a
        # full rewrite cannot drop it; checking it row by row cost ~3.6 us
        # a row, measured, docs/recompute.md).  Also the record sheet's index.
        constraints = [
            models.UniqueConstraint(F("player"), F("system"), F("seq"), name="history_unique_row"),
        ]
        indexes = [
            models.Index(fields=["rating_list", "system", "date"], name="history_list_date"),
            models.Index(
                fields=["adjustment"], condition=Q(adjustment__isnull=False), name="history_adjustment"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.system} {self.date} {self.player_id}: {self.change:+g}"

    @property
    def rank_after_label(self) -> str:
        return format_rank(self.rank_after)


class RecomputeRun(models.Model):
    """One run of the recompute (ratings/recompute/), shown to the committee."""

    class Status(models.TextChoices):
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"
        #: A run whose process died (killed worker); found by the next run.
        ABANDONED = "abandoned", "Abandoned"

    rating_list = models.ForeignKey(RatingList, on_delete=models.CASCADE, related_name="recompute_runs")
    #: The first date replayed (None = the whole history).
    from_date = models.DateField(null=True, blank=True)
    full = models.BooleanField(default=False)
    #: Why it ran: "commit", "sweeper", "command", "celery", ...
    trigger = models.CharField(max_length=20, blank=True)
    games_replayed = models.PositiveIntegerField(default=0)
    rows_written = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RUNNING)
    error = models.TextField(blank=True)
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    duration = models.FloatField(null=True, blank=True, help_text="Seconds")
    #: The list's dirty generation the run started from.
    generation = models.PositiveBigIntegerField(default=0)
    #: The log entries (games and adjustments entered, corrected, deleted)
    #: this run rates: those no earlier finished run rated (runs.claim_causes).
    causes = models.ManyToManyField(LogEntry, blank=True, related_name="recompute_runs")

    class Meta:
        ordering = ["-started_at", "-id"]
        indexes = [models.Index(fields=["rating_list", "-started_at"], name="recompute_run_list")]

    def __str__(self) -> str:
        return f"{self.rating_list} from {self.from_date or 'start'}: {self.status}"


class RatingCheckpoint(models.Model):
    """Every player's engine state in one system just before ``date``.

    The recompute (ratings/recompute/) resumes from the latest checkpoint
    at or before the dirty date instead of replaying the whole history; it
    stores one every few thousand events, always on a date that no rating
    period (a multi-day tournament) straddles.  ``seq`` is the seq of the
    first event on ``date``.
    """

    rating_list = models.ForeignKey(RatingList, on_delete=models.CASCADE, related_name="+")
    system = models.CharField(max_length=16, choices=SYSTEM_CHOICES)
    date = models.DateField()
    seq = models.PositiveBigIntegerField()
    #: {player id: the system's state JSON}.
    states = models.JSONField(default=dict)
    #: {player id: number of games so far}, for Player.games_count.
    games = models.JSONField(default=dict)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["rating_list", "system", "date"], name="checkpoint_unique_date"),
        ]

    def __str__(self) -> str:
        return f"{self.rating_list} {self.system} before {self.date}"
