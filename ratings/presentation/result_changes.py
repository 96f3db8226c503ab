"""Reading the ripple of late games (ResultChange, written by the
recompute): what later results a game entered late, corrected or deleted
changed, and, for a record sheet, why a row's result is not what it was.

A run rates every log entry since the last run (RecomputeRun.causes); its
ripple belongs to all of them together: a sheet of ten games has one
ripple.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils.formats import date_format

from ratings.engine import SYSTEM_LABELS
from ratings.engine.ranks import format_rank
from ratings.models import Game, HistoryEntry, LogEntry, Player, RecomputeRun, RecordSheet, ResultChange
from ratings.presentation.tables import Note, number, signed
from ratings.services.sheet_changes import DELETED_SHEET

Cause = Game | LogEntry | RecordSheet


def ripple_caused_by(cause: Cause) -> QuerySet[ResultChange]:
    """The later results changed by the runs that rated ``cause``: a log
    entry, a game (every entry of it: entered, corrected) or a record sheet
    (every entry of its games)."""
    if isinstance(cause, LogEntry):
        runs = RecomputeRun.objects.filter(causes=cause)
    elif isinstance(cause, Game):
        runs = RecomputeRun.objects.filter(causes__game=cause)
    else:
        runs = RecomputeRun.objects.filter(causes__sheet=cause)  # its games' entries name it too
    return (
        ResultChange.objects.filter(run__in=runs.filter(status=RecomputeRun.Status.DONE).values("pk"))
        .select_related("player", "game__white", "game__black", "adjustment")
        .order_by("date", "player__name", "system", "id")
    )


def changes_of(player: Player, system: str | None = None) -> QuerySet[ResultChange]:
    """The player's results changed by late games, latest change first
    (of one system when given), with the runs' causes."""
    changes = ResultChange.objects.filter(player=player)
    if system is not None:
        changes = changes.filter(system=system)
    return changes.select_related("run").prefetch_related("run__causes").order_by("-changed_at", "-id")


def day(value: date) -> str:
    return date_format(value, "j F Y")


def describe_causes(entries: Sequence[LogEntry]) -> str:
    """Why a run changed later results, in a few words: "a game of
    3 March 2026 was entered late" (the earliest cause; the others
    counted)."""
    if not entries:
        return "the ratings were recomputed"
    first = min(entries, key=lambda entry: (entry.event_date, entry.pk))
    if first.adjustment_id is not None:
        what = f"a rank adjustment of {day(first.event_date)} was entered"
    elif first.action == LogEntry.Action.ADD:
        what = f"a game of {day(first.event_date)} was entered late"
    elif first.action == LogEntry.Action.EDIT and first.game_id is not None:
        what = f"a game of {day(first.event_date)} was corrected"
    elif first.action == LogEntry.Action.DELETE and DELETED_SHEET in first.changes:
        what = f"a record sheet of {day(first.event_date)} was deleted"
    elif first.action == LogEntry.Action.DELETE:
        what = f"a game of {day(first.event_date)} was deleted"
    else:
        what = f"a change of {day(first.event_date)} was made ({first.summary})"
    others = len(entries) - 1
    return what if not others else f"{what} (with {others} other change{'s' if others > 1 else ''})"


def before_after(old: float, new: float, *, sign: bool = False) -> str:
    """ "old → new" as the sheet writes numbers (one decimal at most); when
    that writes both alike (a GoR that moved by 0.003), with as many more
    decimals (up to four) as it takes to tell them apart."""
    write = signed if sign else number
    first, second = write(old), write(new)
    for digits in (2, 3, 4):
        if old == new or float(first) != float(second):  # "-0.0 → +0.0" tells nothing apart either
            break
        first, second = (f"{'+' if sign and v > 0 else ''}{v:.{digits}f}" for v in (old, new))
    return f"{first} → {second}"


def note_of(change: ResultChange) -> Note:
    return Note(
        changed_on=day(change.changed_at.date()),
        why=describe_causes(list(change.run.causes.all())),
        change=before_after(change.old_change, change.new_change, sign=True),
        rating=before_after(change.old_rating, change.new_rating),
        rank=f"{format_rank(change.old_rank)} → {format_rank(change.new_rank)}",
    )


def notes_for(player: Player, system: str, entries: Iterable[HistoryEntry]) -> list[Note | None]:
    """For each history row of ``player`` (a page of the record sheet), the
    note of its latest change by a late game, or None (one query, and one
    for the causes)."""
    rows = list(entries)
    games = [row.game_id for row in rows if row.game_id is not None]
    adjustments = [row.adjustment_id for row in rows if row.adjustment_id is not None]
    latest: dict[tuple[int | None, int | None], ResultChange] = {}
    if games or adjustments:
        for change in changes_of(player, system).filter(Q(game__in=games) | Q(adjustment__in=adjustments)):
            latest.setdefault((change.game_id, change.adjustment_id), change)
    found = [latest.get((row.game_id, row.adjustment_id)) for row in rows]
    return [None if change is None else note_of(change) for change in found]


@dataclass(frozen=True)
class RippleLine:
    """One changed result, as the include ratings/includes/ripple_caused.html writes it."""

    player: str
    player_url: str
    system: str
    game: str
    game_url: str
    date: str
    change: str
    rating: str
    rank: str


def game_url(game: Game) -> str:
    """The game's page, which explains its change."""
    return reverse("game", args=[game.pk])


def ripple_lines(changes: Iterable[ResultChange]) -> list[RippleLine]:
    lines = []
    for change in changes:
        game = change.game
        if game is not None:
            what, url = f"{game.white} v {game.black}", game_url(game)
        else:
            what, url = "rank adjustment", ""
        lines.append(
            RippleLine(
                player=change.player.display_name,
                player_url=change.player.get_absolute_url(),
                system=SYSTEM_LABELS.get(change.system, change.system),
                game=what,
                game_url=url,
                date=change.date.isoformat(),
                change=before_after(change.old_change, change.new_change, sign=True),
                rating=before_after(change.old_rating, change.new_rating),
                rank=f"{format_rank(change.old_rank)} → {format_rank(change.new_rank)}",
            )
        )
    return lines


#: Changed results a page lists at most (the count says how many in all).
RIPPLE_SHOWN = 100


def ripple_context(cause: Cause, shown: int = RIPPLE_SHOWN) -> dict[str, object]:
    """The context of templates/ratings/includes/ripple_caused.html for
    ``cause``: ``ripple`` (the first ``shown`` lines) and ``ripple_count``."""
    changes = ripple_caused_by(cause)
    count = changes.count()
    return {"ripple": ripple_lines(changes[:shown]) if count else [], "ripple_count": count}
