"""``manage.py recompute [--list SLUG] [--from DATE] [--full] [--wait SECONDS]``:
bring the ratings of one rating list (or every list) up to date now, with a
progress bar (docs/recompute.md).

A recompute asked for by hand must happen: when another process holds a
list's lock, the command waits for it up to ``--wait`` seconds (default 0),
then exits non-zero saying so, rather than report "up to date".
"""

from __future__ import annotations

import time
from datetime import date
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from ratings import committee
from ratings.models import Game, RankAdjustment, RatingList, RecomputeRun
from ratings.recompute import RecomputeBusy, recompute_all, recompute_list

#: Seconds between two tries of a busy lock while waiting.
RETRY_EVERY = 0.5


class Command(BaseCommand):
    help = "Recompute the rating history of one rating list or of every list."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--list", dest="list_slug", metavar="SLUG", help="only this list (default: every list)"
        )
        parser.add_argument(
            "--from", dest="from_date", type=_date, metavar="DATE", help="replay from this date"
        )
        parser.add_argument("--full", action="store_true", help="replay the whole history")
        parser.add_argument(
            "--wait", type=float, default=0.0, metavar="SECONDS",
            help="wait this long for a recompute that is already running (default: fail at once)",
        )  # fmt: skip
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args: Any, **options: Any) -> None:
        deadline = time.monotonic() + max(0.0, options["wait"])
        while True:
            try:
                self._recompute(options)
                return
            except RecomputeBusy as busy:
                if time.monotonic() >= deadline:
                    name = (
                        RatingList.objects.filter(pk=busy.rating_list_id)
                        .values_list("slug", flat=True)
                        .first()
                    )
                    raise CommandError(
                        f"{name}: another recompute is running; try again when it ends, or give --wait SECONDS"
                    ) from None
                time.sleep(RETRY_EVERY)

    def _recompute(self, options: dict[str, Any]) -> None:
        if options["list_slug"]:
            try:
                rating_lists = [committee.find_list(options["list_slug"])]
            except committee.CommitteeError as error:
                raise CommandError(str(error)) from None
        else:
            rating_lists = list(RatingList.objects.order_by("slug"))
        if options["full"] and not options["list_slug"] and not options["from_date"]:
            # The whole federation in one write (docs/recompute.md: one index
            # rebuild instead of one per list).
            total = sum(_events(rating_list) * len(rating_list.systems) for rating_list in rating_lists)
            with tqdm(total=total, desc="all lists", unit="event", unit_scale=True,
                      disable=options["no_progress"], leave=False) as bar:  # fmt: skip
                runs = recompute_all(trigger="command", progress=bar.update, raise_if_busy=True)
            for done in runs:
                self._report(done.rating_list.slug, done)
            return
        for rating_list in rating_lists:
            events = _events(rating_list)
            systems = len(rating_list.systems)
            with tqdm(
                total=events * systems, desc=rating_list.slug, unit="event", unit_scale=True,
                disable=options["no_progress"], leave=False,
            ) as bar:  # fmt: skip
                run = recompute_list(
                    rating_list.pk, full=options["full"], from_date=options["from_date"], trigger="command",
                    progress=bar.update, raise_if_busy=True,
                )  # fmt: skip
            self._report(rating_list.slug, run)

    def _report(self, slug: str, run: RecomputeRun | None) -> None:
        if run is None:
            self.stdout.write(f"{slug}: up to date")
        else:
            self.stdout.write(
                f"{slug}: {run.status}, from {run.from_date or 'the start'}, "
                f"{run.games_replayed} games replayed, {run.rows_written} rows written in {run.duration:.2f} s"
            )


def _events(rating_list: RatingList) -> int:
    return (
        Game.objects.filter(rating_list=rating_list).count()
        + RankAdjustment.objects.filter(rating_list=rating_list).count()
    )


def _date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"--from: {text!r} is not a date like 2026-03-12") from None
