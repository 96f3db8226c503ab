"""``manage.py rate GAMES.csv --system NAME [--out FILE] [--explain]``: a what-if run.

Runs a rating system on a CSV of games and writes one row per player per
game (see :mod:`ratings.whatif` for the columns).  Never touches the
database, so it works on a fresh clone before ``migrate``.  A bad row stops
the run with a message naming its line and column, and nothing is written:
the whole output is computed before the first byte goes out.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.engine import SYSTEM_NAMES
from ratings.management.output import write_atomically
from ratings.whatif import WhatIfError, rate_csv


class Command(BaseCommand):
    help = "Run a rating system on a CSV of games (no database): one row per player per game."
    requires_system_checks: list[str] = []  # no checks: nothing here needs the project's state
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("games", help="CSV of games: date,white,black,winner,handicap,komi[,...]")
        parser.add_argument("--system", required=True, choices=SYSTEM_NAMES, help="the rating system")
        parser.add_argument("--out", help="write the result here instead of to standard output")
        parser.add_argument(
            "--explain",
            action="store_true",
            help='add a column "explanation": the named terms each change was computed from, as JSON',
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["games"])
        try:
            text = path.read_text(encoding="utf-8-sig")
        except OSError as error:
            raise CommandError(f"{path}: cannot read: {error.strerror or error}") from None
        except UnicodeDecodeError as error:
            raise CommandError(f"{path}: not UTF-8 text ({error.reason} at byte {error.start})") from None
        try:
            output = rate_csv(text, options["system"], explain=options["explain"])
        except WhatIfError as error:
            raise CommandError(f"{path}: {error}") from None
        out = options["out"]
        if out is None:
            sys.stdout.write(output)  # not self.stdout: no ending added, CSV bytes as they are
            sys.stdout.flush()
            return
        write_atomically(Path(out), output)
        self.stderr.write(f"{output.count(chr(10)) - 1} rows written to {out}")
