"""A rank adjustment by the committee."""

from __future__ import annotations

from datetime import date

from django.db import transaction
from django.utils import timezone

from ratings.engine.ranks import MAX_RANK, MIN_RANK, format_rank
from ratings.models import LogEntry, Player, RankAdjustment
from ratings.services.checks import date_problem
from ratings.services.common import acting_user, log_change, mark_dirty
from ratings.services.rows import Actor, SheetError


def add_adjustment(
    *,
    player: Player,
    date: date,
    rank: float,
    rating: float | None = None,
    reason: str = "",
    actor: Actor = None,
    today: date | None = None,
) -> RankAdjustment:
    """The committee sets ``player``'s rank (and optionally index) from ``date`` on."""
    today = today or timezone.localdate()
    problems: dict[str, str] = {}
    if not MIN_RANK <= rank <= MAX_RANK:
        problems["rank"] = f"a rank is between {format_rank(MIN_RANK)} and {format_rank(MAX_RANK)}"
    if (problem := date_problem(date, today)) is not None:
        problems["date"] = problem
    elif date < player.since:
        problems["date"] = f"{player.name} joined on {player.since:%Y-%m-%d}; {date:%Y-%m-%d} is before that"
    if problems:
        raise SheetError({1: problems})
    rating_list_id = player.rating_list_id
    with transaction.atomic():
        adjustment = RankAdjustment.objects.create(
            rating_list_id=rating_list_id,
            player=player,
            date=date,
            rank=rank,
            rating=rating,
            reason=reason,
            entered_by=acting_user(actor),
        )
        index = "" if rating is None else f", index {rating:g}"
        log_change(
            rating_list=rating_list_id,
            club=None,
            actor=actor,
            action=LogEntry.Action.ADD,
            event_date=date,
            summary=f"{date:%Y-%m-%d} {player.name} set to {format_rank(rank)}{index}"
            + (f": {reason}" if reason else ""),
            players=[player],
            adjustment=adjustment,
        )
        mark_dirty(rating_list_id, date)
    return adjustment
