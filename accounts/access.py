"""Access helpers for the objects of list administration (one
helper per kind of object, healthchecks' ``_get_check_for_user``).

Every view that manages clubs, roles, invitations or player links fetches
its object here: Http404 for an object that does not exist, PermissionDenied
(403) for one the user may not manage.  Lists and clubs themselves come from
ratings/access.py (``rating_list_for_committee``, ``player_for_committee``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.core.exceptions import PermissionDenied
from django.db.models import Model, QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404

from accounts.models import CommitteeMember, Invitation, LinkRequest, Volunteer
from accounts.roles import is_committee_of, is_site_admin
from accounts.services import invitations
from ratings.models import Player

T = TypeVar("T", bound=Model)


def require_site_admin(user: Any) -> None:
    """Creating rating lists is the site admin's."""
    if not is_site_admin(user):
        raise PermissionDenied("only a site administrator creates rating lists")


def _committee_of(user: Any, rating_list: Any) -> None:
    if not is_committee_of(user, rating_list.pk):
        raise PermissionDenied(f"only the committee of {rating_list} may do this")


def _for_committee(user: Any, queryset: QuerySet[T], pk: int, rating_list_of: Callable[[T], Any]) -> T:
    """The object ``pk`` of ``queryset``, if the user sits on its list's committee."""
    found = get_object_or_404(queryset, pk=pk)
    _committee_of(user, rating_list_of(found))
    return found


def invitation_for_committee(user: Any, pk: int) -> Invitation:
    queryset = Invitation.objects.select_related("rating_list", "club")
    return _for_committee(user, queryset, pk, lambda invitation: invitation.rating_list)


def volunteer_seat_for_committee(user: Any, pk: int) -> Volunteer:
    queryset = Volunteer.objects.select_related("user", "club__rating_list")
    return _for_committee(user, queryset, pk, lambda seat: seat.club.rating_list)


def committee_seat_for_committee(user: Any, pk: int) -> CommitteeMember:
    queryset = CommitteeMember.objects.select_related("user", "rating_list")
    return _for_committee(user, queryset, pk, lambda seat: seat.rating_list)


def link_request_for_committee(user: Any, pk: int) -> LinkRequest:
    queryset = LinkRequest.objects.select_related("user", "player__rating_list")
    return _for_committee(user, queryset, pk, lambda request: request.player.rating_list)


def player_to_claim(user: Any, slug: str) -> Player:
    """A player a logged-in user may say "this is me" about: one not linked
    yet, by a user not linked to a player of its list yet (a user is one
    player per list)."""
    player = get_object_or_404(Player.objects.select_related("rating_list"), slug=slug)
    if Player.objects.filter(user_id=user.pk, rating_list_id=player.rating_list_id).exists():
        raise PermissionDenied(f"your account is already linked to a player of {player.rating_list}")
    if player.user_id is not None:
        raise PermissionDenied(f"{player} is already linked to an account")
    return player


def invitation_by_token(token: str) -> Invitation:
    """The token is the permission: anyone holding the link may use it."""
    invitation = invitations.find(token)
    if invitation is None:
        raise Http404("no such invitation")
    return invitation
