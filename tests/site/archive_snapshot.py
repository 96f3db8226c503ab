"""What the list-archive tests compare between a list and its imported
copy: every history row (each player's record sheet in every system), the
record sheets as entered, and the log, named by players' names, clubs'
names and accounts' e-mail addresses (ids differ between the two lists).

Run as a script it prints the snapshot of one list as JSON, for a test that
imports an archive into another database in a subprocess:
``python -m tests.site.archive_snapshot SLUG``.
"""

from __future__ import annotations

import json
import sys
from typing import Any


def snapshot(slug: str) -> dict[str, list[list[Any]]]:
    from django.db.models import Count

    from ratings.models import Club, EventEntry, HistoryEntry, LogEntry, Player, RecordSheet

    players = {p.pk: p.display_name for p in Player.objects.filter(rating_list__slug=slug)}
    clubs = {c.pk: c.name for c in Club.objects.filter(rating_list__slug=slug)}
    history = [
        [system, seq, day.isoformat(), players[player], colour, opponent and players[opponent], *numbers]
        for system, seq, day, player, colour, opponent, *numbers in HistoryEntry.objects.filter(
            rating_list__slug=slug
        )
        .order_by("system", "seq", "colour", "player__name")
        .values_list(
            "system", "seq", "date", "player", "colour", "opponent",
            "rank_before", "rating_before", "change", "rank_after", "rating_after",
            "game__handicap", "game__komi", "game__winner", "game__kind", "adjustment__reason",
        )
    ]  # fmt: skip
    sheets = [
        [clubs[club], day.isoformat(), event, kind, email, at.isoformat(), games]
        for club, day, event, kind, email, at, games in RecordSheet.objects.filter(
            club__rating_list__slug=slug
        )
        .order_by("entered_at", "date", "event")
        .values_list("club", "date", "event", "kind", "entered_by__email", "entered_at")
        .annotate(n=Count("games"))
    ]
    log = [
        [
            e.at.isoformat(), e.action, e.event_date.isoformat(), e.summary,
            e.actor.email if e.actor else None, e.club_id and clubs[e.club_id],
            sorted(p.display_name for p in e.players.all()), sorted(e.changes),
        ]
        for e in LogEntry.objects.filter(rating_list__slug=slug)
        .select_related("actor").prefetch_related("players").order_by("at", "summary")
    ]  # fmt: skip
    for row in history:
        row[12] = str(row[12]) if row[12] is not None else None
    entries = [
        [event, players[player], position, place, tiebreaks, byes]
        for event, player, position, place, tiebreaks, byes in EventEntry.objects.filter(
            sheet__club__rating_list__slug=slug
        )
        .order_by("sheet__event", "position")
        .values_list("sheet__event", "player", "position", "place", "tiebreaks", "byes")
    ]
    return {"history": history, "sheets": sheets, "log": log, "entries": entries}


if __name__ == "__main__":
    import django

    django.setup()
    print(json.dumps(snapshot(sys.argv[1])))
