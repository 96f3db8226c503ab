"""``manage.py export_games --format csv|json|h9|tou|aga --from DATE --to DATE [--list SLUG] [--club SLUG] [--class C|D] [--out FILE]``.

A rating list's games of a period (or those played at one of its clubs) for a national body: CSV or JSON game
records (docs/formats.md), an EGD results file (class C "club
ladder"), an FFG .tou or an AGA results file.  Writes to standard output, or
to ``--out`` all at once (a temporary file, then a rename); CSV and JSON are
written as they are read, in constant memory (ratings/committee/exports.py).
Standard error says how many games are written and which are left out, and why.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings import committee
from ratings.committee import exports
from ratings.exchange import EGD_CLASSES, GAME_FORMATS, ExchangeError
from ratings.management.commands.import_ranks import iso_date
from ratings.management.output import write_atomically


class Command(BaseCommand):
    help = "Export a rating list's games of a period (CSV, JSON, EGD h9, FFG tou, AGA)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--format", required=True, choices=GAME_FORMATS)
        parser.add_argument("--from", dest="start", help="first day (YYYY-MM-DD; default: the first game)")
        parser.add_argument("--to", dest="end", help="last day (YYYY-MM-DD; default: today)")
        parser.add_argument(
            "--list", dest="list_slug", metavar="SLUG", help="the rating list (default: the only one)"
        )
        parser.add_argument("--club", metavar="SLUG", help="only the games played at this club of the list")
        parser.add_argument(
            "--class",
            dest="event_class",
            choices=sorted(EGD_CLASSES),
            default="C",
            help="EGD class of an h9 file: C, games over the board (default); D, games played online",
        )
        parser.add_argument("--out", help="write to this file instead of standard output")

    def handle(self, *args: Any, **options: Any) -> None:
        start = iso_date(options["start"]) if options["start"] else None
        end = iso_date(options["end"]) if options["end"] else None
        if start and end and start > end:
            raise CommandError(f"--to {end} is before --from {start}")
        try:
            rating_list, club = committee.find_list_or_club(options["list_slug"], options["club"])
            period = (rating_list, start, end, options["format"])
            selection = committee.export_selection(*period, club, options["event_class"])
            _, _, pieces = exports.export_stream(*period, club=club, event_class=options["event_class"])
        except (ExchangeError, committee.CommitteeError) as error:
            raise CommandError(str(error)) from None
        # What is written and what is left out, and why (on standard error: the file may be standard output).
        for line in selection.lines():
            self.stderr.write(line)
        if options["out"]:
            write_atomically(Path(options["out"]), pieces)
            self.stderr.write(f"{options['format']} file written to {options['out']}")
        else:
            for piece in pieces:
                self.stdout.write(piece, ending="")
