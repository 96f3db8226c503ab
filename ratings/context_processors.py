from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from accounts.roles import is_committee, is_volunteer
from ratings.models import Player
from ratings.recompute import pending_notices


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
        # The committee's "List settings" link: its first list (the page
        # switches between lists when there are several).
        from ratings.access import lists_managed_by

        context["settings_list"] = lists_managed_by(user).order_by("name").only("slug").first()
    # "Ratings after 12 March are being updated": lists whose ratings are
    # being recomputed (one query).
    context["recompute_notices"] = pending_notices()
    return context
