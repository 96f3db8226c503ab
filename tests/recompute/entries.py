"""Games entered straight into the database by the recompute's properties
(a sheet each, the entry time in minutes after a fixed instant, so that
their order on one day is the order they were entered in)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from ratings.models import Club, Game, Player, RecordSheet

#: The instant the first item of a scenario is entered at.
ENTERED = datetime(2025, 4, 1, 12, 0, tzinfo=UTC)


def enter_game(
    club: Club, day: date, white: Player, black: Player, n: int, tournament: bool, **fields: Any
) -> Game:
    """Game ``n`` of a scenario, on a sheet of its own: a round of the
    tournament "Spring Open" (one event over all its days) or a club
    night's game (of the kind ``fields`` may give: a free game)."""
    sheet = RecordSheet.objects.create(
        club=club, date=day, kind="tournament" if tournament else "club",
        event="Spring Open" if tournament else "",
    )  # fmt: skip
    fields = {"kind": "tournament" if tournament else "club", **fields}
    return Game.objects.create(
        club=club, sheet=sheet, date=day, white=white, black=black, entered_at=ENTERED + timedelta(minutes=n),
        **fields,
    )  # fmt: skip
