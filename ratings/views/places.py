"""Public pages of a rating list (its clubs, players and systems) and of a
club (its members, recent sheets and volunteers)."""

from __future__ import annotations

from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from accounts.roles import is_committee_of, may_enter_at
from ratings.engine import SYSTEM_LABELS
from ratings.models import Club, RatingList, RecordSheet

RECENT_SHEETS = 20


def rating_list(request: HttpRequest, slug: str) -> HttpResponse:
    found = get_object_or_404(RatingList, slug=slug)
    clubs = found.clubs.annotate(member_count=Count("members")).order_by("name")
    context = {
        "rating_list": found,
        "clubs": clubs,
        "players": found.players.count(),
        "systems": [(name, SYSTEM_LABELS.get(name, name)) for name in found.systems],
        "committee": found.committee.select_related("user").order_by("user__username"),
        "can_manage": is_committee_of(request.user, found.pk),
    }
    return render(request, "ratings/rating_list.html", context)


def club(request: HttpRequest, slug: str) -> HttpResponse:
    found = get_object_or_404(Club.objects.select_related("rating_list"), slug=slug)
    sheets = RecordSheet.objects.recent_at(found, RECENT_SHEETS)
    context = {
        "club": found,
        "members": found.members.order_by("-rank", "-rating"),
        "sheets": sheets,
        "volunteers": found.volunteers.select_related("user").order_by("user__username"),
        "can_enter": may_enter_at(request.user, found.pk, found.rating_list_id),
        "can_manage": is_committee_of(request.user, found.rating_list_id),
    }
    return render(request, "ratings/club.html", context)
