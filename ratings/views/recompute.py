"""Recompute status for the committee: every club's state and the recorded
runs (club, from date, games replayed, duration, status, error), and a
button to recompute a club in full."""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from accounts.roles import committee_required
from ratings import recompute
from ratings.models import Club, RecomputeRun

RUNS_PER_PAGE = 50


@committee_required
def recompute_status(request: HttpRequest) -> HttpResponse:
    clubs = list(Club.objects.order_by("name"))
    runs = RecomputeRun.objects.select_related("club").order_by("-started_at", "-id")
    chosen = request.GET.get("club", "")
    if chosen:
        runs = runs.filter(club__slug=chosen)
    page = Paginator(runs, RUNS_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "ratings/recompute_status.html", {"clubs": clubs, "page": page, "chosen": chosen})


@committee_required
@require_POST
def recompute_now(request: HttpRequest, slug: str) -> HttpResponse:
    """Recompute a club's whole history (after a change of its settings, or
    to check): marked dirty from its first event, then the usual pipeline."""
    club = get_object_or_404(Club, slug=slug)
    first = recompute.first_event_date(club)
    if first is None:
        messages.info(request, f"{club} has no games or adjustments to rate.")
    else:
        recompute.mark_dirty(club, first)  # after commit: in-process or a worker
        messages.success(request, f"The ratings of {club} are being recomputed from {first:%Y-%m-%d}.")
    return redirect("recompute_status")
