"""Giving and taking roles, and linking users to players (docs/administration.md).

The rules:

- the committee of a list gives and takes volunteer seats at the list's
  clubs and committee seats on the list; a site admin may do so anywhere;
- a list keeps at least one committee member: taking the last seat is
  refused, whoever asks (a committee member may leave once someone else
  sits; to hand over, invite the successor first);
- a user is linked to at most one player of each list (a person who plays
  in two lists of the site has a player in each); the committee of the
  player's list links and unlinks, or approves a user's "this is me"
  request.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import CommitteeMember, LinkRequest, Role, Volunteer
from accounts.roles import forget_places
from ratings.models import Club, Player, RatingList


class MembershipError(ValueError):
    """A role or link change refused by a rule, in words a person can act on."""


def grant(user: Any, role: str, *, club: Club | None = None, rating_list: RatingList | None = None,
          by: Any = None) -> bool:  # fmt: skip
    """Give ``user`` a volunteer seat at ``club`` or a committee seat on
    ``rating_list``; False when they already held it (nothing changes)."""
    granted_by = by if getattr(by, "is_authenticated", False) else None
    if role == Role.VOLUNTEER:
        if club is None:
            raise MembershipError("A volunteer seat is at a club.")
        _, created = Volunteer.objects.get_or_create(
            user=user, club=club, defaults={"granted_by": granted_by}
        )
    elif role == Role.COMMITTEE:
        if rating_list is None:
            raise MembershipError("A committee seat is on a list.")
        _, created = CommitteeMember.objects.get_or_create(
            user=user, rating_list=rating_list, defaults={"granted_by": granted_by}
        )
    else:
        raise MembershipError(f"Unknown role {role!r}.")
    forget_places(user)
    return created


def take_volunteer_seat(seat: Volunteer) -> None:
    seat.delete()
    forget_places(seat.user)


def take_committee_seat(seat: CommitteeMember) -> None:
    """Refused for the list's last committee member."""
    with transaction.atomic():
        seats = list(
            CommitteeMember.objects.select_for_update()
            .filter(rating_list_id=seat.rating_list_id)
            .values_list("pk", flat=True)
        )
        if seats == [seat.pk]:
            raise MembershipError(
                f"{seat.user} is the last committee member of {seat.rating_list}; a list keeps one. "
                "Invite or appoint another member first."
            )
        CommitteeMember.objects.filter(pk=seat.pk).delete()
    forget_places(seat.user)


def link(player: Player, user: Any) -> None:
    """Make ``user`` the account of ``player`` (their "My record sheet")."""
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if player.user_id is not None and player.user_id != user.pk:
            raise MembershipError(f"{player} is already linked to {player.user}.")
        other = Player.objects.filter(user=user, rating_list_id=player.rating_list_id).exclude(pk=player.pk)
        if (already := other.first()) is not None:
            raise MembershipError(f"{user} is already linked to {already} ({already.rating_list}).")
        Player.objects.filter(pk=player.pk).update(user=user)
        # A decision by hand settles the user's open request for this player.
        LinkRequest.objects.filter(user=user, player=player, status=LinkRequest.Status.PENDING).update(
            status=LinkRequest.Status.APPROVED, decided_at=timezone.now()
        )


def unlink(player: Player) -> None:
    Player.objects.filter(pk=player.pk).update(user=None)


def ask_link(user: Any, player: Player) -> LinkRequest:
    """A user's "this is me"; one open request per user at a time."""
    if Player.objects.filter(user=user, rating_list_id=player.rating_list_id).exists():
        raise MembershipError(f"Your account is already linked to a player of {player.rating_list}.")
    if player.user_id is not None:
        raise MembershipError(f"{player} is already linked to an account.")
    if LinkRequest.objects.filter(user=user, status=LinkRequest.Status.PENDING).exists():
        raise MembershipError(
            "You already asked to be linked to a player; the committee has not answered yet."
        )
    return LinkRequest.objects.create(user=user, player=player)


def decide_link(request: LinkRequest, approve: bool, by: Any) -> None:
    if request.status != LinkRequest.Status.PENDING:
        raise MembershipError("This request was already answered.")
    with transaction.atomic():
        if approve:
            link(request.player, request.user)
        LinkRequest.objects.filter(pk=request.pk).update(
            status=LinkRequest.Status.APPROVED if approve else LinkRequest.Status.REFUSED,
            decided_by=by,
            decided_at=timezone.now(),
        )
