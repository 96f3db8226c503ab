"""The club-night kit: a printable page of blank record sheets
headed with the club's active players, their ranks, and the handicap rule of
the list's primary system.  Print CSS, no PDF library: the browser prints it.

Public like the club page (it shows nothing the players list does not)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from ratings.engine import SYSTEM_LABELS
from ratings.models import Club
from ratings.names import matching

#: The handicap a club gives under each system, in our words (sources:
#: docs/rating-systems.md, per system).
HANDICAP_RULES = {
    "sagc": "One stone per rank of difference (a 12k against an 8k takes 4 stones). "
    "Komi 6.5 in an even game, 0.5 with handicap.",
    "egf": "One stone per grade of difference, at most 9. Komi 6.5 (or 7.5) in an even game, 0.5 with handicap.",
    "ffg": "One stone per grade (100 points of level) of difference, at most 9. "
    "Komi 7.5 in an even game, 0.5 with handicap.",
    "west-surrey": "One level of difference is one handicap level: taken as stones or as komi at Black's "
    "choice, one stone being worth 10 komi; even: White receives 6 komi and Black plays first.",
}
HANDICAP_RULES["egf-old"] = HANDICAP_RULES["egf"]
HANDICAP_RULES["ffg-old"] = HANDICAP_RULES["ffg"]

BLANK_ROWS = 20


def club_kit(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club.objects.select_related("rating_list"), slug=slug)
    system = club.rating_list.primary_system
    players = sorted(matching.active_for_entry(club), key=lambda p: (-p.rank, p.name))
    context = {
        "club": club,
        "players": players,
        "system": SYSTEM_LABELS.get(system, system),
        "rule": HANDICAP_RULES.get(system, "See the list's rules."),
        "blank_rows": range(1, BLANK_ROWS + 1),
    }
    return render(request, "ratings/club_kit.html", context)
