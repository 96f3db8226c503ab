"""Committee pages: rank adjustments and a list's rating systems.

An adjustment sets a player's rank (and optionally index) from a date on; it
shows on the player's record sheet as a row whose opponent is the player's
own name (the SAGC FAQ, record sheet column 1: "same name indicates an
adjustment"), written there by the recompute.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from accounts.requests import AuthenticatedHttpRequest
from ratings import access, services
from ratings.engine import SYSTEM_LABELS
from ratings.engine.ranks import format_rank
from ratings.entry import improbable
from ratings.forms.fields import choices_of
from ratings.forms.sheets import AdjustmentForm, ListSettingsForm
from ratings.models import RankAdjustment
from ratings.presentation.tables import rating_label
from ratings.services import SheetError


def _managed_lists(request: HttpRequest) -> Any:
    lists = access.lists_managed_by(request.user)
    if not lists.exists():
        raise PermissionDenied("only a list's committee sets rank adjustments")
    return lists


@login_required
@require_GET
def adjustment_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    lists = _managed_lists(request)
    adjustments = (
        RankAdjustment.objects.filter(rating_list__in=lists)
        .select_related("player", "rating_list", "entered_by")
        .order_by("-date", "-entered_at", "-id")
    )
    page = Paginator(adjustments, 50).get_page(request.GET.get("page"))
    systems = lists.values_list("primary_system", flat=True).distinct()
    return render(request, "ratings/adjustment_list.html", {"page": page, "unit": rating_label(systems)})


@login_required
@require_http_methods(["GET", "POST"])
def adjustment_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    lists = _managed_lists(request)
    initial = {"player": request.GET.get("player")} if request.GET.get("player", "").isdigit() else None
    form = AdjustmentForm(request.POST or None, initial=initial, rating_lists=lists)
    access.refuse_choice_outside(choices_of(form, "player"), request.POST.get("player"))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            adjustment = services.add_adjustment(
                player=data["player"],
                date=data["date"],
                rank=data["rank"],
                rating=data["rating"],
                reason=data["reason"],
                actor=request.user,
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


@login_required
@require_http_methods(["GET", "POST"])
def list_settings(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    rating_list = access.rating_list_for_committee(request.user, slug)
    initial = {
        "primary_system": rating_list.primary_system,
        "compared_systems": rating_list.compared_systems,
        **improbable.settings_initial(rating_list),
    }
    form = ListSettingsForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        checks = improbable.set_checks(rating_list, form.cleaned_data)
        changed = services.set_list_systems(
            rating_list,
            primary=form.cleaned_data["primary_system"],
            compared=form.cleaned_data["compared_systems"],
            actor=request.user,
        )
        if changed:
            label = SYSTEM_LABELS[rating_list.primary_system]
            messages.success(
                request, f"{rating_list}: primary system {label}. The whole history is being recomputed."
            )
        elif checks:
            messages.success(request, f"{rating_list}: checks at entry saved.")
        else:
            messages.info(request, "Nothing changed.")
        return redirect("list_settings", slug=rating_list.slug)
    status = 400 if form.is_bound else 200
    lists = access.lists_managed_by(request.user).only("slug", "name")
    context = {"form": form, "rating_list": rating_list, "lists": lists if len(lists) > 1 else []}
    return render(request, "ratings/list_settings.html", context, status=status)
