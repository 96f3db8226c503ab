"""The record sheet page /players/<slug>/ (the SAGC FAQ, "What are the columns in
my record sheet?"): the 12 columns, their values against the SAGC engine,
adjustments, order, CSV, system switch, chart, pagination."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest
from django.db.models import Q
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from ratings.engine.ranks import format_rank
from ratings.models import Club, Game, HistoryEntry, Kind, Player, RankAdjustment, RecordSheet
from ratings.presentation.tables import STATUS_FACTOR
from tests.support import ClientFor, MakePlayer

SAGC_FAQ_COLUMNS = [
    "Opponent",
    "Opponent's rank",
    "Colour",
    "Handicap",
    "Komi",
    "Winner's colour",
    "Game status factor",
    "Change in index",
    "New index",
    "New rank",
    "Date",
    "Comments",
]


def at(day: date, hour: int = 20) -> datetime:
    return datetime(day.year, day.month, day.day, hour, tzinfo=UTC)


def add_game(
    club: Club,
    white: Player,
    black: Player,
    day: date,
    *,
    winner: str = "white",
    handicap: int = 0,
    komi: str = "6.5",
    kind: str = "club",
    entered: date | None = None,
    comments: str = "",
) -> Game:
    entered_at = at(entered or day + timedelta(days=1))
    sheet = RecordSheet.objects.create(club=club, date=day, kind=kind, entered_at=entered_at)
    return Game.objects.create(
        club=club,
        sheet=sheet,
        date=day,
        white=white,
        black=black,
        winner=winner,
        handicap=handicap,
        komi=Decimal(komi),
        kind=kind,
        entered_at=entered_at,
        comments=comments,
    )


def sheet_table_of(html: str) -> str:
    return html.split('<table class="data sheet">')[1].split("</table>")[0]


def recompute(club: Club) -> None:
    from ratings.recompute import recompute_list

    recompute_list(club.rating_list_id, full=True)


def sheet_csv(client: Client, player: Player, **params: str) -> list[list[str]]:
    response = client.get(reverse("player", args=[player.slug]), {"export": "csv", **params})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(response.getvalue().decode())))


@pytest.fixture
def history(club: Club, other_club: Club, make_player: MakePlayer) -> dict[str, Any]:
    """Three players, games of every kind, one entered late and dated before
    the others, one played at another club of the list (Cat's home club),
    and a committee adjustment."""
    ann = make_player("Ann", rank=-10)
    bob = make_player("Bob", rank=-12)
    cat = make_player("Cat", rank=-15, club=other_club)
    games = [
        add_game(club, ann, bob, date(2024, 3, 5), winner="black", handicap=2, komi="0.5"),
        add_game(
            club, ann, cat, date(2024, 3, 12), winner="white", handicap=5, komi="0.5", kind="tournament"
        ),
        add_game(club, ann, bob, date(2024, 3, 14), winner="white", kind="free", comments="teaching"),
        # Entered on 20 March, played on 1 March: first in the timeline.
        add_game(
            club,
            bob,
            cat,
            date(2024, 3, 1),
            winner="black",
            handicap=3,
            komi="0.5",
            kind="internet",
            entered=date(2024, 3, 20),
        ),
        add_game(
            other_club, cat, ann, date(2024, 3, 19), winner="white", komi="-5.5", entered=date(2024, 3, 19)
        ),
    ]
    adjustment = RankAdjustment.objects.create(
        rating_list=club.rating_list,
        player=bob,
        date=date(2024, 3, 10),
        rank=-11,
        reason="SAGA sync",
        entered_at=at(date(2024, 3, 10)),
    )
    recompute(club)
    return {"players": (ann, bob, cat), "games": games, "adjustment": adjustment}


def expected_rows(history: dict[str, Any], player: Player) -> list[list[str]]:
    """The 12 columns computed by running the SAGC engine on the same events,
    in timeline order (date, then entry order), newest first."""
    from ratings.engine import base, sagc, sagc_rules

    ann, bob, cat = history["players"]
    # (timeline key, engine event, the stored Game or RankAdjustment)
    events: list[tuple[tuple[Any, ...], base.Game | base.Adjustment, Any]] = []
    for g in history["games"]:
        played = base.Game(
            date=g.date,
            white=g.white_id,
            black=g.black_id,
            winner=base.Winner(g.winner),
            handicap=g.handicap,
            komi=float(g.komi),
            kind=base.Kind(g.kind),
            club=g.club.slug,
        )
        events.append(((g.date, g.entered_at, 0, g.pk), played, g))
    a = history["adjustment"]
    events.append(((a.date, a.entered_at, 1, a.pk), base.Adjustment(a.date, a.player_id, a.rank), a))
    events.sort(key=lambda item: item[0])
    starts = {p.pk: base.Start(rank=p.start_rank) for p in (ann, bob, cat)}
    ledger = sagc.SAGC().rate([e for _, e, _ in events], starts=starts).ledger
    names = {p.pk: p.name for p in (ann, bob, cat)}
    rows = []
    for i, (_, event, obj) in enumerate(events):
        if isinstance(event, base.Adjustment):
            if event.player != player.pk:
                continue
            row = ledger.row(i, base.WHITE)
            assert row is not None
            rows.append(
                [
                    player.name,
                    format_rank(row.rank_before),
                    "",
                    "",
                    "",
                    "",
                    "",
                    _signed(row.change),
                    f"{row.rating_after:.0f}",
                    format_rank(row.rank_after),
                    event.date.isoformat(),
                    obj.reason,
                ]
            )
            continue
        if player.pk not in (event.white, event.black):
            continue
        mine = base.WHITE if event.white == player.pk else base.BLACK
        row, other = ledger.row(i, mine), ledger.row(i, 1 - mine)
        assert row is not None and other is not None
        opponent = event.black if mine == base.WHITE else event.white
        rows.append(
            [
                names[opponent],
                format_rank(other.rank_before),
                "White" if mine == base.WHITE else "Black",
                str(event.handicap),
                f"{event.komi:g}",
                {"white": "White", "black": "Black"}[event.winner.value],
                f"{sagc_rules.STATUS_FACTOR[event.kind]:g}",
                _signed(row.change),
                f"{row.rating_after:.0f}",
                format_rank(row.rank_after),
                event.date.isoformat(),
                obj.comments,
            ]
        )
    return rows[::-1]


def _signed(change: float) -> str:
    return "0" if change == 0 else f"{int(change):+d}"


def test_it_shows_exactly_the_12_columns_of_the_sagc_faq_in_order(
    client: Client, history: dict[str, Any]
) -> None:
    ann = history["players"][0]
    html = client.get(reverse("player", args=[ann.slug])).content.decode()
    headers = re.findall(r'<th scope="col">(.*?)</th>', html.split('class="data sheet"')[1])
    assert [h.replace("&#x27;", "'") for h in headers] == SAGC_FAQ_COLUMNS
    assert sheet_csv(client, ann)[0] == SAGC_FAQ_COLUMNS


@pytest.mark.parametrize("who", [0, 1, 2])
def test_its_values_are_those_the_sagc_engine_gives(
    client: Client, history: dict[str, Any], who: int
) -> None:
    player = history["players"][who]
    assert sheet_csv(client, player)[1:] == expected_rows(history, player)


def test_an_adjustment_row_shows_the_players_own_name_as_opponent(
    client: Client, history: dict[str, Any]
) -> None:
    bob = history["players"][1]
    rows = sheet_csv(client, bob)[1:]
    adjustment_rows = [row for row in rows if row[10] == "2024-03-10"]
    assert len(adjustment_rows) == 1
    assert adjustment_rows[0][0] == "Bob"
    assert adjustment_rows[0][9] == "11k"
    assert adjustment_rows[0][11] == "SAGA sync"


def test_it_lists_the_newest_game_first_even_when_entered_late(
    client: Client, history: dict[str, Any]
) -> None:
    bob = history["players"][1]
    dates = [row[10] for row in sheet_csv(client, bob)[1:]]
    assert dates == sorted(dates, reverse=True)
    assert dates[-1] == "2024-03-01"  # entered last, played first


def test_the_opponents_rank_is_the_one_at_the_time_of_the_game(
    client: Client, club: Club, make_player: MakePlayer
) -> None:
    ann, bob = make_player("Ann", rank=-10), make_player("Bob", rank=-10)
    add_game(club, ann, bob, date(2024, 1, 9))
    RankAdjustment.objects.create(
        rating_list=club.rating_list,
        player=bob,
        date=date(2024, 2, 1),
        rank=-5,
        entered_at=at(date(2024, 2, 1)),
    )
    add_game(club, ann, bob, date(2024, 3, 5), handicap=5, komi="0.5", winner="black")
    recompute(club)
    rows = sheet_csv(client, ann)[1:]
    assert [(row[10], row[1]) for row in rows] == [("2024-03-05", "5k"), ("2024-01-09", "10k")]


def test_it_exports_csv_with_the_players_slug_in_the_file_name(
    client: Client, history: dict[str, Any]
) -> None:
    ann = history["players"][0]
    response = client.get(reverse("player", args=[ann.slug]), {"export": "csv"})
    assert 'filename="ann-sagc.csv"' in response["Content-Disposition"]


def test_it_shows_another_computed_system_on_request(
    client: Client, club: Club, history: dict[str, Any]
) -> None:
    ann = history["players"][0]
    HistoryEntry.objects.create(
        rating_list=club.rating_list,
        system="egf",
        seq=99,
        date=date(2024, 3, 5),
        player=ann,
        game=history["games"][0],
        colour="w",
        opponent=history["players"][1],
        rank_before=-10,
        rating_before=1100,
        change=-12.5,
        rank_after=-10,
        rating_after=1087.5,
    )
    club.rating_list.compared_systems = ["egf"]
    club.rating_list.save()
    rows = sheet_csv(client, ann, system="egf")
    assert rows[0][7] == "Change in GoR"
    assert [row[7:9] for row in rows[1:]] == [["-12.5", "1087.5"]]
    page = client.get(reverse("player", args=[ann.slug]), {"system": "egf"}).content.decode()
    assert "EGF GoR" in page


def test_it_refuses_a_system_the_list_does_not_compute(client: Client, history: dict[str, Any]) -> None:
    ann = history["players"][0]
    assert client.get(reverse("player", args=[ann.slug]), {"system": "ffg"}).status_code == 404


def test_it_is_404_for_an_unknown_player(client: Client, db: None) -> None:
    assert client.get(reverse("player", args=["nobody"])).status_code == 404


@pytest.mark.parametrize("role", ["anonymous", "player", "volunteer", "committee"])
def test_every_role_can_read_a_record_sheet(
    client_for: ClientFor, history: dict[str, Any], role: str
) -> None:
    ann = history["players"][0]
    response = client_for(role).get(reverse("player", args=[ann.slug]))
    assert response.status_code == 200
    assert b"<svg" in response.content  # the rating-history chart


def test_a_player_without_games_has_an_empty_sheet_and_no_chart(
    client: Client, make_player: MakePlayer
) -> None:
    lone = make_player("Lone Wolf")
    response = client.get(reverse("player", args=[lone.slug]))
    assert response.status_code == 200
    assert b"No games yet" in response.content
    assert b"<svg" not in response.content


def test_a_long_sheet_is_paginated(client: Client, club: Club, make_player: MakePlayer) -> None:
    ann, bob = make_player("Ann"), make_player("Bob")
    for i in range(60):
        add_game(club, ann, bob, date(2023, 1, 1) + timedelta(days=i), winner="white" if i % 2 else "black")
    recompute(club)
    url = reverse("player", args=[ann.slug])
    first, second = client.get(url).content.decode(), client.get(url, {"page": 2}).content.decode()
    # header row + 50, header + 10
    assert sheet_table_of(first).count("<tr") == 51 and sheet_table_of(second).count("<tr") == 11
    assert "2023-03-01" in first and "2023-01-01" in second
    assert len(sheet_csv(client, ann)) == 61  # the export has every row
    # The links carry one "?" ({% querystring %} writes its own): "??page=2"
    # would send the browser back to page 1.
    assert 'href="?page=2" rel="next"' in first
    assert 'href="?page=1" rel="prev"' in second
    assert 'href="?page=2&amp;export=csv"' not in second and 'href="?export=csv"' in second


def test_the_sheet_takes_a_fixed_number_of_queries(
    client: Client, club: Club, make_player: MakePlayer, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    players = [make_player(f"P{i}") for i in range(6)]
    for i in range(30):
        add_game(club, players[i % 6], players[(i + 1) % 6], date(2023, 1, 1) + timedelta(days=i))
    recompute(club)
    with django_assert_max_num_queries(9):  # 8, and the won/lost totals
        assert client.get(reverse("player", args=[players[0].slug])).status_code == 200


def test_the_status_factors_agree_with_the_engine() -> None:
    from ratings.engine import base, sagc_rules

    assert {kind: STATUS_FACTOR[kind] for kind in Kind.values} == {
        k.value: v for k, v in sagc_rules.STATUS_FACTOR.items() if isinstance(k, base.Kind)
    }


def test_the_chart_spaces_points_by_real_dates() -> None:
    from ratings.presentation.charts import history_chart

    chart = history_chart([(date(2024, 1, 1), 0.0), (date(2024, 1, 2), 10.0), (date(2024, 1, 31), 5.0)])
    assert chart is not None
    xs = [float(point.split(",")[0]) for point in chart.points.split()]
    # A day after the first game is 1/30 of the way; the last is at the right edge.
    assert (xs[1] - xs[0]) / (xs[2] - xs[0]) == pytest.approx(1 / 30, abs=0.002)
    ys = [float(point.split(",")[1]) for point in chart.points.split()]
    assert ys[1] < ys[2] < ys[0]  # higher values are drawn higher up (smaller y)


def test_the_chart_keeps_the_last_value_of_a_day_and_thins_long_histories() -> None:
    from ratings.presentation.charts import MAX_POINTS, history_chart, thin

    assert thin([(date(2024, 1, 1), 1.0), (date(2024, 1, 1), 2.0)]) == [(date(2024, 1, 1), 2.0)]
    many = [(date(2020, 1, 1) + timedelta(days=i), float(i)) for i in range(2000)]
    kept = thin(many)
    assert len(kept) == MAX_POINTS and kept[0] == many[0] and kept[-1] == many[-1]
    assert history_chart([]) is None


def test_each_game_dates_links_to_the_sheet_it_was_entered_on(
    client: Client, history: dict[str, Any]
) -> None:
    ann = history["players"][0]
    html = client.get(reverse("player", args=[ann.slug])).content.decode()
    table = html.split('class="data sheet"')[1]
    linked = re.findall(r'<td[^>]*><a href="/sheets/(\d+)/"[^>]*>(\d{4}-\d\d-\d\d)</a></td>', table)
    games = Game.objects.filter(Q(white=ann) | Q(black=ann))
    assert {g.club.slug for g in games} == {"stellenbosch", "cape-town"}  # one sheet, both clubs' games
    assert sorted(linked) == sorted((str(g.sheet_id), g.date.isoformat()) for g in games)


def test_a_single_date_of_games_draws_no_empty_chart(
    client: Client, club: Club, make_player: MakePlayer
) -> None:
    from ratings import services
    from ratings.recompute import recompute_list

    ann, bob = make_player("Ann One", rank=-10), make_player("Bob One", rank=-10)
    rows = [
        services.GameRow(white=ann, black=bob, winner="white"),
        services.GameRow(white=bob, black=ann, winner="white"),
    ]
    services.save_sheet(club=club, date=date(2024, 3, 5), rows=rows)
    recompute_list(club.rating_list_id, full=True)
    html = client.get(reverse("player", args=[ann.slug])).content.decode()
    assert "Bob One" in html  # the sheet is there
    assert "<svg" not in html  # a chart of one date would be an empty box


def test_an_opponent_is_named_with_the_suffix_that_tells_them_apart(
    client: Client, club: Club, make_player: MakePlayer
) -> None:
    ann = make_player("Ann", rank=-10)
    make_player("Sam Dube", rank=-10)
    junior = make_player("Sam Dube", rank=-10, slug="sam-dube-jr", suffix="junior")
    add_game(club, ann, junior, date(2024, 3, 5))
    recompute(club)
    assert sheet_csv(client, ann)[1][0] == "Sam Dube (junior)"
    html = client.get(reverse("player", args=[ann.slug])).content.decode()
    assert ">Sam Dube (junior)</a>" in html


def test_the_rows_links_are_what_reverse_makes(db: None) -> None:
    # Each pattern reversed once a page and filled in per row (tables.Links).
    from ratings.presentation.tables import Links

    links = Links()
    cases: list[tuple[str, list[object]]] = [
        ("game", [7]),
        ("game", [123456]),
        ("sheet", [987654321]),
        ("event", [1]),
        ("adjustment", [40]),
        ("player", ["ann-botha"]),
        ("player", ["slug"]),
        ("head_to_head", ["ann-botha", "bob-nel"]),
        ("head_to_head", ["ann-botha", "cat"]),
        ("head_to_head", ["987654321", "987654321"]),
    ]
    for name, args in cases:
        assert links.to(name, args[-1], *args[:-1]) == reverse(name, args=args), (name, args)


# The record sheet's rows as templates/ratings/player_detail.html wrote them
# before ratings/presentation/sheet_html.py wrote them in Python.
FORMER_ROWS = """  {% for row in rows %}
    <tr{% if row.adjustment %} class="adjustment{% if row.ripple %} changed{% endif %}"{% elif row.ripple %} class="changed"{% endif %}>
      <td class="name">{% if row.opponent_url %}<a href="{{ row.opponent_url }}">{{ row.opponent }}</a>{% if row.versus_url %} <a class="versus" href="{{ row.versus_url }}" title="Every game against {{ row.opponent }}">h2h</a>{% endif %}{% else %}{{ row.opponent }}{% endif %}<button type="button" class="row-more" aria-expanded="false" aria-label="All columns: {{ row.opponent }}, {{ row.date }}">More</button></td>
      <td class="opt" data-label="{{ headers.1 }}">{{ row.opponent_rank }}</td><td class="opt" data-label="{{ headers.2 }}">{{ row.colour }}</td><td class="opt" data-label="{{ headers.3 }}">{{ row.handicap }}</td><td class="opt" data-label="{{ headers.4 }}">{{ row.komi }}</td><td data-label="{{ headers.5 }}">{{ row.winner }}</td><td class="opt" data-label="{{ headers.6 }}">{{ row.status_factor }}</td>{% if row.ripple %}<td class="ripple-changed" title="{{ row.ripple }}" data-label="{{ headers.7 }}">{% else %}<td data-label="{{ headers.7 }}">{% endif %}{% if row.sheet_url and row.explained_url %}<a href="{{ row.explained_url }}" title="How this change was computed">{{ row.change }}</a>{% else %}{{ row.change }}{% endif %}</td><td class="opt" data-label="{{ headers.8 }}">{{ row.new_index }}</td><td data-label="{{ headers.9 }}">{{ row.new_rank }}</td>{% if row.sheet_url %}<td data-label="{{ headers.10 }}"><a href="{{ row.sheet_url }}" title="The record sheet this game was entered on">{{ row.date }}</a></td>{% elif row.explained_url %}<td data-label="{{ headers.10 }}"><a href="{{ row.explained_url }}" title="What this adjustment did, and why">{{ row.date }}</a></td>{% else %}<td data-label="{{ headers.10 }}">{{ row.date }}</td>{% endif %}<td class="opt comments" data-label="{{ headers.11 }}">{% if row.event_url %}<a class="versus" href="{{ row.event_url }}" title="The event: its crosstable and everyone's rating change">event</a> {% endif %}{{ row.comments }}</td>
    </tr>
    {% if row.ripple %}<tr class="ripple-note"><td colspan="12"><span class="ripple-mark">*</span> {{ row.ripple }}: change {{ row.ripple.change }}, {{ unit }} {{ row.ripple.rating }}, rank {{ row.ripple.rank }}</td></tr>{% endif %}
  {% endfor %}"""


def test_the_rows_written_in_python_are_what_the_template_wrote(db: None) -> None:
    from django.template import engines

    from ratings.presentation.sheet_html import sheet_rows_html
    from ratings.presentation.tables import SHEET_HEADERS, Note, SheetLine

    note = Note("3 March 2026", "a game of 1 March <2026> was entered late", "+1 → +2", "5 → 6", "3k → 2k")
    plain = SheetLine(
        adjustment=False,
        opponent='Bob "B" <Nel> & co',
        opponent_url="/players/bob/",
        opponent_rank="3k",
        colour="White",
        handicap="0",
        komi="6.5",
        winner="White",
        status_factor="1",
        change="+12.5",
        new_index="450",
        new_rank="3k",
        date="2026-03-05",
        sheet_url="/sheets/4/",
        comments="it's <b>",
        explained_url="/games/9/",
        versus_url="/players/ann/vs/bob/",
        event_url="/events/4/",
    )
    lines = [
        plain,
        replace(plain, ripple=note),
        replace(plain, versus_url="", event_url="", sheet_url="", explained_url=""),
        replace(plain, opponent_url="", sheet_url="", event_url=""),
        replace(plain, adjustment=True, opponent_url="", sheet_url="", event_url="", change="demoted 1 rank"),
        replace(plain, adjustment=True, opponent_url="", sheet_url="", event_url="", ripple=note),
    ]
    headers = tuple(h.replace("index", "GoR") for h in SHEET_HEADERS)
    former = (
        engines["django"].from_string(FORMER_ROWS).render({"rows": lines, "headers": headers, "unit": "GoR"})
    )
    assert "<b>" not in former and str(sheet_rows_html(lines, headers, "GoR")) == former[len("  ") :]
