"""``manage.py export_ranks FILE_NAME [--list SLUG] [--out PATH]``.

The list's own ranks in a layout pairing programs import: ``ech_ffg_V3.txt``
(FFG ladder), ``egf_db.txt`` (EGD list), ``tdlista.txt`` (AGA TD list); the
same bytes as /lists/<slug>/ranks/<file> (ratings/committee/rank_files.py).
Writes to standard output, or to ``--out`` all at once.  Standard error says
how many of the list's players the file holds.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings import committee
from ratings.exchange import RANK_FILES
from ratings.management.output import write_atomically


class Command(BaseCommand):
    help = "Write a rating list's own ranks as an FFG ladder, EGD list or AGA TD list file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name", choices=sorted(RANK_FILES), help="the layout, by its usual file name")
        parser.add_argument(
            "--list", dest="list_slug", metavar="SLUG", help="the rating list (default: the only one)"
        )
        parser.add_argument("--out", help="write to this file instead of standard output")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            rating_list = committee.find_list(options["list_slug"])
            published = committee.publish_ranks(rating_list, options["name"])
        except committee.CommitteeError as error:
            raise CommandError(str(error)) from None
        layout = RANK_FILES[options["name"]]
        self.stderr.write(
            f"{layout.label} of {rating_list}: {published.written} of {published.players} players"
            + ("" if published.written == published.players else " (the others have no id in this list)")
        )
        text = published.data.decode(layout.encoding)
        if options["out"]:
            write_atomically(Path(options["out"]), text, encoding=layout.encoding)
            self.stderr.write(f"written to {options['out']}")
        elif options.get("stdout") is None and hasattr(sys.stdout, "buffer"):
            # The exact bytes (the FFG ladder is ISO-8859-1), not re-encoded for the terminal.
            sys.stdout.buffer.write(published.data)
            sys.stdout.flush()
        else:
            self.stdout.write(text, ending="")
