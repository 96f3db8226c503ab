"""A list's past games from another system on the committee's pages: the
upload is checked and previewed (what it would save, the new players and
their starting ranks), then saved as shown (ratings/committee/past_games.py)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from accounts.requests import AuthenticatedHttpRequest
from ratings import access, committee
from ratings.committee import past_games
from ratings.forms.committee import PastGamesForm


@login_required
@require_http_methods(["GET", "POST"])
def past_games_import(request: AuthenticatedHttpRequest) -> HttpResponse:
    lists = access.lists_managed_by(request.user)
    access.refuse_choice_outside(lists, request.POST.get("rating_list"))
    form = PastGamesForm(request.POST or None, request.FILES or None, rating_lists=lists.order_by("name"))
    if request.method == "POST" and form.is_valid():
        try:
            preview = past_games.preview_past_games(
                form.cleaned_data["rating_list"],
                form.cleaned_data["file"],
                filename=form.filename,
                user=request.user,
            )
        except committee.CommitteeError as error:
            form.add_error("file", f"{form.filename}: {error}")
        else:
            return redirect("past_games_preview", preview.pk)
    status = 400 if form.is_bound else 200
    return render(request, "ratings/committee/past_games.html", {"form": form}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def past_games_preview(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    preview = access.import_preview_for_committee(request.user, pk)
    if preview.format != past_games.PAST:
        raise Http404("not a preview of past games")
    error, status = "", 200
    if request.method == "POST":
        try:
            report = past_games.save_past_games(preview, user=request.user)
        except committee.CommitteeError as refused:
            error, status = str(refused), 400
        else:
            messages.success(
                request,
                f"{report.games} past games saved on {report.sheets} sheets; ratings will update shortly.",
            )
            return redirect(preview.club.rating_list)
    hints = preview.report.get("alike", {})
    context = {
        "preview": preview,
        "report": preview.report,
        "new_players": [
            {"name": name, "rank": rank, **hints.get(name, {"list": [], "file": []})}
            for name, rank in preview.report["new_players"]
        ],
        "rating_list": preview.club.rating_list,
        "error": error,
    }
    return render(request, "ratings/committee/past_games_preview.html", context, status=status)
