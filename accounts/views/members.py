"""A list's members: who holds which role, giving and taking roles, and the
links between users and players (with the users' "this is me" requests)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from accounts import access
from accounts.forms import GiveRoleForm, LinkForm
from accounts.models import CommitteeMember, LinkRequest, Volunteer
from accounts.requests import AuthenticatedHttpRequest
from accounts.services import memberships
from accounts.services.memberships import MembershipError
from ratings import access as ratings_access
from ratings.forms.fields import choices_of
from ratings.models import RatingList


def _members_page(request: HttpRequest, rating_list: RatingList, **forms: Any) -> HttpResponse:
    context = {
        "rating_list": rating_list,
        "committee": CommitteeMember.objects.filter(rating_list=rating_list).select_related(
            "user", "granted_by"
        ),
        "volunteers": Volunteer.objects.filter(club__rating_list=rating_list)
        .select_related("user", "club", "granted_by")
        .order_by("club__name", "user__username"),
        "linked": rating_list.players.filter(user__isnull=False).select_related("user").order_by("name"),
        "give_form": forms.get("give_form") or GiveRoleForm(rating_list=rating_list),
        "link_form": forms.get("link_form") or LinkForm(rating_list=rating_list),
        "pending_requests": LinkRequest.objects.filter(
            player__rating_list=rating_list, status=LinkRequest.Status.PENDING
        ).count(),
    }
    return render(request, "accounts/members.html", context, status=400 if forms else 200)


@login_required
@require_http_methods(["GET", "POST"])
def members(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """GET: the members; POST: give a role to an existing user."""
    rating_list = ratings_access.rating_list_for_committee(request.user, slug)
    if request.method == "GET":
        return _members_page(request, rating_list)
    form = GiveRoleForm(request.POST, rating_list=rating_list)
    if not form.is_valid():
        return _members_page(request, rating_list, give_form=form)
    user = form.cleaned_data["username"]
    role, club = form.cleaned_data["place"]
    created = memberships.grant(user, role, club=club, rating_list=rating_list, by=request.user)
    place = f"volunteer at {club}" if club else f"on the committee of {rating_list}"
    if created:
        messages.success(request, f"{user} is now {place}.")
    else:
        messages.info(request, f"{user} was already {place}.")
    return redirect("list_members", rating_list.slug)


@login_required
@require_POST
def volunteer_remove(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    seat = access.volunteer_seat_for_committee(request.user, pk)
    memberships.take_volunteer_seat(seat)
    messages.success(request, f"{seat.user} no longer volunteers at {seat.club}.")
    return redirect("list_members", seat.club.rating_list.slug)


@login_required
@require_POST
def committee_remove(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    seat = access.committee_seat_for_committee(request.user, pk)
    try:
        memberships.take_committee_seat(seat)
    except MembershipError as error:
        messages.error(request, str(error))
        return redirect("list_members", seat.rating_list.slug)
    messages.success(request, f"{seat.user} left the committee of {seat.rating_list}.")
    if seat.user_id == request.user.pk and not request.user.is_superuser:
        return redirect(seat.rating_list)
    return redirect("list_members", seat.rating_list.slug)


@login_required
@require_POST
def link_player(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    rating_list = ratings_access.rating_list_for_committee(request.user, slug)
    form = LinkForm(request.POST, rating_list=rating_list)
    ratings_access.refuse_choice_outside(choices_of(form, "player"), request.POST.get("player"))
    if not form.is_valid():
        return _members_page(request, rating_list, link_form=form)
    player, user = form.cleaned_data["player"], form.cleaned_data["username"]
    try:
        memberships.link(player, user)
    except MembershipError as error:
        form.add_error(None, str(error))
        return _members_page(request, rating_list, link_form=form)
    messages.success(request, f"{user} is now linked to {player}: “My record sheet” opens it.")
    return redirect("list_members", rating_list.slug)


@login_required
@require_POST
def unlink_player(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    player = ratings_access.player_for_committee(request.user, slug)
    memberships.unlink(player)
    messages.success(request, f"{player} is no longer linked to an account.")
    return redirect("list_members", player.rating_list.slug)


@login_required
@require_POST
def claim_player(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """A user's "this is me": a request for the committee of the player's list."""
    player = access.player_to_claim(request.user, slug)
    try:
        memberships.ask_link(request.user, player)
    except MembershipError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request, f"Asked the committee of {player.rating_list} to link your account to {player}."
        )
    return redirect(player)


@login_required
@require_http_methods(["GET"])
def link_requests(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    rating_list = ratings_access.rating_list_for_committee(request.user, slug)
    requests = LinkRequest.objects.filter(player__rating_list=rating_list).select_related(
        "user", "player", "decided_by"
    )
    context = {
        "rating_list": rating_list,
        "pending": requests.filter(status=LinkRequest.Status.PENDING),
        "decided": requests.exclude(status=LinkRequest.Status.PENDING)[:30],
    }
    return render(request, "accounts/link_requests.html", context)


@login_required
@require_POST
def link_request_decide(request: AuthenticatedHttpRequest, pk: int, decision: str) -> HttpResponse:
    link_request = access.link_request_for_committee(request.user, pk)
    try:
        memberships.decide_link(link_request, approve=decision == "approve", by=request.user)
    except MembershipError as error:
        messages.error(request, str(error))
    else:
        verb = "linked to" if decision == "approve" else "refused as"
        messages.success(request, f"{link_request.user} {verb} {link_request.player}.")
    return redirect("link_requests", link_request.player.rating_list.slug)
