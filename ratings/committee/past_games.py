"""A list's past from another system (``manage.py import_past_games``): a
CSV of games with the players' ranks then (ratings/exchange/past_games.py),
saved as record sheets, one for each club and day, all or nothing.

A name the list does not know becomes a new player whose starting rank is
their rank at their first game in the file (the file is read in date
order); a known name is that player. Names are one person when the list's
identity rule makes them one (case and spacing aside, as at entry), never
because they are merely alike: a new name alike a player of the list, or
another new name of the file ("José Dias" and "Jose Dias", "Wang Riaan"
and "Riaan Wang"), is shown beside it in the preview (ratings.names), for
the committee to correct the file before saving. A game the club already has on that
day between the same two players is a repeat: the import is refused, so a
file imported twice saves nothing the second time. With ``dry_run`` every
check runs and the report says what would be saved, then it is rolled back
(the preview, as ``import_tournament --dry-run``).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.db import transaction
from django.db.models import Q

from ratings import exchange, services
from ratings.committee.common import CommitteeError
from ratings.engine.ranks import format_rank
from ratings.exchange.names import identity_key, search_words
from ratings.exchange.past_games import PastGame, read_past_games
from ratings.models import Club, ImportPreview, Player, RatingList
from ratings.names import alike, close_pairs, describe
from ratings.services import GameRow, NewPlayer, SheetError
from ratings.services.sheet_changes import repeated_games


@dataclass
class PastGamesReport:
    games: int = 0
    sheets: int = 0
    first: date | None = None
    last: date | None = None
    #: (name, starting rank) of each player the import creates.
    new_players: list[tuple[str, float]] = field(default_factory=list)
    dry_run: bool = False
    #: New name → the players of the list it is alike (described), and the
    #: file's other new names it is alike: hints, never matched by themselves.
    alike_in_list: dict[str, list[str]] = field(default_factory=dict)
    alike_in_file: dict[str, list[str]] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        """What a preview shows, and what saving must find again (JSON)."""
        return {
            "games": self.games,
            "sheets": self.sheets,
            "first": self.first.isoformat() if self.first else None,
            "last": self.last.isoformat() if self.last else None,
            "new_players": [[name, format_rank(rank)] for name, rank in self.new_players],
        }

    def hints(self) -> dict[str, Any]:
        """The near misses a preview shows beside the new players (JSON); not
        compared on saving: a player added meanwhile changes them, not what
        the file saves."""
        return {
            name: {"list": self.alike_in_list.get(name, []), "file": self.alike_in_file.get(name, [])}
            for name, _ in self.new_players
            if self.alike_in_list.get(name) or self.alike_in_file.get(name)
        }


class _DryRun(Exception):
    pass


def _club(rating_list: RatingList, text: str, line: int, clubs: dict[str, Club]) -> Club:
    key = text.casefold()
    if key not in clubs:
        found = (
            Club.objects.filter(rating_list=rating_list)
            .filter(Q(name__iexact=text) | Q(slug__iexact=text))
            .first()
        )
        if found is None:
            raise CommitteeError(f"line {line}: club {text!r} is not a club of {rating_list}")
        clubs[key] = found
    return clubs[key]


def import_past_games(
    rating_list: RatingList, data: bytes, *, user: Any = None, dry_run: bool = False
) -> PastGamesReport:
    try:
        games = read_past_games(data)
    except exchange.ExchangeError as error:
        raise CommitteeError(str(error)) from None
    games.sort(key=lambda g: (g.date, g.line))
    report = PastGamesReport(games=len(games), first=games[0].date, last=games[-1].date, dry_run=dry_run)
    clubs: dict[str, Club] = {}
    groups: dict[tuple[int, date], list[PastGame]] = defaultdict(list)
    for game in games:
        groups[(_club(rating_list, game.club, game.line, clubs).pk, game.date)].append(game)
    starts: dict[str, float | None] = {}
    for game in games:
        starts.setdefault(identity_key(game.white), game.white_rank)
        starts.setdefault(identity_key(game.black), game.black_rank)
    _near_misses(rating_list, games, report)
    try:
        with transaction.atomic():
            for (club_id, day), group in groups.items():
                club = next(c for c in clubs.values() if c.pk == club_id)
                rows = [_row(rating_list, g, starts, report) for g in group]
                repeats = repeated_games(club, day, rows)
                if repeats:
                    position, saved = repeats[0]
                    raise CommitteeError(
                        f"line {group[position - 1].line}: {club} already has this game of {day} "
                        f"({saved}): the file was imported before, or the game entered by hand"
                    )
                try:
                    services.save_sheet(
                        club=club, date=day, rows=rows, actor=user, event="Past games (import)"
                    )
                except SheetError as error:
                    row, fields = min(error.problems.items())
                    line = group[row - 1].line if row else group[0].line
                    raise CommitteeError(
                        f"line {line}: " + "; ".join(f"{k}: {v}" for k, v in fields.items())
                    ) from None
                report.sheets += 1
            if dry_run:
                raise _DryRun
    except _DryRun:
        pass
    return report


#: ImportPreview.format of a past-games file (a tournament's is its file format).
PAST = "past"


def preview_past_games(
    rating_list: RatingList, data: bytes, *, filename: str = "", user: Any = None
) -> ImportPreview:
    """Check ``data`` as an import (nothing saved) and keep it, with what it
    would save, for the committee's "Save" (as a tournament file's preview).
    The preview hangs on the list's first club (ImportPreview belongs to a
    club), so the list's committee, and only it, opens it."""
    report = import_past_games(rating_list, data, user=user, dry_run=True)
    club = rating_list.clubs.order_by("pk").first()
    if club is None:
        raise CommitteeError(f"{rating_list} has no club yet")
    return ImportPreview.objects.create(
        club=club, created_by=user if getattr(user, "pk", None) else None, filename=filename[:200],
        format=PAST, data=data, report={**report.summary(), "alike": report.hints()},
    )  # fmt: skip


def save_past_games(preview: ImportPreview, *, user: Any = None) -> PastGamesReport:
    """Save the previewed file, exactly as shown, and delete the preview;
    CommitteeError when it was saved already, is too old, or would now save
    something else (nothing is saved then)."""
    if preview.expired:
        ImportPreview.objects.filter(pk=preview.pk).delete()
        raise CommitteeError("this preview is more than a day old and was discarded; upload the file again")
    with transaction.atomic():
        current = ImportPreview.objects.select_for_update().filter(pk=preview.pk, format=PAST).first()
        if current is None:
            raise CommitteeError("this preview was already saved (or discarded); upload the file again")
        report = import_past_games(current.club.rating_list, bytes(current.data), user=user)
        shown = {key: value for key, value in current.report.items() if key != "alike"}
        if report.summary() != shown:
            raise CommitteeError(
                "the list changed since the preview: upload the file again to see what it saves"
            )
        current.delete()
    return report


def _row(
    rating_list: RatingList, game: PastGame, starts: dict[str, float | None], report: PastGamesReport
) -> GameRow:
    sides: list[Player | NewPlayer] = []
    for name in (game.white, game.black):
        player = Player.objects.named(rating_list, name).first()
        if player is not None:
            sides.append(player)
            continue
        start = starts[identity_key(name)]
        if start is None:
            raise CommitteeError(f"line {game.line}: {name} is new to the list: their rank then is needed")
        if identity_key(name) not in {identity_key(n) for n, _ in report.new_players}:
            report.new_players.append((name, start))
        sides.append(NewPlayer(name=name, rank=round(start)))
    white, black = sides
    return GameRow(
        white=white, black=black, winner=game.winner, handicap=game.handicap, komi=game.komi, kind=game.kind
    )


def _near_misses(rating_list: RatingList, games: list[PastGame], report: PastGamesReport) -> None:
    """Fill the report's hints, before anything is written: for each name the
    list does not know (spelled as first written), the list's players it is
    alike, and the file's other new names it is alike."""
    first: dict[str, str] = {}
    for game in games:
        for name in (game.white, game.black):
            first.setdefault(identity_key(name), name)
    known = set(
        Player.objects.filter(rating_list=rating_list, name_key__in=list(first)).values_list(
            "name_key", flat=True
        )
    )
    new = [name for key, name in first.items() if key not in known]
    for name in new:
        in_list = [describe(player) for player in alike(rating_list, name)]
        if in_list:
            report.alike_in_list[name] = in_list
    for one, other, _closeness in close_pairs([(name, search_words(name)) for name in new]):
        report.alike_in_file.setdefault(one, []).append(other)
        report.alike_in_file.setdefault(other, []).append(one)
