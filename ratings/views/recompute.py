"""Recompute status for the committee: the state of every list it manages and
the recorded runs (list, from date, games replayed, duration, status, error),
and a button to recompute a list in full."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts.requests import AuthenticatedHttpRequest
from ratings import access, recompute
from ratings.models import RecomputeRun

RUNS_PER_PAGE = 50


@login_required
def recompute_status(request: AuthenticatedHttpRequest) -> HttpResponse:
    lists = list(access.lists_managed_by(request.user).order_by("name"))
    if not lists:
        raise PermissionDenied("only a list's committee follows its recompute runs")
    runs = (
        RecomputeRun.objects.filter(rating_list__in=lists)
        .select_related("rating_list")
        .order_by("-started_at", "-id")
    )
    chosen = request.GET.get("list", "")
    if chosen:
        runs = runs.filter(rating_list__slug=chosen)
    page = Paginator(runs, RUNS_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "ratings/recompute_status.html", {"lists": lists, "page": page, "chosen": chosen})


@login_required
@require_POST
def recompute_now(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Recompute a list's whole history (after a change of its settings, or
    to check): marked dirty from its first event, then the usual pipeline."""
    rating_list = access.rating_list_for_committee(request.user, slug)
    first = recompute.first_event_date(rating_list)
    if first is None:
        messages.info(request, f"{rating_list} has no games or adjustments to rate.")
    else:
        recompute.mark_dirty(rating_list, first)  # after commit: in-process or a worker
        messages.success(request, f"The ratings of {rating_list} are being recomputed from {first:%Y-%m-%d}.")
    return redirect("recompute_status")
