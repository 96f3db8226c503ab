"""What the ripple tests compare: the stored results of a list, and the
difference of two of them, computed here on its own (not by the code under
test)."""

from __future__ import annotations

from typing import Any

from ratings.models import HistoryEntry, RatingList, ResultChange

Key = tuple[str, int, int | None, int | None]
Values = tuple[float, float, float]


def results(rating_list: RatingList) -> dict[Key, Values]:
    """Every stored result: (system, player, game, adjustment) -> (change,
    rating after, rank after), what the record sheet shows."""
    rows = HistoryEntry.objects.filter(rating_list=rating_list).values_list(
        "system", "player_id", "game_id", "adjustment_id", "change", "rating_after", "rank_after"
    )
    return {(s, p, g, a): (c, r, k) for s, p, g, a, c, r, k in rows}


def difference(before: dict[Key, Values], after: dict[Key, Values], causes: set[int]) -> dict[Key, Any]:
    """The results present in both replays that differ, but for the games
    that are the causes themselves."""
    return {
        key: (before[key], after[key])
        for key in before.keys() & after.keys()
        if before[key] != after[key] and key[2] not in causes
    }


def recorded(rating_list: RatingList, **filters: Any) -> dict[Key, Any]:
    """The ripple the recompute recorded, in the shape of difference()."""
    changes = ResultChange.objects.filter(rating_list=rating_list, **filters)
    found = {
        (c.system, c.player_id, c.game_id, c.adjustment_id): (
            (c.old_change, c.old_rating, c.old_rank),
            (c.new_change, c.new_rating, c.new_rank),
        )
        for c in changes
    }
    assert len(found) == changes.count(), "one change per result and run"
    return found
