"""``manage.py recompute [--club SLUG] [--from DATE] [--full]``: bring the
ratings of one club (or every club) up to date now, with a progress bar.

Without ``--from`` or ``--full`` it recomputes what is dirty; ``--from``
replays from a date (moved back to the start of a tournament it would
split); ``--full`` replays everything.  The run is recorded like any other.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from ratings.models import Club, Game, RankAdjustment
from ratings.recompute import recompute_all, recompute_club


class Command(BaseCommand):
    help = "Recompute the rating history of one club or of every club."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--club", metavar="SLUG", help="only this club (default: every club)")
        parser.add_argument(
            "--from", dest="from_date", type=_date, metavar="DATE", help="replay from this date"
        )
        parser.add_argument("--full", action="store_true", help="replay the whole history")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args: Any, **options: Any) -> None:
        clubs = Club.objects.all()
        if options["club"]:
            clubs = clubs.filter(slug=options["club"])
            if not clubs.exists():
                raise CommandError(f"--club: no club with slug {options['club']!r}")
        if options["full"] and not options["club"] and not options["from_date"]:
            # The whole federation in one write (docs/recompute.md: one index
            # rebuild instead of one per club).
            total = sum(_events(club) * len(club.systems) for club in clubs)
            with tqdm(total=total, desc="all clubs", unit="event", unit_scale=True,
                      disable=options["no_progress"], leave=False) as bar:  # fmt: skip
                runs = recompute_all(trigger="command", progress=bar.update)
            for run in runs:
                self._report(run.club.slug, run)
            return
        for club in clubs:
            events = _events(club)
            systems = len(club.systems)
            with tqdm(
                total=events * systems, desc=club.slug, unit="event", unit_scale=True,
                disable=options["no_progress"], leave=False,
            ) as bar:  # fmt: skip
                run = recompute_club(
                    club.pk, full=options["full"], from_date=options["from_date"], trigger="command",
                    progress=bar.update,
                )  # fmt: skip
            self._report(club.slug, run)

    def _report(self, slug: str, run: Any) -> None:
        if run is None:
            self.stdout.write(f"{slug}: up to date")
        else:
            self.stdout.write(
                f"{slug}: {run.status}, from {run.from_date or 'the start'}, "
                f"{run.games_replayed} games replayed, {run.rows_written} rows written in {run.duration:.2f} s"
            )


def _events(club: Club) -> int:
    return Game.objects.filter(club=club).count() + RankAdjustment.objects.filter(club=club).count()


def _date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"--from: {text!r} is not a date like 2026-03-12") from None
