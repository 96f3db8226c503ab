"""One entry point for tournament and game files: detect the format, read it."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from datetime import date
from typing import Literal, TypeAlias

from .aga import parse_aga, write_aga
from .errors import ExchangeError
from .h9 import parse_h9, write_h9
from .model import Tournament
from .records import parse_games_csv, parse_games_json, write_games_csv, write_games_json
from .text import decode_text, split_lines
from .tou import parse_tou, write_tou

GameFormat: TypeAlias = Literal["h9", "tou", "aga", "csv", "json"]
GAME_FORMATS: tuple[GameFormat, ...] = ("h9", "tou", "aga", "csv", "json")

_READERS: dict[GameFormat, Callable[[str], Tournament]] = {
    "h9": parse_h9,
    "tou": parse_tou,
    "aga": parse_aga,
    "csv": parse_games_csv,
    "json": parse_games_json,
}
WRITERS: dict[GameFormat, Callable[[Tournament], str]] = {
    "h9": write_h9,
    "tou": write_tou,
    "aga": write_aga,
    "csv": write_games_csv,
    "json": write_games_json,
}
#: File name extension and media type of each written format.
FILE_TYPES: dict[GameFormat, tuple[str, str]] = {
    "h9": (".h9", "text/plain"),
    "tou": (".tou", "text/plain"),
    "aga": (".txt", "text/plain"),
    "csv": (".csv", "text/csv"),
    "json": (".json", "application/json"),
}


#: The formats a file's extension names without doubt (an AGA file has none of its own).
_BY_EXTENSION: tuple[GameFormat, ...] = ("h9", "tou", "csv", "json")


def detect_game_format(text: str, filename: str | None = None) -> GameFormat:
    """From content: .tou ';name=' header lines; h9 tags 'CL[..]'/'EV[..]'; AGA
    'TOURNEY'/'PLAYERS'/'GAMES'; then the shape of the results (h9 '3+/w0',
    .tou '2+w0'); CSV header with white and black; JSON '{' or '['.
    The file extension is used only when the content says nothing.

    The header decides before the results: OpenGotha 3.51 writes h9-style
    cells ('2-/w0') in its .tou files (toulouse-test-2021.tou).
    """
    stripped = text.lstrip("\ufeff \t\r\n")
    if stripped.startswith(("{", "[")):
        return "json"
    lines = [line for line in split_lines(text[:20000]) if line.strip("\ufeff \t")][:60]
    if not lines:
        raise ExchangeError(None, "the file is empty")
    first = lines[0].strip()
    comments = [line.strip() for line in lines if line.lstrip().startswith(";")]
    if any(re.match(r"^;\s*(name|date|vill|comm|prog)\s*=", line) for line in comments):
        return "tou"
    if any(re.match(r"^;\s*[A-Z]{2}\[", line) for line in comments):
        return "h9"
    if first.upper().startswith("TOURNEY") or any(
        re.fullmatch(r"(PLAYERS|GAMES)(\s+\d+)?", line.strip().upper()) for line in lines
    ):
        return "aga"
    if any(re.search(r"\s\d+[-+=?]!?/[wbWB]\d?", line) for line in lines):
        return "h9"
    if any(re.search(r"\s\d+[-+=?][wbWB]\d(\s|$)", line) for line in lines):
        return "tou"
    header = {cell.strip().lower() for cell in first.split(",")}
    if {"white", "black", "winner"} <= header:
        return "csv"
    extension = (filename or "").lower().rsplit(".", 1)[-1]
    if extension in _BY_EXTENSION:
        return extension
    raise ExchangeError(
        1,
        "not a results file this site knows (expected an EGD .h9, an FFG .tou, an AGA results file, "
        "or the game-record CSV/JSON)",
    )


#: Where each format gives the tournament's date, to say what is missing.
_DATE_SOURCE: dict[GameFormat, str] = {
    "h9": "no DT[start,end] line",
    "tou": "no ;date= line",
    "aga": "no start= line",
    "csv": "no date on its games",
    "json": "no date on its games",
}


def game_format(name: str) -> GameFormat:
    """A format name given by a person or a stored preview, checked."""
    if name not in GAME_FORMATS:
        raise ExchangeError(None, f"unknown format {name!r} (expected one of {', '.join(GAME_FORMATS)})")
    return name


def parse_tournament(
    text: str, format: GameFormat | None = None, filename: str | None = None, date: date | None = None
) -> Tournament:
    """Decoded text -> Tournament.  ``date`` is the tournament's date when the
    caller knows it: it replaces the file's, and a file that gives none is
    refused without it (never dated today without a word)."""
    chosen = game_format(format or detect_game_format(text, filename))
    tournament = _READERS[chosen](text)
    if date is not None:
        end = tournament.end if tournament.end is not None and tournament.end >= date else date
        return replace(tournament, start=date, end=end)
    if tournament.start is None and any(g.date is None for g in tournament.games):
        raise ExchangeError(
            None,
            f"the file gives no date ({_DATE_SOURCE[chosen]}): give the tournament's date when importing it "
            "(import_tournament --date YYYY-MM-DD)",
        )
    return tournament


def read_tournament(
    data: bytes, format: GameFormat | None = None, filename: str | None = None, date: date | None = None
) -> Tournament:
    """Bytes of an uploaded results file -> Tournament, or ExchangeError naming the line."""
    decoded = decode_text(data)
    return replace(parse_tournament(decoded.text, format, filename, date), encoding=decoded.encoding)


def write_tournament(tournament: Tournament, format: GameFormat) -> str:
    if format not in WRITERS:
        raise ExchangeError(None, f"unknown format {format!r} (expected one of {', '.join(GAME_FORMATS)})")
    return WRITERS[format](tournament)
