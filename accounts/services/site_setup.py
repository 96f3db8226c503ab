"""Setting up a fresh site (``manage.py setup``): the site admin, a rating
list with its clubs, and the admin on the list's committee.

Idempotent: what already exists is found by name (a list by its name, a
club by its name within the list, the admin by username) and left as it is;
the result says what was made and what was already there.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction

from accounts.models import Role
from accounts.services.memberships import grant
from ratings.engine import SYSTEM_LABELS
from ratings.models import Club, RatingList
from ratings.places import create_club, create_list


class SetupError(ValueError):
    """Missing or bad input, naming the option at fault."""


@dataclass
class SetupResult:
    rating_list: RatingList
    clubs: list[Club]
    #: What was done, one line each ("Created the list ..."), and what was
    #: found as it was ("... already exists").
    done: list[str] = field(default_factory=list)
    found: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.done)


def admin_exists(username: str) -> bool:
    return get_user_model()._default_manager.filter(username=username).exists()


@transaction.atomic
def set_up(*, list_name: str, club_names: list[str], admin: str, email: str, password: str,
           system: str = "sagc") -> SetupResult:  # fmt: skip
    """All or nothing: a bad password or name leaves the database as it was."""
    if system not in SYSTEM_LABELS:
        raise SetupError(f"--system: unknown system {system!r} (one of {', '.join(SYSTEM_LABELS)})")
    if not list_name.strip():
        raise SetupError("--list: a list needs a name")
    if not [name for name in club_names if name.strip()]:
        raise SetupError("--club: give at least one club")
    done: list[str] = []
    found: list[str] = []

    user_model = get_user_model()
    user = user_model._default_manager.filter(username=admin).first()
    if user is None:
        if not email.strip():
            raise SetupError(f"--email: the new site admin {admin!r} needs an e-mail address")
        if not password:
            raise SetupError("the new site admin needs a password (CLUBRATING_ADMIN_PASSWORD or the prompt)")
        candidate = user_model(username=admin, email=email)
        try:
            validate_password(password, candidate)
        except ValidationError as error:
            raise SetupError("password: " + " ".join(error.messages)) from error
        user = user_model._default_manager.create_superuser(username=admin, email=email, password=password)
        done.append(f"Created the site admin {admin}.")
    elif not (user.is_superuser and user.is_staff):
        user.is_superuser = user.is_staff = True
        user.save(update_fields=["is_superuser", "is_staff"])
        done.append(f"Made {admin} a site admin.")
    else:
        found.append(f"The site admin {admin} already exists (password unchanged).")

    name = " ".join(list_name.split())
    rating_list = RatingList.objects.filter(name__iexact=name).first()
    if rating_list is None:
        rating_list = create_list(name, system)
        done.append(f"Created the list {rating_list} (primary system {system}).")
    elif rating_list.primary_system != system:
        found.append(
            f"The list {rating_list} already exists with primary system {rating_list.primary_system}; "
            "left as it is (change it on the list's settings page)."
        )
    else:
        found.append(f"The list {rating_list} already exists.")

    clubs: list[Club] = []
    for club_name in dict.fromkeys(" ".join(n.split()) for n in club_names if n.strip()):
        club = rating_list.clubs.filter(name__iexact=club_name).first()
        if club is None:
            club = create_club(rating_list, club_name)
            done.append(f"Created the club {club}.")
        else:
            found.append(f"The club {club} already exists.")
        clubs.append(club)

    if grant(user, Role.COMMITTEE, rating_list=rating_list):
        done.append(f"Put {admin} on the committee of {rating_list}.")
    else:
        found.append(f"{admin} is already on the committee of {rating_list}.")
    return SetupResult(rating_list, clubs, done, found)
