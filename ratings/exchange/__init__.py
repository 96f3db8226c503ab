"""Exchange formats with national bodies and tournament software.

Pure Python, never imports Django (like :mod:`ratings.engine`); the Django
import/export views and commands call it at the edge and turn
:class:`ExchangeError` into form errors or command errors.  Every reader
takes the uploaded bytes, parses the whole file before returning (so an
import is all-or-nothing) and raises :class:`ExchangeError` naming the line.

Rank lists::

    read_rank_list(data, format=None, filename=None) -> RankList
        .format ('ffg'|'aga'|'egd'|'csv'), .encoding, .as_of, .entries: tuple[RankEntry],
        .rejected: tuple[Rejected]   # lines not imported, each with its number and reason
    write_rank_file(name, entries, as_of, title) -> bytes   # RANK_FILES: ech_ffg_V3.txt, egf_db.txt, tdlista.txt

Tournaments and game records::

    read_tournament(data, format=None, filename=None, date=None) -> Tournament
        .players: tuple[Player], .games: tuple[TournamentGame], .skipped: tuple[Skipped]
    club_tournament(name, players, games, start=, end=, event_class="C") -> Tournament
    write_tournament(tournament, 'h9'|'tou'|'aga'|'csv'|'json') -> str
    game_record(game, tournament) -> dict   # one JSON API / CSV record, GAME_FIELDS keys
    record_of(game, white, black, name=, start=, event_class=) -> dict   # the same, streamed
    iter_games_csv(records) / iter_games_json(records) -> Iterator[str]   # a file, piece by piece
    left_out_reason(format, kind=, board=, event_class="C") -> str | None   # why a rated file leaves a game out

Names::

    clean_name(text) -> str (ValueError) ; name_key(name) -> str ; search_words(name) / search_key(name) ; NameIndex(pairs).lookup(name) -> list of ids

May import: ratings.engine.
"""

from .club import assign_rounds, club_tournament
from .errors import ExchangeError
from .model import Player, Skipped, Tournament, TournamentGame, Winner
from .names import (
    NameIndex,
    clean_name,
    name_key,
    search_key,
    search_words,
    split_comma_name,
    split_first_word_surname,
    split_upper_surname,
)
from .rank_writers import RANK_FILES, RankFile, split_given_surname, write_rank_file
from .ranklists import (
    RANK_FORMATS,
    RankEntry,
    RankFormat,
    RankList,
    Rejected,
    detect_rank_format,
    parse_rank_list,
    rank_format,
    read_rank_list,
)
from .rated import EGD_CLASSES, FORFEIT, RATED_FORMATS, left_out_reason
from .records import GAME_FIELDS, game_record, game_records, iter_games_csv, iter_games_json, record_of
from .text import DecodedText, decode_text, split_lines
from .tournaments import (
    FILE_TYPES,
    GAME_FORMATS,
    GameFormat,
    detect_game_format,
    game_format,
    parse_tournament,
    read_tournament,
    write_tournament,
)

__all__ = [
    "EGD_CLASSES",
    "FILE_TYPES",
    "FORFEIT",
    "GAME_FIELDS",
    "GAME_FORMATS",
    "RANK_FILES",
    "RANK_FORMATS",
    "RATED_FORMATS",
    "DecodedText",
    "ExchangeError",
    "GameFormat",
    "NameIndex",
    "Player",
    "RankEntry",
    "RankFile",
    "RankFormat",
    "RankList",
    "Rejected",
    "Skipped",
    "Tournament",
    "TournamentGame",
    "Winner",
    "assign_rounds",
    "clean_name",
    "club_tournament",
    "decode_text",
    "detect_game_format",
    "detect_rank_format",
    "game_format",
    "game_record",
    "game_records",
    "iter_games_csv",
    "iter_games_json",
    "left_out_reason",
    "name_key",
    "parse_rank_list",
    "parse_tournament",
    "rank_format",
    "read_rank_list",
    "read_tournament",
    "record_of",
    "search_key",
    "search_words",
    "split_comma_name",
    "split_first_word_surname",
    "split_given_surname",
    "split_lines",
    "split_upper_surname",
    "write_rank_file",
    "write_tournament",
]
