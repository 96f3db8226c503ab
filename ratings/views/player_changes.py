"""Committee pages: rename a player, merge two records of one person, undo a
merge, the likely duplicates of a list (and marking a pair as different
people).  The operations are in :mod:`ratings.services.player_changes`, the
finder in :mod:`ratings.names.duplicates`; who may: the committee of the
player's list (ratings/access.py)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.requests import AuthenticatedHttpRequest
from ratings import access
from ratings.forms.fields import LabelledChoiceField, field_of
from ratings.models import Player
from ratings.names.duplicates import likely_pairs
from ratings.services.player_changes import (
    PlayerChangeError,
    mark_different_people,
    merge_players,
    rename_player,
    unmerge,
)


class RenameForm(forms.Form):
    name = forms.CharField(max_length=100)
    suffix = forms.CharField(max_length=40, required=False, help_text="Tells apart two people of one name")


class MergeForm(forms.Form):
    kept = LabelledChoiceField(
        queryset=Player.objects.none(),
        label="Merge into",
        help_text="The record that stays; this player's games and adjustments move to it.",
    )

    def __init__(self, *args: Any, player: Player, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        others = Player.objects.filter(rating_list=player.rating_list_id).exclude(pk=player.pk)
        kept = field_of(self, "kept", LabelledChoiceField)
        kept.queryset = others.select_related("home_club").order_by("name", "suffix")
        kept.label_of = lambda p: f"{p}, {p.rank_label}{', ' + str(p.home_club) if p.home_club_id else ''}"


@login_required
@require_http_methods(["GET", "POST"])
def player_rename(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    player = access.player_for_committee(request.user, slug)
    form = RenameForm(request.POST or None, initial={"name": player.name, "suffix": player.suffix})
    if request.method == "POST" and form.is_valid():
        try:
            renamed = rename_player(player, actor=request.user, **form.cleaned_data)
        except PlayerChangeError as error:
            form.add_error("name", str(error))
        else:
            messages.success(request, f"Renamed to {renamed}. The old address leads here.")
            return redirect(renamed)
    status = 400 if form.is_bound else 200
    return render(request, "ratings/player_rename.html", {"player": player, "form": form}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def player_merge(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    player = access.player_for_committee(request.user, slug)
    # From the duplicate finder: the record to keep is chosen already.
    kept = request.GET.get("kept", "")
    form = MergeForm(request.POST or None, player=player, initial={"kept": kept} if kept.isdigit() else None)
    if request.method == "POST" and form.is_valid():
        kept = form.cleaned_data["kept"]
        try:
            merge_players(player, kept, actor=request.user)
        except PlayerChangeError as error:
            form.add_error("kept", str(error))
        else:
            messages.success(
                request, f"{player} merged into {kept}. Ratings will update shortly; the log can undo it."
            )
            return redirect(kept)
    status = 400 if form.is_bound else 200
    return render(request, "ratings/player_merge.html", {"player": player, "form": form}, status=status)


@login_required
@require_POST
def player_unmerge(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    entry = access.merge_for_committee(request.user, pk)
    try:
        player = unmerge(entry, actor=request.user)
    except PlayerChangeError as error:
        messages.error(request, f"Not undone: {error}")
        return redirect("log")
    messages.success(request, f"{player} is back with their games. Ratings will update shortly.")
    return redirect(player)


@login_required
@require_GET
def list_duplicates(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The likely pairs of records of one person in a list, with their evidence."""
    rating_list = access.rating_list_for_committee(request.user, slug)
    context = {"rating_list": rating_list, "pairs": likely_pairs(rating_list)}
    return render(request, "ratings/duplicates.html", context)


@login_required
@require_POST
def list_duplicates_different(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Mark a pair as different people: the finder no longer offers it."""
    first, second = access.pair_for_committee(
        request.user, slug, request.POST.get("first"), request.POST.get("second")
    )
    try:
        mark_different_people(first, second, actor=request.user)
    except PlayerChangeError as error:
        messages.error(request, f"Not marked: {error}")
    else:
        messages.success(request, f"{first} and {second} are marked as different people; the pair is hidden.")
    return redirect("list_duplicates", slug)
