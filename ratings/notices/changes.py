"""What changed for a player: their new results and the results a late game
changed, with the reason, as plain items the feed and the e-mail share."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.urls import reverse

from ratings.engine import SYSTEM_LABELS
from ratings.engine.ranks import format_rank
from ratings.models import HistoryEntry, Player, ResultChange
from ratings.presentation.result_changes import before_after, describe_causes
from ratings.presentation.tables import number, signed

#: Items a feed holds.
FEED_ITEMS = 30


@dataclass(frozen=True, slots=True)
class Item:
    """One thing to tell: a new result, or a result a late game changed."""

    key: str
    title: str
    text: str
    path: str
    when: datetime | date


def opponent_words(change_game: object, player: Player) -> str:
    white = getattr(change_game, "white", None)
    black = getattr(change_game, "black", None)
    other = black if getattr(change_game, "white_id", None) == player.pk else white
    return f"against {other}" if other is not None else ""


def changed_items(changes: list[ResultChange], player: Player) -> list[Item]:
    """Each changed result: what it was, what it is, and why (the run's causes)."""
    items = []
    for change in changes:
        system = SYSTEM_LABELS.get(change.system, change.system)
        if change.game is not None:
            what = f"your game of {change.date:%Y-%m-%d} {opponent_words(change.game, player)}".strip()
            path = reverse("game", args=[change.game_id])
        else:
            what = f"your rank adjustment of {change.date:%Y-%m-%d}"
            path = reverse("adjustment", args=[change.adjustment_id])
        why = describe_causes(list(change.run.causes.all()))
        items.append(
            Item(
                key=f"change-{change.pk}",
                title=f"{system}: {what} changed",
                text=(
                    f"{why[:1].upper()}{why[1:]}, so {what} was rated again in {system}: change "
                    f"{before_after(change.old_change, change.new_change, sign=True)}, rating "
                    f"{before_after(change.old_rating, change.new_rating)}, rank "
                    f"{format_rank(change.old_rank)} → {format_rank(change.new_rank)}."
                ),
                path=path,
                when=change.changed_at,
            )
        )
    return items


def feed_items(player: Player) -> list[Item]:
    """The record sheet's feed: its latest results in the list's primary
    system and the latest results late games changed, newest first."""
    system = player.rating_list.primary_system
    label = SYSTEM_LABELS.get(system, system)
    rows = (
        HistoryEntry.objects.filter(player=player, system=system, game__isnull=False)
        .select_related("game", "opponent")
        .order_by("-seq")[:FEED_ITEMS]
    )
    items = [
        Item(
            key=f"result-{row.game_id}-{system}",
            title=f"{row.date:%Y-%m-%d}: {result_word(row)} against {row.opponent} ({signed(row.change) or '0'})",
            text=(
                f"{label}: change {signed(row.change) or '0'}, rating {number(row.rating_after)}, "
                f"rank {format_rank(row.rank_after)}."
            ),
            path=reverse("game", args=[row.game_id]),
            when=row.game.entered_at if row.game else row.date,
        )
        for row in rows
    ]
    changes = list(
        ResultChange.objects.filter(player=player)
        .select_related("run", "game__white", "game__black")
        .prefetch_related("run__causes")
        .order_by("-changed_at", "-id")[:FEED_ITEMS]
    )
    items += changed_items(changes, player)
    return sorted(items, key=lambda item: moment(item.when), reverse=True)[:FEED_ITEMS]


def moment(when: datetime | date) -> datetime:
    if isinstance(when, datetime):
        return when
    return datetime(when.year, when.month, when.day).astimezone()


def result_word(row: HistoryEntry) -> str:
    game = row.game
    if game is None or game.winner == "jigo":
        return "jigo"
    won = (game.winner == "white") == (row.colour == "w")
    return "won" if won else "lost"
