"""Record-sheet entry, the saved sheet, and corrections to a game.

Entering a sheet: the header (club, event, date, kind) and game rows; each
"Add a game" fetches one more row (htmx), player names autocomplete from a
<datalist> of the players of the club's rating list, and a name the list
does not know reveals a starting-rank field that adds the player.  Saving is
all or nothing (:func:`ratings.services.save_sheet`).

Who may: a volunteer of the club (or the committee of its list) enters
sheets there and corrects or deletes their games (ratings/access.py).
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from accounts.requests import AuthenticatedHttpRequest
from accounts.roles import may_enter_at
from ratings import access, services
from ratings.engine import SYSTEM_LABELS
from ratings.engine.ranks import format_rank
from ratings.entry import confirmation, improbable
from ratings.exchange import clean_name
from ratings.exchange.names import identity_key
from ratings.forms.fields import choices_of
from ratings.forms.sheets import GameEditForm, GameRowForm, SheetHeaderForm, sheet_new_players
from ratings.models import Club, HistoryEntry, Player, RecordSheet
from ratings.names import find, matching
from ratings.presentation.result_changes import ripple_context
from ratings.presentation.tables import unit_of
from ratings.services import SheetError

ROW_KEY = re.compile(r"^row-(\d{1,6})-(?:white|black|winner)$")
#: Rows a new sheet starts with.
START_ROWS = 1
#: The most games one sheet takes (docs/limits.md).  A paper sheet holds a
#: few dozen; a bigger batch is a tournament file (committee import) or
#: several sheets.  Beyond it the sheet is refused whole, never cut short.
MAX_ROWS = 200


def _row_form(n: int, data: Any = None, **kwargs: Any) -> GameRowForm:
    return GameRowForm(data, prefix=f"row-{n}", **kwargs)


def _posted_rows(data: Any) -> list[int]:
    """The row numbers present in a POST, in page order (rows only ever get
    higher numbers as they are added)."""
    return sorted({int(m.group(1)) for key in data if (m := ROW_KEY.match(key))})


def _entry_clubs(request: HttpRequest) -> QuerySet[Club]:
    """The clubs where the user enters sheets; none at all: 403."""
    clubs = access.clubs_for_entry(request.user)
    if not clubs.exists():
        raise PermissionDenied("you are not a volunteer of any club")
    return clubs


def _club_of(request: HttpRequest) -> Club | None:
    """The club a helper request is about (``?club=<id>``), among the user's."""
    clubs = _entry_clubs(request)
    raw = request.GET.get("club", "")
    club = clubs.filter(pk=raw).first() if raw.isdigit() else None
    return club or clubs.first()


@login_required
@require_http_methods(["GET", "POST"])
def sheet_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    clubs = _entry_clubs(request)
    if request.method != "POST":
        # The club this volunteer entered their last sheet at (else their first club).
        last = (
            RecordSheet.objects.filter(entered_by=request.user.pk, club__in=clubs)
            .order_by("-entered_at", "-id")
            .values_list("club", flat=True)
            .first()
        )
        requested = request.GET.get("club", "")
        if requested.isdigit() and clubs.filter(pk=requested).exists():
            last = int(requested)  # "Enter a sheet" from a club's page
        header = SheetHeaderForm(initial={"club": last} if last is not None else None, clubs=clubs)
        rows = [_row_form(n) for n in range(START_ROWS)]
        return _render_sheet_form(request, header, rows)

    access.refuse_choice_outside(clubs, request.POST.get("club"))
    header = SheetHeaderForm(request.POST, clubs=clubs)
    club = date = None
    if header.is_valid():
        club, date = header.cleaned_data["club"], header.cleaned_data["date"]
    elif "club" in header.cleaned_data:
        club = header.cleaned_data["club"]
    numbers = _posted_rows(request.POST)
    earlier_new = sheet_new_players(request.POST, [f"row-{n}" for n in numbers])
    rows = [
        _row_form(n, request.POST, club=club, sheet_date=date, earlier_new=earlier_new, position=position)
        for position, n in enumerate(numbers, start=1)
    ]
    filled = [form for form in rows if not form.is_blank()]
    rows_valid = all(
        [form.is_valid() for form in filled]
    )  # validate every row, not just up to the first bad one
    if not filled:
        header.add_error(None, "enter at least one game")
    elif len(filled) > MAX_ROWS:
        header.add_error(
            None,
            f"this sheet has {len(filled)} games; a sheet holds at most {MAX_ROWS}. "
            f"Remove {len(filled) - MAX_ROWS} and enter them on a second sheet.",
        )
    if not (header.is_valid() and rows_valid and filled):
        return _render_sheet_form(request, header, rows, status=400)
    assert club is not None and date is not None
    game_rows = [form.to_row() for form in filled]
    # A sheet entered twice, improbable results, handicaps off the rule: confirm first.
    checked = confirmation.check(club, date, game_rows, request.POST)
    if checked.repeats:
        return _render_sheet_form(request, header, rows, repeats=checked.repeats)
    flags = checked.flags
    if checked.to_confirm:
        return _render_sheet_form(request, header, rows, flags=improbable.shown(flags, filled, rows))
    try:
        with transaction.atomic():
            sheet = services.save_sheet(
                club=club,
                date=date,
                event=header.cleaned_data["event"],
                kind=header.cleaned_data["kind"],
                comments=header.cleaned_data["comments"],
                rows=game_rows,
                actor=request.user,
            )
            improbable.mark(list(sheet.games.order_by("pk").values_list("pk", flat=True)), flags)
    except SheetError as error:
        for number, fields in error.problems.items():
            target: Any = header if number == 0 else filled[number - 1]
            for name, message in fields.items():
                target.add_error(name if name in target.fields else None, message)
        return _render_sheet_form(request, header, rows, status=400)
    count = len(filled)
    messages.success(request, f"Saved {count} game{'s' if count != 1 else ''}. Ratings will update shortly.")
    return redirect(sheet)


def _render_sheet_form(
    request: HttpRequest,
    header: SheetHeaderForm,
    rows: list[GameRowForm],
    status: int = 200,
    flags: Any = None,
    repeats: list[tuple[int, Any]] | None = None,
) -> HttpResponse:
    club = header.cleaned_data.get("club") if header.is_bound else None
    if club is None:
        clubs = choices_of(header, "club")
        raw = str(header["club"].value() or "")
        club = (clubs.filter(pk=raw).first() if raw.isdigit() else None) or clubs.first()
    # The error summary: (where, field label, message, anchor of the row).
    problems: list[tuple[str, str, str, str]] = []
    if header.is_bound:
        for name, errs in header.errors.items():
            label = header[name].label if name in header.fields else ""
            problems += [("Sheet", str(label), str(e), "sheet-header") for e in errs]
        for position, form in enumerate(rows, start=1):
            for name, errs in form.errors.items():
                label = form[name].label if name in form.fields else ""
                problems += [(f"Game {position}", str(label), str(e), str(form.prefix)) for e in errs]
    context = {
        "header": header,
        "rows": rows,
        "next_row": max((int(str(f.prefix).split("-")[1]) for f in rows), default=-1) + 1,
        "club": club,
        "players": player_options(club),
        "problems": problems,
        "max_rows": MAX_ROWS,
        "improbable": flags,
        "repeats": repeats,
        "sheets": RecordSheet.objects.recent_at(club, 5) if club else [],
    }
    return render(request, "ratings/sheet_new.html", context, status=status)


def player_options(club: Club | None) -> list[tuple[str, str]]:
    """(name as typed, rank) of the active players of the club's list."""
    if club is None:
        return []
    return [(p.display_name, p.rank_label) for p in matching.active_for_entry(club)]


@login_required
@require_GET
def sheet_row(request: AuthenticatedHttpRequest) -> HttpResponse:
    """One more empty game row (htmx), numbered ``n``."""
    _entry_clubs(request)
    raw = request.GET.get("n", "")
    n = int(raw) if raw.isdigit() and int(raw) < 1_000_000 else 0
    return render(request, "ratings/partials/game_row.html", {"form": _row_form(n)})


@login_required
@require_GET
def sheet_players(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The <option>s of the player-name <datalist> for one club's list (htmx)."""
    return render(
        request, "ratings/partials/player_options.html", {"players": player_options(_club_of(request))}
    )


#: How many players the entry type-ahead offers.
SUGGESTIONS = 8


@login_required
@require_GET
def sheet_suggest(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The entry type-ahead: the players of the club's list a name being
    typed (``q``) may mean, closest first (ratings.names: accents, order,
    typos; then recent activity, then the club's members), as the listbox
    static/js/sheet.js shows under the name field ``field``."""
    field = request.GET.get("field", "")
    if re.fullmatch(r"row-\d+-(white|black)|white|black", field) is None:
        return HttpResponse(status=400)
    club = _club_of(request)
    text = request.GET.get("q", "")[:100]
    players = Player.objects.filter(rating_list=club.rating_list_id) if club else Player.objects.none()
    matches = find(players, text, club=club, limit=SUGGESTIONS) if len(text.strip()) >= 2 else []
    context = {
        "field": field,
        "players": [(m.player.display_name, matching.describe(m.player)) for m in matches],
    }
    return render(request, "ratings/partials/player_suggestions.html", context)


@login_required
@require_GET
def sheet_player_check(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Is the name typed in a row's White/Black field a player of the club's list?

    Answers with the player's rank, with the rank a new player was given on
    an earlier row of the sheet (the whole form comes with the request), or
    with the starting-rank field that adds a new player (htmx swaps it in
    beside the name).  A correction's field (``white``, ``black``: no row)
    names players of the list only: no starting rank is offered.
    """
    field = request.GET.get("field", "")
    match = re.fullmatch(r"(?:row-(\d+)-)?(white|black)", field)
    if match is None:
        return HttpResponse(status=400)
    name = request.GET.get(field, "").strip()
    # The name the sheet would save (ratings/forms/sheets.py); a name clean_name
    # refuses is looked up as typed, and the form says what is wrong on saving.
    with contextlib.suppress(ValueError):
        name = clean_name(name)
    club = _club_of(request)
    player = Player.objects.named(club.rating_list_id, name).first() if name and club else None
    similar = matching.alike(club.rating_list_id, name, club=club) if club and name and not player else []
    if match.group(1) is None:
        # A correction's field (no row): players of the list only, no new player.
        found: dict[str, Any] = {"name": name, "player": player, "similar": similar, "club": club}
        return render(request, "ratings/partials/player_status.html", {**found, "existing_only": True})
    numbers = _posted_rows(request.GET)
    row = int(match.group(1))
    new = sheet_new_players(request.GET, [f"row-{n}" for n in numbers if n < row]).get(identity_key(name))
    earlier = (format_rank(new[0]), new[1]) if new and player is None else None
    # The rank typed so far comes back in the field, which keeps its id: htmx
    # then keeps the focus in it when this answer replaces it.
    colour = match.group(2)
    form = _row_form(
        int(match.group(1)),
        initial={
            f"{colour}_rank": request.GET.get(f"{field}_rank", ""),
            f"{colour}_new": bool(request.GET.get(f"{field}_new")),
        },
    )
    context = {
        "name": name,
        "player": player,
        "earlier": earlier,
        "similar": similar,
        "new_field": form[f"{colour}_new"],
        "rank_field": form[f"{colour}_rank"],
        "club": club,
    }
    return render(request, "ratings/partials/player_status.html", context)


def sheet_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A saved record sheet: its games and, once computed, the rating changes."""
    sheet = get_object_or_404(RecordSheet.objects.select_related("club__rating_list", "entered_by"), pk=pk)
    games = list(sheet.games.select_related("white", "black").order_by("date", "entered_at", "id"))
    rating_list = sheet.club.rating_list
    system = rating_list.primary_system
    history = {
        (h.game_id, h.player_id): h
        for h in HistoryEntry.objects.filter(system=system, game__in=games).only(
            "game_id", "player_id", "rank_before", "change", "rank_after", "rating_after"
        )
    }
    rows = [
        {"game": g, "white": history.get((g.pk, g.white_id)), "black": history.get((g.pk, g.black_id))}
        for g in games
    ]
    pending = rating_list.dirty_from is not None and any(g.date >= rating_list.dirty_from for g in games)
    context = {
        "sheet": sheet,
        "rows": rows,
        "system": SYSTEM_LABELS.get(system, system),
        "unit": unit_of(system),
        "pending": pending or any(r["white"] is None for r in rows),
        "can_edit": may_enter_at(request.user, sheet.club_id, sheet.club.rating_list_id),
        # The later results its games changed, rated in their place (entered late).
        **ripple_context(sheet),
    }
    return render(request, "ratings/sheet_detail.html", context)


# --- corrections ---------------------------------------------------------------


#: What a correction must change to be checked again for a repeat, and for
#: an improbable result or a handicap off the rule.
REPEAT_FIELDS = {"date", "white", "black"}
RESULT_FIELDS = {"date", "white", "black", "winner", "handicap", "komi", "forfeit"}


@login_required
@require_http_methods(["GET", "POST"])
def game_edit(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Correct a game: checked as a new sheet's games are (repeats, then
    improbable results and handicaps off the rule) when the correction
    touches what they judge; the reason typed goes into the log."""
    game = access.game_for_editing(request.user, pk)
    form = GameEditForm(request.POST or None, game=game)
    context: dict[str, Any] = {
        "form": form,
        "game": game,
        "club": game.club,
        "players": player_options(game.club),
    }
    if request.method == "POST" and form.is_valid():
        changes = form.changes()
        touched = {name for name in changes if changes[name] != getattr(game, name)}
        checked = confirmation.check(
            game.club,
            game.sheet.date,
            [form.corrected_row()],
            request.POST,
            excluding=game,
            repeats=bool(touched & REPEAT_FIELDS),
            results=bool(touched & RESULT_FIELDS),
        )
        if checked.to_confirm:
            context["repeats"] = checked.repeats
            context["improbable"] = improbable.shown_alone(checked.flags, "game") if checked.flags else None
            return render(request, "ratings/game_edit.html", context)
        try:
            with transaction.atomic():
                changed = services.edit_game(
                    game, actor=request.user, reason=form.cleaned_data["reason"].strip(), **changes
                )
                if touched & RESULT_FIELDS:
                    improbable.mark([game.pk], checked.flags, clear=True)
        except SheetError as error:
            for name, message in error.problems.get(1, {}).items():
                form.add_error(name if name in form.fields else None, message)
        else:
            if changed:
                messages.success(request, f"Corrected {', '.join(changed)}. Ratings will update shortly.")
            else:
                messages.info(request, "Nothing changed.")
            return redirect(game.sheet)
    status = 400 if form.is_bound else 200
    return render(request, "ratings/game_edit.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def game_delete(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    game = access.game_for_editing(request.user, pk)
    if request.method == "POST":
        sheet = game.sheet
        services.delete_game(game, actor=request.user, reason=request.POST.get("reason", "").strip()[:100])
        messages.success(request, "Game deleted. Ratings will update shortly.")
        return redirect(sheet)
    return render(request, "ratings/game_delete.html", {"game": game})
