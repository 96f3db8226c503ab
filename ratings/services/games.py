"""Correcting and deleting one game."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from django.db import transaction

from ratings.models import Game, Kind, LogEntry
from ratings.services.checks import game_problems
from ratings.services.common import describe_game, log_change, loggable, mark_dirty, refresh_last_updated
from ratings.services.rows import Actor, SheetError

#: Fields a correction may change.
EDITABLE = (
    "date",
    "white",
    "black",
    "handicap",
    "komi",
    "winner",
    "kind",
    "board",
    "minutes",
    "forfeit",
    "comments",
)


def edit_game(
    game: Game, *, actor: Actor = None, today: date | None = None, reason: str = "", **changes: Any
) -> dict[str, list[Any]]:
    """Correct a game; returns (and logs) {field: [old, new]} of what changed.
    The log entry's summary ends with the ``reason`` given, if any.

    The ratings are marked stale from the earlier of the old and new date: a
    game moved later still changed everything after its old place.
    """
    unknown = set(changes) - set(EDITABLE)
    if unknown:
        raise ValueError(
            f"cannot edit {', '.join(sorted(unknown))}; editable fields are {', '.join(EDITABLE)}"
        )
    if changes.get("komi") is not None:
        changes["komi"] = Decimal(str(changes["komi"]))
    with transaction.atomic():
        current = (
            Game.objects.select_for_update()
            .select_related("white", "black", "club", "rating_list")
            .get(pk=game.pk)
        )
        diff: dict[str, list[Any]] = {}
        for name, new in changes.items():
            old = getattr(current, name)
            if old != new:
                diff[name] = [old, new]
        if not diff:
            return {}
        merged = {name: changes.get(name, getattr(current, name)) for name in EDITABLE}
        found = game_problems(
            white=merged["white"],
            black=merged["black"],
            winner=merged["winner"],
            handicap=merged["handicap"],
            komi=merged["komi"],
            game_date=merged["date"],
            rating_list=current.rating_list,
            today=today,
        )
        if merged["kind"] not in Kind.values:
            found["kind"] = f"unknown kind of game {merged['kind']!r}"
        if found:
            raise SheetError({1: found})
        old_date = current.date
        old_players = [current.white, current.black]
        for name, (_, new) in diff.items():
            setattr(current, name, new)
        current.full_clean(exclude=["sheet", "club", "rating_list", "entered_by"])
        current.save()
        logged = {name: [loggable(old), loggable(new)] for name, (old, new) in diff.items()}
        players = list({p.pk: p for p in [*old_players, current.white, current.black]}.values())
        log_change(
            rating_list=current.rating_list_id,
            club=current.club,
            actor=actor,
            action=LogEntry.Action.EDIT,
            event_date=current.date,
            summary="Corrected "
            + ", ".join(logged)
            + ": "
            + describe_game(current)
            + (f" ({reason})" if reason else ""),
            players=players,
            game=current,
            sheet=current.sheet,
            changes=logged,
        )
        refresh_last_updated(players)
        mark_dirty(current.rating_list_id, min(old_date, current.date))
    game.refresh_from_db()
    return logged


def delete_game(game: Game, *, actor: Actor = None, reason: str = "") -> None:
    """Delete a game; the log keeps what it was and who deleted it."""
    with transaction.atomic():
        current = (
            Game.objects.select_for_update().select_related("white", "black", "club", "sheet").get(pk=game.pk)
        )
        players = [current.white, current.black]
        summary = "Deleted " + describe_game(current) + (f" ({reason})" if reason else "")
        snapshot = {name: [loggable(getattr(current, name)), None] for name in EDITABLE}
        log_change(
            rating_list=current.rating_list_id,
            club=current.club,
            actor=actor,
            action=LogEntry.Action.DELETE,
            event_date=current.date,
            summary=summary,
            players=players,
            sheet=current.sheet,
            changes=snapshot,
        )
        current.delete()
        refresh_last_updated(players)
        mark_dirty(current.rating_list_id, current.date)
