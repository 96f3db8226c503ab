"""Where the management commands write a file: all at once or not at all."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from django.core.management.base import CommandError


def write_atomically(target: Path, pieces: str | Iterable[str], encoding: str = "utf-8") -> None:
    """Write ``pieces`` (one text, or the pieces of a stream) to ``target``
    in ``encoding``: a temporary file in the same folder, then a rename, so that a
    failure half-way leaves the old file, or none, never a half-written one."""
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.resolve().parent)
    except OSError as error:
        raise CommandError(f"{target}: cannot write: {error.strerror or error}") from None
    try:
        with os.fdopen(fd, "w", encoding=encoding, newline="") as f:
            f.writelines([pieces] if isinstance(pieces, str) else pieces)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
