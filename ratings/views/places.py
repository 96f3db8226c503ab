"""Public pages of a rating list (its home: standings, latest sheets,
movers, clubs, systems; its ranks as files for pairing programs) and of a
club (its members, recent sheets and volunteers)."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone

from accounts.roles import is_committee_of, may_enter_at
from ratings import committee, exchange
from ratings.engine import SYSTEM_LABELS
from ratings.models import Club, RatingList, RecordSheet
from ratings.presentation import standings
from ratings.presentation.tables import unit_of

RECENT_SHEETS = 20
STANDINGS_PER_PAGE = 50


def rating_list(request: HttpRequest, slug: str) -> HttpResponse:
    """A list's home: the standings in its primary system (active players,
    or everyone with ``?all=1``), the latest sheets, the movers, a pending
    recompute, its clubs and committee."""
    found = get_object_or_404(RatingList, slug=slug)
    today = timezone.localdate()
    everyone = request.GET.get("all") == "1"
    table = standings.standings(found, today, everyone=everyone)
    page = Paginator(table, STANDINGS_PER_PAGE).get_page(request.GET.get("page"))
    clubs = found.clubs.annotate(member_count=Count("members")).order_by("name")
    unit = unit_of(found.primary_system)
    context = {
        "rating_list": found,
        "everyone": everyone,
        "active_days": standings.ACTIVE_DAYS,
        "page": page,
        "unit": unit[:1].upper() + unit[1:],
        "primary_label": SYSTEM_LABELS.get(found.primary_system, found.primary_system),
        "latest_sheets": standings.latest_sheets(found),
        "movers": standings.movers(found, today),
        "mover_days": standings.MOVER_DAYS,
        "clubs": clubs,
        "players": found.players.count(),
        "systems": [(name, SYSTEM_LABELS.get(name, name)) for name in found.systems],
        "committee": found.committee.select_related("user").order_by("user__username"),
        "can_manage": is_committee_of(request.user, found.pk),
        "rank_files": exchange.RANK_FILES.values(),
    }
    return render(request, "ratings/rating_list.html", context)


def rank_file(request: HttpRequest, slug: str, name: str) -> HttpResponse:
    """The list's own ranks in a layout pairing programs import (ech_ffg_V3.txt,
    egf_db.txt, tdlista.txt): public, as the players list is."""
    found = get_object_or_404(RatingList, slug=slug)
    if name not in exchange.RANK_FILES:
        raise Http404(f"no published list {name!r}")
    published = committee.publish_ranks(found, name)
    response = HttpResponse(published.data, content_type=published.media_type)
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


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
