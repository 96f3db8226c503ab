"""Who may do what, where: the role predicates of the site.

- anonymous visitors and players read the public pages; a user linked to a
  Player (Player.user) also has "my record sheet";
- a volunteer *of a club* (accounts.models.Volunteer) enters record sheets at
  that club and corrects or deletes the games of sheets entered there;
- the committee *of a list* (accounts.models.CommitteeMember) does all that
  at every club of the list, plus adjustments, rank sync, imports, exports,
  settings, merges, and the list's clubs and members;
- a site administrator (Django superuser) creates lists and may do anything.

The predicates read a user's memberships once per user object (one query
each) and answer from that.  Views never call them directly for an object:
they fetch it through ratings/access.py, one helper per kind of object.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from accounts.models import CommitteeMember, Volunteer

VOLUNTEER = "volunteer"
COMMITTEE = "committee"


@dataclass(frozen=True)
class Places:
    """The places where a user holds a role: club ids and list ids."""

    admin: bool
    volunteer_clubs: frozenset[int]
    committee_lists: frozenset[int]


NOBODY = Places(False, frozenset(), frozenset())


def places_of(user: Any) -> Places:
    """The user's roles (cached on the user object for the request)."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return NOBODY
    cached = getattr(user, "clubrating_places", None)
    if cached is None:
        cached = Places(
            admin=bool(user.is_superuser),
            volunteer_clubs=frozenset(Volunteer.objects.filter(user=user).values_list("club_id", flat=True)),
            committee_lists=frozenset(
                CommitteeMember.objects.filter(user=user).values_list("rating_list_id", flat=True)
            ),
        )
        user.clubrating_places = cached
    return cached


def forget_places(user: Any) -> None:
    """Drop the cached roles (after granting or taking one)."""
    if hasattr(user, "clubrating_places"):
        del user.clubrating_places


def is_site_admin(user: Any) -> bool:
    return places_of(user).admin


def is_committee_of(user: Any, rating_list_id: int) -> bool:
    places = places_of(user)
    return places.admin or rating_list_id in places.committee_lists


def may_enter_at(user: Any, club_id: int, rating_list_id: int) -> bool:
    """May enter, correct and delete record sheets at the club."""
    places = places_of(user)
    return places.admin or club_id in places.volunteer_clubs or rating_list_id in places.committee_lists


def is_committee(user: Any) -> bool:
    """On the committee of some list (or a site admin): for menus."""
    places = places_of(user)
    return places.admin or bool(places.committee_lists)


def is_volunteer(user: Any) -> bool:
    """May enter sheets somewhere: for menus."""
    places = places_of(user)
    return places.admin or bool(places.committee_lists) or bool(places.volunteer_clubs)


def role_of(user: Any) -> str:
    """The widest role the user holds anywhere, for display."""
    if is_site_admin(user):
        return "site admin"
    if is_committee(user):
        return COMMITTEE
    if is_volunteer(user):
        return VOLUNTEER
    if getattr(user, "is_authenticated", False):
        return "player"
    return "anonymous"
