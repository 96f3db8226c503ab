"""Changes to a saved record sheet: a forgotten game added, the
whole sheet deleted, a deleted sheet restored from the log.

Who may: whoever may enter sheets at the sheet's club (ratings/access.py:
``sheet_for_editing``, ``deleted_sheet_for_restoring``).  The operations
themselves are in :mod:`ratings.services.sheet_changes` and ratings.services.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from accounts.requests import AuthenticatedHttpRequest
from ratings import access, services
from ratings.entry import confirmation, improbable
from ratings.forms.sheets import GameRowForm
from ratings.services import SheetError, sheet_changes
from ratings.views.sheets import player_options


@login_required
@require_http_methods(["GET", "POST"])
def sheet_add_game(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """One more game on a saved sheet (a game forgotten on the night),
    checked as a new sheet's games are (ratings/entry/confirmation.py)."""
    sheet = access.sheet_for_editing(request.user, pk)
    club = sheet.club
    form = GameRowForm(request.POST or None, prefix="row-0", club=club, sheet_date=sheet.date)
    context: dict[str, Any] = {"sheet": sheet, "form": form, "club": club, "players": player_options(club)}
    if request.method == "POST" and form.is_valid():
        row = form.to_row()
        checked = confirmation.check(club, sheet.date, [row], request.POST)
        if checked.to_confirm:
            context["repeats"] = checked.repeats
            context["improbable"] = improbable.shown(checked.flags, [form], [form]) if checked.flags else None
            return render(request, "ratings/sheet_add_game.html", context)
        try:
            with transaction.atomic():
                services.save_sheet(
                    club=club, date=sheet.date, kind=sheet.kind, rows=[row], actor=request.user, into=sheet
                )
                added = sheet.games.order_by("-pk").values_list("pk", flat=True)[:1]
                improbable.mark(list(added), checked.flags)
        except SheetError as error:
            for name, message in error.problems.get(1, {}).items():
                form.add_error(name if name in form.fields else None, message)
        else:
            messages.success(request, "Game added. Ratings will update shortly.")
            return redirect(sheet)
    return render(request, "ratings/sheet_add_game.html", context, status=400 if form.is_bound else 200)


@login_required
@require_http_methods(["GET", "POST"])
def sheet_delete(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    sheet = access.sheet_for_editing(request.user, pk)
    if request.method == "POST":
        club = sheet.club
        entry = sheet_changes.delete_sheet(
            sheet,
            actor=request.user,
            reason=request.POST.get("reason", "").strip()[:100],
        )
        messages.success(request, f"{entry.summary}. Ratings will update shortly. The log can restore it.")
        return redirect(club)
    games = sheet.games.select_related("white", "black").order_by("date", "id")
    return render(request, "ratings/sheet_delete.html", {"sheet": sheet, "games": games})


@login_required
@require_POST
def sheet_restore(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    entry = access.deleted_sheet_for_restoring(request.user, pk)
    try:
        sheet = sheet_changes.restore_sheet(entry, actor=request.user)
    except SheetError as error:
        problems = [message for fields in error.problems.values() for message in fields.values()]
        messages.error(request, "Not restored: " + "; ".join(problems))
        return redirect("log")
    messages.success(request, "Sheet restored. Ratings will update shortly.")
    return redirect(sheet)
