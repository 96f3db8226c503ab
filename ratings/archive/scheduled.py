"""Archives on a schedule (Celery beat, ratings/tasks.py): every list's
archive written into the folder the site admin names (LIST_ARCHIVE_DIR),
as ``<slug>-<YYYYmmdd-HHMMSS-ffffff>.zip``, each complete before it gets its
name; then only the newest ``keep`` of each list are kept."""

from __future__ import annotations

import os
import re
from pathlib import Path

from django.utils import timezone

from ratings.archive.export import write_archive
from ratings.models import RatingList


def archives_of(folder: Path, slug: str) -> list[Path]:
    """The scheduled archives of the list ``slug`` in ``folder``, oldest first."""
    name = re.compile(rf"{re.escape(slug)}-\d{{8}}-\d{{6}}-\d{{6}}\.zip")
    return sorted(path for path in folder.iterdir() if name.fullmatch(path.name))


def archive_lists(folder: Path, keep: int) -> list[Path]:
    """Write every list's archive into ``folder``; returns the files written."""
    if keep < 1:
        raise ValueError(f"keep {keep} archives? at least the newest one")
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for rating_list in RatingList.objects.order_by("slug"):
        target = folder / f"{rating_list.slug}-{timezone.now():%Y%m%d-%H%M%S-%f}.zip"
        partial = folder / f".{target.name}.part"
        try:
            with partial.open("wb") as out:
                write_archive(rating_list, out)
            os.replace(partial, target)
        finally:
            partial.unlink(missing_ok=True)
        written.append(target)
        for old in archives_of(folder, rating_list.slug)[:-keep]:
            old.unlink()
    return written
