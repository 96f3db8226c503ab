"""What a new sheet, a game added to a saved sheet and a corrected game ask
the volunteer to confirm before they are saved, in one order for all three:

1. games already entered at that club that day (a *repeat*,
   :func:`ratings.services.sheet_changes.repeated_games`), confirmed with
   "Save anyway" (the POST field :data:`SAVE_ANYWAY`);
2. then improbable results and handicaps off the list's rule
   (:mod:`ratings.entry.improbable`), confirmed with the tick that carries
   the digest of what was flagged.

Nothing is saved while either is unconfirmed.  A corrected game is not a
repeat of itself, and is judged from the players' standings without its
own result as first saved.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from ratings.entry import improbable
from ratings.models import Club, Game
from ratings.services import GameRow
from ratings.services.sheet_changes import repeated_games

#: The POST field of the "Save anyway" button of repeated games.
SAVE_ANYWAY = "save_anyway"


@dataclass(frozen=True, slots=True)
class Checked:
    """What the rows need confirmed: the repeats (asked first), then the flags."""

    repeats: list[tuple[int, Game]] = field(default_factory=list)
    #: Every game flagged (stored on the games once saved), confirmed or not.
    flags: list[improbable.Flag] = field(default_factory=list)
    flags_confirmed: bool = True

    @property
    def to_confirm(self) -> bool:
        """True while the page must come back to ask."""
        return bool(self.repeats) or not self.flags_confirmed


def check(
    club: Club,
    day: date,
    rows: Sequence[GameRow],
    data: Mapping[str, Any],
    *,
    excluding: Game | None = None,
    repeats: bool = True,
    results: bool = True,
) -> Checked:
    """Check ``rows`` (entered at ``club`` on ``day``) against what the
    posted ``data`` confirmed already.  ``repeats`` / ``results`` False skip
    that check (a correction that changed neither players nor date cannot
    make a new repeat)."""
    if repeats and not data.get(SAVE_ANYWAY):
        found = repeated_games(club, day, rows, excluding=excluding)
        if found:
            return Checked(repeats=found)
    flags = improbable.check(club.rating_list, day, rows, replacing=excluding) if results else []
    confirmed = not flags or data.get(improbable.CONFIRM) == improbable.digest(flags)
    return Checked(flags=flags, flags_confirmed=confirmed)
