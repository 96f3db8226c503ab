"""``manage.py import_ranks FILE [--format ffg|aga|egd|csv] [--list SLUG] [--country CC] [--clubs CODES] [--dry-run] [--date YYYY-MM-DD]``.

The rank sync of the committee's pages from the command line:
read a national rank list, match the list's players (national id, then
name among the entries of ``--country`` and ``--clubs`` when given), print a summary and the ambiguous and missing players, then apply
every id- or name-matched change as an adjustment dated ``--date`` (default
the list's own date, else today).  Lines of the list that do not read are
not imported: each is printed with its number and reason ("rejected").  A
list broken as a whole (no header, truncated, footer that does not match)
stops with a message naming its line and changes nothing.  ``--dry-run`` writes nothing
at all, not even the record of the sync.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone

from ratings import committee
from ratings.exchange import RANK_FORMATS, ExchangeError


def iso_date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"--date: {text!r} is not a date (YYYY-MM-DD)") from None


def read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as error:
        raise CommandError(f"{path}: cannot read: {error.strerror or error}") from None


class Command(BaseCommand):
    help = "Bring a rating list's ranks in line with a national rank list (FFG, AGA, EGD or CSV)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "file", help="the national list: ech_ffg_V3.txt, tdlista.txt, allworld_lp, or a CSV"
        )
        parser.add_argument(
            "--format", choices=RANK_FORMATS, help="force the list's format (default: detect)"
        )
        parser.add_argument(
            "--list", dest="list_slug", metavar="SLUG", help="the rating list (default: the only one)"
        )
        parser.add_argument(
            "--country", default="", metavar="CC", help="match names only among this country's entries (ZA)"
        )
        parser.add_argument(
            "--clubs",
            default="",
            metavar="CODES",
            help="match names only among these clubs' entries, codes as the list writes them (Cape,Joh)",
        )
        parser.add_argument("--dry-run", action="store_true", help="show what would change, write nothing")
        parser.add_argument(
            "--date", help="the date the new ranks take effect (default: the list's date, else today)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        data = read_bytes(path)
        effective = iso_date(options["date"]) if options["date"] else None
        if effective is not None and effective > timezone.localdate():
            raise CommandError(f"--date: {effective} is in the future")
        try:
            rating_list = committee.find_list(options["list_slug"])
            with transaction.atomic():
                sync = committee.preview_rank_sync(
                    rating_list,
                    data,
                    filename=path.name,
                    format=options["format"],
                    selection=committee.EntrySelection(options["country"], options["clubs"]),
                )
                lines = list(sync.lines.select_related("player"))
                self._summary(sync, lines)
                if options["dry_run"]:
                    transaction.set_rollback(True)
                    self.stdout.write("Dry run: nothing was written.")
                    return
                day = effective or sync.as_of or timezone.localdate()
                applied = committee.apply_rank_sync(sync, committee.default_choices(sync), effective=day)
        except (ExchangeError, committee.CommitteeError) as error:
            raise CommandError(f"{path}: {error}; nothing was changed") from None
        self.stdout.write(f"Applied {len(applied)} rank adjustments dated {day:%Y-%m-%d} (sync #{sync.pk}).")

    def _summary(self, sync: Any, lines: list[Any]) -> None:
        write = self.stdout.write
        rejected = sync.rejected_lines
        write(
            f"{committee.list_label(sync)}{f' of {sync.as_of:%Y-%m-%d}' if sync.as_of else ''} for {sync.rating_list}: "
            f"read {sync.read}{f', rejected {len(rejected)}' if rejected else ''}"
            f"{f' (names among the {sync.selected} of {committee.selection_of(sync).describe()})' if sync.country or sync.clubs else ''}"
            f", matched {sync.matched}, "
            f"ambiguous {sync.ambiguous}, "
            f"unmatched {sync.unmatched}, changes {sync.changes}"
        )
        for item in rejected:
            write(f"  rejected  line {item.line}: {item.reason}" + (f": {item.text}" if item.text else ""))
        for line in lines:
            if committee.proposes_change(line):
                write(f"  change    {line.player}: {line.list_rank_label} -> {line.national_rank_label}")
        for line in lines:
            if line.match == "ambiguous":
                found = "; ".join(
                    f"{c['name']} (line {c['line']}, id {c['national_id'] or 'none'})"
                    for c in line.candidates
                )
                write(f"  ambiguous {line.player}: {line.reason}: {found}")
        for line in lines:
            if line.match == "missing":
                write(f"  missing   {line.player}")
