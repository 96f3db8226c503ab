"""Choosing a list's primary and compared rating systems."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from ratings.engine import SYSTEM_NAMES
from ratings.models import RatingList
from ratings.services.common import mark_dirty
from ratings.services.rows import Actor


def set_list_systems(
    rating_list: RatingList, *, primary: str, compared: Sequence[str], actor: Actor = None
) -> bool:
    """Choose the list's primary and compared rating systems.

    A change replays the list's whole history (dirty from its first event):
    the cached ranks and record sheets follow the primary system.  Returns
    whether anything changed.

    When the primary system changes, the old primary stays computed for
    comparison: the form cannot offer it as "compared" while it is primary,
    so dropping it would silently lose the history the list used until now.
    It can be unticked afterwards.
    """
    unknown = [name for name in [primary, *compared] if name not in SYSTEM_NAMES]
    if unknown:
        raise ValueError(f"unknown rating system {', '.join(unknown)}; choose from {', '.join(SYSTEM_NAMES)}")
    wanted = [name for name in dict.fromkeys(compared) if name != primary]
    with transaction.atomic():
        current = RatingList.objects.select_for_update().get(pk=rating_list.pk)
        if current.primary_system != primary and current.primary_system not in wanted:
            wanted.append(current.primary_system)
        if current.primary_system == primary and list(current.compared_systems) == wanted:
            return False
        current.primary_system = primary
        current.compared_systems = wanted
        current.save(update_fields=["primary_system", "compared_systems"])
        rating_list.primary_system, rating_list.compared_systems = primary, wanted
        from ratings import recompute

        first = recompute.first_event_date(current)
        if first is not None:
            mark_dirty(current, first)
    return True
