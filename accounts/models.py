"""Roles per place: a volunteer of a club, the committee of a rating list.

A membership row per user and place (healthchecks' ``Member``): one user may
hold roles at several clubs and lists.  Site administrators (superusers)
create lists and may do everything; public pages need no role at all.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
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


#: How long an invitation link works.
INVITATION_LIFETIME = timedelta(days=14)


def _in_two_weeks() -> Any:
    return timezone.now() + INVITATION_LIFETIME


class Role(models.TextChoices):
    VOLUNTEER = "volunteer", "Volunteer"
    COMMITTEE = "committee", "Committee"


class InvitationQuerySet(models.QuerySet["Invitation"]):
    def pending(self) -> InvitationQuerySet:
        return self.filter(accepted_at__isnull=True, expires_at__gt=timezone.now())


class Invitation(models.Model):
    """A role offered by e-mail: a volunteer seat at a club of the list, or a
    committee seat on the list.  The link carries a one-time token; only its
    SHA-256 is stored (accounts/services/invitations.py)."""

    email = models.EmailField()
    role = models.CharField(max_length=10, choices=Role.choices)
    rating_list = models.ForeignKey(
        "ratings.RatingList", on_delete=models.CASCADE, related_name="invitations"
    )
    #: The club, for a volunteer seat (a club of ``rating_list``).
    club = models.ForeignKey(
        "ratings.Club", on_delete=models.CASCADE, null=True, blank=True, related_name="invitations"
    )
    token_hash = models.CharField(max_length=64, unique=True)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(default=_in_two_weeks)
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    objects = InvitationQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(role="volunteer") & Q(club__isnull=False))
                | (Q(role="committee") & Q(club__isnull=True)),
                name="invitation_club_iff_volunteer",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.email}: {self.place_label}"

    @property
    def place_label(self) -> str:
        if self.role == Role.VOLUNTEER:
            return f"volunteer at {self.club}"
        return f"committee of {self.rating_list}"

    @property
    def is_usable(self) -> bool:
        return self.accepted_at is None and self.expires_at > timezone.now()


class LinkRequest(models.Model):
    """A user's "this is me" on a player of a list, for its committee to
    approve (the player's account becomes the user) or refuse."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        APPROVED = "approved", "Approved"
        REFUSED = "refused", "Refused"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="link_requests")
    player = models.ForeignKey("ratings.Player", on_delete=models.CASCADE, related_name="link_requests")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(default=timezone.now)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            # One open request per user at a time.
            models.UniqueConstraint(
                fields=["user"], condition=Q(status="pending"), name="one_pending_link_request_per_user"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} asks to be {self.player} ({self.status})"
