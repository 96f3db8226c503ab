"""``manage.py import_tournament FILE [--club SLUG] [--list SLUG] [--format h9|tou|...] [--date YYYY-MM-DD] [--dry-run]``.

Saves a tournament's games (EGD .h9, FFG .tou, or this site's own CSV/JSON/AGA
exports) as one record sheet, matching players by national id then name and
creating the others.  Prints the created and matched players and the
skipped items (byes, unknown results, anonymous players) with their lines.
All or nothing: a bad, truncated or duplicate file stops with a message
naming the line(s) and changes nothing.  A file that gives no date (an h9
without DT[...]) needs ``--date``; it is never dated today without a word.
Games won or lost by default are saved as forfeits (kept, never rated).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings import committee
from ratings.exchange import GAME_FORMATS, ExchangeError
from ratings.management.commands.import_ranks import iso_date, read_bytes


class Command(BaseCommand):
    help = "Import a tournament results file (.h9, .tou) as one record sheet of games."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the results file")
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
        path = Path(options["file"])
        data = read_bytes(path)
        day = iso_date(options["date"]) if options["date"] else None
        try:
            rating_list = committee.find_list(options["list_slug"]) if options["list_slug"] else None
            club = committee.find_club(options["club"], rating_list)
            report = committee.import_tournament(
                club, data, filename=path.name, format=options["format"], dry_run=options["dry_run"], date=day
            )
        except (ExchangeError, committee.CommitteeError) as error:
            raise CommandError(f"{path}: {error}; nothing was changed") from None
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
