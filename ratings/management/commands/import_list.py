"""``manage.py import_list FILE.zip [--as NEW-SLUG]``: a list's archive made
by ``export_list`` imported as a new list of this site, all of it or
nothing, then recomputed (ratings/archive/restore.py)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.archive import ArchiveError, restore_archive


class Command(BaseCommand):
    help = "Import a list's archive (made by export_list) as a new rating list, then recompute it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("archive", metavar="FILE.zip")
        parser.add_argument("--as", dest="as_slug", metavar="NEW-SLUG", help="the new list's address")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            restored = restore_archive(options["archive"], options["as_slug"])
        except ArchiveError as error:
            raise CommandError(f"{options['archive']}: {error}; nothing imported") from None
        except OSError as error:
            raise CommandError(f"{options['archive']}: {error.strerror or error}") from None
        counts = restored.counts
        self.stdout.write(
            f"imported {restored.rating_list.slug}: {counts.get('players.jsonl', 0)} players, "
            f"{counts.get('games.jsonl', 0)} games, {counts.get('log.jsonl', 0)} log entries"
        )
        for email in restored.accounts_created:
            self.stdout.write(f"  account made for {email} (inactive: a site admin activates it)")
