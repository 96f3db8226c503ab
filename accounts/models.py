"""Roles per place: a volunteer of a club, the committee of a rating list.

A membership row per user and place (healthchecks' ``Member``): one user may
hold roles at several clubs and lists.  Site administrators (superusers)
create lists and may do everything; public pages need no role at all.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class Volunteer(models.Model):
    """Enters record sheets at ``club``, corrects and deletes their games."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="volunteering")
    club = models.ForeignKey("ratings.Club", on_delete=models.CASCADE, related_name="volunteers")
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    granted_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "club"], name="volunteer_once_per_club")]

    def __str__(self) -> str:
        return f"{self.user} volunteers at {self.club}"


class CommitteeMember(models.Model):
    """The rating officers of ``rating_list``: what volunteers do at every club
    of the list, plus adjustments, rank sync, imports, exports, settings,
    merges, and the list's clubs and members."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="committees")
    rating_list = models.ForeignKey("ratings.RatingList", on_delete=models.CASCADE, related_name="committee")
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    granted_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "rating_list"], name="committee_once_per_list"),
        ]

    def __str__(self) -> str:
        return f"{self.user} is on the committee of {self.rating_list}"
