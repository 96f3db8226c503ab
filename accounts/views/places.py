"""New lists (site admin) and new clubs (a list's committee), and "My places"."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from accounts import access
from accounts.forms import ClubForm, ListForm
from accounts.models import CommitteeMember, LinkRequest, Volunteer
from accounts.requests import AuthenticatedHttpRequest
from ratings import access as ratings_access
from ratings.places import PlaceError, create_club, create_list


@login_required
@require_http_methods(["GET", "POST"])
def list_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    access.require_site_admin(request.user)
    form = ListForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            rating_list = create_list(form.cleaned_data["name"], form.cleaned_data["primary_system"])
        except PlaceError as error:
            form.add_error(error.field, error.message)
        else:
            messages.success(
                request, f"Created the list {rating_list}. Add its clubs and invite its committee here."
            )
            return redirect(rating_list)
    return render(request, "accounts/list_new.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def club_new(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    rating_list = ratings_access.rating_list_for_committee(request.user, slug)
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = create_club(rating_list, form.cleaned_data["name"])
        except PlaceError as error:
            form.add_error(error.field, error.message)
        else:
            messages.success(
                request, f"Created {club} (address /clubs/{club.slug}/). Invite its volunteers next."
            )
            return redirect(rating_list)
    return render(request, "accounts/club_new.html", {"form": form, "rating_list": rating_list})


@login_required
@require_GET
def my_places(request: AuthenticatedHttpRequest) -> HttpResponse:
    user = request.user
    context = {
        "committees": CommitteeMember.objects.filter(user=user).select_related("rating_list"),
        "volunteering": Volunteer.objects.filter(user=user).select_related("club__rating_list"),
        "link_requests": LinkRequest.objects.filter(user=user).select_related("player")[:10],
    }
    return render(request, "accounts/my_places.html", context)
