"""Which system predicts best (the committee's page), flagged games, and
handicap advice (the public "what handicap do we play?" page and the
sheet's pre-fill).

The committee's page reads the figures stored after each recompute
(ratings/predictions.py); "Compute now" recomputes them on request.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from accounts.requests import AuthenticatedHttpRequest
from ratings import access, predictions
from ratings.engine import SYSTEM_LABELS
from ratings.entry.pairing import advise
from ratings.evaluation.predict import BASELINES
from ratings.evaluation.report import HANDICAP_BANDS, RANK_BANDS
from ratings.models import Game, ListEvaluation, Player, RatingList
from ratings.presentation.calibration_chart import calibration_chart

BASELINE_LABELS = {"even": "Always 50 % (baseline)", "ranks": "Declared ranks only (baseline)"}
FLAGGED_SHOWN = 200


def _label(name: str) -> str:
    return BASELINE_LABELS.get(name) or SYSTEM_LABELS.get(name, name)


def _table(rows: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """One scope's rows, the lowest log-loss marked best."""
    losses = [m["log_loss"] for m in rows.values() if m["log_loss"] is not None]
    best = min(losses) if losses else None
    return [
        {
            "name": name,
            "label": _label(name),
            "baseline": name in BASELINES,
            "best": best is not None and m["log_loss"] == best,
            "accuracy_text": "–" if m["accuracy"] is None else f"{100 * m['accuracy']:.1f} %",
            **m,
        }
        for name, m in rows.items()
    ]


def _handicap_caption(band: str) -> str:
    return {"even": "Even games", "1": "1 stone"}.get(band, f"{band} stones")


def _scopes(tables: dict[str, dict[str, dict[str, Any]]]) -> list[tuple[str, list[tuple[str, Any]]]]:
    """(heading, [(band, rows)]) for overall, by handicap band, by rank band."""
    handicap = [
        (_handicap_caption(band), _table(tables[f"handicap {band}"]))
        for band in HANDICAP_BANDS
        if f"handicap {band}" in tables
    ]
    rank = [
        (f"Mean rank {band}", _table(tables[f"rank {band}"]))
        for band in RANK_BANDS
        if f"rank {band}" in tables
    ]
    overall = [("All games", _table(tables["overall"]))] if "overall" in tables else []
    return [("Overall", overall), ("By handicap (stones)", handicap), ("By rank (mean of the two)", rank)]


@login_required
@require_GET
def list_predictions(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    rating_list = access.rating_list_for_committee(request.user, slug)
    stored = ListEvaluation.objects.filter(rating_list=rating_list).first()
    chart = None
    scopes: list[Any] = []
    if stored is not None:
        scopes = _scopes(stored.tables)
        names = [*stored.systems, "ranks"]
        chart = calibration_chart(stored.calibration, {n: _label(n) for n in names}, names)
    flagged = (
        Game.objects.filter(rating_list=rating_list)
        .exclude(flagged="")
        .select_related("white", "black", "club", "sheet", "entered_by")
        .order_by("-entered_at", "-id")
    )
    context = {
        "rating_list": rating_list,
        "stored": stored,
        "stale": stored is not None and stored.generation != rating_list.clean_generation,
        "scopes": scopes,
        "chart": chart,
        "flagged": flagged[:FLAGGED_SHOWN],
        "flagged_count": flagged.count(),
        "primary": SYSTEM_LABELS.get(rating_list.primary_system, rating_list.primary_system),
        "threshold": f"{100 * rating_list.improbable_below:g} %",
    }
    return render(request, "ratings/predictions.html", context)


@login_required
@require_POST
def list_predictions_compute(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Compute the figures now (they are otherwise computed after each recompute)."""
    rating_list = access.rating_list_for_committee(request.user, slug)
    predictions.schedule(rating_list.pk, force=True)
    messages.success(request, "The figures are being computed; they appear here when done.")
    return redirect("list_predictions", slug=rating_list.slug)


def _players(rating_list: RatingList | None) -> list[Player]:
    if rating_list is None:
        return []
    return list(
        Player.objects.filter(rating_list=rating_list)
        .only("name", "suffix", "rank")
        .order_by("name", "suffix")
    )


def _named(rating_list: RatingList, text: str) -> Player | None:
    return Player.objects.named(rating_list, text.strip()).first() if text.strip() else None


@require_GET
def handicap(request: HttpRequest) -> HttpResponse:
    """What handicap do we play?  Choose a list and two of its players."""
    lists = RatingList.objects.order_by("name")
    raw = request.GET.get("list", "")
    rating_list = lists.filter(slug=raw).first() if raw else None
    if rating_list is None and len(lists) == 1:
        rating_list = lists[0]
    first_text, second_text = request.GET.get("first", ""), request.GET.get("second", "")
    problems: list[str] = []
    advice: list[Any] = []
    first = second = None
    if rating_list is not None and (first_text or second_text):
        first, second = _named(rating_list, first_text), _named(rating_list, second_text)
        for text, found, which in ((first_text, first, "first"), (second_text, second, "second")):
            if found is None:
                problems.append(
                    f"{text.strip()} is not a player of {rating_list}"
                    if text.strip()
                    else f"give the {which} player's name"
                )
        if first is not None and second is not None and first.pk == second.pk:
            problems.append("choose two different players")
        if not problems and first is not None and second is not None:
            advice = advise(rating_list, first, second, timezone.localdate())
    context = {
        "lists": lists,
        "rating_list": rating_list,
        "players": _players(rating_list),
        "first": first_text,
        "second": second_text,
        "problems": problems,
        "advice": advice,
    }
    return render(request, "ratings/handicap.html", context)


@login_required
@require_GET
def sheet_advice(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The handicap and komi for one row of the sheet being entered (htmx):
    ``club``, ``row`` (its number), ``white``, ``black`` and ``date``."""
    clubs = access.clubs_for_entry(request.user)
    raw = request.GET.get("club", "")
    club = (clubs.filter(pk=raw).first() if raw.isdigit() else None) or clubs.first()
    advice = None
    if club is not None:
        rating_list = club.rating_list
        white = _named(rating_list, request.GET.get("white", ""))
        black = _named(rating_list, request.GET.get("black", ""))
        if white is not None and black is not None and white.pk != black.pk:
            try:
                on = date.fromisoformat(request.GET.get("date", ""))
            except ValueError:
                on = timezone.localdate()
            advice = advise(rating_list, white, black, on, [rating_list.primary_system])[0]
    return render(request, "ratings/partials/sheet_advice.html", {"advice": advice})
