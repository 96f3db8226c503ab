"""The list archive's format, without Django: a zip of JSON Lines files and
``manifest.json`` (format name, version, and each file's rows and SHA-256).

Files are written and read as streams: a writer hashes and counts the lines
as it writes them; a reader checks a file's count and checksum in a first
pass, before any of its rows is used.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from collections.abc import Iterable, Iterator
from datetime import date, datetime
from decimal import Decimal
from typing import IO, Any

FORMAT_NAME = "clubrating-list-archive"
#: Bumped when a file or a field changes meaning; an archive of a newer
#: version is refused (this site cannot know what it would lose).
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
BLOCK = 1 << 16


class ArchiveError(ValueError):
    """An archive that cannot be imported, with the problem named (the file,
    its line and field when there is one)."""


def _plain(value: Any) -> Any:
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    raise TypeError(f"{type(value).__name__} cannot be written to an archive")


#: One encoder for every line (json.dumps with options makes one a call:
#: half the time of a line).
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=_plain)


def encode(row: dict[str, Any]) -> bytes:
    """One JSON Lines line: compact, keys in the order given, UTF-8."""
    return _ENCODER.encode(row).encode() + b"\n"


class Writer:
    """The archive being written: ``write_file`` streams one file's rows
    into the zip, ``close`` adds the manifest."""

    def __init__(self, target: IO[bytes], about: dict[str, Any]) -> None:
        self.zip = zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1)
        self.about = about
        self.files: dict[str, dict[str, Any]] = {}

    def write_file(self, name: str, rows: Iterable[dict[str, Any]]) -> int:
        digest, count = hashlib.sha256(), 0
        with self.zip.open(name, "w", force_zip64=True) as out:
            buffer: list[bytes] = []
            for row in rows:
                line = encode(row)
                buffer.append(line)
                count += 1
                if len(buffer) >= 1000:
                    chunk = b"".join(buffer)
                    digest.update(chunk)
                    out.write(chunk)
                    buffer.clear()
            chunk = b"".join(buffer)
            digest.update(chunk)
            out.write(chunk)
        self.files[name] = {"rows": count, "sha256": digest.hexdigest()}
        return count

    def close(self) -> None:
        manifest = {"format": FORMAT_NAME, "version": FORMAT_VERSION, **self.about, "files": self.files}
        self.zip.writestr(MANIFEST, json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
        self.zip.close()


class Reader:
    """An archive opened for import: the manifest read and checked
    (``check`` verifies every expected file's rows and checksum)."""

    def __init__(self, source: IO[bytes] | str) -> None:
        try:
            self.zip = zipfile.ZipFile(source)
        except (zipfile.BadZipFile, OSError) as error:
            raise ArchiveError(f"not a zip archive: {error}") from None
        try:
            raw = self.zip.read(MANIFEST)
        except KeyError:
            raise ArchiveError(f"{MANIFEST} is missing: not a list archive") from None
        try:
            manifest = json.loads(raw)
        except ValueError as error:
            raise ArchiveError(f"{MANIFEST}: not JSON ({error})") from None
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT_NAME:
            raise ArchiveError(f"{MANIFEST}: not a list archive (format is not {FORMAT_NAME!r})")
        version = manifest.get("version")
        if not isinstance(version, int) or version < 1:
            raise ArchiveError(f"{MANIFEST}: version {version!r} is not a version number")
        if version > FORMAT_VERSION:
            raise ArchiveError(
                f"{MANIFEST}: the archive is of format version {version}, newer than this site reads "
                f"({FORMAT_VERSION}): upgrade the site first"
            )
        if not isinstance(manifest.get("files"), dict):
            raise ArchiveError(f"{MANIFEST}: no list of files")
        self.manifest: dict[str, Any] = manifest

    def rows(self, name: str) -> int:
        return int(self.manifest["files"][name]["rows"])

    def check(self, names: Iterable[str]) -> None:
        """Every file named is in the manifest and the zip, with the rows and
        SHA-256 the manifest gives."""
        files = self.manifest["files"]
        present = set(self.zip.namelist())
        for name in names:
            if name not in files:
                raise ArchiveError(f"{MANIFEST} does not list {name}")
            if name not in present:
                raise ArchiveError(f"{name} is missing from the archive")
            digest, count = hashlib.sha256(), 0
            try:
                with self.zip.open(name) as stream:
                    while block := stream.read(BLOCK):
                        digest.update(block)
                        count += block.count(b"\n")
            except (zipfile.BadZipFile, OSError, EOFError) as error:
                raise ArchiveError(f"{name}: damaged ({error})") from None
            if digest.hexdigest() != files[name].get("sha256"):
                raise ArchiveError(f"{name}: wrong checksum (the file is not the one the manifest describes)")
            if count != files[name].get("rows"):
                raise ArchiveError(f"{name}: {count} rows, the manifest says {files[name].get('rows')}")

    def read(self, name: str) -> Iterator[tuple[int, dict[str, Any]]]:
        """(line number, row) of each line of ``name``."""
        with self.zip.open(name) as stream:
            for number, line in enumerate(stream, start=1):
                try:
                    row = json.loads(line.decode())  # a str is read twice as fast as bytes
                except ValueError as error:  # UnicodeDecodeError too
                    raise ArchiveError(f"{name} line {number}: not JSON ({error})") from None
                if not isinstance(row, dict):
                    raise ArchiveError(f"{name} line {number}: not a JSON object")
                yield number, row
