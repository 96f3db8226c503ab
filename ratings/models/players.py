"""Players of a list, and the former addresses of renamed or merged ones."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from ratings.engine.ranks import MAX_RANK, MIN_RANK, format_rank
from ratings.exchange.names import identity_key, search_key
from ratings.models.lists import COUNTRY_CODE, Club, RatingList


class PlayerQuerySet(models.QuerySet["Player"]):
    def in_list(self, rating_list: RatingList | None) -> PlayerQuerySet:
        return self.filter(rating_list=rating_list) if rating_list is not None else self

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
            player.search_key = search_key(player.name)
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
    #: The name as it is searched (ratings.exchange.names.search_key: ASCII,
    #: case-folded, "ö"/"oe" alike...), served on PostgreSQL by a trigram
    #: index (migration 0009); ratings.names finds players by it.  Set by save().
    search_key = models.CharField(max_length=200, editable=False, default="")
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
    #: ISO 3166 code of the country the player represents; empty = the
    #: list's country (:attr:`country_code`).
    country = models.CharField(
        max_length=2, blank=True, validators=[COUNTRY_CODE], help_text="Empty: the list's country"
    )
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
        self.search_key = search_key(self.name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and {"name", "suffix"} & set(update_fields):
            kwargs["update_fields"] = {*update_fields, "name_key", "search_key"}
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

    @property
    def country_code(self) -> str:
        """The player's country, else the list's; empty when neither is known."""
        return self.country or self.rating_list.country


def player_display_name(name: str, suffix: str) -> str:
    return f"{name} ({suffix})" if suffix else name


class FormerSlug(models.Model):
    """An address a player's record sheet had before a rename or a merge:
    /players/<slug>/ redirects to the player's page now."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="former_slugs")
    slug = models.SlugField(max_length=120, unique=True)

    def __str__(self) -> str:
        return f"{self.slug} -> {self.player_id}"


class DifferentPeople(models.Model):
    """Two players of a list the committee marked as two real people: the
    duplicate finder (ratings/names/duplicates.py) no longer offers the
    pair.  ``first`` is the player of the lower id (one row a pair)."""

    rating_list = models.ForeignKey(RatingList, on_delete=models.CASCADE, related_name="+")
    first = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    marked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    marked_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = "pair marked as different people"
        verbose_name_plural = "pairs marked as different people"
        constraints = [
            models.UniqueConstraint(fields=["first", "second"], name="different_people_once"),
            models.CheckConstraint(
                condition=Q(first__lt=models.F("second")), name="different_people_ordered"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.first} and {self.second} are different people"
