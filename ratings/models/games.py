"""Record sheets, their games, and the committee's rank adjustments: what
the recompute replays, in timeline order."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone

from ratings.engine.ranks import MAX_RANK, MIN_RANK, format_rank
from ratings.models.lists import Club, Kind, RatingList, Winner
from ratings.models.players import Player


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
    #: An imported tournament's tie-break columns as its file names them.
    tiebreak_header = models.CharField(max_length=200, blank=True, default="", db_default="")
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    entered_at = models.DateTimeField(default=timezone.now)

    objects = RecordSheetQuerySet.as_manager()

    class Meta:
        ordering = ["-entered_at"]
        indexes = [
            # A list's latest sheets (its home) and a club's events, newest first.
            models.Index(fields=["club", "-entered_at"], name="sheet_club_entered"),
            # The tournament sheets with an event, the rating periods read by
            # every recompute and game page (recompute.sheet_events): one
            # sheet in four at a million games, 4-5 ms read through
            # sheet_club_entered and 1 ms through this one (measured).
            models.Index(
                fields=["club"],
                name="sheet_tournament_events",
                condition=Q(kind=Kind.TOURNAMENT) & ~Q(event=""),
            ),
        ]

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
    #: kept on the game for the timeline index). No index of its own for
    #: this and the players: the indexes below begin with them, and each
    #: index more is work on every game written (a tenth of a million-game
    #: import's time in the database, bench/RESULTS.md).
    rating_list = models.ForeignKey(
        RatingList, on_delete=models.PROTECT, related_name="games", db_index=False
    )
    #: Where the game was played: its sheet's club.
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="games")
    sheet = models.ForeignKey(RecordSheet, on_delete=models.CASCADE, related_name="games")
    date = models.DateField()
    white = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="games_as_white", db_index=False)
    black = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="games_as_black", db_index=False)
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
    #: The round of a tournament game, as its file numbers it; None on a club night.
    round = models.PositiveSmallIntegerField(null=True, blank=True)
    comments = models.CharField(max_length=200, blank=True)
    #: Why the game was improbable when entered and saved after the
    #: volunteer confirmed it (ratings/entry/improbable.py); blank: not flagged.
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
