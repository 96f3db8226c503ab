"""Events: an event's page (its crosstable and rating effects) and the
events of a list or a club."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from ratings.models import Club, RatingList, RecordSheet
from ratings.presentation import events

EVENTS_PER_PAGE = 50


def event(request: HttpRequest, pk: int) -> HttpResponse:
    sheet = get_object_or_404(RecordSheet.objects.select_related("club__rating_list"), pk=pk)
    return render(request, "ratings/event.html", {"table": events.crosstable(sheet)})


def list_events(request: HttpRequest, slug: str) -> HttpResponse:
    found = get_object_or_404(RatingList, slug=slug)
    page = Paginator(events.events_of(rating_list=found), EVENTS_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "ratings/events.html", {"place": found, "page": page, "several_clubs": True})


def club_events(request: HttpRequest, slug: str) -> HttpResponse:
    found = get_object_or_404(Club, slug=slug)
    page = Paginator(events.events_of(club=found), EVENTS_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "ratings/events.html", {"place": found, "page": page, "several_clubs": False})
