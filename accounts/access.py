"""Access helpers for the objects of list administration (STYLE.md: one
helper per kind of object, healthchecks' ``_get_check_for_user``).

Every view that manages clubs, roles, invitations or player links fetches
its object here: Http404 for an object that does not exist, PermissionDenied
(403) for one the user may not manage.  Lists and clubs themselves come from
ratings/access.py (``rating_list_for_committee``, ``player_for_committee``).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404

from accounts import invitations
from accounts.models import CommitteeMember, Invitation, LinkRequest, Volunteer
from accounts.roles import is_committee_of, is_site_admin
from ratings.models import Player


def require_site_admin(user: Any) -> None:
    """Creating rating lists is the site admin's."""
    if not is_site_admin(user):
        raise PermissionDenied("only a site administrator creates rating lists")


def _committee_of(user: Any, rating_list: Any) -> None:
    if not is_committee_of(user, rating_list.pk):
        raise PermissionDenied(f"only the committee of {rating_list} may do this")


def invitation_for_committee(user: Any, pk: int) -> Invitation:
    invitation = get_object_or_404(Invitation.objects.select_related("rating_list", "club"), pk=pk)
    _committee_of(user, invitation.rating_list)
    return invitation


def volunteer_seat_for_committee(user: Any, pk: int) -> Volunteer:
    seat = get_object_or_404(Volunteer.objects.select_related("user", "club__rating_list"), pk=pk)
    _committee_of(user, seat.club.rating_list)
    return seat


def committee_seat_for_committee(user: Any, pk: int) -> CommitteeMember:
    seat = get_object_or_404(CommitteeMember.objects.select_related("user", "rating_list"), pk=pk)
    _committee_of(user, seat.rating_list)
    return seat


def link_request_for_committee(user: Any, pk: int) -> LinkRequest:
    request = get_object_or_404(LinkRequest.objects.select_related("user", "player__rating_list"), pk=pk)
    _committee_of(user, request.player.rating_list)
    return request


def player_to_claim(user: Any, slug: str) -> Player:
    """A player a logged-in user may say "this is me" about: one not linked
    yet, by a user not linked yet (a user is one player)."""
    player = get_object_or_404(Player.objects.select_related("rating_list"), slug=slug)
    if Player.objects.filter(user_id=user.pk).exists():
        raise PermissionDenied("your account is already linked to a player")
    if player.user_id is not None:
        raise PermissionDenied(f"{player} is already linked to an account")
    return player


def invitation_by_token(token: str) -> Invitation:
    """The token is the permission: anyone holding the link may use it."""
    invitation = invitations.find(token)
    if invitation is None:
        raise Http404("no such invitation")
    return invitation
