"""The log-file (the SAGC FAQ, "How are games entered into the system?"): every
game and adjustment as entered, and every later change, newest first, so a
player can check their games."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from ratings.models import LogEntry
from ratings.presentation.filters import LogFilterForm

ENTRIES_PER_PAGE = 50


def log(request: HttpRequest) -> HttpResponse:
    form = LogFilterForm(request.GET or None)
    entries = LogEntry.objects.for_page()
    if form.is_valid():
        data = form.cleaned_data
        entries = entries.in_list(data.get("list")).about(data["player"]).between(data["start"], data["end"])
        if data["club"] is not None:
            entries = entries.filter(club=data["club"])
    page = Paginator(entries, ENTRIES_PER_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "ratings/log.html", {"form": form, "page": page, "query": query.urlencode()})
