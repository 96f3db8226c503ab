"""The committee's exchanges with national bodies (docs/committee.md).

Plain functions the views and management commands share, one job a module:

- ``rank_sync``: :func:`preview_rank_sync` matches every player of the list
  to a national rank list and stores the proposal; :func:`apply_rank_sync`
  turns the lines the committee chose into dated rank adjustments.
- ``rank_matching``: which entry of a national list each player is (national
  id, then name among the entries of a :class:`EntrySelection`: a country, clubs).
- ``game_exports``: :func:`list_games_tournament`, a list's games of a period
  (or those played at one of its clubs) as an exchange Tournament, which
  ratings.exchange writes as an EGD h9 file (class C "club ladder"), an FFG
  .tou or an AGA file, and :func:`export_selection`, which of them a format
  writes and what it leaves out and why; the CSV and JSON records and the
  JSON API stream the same games (ratings/committee/exports.py).
- ``rank_files``: :func:`publish_ranks`, the list's own ranks in the FFG
  ladder, EGD list and AGA TD list layouts, for pairing programs.
- ``api_tokens``: the token of a list's read-only games API.
- ``tournament_import``: :func:`import_tournament` saves the games of an EGD
  h9 or FFG .tou file (or the site's own CSV/JSON/AGA exports) as one record
  sheet, matching players or creating them.
- ``season_import``: several tournament files, or a .zip of them, unpacked
  within the stated limits and imported oldest first, all or none.
- ``import_preview``: a tournament upload (one file or a season) previewed,
  then saved exactly as shown.
- ``common``: :class:`CommitteeError`, the national-id fields, and the club
  or list a management command works on.

Every refusal is a :class:`CommitteeError` or an
:class:`ratings.exchange.ExchangeError` (both ValueError), with a message
naming the player or the file's line(s); nothing is written then.  The
names below are the package's interface: callers import them from here.

May import: ratings.engine, ratings.exchange, ratings.models, ratings.names,
ratings.services.
"""

from ratings.committee.api_tokens import list_for_token, new_api_token
from ratings.committee.common import (
    CommitteeError,
    find_club,
    find_list,
    find_list_or_club,
    rank_label,
)
from ratings.committee.game_exports import (
    ExportSelection,
    export_selection,
    list_games,
    list_games_tournament,
    tournament_game,
)
from ratings.committee.rank_files import PublishedRanks, publish_ranks
from ratings.committee.rank_matching import EntrySelection
from ratings.committee.rank_sync import (
    APPLICABLE,
    Choice,
    apply_rank_sync,
    default_choices,
    list_label,
    preview_rank_sync,
    proposes_change,
    selection_of,
)
from ratings.committee.tournament_import import ImportReport, import_tournament

__all__ = [
    "APPLICABLE",
    "Choice",
    "CommitteeError",
    "EntrySelection",
    "ExportSelection",
    "ImportReport",
    "PublishedRanks",
    "apply_rank_sync",
    "default_choices",
    "export_selection",
    "find_club",
    "find_list",
    "find_list_or_club",
    "import_tournament",
    "list_for_token",
    "list_games",
    "list_games_tournament",
    "list_label",
    "new_api_token",
    "preview_rank_sync",
    "proposes_change",
    "publish_ranks",
    "rank_label",
    "selection_of",
    "tournament_game",
]
