"""``/``: the home of the site's one list, or the choice of its lists."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static

from ratings.models import RatingList
from ratings.presentation.standings import list_choices


def home(request: HttpRequest) -> HttpResponse:
    lists = list(RatingList.objects.order_by("name")[:2])
    if len(lists) == 1:
        return redirect(lists[0])
    return render(request, "ratings/home.html", {"choices": list_choices()})


def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers ask for by themselves (Django's admin pages
    name no icon): the site's icon (base.html names it too)."""
    return redirect(static("favicon.svg"), permanent=True)
