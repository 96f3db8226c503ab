"""The ripple of a late game: the later results it changed.

A game entered late (or corrected, or deleted) is rated in its place in the
timeline, so every later result of the players it touched, and of the
players they met afterwards, may change.  The recompute that replays it
records each later result that changed, old and new, so that a record sheet
can say why a row moved (ratings/recompute/ripple.py writes them,
ratings/presentation/result_changes.py reads them).
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from ratings.engine import SYSTEM_LABELS, SYSTEM_NAMES


class ResultChange(models.Model):
    """One player's result of one later game (or adjustment) in one
    system, changed by the run's causes (RecomputeRun.causes): the values
    the record sheet shows, before the run and after it.  The causing games
    themselves are never ripple: only results that exist before and after
    the run and differ."""

    rating_list = models.ForeignKey("ratings.RatingList", on_delete=models.CASCADE, related_name="+")
    run = models.ForeignKey("ratings.RecomputeRun", on_delete=models.CASCADE, related_name="result_changes")
    system = models.CharField(max_length=16, choices=[(name, SYSTEM_LABELS[name]) for name in SYSTEM_NAMES])
    player = models.ForeignKey("ratings.Player", on_delete=models.CASCADE, related_name="result_changes")
    #: The later game whose result changed (None: an adjustment's row).
    game = models.ForeignKey(
        "ratings.Game", on_delete=models.CASCADE, null=True, blank=True, related_name="result_changes"
    )
    adjustment = models.ForeignKey(
        "ratings.RankAdjustment", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    #: The date of that game or adjustment.
    date = models.DateField()
    #: The change, the rating after the game (index, GoR, level) and the
    #: rank after it: before the run (old) and after it (new).
    old_change = models.FloatField()
    new_change = models.FloatField()
    old_rating = models.FloatField()
    new_rating = models.FloatField()
    old_rank = models.FloatField()
    new_rank = models.FloatField()
    changed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-changed_at", "-id"]
        indexes = [models.Index(fields=["player", "system", "-changed_at"], name="result_change_player")]

    def __str__(self) -> str:
        what = f"game {self.game_id}" if self.game_id else f"adjustment {self.adjustment_id}"
        return (
            f"{self.system} {what} of player {self.player_id}: {self.old_change:+g} -> {self.new_change:+g}"
        )
