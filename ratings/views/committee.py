"""Committee pages for exchanges with national bodies: rank sync, exports, tournament imports, national codes.

Each is for the committee of the list concerned (accounts/roles.py): the
forms offer only the user's lists and clubs, and a sync is fetched through
ratings/access.py.  The work is done by
ratings/committee/; these views only turn requests into its calls and its
errors (ExchangeError, CommitteeError, both naming the line or the player)
into form errors.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.requests import AuthenticatedHttpRequest
from ratings import access, committee, services
from ratings.committee import exports, import_preview, past_games
from ratings.committee.season_import import MAX_SEASON_BYTES, MAX_SEASON_FILES
from ratings.exchange import ExchangeError
from ratings.forms.committee import (
    ApplySyncForm,
    ExportForm,
    NationalCodesForm,
    RankUploadForm,
    TournamentImportForm,
)
from ratings.models import Club, RankSync, RatingList
from ratings.presentation.tables import rating_label

SYNCS_PER_PAGE = 30
#: The rank sync page's groups of lines, in this order: (key, title, matches).
SYNC_GROUPS = [
    ("ambiguous", "Ambiguous: choose the entry", ("ambiguous",)),
    ("new-id", "Matched by name: a new national id", ("name", "confirmed")),
    ("id", "Matched by national id", ("id",)),
    ("missing", "Not in the list", ("missing",)),
]
#: Rejected lines of a rank list shown on its preview page (all are stored).
REJECTED_SHOWN = 500


def _managed_lists(request: HttpRequest) -> QuerySet[RatingList]:
    lists = access.lists_managed_by(request.user)
    if not lists.exists():
        raise PermissionDenied("only a list's committee may do this")
    return lists


def _upload_page(
    request: HttpRequest,
    form: RankUploadForm | TournamentImportForm,
    preview: Callable[..., Any],
    place: str,
    template: str,
    context: dict[str, Any] | None = None,
) -> HttpResponse:
    """An upload form; submitted and valid, the file is read into its preview
    (a rank sync, an import preview) and the answer goes there.  A refusal
    (naming the line) goes on the file field; nothing is kept then."""
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            made = preview(
                data[place],
                data["file"],
                filename=form.filename,
                format=data["format"],
                user=request.user,
                **form.preview_options(),
            )
        except (ExchangeError, committee.CommitteeError) as error:
            form.add_error("file", f"{form.filename}: {error}")
        else:
            return redirect(made)
    status = 400 if form.is_bound else 200
    return render(
        request, f"ratings/committee/{template}.html", {"form": form, **(context or {})}, status=status
    )


@login_required
@require_GET
def rank_sync_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    syncs = RankSync.objects.filter(rating_list__in=_managed_lists(request)).select_related(
        "rating_list", "created_by", "applied_by"
    )
    page = Paginator(syncs, SYNCS_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "ratings/committee/rank_sync_list.html", {"page": page})


@login_required
@require_http_methods(["GET", "POST"])
def rank_sync_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    lists = _managed_lists(request)
    access.refuse_choice_outside(lists, request.POST.get("rating_list"))
    form = RankUploadForm(request.POST or None, request.FILES or None, rating_lists=lists)
    return _upload_page(request, form, committee.preview_rank_sync, "rating_list", "rank_sync_new")


@login_required
@require_http_methods(["GET", "POST"])
def rank_sync(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    sync = access.rank_sync_for_committee(request.user, pk)
    lines = list(sync.lines.select_related("player", "adjustment"))
    for line in lines:
        line.changes = committee.proposes_change(line)
    # In each group, what needs a decision first: proposed changes, then by name.
    lines.sort(key=lambda line: (not line.changes, line.player.name.casefold(), line.player.suffix))
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
                    "ratings will update shortly.",
                )
                return redirect("rank_sync", pk=sync.pk)
    elif request.method == "POST":
        messages.error(
            request, "This synchronisation was already applied; upload the list again for a new one."
        )
        return redirect("rank_sync", pk=sync.pk)
    status = 400 if form is not None and form.is_bound else 200
    rows = form.rows() if form is not None else [(line, None, None) for line in lines]
    context = {
        "sync": sync,
        "title": f"{committee.list_label(sync)} for {sync.rating_list}",
        "selection": committee.selection_of(sync).describe(),
        "groups": [
            (key, title, [row for row in rows if row[0].match in matches])
            for key, title, matches in SYNC_GROUPS
        ],
        "rejected": sync.rejected[:REJECTED_SHOWN],
        "rejected_more": max(0, len(sync.rejected) - REJECTED_SHOWN),
        "form": form,
        # The club rating column is named after the primary system's unit.
        "unit": rating_label([sync.rating_list.primary_system]),
        # Whether any line can be ticked (else the page says there is nothing to apply).
        "applicable": form is not None and any(name.startswith("apply_") for name in form.fields),
    }
    return render(request, "ratings/committee/rank_sync.html", context, status=status)


@login_required
@require_GET
def export(request: AuthenticatedHttpRequest) -> HttpResponseBase:
    """The form; submitted (it has a format), the file itself, or with
    ``check`` what the file will hold and leave out, on the page."""
    lists = _managed_lists(request)
    access.refuse_choice_outside(lists, request.GET.get("rating_list"))
    form = ExportForm(request.GET if "format" in request.GET else None, rating_lists=lists)
    selection = None
    if form.is_valid():
        data = form.cleaned_data
        period = (data["rating_list"], data["start"], data["end"], data["format"])
        if "check" in request.GET:
            # What the file will hold and what it leaves out, shown on the page.
            selection = committee.export_selection(*period, data["club"], data["event_class"])
        else:
            try:
                name, media_type, pieces = exports.export_stream(
                    *period, club=data["club"], event_class=data["event_class"]
                )
            except (ExchangeError, committee.CommitteeError) as error:
                form.add_error(None, str(error))
            else:
                # Written as it is sent, in constant memory (ratings/committee/exports.py).
                response = StreamingHttpResponse(
                    (piece.encode("utf-8") for piece in pieces), content_type=f"{media_type}; charset=utf-8"
                )
                response["Content-Disposition"] = f'attachment; filename="{name}"'
                return response
    download = request.GET.copy()
    download.pop("check", None)
    status = 400 if form.is_bound and selection is None else 200
    context = {
        "form": form,
        "selection": selection,
        "download": download.urlencode(),
        "lists": lists.order_by("name"),
        "new_token": request.session.pop("new_api_token", None),
    }
    return render(request, "ratings/committee/export.html", context, status=status)


@login_required
@require_POST
def export_token(request: AuthenticatedHttpRequest) -> HttpResponse:
    rating_list = access.rating_list_for_committee(request.user, request.POST.get("list", ""))
    token = committee.new_api_token(rating_list)
    # Shown once, on the next page, then gone: only its hash is stored.
    request.session["new_api_token"] = {"list": rating_list.name, "token": token}
    messages.success(request, f"New API token for {rating_list}; the old one no longer works.")
    return redirect("export")


@login_required
@require_http_methods(["GET", "POST"])
def tournament_import(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The upload: read and check the file, keep it, show the preview.
    Nothing is saved until the preview's "Save"."""
    clubs = Club.objects.filter(rating_list__in=_managed_lists(request)).select_related("rating_list")
    access.refuse_choice_outside(clubs, request.POST.get("club"))
    form = TournamentImportForm(request.POST or None, request.FILES or None, clubs=clubs.order_by("name"))
    limits = {"max_files": MAX_SEASON_FILES, "max_megabytes": MAX_SEASON_BYTES // (1024 * 1024)}
    return _upload_page(request, form, import_preview.preview_upload, "club", "tournament_import", limits)


@login_required
@require_http_methods(["GET", "POST"])
def tournament_import_preview(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """What the upload would save; "Save" imports it, exactly as shown."""
    preview = access.import_preview_for_committee(request.user, pk)
    if preview.format == past_games.PAST:  # past games have their own preview page
        raise Http404("not a tournament import")
    error, status = "", 200
    if preview.expired:
        preview.delete()
        messages.error(
            request, "That preview was more than a day old and was discarded; upload the file again."
        )
        return redirect("tournament_import")
    if request.method == "POST":
        try:
            report = import_preview.save_import(preview, user=request.user)
        except import_preview.PreviewGone as gone:
            messages.error(request, f"Nothing was saved: {gone}.")
            return redirect("tournament_import")
        except import_preview.PreviewChanged as changed:
            import_preview.refresh(preview, changed.summary)
            error, status = str(changed), 409
        except (ExchangeError, committee.CommitteeError) as refused:
            error, status = str(refused), 400
        else:
            if isinstance(report, list):  # a season: its sheets are on the club's page
                games = sum(r.games for r in report)
                messages.success(
                    request, f"{games} games of {len(report)} tournaments saved; ratings will update shortly."
                )
                return redirect(preview.club)
            messages.success(request, f"{report.games} games saved; ratings will update shortly.")
            return redirect(report.sheet or "tournament_import")  # a saved import has its sheet
    if preview.format == import_preview.SEASON:
        files = [(entry, entry["games"] - len(entry["first_games"])) for entry in preview.report["season"]]
        context = {
            "preview": preview,
            "files": files,
            "games": sum(entry["games"] for entry, _ in files),
            "error": error,
        }
        return render(request, "ratings/committee/tournament_import_season.html", context, status=status)
    report = preview.report
    more_games = report["games"] - len(report["first_games"])
    context = {"preview": preview, "report": report, "more_games": more_games, "error": error}
    return render(request, "ratings/committee/tournament_import_preview.html", context, status=status)


#: Players shown per page of the national codes (a federation's list has thousands).
CODES_PER_PAGE = 50


@login_required
@require_http_methods(["GET", "POST"])
def national_codes(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The list's country, its clubs' EGD codes and, a page at a time, its
    players' countries and national ids: what the exports and the published
    rank files write."""
    rating_list = access.rating_list_for_committee(request.user, slug)
    clubs = list(rating_list.clubs.order_by("name"))
    page = Paginator(rating_list.players.order_by("name", "suffix"), CODES_PER_PAGE).get_page(
        request.GET.get("page")
    )
    form = NationalCodesForm(request.POST or None, rating_list=rating_list, clubs=clubs, players=list(page))
    if request.method == "POST" and form.is_valid():
        try:
            changes = services.set_national_codes(
                rating_list,
                country=form.cleaned_data["country"].strip(),
                club_codes=form.club_codes(),
                player_codes=form.player_codes(),
            )
        except services.CodesError as error:
            form.add_problems(error.problems)
        else:
            if changes:
                changed = len(changes.clubs) + len(changes.players) + int(changes.country)
                messages.success(request, f"{rating_list}: {changed} code{'s'[: changed != 1]} saved.")
            else:
                messages.info(request, "Nothing changed.")
            return redirect(f"{request.path}?page={page.number}")
    status = 400 if form.is_bound else 200
    context = {"form": form, "rating_list": rating_list, "page": page}
    return render(request, "ratings/committee/national_codes.html", context, status=status)
