"""A tournament upload in the browser: preview first, save on confirmation.

1. :func:`preview_import` reads and checks the file exactly as a real import
   would (``import_tournament(dry_run=True)``: all of it, rolled back) and
   keeps the bytes with what the preview shows as an :class:`ImportPreview`.
   Nothing else is written.
2. :func:`save_import` imports the kept bytes for real, all or nothing, and
   compares what it did with what was previewed: if anything differs (a
   player created, renamed or given a national id in between, so that a
   "new" player now matches), the import is rolled back and
   :class:`PreviewChanged` carries the new preview for the committee to
   look at again.  What is saved is therefore exactly what was shown.

A season (several files, or a .zip: ratings/committee/season_import.py) is
previewed and saved the same way, as one preview: format ``zip``, the files
packed in ``data``, and ``report`` ``{"season": [{"filename", **summary}...]}``
in the order they are imported; saving imports them all or none.
:func:`preview_upload` picks the one or the other.

A preview is deleted when saved, and once a day old (:func:`purge_expired`,
run at each upload; an expired one is refused).
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from django.db import transaction

from ratings.committee import CommitteeError, ImportReport, import_tournament
from ratings.committee.season_import import bundle, import_season, is_zip, season_files, unbundle
from ratings.models import Club, ImportPreview

#: ImportPreview.format of a season (several files kept as one archive).
SEASON = "zip"


class PreviewChanged(CommitteeError):
    """The list changed between the preview and the save; ``summary`` is the
    preview as it would be now."""

    def __init__(self, summary: dict[str, Any]) -> None:
        super().__init__(
            "the list's players changed since this preview was made (a player was created, renamed or "
            "given a national id): nothing was saved; check the new preview below and save again"
        )
        self.summary = summary


class PreviewGone(CommitteeError):
    """Saved already, or expired."""


def _json(summary: dict[str, Any]) -> dict[str, Any]:
    """The summary as the JSONField gives it back (tuples become lists...)."""
    loaded: dict[str, Any] = json.loads(json.dumps(summary))
    return loaded


def _user(user: Any) -> Any:
    return user if user is not None and getattr(user, "is_authenticated", False) else None


def purge_expired() -> int:
    deleted, _ = ImportPreview.objects.expired().delete()
    return deleted


def preview_import(
    club: Club, data: bytes, *, filename: str = "", format: str | None = None, user: Any = None
) -> ImportPreview:
    """Read and check ``data`` as an import into ``club`` and keep it for saving.

    Raises ExchangeError or CommitteeError (naming the line) as an import
    would; nothing is kept then.
    """
    purge_expired()
    report = import_tournament(club, data, filename=filename, format=format, user=user, dry_run=True)
    return ImportPreview.objects.create(
        club=club,
        created_by=_user(user),
        filename=filename[:200],
        format=report.fmt,
        data=data,
        report=_json(report.summary()),
    )


def preview_upload(
    club: Club,
    uploads: list[tuple[str, bytes]],
    *,
    filename: str = "",
    format: str | None = None,
    user: Any = None,
) -> ImportPreview:
    """One tournament file: :func:`preview_import`; several, or a .zip: a season."""
    if len(uploads) == 1 and not is_zip(*uploads[0]):
        name, data = uploads[0]
        return preview_import(club, data, filename=name, format=format, user=user)
    purge_expired()
    files = season_files(uploads)
    done = import_season(club, files, format=format, user=user, dry_run=True)
    ordered = [item for item, _ in done]
    return ImportPreview.objects.create(
        club=club,
        created_by=_user(user),
        filename=(filename or f"{len(files)} files")[:200],
        format=SEASON,
        data=bundle(ordered),
        report=_json({"season": [_season_entry(item.name, report) for item, report in done]}),
    )


def _season_entry(name: str, report: ImportReport) -> dict[str, Any]:
    return {"filename": name, **report.summary()}


def save_import(preview: ImportPreview, *, user: Any = None) -> ImportReport | list[ImportReport]:
    """Import the previewed file for real and delete the preview; all or nothing.

    Raises :class:`PreviewGone` when it was saved already (or has expired),
    :class:`PreviewChanged` when the import would differ from the preview,
    and ExchangeError/CommitteeError as an import does; nothing is saved then.
    """
    if preview.expired:
        ImportPreview.objects.filter(pk=preview.pk).delete()
        raise PreviewGone("this preview is more than a day old and was discarded; upload the file again")
    with transaction.atomic():
        # Locked: two committee members pressing "Save" at once save it once.
        current = ImportPreview.objects.select_for_update().filter(pk=preview.pk).first()
        if current is None:
            raise PreviewGone("this preview was already saved (or discarded); upload the file again")
        if current.format == SEASON:
            shown = current.report["season"]
            # Each file read as the preview read it (detected, or as forced).
            files = [
                replace(item, format=entry["format"])
                for item, entry in zip(
                    unbundle(bytes(current.data), [e["filename"] for e in shown]), shown, strict=True
                )
            ]
            done = import_season(current.club, files, user=user)
            now = _json({"season": [_season_entry(item.name, report) for item, report in done]})
            if now != current.report:
                raise PreviewChanged(now)  # leaves the atomic block: nothing is saved
            current.delete()
            return [report for _, report in done]
        report = import_tournament(
            current.club, bytes(current.data), filename=current.filename, format=current.format, user=user
        )
        now = _json(report.summary())
        if now != current.report:
            raise PreviewChanged(now)  # leaves the atomic block: the import is rolled back
        current.delete()
    return report


def refresh(preview: ImportPreview, summary: dict[str, Any]) -> None:
    """Show the preview as it is now (after :class:`PreviewChanged`)."""
    preview.report = summary
    preview.save(update_fields=["report"])
