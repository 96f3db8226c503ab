"""``manage.py import_tournament FILE... [--club SLUG] [--list SLUG] [--format h9|tou|...] [--date YYYY-MM-DD] [--dry-run]``.

Saves a tournament's games (EGD .h9, FFG .tou, or this site's own CSV/JSON/AGA
exports) as one record sheet, matching players by national id then name and
creating the others.  Prints the created and matched players and the
skipped items (byes, unknown results, anonymous players) with their lines.
All or nothing: a bad, truncated or duplicate file stops with a message
naming the line(s) and changes nothing.  A file that gives no date (an h9
without DT[...]) needs ``--date``; it is never dated today without a word.
Games won or lost by default are saved as forfeits (kept, never rated).

Several files, or a .zip of them, are a season
(ratings/committee/season_import.py): imported oldest first, each as its own
sheet, all or none, within the limits of the page (60 files, 20 MB).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings import committee
from ratings.committee.season_import import import_season, is_zip, season_files
from ratings.exchange import GAME_FORMATS, ExchangeError
from ratings.management.commands.import_ranks import iso_date, read_bytes


class Command(BaseCommand):
    help = "Import a tournament results file (.h9, .tou) as one record sheet of games."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", nargs="+", help="the results file(s), or a .zip of them")
        parser.add_argument(
            "--club", metavar="SLUG", help="the club it was played at (default: the only club)"
        )
        parser.add_argument(
            "--list",
            dest="list_slug",
            metavar="SLUG",
            help="the rating list (default: the club's, or the only one)",
        )
        parser.add_argument(
            "--format", choices=GAME_FORMATS, help="force the file's format (default: detect)"
        )
        parser.add_argument(
            "--date", help="the tournament's date, when the file gives none (or to replace the file's)"
        )
        parser.add_argument("--dry-run", action="store_true", help="check and report, save nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        paths = [Path(name) for name in options["file"]]
        uploads = [(path.name, read_bytes(path)) for path in paths]
        day = iso_date(options["date"]) if options["date"] else None
        try:
            rating_list = committee.find_list(options["list_slug"]) if options["list_slug"] else None
            club = committee.find_club(options["club"], rating_list)
            if len(uploads) == 1 and not is_zip(*uploads[0]):
                name, data = uploads[0]
                try:
                    report = committee.import_tournament(
                        club,
                        data,
                        filename=name,
                        format=options["format"],
                        dry_run=options["dry_run"],
                        date=day,
                    )
                except (ExchangeError, committee.CommitteeError) as error:
                    raise CommandError(f"{paths[0]}: {error}; nothing was changed") from None
                self._report(club, report)
                return
            # A season's errors name the file (and the archive) themselves.
            done = import_season(
                club, season_files(uploads), format=options["format"], dry_run=options["dry_run"], date=day
            )
        except (ExchangeError, committee.CommitteeError) as error:
            raise CommandError(f"{error}; nothing was changed") from None
        for item, report in done:
            self.stdout.write(f"== {item.name}")
            self._report(club, report)
        games = sum(report.games for _, report in done)
        verb = "would be saved" if options["dry_run"] else "saved"
        self.stdout.write(f"Season: {games} games of {len(done)} tournaments {verb} into {club}.")

    def _report(self, club: Any, report: committee.ImportReport) -> None:
        write = self.stdout.write
        if report.dry_run:
            write(
                f"Dry run: {report.games} games ({report.fmt}) would be saved into {club}; nothing was written."
            )
        else:
            assert report.sheet is not None
            write(
                f"Saved {report.games} games ({report.fmt}) into {club} as record sheet #{report.sheet.pk}."
            )
        for title, items in (
            ("Matched", report.matched),
            ("Created", report.created),
            ("Skipped", report.skipped),
        ):
            write(f"{title}: {len(items)}")
            for item in items:
                write(f"  {item}")
