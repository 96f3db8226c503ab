"""Rating lists, clubs, players, record sheets, games, rank adjustments and
rating history.

A rating list is one rating pool: its games, in timeline order (game date,
then entry order), are replayed by each rating system the list computes.  A
list has several clubs; a player belongs to the list (with an optional home
club), and a record sheet is entered at a club, its games between any two
players of the club's list.  Ranks are numbers on the engine's scale
(ratings/engine/ranks.py: 30k = -30, 1k = -1, 1d = 0, 9d = 8).
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, OuterRef, Q, Subquery
from django.urls import reverse
from django.utils import timezone

from ratings.engine import SYSTEM_LABELS, SYSTEM_NAMES
from ratings.engine.ranks import MAX_RANK, MIN_RANK, format_rank
from ratings.exchange import Rejected
from ratings.exchange.names import identity_key
from ratings.models_ripple import ResultChange as ResultChange

SYSTEM_CHOICES = [(name, SYSTEM_LABELS[name]) for name in SYSTEM_NAMES]


class Kind(models.TextChoices):
    """Game status (the SAGC FAQ): free 0, internet 0.5, club 1, tournament 1.5."""

    FREE = "free", "Free / teaching"
    INTERNET = "internet", "Internet"
    CLUB = "club", "Club"
    TOURNAMENT = "tournament", "Tournament"


class Winner(models.TextChoices):
    WHITE = "white", "White"
    BLACK = "black", "Black"
    JIGO = "jigo", "Jigo (draw)"


class RatingList(models.Model):
    """One rating list: a pool of players whose games are rated together.

    The SAGC list is one list shared by several clubs (the SAGC FAQ): a player
    has one record sheet wherever they play.  A site may host several lists
    that never mix.  The list owns the rating systems it computes, its
    players, the recompute bookkeeping and runs, rank syncs and API token.
    """

    name = models.CharField(max_length=100, unique=True)
    slug = models.SlugField(max_length=60, unique=True)
    primary_system = models.CharField(max_length=16, choices=SYSTEM_CHOICES, default="sagc")
    #: Systems computed on the same games for comparison, besides the primary.
    compared_systems = models.JSONField(default=list, blank=True)
    #: SHA-256 of the token that lets a national body fetch game records from
    #: the JSON API ("Authorization: Token <token>"); empty = no token.  The
    #: token itself is shown once, when it is made, and never stored.
    api_token_hash = models.CharField(max_length=64, blank=True)
    #: Recompute bookkeeping (ratings/recompute/): the earliest date whose
    #: ratings are stale, and a counter bumped by every change so a run can
    #: tell whether more work arrived while it ran.
    dirty_from = models.DateField(null=True, blank=True)
    #: Entry asks the volunteer to confirm a result the primary system gave
    #: less than this probability (ratings/improbable.py).
    improbable_below = models.FloatField(
        default=0.05, validators=[MinValueValidator(0.0), MaxValueValidator(0.5)]
    )
    #: ... and a handicap that breaks the primary system's handicap rule.
    check_handicap = models.BooleanField(default=True)
    dirty_generation = models.PositiveBigIntegerField(default=0)
    clean_generation = models.PositiveBigIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("rating_list", args=[self.slug])

    @property
    def systems(self) -> list[str]:
        """The primary system first, then the compared ones, no repeats."""
        others = [s for s in self.compared_systems if s != self.primary_system and s in SYSTEM_NAMES]
        return [self.primary_system, *others]


class Club(models.Model):
    """A club of a rating list: where record sheets are entered."""

    rating_list = models.ForeignKey(RatingList, on_delete=models.PROTECT, related_name="clubs")
    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=60, unique=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["rating_list", "name"], name="club_unique_name_in_list"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("club", args=[self.slug])


class PlayerQuerySet(models.QuerySet["Player"]):
    def in_list(self, rating_list: RatingList | None) -> PlayerQuerySet:
        return self.filter(rating_list=rating_list) if rating_list is not None else self

    def search(self, text: str) -> PlayerQuerySet:
        return self.filter(name__icontains=text.strip()) if text.strip() else self

    def named(self, rating_list: RatingList | int, text: str) -> PlayerQuerySet:
        """The player of the list whose name (with its suffix) is ``text``,
        compared as the database's identity rule compares names."""
        list_id = rating_list if isinstance(rating_list, int) else rating_list.pk
        return self.filter(rating_list_id=list_id, name_key=identity_key(text))

    def bulk_create(self, objs: Any, *args: Any, **kwargs: Any) -> list[Player]:
        """As QuerySet.bulk_create, with each player's identity key set (as
        save() sets it), so bulk imports obey the same uniqueness rule."""
        players = list(objs)
        for player in players:
            player.name_key = identity_key(player.display_name)
        return super().bulk_create(players, *args, **kwargs)

    def for_table(self) -> PlayerQuerySet:
        """The players list: one query, the home club joined in, only the
        columns the list shows (the database sorts all the players to find
        a page; narrower rows sort faster)."""
        return self.select_related("home_club").only(
            "name", "suffix", "slug", "home_club__name", "rank", "rating", "games_count", "last_updated"
        )


class Player(models.Model):
    """A player of a rating list: one record sheet wherever they play."""

    rating_list = models.ForeignKey(RatingList, on_delete=models.PROTECT, related_name="players")
    #: Where the player usually plays; may change over time without touching
    #: history (a game belongs to the club it was played at, not to this).
    home_club = models.ForeignKey(
        Club, on_delete=models.SET_NULL, null=True, blank=True, related_name="members"
    )
    name = models.CharField(max_length=100)
    #: Tells apart two real people of the same name, chosen deliberately
    #: ("Cape Town", "junior"); shown everywhere after the name.
    suffix = models.CharField(max_length=40, blank=True)
    #: The name and suffix as the identity rule compares them (Unicode NFC,
    #: case-folded, spacing collapsed): unique within a list, so no duplicate
    #: appears by accident, however the name is typed.  Set by save().
    name_key = models.CharField(max_length=150, editable=False)
    slug = models.SlugField(max_length=120, unique=True)
    #: The account whose "My record sheet" this is: a user has at most one
    #: player per list (someone who plays in two lists of the site has two).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="players"
    )
    # National identities (national lists are matched on these first).
    saga_id = models.CharField("SAGA id", max_length=20, blank=True)
    egd_pin = models.CharField("EGD PIN", max_length=8, blank=True)
    ffg_licence = models.CharField("FFG licence", max_length=7, blank=True)
    aga_id = models.CharField("AGA id", max_length=10, blank=True)
    #: The rank the player starts at: their national rank (the SAGC FAQ, "How do
    #: I get a SAGC rank?": "Your current SAGA rank will be your point of
    #: departure").
    start_rank = models.SmallIntegerField(
        validators=[MinValueValidator(MIN_RANK), MaxValueValidator(MAX_RANK)]
    )
    #: First day the player can have games (a sheet may not predate it).
    since = models.DateField(default=date.today)
    # Cached from the list's primary system by the recompute.
    rank = models.FloatField()
    rating = models.FloatField(default=0)
    games_count = models.PositiveIntegerField(default=0)
    #: Date of the most recently *added* game, not the most recently played
    #: (the SAGC FAQ, "My last updated date has gone backwards").
    last_updated = models.DateField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["name", "suffix"]
        constraints = [
            models.CheckConstraint(
                condition=Q(start_rank__gte=MIN_RANK) & Q(start_rank__lte=MAX_RANK),
                name="player_start_rank_range",
            ),
            models.CheckConstraint(condition=~Q(name_key=""), name="player_name_key_set"),
            models.UniqueConstraint(fields=["rating_list", "name_key"], name="player_unique_name_in_list"),
            models.UniqueConstraint(fields=["rating_list", "user"], name="player_one_account_per_list"),
        ]
        indexes = [models.Index(fields=["rating_list", "name"])]

    def __str__(self) -> str:
        return self.display_name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name_key = identity_key(self.display_name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and {"name", "suffix"} & set(update_fields):
            kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("player", args=[self.slug])

    @property
    def display_name(self) -> str:
        """The name as shown everywhere: with its suffix, when it has one."""
        return player_display_name(self.name, self.suffix)

    @property
    def rank_label(self) -> str:
        return format_rank(self.rank)


def player_display_name(name: str, suffix: str) -> str:
    return f"{name} ({suffix})" if suffix else name


class FormerSlug(models.Model):
    """An address a player's record sheet had before a rename or a merge:
    /players/<slug>/ redirects to the player's page now."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="former_slugs")
    slug = models.SlugField(max_length=120, unique=True)

    def __str__(self) -> str:
        return f"{self.slug} -> {self.player_id}"


class RecordSheetQuerySet(models.QuerySet["RecordSheet"]):
    def recent_at(self, club: Club | int, limit: int = 10) -> RecordSheetQuerySet:
        """A club's latest sheets, newest entered first, with who entered them and how many games."""
        return (
            self.filter(club=club)
            .select_related("entered_by")
            .annotate(games_count=models.Count("games"))
            .order_by("-entered_at", "-id")[:limit]
        )


class RecordSheet(models.Model):
    """One paper record sheet as entered by a volunteer (several games), at
    a club of a list: any two players of the list may meet on it."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="sheets")
    event = models.CharField(max_length=200, blank=True)
    #: EGF tournament class (A, B, C, D) of an imported tournament, if known.
    event_class = models.CharField(max_length=1, blank=True)
    date = models.DateField()
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.CLUB)
    comments = models.TextField(blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    entered_at = models.DateTimeField(default=timezone.now)

    objects = RecordSheetQuerySet.as_manager()

    class Meta:
        ordering = ["-entered_at"]

    def __str__(self) -> str:
        return f"{self.club} {self.date} {self.event}".strip()

    def get_absolute_url(self) -> str:
        return reverse("sheet", args=[self.pk])


#: Timeline order: game date, then entry order.
TIMELINE_ORDER = ("date", "entered_at", "id")


class GameQuerySet(models.QuerySet["Game"]):
    def timeline(self) -> GameQuerySet:
        """Timeline order: game date, then entry order."""
        return self.order_by(*TIMELINE_ORDER)

    def of_player(self, player: Player) -> GameQuerySet:
        return self.filter(Q(white=player) | Q(black=player))


#: The board sizes a game may be played on.
BOARD_CHOICES = [(19, "19×19"), (13, "13×13"), (9, "9×9")]


class Game(models.Model):
    #: The list whose timeline the game belongs to (its sheet's club's list,
    #: kept on the game for the timeline index).
    rating_list = models.ForeignKey(RatingList, on_delete=models.PROTECT, related_name="games")
    #: Where the game was played: its sheet's club.
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="games")
    sheet = models.ForeignKey(RecordSheet, on_delete=models.CASCADE, related_name="games")
    date = models.DateField()
    white = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="games_as_white")
    black = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="games_as_black")
    handicap = models.PositiveSmallIntegerField(default=0, validators=[MaxValueValidator(9)])
    #: Komi to White; negative means komi to Black (the SAGC FAQ, column 5).
    komi = models.DecimalField(
        max_digits=4,
        decimal_places=1,
        default=Decimal("6.5"),
        validators=[MinValueValidator(Decimal("-99.5")), MaxValueValidator(Decimal("99.5"))],
    )
    winner = models.CharField(max_length=5, choices=Winner.choices)
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.CLUB)
    board = models.PositiveSmallIntegerField(default=19, choices=BOARD_CHOICES)
    minutes = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Main time per player")
    forfeit = models.BooleanField(default=False)
    comments = models.CharField(max_length=200, blank=True)
    #: Why the game was improbable when entered and saved after the
    #: volunteer confirmed it (ratings/improbable.py); blank: not flagged.
    #: A database default too: bulk loads that write the table's columns
    #: by name (manage.py generate) need not know this one.
    flagged = models.CharField(max_length=300, blank=True, default="", db_default="")
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    entered_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["date", "entered_at", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(white=F("black")), name="game_distinct_players"),
            models.CheckConstraint(
                condition=Q(handicap__gte=0) & Q(handicap__lte=9), name="game_handicap_range"
            ),
            models.CheckConstraint(condition=Q(komi__gte=-99.5) & Q(komi__lte=99.5), name="game_komi_range"),
            models.CheckConstraint(condition=Q(winner__in=Winner.values), name="game_winner_valid"),
            models.CheckConstraint(condition=Q(kind__in=Kind.values), name="game_kind_valid"),
            models.CheckConstraint(condition=Q(board__in=[9, 13, 19]), name="game_board_valid"),
        ]
        indexes = [
            models.Index(fields=["rating_list", "date", "entered_at", "id"], name="game_timeline"),
            models.Index(fields=["white", "date"]),
            models.Index(fields=["black", "date"]),
        ]

    def __str__(self) -> str:
        return f"{self.date} {self.white} (W) vs {self.black} (B), {self.winner} wins"

    def save(self, *args: Any, **kwargs: Any) -> None:
        # A game belongs to the list of the club it was played at.
        if self.rating_list_id is None and self.club_id is not None:
            self.rating_list_id = Club.objects.values_list("rating_list_id", flat=True).get(pk=self.club_id)
        super().save(*args, **kwargs)


class RankAdjustment(models.Model):
    """A rank set by the committee from a date on (the SAGC FAQ: a record-sheet
    row whose opponent is the player's own name)."""

    rating_list = models.ForeignKey(RatingList, on_delete=models.PROTECT, related_name="adjustments")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="adjustments")
    date = models.DateField()
    rank = models.FloatField(validators=[MinValueValidator(MIN_RANK), MaxValueValidator(MAX_RANK)])
    #: The index (or rating) set with the rank; None = the system's start
    #: value for that rank (SAGC index 0).
    rating = models.FloatField(null=True, blank=True)
    reason = models.CharField(max_length=200, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    entered_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["date", "entered_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(rank__gte=MIN_RANK) & Q(rank__lte=MAX_RANK), name="adjustment_rank_range"
            ),
        ]
        indexes = [
            models.Index(fields=["rating_list", "date", "entered_at", "id"], name="adjustment_timeline")
        ]

    def __str__(self) -> str:
        return f"{self.date} {self.player} set to {format_rank(self.rank)}"

    @property
    def rank_label(self) -> str:
        return format_rank(self.rank)


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
    is the event's position in the club's timeline, so the rows of one
    player in one system sort by it.
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


class LogEntryQuerySet(models.QuerySet["LogEntry"]):
    def for_page(self) -> LogEntryQuerySet:
        """Newest entry first, with what the page shows joined in."""
        return (
            self.select_related("rating_list", "club", "actor")
            .prefetch_related("players")
            .order_by("-at", "-id")
        )

    def in_list(self, rating_list: RatingList | None) -> LogEntryQuerySet:
        return self.filter(rating_list=rating_list) if rating_list is not None else self

    def about(self, text: str) -> LogEntryQuerySet:
        """Entries concerning a player, given by slug or part of the name."""
        text = text.strip()
        if not text:
            return self
        players = Player.objects.filter(Q(slug=text) | Q(name__icontains=text))
        return self.filter(
            pk__in=LogEntry.players.through.objects.filter(player__in=players).values("logentry")
        )

    def between(self, start: date | None, end: date | None) -> LogEntryQuerySet:
        """Entries whose game or adjustment is dated within [start, end]."""
        qs = self
        if start is not None:
            qs = qs.filter(event_date__gte=start)
        if end is not None:
            qs = qs.filter(event_date__lte=end)
        return qs


class LogEntry(models.Model):
    """The log-file of the SAGC FAQ: every game and adjustment as entered, and
    every later change to one, with who did it and when."""

    class Action(models.TextChoices):
        ADD = "add", "Added"
        EDIT = "edit", "Edited"
        DELETE = "delete", "Deleted"

    rating_list = models.ForeignKey(RatingList, on_delete=models.CASCADE, related_name="log")
    #: Where it happened: the club of the sheet (None for a list-wide change).
    club = models.ForeignKey(Club, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    at = models.DateTimeField(default=timezone.now)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="club_log"
    )
    action = models.CharField(max_length=6, choices=Action.choices)
    sheet = models.ForeignKey(RecordSheet, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="log")
    adjustment = models.ForeignKey(
        RankAdjustment, on_delete=models.SET_NULL, null=True, blank=True, related_name="log"
    )
    #: The players concerned, so the log can be filtered by player even
    #: after a game was deleted.
    players = models.ManyToManyField(Player, blank=True, related_name="+")
    event_date = models.DateField(help_text="Date of the game or adjustment")
    summary = models.CharField(max_length=300)
    #: For an edit: {field: [old, new]}.
    changes = models.JSONField(default=dict, blank=True)

    objects = LogEntryQuerySet.as_manager()

    class Meta:
        verbose_name = "log entry"
        verbose_name_plural = "log entries"
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["rating_list", "-at"], name="log_list_at")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.get_action_display()} {self.summary}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        # An entry about a club's sheet belongs to the club's list.
        if self.rating_list_id is None and self.club_id is not None:
            self.rating_list_id = Club.objects.values_list("rating_list_id", flat=True).get(pk=self.club_id)
        super().save(*args, **kwargs)


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
    period (a multi-day tournament) straddles.  ``seq`` is the timeline
    position of the first event on ``date``.
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


class RankSync(models.Model):
    """One import of a national rank list: the proposal, then what was applied.
    Listed for the committee with who, when, file and counts."""

    FORMAT_CHOICES = [
        ("ffg", "FFG ladder"),
        ("aga", "AGA TD list"),
        ("egd", "EGD rating list"),
        ("csv", "CSV"),
    ]

    rating_list = models.ForeignKey(RatingList, on_delete=models.CASCADE, related_name="rank_syncs")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    filename = models.CharField(max_length=200, blank=True)
    format = models.CharField(max_length=3, choices=FORMAT_CHOICES)
    encoding = models.CharField(max_length=20, blank=True)
    #: The list's own date, when it gives one.
    as_of = models.DateField(null=True, blank=True)
    read = models.PositiveIntegerField(default=0)
    matched = models.PositiveIntegerField(default=0)
    ambiguous = models.PositiveIntegerField(default=0)
    unmatched = models.PositiveIntegerField(default=0)
    changes = models.PositiveIntegerField(default=0)
    #: The list's lines that did not read, not imported: each
    #: {"line", "reason", "text", "column"}, shown in the preview.
    rejected = models.JSONField(default=list, blank=True)
    applied = models.PositiveIntegerField(default=0)
    effective = models.DateField(null=True, blank=True)
    applied_at = models.DateTimeField(null=True, blank=True)
    applied_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    #: Not stored: the rejected lines as read, on a sync just previewed
    #: (committee.preview_rank_sync sets it).
    rejected_lines: tuple[Rejected, ...]

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.get_format_display()} list {self.filename} ({self.created_at:%Y-%m-%d})"

    def get_absolute_url(self) -> str:
        return reverse("rank_sync", args=[self.pk])


class RankSyncLine(models.Model):
    """One player of the list in a rank sync: how they matched and what is proposed."""

    MATCH_CHOICES = [
        ("id", "national id"),
        ("name", "name"),
        ("confirmed", "confirmed"),
        ("ambiguous", "ambiguous"),
        ("missing", "not in the list"),
    ]

    sync = models.ForeignKey(RankSync, on_delete=models.CASCADE, related_name="lines")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    match = models.CharField(max_length=9, choices=MATCH_CHOICES)
    line = models.PositiveIntegerField(null=True, blank=True)
    national_name = models.CharField(max_length=200, blank=True)
    national_id = models.CharField(max_length=20, blank=True)
    national_rank = models.FloatField(null=True, blank=True)
    #: The player's rank and rating on this list when the sync was read.
    list_rank = models.FloatField()
    list_rating = models.FloatField()
    #: For an ambiguous match: the entries that carry the player's name.
    candidates = models.JSONField(default=list, blank=True)
    applied = models.BooleanField(default=False)
    adjustment = models.ForeignKey(
        RankAdjustment, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    #: Not stored: does the line propose a rank change (committee.proposes_change)?
    #: Set by the rank sync page for its template.
    changes: bool

    class Meta:
        ordering = ["player__name", "player__suffix"]

    def __str__(self) -> str:
        return f"sync #{self.sync_id}: {self.player_id} ({self.match})"

    @property
    def list_rank_label(self) -> str:
        return format_rank(self.list_rank)

    @property
    def national_rank_label(self) -> str:
        return format_rank(self.national_rank) if self.national_rank is not None else ""


class ListEvaluation(models.Model):
    """Which system predicts the list's results best, computed after a
    recompute (ratings/predictions.py, docs/evaluation.md): the tables of
    ``ratings.evaluation.report.summary``, the calibration bins and the
    curves fitted on every game (what entry and the handicap advice use)."""

    rating_list = models.OneToOneField(RatingList, on_delete=models.CASCADE, related_name="evaluation")
    #: The list's clean generation the figures were computed from.
    generation = models.PositiveBigIntegerField(default=0)
    computed_at = models.DateTimeField(default=timezone.now)
    seconds = models.FloatField(default=0.0)
    games = models.PositiveIntegerField(default=0)
    systems = models.JSONField(default=list)
    #: {scope: {predictor: {games, decisive, log_loss, brier, accuracy}}}.
    tables = models.JSONField(default=dict)
    #: {predictor: [[low, high, games, predicted, observed], ...]}.
    calibration = models.JSONField(default=dict)
    #: {predictor: [intercept, slope]}.
    curves = models.JSONField(default=dict)

    def __str__(self) -> str:
        return f"{self.rating_list}: {self.games} games predicted"


class ImportPreviewQuerySet(models.QuerySet["ImportPreview"]):
    def expired(self) -> ImportPreviewQuerySet:
        return self.filter(created_at__lt=timezone.now() - ImportPreview.LIFETIME)


class ImportPreview(models.Model):
    """A tournament file uploaded in the browser, read and previewed, waiting
    for the committee's "Save" (ratings/import_preview.py).

    The bytes are kept so that saving re-reads the very file that was
    previewed; ``report`` is what the preview showed (ImportReport.summary),
    compared with the import made at saving.  Deleted when saved, or once
    older than LIFETIME.
    """

    LIFETIME = timedelta(days=1)

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    filename = models.CharField(max_length=200, blank=True)
    #: The format the file was read as (detected, or as the uploader forced it).
    format = models.CharField(max_length=4)
    data = models.BinaryField()
    report = models.JSONField(default=dict)

    objects = ImportPreviewQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"preview of {self.filename or 'a tournament file'} for {self.club_id}"

    def get_absolute_url(self) -> str:
        return reverse("tournament_import_preview", args=[self.pk])

    @property
    def expired(self) -> bool:
        return self.created_at < timezone.now() - self.LIFETIME
