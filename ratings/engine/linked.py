"""Which events of a stretch of the timeline an event's rows depend on.

Every system rates an event from the states of its own players, and an
event changes only its players' states.  So, replayed from the players'
states at the stretch's start, an event's rows and explanation come out the
same from the events linked to it through shared players (before it and
after it: an EGF period's rows chain to its last, a French ladder rates a
tournament once all of it is in) as from the whole stretch.

A system whose players of one rating period move each other's rows
without meeting (``period_wide``: the French ladders rate a period as a
whole, and any of its players closes it for all) links the events of one
period too (:func:`ratings.engine.base.period_key`).  A game's explanation
replays only these events (ratings/explain/games.py): on a club night of
forty pairings, one game's few instead of all.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Sequence

from ratings.engine.base import Event, Game, PlayerId, period_key


def connected_events(
    events: Sequence[Event],
    first: Sequence[PlayerId],
    second: Sequence[PlayerId | None],
    at: int,
    period_wide: bool,
) -> list[int]:
    """The indexes, in timeline order, of ``events`` linked to event
    ``at`` (``at`` among them): through a player (``first`` and ``second``:
    each event's players, None for an adjustment's second) and, when
    ``period_wide``, through a rating period."""
    links: list[list[Hashable]] = []
    by_link: dict[Hashable, list[int]] = defaultdict(list)
    for index, event in enumerate(events):
        own: list[Hashable] = [("player", first[index])]
        if second[index] is not None:
            own.append(("player", second[index]))
        if period_wide and isinstance(event, Game):
            own.append(("period", period_key(event)))
        links.append(own)
        for link in own:
            by_link[link].append(index)
    seen = {at}
    todo = [at]
    followed: set[Hashable] = set()
    while todo:
        for link in links[todo.pop()]:
            if link in followed:
                continue
            followed.add(link)
            for other in by_link[link]:
                if other not in seen:
                    seen.add(other)
                    todo.append(other)
    return sorted(seen)
