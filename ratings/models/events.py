"""What an event keeps besides its games: each player's place, tie-breaks
and rounds without a game (byes), as the tournament file gave them."""

from __future__ import annotations

from django.db import models

from ratings.models.games import RecordSheet
from ratings.models.players import Player


class EventEntry(models.Model):
    """One player of an imported tournament, as its file lists them.

    An event is a record sheet (an imported tournament or a club night);
    a club night has no entries: its crosstable is made from its games.
    """

    sheet = models.ForeignKey(RecordSheet, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="event_entries")
    #: The player's line among the file's players (1 = first): the crosstable's order.
    position = models.PositiveIntegerField()
    #: The place the file gives ("" on a tie, when the file leaves it blank).
    place = models.CharField(max_length=10, blank=True)
    #: The tie-break figures as the file writes them, in its order.
    tiebreaks = models.JSONField(default=list, blank=True)
    #: Rounds without a game: [[round, the file's cell ("0=", "0+", "?"), in words], ...].
    byes = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["sheet", "position"]
        indexes = [models.Index(fields=["sheet", "position"], name="event_entry_order")]

    def __str__(self) -> str:
        return f"{self.sheet_id} #{self.position} {self.player_id}"
