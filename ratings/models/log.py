"""The log of every change (the SAGC FAQ's "log-file")."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from ratings.models.games import Game, RankAdjustment, RecordSheet
from ratings.models.lists import Club, RatingList
from ratings.models.players import Player


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

    def about(self, players: Iterable[int]) -> LogEntryQuerySet:
        """Entries concerning any of these players (their ids; the log's
        filter finds them by name with ratings.names)."""
        return self.filter(
            pk__in=LogEntry.players.through.objects.filter(player__in=list(players)).values("logentry")
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
