"""What every writer shares: the log entry, the recompute's dirty mark,
players' addresses and last-updated dates, the acting user."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.utils.text import slugify

from ratings.models import Club, FormerSlug, Game, LogEntry, Player, RankAdjustment, RatingList, RecordSheet
from ratings.services.rows import Actor


def mark_dirty(rating_list: RatingList | int, from_date: date) -> None:
    """Tell the recompute pipeline (inside the caller's transaction)."""
    from ratings import recompute

    recompute.mark_dirty(rating_list, from_date)


def unique_slug(name: str, club: Club) -> str:
    """A free Player.slug for ``name``: 'jan-de-wet', then with the club, then numbered."""
    base = slugify(name)[:100] or "player"
    candidates = [base, f"{base}-{club.slug}"[:110]]
    for candidate in candidates:
        if not _slug_taken(candidate):
            return candidate
    n = 2
    while _slug_taken(f"{base}-{n}"):
        n += 1
    return f"{base}-{n}"


def _slug_taken(slug: str) -> bool:
    """A player's address, current or former (a renamed or merged player's old address redirects)."""
    return Player.objects.filter(slug=slug).exists() or FormerSlug.objects.filter(slug=slug).exists()


def refresh_last_updated(players: Iterable[Player]) -> None:
    """Player.last_updated = date of the player's most recently *added* game,
    not the most recently played (the SAGC FAQ, "My last updated date has gone
    backwards": "the last-updated column is actually only the date of the
    most recently added game")."""
    # In primary-key order: two sheets saved at once lock the same player
    # rows in the same order, so they queue instead of deadlocking.
    for _pk, player in sorted({p.pk: p for p in players}.items()):
        latest = (
            Game.objects.of_player(player)
            .order_by("-entered_at", "-id")
            .values_list("date", flat=True)
            .first()
        )
        if player.last_updated != latest:
            player.last_updated = latest
            Player.objects.filter(pk=player.pk).update(last_updated=latest)


def describe_game(game: Game) -> str:
    """One line for the log: who played whom, how, and who won."""
    handicap = f"H{game.handicap}" if game.handicap else "even"
    winner = {"white": f"{game.white} won", "black": f"{game.black} won", "jigo": "jigo"}[game.winner]
    return (
        f"{game.date:%Y-%m-%d} {game.white} (W) v {game.black} (B), {handicap}, komi {game.komi}, "
        f"{winner}, {game.get_kind_display().lower()}"
    )


def log_change(
    *,
    rating_list: RatingList | int,
    club: Club | None,
    actor: Actor,
    action: str,
    event_date: date,
    summary: str,
    players: Sequence[Player],
    game: Game | None = None,
    sheet: RecordSheet | None = None,
    adjustment: RankAdjustment | None = None,
    changes: dict[str, Any] | None = None,
) -> LogEntry:
    entry = LogEntry.objects.create(
        rating_list_id=rating_list if isinstance(rating_list, int) else rating_list.pk,
        club=club,
        actor=acting_user(actor),
        action=action,
        event_date=event_date,
        summary=summary[:300],
        game=game,
        sheet=sheet,
        adjustment=adjustment,
        changes=changes or {},
    )
    entry.players.set(players)
    return entry


def acting_user(actor: Actor) -> User | None:
    """The signed-in user who acted (None for nobody or an anonymous visitor)."""
    return actor if isinstance(actor, User) and actor.is_authenticated else None


def loggable(value: Any) -> Any:
    """A value as the log stores it (JSON): players by name, dates ISO."""
    if isinstance(value, Player):
        return value.display_name
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return value
