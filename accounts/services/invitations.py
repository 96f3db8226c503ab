"""Invitations by e-mail: a one-time link that gives a role.

The token (``secrets.token_urlsafe``) is sent once, in the e-mail; only its
SHA-256 is stored, as for the API token.  A link works for
``INVITATION_LIFETIME`` (14 days) and once: accepting it records who and
when, and a second visit is told the link was used.  A newcomer sets a
username and password on the link's page; someone already on the site logs
in and accepts, and the role goes to the account they are logged in with.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone

from accounts.models import Invitation, Role
from accounts.services.memberships import MembershipError, grant
from ratings.models import Club, RatingList


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def invite(
    email: str, role: str, rating_list: RatingList, club: Club | None, by: Any
) -> tuple[Invitation, str]:
    """A new invitation and its token (to put in the link; not stored)."""
    if role == Role.VOLUNTEER and (club is None or club.rating_list_id != rating_list.pk):
        raise MembershipError(f"A volunteer is invited to a club of {rating_list}.")
    token = secrets.token_urlsafe(32)
    invitation = Invitation.objects.create(
        email=email.strip(),
        role=role,
        rating_list=rating_list,
        club=club if role == Role.VOLUNTEER else None,
        token_hash=token_hash(token),
        invited_by=by if getattr(by, "is_authenticated", False) else None,
    )
    return invitation, token


def send(invitation: Invitation, link: str) -> None:
    """E-mail the link through Django's e-mail backend (the console in development)."""
    inviter = invitation.invited_by.get_username() if invitation.invited_by else "The site administrator"
    body = (
        f"{inviter} invites you to be {invitation.place_label} on the club ratings site.\n\n"
        f"Open this link to accept (it works once, until {invitation.expires_at:%Y-%m-%d}):\n{link}\n\n"
        "If you did not expect this, ignore this message."
    )
    send_mail(
        f"Invitation: {invitation.place_label}",
        body,
        settings.DEFAULT_FROM_EMAIL,
        [invitation.email],
    )


def find(token: str) -> Invitation | None:
    return (
        Invitation.objects.select_related("rating_list", "club", "invited_by")
        .filter(token_hash=token_hash(token))
        .first()
    )


def accept(invitation: Invitation, user: Any) -> None:
    """Give the invitation's role to ``user``; a link works once."""
    with transaction.atomic():
        fresh = Invitation.objects.select_for_update().get(pk=invitation.pk)
        if fresh.accepted_at is not None:
            raise MembershipError("This invitation was already used.")
        if fresh.expires_at <= timezone.now():
            raise MembershipError("This invitation has expired; ask for a new one.")
        grant(user, fresh.role, club=fresh.club, rating_list=fresh.rating_list, by=fresh.invited_by)
        Invitation.objects.filter(pk=fresh.pk).update(accepted_at=timezone.now(), accepted_by=user)
