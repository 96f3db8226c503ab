"""Rating lists and their clubs, and the choices games are made of (kind,
winner)."""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.urls import reverse
from django.utils import timezone

from ratings.engine import SYSTEM_LABELS, SYSTEM_NAMES

SYSTEM_CHOICES = [(name, SYSTEM_LABELS[name]) for name in SYSTEM_NAMES]

#: A country as the EGD, the FFG and OpenGotha write it: ISO 3166-1 alpha-2 in capitals.
COUNTRY_CODE = RegexValidator(r"^[A-Z]{2}\Z", "two capital letters, the ISO 3166 code (ZA, GB, FR)")
#: An EGD club code: up to four letters or digits (Camb, Lond, 38GJ); the EGD's own list.
EGD_CLUB_CODE = RegexValidator(
    r"^[A-Za-z0-9]{1,4}\Z", "up to four letters or digits, as the EGD's club list writes it (Camb, Joha)"
)


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
    #: The country its players are from unless a player says otherwise
    #: (Player.country): written in the EGD and FFG files; empty = unknown.
    country = models.CharField(
        max_length=2, blank=True, validators=[COUNTRY_CODE], help_text="ISO 3166 code, e.g. ZA"
    )
    #: Recompute bookkeeping (ratings/recompute/): the earliest date whose
    #: ratings are stale, and a counter bumped by every change so a run can
    #: tell whether more work arrived while it ran.
    dirty_from = models.DateField(null=True, blank=True)
    #: Entry asks the volunteer to confirm a result the primary system gave
    #: less than this probability (ratings/entry/improbable.py).
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
    #: The club's code in the EGD's club list (written in h9 and .tou files
    #: for the games played there); empty = unknown, written as none.
    egd_code = models.CharField(
        "EGD club code", max_length=4, blank=True, validators=[EGD_CLUB_CODE], help_text="e.g. Joha"
    )
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
