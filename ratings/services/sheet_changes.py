"""Whole-sheet operations: games a new sheet (an added game, a corrected
game) repeats, deleting a
saved sheet, and restoring a deleted sheet from the log.

- A *repeat* is a game of the new sheet whose club, date, White and Black are
  those of a game already saved (each saved game answers for one new game
  only: two games of the same pair that night, one already saved, is one
  repeat).  Winner and terms are not compared: a sheet typed twice with one
  typo is still the same sheet.
- Deleting a sheet removes its games in one transaction, marks the list stale
  once from the earliest of them (one recompute), and writes one log entry
  that keeps everything needed to restore it.
- Restoring replays that entry through :func:`ratings.services.save_sheet`
  (so every rule is checked again), as a new sheet entered by whoever
  restores it; the log entry then records the new sheet and cannot be
  restored twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from decimal import Decimal
from typing import Any

from django.db import transaction

from ratings import services
from ratings.models import Club, Game, LogEntry, Player, RecordSheet
from ratings.services import Actor, GameRow, SheetError

#: The key of a sheet-deletion entry's ``changes`` (and of the restored sheet's id).
DELETED_SHEET = "deleted_sheet"
RESTORED_AS = "restored_as"

GAME_FIELDS = ("date", "handicap", "komi", "winner", "kind", "board", "minutes", "forfeit", "comments")


def repeated_games(
    club: Club, sheet_date: date, rows: Sequence[GameRow], *, excluding: Game | None = None
) -> list[tuple[int, Game]]:
    """(position of the row from 1, saved game it repeats) for each repeat
    (``excluding``: a game being corrected, which does not repeat itself)."""
    dates = {row.date or sheet_date for row in rows}
    games = Game.objects.filter(club=club, date__in=dates)
    if excluding is not None:
        games = games.exclude(pk=excluding.pk)
    saved = list(games.select_related("white", "black", "sheet__entered_by").order_by("entered_at", "id"))
    repeats: list[tuple[int, Game]] = []
    for position, row in enumerate(rows, start=1):
        if not (isinstance(row.white, Player) and isinstance(row.black, Player)):
            continue  # a new player has no saved games
        key = (row.date or sheet_date, row.white.pk, row.black.pk)
        match = next((g for g in saved if (g.date, g.white_id, g.black_id) == key), None)
        if match is not None:
            saved.remove(match)
            repeats.append((position, match))
    return repeats


def _snapshot(sheet: RecordSheet, games: Sequence[Game]) -> dict[str, Any]:
    return {
        "sheet": sheet.pk,
        "club": sheet.club_id,
        "event": sheet.event,
        "date": sheet.date.isoformat(),
        "kind": sheet.kind,
        "comments": sheet.comments,
        "entered_by": sheet.entered_by_id,
        "entered_at": sheet.entered_at.isoformat(),
        "games": [
            {
                "white": g.white_id,
                "black": g.black_id,
                "white_name": g.white.display_name,
                "black_name": g.black.display_name,
                **{name: services.loggable(getattr(g, name)) for name in GAME_FIELDS},
            }
            for g in games
        ],
    }


def delete_sheet(sheet: RecordSheet, *, actor: Actor = None, reason: str = "") -> LogEntry:
    """Delete a saved sheet and its games; one recompute, one log entry."""
    with transaction.atomic():
        current = RecordSheet.objects.select_for_update().select_related("club").get(pk=sheet.pk)
        games = list(current.games.select_related("white", "black").order_by("id").select_for_update())
        players = list({p.pk: p for g in games for p in (g.white, g.black)}.values())
        earliest = min([current.date, *(g.date for g in games)])
        count = len(games)
        summary = (
            f"Deleted the record sheet of {current.date:%Y-%m-%d} at {current.club}"
            f"{', ' + current.event if current.event else ''} ({count} game{'s' if count != 1 else ''})"
            f"{f' ({reason})' if reason else ''}"
        )
        entry = services.log_change(
            rating_list=current.club.rating_list_id,
            club=current.club,
            actor=actor,
            action=LogEntry.Action.DELETE,
            event_date=earliest,
            summary=summary,
            players=players,
            changes={DELETED_SHEET: _snapshot(current, games)},
        )
        current.delete()  # its games go with it (Game.sheet cascades)
        services.refresh_last_updated(players)
        services.mark_dirty(current.club.rating_list_id, earliest)
    return entry


def restore_sheet(entry: LogEntry, *, actor: Actor = None) -> RecordSheet:
    """Enter a deleted sheet again from its log entry; SheetError when it
    cannot be (restored already, or a player gone since)."""
    with transaction.atomic():
        current = LogEntry.objects.select_for_update().get(pk=entry.pk)
        if DELETED_SHEET not in current.changes:
            raise SheetError({0: {"sheet": "this log entry is not a deleted record sheet"}})
        if RESTORED_AS in current.changes:
            raise SheetError({0: {"sheet": f"restored already, as sheet {current.changes[RESTORED_AS]}"}})
        data = current.changes[DELETED_SHEET]
        club = Club.objects.select_related("rating_list").get(pk=data["club"])
        games = data["games"]
        players = Player.objects.in_bulk({g[c] for g in games for c in ("white", "black")})
        rows = []
        for position, g in enumerate(games, start=1):
            missing = [g[f"{c}_name"] for c in ("white", "black") if g[c] not in players]
            if missing:
                raise SheetError({position: {"white": f"{' and '.join(missing)} is no longer a player"}})
            rows.append(
                GameRow(
                    white=players[g["white"]],
                    black=players[g["black"]],
                    winner=g["winner"],
                    handicap=g["handicap"],
                    komi=Decimal(g["komi"]),
                    date=date.fromisoformat(g["date"]),
                    kind=g["kind"],
                    board=g["board"],
                    minutes=g["minutes"],
                    forfeit=g["forfeit"],
                    comments=g["comments"],
                )
            )
        sheet = services.save_sheet(
            club=club,
            date=date.fromisoformat(data["date"]),
            rows=rows,
            actor=actor,
            event=data["event"],
            kind=data["kind"],
            comments=data["comments"],
        )
        current.changes = {**current.changes, RESTORED_AS: sheet.pk}
        current.save(update_fields=["changes"])
    return sheet
