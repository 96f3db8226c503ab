"""Committee pages: rank adjustments and a club's rating systems.

An adjustment sets a player's rank (and optionally index) from a date on; it
shows on the player's record sheet as a row whose opponent is the player's
own name (seed 001, record sheet column 1: "same name indicates an
adjustment"), written there by the recompute.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from accounts.roles import committee_required
from ratings import services
from ratings.forms import AdjustmentForm, ClubSettingsForm
from ratings.models import Club, RankAdjustment
from ratings.services import SheetError
from ratings.systems import SYSTEM_LABELS
from ratings.systems.ranks import format_rank
from ratings.tables import rating_label


@committee_required
@require_GET
def adjustment_list(request: HttpRequest) -> HttpResponse:
    adjustments = RankAdjustment.objects.select_related("player", "club", "entered_by").order_by(
        "-date", "-entered_at", "-id"
    )
    page = Paginator(adjustments, 50).get_page(request.GET.get("page"))
    for adjustment in page:
        adjustment.rank_text = format_rank(adjustment.rank)  # type: ignore[attr-defined]
    systems = Club.objects.values_list("primary_system", flat=True).distinct()
    return render(request, "ratings/adjustment_list.html", {"page": page, "unit": rating_label(systems)})


@committee_required
@require_http_methods(["GET", "POST"])
def adjustment_new(request: HttpRequest) -> HttpResponse:
    initial = {"player": request.GET.get("player")} if request.GET.get("player", "").isdigit() else None
    form = AdjustmentForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            adjustment = services.add_adjustment(
                player=data["player"],
                date=data["date"],
                rank=data["rank"],
                rating=data["rating"],
                reason=data["reason"],
                actor=request.user,  # type: ignore[arg-type]
            )
        except SheetError as error:
            for name, message in error.problems.get(1, {}).items():
                form.add_error(name if name in form.fields else None, message)
        else:
            messages.success(
                request,
                f"{adjustment.player} set to {format_rank(adjustment.rank)} from {adjustment.date:%Y-%m-%d}. "
                "Ratings will update shortly.",
            )
            return redirect("adjustments")
    status = 400 if form.is_bound else 200
    return render(request, "ratings/adjustment_new.html", {"form": form}, status=status)


@committee_required
@require_http_methods(["GET", "POST"])
def club_settings(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    initial = {"primary_system": club.primary_system, "compared_systems": club.compared_systems}
    form = ClubSettingsForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        changed = services.set_club_systems(
            club,
            primary=form.cleaned_data["primary_system"],
            compared=form.cleaned_data["compared_systems"],
            actor=request.user,  # type: ignore[arg-type]
        )
        if changed:
            label = SYSTEM_LABELS[club.primary_system]
            messages.success(
                request, f"{club}: primary system {label}. The whole history is being recomputed."
            )
        else:
            messages.info(request, "Nothing changed.")
        return redirect("club_settings", slug=club.slug)
    status = 400 if form.is_bound else 200
    clubs = Club.objects.order_by("name").only("slug", "name")
    context = {"form": form, "club": club, "clubs": clubs if len(clubs) > 1 else []}
    return render(request, "ratings/club_settings.html", context, status=status)
