"""Creating rating lists and clubs: names in, slugs made from them.

A slug is the name run through Django's ``slugify`` (ASCII, lower case,
hyphens); when another list or club already has it, "-2", "-3"... is added.
Slugs that are words of the site's URLs under /lists/ and /clubs/ ("new")
are never given, so a place's page can't hide a page of the site.
"""

from __future__ import annotations

from django.db import IntegrityError, models, transaction
from django.utils.text import slugify

from ratings.models import Club, RatingList

#: Words used by the site's own URLs below /lists/ and /clubs/.
RESERVED_SLUGS = frozenset({"new"})


class PlaceError(ValueError):
    """A list or club that cannot be created, with the field at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def free_slug(model: type[models.Model], name: str, fallback: str) -> str:
    """The first unused slug for ``name``: 'cape-town', then 'cape-town-2'..."""
    field = model._meta.get_field("slug")
    limit = getattr(field, "max_length", 60) or 60
    base = slugify(name)[: limit - 4].strip("-") or fallback
    taken = set(
        model._default_manager.filter(slug__startswith=base).values_list("slug", flat=True)  # type: ignore[attr-defined]
    )
    taken |= RESERVED_SLUGS
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}-{n}", n + 1
    return candidate


def create_list(name: str, primary_system: str = "sagc") -> RatingList:
    """A new rating list; its name must be free (names are unique)."""
    name = " ".join(name.split())
    if not name:
        raise PlaceError("name", "A list needs a name.")
    if RatingList.objects.filter(name__iexact=name).exists():
        raise PlaceError("name", f"There is already a list named {name!r}.")
    try:
        with transaction.atomic():
            return RatingList.objects.create(
                name=name, slug=free_slug(RatingList, name, "list"), primary_system=primary_system
            )
    except IntegrityError as error:  # a list of that name or slug made meanwhile
        raise PlaceError("name", f"There is already a list named {name!r}.") from error


def create_club(rating_list: RatingList, name: str) -> Club:
    """A new club of ``rating_list``; its name must be free within the list."""
    name = " ".join(name.split())
    if not name:
        raise PlaceError("name", "A club needs a name.")
    if rating_list.clubs.filter(name__iexact=name).exists():
        raise PlaceError("name", f"{rating_list} already has a club named {name!r}.")
    try:
        with transaction.atomic():
            return Club.objects.create(rating_list=rating_list, name=name, slug=free_slug(Club, name, "club"))
    except IntegrityError as error:
        raise PlaceError("name", f"{rating_list} already has a club named {name!r}.") from error
