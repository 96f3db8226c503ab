"""The one place that writes games, record sheets and rank adjustments.

Every function here is atomic (one transaction), writes the log-file of
the SAGC FAQ ("You can then verify that the details are correct by visiting the
site and checking the log-file") as :class:`~ratings.models.LogEntry` rows,
keeps :attr:`Player.last_updated` and, inside the same transaction, calls
:func:`ratings.recompute.mark_dirty` with the earliest date whose ratings the
change affects.  The recompute pipeline arranges the ratings update after
commit, so a refused or failed write never triggers one.

Views and forms call these functions; nothing else writes games.  The
functions check the domain rules themselves (same player twice, handicap,
komi, dates) so a caller that skips the forms (an import, a shell) cannot
store a game the forms would refuse; the forms reuse :func:`game_problems`
to show the same messages next to the row and field.

One job a module: ``rows`` (what a sheet is made of, SheetError),
``checks`` (the rules, shared with the forms), ``sheets`` (saving a sheet),
``games`` (correcting and deleting a game), ``adjustments``, ``systems``
(a list's rating systems), ``national_codes`` (the list's country, clubs' EGD
codes, players' countries and national ids) and ``common`` (the log entry, the dirty mark and
what else every writer shares, ratings/services/sheet_changes.py and
ratings/services/player_changes.py included).  Callers import from here.

May import: ratings.engine, ratings.exchange, ratings.models, ratings.names,
ratings.recompute.
"""

from ratings.services.adjustments import add_adjustment
from ratings.services.checks import EARLIEST_DATE, date_problem, game_problems
from ratings.services.common import (
    acting_user,
    describe_game,
    log_change,
    loggable,
    mark_dirty,
    refresh_last_updated,
    unique_slug,
)
from ratings.services.games import EDITABLE, delete_game, edit_game
from ratings.services.national_codes import (
    ID_LABELS,
    PLAYER_CODES,
    CodeChanges,
    CodesError,
    set_national_codes,
)
from ratings.services.rows import (
    EVEN_KOMI,
    HANDICAP_KOMI,
    MAX_HANDICAP,
    MAX_KOMI,
    Actor,
    GameRow,
    NewPlayer,
    PlayerRef,
    SheetError,
    default_komi,
)
from ratings.services.sheets import save_sheet
from ratings.services.systems import set_list_systems

__all__ = [
    "EARLIEST_DATE",
    "EDITABLE",
    "EVEN_KOMI",
    "HANDICAP_KOMI",
    "ID_LABELS",
    "MAX_HANDICAP",
    "MAX_KOMI",
    "PLAYER_CODES",
    "Actor",
    "CodeChanges",
    "CodesError",
    "GameRow",
    "NewPlayer",
    "PlayerRef",
    "SheetError",
    "acting_user",
    "add_adjustment",
    "date_problem",
    "default_komi",
    "delete_game",
    "describe_game",
    "edit_game",
    "game_problems",
    "log_change",
    "loggable",
    "mark_dirty",
    "refresh_last_updated",
    "save_sheet",
    "set_list_systems",
    "set_national_codes",
    "unique_slug",
]
