"""Public pages: the players list, a player's record sheet with its
won/lost totals, the head-to-head of two players; "my sheet"."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from django.contrib.auth.decorators import login_required
from django.core.paginator import EmptyPage, Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django_tables2 import RequestConfig

from accounts.requests import AuthenticatedHttpRequest
from accounts.roles import is_committee_of
from ratings.engine import SYSTEM_LABELS
from ratings.engine.ranks import format_rank
from ratings.exchange.cells import csv_lines
from ratings.models import ChangeNotice, FormerSlug, HistoryEntry, Player, RatingList, player_display_name
from ratings.models.history import ChartRow, PointDetail
from ratings.names import ranked
from ratings.presentation import results
from ratings.presentation.charts import Chart, history_chart
from ratings.presentation.filters import PlayerFilterForm
from ratings.presentation.national import national_links
from ratings.presentation.result_changes import notes_for
from ratings.presentation.sheet_html import sheet_rows_html
from ratings.presentation.tables import (
    PlayerTable,
    number,
    per_system_ratings,
    sheet_headers,
    sheet_lines,
    sheet_rows,
    signed,
    unit_of,
)

PLAYERS_PER_PAGE = 50
MAX_PLAYERS_PER_PAGE = 500
SHEET_ROWS_PER_PAGE = 50


def csv_response(filename: str, rows: Iterable[Iterable[object]]) -> StreamingHttpResponse:
    """A CSV download written as it is sent, every cell safe from spreadsheet
    formulas (ratings/exchange/cells.py)."""
    response = StreamingHttpResponse(csv_lines(rows), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def get_player(slug: str) -> Player:
    """The player of a public page (record sheets are public: no check)."""
    return get_object_or_404(Player.objects.select_related("rating_list", "home_club"), slug=slug)


def get_system_of(rating_list: RatingList, requested: str | None) -> str:
    """The system whose history to show: the list's primary one unless
    ``?system=`` names another system the list computes (404 otherwise)."""
    if not requested:
        return rating_list.primary_system
    if requested not in rating_list.systems:
        raise Http404(f"{rating_list} does not compute {requested!r}")
    return requested


def player_list(request: HttpRequest) -> HttpResponseBase:
    form = PlayerFilterForm(request.GET or None)
    players = Player.objects.for_table()
    lists = RatingList.objects.all()
    if form.is_valid():
        data = form.cleaned_data
        players = players.in_list(data.get("list"))
        if data.get("list") is not None:
            lists = lists.filter(pk=data["list"].pk)
        if data["club"] is not None:
            players = players.filter(home_club=data["club"])
            lists = lists.filter(pk=data["club"].rating_list_id)
        if data["q"].strip():
            # Closest first (ratings.names); a column's heading sorts otherwise.
            players = ranked(players, data["q"])
    systems = sorted(
        set(lists.order_by().values_list("primary_system", flat=True)),
        key=lambda name: SYSTEM_LABELS.get(name, name),
    )
    if len(systems) > 1:
        players = per_system_ratings(players, systems)
    clubs = players.order_by().values_list("home_club", flat=True).distinct()
    # One club shown: a phone can drop the club column (static/css/site.css).
    one_club = "one-club" if clubs.count() == 1 else "several-clubs"
    table = PlayerTable(players, systems=systems or ["sagc"], attrs={"class": f"data players {one_club}"})
    RequestConfig(request, paginate=False).configure(table)  # sorting from ?sort=
    paginate(table, request)
    if request.GET.get("export") == "csv":
        return csv_response("players.csv", table.as_values())
    return render(
        request,
        "ratings/player_list.html",
        {"table": table, "form": form, "rows": player_rows(table), "table_class": f"data players {one_club}"},
    )


def bounded_number(text: str | None, default: int, top: int) -> int:
    """A whole number from 1 to ``top`` given in a query parameter, else ``default``
    (junk such as ``per_page=-5`` or ``page=1e9`` shows the ordinary page)."""
    text = (text or "").strip()
    return int(text) if text.isdigit() and 1 <= int(text) <= top else default


def paginate(table: PlayerTable, request: HttpRequest) -> None:
    """?page= and ?per_page= (1 to MAX_PLAYERS_PER_PAGE); a page past the end shows the last."""
    per_page = bounded_number(request.GET.get("per_page"), PLAYERS_PER_PAGE, MAX_PLAYERS_PER_PAGE)
    try:
        table.paginate(page=bounded_number(request.GET.get("page"), 1, 10**9), per_page=per_page)
    except EmptyPage:
        table.paginate(page=table.paginator.num_pages, per_page=per_page)


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """One line of the players list, formatted as PlayerTable renders it."""

    url: str
    name: str
    club: str
    rank: str
    #: The rating in each of the table's rating columns (one a system shown).
    ratings: tuple[str, ...]
    games_count: int
    last_updated: str


def player_rows(table: PlayerTable) -> list[PlayerRow]:
    """The page's rows, formatted here rather than cell by cell through
    django-tables2's row and column machinery, which took about nine tenths
    of the request (50 rows x 6 cells, each a column lookup, a signature
    inspection and a small template render).  The table still sorts,
    paginates and exports; only the body of the page is written by
    templates/ratings/player_list.html.  Same text as the table's cells:
    a missing date is the table's default dash."""
    rows = []
    for bound in table.page.object_list:
        player: Player = bound.record
        rows.append(
            PlayerRow(
                url=player.get_absolute_url(),
                name=player.display_name,
                club=player.home_club.name if player.home_club else "",
                rank=format_rank(player.rank),
                ratings=tuple(number(getattr(player, name)) for name in table.rating_columns),
                games_count=player.games_count,
                last_updated=player.last_updated.strftime("%Y-%m-%d") if player.last_updated else "—",
            )
        )
    return rows


def player_detail(request: HttpRequest, slug: str) -> HttpResponseBase:
    former = FormerSlug.objects.filter(slug=slug).select_related("player").first()
    if former is not None and not Player.objects.filter(slug=slug).exists():
        # A renamed or merged player's old address.
        query = f"?{request.GET.urlencode()}" if request.GET else ""
        return redirect(former.player.get_absolute_url() + query, permanent=True)
    player = get_player(slug)
    system = get_system_of(player.rating_list, request.GET.get("system"))
    entries = HistoryEntry.objects.for_sheet(player, system).with_opponent_rank()
    headers = sheet_headers(system)
    if request.GET.get("export") == "csv":
        rows = (row.cells() for row in sheet_rows(entries, player))
        return csv_response(f"{player.slug}-{system}.csv", [headers, *rows])
    # The page's place in the sheet first (seq numbers only, newest first,
    # from the charts' rows, which are every row of every system), then its
    # rows with their joins: joining before the LIMIT made the database join
    # every row of a long sheet whenever its statistics were stale (a
    # freshly rewritten history on PostgreSQL).
    history = chart_rows(player, player.rating_list.systems)
    seqs = [row[1] for row in reversed(history[system])]
    page = Paginator(seqs, SHEET_ROWS_PER_PAGE).get_page(request.GET.get("page"))
    shown = list(entries.filter(seq__in=list(page.object_list)))
    # A row whose result a late game changed: its latest change, noted.
    notes = notes_for(player, system, shown)
    lines = [
        replace(line, ripple=note)
        for line, note in zip(sheet_lines(sheet_rows(shown, player), player), notes, strict=True)
    ]
    return render(
        request,
        "ratings/player_detail.html",
        {
            "player": player,
            "system": system,
            "system_label": SYSTEM_LABELS.get(system, system),
            "systems": [(name, SYSTEM_LABELS.get(name, name)) for name in player.rating_list.systems],
            "headers": headers,
            "unit": unit_of(system),
            "page": page,
            "rows": lines,
            "rows_html": sheet_rows_html(lines, headers, unit_of(system)),
            "charts": [
                (name, SYSTEM_LABELS.get(name, name), chart)
                for name, chart in rating_charts(player, history)
                if chart is not None and chart.count > 1
            ],
            "totals": results.totals(player, timezone.localdate()),
            "national_links": national_links(player),
            "own": request.user.is_authenticated and player.user_id == request.user.pk,
            "notices_on": player.user_id is not None
            and player.user_id == request.user.pk
            and ChangeNotice.objects.filter(player=player, active=True).exists(),
            "can_manage": is_committee_of(request.user, player.rating_list_id),
        },
    )


def chart_rows(player: Player, systems: list[str]) -> dict[str, list[ChartRow]]:
    """The player's rows of each system, oldest first, from one query."""
    rows: dict[str, list[ChartRow]] = {name: [] for name in systems}
    for row in HistoryEntry.objects.for_charts(player, systems):
        rows[row[0]].append(row)
    return rows


def rating_charts(player: Player, rows: dict[str, list[ChartRow]]) -> list[tuple[str, Chart | None]]:
    """The history chart of each system of ``rows`` (:func:`chart_rows`):
    SAGC plots rank + index / 2000 (the index runs from -999 to +999 inside
    a rank, so a rank's band is one unit tall and a promotion does not look
    like a fall to 0); other systems plot their own rating (GoR, level).
    Each point says on hover the game or adjustment behind it: those games
    are read for the marked points only, one query a system."""
    charts: list[tuple[str, Chart | None]] = []
    for system, points in rows.items():

        def titles(indices: list[int], points: list[ChartRow] = points, system: str = system) -> list[str]:
            details = HistoryEntry.objects.point_details(player, system, [points[i][1] for i in indices])
            return [point_title(points[i], details[points[i][1]], system) for i in indices]

        if system == "sagc":
            chart = history_chart(
                [(row[2], row[3] + row[4] / 2000) for row in points],
                label=lambda v: format_rank(round(v)),
                whole_ticks=True,
                step_when=lambda before, after: round(before) != round(after),  # a rank change
                titles=titles,
            )
        else:
            # Whole numbers on the axis: "1720" fits the margin, "1719.674" does not.
            chart = history_chart(
                [(row[2], row[4]) for row in points], label=lambda v: f"{v:.0f}", titles=titles
            )
        charts.append((system, chart))
    return charts


def point_title(row: ChartRow, detail: PointDetail, system: str) -> str:
    """ "2024-03-05: won against Bob Nel (+12.5), 3k 450" """
    _, _, day, rank, rating = row
    change, opponent, suffix, colour, winner = detail
    if opponent is None:
        what = "rank adjustment"
    else:
        result = "jigo" if winner == "jigo" else ("won" if (winner == "white") == (colour == "w") else "lost")
        what = f"{result} against {player_display_name(opponent, suffix or '')}"
    return f"{day:%Y-%m-%d}: {what} ({signed(change) or '0'}), {format_rank(rank)} {number(rating)} {unit_of(system)}"


@login_required
def my_sheet(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The user's record sheet; when they play in several lists, the choice."""
    players = list(Player.objects.filter(user=request.user).select_related("rating_list"))
    if not players:
        return render(request, "ratings/not_linked.html", status=404)
    if len(players) == 1:
        return redirect(players[0])
    return render(request, "ratings/my_sheets.html", {"players": players})


def head_to_head(request: HttpRequest, slug: str, other: str) -> HttpResponse:
    """Two players of one list: every game between them, the score, by colour and handicap."""
    one, two = get_player(slug), get_player(other)
    if one.rating_list_id != two.rating_list_id or one.pk == two.pk:
        raise Http404("Head-to-head is between two players of one list")
    return render(request, "ratings/head_to_head.html", {"h2h": results.head_to_head(one, two)})
