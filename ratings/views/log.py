"""The log-file (the SAGC FAQ, "How are games entered into the system?"): every
game and adjustment as entered, and every later change, newest first, so a
player can check their games."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from ratings.models import LogEntry, Player, RatingList
from ratings.names import find
from ratings.presentation.filters import LogFilterForm

ENTRIES_PER_PAGE = 50


def players_named(text: str, rating_list: RatingList | None) -> list[int]:
    """The players the log's player filter means: given by their address
    (slug) or by name, as the players search finds them (ratings.names)."""
    players = Player.objects.in_list(rating_list)
    by_slug = list(players.filter(slug=text).values_list("pk", flat=True))
    return by_slug + [m.player.pk for m in find(players, text)]


def log(request: HttpRequest) -> HttpResponse:
    form = LogFilterForm(request.GET or None)
    entries = LogEntry.objects.for_page()
    if form.is_valid():
        data = form.cleaned_data
        entries = entries.in_list(data.get("list")).between(data["start"], data["end"])
        if text := data["player"].strip():
            entries = entries.about(players_named(text, data.get("list")))
        if data["club"] is not None:
            entries = entries.filter(club=data["club"])
    page = Paginator(entries, ENTRIES_PER_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "ratings/log.html", {"form": form, "page": page, "query": query.urlencode()})
