"""What the committee's jobs share: their error, the national-id fields, the
club or list a management command works on."""

from __future__ import annotations

import math
from typing import Any, TypeVar

from django.db import models
from django.db.models import QuerySet

from ratings.engine.ranks import format_rank
from ratings.models import Club, Player, RatingList

#: Which Player field holds each list's national id.  A plain CSV list is the
#: club's own national association (SAGA for a South African club).
ID_FIELD: dict[str, str] = {"ffg": "ffg_licence", "aga": "aga_id", "egd": "egd_pin", "csv": "saga_id"}


#: A model whose objects a command picks by slug (a club, a list).
M = TypeVar("M", bound=models.Model)


class CommitteeError(ValueError):
    """A sync or import that cannot go ahead; the message says why."""


def national_id_field(name: str) -> models.Field[Any, Any]:
    """The Player field of a national id (egd_pin, ffg_licence, aga_id)."""
    field = Player._meta.get_field(name)
    if not isinstance(field, models.Field):
        raise TypeError(f"Player.{name} is not a column")
    return field


def national_id_max_length(id_field: str) -> int:
    return int(national_id_field(id_field).max_length or 0)


def grade(rank: float) -> int:
    """The whole grade a rank falls in: 1.3d -> 1d, 14.5k -> 15k (floor, as the
    h9 writer bands fractional ranks, docs/formats.md)."""
    return math.floor(rank + 1e-9)


def rank_label(value: float | None) -> str:
    return format_rank(value) if value is not None else "—"


def find_club(slug: str | None, rating_list: RatingList | None = None) -> Club:
    """The club a command works on: ``--club SLUG``, or the only club there is
    (of ``rating_list`` when one is given)."""
    clubs = Club.objects.select_related("rating_list").order_by("slug")
    if rating_list is not None:
        clubs = clubs.filter(rating_list=rating_list)
    return _the_one(clubs, slug, "club")


def find_list(slug: str | None) -> RatingList:
    """The list a command works on: ``--list SLUG``, or the only list there is."""
    return _the_one(RatingList.objects.order_by("slug"), slug, "list")


def find_list_or_club(list_slug: str | None, club_slug: str | None) -> tuple[RatingList, Club | None]:
    """``--list`` and/or ``--club`` of a command that acts on a list, or on the
    games of one of its clubs: the club's list, checked against ``--list``."""
    if club_slug:
        club = find_club(club_slug)
        if list_slug and club.rating_list.slug != list_slug:
            raise CommitteeError(
                f"--club: {club.slug} is a club of the list {club.rating_list.slug}, not {list_slug}"
            )
        return club.rating_list, club
    return find_list(list_slug), None


def _the_one(choices: QuerySet[M], slug: str | None, what: str) -> M:
    known = ", ".join(choices.values_list("slug", flat=True)) or "none yet"
    if slug:
        found = choices.filter(slug=slug).first()
        if found is None:
            raise CommitteeError(f"--{what}: no {what} {slug!r} ({what}s: {known})")
        return found
    first_two = list(choices[:2])
    if len(first_two) == 1:
        return first_two[0]
    if not first_two:
        raise CommitteeError(f"there is no {what} yet")
    raise CommitteeError(f"there are several {what}s: give --{what} (one of: {known})")
