"""``manage.py export_list --list SLUG --out FILE.zip``: a rating list's whole
archive (ratings/archive/, docs/formats.md "List archive"), written to a
temporary file beside FILE.zip and renamed when complete."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.archive import write_archive
from ratings.models import RatingList


class Command(BaseCommand):
    help = "Write a rating list's whole archive (a zip of JSON Lines files and a manifest)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--list", dest="list_slug", required=True, metavar="SLUG", help="the rating list")
        parser.add_argument("--out", required=True, metavar="FILE.zip", help="the archive to write")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            rating_list = RatingList.objects.get(slug=options["list_slug"])
        except RatingList.DoesNotExist:
            raise CommandError(f"no rating list {options['list_slug']!r}") from None
        target = Path(options["out"])
        try:
            fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.resolve().parent)
        except OSError as error:
            raise CommandError(f"{target}: cannot write: {error.strerror or error}") from None
        try:
            with os.fdopen(fd, "wb") as out:
                counts = write_archive(rating_list, out)
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        games = counts.get("games.jsonl", 0)
        self.stderr.write(
            f"{rating_list.slug}: {games} games, {sum(counts.values())} rows written to {target}"
        )
