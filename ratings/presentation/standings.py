"""What a list's home shows: the standings in the list's primary system,
the latest sheets, the biggest movers of the last days, and the choice of
lists on a site with several."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from django.db.models import Count, Exists, F, Max, Min, OuterRef, Q, QuerySet, Subquery, Sum, Window
from django.db.models.functions import Coalesce, Greatest

from ratings.engine.ranks import format_rank
from ratings.models import Game, HistoryEntry, Player, RatingList, RecordSheet
from ratings.presentation.tables import signed

#: A player is active who played a game in the last ACTIVE_DAYS days.
ACTIVE_DAYS = 365
#: The window of the biggest movers.
MOVER_DAYS = 30
MOVERS_SHOWN = 5
LATEST_SHEETS = 10


def last_game_date(side: str) -> Subquery:
    """The date of the player's latest game as ``side`` ("white" or "black"):
    one probe of the (side, date) index."""
    latest = Game.objects.filter(**{side: OuterRef("pk")}).order_by("-date").values("date")[:1]
    return Subquery(latest)


def standings(rating_list: RatingList, today: date, everyone: bool = False) -> QuerySet[Player]:
    """The list's players, strongest first (rank, then rating in the primary
    system, as the recompute caches them), with ``last_played``; only the
    players with a game in the last ACTIVE_DAYS unless ``everyone``."""
    players = (
        Player.objects.filter(rating_list=rating_list)
        .select_related("home_club")
        .only("name", "suffix", "slug", "rank", "rating", "games_count", "home_club__name")
        # Greatest is NULL with one NULL on SQLite: each side falls back on the other.
        .annotate(
            last_played=Greatest(
                Coalesce(last_game_date("white"), last_game_date("black")),
                Coalesce(last_game_date("black"), last_game_date("white")),
            )
        )
        .order_by("-rank", "-rating", "name", "suffix")
    )
    if everyone:
        return players
    since = today - timedelta(days=ACTIVE_DAYS)
    played = Q(Exists(Game.objects.filter(white=OuterRef("pk"), date__gte=since))) | Q(
        Exists(Game.objects.filter(black=OuterRef("pk"), date__gte=since))
    )
    return players.filter(played)


def latest_sheets(rating_list: RatingList, limit: int = LATEST_SHEETS) -> QuerySet[RecordSheet]:
    """The sheets entered last at the list's clubs, newest first, with their
    games count (counted for those sheets only, not for every sheet of the
    list before the newest are picked)."""
    newest = (
        RecordSheet.objects.filter(club__rating_list=rating_list)
        .order_by("-entered_at", "-id")
        .values("pk")[:limit]
    )
    return (
        RecordSheet.objects.filter(pk__in=newest)
        .select_related("club")
        .annotate(games_count=Count("games"))
        .order_by("-entered_at", "-id")
    )


@dataclass(frozen=True, slots=True)
class Mover:
    """A player's movement in the window: first rank before, last rank after,
    the sum of the changes in the system's unit, over ``games`` results."""

    player_id: int
    rank_before: float
    rank_after: float
    change: float
    games: int
    position_change: float
    player: Player | None = None

    @property
    def change_label(self) -> str:
        return signed(round(self.change, 1))

    @property
    def rank_before_label(self) -> str:
        return format_rank(self.rank_before)

    @property
    def rank_after_label(self) -> str:
        return format_rank(self.rank_after)


def position(system: str, rank: float, rating: float) -> float:
    """Where a player stands, as the history chart plots it: SAGC's rank
    plus its index (-999..+999) as a fraction of the rank; other systems
    their own rating."""
    return rank + rating / 2000 if system == "sagc" else rating


@dataclass(frozen=True, slots=True)
class Movers:
    up: Sequence[Mover]
    down: Sequence[Mover]


def movers(rating_list: RatingList, today: date, days: int = MOVER_DAYS, shown: int = MOVERS_SHOWN) -> Movers:
    """The players who rose and fell most in the primary system over the
    last ``days`` days: each player's rank and rating before their first
    result of the window against after their last one (rank adjustments
    included: they move a player too)."""
    system = rating_list.primary_system
    # Two rows a player, their first and last of the window, each with the
    # sum and count of the player's results there (window functions), not
    # every result of the window: 13,000 rows at the bench's million games,
    # whose reading here was a third of the page.
    player = F("player_id")
    rows = (
        HistoryEntry.objects.filter(
            rating_list=rating_list, system=system, date__gt=today - timedelta(days=days)
        )
        .annotate(
            first_seq=Window(Min("seq"), partition_by=player),
            last_seq=Window(Max("seq"), partition_by=player),
            total=Window(Sum("change"), partition_by=player),
            results=Window(Count("pk"), partition_by=player),
        )
        .filter(Q(seq=F("first_seq")) | Q(seq=F("last_seq")))
        .order_by()
        .values_list(
            "player_id",
            "seq",
            "rank_before",
            "rating_before",
            "rank_after",
            "rating_after",
            "total",
            "results",
        )
    )
    ends = sorted(rows, key=lambda row: row[1])
    first = {row[0]: row for row in reversed(ends)}
    last = {row[0]: row for row in ends}
    moved = {pk: position(system, *last[pk][4:6]) - position(system, *first[pk][2:4]) for pk in first}
    up = sorted((pk for pk, by in moved.items() if by > 0), key=lambda pk: (-moved[pk], pk))[:shown]
    down = sorted((pk for pk, by in moved.items() if by < 0), key=lambda pk: (moved[pk], pk))[:shown]

    players = Player.objects.only("name", "suffix", "slug").in_bulk([*up, *down])

    def mover(pk: int) -> Mover:
        return Mover(
            player_id=pk,
            rank_before=first[pk][2],
            rank_after=last[pk][4],
            change=last[pk][6],
            games=last[pk][7],
            position_change=moved[pk],
            player=players[pk],
        )

    return Movers(up=[mover(pk) for pk in up], down=[mover(pk) for pk in down])


@dataclass(frozen=True, slots=True)
class ListChoice:
    """A list on the chooser of a site with several."""

    rating_list: RatingList
    players: int
    clubs: int


def list_choices() -> list[ListChoice]:
    players = dict(RatingList.objects.annotate(n=Count("players")).values_list("pk", "n"))
    clubs = dict(RatingList.objects.annotate(n=Count("clubs")).values_list("pk", "n"))
    return [
        ListChoice(found, players[found.pk], clubs[found.pk]) for found in RatingList.objects.order_by("name")
    ]
