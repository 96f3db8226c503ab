from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from accounts.roles import is_committee, is_volunteer
from ratings.models import Club, Player
from ratings.recompute import pending_notices

#: The pages of one list, named by its slug in the URL, and of one club.
LIST_PAGES = {
    "rating_list", "list_settings", "list_predictions", "list_members", "invitations", "link_requests", "club_new",
}  # fmt: skip
CLUB_PAGES = {"club", "club_kit"}


def shown_list(request: HttpRequest) -> str | None:
    """The slug of the list the page shows (its own pages, or a club's), if any."""
    match = request.resolver_match
    slug = match.kwargs.get("slug") if match else None
    if not match or not slug:
        return None
    if match.url_name in LIST_PAGES:
        return str(slug)
    if match.url_name in CLUB_PAGES:
        return Club.objects.filter(slug=slug).values_list("rating_list__slug", flat=True).first()
    return None


def site(request: HttpRequest) -> dict[str, Any]:
    """Role flags for the navigation, and the recompute notice."""
    user = request.user
    context: dict[str, Any] = {
        "is_volunteer": is_volunteer(user),
        "is_committee": is_committee(user),
    }
    # The user's players, one per list at most ("My record sheet").
    mine = (
        list(Player.objects.filter(user_id=user.pk).select_related("rating_list"))
        if user.is_authenticated
        else []
    )
    context["my_players"] = mine
    context["my_lists"] = {player.rating_list_id for player in mine}
    if context["is_committee"]:
        # The committee's "List settings" link: the list on screen when
        # they manage it, else their first (the page switches between lists).
        from ratings.access import lists_managed_by

        managed = lists_managed_by(user).order_by("name").only("slug")
        shown = shown_list(request)
        context["settings_list"] = (shown and managed.filter(slug=shown).first()) or managed.first()
    # "Ratings after 12 March are being updated": lists whose ratings are
    # being recomputed (one query).
    context["recompute_notices"] = pending_notices()
    return context
