"""The site's roles, on Django's built-in users and groups.

- anonymous visitors and players read the public pages; a user linked to a
  Player (Player.user) also has "my record sheet";
- volunteers (group "volunteer") enter and correct games;
- the committee (group "committee") does everything a volunteer does, plus
  rank adjustments, national rank synchronisation and club settings.
Superusers count as committee.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

VOLUNTEER = "volunteer"
COMMITTEE = "committee"
ROLE_GROUPS = (VOLUNTEER, COMMITTEE)

User = AbstractBaseUser | AnonymousUser


def _in_group(user: Any, group: str) -> bool:
    if not user.is_authenticated or not user.is_active:
        return False
    cache = getattr(user, "_role_groups", None)
    if cache is None:
        cache = set(user.groups.values_list("name", flat=True))
        user._role_groups = cache
    return group in cache


def is_committee(user: Any) -> bool:
    return bool(user.is_authenticated and user.is_active and (user.is_superuser or _in_group(user, COMMITTEE)))


def is_volunteer(user: Any) -> bool:
    """May enter and correct games: volunteers and the committee."""
    return is_committee(user) or _in_group(user, VOLUNTEER)


def role_of(user: Any) -> str:
    if is_committee(user):
        return COMMITTEE
    if is_volunteer(user):
        return VOLUNTEER
    if user.is_authenticated:
        return "player"
    return "anonymous"


View = TypeVar("View", bound=Callable[..., HttpResponse])


def _require(check: Callable[[Any], bool]) -> Callable[[View], View]:
    def decorator(view: View) -> View:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not check(request.user):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorator


#: Anonymous users are sent to log in; logged-in users without the role get 403.
volunteer_required = _require(is_volunteer)
committee_required = _require(is_committee)
