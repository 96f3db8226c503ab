"""Importing a tournament file (EGD h9, FFG .tou, or the site's own CSV, JSON
or AGA exports) as one record sheet, matching players or creating them;
all or nothing."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from django.db import transaction

from ratings import exchange
from ratings.committee.common import CommitteeError, grade, national_id_max_length
from ratings.engine.ranks import format_rank
from ratings.models import Club, EventEntry, Kind, Player, RatingList, RecordSheet
from ratings.names import alike, describe
from ratings.services import ID_LABELS, GameRow, NewPlayer, SheetError, save_sheet

#: How a player of the file was matched, by the Player field that matched.
#: Games of a file shown (and kept) in a preview; the others are counted.
GAMES_PREVIEWED = 20


@dataclass
class ImportReport:
    """What an import did (or, with ``dry_run``, would do).

    ``matched``, ``created`` and ``skipped`` are one line of text each (the
    command prints them); ``players``, ``new_players`` and ``first_games``
    are the same facts as fields, for the browser's preview
    (ratings/committee/import_preview.py), JSON-ready.
    """

    sheet: RecordSheet | None
    games: int
    fmt: str = ""
    matched: list[str] = field(default_factory=list)
    created: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    dry_run: bool = False
    #: {"line", "name" (as in the file), "player" (ours), "player_id", "how"}
    players: list[dict[str, Any]] = field(default_factory=list)
    #: {"line", "name", "rank" (label), "ids" (the file's national ids)}
    new_players: list[dict[str, Any]] = field(default_factory=list)
    #: The first GAMES_PREVIEWED games: {"lines", "round", "date", "white", "black", ...}
    first_games: list[dict[str, Any]] = field(default_factory=list)
    date: str = ""
    event: str = ""
    forfeits: int = 0

    def summary(self) -> dict[str, Any]:
        """Everything a preview shows, as JSON: two imports of one file whose
        summaries are equal save the same games with the same players."""
        return {
            "format": self.fmt,
            "date": self.date,
            "event": self.event,
            "games": self.games,
            "forfeits": self.forfeits,
            "players": self.players,
            "new_players": self.new_players,
            "first_games": self.first_games,
            "skipped": self.skipped,
        }


def _where(lines: Sequence[int | None]) -> str:
    known = [n for n in dict.fromkeys(lines) if n is not None]
    if not known:
        return "the file"
    return f"line {known[0]}" + "".join(f" (and line {n})" for n in known[1:])


class _ListPlayers:
    """The list's players, looked up by national id, then by name (one query)."""

    IDS = ("egd_pin", "ffg_licence", "aga_id")

    def __init__(self, rating_list: RatingList) -> None:
        self.players = {p.pk: p for p in Player.objects.filter(rating_list=rating_list)}
        self.names = exchange.NameIndex((p.pk, p.display_name) for p in self.players.values())
        self.by_id: dict[tuple[str, str], list[Player]] = {}
        for player in self.players.values():
            for attr in self.IDS:
                if getattr(player, attr):
                    self.by_id.setdefault((attr, getattr(player, attr)), []).append(player)

    def find(self, person: exchange.Player) -> tuple[Player, str] | None:
        """The player and how they matched ("EGD PIN", ..., or "name")."""
        for attr in self.IDS:
            value = getattr(person, attr)
            hits = self.by_id.get((attr, value), []) if value else []
            if len(hits) == 1:
                return hits[0], ID_LABELS[attr]
        named = self.names.lookup(person.name)
        if len(named) > 1:
            names = " and ".join(sorted(self.players[pk].name for pk in named))
            raise CommitteeError(
                f"line {person.line}: {person.name} matches several club players ({names}); "
                "give them their national id or rename one first"
            )
        return (self.players[named[0]], "name") if named else None


def _check_games(tournament: exchange.Tournament) -> None:
    """What the data model would refuse, named by line before anything is saved."""
    if tournament.minutes is not None and not 0 <= tournament.minutes <= 32767:
        raise CommitteeError(f"the file's main time of {tournament.minutes} minutes is not plausible")
    if tournament.board not in (9, 13, 19):
        raise CommitteeError(f"board size {tournament.board}: the site records 9, 13 or 19")
    for game in tournament.games:
        if game.board not in (9, 13, 19):
            raise CommitteeError(
                f"{_where(game.lines)}: board size {game.board}: the site records 9, 13 or 19"
            )


def _board(game: exchange.TournamentGame, tournament: exchange.Tournament) -> int:
    """A .tou gives the board once (``size=``), game records per game."""
    return tournament.board if tournament.board != 19 else game.board


def _resolve_players(
    club: Club, tournament: exchange.Tournament, report: ImportReport
) -> dict[str, Player | NewPlayer]:
    """Match each player who has a game to a player of the club's list (a
    tournament at one club meets players of the whole list), or plan a new one."""
    playing = {g.white for g in tournament.games} | {g.black for g in tournament.games}
    known = _ListPlayers(club.rating_list)
    refs: dict[str, Player | NewPlayer] = {}
    seen: dict[Any, exchange.Player] = {}  # club player pk or new name key -> who took it
    for person in tournament.players:
        if person.key not in playing:
            report.skipped.append(f"line {person.line}: {person.name} has no game")
            continue
        try:
            name = exchange.clean_name(person.name)
        except ValueError as error:
            raise CommitteeError(f"line {person.line}: {person.name!r}: {error}") from None
        found = known.find(person)
        player = found[0] if found is not None else None
        slot: Any = player.pk if player is not None else exchange.name_key(name)
        if slot in seen:
            other = seen[slot]
            raise CommitteeError(
                f"{_where([person.line, other.line])}: {other.name} and {person.name} would be the same "
                "player; a tournament lists each player once"
            )
        seen[slot] = person
        if found is not None:
            player, how = found
            refs[person.key] = player
            report.matched.append(f"{person.name} → {player}" if str(player) != name else name)
            report.players.append(
                {
                    "line": person.line,
                    "name": person.name,
                    "player": str(player),
                    "player_id": player.pk,
                    "how": how,
                }
            )
            continue
        if person.rank is None:
            raise CommitteeError(
                f"line {person.line}: {name} is new to {club.rating_list} and the file gives no grade"
            )
        for attr in _ListPlayers.IDS:
            value = getattr(person, attr)
            if value and len(value) > national_id_max_length(attr):
                raise CommitteeError(f"line {person.line}: {attr} {value!r} is too long")
        # A new player starts at the grade the file gives; a fractional rank
        # (a CSV export of a West Surrey club) starts at its grade band.
        refs[person.key] = NewPlayer(name=name, rank=grade(person.rank))
        report.created.append(f"{name} ({format_rank(grade(person.rank))})")
        report.new_players.append(
            {
                "line": person.line,
                "name": name,
                "rank": format_rank(grade(person.rank)),
                "ids": {ID_LABELS[a]: getattr(person, a) for a in _ListPlayers.IDS if getattr(person, a)},
                # Players of the list the name may mean (a typo, a transliteration):
                # shown in the preview, never matched by themselves.
                "alike": [describe(p) for p in alike(club.rating_list, name, club=club)],
            }
        )
    return refs


def _already_imported(
    club: Club, tournament: exchange.Tournament, day: date, refs: dict[str, Player | NewPlayer]
) -> RecordSheet | None:
    """A sheet of the club's list (the games of every club of a list are one
    pool) with the same event and date, or with exactly these games."""
    sheets = RecordSheet.objects.filter(club__rating_list_id=club.rating_list_id, date=day)
    sheets = sheets.select_related("club")
    if tournament.name:
        found = sheets.filter(event=tournament.name[:200]).first()
        if found is not None:
            return found
    known = {key: ref for key, ref in refs.items() if isinstance(ref, Player)}
    if len(known) < len(refs):
        return None  # a game with a new player cannot be on an earlier sheet
    wanted = Counter(
        (g.date or day, known[g.white].pk, known[g.black].pk, g.winner.value, g.handicap)
        for g in tournament.games
    )
    for sheet in sheets:
        have = Counter(sheet.games.values_list("date", "white_id", "black_id", "winner", "handicap"))
        if have == wanted:
            return sheet
    return None


def import_tournament(
    club: Club,
    data: bytes,
    *,
    filename: str = "",
    format: str | None = None,
    user: Any = None,
    dry_run: bool = False,
    date: date | None = None,
) -> ImportReport:
    """Save a tournament file's games as one sheet of tournament games.

    All or nothing: a bad file raises ExchangeError naming the line; a file
    already imported, a player the club cannot tell apart, or a game the
    site would refuse raises CommitteeError naming the line(s).  With
    ``dry_run`` everything is checked and reported, then rolled back.
    ``date`` is the tournament's date when the caller gives it: needed for a
    file without one (refused otherwise), and it replaces the file's.
    Games won or lost by default are saved as forfeits: kept, never rated.
    """
    tournament = exchange.read_tournament(
        data,
        format=exchange.game_format(format) if format else None,
        filename=filename or None,
        date=date,
    )
    report = ImportReport(sheet=None, games=len(tournament.games), fmt=tournament.format, dry_run=dry_run)
    report.skipped = [
        f"line {s.line}" + (f", round {s.round}" if s.round else "") + f": {s.reason}"
        for s in tournament.skipped
    ]
    if not tournament.games:
        raise CommitteeError(
            f"{filename or 'the file'} has no game to import"
            + (
                f" ({len(tournament.skipped)} items skipped, the first: {report.skipped[0]})"
                if report.skipped
                else ""
            )
        )
    _check_games(tournament)
    # read_tournament refuses a file without a date unless every game has one.
    day = tournament.start or min(g.date for g in tournament.games if g.date)
    event = tournament.name[:200]
    report.date, report.event = day.isoformat(), event
    report.forfeits = sum(1 for g in tournament.games if g.forfeit)
    with transaction.atomic():
        refs = _resolve_players(club, tournament, report)
        report.first_games = [_game_json(g, refs, day) for g in tournament.games[:GAMES_PREVIEWED]]
        duplicate = _already_imported(club, tournament, day, refs)
        if duplicate is not None:
            raise CommitteeError(
                f"{tournament.name or 'these games'} of {day:%Y-%m-%d} was already imported into {duplicate.club.name} "
                f"(the record sheet entered {duplicate.entered_at:%Y-%m-%d %H:%M}"
                f"{' by ' + duplicate.entered_by.get_username() if duplicate.entered_by else ''})"
            )
        rows = [
            GameRow(
                white=refs[g.white],
                black=refs[g.black],
                winner=g.winner.value,
                handicap=g.handicap,
                komi=Decimal(str(g.komi)),
                date=g.date or day,
                # The file's own kind when it says one (the site's CSV/JSON
                # exports); an h9 or .tou game is a tournament game.
                kind=g.kind if g.kind in Kind.values else Kind.TOURNAMENT,
                board=_board(g, tournament),
                minutes=tournament.minutes,
                comments=f"round {g.round}" if g.round else "",
                forfeit=g.forfeit,
                round=g.round or None,
            )
            for g in tournament.games
        ]
        try:
            sheet = save_sheet(
                club=club,
                date=day,
                rows=rows,
                actor=user,
                event=event,
                kind=Kind.TOURNAMENT,
                comments=_sheet_comments(filename, tournament),
            )
        except SheetError as error:
            raise CommitteeError(_sheet_problems(error, tournament)) from error
        if tournament.event_class in ("A", "B", "C", "D"):
            sheet.event_class = tournament.event_class
        sheet.tiebreak_header = tournament.tiebreak_header[:200]
        sheet.save(update_fields=["event_class", "tiebreak_header"])
        _save_entries(sheet, tournament, refs)
        _remember_ids(club, tournament, refs)
        report.sheet = sheet
        if dry_run:
            transaction.set_rollback(True)
    return report


#: A round without a game, by the mark the file gives it.
BYE_WORDS = {"+": "bye, won", "=": "bye, half a point", "-": "no game, no point"}


def _save_entries(
    sheet: RecordSheet, tournament: exchange.Tournament, refs: dict[str, Player | NewPlayer]
) -> None:
    """Each player of the event as the file lists them: place, tie-breaks
    and the rounds they had no game (the crosstable's rows)."""
    byes: dict[int | None, list[list[object]]] = {}
    for note in tournament.skipped:
        if note.bye and note.round is not None:
            # The reason quotes the file's cell: "no game this round (bye: '0=')".
            cell = note.reason.split("'")[1] if note.reason.count("'") >= 2 else ""
            word = "not paired" if "not paired" in note.reason else BYE_WORDS.get(cell[-1:], "no game")
            byes.setdefault(note.line, []).append([note.round, cell, word])
    players = {
        p.display_name: p
        for p in Player.objects.filter(
            rating_list_id=sheet.club.rating_list_id, pk__in=sheet.games.values("white")
        )
        | Player.objects.filter(rating_list_id=sheet.club.rating_list_id, pk__in=sheet.games.values("black"))
    }
    entries = []
    for index, person in enumerate(tournament.players, start=1):
        # The file's own numbering (h9 and .tou: the line's position among
        # the players, anonymous ones included), which its results refer to.
        position = int(person.key) if person.key.isdigit() else index
        ref = refs.get(person.key)
        if ref is None:
            continue
        player = ref if isinstance(ref, Player) else players[ref.display_name]
        entries.append(
            EventEntry(
                sheet=sheet,
                player=player,
                position=position,
                place=(person.place or "")[:10],
                tiebreaks=list(person.tiebreaks),
                byes=sorted(byes.get(person.line, []), key=lambda bye: int(str(bye[0]))),
            )
        )
    EventEntry.objects.bulk_create(entries)


def _game_json(
    game: exchange.TournamentGame, refs: dict[str, Player | NewPlayer], day: date
) -> dict[str, Any]:
    """One game as the preview shows it, players by their name on the site."""

    def name(key: str) -> str:
        ref = refs[key]
        return ref.display_name if isinstance(ref, NewPlayer) else str(ref)

    return {
        "lines": [n for n in game.lines if n is not None],
        "round": game.round,
        "date": (game.date or day).isoformat(),
        "white": name(game.white),
        "black": name(game.black),
        "handicap": game.handicap,
        "komi": float(game.komi),
        "winner": game.winner.value,
        "forfeit": game.forfeit,
    }


def _sheet_comments(filename: str, tournament: exchange.Tournament) -> str:
    """Where the sheet came from, and the event's rounds without a game (byes,
    not paired): not games, so not rated, but kept with the event."""
    text = f"Imported from {filename or 'a file'} ({tournament.format})."
    names = {p.line: p.name for p in tournament.players}
    byes = [
        f"round {s.round}: {names.get(s.line, f'line {s.line}')} ({s.reason.partition('(')[2].rstrip(')')})"
        for s in tournament.skipped
        if s.bye
    ]
    if byes:
        text += " No game (byes, not paired): " + "; ".join(byes) + "."
    return text if len(text) <= 1000 else text[:990].rsplit(";", 1)[0] + "; and more."


def _sheet_problems(error: SheetError, tournament: exchange.Tournament) -> str:
    """save_sheet's rows are the file's games: name their lines instead."""
    parts = []
    for row, fields in sorted(error.problems.items()):
        lines = tournament.games[row - 1].lines if 0 < row <= len(tournament.games) else ()
        where = _where(lines) if row else "the tournament"
        parts += [f"{where}: {message}" for message in fields.values()]
    more = f"; and {len(parts) - 5} more" if len(parts) > 5 else ""
    return "; ".join(parts[:5]) + more


def _remember_ids(club: Club, tournament: exchange.Tournament, refs: dict[str, Player | NewPlayer]) -> None:
    """The national ids the file gives, stored on the players it created."""
    for person in tournament.players:
        ref = refs.get(person.key)
        if not isinstance(ref, NewPlayer):
            continue
        changed = [a for a in _ListPlayers.IDS if getattr(person, a)]
        if changed:
            player = Player.objects.named(club.rating_list, ref.display_name).get()
            for attr in changed:
                setattr(player, attr, getattr(person, attr))
            player.save(update_fields=changed)
