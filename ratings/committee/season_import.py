"""A season at once: several tournament files, or a .zip of them, imported
together, all or nothing (docs/committee.md, "A season at once").

:func:`season_files` turns what was uploaded (files, .zip archives among
them) into the tournament files, within the limits the page states:
:data:`MAX_SEASON_FILES` files and :data:`MAX_SEASON_BYTES` bytes in all,
counted as the files really are once unpacked.  An archive is read in memory
and never written to disk, so a member's path cannot escape anywhere; a path
that tries (``../x.h9``, ``/etc/x``) is refused all the same, and so is an
archive that unpacks to more than the limit (a zip bomb), whatever sizes its
directory claims: members are read in bounded chunks.

:func:`import_season` imports the files in the order of their tournaments'
dates (a player created by an early tournament is matched by a later one,
never the reverse, which the date a player joined would refuse), in one
transaction: a file that fails stops the season, naming the file and its
line, and nothing is saved.  :func:`bundle` packs the files for the
preview kept between the upload and the save.
"""

from __future__ import annotations

import io
import posixpath
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from django.db import transaction

from ratings import exchange
from ratings.committee.common import CommitteeError
from ratings.committee.tournament_import import ImportReport, import_tournament
from ratings.models import Club

#: The most tournament files of one upload (a season of a busy club is ~20).
MAX_SEASON_FILES = 60
#: The most bytes of one upload, once unpacked (the site's request limit).
MAX_SEASON_BYTES = 20 * 1024 * 1024
#: Read from an archive member at a time, so that a lying size is caught early.
CHUNK = 64 * 1024
#: Members of an archive that are not tournament files: folders, macOS
#: resource forks, hidden files.
_IGNORED_PREFIXES = ("__MACOSX/",)


@dataclass(frozen=True)
class SeasonFile:
    """One tournament file of a season: its name (in the archive, if any),
    its bytes, and its format when known (else the season's, or detected)."""

    name: str
    data: bytes
    format: str | None = None


def is_zip(name: str, data: bytes) -> bool:
    return name.lower().endswith(".zip") or data[:4] == b"PK\x03\x04"


class _Budget:
    """What is left of the season's limits, as files are added."""

    def __init__(self) -> None:
        self.files = 0
        self.bytes = 0

    def take(self, name: str, size: int) -> None:
        self.files += 1
        self.bytes += size
        if self.files > MAX_SEASON_FILES:
            raise CommitteeError(f"more than {MAX_SEASON_FILES} tournament files in one upload; send fewer")
        if self.bytes > MAX_SEASON_BYTES:
            raise CommitteeError(
                f"{name}: the files come to more than {MAX_SEASON_BYTES // (1024 * 1024)} MB once "
                "unpacked, the limit of one upload"
            )


def _safe_member_name(archive: str, name: str) -> str:
    """The member's name, refused when it would climb out of the archive."""
    parts = name.replace("\\", "/").split("/")
    if name.startswith(("/", "\\")) or ".." in parts or (parts and parts[0].endswith(":")):
        raise CommitteeError(f"{archive}: {name!r} is a path outside the archive; nothing was read")
    return name


def _read_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, label: str, budget: _Budget) -> bytes:
    left = MAX_SEASON_BYTES - budget.bytes
    out = bytearray()
    with archive.open(info) as member:
        while chunk := member.read(CHUNK):
            out += chunk
            if len(out) > left:
                budget.take(label, len(out))  # raises: over the limit
    return bytes(out)


def _unpack(name: str, data: bytes, budget: _Budget) -> list[SeasonFile]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise CommitteeError(f"{name}: not a readable .zip archive") from None
    found = []
    with archive:
        members = archive.infolist()
        if len(members) > 4 * MAX_SEASON_FILES:
            raise CommitteeError(
                f"{name}: {len(members)} entries; an upload holds at most {MAX_SEASON_FILES} files"
            )
        for info in members:
            member = _safe_member_name(name, info.filename)
            base = posixpath.basename(member.replace("\\", "/"))
            if info.is_dir() or member.startswith(_IGNORED_PREFIXES) or not base or base.startswith("."):
                continue
            label = f"{name}: {member}"
            if info.flag_bits & 0x1:
                raise CommitteeError(f"{label} is encrypted; send the files unencrypted")
            try:
                content = _read_member(archive, info, label, budget)
            except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, EOFError) as error:
                raise CommitteeError(f"{label}: cannot be unpacked ({error})") from None
            if is_zip(base, content):
                raise CommitteeError(f"{label}: an archive inside an archive; put the files in one .zip")
            budget.take(label, len(content))
            found.append(SeasonFile(label, content))
    if not found:
        raise CommitteeError(f"{name}: the archive holds no file")
    return found


def season_files(uploads: Iterable[tuple[str, bytes]]) -> list[SeasonFile]:
    """The tournament files of an upload: files as they are, archives
    unpacked; refused (CommitteeError, naming the file) over the limits."""
    budget = _Budget()
    files: list[SeasonFile] = []
    for name, data in uploads:
        if is_zip(name, data):
            files.extend(_unpack(name, data, budget))
        else:
            budget.take(name, len(data))
            files.append(SeasonFile(name, data))
    names = [f.name for f in files]
    twice = next((n for n in names if names.count(n) > 1), None)
    if twice is not None:
        raise CommitteeError(f"{twice} was sent twice")
    return files


def bundle(files: Sequence[SeasonFile]) -> bytes:
    """The files as one .zip (kept with the preview until it is saved)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for index, item in enumerate(files, start=1):
            # Numbered: names from two archives may coincide, and the order is kept.
            archive.writestr(f"{index:03d}/{posixpath.basename(item.name.replace(': ', '/'))}", item.data)
    return out.getvalue()


def unbundle(data: bytes, names: Sequence[str]) -> list[SeasonFile]:
    """What :func:`bundle` packed, under the names given to it."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        members = sorted(archive.infolist(), key=lambda info: info.filename)
        if len(members) != len(names):
            raise CommitteeError("the kept files of this preview are damaged; upload them again")
        return [SeasonFile(name, archive.read(info)) for name, info in zip(names, members, strict=True)]


def _date_of(item: SeasonFile, day: date | None) -> date:
    """The tournament's date, to put the season in order (the file is read
    again by the import, which names any problem)."""
    try:
        chosen = exchange.game_format(item.format) if item.format else None
        tournament = exchange.read_tournament(item.data, format=chosen, filename=item.name, date=day)
    except exchange.ExchangeError as error:
        raise CommitteeError(f"{item.name}: {error}") from None
    dates = [g.date for g in tournament.games if g.date]
    return tournament.start or (min(dates) if dates else date.max)


def import_season(
    club: Club,
    files: Sequence[SeasonFile],
    *,
    format: str | None = None,
    user: Any = None,
    dry_run: bool = False,
    date: date | None = None,
) -> list[tuple[SeasonFile, ImportReport]]:
    """Import every file as :func:`import_tournament` does, oldest tournament
    first, all or nothing: the first file refused stops it, its name before
    the reason (ExchangeError and CommitteeError become CommitteeError)."""
    if not files:
        raise CommitteeError("choose the tournament files to upload")
    files = [replace(item, format=item.format or format) for item in files]
    ordered = sorted(files, key=lambda item: (_date_of(item, date), item.name))
    done = []
    with transaction.atomic():
        for item in ordered:
            try:
                report = import_tournament(
                    club, item.data, filename=item.name, format=item.format, user=user, date=date
                )
            except (exchange.ExchangeError, CommitteeError) as error:
                raise CommitteeError(f"{item.name}: {error}") from None
            report.dry_run = dry_run
            done.append((item, report))
        if dry_run:
            transaction.set_rollback(True)
    return done
