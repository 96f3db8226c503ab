"""Creating rating lists and clubs: names in, slugs made from them.

A slug is the name run through Django's ``slugify`` (ASCII, lower case,
hyphens); when another list or club already has it, "-2", "-3"... is added.
Slugs that are words of the site's URLs under /lists/ and /clubs/ ("new", "import")
are never given, so a place's page can't hide a page of the site.
"""

from __future__ import annotations

from typing import TypeVar

from django.db import IntegrityError, models, transaction
from django.utils.text import slugify

from ratings.models import Club, RatingList

#: Words used by the site's own URLs below /lists/ and /clubs/.
RESERVED_SLUGS = frozenset({"new", "import"})

M = TypeVar("M", bound=models.Model)


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
    taken = set(model._default_manager.filter(slug__startswith=base).values_list("slug", flat=True))
    taken |= RESERVED_SLUGS
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}-{n}", n + 1
    return candidate


def create_list(name: str, primary_system: str = "sagc") -> RatingList:
    """A new rating list; its name must be free (names are unique)."""
    name = " ".join(name.split())
    taken = f"There is already a list named {name!r}."
    if not name:
        raise PlaceError("name", "A list needs a name.")
    if RatingList.objects.filter(name__iexact=name).exists():
        raise PlaceError("name", taken)
    return _create(RatingList, name, "list", taken, primary_system=primary_system)


def create_club(rating_list: RatingList, name: str) -> Club:
    """A new club of ``rating_list``; its name must be free within the list."""
    name = " ".join(name.split())
    taken = f"{rating_list} already has a club named {name!r}."
    if not name:
        raise PlaceError("name", "A club needs a name.")
    if rating_list.clubs.filter(name__iexact=name).exists():
        raise PlaceError("name", taken)
    return _create(Club, name, "club", taken, rating_list=rating_list)


def _create(model: type[M], name: str, fallback: str, taken: str, **fields: object) -> M:
    try:
        with transaction.atomic():
            return model._default_manager.create(name=name, slug=free_slug(model, name, fallback), **fields)
    except IntegrityError as error:  # the same name or slug made meanwhile
        raise PlaceError("name", taken) from error
