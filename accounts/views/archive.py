"""A list's whole archive on the committee's pages: the archive page and its
download (the committee of the list), and the import of an archive as a new
list (the site admin), with ratings/archive/ doing the work."""

from __future__ import annotations

import tempfile

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods

from accounts import access
from accounts.forms import ListImportForm
from accounts.requests import AuthenticatedHttpRequest
from ratings import access as ratings_access
from ratings.archive import ArchiveError, restore_archive, write_archive
from ratings.archive.kinds import KINDS, LEFT_OUT


@login_required
@require_GET
def list_archive(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    rating_list = ratings_access.rating_list_for_committee(request.user, slug)
    context = {
        "rating_list": rating_list,
        "files": [kind.file for kind in KINDS],
        "left_out": sorted(LEFT_OUT.values()),
    }
    return render(request, "accounts/list_archive.html", context)


@login_required
@require_GET
def list_archive_download(request: AuthenticatedHttpRequest, slug: str) -> FileResponse:
    """The zip, written to a temporary file as the rows are read (flat
    memory), then sent from it."""
    rating_list = ratings_access.rating_list_for_committee(request.user, slug)
    spool = tempfile.TemporaryFile()  # noqa: SIM115 (FileResponse closes it once sent)
    write_archive(rating_list, spool)
    spool.seek(0)
    name = f"{rating_list.slug}-archive-{timezone.localdate():%Y-%m-%d}.zip"
    return FileResponse(spool, as_attachment=True, filename=name, content_type="application/zip")


@login_required
@require_http_methods(["GET", "POST"])
def list_import(request: AuthenticatedHttpRequest) -> HttpResponse:
    """A list's archive imported as a new list of this site, all or nothing;
    its ratings are recomputed after the import, as after any change."""
    access.require_site_admin(request.user)
    form = ListImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            restored = restore_archive(
                form.cleaned_data["archive"], form.cleaned_data["slug"] or None, recompute_now=False
            )
        except ArchiveError as error:
            form.add_error("archive", f"Nothing imported: {error}.")
        else:
            made = restored.accounts_created
            messages.success(
                request,
                f"Imported {restored.rating_list}: {restored.counts.get('players.jsonl', 0)} players, "
                f"{restored.counts.get('games.jsonl', 0)} games; its ratings are being recomputed."
                + (f" {len(made)} inactive accounts made for unknown addresses." if made else ""),
            )
            return redirect(restored.rating_list)
    status = 400 if form.is_bound else 200
    return render(request, "accounts/list_import.html", {"form": form}, status=status)
