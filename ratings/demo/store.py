"""Writing the demo: record sheets and games in bulk, with their log-file as
the entry service writes it, a few corrections, the committee's rank
adjustments, and each player's last-updated date."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import date, datetime, time, timedelta
from decimal import Decimal

from django.contrib.auth.models import User
from django.utils import timezone

from ratings.demo.people import DAYS, DemoPlayer
from ratings.demo.sheets import Plan, make_game
from ratings.engine.ranks import format_rank
from ratings.models import Game, Kind, LogEntry, Player, RankAdjustment, RatingList, RecordSheet
from ratings.services import describe_game


def write_sheets(
    rng: random.Random, plans: list[Plan], start: date, enterer: Callable[[Plan], User]
) -> list[Game]:
    """The sheets in date order, each entered a day or two after its last
    game, one in six weeks late (after later sheets), by ``enterer(plan)``."""
    now = timezone.now()
    tz = timezone.get_current_timezone()
    sheets: list[RecordSheet] = []
    games: list[Game] = []
    for plan in sorted(plans, key=lambda plan: (plan.day, plan.club.slug)):
        last = max(day for day, *_ in plan.games)
        delay = (
            timedelta(days=rng.randrange(7, 45))
            if rng.random() < 1 / 6
            else timedelta(days=rng.randrange(1, 3))
        )
        entered_at = datetime.combine(last, time(20, rng.randrange(60)), tz) + delay
        entered_at = min(entered_at, now - timedelta(minutes=rng.randrange(5, 600)))
        entered_at = max(entered_at, datetime.combine(last, time(23, 0), tz))
        sheet = RecordSheet(
            club=plan.club,
            event=plan.event,
            date=plan.day,
            kind=plan.kind,
            entered_by=enterer(plan),
            entered_at=entered_at,
        )
        sheets.append(sheet)
        games += [make_game(rng, sheet, pairing, start) for pairing in plan.games]
    # Bulk inserts (primary keys come back on SQLite and PostgreSQL).
    RecordSheet.objects.bulk_create(sheets)
    for game in games:
        game.sheet = game.sheet  # pick up the sheet's new primary key
    Game.objects.bulk_create(games, batch_size=500)
    log_games(games)
    return games


def log_games(games: list[Game]) -> None:
    entries = LogEntry.objects.bulk_create(
        [
            LogEntry(
                rating_list_id=game.rating_list_id,
                club_id=game.club_id,
                at=game.entered_at,
                actor=game.entered_by,
                action=LogEntry.Action.ADD,
                sheet=game.sheet,
                game=game,
                event_date=game.date,
                summary=describe_game(game)[:300],
            )
            for game in games
        ],
        batch_size=500,
    )
    through = LogEntry.players.through
    through.objects.bulk_create(
        [
            through(logentry_id=entry.pk, player_id=pid)
            for entry, game in zip(entries, games, strict=True)
            for pid in (game.white_id, game.black_id)
        ],
        batch_size=500,
    )


def correct_komi(rng: random.Random, games: list[Game], enterer: Callable[[Game], User]) -> None:
    """Two corrections of club games, logged as the edit service logs them."""
    club_games = [g for g in games if g.kind == Kind.CLUB]
    for game in rng.sample(club_games, 2):
        old, new = game.komi, Decimal("6.5") if game.komi != Decimal("6.5") else Decimal("7.5")
        Game.objects.filter(pk=game.pk).update(komi=new)
        game.komi = new
        entry = LogEntry.objects.create(
            rating_list_id=game.rating_list_id,
            club_id=game.club_id,
            at=game.entered_at + timedelta(days=rng.randrange(1, 5)),
            actor=enterer(game),
            action=LogEntry.Action.EDIT,
            game=game,
            sheet_id=game.sheet_id,
            event_date=game.date,
            summary=("Corrected komi: " + describe_game(game))[:300],
            changes={"komi": [str(old), str(new)]},
        )
        entry.players.set([game.white, game.black])


def promote_improvers(
    rng: random.Random,
    rating_list: RatingList,
    players: list[DemoPlayer],
    start: date,
    today: date,
    actor: User,
) -> None:
    """The committee promotes the fastest improvers (a national rank sync)."""
    for p in sorted(players, key=lambda p: -p.growth)[:4]:
        day = start + timedelta(days=rng.randrange(250, DAYS - 30))
        day = max(day, p.model.since + timedelta(days=30))
        if day >= today:
            continue
        rank = float(min(8, p.model.start_rank + max(1, round(p.growth / 2))))
        at = datetime.combine(day, time(19, 0), timezone.get_current_timezone()) + timedelta(days=1)
        reason = "SAGA rank list sync"
        adjustment = RankAdjustment.objects.create(
            rating_list=rating_list,
            player=p.model,
            date=day,
            rank=rank,
            reason=reason,
            entered_by=actor,
            entered_at=at,
        )
        entry = LogEntry.objects.create(
            rating_list=rating_list,
            club=None,
            at=at,
            actor=actor,
            action=LogEntry.Action.ADD,
            adjustment=adjustment,
            event_date=day,
            summary=f"{day:%Y-%m-%d} {p.model} set to {format_rank(rank)}: {reason}",
        )
        entry.players.set([p.model])


def set_last_updated(players: list[DemoPlayer], games: list[Game]) -> None:
    """Player.last_updated: the date of the most recently *added* game (the SAGC FAQ)."""
    latest: dict[int, tuple[datetime, date]] = {}
    for game in games:
        for pid in (game.white_id, game.black_id):
            if pid not in latest or game.entered_at > latest[pid][0]:
                latest[pid] = (game.entered_at, game.date)
    for p in players:
        if p.model.pk in latest:
            p.model.last_updated = latest[p.model.pk][1]
    Player.objects.bulk_update([p.model for p in players], ["last_updated"])
