"""A player's wish to hear by e-mail that a late game changed their rating."""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from ratings.models.players import Player


class ChangeNotice(models.Model):
    """Off by default: a row exists once the player's user asked for the
    e-mails; ``active`` False after an unsubscribe.  ``last_run`` is the
    last recompute run already told about, so one recompute sends at most
    one e-mail, whatever the number of its runs or of the receivers' retries."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="change_notice")
    active = models.BooleanField(default=True)
    last_run = models.PositiveBigIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.player_id}: {'on' if self.active else 'off'}"
