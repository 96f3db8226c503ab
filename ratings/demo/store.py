"""Writing the demo: record sheets and games in bulk, with their log-file as
the entry service writes it, the planned corrections and the committee's
rank adjustments, and each player's last-updated date.  Nothing here draws
a random number: the plan (ratings/demo/history.py) has drawn them all."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime

from django.contrib.auth.models import User

from ratings.demo.history import KomiCorrection, ListPlan, Promotion
from ratings.demo.people import DemoPlayer
from ratings.demo.sheets import Plan
from ratings.engine.ranks import format_rank
from ratings.models import Game, LogEntry, Player, RankAdjustment, RatingList, RecordSheet
from ratings.services import describe_game


def write_list(
    plan: ListPlan, enterer: Callable[[Plan], User], fixer: Callable[[Game], User], committee: User
) -> None:
    """Everything the plan of one list holds, after its list and clubs are
    saved: sheets entered by ``enterer(plan)``, komi corrected by ``fixer(game)``."""
    Player.objects.bulk_create([p.model for p in plan.players])
    write_sheets(plan, enterer)
    correct_komi(plan.corrections, fixer)
    promote(plan.rating_list, plan.promotions, committee)
    set_last_updated(plan.players, plan.games)


def write_sheets(plan: ListPlan, enterer: Callable[[Plan], User]) -> None:
    """The planned sheets and their games, entered by ``enterer(plan)``."""
    for sheet, sheet_plan in zip(plan.sheets, plan.plans_by_sheet, strict=True):
        sheet.entered_by = enterer(sheet_plan)
    # Bulk inserts (primary keys come back on SQLite and PostgreSQL).
    RecordSheet.objects.bulk_create(plan.sheets)
    for game in plan.games:
        game.sheet = game.sheet  # pick up the sheet's new primary key
        game.entered_by = game.sheet.entered_by
    Game.objects.bulk_create(plan.games, batch_size=500)
    log_games(plan.games)


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


def correct_komi(corrections: list[KomiCorrection], enterer: Callable[[Game], User]) -> None:
    """The planned corrections of club games, logged as the edit service logs them."""
    for fix in corrections:
        game = fix.game
        Game.objects.filter(pk=game.pk).update(komi=fix.new)
        game.komi = fix.new
        entry = LogEntry.objects.create(
            rating_list_id=game.rating_list_id,
            club_id=game.club_id,
            at=fix.at,
            actor=enterer(game),
            action=LogEntry.Action.EDIT,
            game=game,
            sheet_id=game.sheet_id,
            event_date=game.date,
            summary=("Corrected komi: " + describe_game(game))[:300],
            changes={"komi": [str(fix.old), str(fix.new)]},
        )
        entry.players.set([game.white, game.black])


def promote(rating_list: RatingList, promotions: list[Promotion], actor: User) -> None:
    """The committee's planned promotions of the fastest improvers (a national rank sync)."""
    for step in promotions:
        player = step.player.model
        reason = "SAGA rank list sync"
        adjustment = RankAdjustment.objects.create(
            rating_list=rating_list,
            player=player,
            date=step.day,
            rank=step.rank,
            reason=reason,
            entered_by=actor,
            entered_at=step.at,
        )
        entry = LogEntry.objects.create(
            rating_list=rating_list,
            club=None,
            at=step.at,
            actor=actor,
            action=LogEntry.Action.ADD,
            adjustment=adjustment,
            event_date=step.day,
            summary=f"{step.day:%Y-%m-%d} {player} set to {format_rank(step.rank)}: {reason}",
        )
        entry.players.set([player])


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
