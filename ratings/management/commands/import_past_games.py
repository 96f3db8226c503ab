"""``manage.py import_past_games FILE.csv --list SLUG [--dry-run]``: a list's
past from another system, a CSV of games with the players' ranks then
(docs/formats.md, "Past games"), saved as record sheets, a club and a day
each, all or nothing (ratings/committee/past_games.py); ``--dry-run``
checks it all and says what would be saved."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings import committee
from ratings.committee.past_games import import_past_games
from ratings.engine.ranks import format_rank


class Command(BaseCommand):
    help = "Import a list's past games (CSV with the players' ranks then) as record sheets."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE.csv")
        parser.add_argument(
            "--list", dest="list_slug", metavar="SLUG", help="the rating list (default: the only one)"
        )
        parser.add_argument("--dry-run", action="store_true", help="check and report, save nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            data = Path(options["file"]).read_bytes()
        except OSError as error:
            raise CommandError(f"{options['file']}: {error.strerror or error}") from None
        try:
            rating_list, _ = committee.find_list_or_club(options["list_slug"], None)
            report = import_past_games(rating_list, data, dry_run=options["dry_run"])
        except committee.CommitteeError as error:
            raise CommandError(f"{options['file']}: {error}; nothing saved") from None
        verb = "would save" if report.dry_run else "saved"
        self.stdout.write(
            f"{verb} {report.games} games on {report.sheets} sheets ({report.first} to {report.last}), "
            f"{len(report.new_players)} new players"
        )
        hints = report.hints()
        for name, rank in report.new_players:
            alike = hints.get(name, {})
            seen = [
                *alike.get("list", []),
                *(f"{other} (also new, in this file)" for other in alike.get("file", [])),
            ]
            also = f"; alike: {'; '.join(seen)}" if seen else ""
            self.stdout.write(f"  new: {name}, starting at {format_rank(rank)}{also}")
