"""Fill an empty database with the demo site: two rating lists, their clubs,
players, two years of games, and a demo user for each role.

    python manage.py demo [--password P] [--reset] [--if-empty] [--seed N]

The SAGC list with four clubs (home clubs, visitors at other clubs' nights,
a tournament weekend of all four) and an independent town ladder; see
:mod:`ratings.demo`.  The users (a site admin, the committee of each list, a
volunteer of each club, a player linked to a player) are printed with their
password.  Everything comes from one seeded random generator: the same seed
gives the same site, relative to today's date.
"""

from __future__ import annotations

import random
import secrets
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from ratings.demo.history import DEMO_SEED
from ratings.demo.site import Demo, build, demo_usernames
from ratings.models import (
    Club,
    Game,
    HistoryEntry,
    LogEntry,
    Player,
    RankAdjustment,
    RatingList,
    RecordSheet,
)

#: Users of earlier versions of the demo, deleted by --reset too.
OLD_DEMO_USERS = ("volunteer", "committee")


class Command(BaseCommand):
    help = "Fill an EMPTY database with the demo lists, clubs, players, two years of games and demo users."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--password", help="password of the demo users (default: a random one, printed)")
        parser.add_argument(
            "--reset", action="store_true", help="delete all lists, clubs, players and the demo users first"
        )
        parser.add_argument("--if-empty", action="store_true", help="do nothing (no error) when data exists")
        parser.add_argument("--seed", type=int, default=DEMO_SEED, help=f"random seed (default {DEMO_SEED})")

    def handle(self, *args: Any, **options: Any) -> None:
        if self._has_data():
            if options["reset"]:
                self._wipe()
            elif options["if_empty"]:
                self.stdout.write("The database already has data; demo data not added.")
                return
            else:
                raise CommandError(
                    "The database already has data (rating lists, clubs, players or the demo users). "
                    "Run `manage.py demo --reset` to delete it all and start again, "
                    "or `--if-empty` to leave it alone."
                )
        password = options["password"] or secrets.token_urlsafe(9)
        with transaction.atomic():
            demo = build(random.Random(options["seed"]), password)
        self._recompute(demo)
        self._report(demo, password)

    # --- guards -----------------------------------------------------------------

    @staticmethod
    def _users() -> list[str]:
        return [*demo_usernames(), *OLD_DEMO_USERS]

    def _has_data(self) -> bool:
        """Any list (even one without clubs, as the site admin makes it),
        club or player, or a demo user."""
        return (
            RatingList.objects.exists()
            or Club.objects.exists()
            or Player.objects.exists()
            or User.objects.filter(username__in=self._users()).exists()
        )

    def _wipe(self) -> None:
        """Every list's data (children before parents: games and players are
        PROTECTed), then the demo users."""
        with transaction.atomic():
            LogEntry.objects.all().delete()
            HistoryEntry.objects.all().delete()
            Game.objects.all().delete()
            RecordSheet.objects.all().delete()
            RankAdjustment.objects.all().delete()
            Player.objects.all().delete()
            Club.objects.all().delete()
            RatingList.objects.all().delete()
            User.objects.filter(username__in=self._users()).delete()
        self.stdout.write("Deleted the existing lists, clubs, players and demo users.")

    # --- after ------------------------------------------------------------------

    def _recompute(self, demo: Demo) -> None:
        from ratings.recompute import recompute_list

        for rating_list in demo.lists:
            recompute_list(rating_list.pk, full=True, trigger="demo")

    def _report(self, demo: Demo, password: str) -> None:
        for rating_list in demo.lists:
            clubs = ", ".join(rating_list.clubs.values_list("name", flat=True))
            self.stdout.write(
                self.style.SUCCESS(
                    f"Demo list {rating_list.name!r} (/lists/{rating_list.slug}/): {clubs}; "
                    f"{rating_list.players.count()} players, {rating_list.games.count()} games, "
                    f"{rating_list.adjustments.count()} rank adjustments."
                )
            )
        self.stdout.write("Demo users:")
        width = max(len(name) for name, _ in demo.roles)
        for name, role in demo.roles:
            self.stdout.write(f"  {name:<{width}}  {role}")
        self.stdout.write(f"Log in at /accounts/login/ as any of them; password: {password}")
