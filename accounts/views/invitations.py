"""Invitations: the committee invites by e-mail to a role; the invitee opens
the one-time link, sets a password (newcomer) or accepts while logged in."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from accounts import access
from accounts.forms import InviteForm, NewcomerForm
from accounts.models import Invitation
from accounts.requests import AuthenticatedHttpRequest, signed_in_user
from accounts.services import invitations
from accounts.services.memberships import MembershipError
from ratings import access as ratings_access


@login_required
@require_http_methods(["GET", "POST"])
def invitation_list(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """GET: the list's invitations and a form; POST: invite someone."""
    rating_list = ratings_access.rating_list_for_committee(request.user, slug)
    initial = {"place": request.GET["place"]} if "place" in request.GET else None
    form = InviteForm(request.POST or None, rating_list=rating_list, initial=initial)
    if request.method == "POST" and form.is_valid():
        role, club = form.cleaned_data["place"]
        invitation, token = invitations.invite(
            form.cleaned_data["email"], role, rating_list, club, request.user
        )
        link = request.build_absolute_uri(reverse("invitation_accept", args=[token]))
        invitations.send(invitation, link)
        messages.success(
            request,
            f"Invitation sent to {invitation.email} ({invitation.place_label}). "
            f"To pass it on yourself, the link is {link}",
        )
        return redirect("invitations", rating_list.slug)
    all_invitations = Invitation.objects.filter(rating_list=rating_list).select_related(
        "club", "invited_by", "accepted_by"
    )
    context = {
        "rating_list": rating_list,
        "form": form,
        "pending": all_invitations.pending(),
        "past": all_invitations.exclude(pk__in=all_invitations.pending())[:30],
    }
    return render(request, "accounts/invitations.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def invitation_withdraw(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    invitation = access.invitation_for_committee(request.user, pk)
    if invitation.accepted_at is None:
        invitation.delete()
        messages.success(request, f"Withdrew the invitation to {invitation.email}.")
    else:
        messages.error(request, "That invitation was already accepted; take the role on the members page.")
    return redirect("invitations", invitation.rating_list.slug)


@require_http_methods(["GET", "POST"])
def invitation_accept(request: HttpRequest, token: str) -> HttpResponse:
    invitation = access.invitation_by_token(token)
    if not invitation.is_usable:
        return render(request, "accounts/invitation_gone.html", {"invitation": invitation}, status=410)
    user = signed_in_user(request)
    if user is not None:
        if request.method == "POST":
            return _accept(request, invitation, user)
        return render(request, "accounts/invitation_accept.html", {"invitation": invitation})
    form = NewcomerForm(request.POST or None, initial={"username": invitation.email.split("@")[0]})
    known = get_user_model()._default_manager.filter(email__iexact=invitation.email).exists()
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                user = form.save(commit=False)
                user.email = invitation.email
                user.save()
                invitations.accept(invitation, user)
        except MembershipError as error:
            messages.error(request, str(error))
            return redirect("invitation_accept", token)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user}: you are now {invitation.place_label}.")
        return redirect("my_places")
    context = {"invitation": invitation, "form": form, "known": known}
    return render(request, "accounts/invitation_accept.html", context, status=400 if form.errors else 200)


def _accept(request: HttpRequest, invitation: Invitation, user: User) -> HttpResponse:
    try:
        invitations.accept(invitation, user)
    except MembershipError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"You are now {invitation.place_label}.")
    return redirect("my_places")
