"""Game records as CSV rows or JSON objects, with stable documented field names.

The same fields in both (docs/formats.md, "Game records"), one record
per game, in this order::

    date, event, event_class, round, kind, board,
    white, white_id, white_rank, white_egd_pin, white_ffg_licence, white_aga_id,
    black, black_id, black_rank, black_egd_pin, black_ffg_licence, black_aga_id,
    handicap, komi, winner,
    white_country, white_club, black_country, black_club

Ranks are written as on a record sheet ('5k', '1d', '1.3d'); winner is
'white', 'black' or 'jigo'; dates are ISO (yyyy-mm-dd); empty CSV cells and
JSON nulls mean unknown.  Field names never change meaning; new fields may be
added at the end.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from datetime import date
from typing import Any, TypeAlias

from ratings.engine.base import Winner
from ratings.engine.ranks import MAX_RANK, MIN_RANK, RankError, format_rank, parse_rank

from .cells import csv_lines, restore_cell
from .errors import ExchangeError
from .model import Player, Tournament, TournamentGame

GAME_FIELDS: tuple[str, ...] = (
    "date",
    "event",
    "event_class",
    "round",
    "kind",
    "board",
    "white",
    "white_id",
    "white_rank",
    "white_egd_pin",
    "white_ffg_licence",
    "white_aga_id",
    "black",
    "black_id",
    "black_rank",
    "black_egd_pin",
    "black_ffg_licence",
    "black_aga_id",
    "handicap",
    "komi",
    "winner",
    # Added in November 2026, at the end as promised:
    "white_country",
    "white_club",
    "black_country",
    "black_club",
)

Record: TypeAlias = dict[str, str | int | float | None]


def rank_cell(line: int, column: str, text: str | None) -> float | None:
    """The rank written in a file's cell (None when empty); an unreadable
    rank or one outside 30k..9d is refused naming the line and the column."""
    if not text:
        return None
    try:
        rank = parse_rank(text)
    except RankError as error:
        raise ExchangeError(line, f"{column}: {error}") from None
    if not MIN_RANK <= rank <= MAX_RANK:
        raise ExchangeError(line, f"{column}: {text!r} is outside 30k..9d")
    return rank


def _side(prefix: str, player: Player) -> Record:
    return {
        prefix: player.name,
        f"{prefix}_id": player.key,
        f"{prefix}_rank": None if player.rank is None else format_rank(player.rank),
        f"{prefix}_egd_pin": player.egd_pin,
        f"{prefix}_ffg_licence": player.ffg_licence,
        f"{prefix}_aga_id": player.aga_id,
    }


def game_record(game: TournamentGame, tournament: Tournament) -> Record:
    """One game as a JSON-ready dict with the keys of :data:`GAME_FIELDS`, in that order."""
    return record_of(
        game,
        tournament.player(game.white),
        tournament.player(game.black),
        name=tournament.name,
        start=tournament.start,
        event_class=tournament.event_class,
    )


def record_of(
    game: TournamentGame,
    white: Player,
    black: Player,
    *,
    name: str,
    start: date | None,
    event_class: str | None,
) -> Record:
    """:func:`game_record` from the two players and the export's name, start
    and class, for writers that stream games without a whole Tournament."""
    day = game.date or start
    record: Record = {
        "date": day.isoformat() if day else None,
        "event": game.event or name or None,
        "event_class": event_class,
        "round": game.round,
        "kind": game.kind,
        "board": game.board,
    }
    record.update(_side("white", white))
    record.update(_side("black", black))
    record.update({"handicap": game.handicap, "komi": game.komi, "winner": game.winner.value})
    for prefix, player in (("white", white), ("black", black)):
        record.update({f"{prefix}_country": player.country, f"{prefix}_club": player.club})
    return record


def game_records(tournament: Tournament) -> list[Record]:
    return [game_record(game, tournament) for game in tournament.games]


def iter_games_csv(records: Iterable[Record]) -> Iterator[str]:
    """The CSV file of ``records`` (header first), a line at a time; text
    cells a spreadsheet would run as a formula are neutralised (cells.py)."""
    rows = (tuple(record[name] for name in GAME_FIELDS) for record in records)
    yield from csv_lines(itertools.chain([GAME_FIELDS], rows), lineterminator="\n")


def iter_games_json(records: Iterable[Record]) -> Iterator[str]:
    """The JSON file of ``records``, a record at a time: the same text as
    ``json.dumps({"fields": GAME_FIELDS, "games": [...]}, indent=1)``."""
    fields = json.dumps(list(GAME_FIELDS), ensure_ascii=False, indent=1).replace("\n", "\n ")
    yield f'{{\n "fields": {fields},\n "games": ['
    first = True
    for record in records:
        body = json.dumps(record, ensure_ascii=False, indent=1).replace("\n", "\n  ")
        yield ("\n  " if first else ",\n  ") + body
        first = False
    yield "]\n}" if first else "\n ]\n}"


def write_games_csv(tournament: Tournament) -> str:
    return "".join(iter_games_csv(game_records(tournament)))


def write_games_json(tournament: Tournament) -> str:
    return "".join(iter_games_json(game_records(tournament)))


# --- reading back ----------------------------------------------------------------


def _text(record: Mapping[str, Any], key: str) -> str | None:
    value = record.get(key)
    if value is None:
        return None
    text = str(value).strip()
    return text or None


def records_to_tournament(records: Iterable[tuple[int, Mapping[str, Any]]], fmt: str) -> Tournament:
    """Records (with their line or index) -> a Tournament; players are keyed by *_id (else name)."""
    players: dict[str, Player] = {}
    games: list[TournamentGame] = []
    name = ""
    event_class: str | None = None
    for line, record in records:
        if not isinstance(record, Mapping):
            raise ExchangeError(line, "a game record must be an object with the documented fields")
        keys: list[str] = []
        for side in ("white", "black"):
            player_name = _text(record, side)
            key = _text(record, f"{side}_id") or player_name
            if not player_name or not key:
                raise ExchangeError(line, f"{side}: the player's name is missing")
            rank = rank_cell(line, f"{side}_rank", _text(record, f"{side}_rank"))
            player = Player(
                key=key,
                name=player_name,
                rank=rank,
                egd_pin=_text(record, f"{side}_egd_pin"),
                ffg_licence=_text(record, f"{side}_ffg_licence"),
                aga_id=_text(record, f"{side}_aga_id"),
                country=_text(record, f"{side}_country"),
                club=_text(record, f"{side}_club"),
                line=line,
            )
            known = players.get(key)
            if known is None:
                players[key] = player
            elif replace(known, line=line) != player:
                raise ExchangeError(
                    line,
                    f"{side}: player {key!r} is described differently on line {known.line}",
                    other_line=known.line,
                )
            keys.append(key)
        if keys[0] == keys[1]:
            raise ExchangeError(line, "the same player is on both sides")
        winner_text = (_text(record, "winner") or "").lower()
        try:
            winner = Winner(winner_text)
        except ValueError:
            raise ExchangeError(line, f"winner {winner_text!r}: expected white, black or jigo") from None
        day_text = _text(record, "date")
        try:
            day = date.fromisoformat(day_text) if day_text else None
            handicap = int(_text(record, "handicap") or 0)
            komi = float(_text(record, "komi") or "nan")
            round_ = int(_text(record, "round") or 0)
            board = int(_text(record, "board") or 19)
        except ValueError as error:
            raise ExchangeError(line, f"not a valid value: {error}") from None
        if not 0 <= handicap <= 9:
            raise ExchangeError(line, f"handicap {handicap} is out of range (0..9)")
        if not math.isfinite(komi):
            raise ExchangeError(line, "komi is missing or not a number")
        if round_ < 0:
            raise ExchangeError(line, f"round {round_} is negative")
        name = name or (_text(record, "event") or "")
        event_class = event_class or _text(record, "event_class")
        games.append(
            TournamentGame(
                round=round_,
                white=keys[0],
                black=keys[1],
                winner=winner,
                handicap=handicap,
                komi=komi,
                date=day,
                lines=(line,),
                kind=_text(record, "kind") or "club",
                board=board,
                event=_text(record, "event"),
            )
        )
    dates = [g.date for g in games if g.date is not None]
    return Tournament(
        name=name,
        start=min(dates) if dates else None,
        end=max(dates) if dates else None,
        event_class=event_class,
        players=tuple(players.values()),
        games=tuple(games),
        format=fmt,
    )


def parse_games_csv(text: str) -> Tournament:
    reader = csv.DictReader(io.StringIO(text), strict=True)
    missing = [f for f in ("white", "black", "winner", "komi") if f not in (reader.fieldnames or ())]
    if missing:
        raise ExchangeError(1, f"the header lacks the columns {', '.join(missing)} (see GAME_FIELDS)")
    try:
        rows = [(reader.line_num, row) for row in reader]
    except csv.Error as error:
        raise ExchangeError(reader.line_num, f"not valid CSV: {error}") from None
    for line, row in rows:
        if None in row or any(v is None for v in row.values()):
            raise ExchangeError(line, f"expected {len(reader.fieldnames or ())} fields like the header")
    # Our own exports neutralise formula-like text ('=Bob); read it back as written.
    restored = [(line, {key: restore_cell(value) for key, value in row.items()}) for line, row in rows]
    return records_to_tournament(restored, "csv")


def parse_games_json(text: str) -> Tournament:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ExchangeError(error.lineno, f"not valid JSON: {error.msg}", column=error.colno) from None
    games: object = data.get("games") if isinstance(data, dict) else data
    if not isinstance(games, list):
        raise ExchangeError(None, "expected a list of game records (or an object with a 'games' list)")
    return records_to_tournament(enumerate(games, start=1), "json")
