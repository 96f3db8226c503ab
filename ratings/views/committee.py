"""Committee pages of issue 5: national rank sync, exports, tournament imports.

Imports and applying a sync are for the committee; exports for volunteers
and the committee (accounts/roles.py).  The work is done by
ratings/committee.py; these views only turn requests into its calls and its
errors (ExchangeError, CommitteeError, both naming the line or the player)
into form errors.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.roles import committee_required, is_committee, volunteer_required
from ratings import committee, exports
from ratings.exchange import ExchangeError
from ratings.forms_committee import ApplySyncForm, ExportForm, RankUploadForm, TournamentImportForm
from ratings.models import Club, RankSync
from ratings.tables import rating_label

SYNCS_PER_PAGE = 30


@committee_required
@require_GET
def rank_sync_list(request: HttpRequest) -> HttpResponse:
    syncs = RankSync.objects.select_related("club", "created_by", "applied_by")
    page = Paginator(syncs, SYNCS_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "ratings/committee/rank_sync_list.html", {"page": page})


@committee_required
@require_http_methods(["GET", "POST"])
def rank_sync_new(request: HttpRequest) -> HttpResponse:
    form = RankUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            sync = committee.preview_rank_sync(
                data["club"], data["file"], filename=form.filename, format=data["format"], user=request.user
            )
        except (ExchangeError, committee.CommitteeError) as error:
            form.add_error("file", f"{form.filename}: {error}")
        else:
            return redirect("rank_sync", pk=sync.pk)
    status = 400 if form.is_bound else 200
    return render(request, "ratings/committee/rank_sync_new.html", {"form": form}, status=status)


@committee_required
@require_http_methods(["GET", "POST"])
def rank_sync(request: HttpRequest, pk: int) -> HttpResponse:
    sync = get_object_or_404(RankSync.objects.select_related("club", "created_by", "applied_by"), pk=pk)
    lines = list(sync.lines.select_related("player", "adjustment"))
    for line in lines:
        line.changes = committee.proposes_change(line)  # type: ignore[attr-defined]
    # What needs a decision first: proposed changes, then ambiguous matches,
    # then the other matches, then the players not in the list.
    lines.sort(
        key=lambda line: (
            not line.changes,  # type: ignore[attr-defined]
            line.match != "ambiguous",
            line.match == "missing",
            line.player.name.casefold(),
        )
    )
    form = None
    if sync.applied_at is None:
        form = ApplySyncForm(request.POST or None, sync=sync, lines=lines)
        if request.method == "POST" and form.is_valid():
            try:
                applied = committee.apply_rank_sync(
                    sync,
                    form.cleaned_data["choices"],
                    effective=form.cleaned_data["effective"],
                    user=request.user,
                )
            except committee.CommitteeError as error:
                form.add_error(None, str(error))
            else:
                messages.success(
                    request,
                    f"{len(applied)} rank adjustments dated {sync.effective:%Y-%m-%d} were saved; "
                    "the ratings are being updated.",
                )
                return redirect("rank_sync", pk=sync.pk)
    elif request.method == "POST":
        messages.error(
            request, "This synchronisation was already applied; upload the list again for a new one."
        )
        return redirect("rank_sync", pk=sync.pk)
    status = 400 if form is not None and form.is_bound else 200
    context = {
        "sync": sync,
        "lines": lines,
        "form": form,
        # The club rating column is named after the primary system's unit.
        "unit": rating_label([sync.club.primary_system]),
        # Whether any line can be ticked (else the page says there is nothing to apply).
        "applicable": form is not None and any(name.startswith("apply_") for name in form.fields),
    }
    return render(request, "ratings/committee/rank_sync.html", context, status=status)


@volunteer_required
@require_GET
def export(request: HttpRequest) -> HttpResponse:
    """The form; submitted (it has a format), the file itself."""
    form = ExportForm(request.GET if "format" in request.GET else None)
    if form.is_valid():
        data = form.cleaned_data
        try:
            name, media_type, pieces = exports.export_stream(
                data["club"], data["start"], data["end"], data["format"]
            )
        except (ExchangeError, committee.CommitteeError) as error:
            form.add_error(None, str(error))
        else:
            # Written as it is sent, in constant memory (ratings/exports.py).
            response = StreamingHttpResponse(
                (piece.encode("utf-8") for piece in pieces), content_type=f"{media_type}; charset=utf-8"
            )
            response["Content-Disposition"] = f'attachment; filename="{name}"'
            return response
    status = 400 if form.is_bound else 200
    clubs = Club.objects.order_by("name") if is_committee(request.user) else None
    return render(request, "ratings/committee/export.html", {"form": form, "clubs": clubs}, status=status)


@committee_required
@require_POST
def export_token(request: HttpRequest) -> HttpResponse:
    club = get_object_or_404(Club, slug=request.POST.get("club", ""))
    committee.new_api_token(club)
    messages.success(request, f"New API token for {club}; the old one no longer works.")
    return redirect("export")


@committee_required
@require_http_methods(["GET", "POST"])
def tournament_import(request: HttpRequest) -> HttpResponse:
    form = TournamentImportForm(request.POST or None, request.FILES or None)
    report = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            report = committee.import_tournament(
                data["club"],
                data["file"],
                filename=form.filename,
                format=data["format"],
                user=request.user,
                dry_run=data["dry_run"],
            )
        except (ExchangeError, committee.CommitteeError) as error:
            form.add_error("file", f"{form.filename}: {error}")
        else:
            if report.sheet is not None and not report.dry_run:
                messages.success(request, f"{report.games} games saved; the ratings are being updated.")
    status = 400 if form.is_bound and form.errors else 200
    context = {"form": form, "report": report}
    return render(request, "ratings/committee/tournament_import.html", context, status=status)
