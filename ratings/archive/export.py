"""Writing a list's archive: every file of ``kinds.KINDS``, each streamed
from the database in id order (a chunked cursor, never the whole table in
memory), then the manifest."""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any

from django.db import connection, transaction
from django.utils import timezone

from ratings.archive.kinds import KINDS, Kind
from ratings.archive.manifest import Writer
from ratings.models import RatingList

CHUNK = 2000


def rows_of(kind: Kind, rating_list: RatingList) -> Iterator[dict[str, Any]]:
    """The rows of ``kind`` that belong to ``rating_list``, as written."""
    columns = ["pk", *(f.attname for f in kind.plain), *(f"{name}_id" for name, _ in kind.refs)]
    columns += [f"{name}__email" for name in kind.people]
    names = ["id", *(f.name for f in kind.plain), *(name for name, _ in kind.refs), *kind.people]
    query = (
        kind.model._default_manager.filter(**{kind.scope: rating_list.pk})
        .order_by("pk")
        .values_list(*columns)
    )
    for values in query.iterator(chunk_size=CHUNK):
        yield dict(zip(names, values, strict=True))


def write_archive(rating_list: RatingList, target: IO[bytes]) -> dict[str, int]:
    """Write ``rating_list``'s archive to ``target`` (a binary file open for
    writing); returns each file's number of rows."""
    about = {"list": rating_list.slug, "name": rating_list.name, "written_at": timezone.now().isoformat()}
    writer = Writer(target, about)
    fresh = not connection.in_atomic_block
    with transaction.atomic():
        if fresh and connection.vendor == "postgresql":  # one snapshot for every file
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        counts = {kind.file: writer.write_file(kind.file, rows_of(kind, rating_list)) for kind in KINDS}
    writer.close()
    return counts
