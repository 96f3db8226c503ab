"""A rating list's games for national bodies, in constant memory.

- :func:`export_stream`: the export file (CSV or JSON game records) written
  as it is read, a chunk of games at a time in timeline order: memory holds
  one chunk and one entry per player (their round and rank), never the
  period's games.  h9, .tou and AGA files are a player-by-round table,
  built whole by ratings.exchange, so they are refused beyond
  :data:`MAX_TABLE_GAMES` games (a class C club ladder is a few thousand).
- :func:`api_page`: one page of the JSON API by keyset: the games after a
  cursor (date, entry time, id of the last game sent), read through the
  timeline index; no count and no offset, so a page costs the same at the
  end of a long period as at its start (docs/api.md).

Each chunk is its own short query, not one snapshot: a game saved while a
long export is being sent is in it if it falls after the chunk being read.

Both give the records of ratings.exchange.GAME_FIELDS, the same as
committee.list_games_tournament's for the same period (the rank of a player
is the rank at their first game of the period; rounds follow the rule of
exchange.assign_rounds, docs/formats.md).
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, TypeVar

from django.db.models import OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from ratings import exchange
from ratings.committee import CommitteeError, list_games, list_games_tournament, tournament_game
from ratings.committee.game_exports import (
    PLAYER_RELATED,
    exchange_player,
    export_name,
    export_selection,
    period_games,
    ranks_at_first_game,
)
from ratings.models import TIMELINE_ORDER, Club, Game, Player, RatingList

#: Games read per query while streaming.
CHUNK = 2000
#: The most games an h9, .tou or AGA export takes (their table is built whole).
MAX_TABLE_GAMES = 20_000
#: Pieces of text handed to the response at a time (bytes, about).
PIECE = 64 * 1024

TimelineKey = tuple[date, datetime, int]
#: What a chunk of games holds: Game objects or rows of their columns.
R = TypeVar("R")


# --- the timeline by keyset -------------------------------------------------------


def after(key: TimelineKey | None) -> Q:
    """Games after ``key`` in timeline order (date, entered_at, id).

    The leading ``date >= day`` is what lets the database start its scan of
    the timeline index at the key: with the disjunction alone (date > day,
    or the same day and later...) SQLite scanned the list's index from its
    first game, so the later chunks of an export cost more and more."""
    if key is None:
        return Q()
    day, entered, pk = key
    return Q(date__gte=day) & (Q(date__gt=day) | Q(entered_at__gt=entered) | Q(entered_at=entered, pk__gt=pk))


def key_of(game: Any) -> TimelineKey:
    """The timeline key of a Game, or of a row with its date, entered_at and pk."""
    return (game.date, game.entered_at, game.pk)


def in_chunks(games: QuerySet[Game, R], size: int | None = None) -> Iterator[list[R]]:
    """``games`` in timeline order, ``size`` (default CHUNK) at a time, each
    chunk one short query (no long-open cursor while a slow client downloads)."""
    size = size or CHUNK
    key: TimelineKey | None = None
    while True:
        # Timeline order spelt out: ``games`` may be rows (values_list), not a GameQuerySet.
        chunk = list(games.filter(after(key)).order_by(*TIMELINE_ORDER)[:size])
        if chunk:
            yield chunk
        if len(chunk) < size:
            return
        key = key_of(chunk[-1])


def encode_cursor(key: TimelineKey) -> str:
    day, entered, pk = key
    text = f"{day.isoformat()}|{entered.isoformat()}|{pk}"
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> TimelineKey:
    """The key of an ``encode_cursor`` string; ValueError when it is not one."""
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        day, entered, pk = text.split("|")
        key = (date.fromisoformat(day), datetime.fromisoformat(entered), int(pk))
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise ValueError(f"{cursor!r} is not a cursor of this API; follow the 'next' links") from None
    if timezone.is_naive(key[1]):
        raise ValueError(f"{cursor!r} is not a cursor of this API; follow the 'next' links")
    return key


# --- streamed exports ----------------------------------------------------------------


#: The columns of a game an export reads: tuples, not model instances (building
#: a Game, its sheet and two players per row was most of an export's time).
GAME_COLUMNS = (
    "pk", "date", "entered_at", "white_id", "black_id", "winner",
    "handicap", "komi", "kind", "board", "sheet__event",
)  # fmt: skip


class _Players:
    """The exchange players of an export, loaded as they first appear, each
    at their rank at their first game of the period (committee's rule)."""

    def __init__(self, rating_list: RatingList) -> None:
        self.rating_list = rating_list
        self.known: dict[int, exchange.Player] = {}

    def load(self, first_game: dict[int, int]) -> None:
        """Players not loaded yet -> the id of their first game of the period."""
        new = {pid: gid for pid, gid in first_game.items() if pid not in self.known}
        if not new:
            return
        ranks = ranks_at_first_game(self.rating_list, new)
        for player in Player.objects.filter(pk__in=new).select_related(*PLAYER_RELATED):
            self.known[player.pk] = exchange_player(
                player, ranks.get(player.pk, player.rank), self.rating_list
            )

    def __getitem__(self, pid: int) -> exchange.Player:
        return self.known[pid]


def list_game_records(
    rating_list: RatingList, start: date | None, end: date | None, club: Club | None = None
) -> Iterator[dict[str, Any]]:
    """The period's game records in timeline order, read a chunk at a time
    (only the games played at ``club`` when one is given)."""
    name = export_name(rating_list, start, end, club)
    games = list_games(rating_list, start, end, club).values_list(*GAME_COLUMNS, named=True)
    last_round: dict[int, int] = {}
    players = _Players(rating_list)
    for chunk in in_chunks(games):
        first_game: dict[int, int] = {}
        for row in chunk:
            first_game.setdefault(row.white_id, row.pk)
            first_game.setdefault(row.black_id, row.pk)
        players.load(first_game)
        for row in chunk:
            # The round rule of exchange.assign_rounds (docs/formats.md, "Rounds of a club export").
            round_ = max(last_round.get(row.white_id, 0), last_round.get(row.black_id, 0)) + 1
            last_round[row.white_id] = last_round[row.black_id] = round_
            yield exchange.record_of(
                tournament_game(row, row.sheet__event, round_),
                players[row.white_id],
                players[row.black_id],
                name=name,
                start=start,
                event_class="C",
            )


def _pieces(texts: Iterable[str]) -> Iterator[str]:
    """Many small strings joined into pieces of about PIECE characters."""
    size = PIECE
    buffer: list[str] = []
    length = 0
    for text in texts:
        buffer.append(text)
        length += len(text)
        if length >= size:
            yield "".join(buffer)
            buffer, length = [], 0
    if buffer:
        yield "".join(buffer)


def export_stream(
    rating_list: RatingList,
    start: date | None,
    end: date | None,
    format: str,
    club: Club | None = None,
    event_class: str = "C",
) -> tuple[str, str, Iterator[str]]:
    """(file name, media type, the file's text in pieces) of the list's games
    (or of those played at ``club``, a club of the list).

    Raises CommitteeError, before anything is written, for an unknown format,
    a period without games (an empty results file could not be read back),
    or an h9/.tou/AGA file of more than MAX_TABLE_GAMES games.
    """
    if format not in exchange.GAME_FORMATS:
        raise CommitteeError(f"unknown format {format!r}; choose one of {', '.join(exchange.GAME_FORMATS)}")
    games = list_games(rating_list, start, end, club)
    where = club or rating_list
    if not games.exists():
        raise CommitteeError(f"{where.name} has no game between {start or 'the start'} and {end or 'today'}")
    extension, media_type = exchange.FILE_TYPES[format]
    name = f"{where.slug}-games-{start or 'start'}-{end or timezone.localdate()}{extension}"
    records = list_game_records(rating_list, start, end, club)
    if format == "csv":
        return name, media_type, _pieces(exchange.iter_games_csv(records))
    if format == "json":
        return name, media_type, _pieces(exchange.iter_games_json(records))
    selection = export_selection(rating_list, start, end, format, club, event_class)
    count = selection.written
    if not count:
        raise CommitteeError(
            f"{where.name} has no game an {format} file rates between {start or 'the start'} and "
            f"{end or 'today'}: {'; '.join(f'{n} × {reason}' for reason, n in selection.left_out)}"
        )
    if count > MAX_TABLE_GAMES:
        raise CommitteeError(
            f"{count} games: an {format} file is a table of players by rounds and takes at most "
            f"{MAX_TABLE_GAMES} games; export a shorter period, or CSV or JSON game records"
        )
    tournament = list_games_tournament(
        rating_list, start, end, club=club, event_class=event_class, only=selection.only()
    )
    text = exchange.write_tournament(tournament, format)
    return name, media_type, iter([text])


def export_games(
    rating_list: RatingList,
    start: date | None,
    end: date | None,
    format: str,
    club: Club | None = None,
    event_class: str = "C",
) -> tuple[str, str, str]:
    """:func:`export_stream` as one string (tests, small files)."""
    name, media_type, pieces = export_stream(rating_list, start, end, format, club, event_class)
    return name, media_type, "".join(pieces)


# --- the JSON API -------------------------------------------------------------------


@dataclass
class ApiPage:
    records: list[dict[str, Any]]
    #: The cursor of the next page; None on the last page.
    next_cursor: str | None


def _first_games(
    rating_list: RatingList, start: date | None, end: date | None, pids: set[int], club: Club | None = None
) -> dict[int, int]:
    """Each player's first game of the period (player -> game id): for each
    colour the first through the (colour, date) index, then the earlier.

    No list condition in the subqueries: a player's games are all in their
    list (services.game_problems), and with one SQLite chose the list's
    timeline index and read the whole timeline for every player.  With a
    club, the period is only that club's games."""
    if not pids:
        return {}
    period = period_games(start, end, club)

    def first_as(colour: str) -> Subquery:
        return Subquery(period.filter(**{colour: OuterRef("pk")}).timeline().values("pk")[:1])

    rows = Player.objects.filter(pk__in=pids, rating_list=rating_list).annotate(
        w=first_as("white"), b=first_as("black")
    )
    candidates = {pid: [g for g in (w, b) if g is not None] for pid, w, b in rows.values_list("pk", "w", "b")}
    keys = {
        g.pk: key_of(g)
        for g in Game.objects.filter(pk__in={g for ids in candidates.values() for g in ids}).only(
            "date", "entered_at"
        )
    }
    return {pid: min(ids, key=keys.__getitem__) for pid, ids in candidates.items() if ids}


def api_page(
    rating_list: RatingList,
    start: date | None,
    end: date | None,
    cursor: TimelineKey | None,
    size: int,
    club: Club | None = None,
) -> ApiPage:
    """One page of the API: the ``size`` games after ``cursor``.

    ``round`` is None: the round of a game depends on every earlier game of
    the period, which a page does not read (docs/api.md).  The ranks are
    each player's rank at their first game of the period, as in the files.
    """
    period = list_games(rating_list, start, end, club)
    rows = list(period.filter(after(cursor)).values_list(*GAME_COLUMNS, named=True)[: size + 1])
    more = len(rows) > size
    rows = rows[:size]
    players = _Players(rating_list)
    pids = {pid for r in rows for pid in (r.white_id, r.black_id)}
    players.load(_first_games(rating_list, start, end, pids, club))
    name = export_name(rating_list, start, end, club)
    records = []
    for row in rows:
        record = exchange.record_of(
            tournament_game(row, row.sheet__event),
            players[row.white_id],
            players[row.black_id],
            name=name,
            start=start,
            event_class="C",
        )
        records.append({"id": row.pk, **record, "round": None})
    return ApiPage(records, encode_cursor(key_of(rows[-1])) if more else None)
