"""Rating lists, clubs, players, record sheets, games, rank adjustments and
rating history.

A rating list is one rating pool: its games, in timeline order (game date,
then entry order), are replayed by each rating system the list computes.  A
list has several clubs; a player belongs to the list (with an optional home
club), and a record sheet is entered at a club, its games between any two
players of the club's list.  Ranks are numbers on the engine's scale
(ratings/engine/ranks.py: 30k = -30, 1k = -1, 1d = 0, 9d = 8).

One module a part of the data: ``lists`` (lists, clubs), ``players`` (and
the pairs the committee marked as different people),
``games`` (record sheets, games, rank adjustments), ``events`` (the
places, tie-breaks and byes of an imported tournament), ``log``,
``notices`` (a player's e-mails about late changes), ``history``
(what the recompute writes: results, runs, checkpoints) and ``committee``
(rank syncs, evaluations, import previews) and ``ripple`` (the later
results a late game changed).  Django finds every model through this package;
callers import them from here.

May import: ratings.engine, ratings.exchange.
"""

from ratings.models.committee import (
    ImportPreview,
    ImportPreviewQuerySet,
    ListEvaluation,
    RankSync,
    RankSyncLine,
)
from ratings.models.events import EventEntry
from ratings.models.games import (
    BOARD_CHOICES,
    TIMELINE_ORDER,
    Game,
    GameQuerySet,
    RankAdjustment,
    RecordSheet,
    RecordSheetQuerySet,
)
from ratings.models.history import HistoryEntry, HistoryQuerySet, RatingCheckpoint, RecomputeRun
from ratings.models.lists import SYSTEM_CHOICES, Club, Kind, RatingList, Winner
from ratings.models.log import LogEntry, LogEntryQuerySet
from ratings.models.notices import ChangeNotice
from ratings.models.players import DifferentPeople, FormerSlug, Player, PlayerQuerySet, player_display_name
from ratings.models.ripple import ResultChange

__all__ = [
    "BOARD_CHOICES",
    "SYSTEM_CHOICES",
    "TIMELINE_ORDER",
    "ChangeNotice",
    "Club",
    "DifferentPeople",
    "EventEntry",
    "FormerSlug",
    "Game",
    "GameQuerySet",
    "HistoryEntry",
    "HistoryQuerySet",
    "ImportPreview",
    "ImportPreviewQuerySet",
    "Kind",
    "ListEvaluation",
    "LogEntry",
    "LogEntryQuerySet",
    "Player",
    "PlayerQuerySet",
    "RankAdjustment",
    "RankSync",
    "RankSyncLine",
    "RatingCheckpoint",
    "RatingList",
    "RecomputeRun",
    "RecordSheet",
    "RecordSheetQuerySet",
    "ResultChange",
    "Winner",
    "player_display_name",
]
