"""The "How ratings work" pages: an index of every system with the players'
questions, and one page per system with its rules, the meaning of every
term its explanations use (ratings/explain/terms.py, the words the game page
shows; anchors ``term-<key>`` that the game page links to), and a worked example the engine computes from the demo's games."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from ratings.engine import SYSTEM_LABELS, SYSTEM_NAMES
from ratings.explain.how import pages
from ratings.explain.how.examples import worked_example
from ratings.explain.how.faq import FAQ
from ratings.explain.terms import WORDS, words_for


def how(request: HttpRequest) -> HttpResponse:
    found = pages()
    systems = [(found[name], SYSTEM_LABELS[name]) for name in SYSTEM_NAMES]
    return render(request, "ratings/how/index.html", {"systems": systems, "faq": FAQ})


def how_system(request: HttpRequest, system: str) -> HttpResponse:
    page = pages().get(system)
    if page is None:
        raise Http404(f"No rating system called {system!r}.")
    example = worked_example(system, timezone.localdate())
    words = WORDS.get(system, {})
    terms = list(words.items())
    sides = [
        (side, [(shown, words_for(system, shown.key).label) for shown in side.terms])
        for side in example.sides
    ]
    others = [(name, SYSTEM_LABELS[name]) for name in SYSTEM_NAMES if name != system]
    return render(
        request,
        "ratings/how/system.html",
        {
            "page": page,
            "terms": terms,
            "label": SYSTEM_LABELS[system],
            "example": example,
            "sides": sides,
            "others": others,
        },
    )
