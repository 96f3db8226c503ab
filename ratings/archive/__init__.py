"""A rating list's whole archive, out and back in (``manage.py export_list``,
``manage.py import_list``, the committee's archive page).

The archive is a zip of JSON Lines files, one a kind of record (clubs,
players, sheets, games, the log, adjustments, rank syncs, ripple notes...),
and a ``manifest.json`` naming the format's version and each file's row
count and SHA-256 (docs/formats.md, "List archive").  One module a job:
``manifest`` (the format: files, version, checksums; no Django), ``kinds``
(which rows of which model go in which file), ``ids`` (old ids to new ones,
compactly), ``people`` (accounts by e-mail address), ``log_changes`` (the ids inside
log entries), ``values`` (an archive's values checked and made the
database's, quickly), ``tables`` (rows written a block at a time, ids
drawn beforehand), ``ahead`` (the next block made in a thread while the
database writes the last), ``export`` (the zip, written as the rows are read) and
``restore`` (checked, then written in one transaction, then recomputed) and ``scheduled`` (every list's archive into
a folder, on Celery beat, the newest N kept).

May import: accounts.models, ratings.models, ratings.places, ratings.recompute,
ratings.services.
"""

from ratings.archive.export import write_archive
from ratings.archive.manifest import FORMAT_VERSION, ArchiveError
from ratings.archive.restore import Restored, restore_archive

__all__ = ["FORMAT_VERSION", "ArchiveError", "Restored", "restore_archive", "write_archive"]
