"""What a record sheet is made of (its rows, new players, the komi it means
when it gives none) and the error that names its row and field."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.contrib.auth.models import AnonymousUser, User

from ratings.models import Player

MAX_HANDICAP = 9
#: Komi bounds of the data model (Game.komi).  The West Surrey ladder page counts one handicap
#: stone as 10 komi ("One handicap stone is equivalent to 10 komi"), so a
#: nine-stone handicap given as komi is 90 points; beyond 99.5 it is a typo.
MAX_KOMI = Decimal("99.5")

#: Komi when the sheet leaves it blank.  Decision: 6.5 to White for an even
#: game and 0.5 for a handicap game.  The West Surrey ladder page gives White 6 komi in an even
#: game and "For a handicap of 1, either black starts with no komi"; the SAGC FAQ's
#: effective handicap ``int(handicap - (komi - 6) / 10)`` reads both 6.5/0 and
#: 0.5/h as exactly the stones played (int(-0.05) = 0, int(h + 0.55) = h), and
#: the half point avoids a jigo.
EVEN_KOMI = Decimal("6.5")
HANDICAP_KOMI = Decimal("0.5")


def default_komi(handicap: int) -> Decimal:
    """The komi a sheet means when it gives none (see :data:`EVEN_KOMI`)."""
    return EVEN_KOMI if handicap == 0 else HANDICAP_KOMI


#: Who made a change: a user, or nobody (a command, the demo data).
Actor = User | AnonymousUser | None


class SheetError(ValueError):
    """Rows of a sheet that cannot be saved: {row number (1-based): {field: message}}.

    Row 0 holds the sheet header's problems.
    """

    def __init__(self, problems: Mapping[int, Mapping[str, str]]) -> None:
        self.problems = {row: dict(fields) for row, fields in problems.items()}
        lines = [
            f"{'sheet' if row == 0 else f'row {row}'}: {name}: {message}"
            for row, fields in sorted(self.problems.items())
            for name, message in fields.items()
        ]
        super().__init__("; ".join(lines))


@dataclass(frozen=True)
class NewPlayer:
    """A player created by the sheet that first records them (the SAGC FAQ, "How
    do I get a SAGC rank?": "play a game, and then record it.  Your name and
    rank will be added onto the system")."""

    name: str
    rank: int
    #: Tells apart two real people of the same name (Player.suffix).
    suffix: str = ""

    @property
    def display_name(self) -> str:
        return f"{self.name} ({self.suffix})" if self.suffix else self.name


PlayerRef = Player | NewPlayer


@dataclass(frozen=True)
class GameRow:
    """One game row of a record sheet.  ``date`` None = the sheet's date,
    ``kind`` None = the sheet's kind, ``komi`` None = :func:`default_komi`."""

    white: PlayerRef
    black: PlayerRef
    winner: str
    handicap: int = 0
    komi: Decimal | None = None
    date: date | None = None
    kind: str | None = None
    board: int = 19
    minutes: int | None = None
    forfeit: bool = False
    comments: str = ""
    #: The round of a tournament's game (imports); None on a club night.
    round: int | None = None
