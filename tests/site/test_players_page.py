"""The players list /players/: public, sortable, paginated, searchable by
name, filterable by list and home club, exportable as CSV, in a fixed number of queries."""

from __future__ import annotations

import csv
import io
import re
from datetime import date

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from ratings.models import Club, Player, RatingList
from tests.support import ClientFor, MakePlayer, make_pool


def names_on(html: str) -> list[str]:
    return re.findall(r'<td class="name">\s*<a href="/players/[^"]+/">([^<]+)</a>', html)


def cells_of(row: str) -> list[str]:
    return [c.strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]


def headers_on(html: str) -> list[str]:
    return re.findall(r'<th[^>]*>\s*<a href="\?[^"]*sort=[^"]*">([^<]+)</a>', html)


@pytest.fixture
def players(club: Club, other_club: Club, make_player: MakePlayer) -> dict[str, Player]:
    """Three players at home in Stellenbosch, one in Cape Town: one list."""
    return {
        "ann": make_player("Ann Botha", rank=-3, rating=450, games_count=12, last_updated=date(2024, 5, 1)),
        "bob": make_player("Bob Nel", rank=-3, rating=-20, games_count=3),
        "cat": make_player("Cat Smit", rank=1, rating=0, games_count=40),
        "dan": make_player("Dan Venter", rank=-20, rating=900, club=other_club),
    }


@pytest.mark.parametrize("role", ["anonymous", "player", "volunteer", "committee"])
def test_it_is_public(client_for: ClientFor, players: dict[str, Player], role: str) -> None:
    response = client_for(role).get(reverse("players"))
    assert response.status_code == 200
    assert "Ann Botha" in response.content.decode()


def test_it_shows_name_club_rank_index_games_and_last_updated(
    client: Client, players: dict[str, Player]
) -> None:
    html = client.get(reverse("players")).content.decode()
    assert headers_on(html) == ["Name", "Club", "Rank", "Index", "Games", "Last updated"]
    row = html[html.index(">Ann Botha<") :].split("</tr>")[0]
    cells = [c.strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
    assert cells == ["Stellenbosch Go Club", "3k", "450", "12", "2024-05-01"]


@pytest.mark.parametrize(
    ("system", "header"), [("sagc", "Index"), ("egf", "GoR"), ("ffg", "Level"), ("west-surrey", "Strength")]
)
def test_it_names_the_rating_column_after_the_lists_primary_system(
    client: Client, players: dict[str, Player], system: str, header: str
) -> None:
    RatingList.objects.update(primary_system=system)
    html = client.get(reverse("players")).content.decode()
    assert headers_on(html)[3] == header
    rows = list(
        csv.reader(io.StringIO(client.get(reverse("players"), {"export": "csv"}).getvalue().decode()))
    )
    assert rows[0][3] == header


def test_lists_of_different_systems_get_a_column_each_never_one_mixed_column(
    client: Client, players: dict[str, Player], make_player: MakePlayer
) -> None:
    ladder = make_pool(name="Guildford Ladder", slug="guildford", primary_system="west-surrey")
    make_player("Eve Ladder", club=ladder, rank=1.6, rating=2.6)
    html = client.get(reverse("players")).content.decode()
    headers = headers_on(html)
    assert headers == [
        "Name",
        "Club",
        "Rank",
        "South African Go Clubs index",
        "West Surrey club ladder strength",
        "Games",
        "Last updated",
    ]
    eve = html[html.index(">Eve Ladder<") :].split("</tr>")[0]
    ann = html[html.index(">Ann Botha<") :].split("</tr>")[0]
    assert cells_of(eve)[2:4] == ["", "2.6"] and cells_of(ann)[2:4] == ["450", ""]
    rows = list(
        csv.reader(io.StringIO(client.get(reverse("players"), {"export": "csv"}).getvalue().decode()))
    )
    assert rows[0][3:5] == headers[3:5]
    by_name = {row[0]: row for row in rows[1:]}
    assert by_name["Eve Ladder"][3:5] == ["", "2.6"] and by_name["Ann Botha"][3:5] == ["450", ""]
    # Each column sorts its own system's players only, the others after them.
    html = client.get(reverse("players"), {"sort": "-rating_west_surrey"}).content.decode()
    assert names_on(html)[0] == "Eve Ladder"
    html = client.get(reverse("players"), {"sort": "rating_west_surrey"}).content.decode()
    assert names_on(html)[0] == "Eve Ladder"
    html = client.get(reverse("players"), {"sort": "-rating_sagc"}).content.decode()
    assert names_on(html) == ["Dan Venter", "Ann Botha", "Cat Smit", "Bob Nel", "Eve Ladder"]
    html = client.get(reverse("players"), {"list": "guildford"}).content.decode()
    assert headers_on(html)[3] == "Strength" and names_on(html) == ["Eve Ladder"]
    html = client.get(reverse("players"), {"club": "guildford"}).content.decode()
    assert headers_on(html)[3] == "Strength"
    html = client.get(reverse("players"), {"club": "stellenbosch"}).content.decode()
    assert headers_on(html)[3] == "Index"


def test_it_filters_by_list_once_the_site_has_several(
    client: Client, players: dict[str, Player], make_player: MakePlayer
) -> None:
    assert 'name="list"' not in client.get(reverse("players")).content.decode()  # one list: no choice
    make_player("Eve Ladder", club=make_pool(name="Guildford Ladder", slug="guildford"))
    html = client.get(reverse("players"), {"list": "sagc"}).content.decode()
    assert 'name="list"' in html
    assert sorted(names_on(html)) == ["Ann Botha", "Bob Nel", "Cat Smit", "Dan Venter"]
    assert "<h1>Players of South African Go Clubs</h1>" in html


def test_it_lists_the_strongest_first_and_the_index_breaks_ties(
    client: Client, players: dict[str, Player]
) -> None:
    html = client.get(reverse("players")).content.decode()
    assert names_on(html) == ["Cat Smit", "Ann Botha", "Bob Nel", "Dan Venter"]


def test_it_sorts_by_a_column_on_request(client: Client, players: dict[str, Player]) -> None:
    html = client.get(reverse("players"), {"sort": "name"}).content.decode()
    assert names_on(html) == ["Ann Botha", "Bob Nel", "Cat Smit", "Dan Venter"]
    html = client.get(reverse("players"), {"sort": "-games_count"}).content.decode()
    assert names_on(html)[0] == "Cat Smit"


def test_it_searches_by_name(client: Client, players: dict[str, Player]) -> None:
    html = client.get(reverse("players"), {"q": "ven"}).content.decode()
    assert names_on(html) == ["Dan Venter"]


def test_it_filters_by_home_club(client: Client, players: dict[str, Player]) -> None:
    html = client.get(reverse("players"), {"club": "cape-town"}).content.decode()
    assert names_on(html) == ["Dan Venter"]


def test_an_unknown_club_filter_is_ignored_not_an_error(client: Client, players: dict[str, Player]) -> None:
    response = client.get(reverse("players"), {"club": "atlantis"})
    assert response.status_code == 200
    assert len(names_on(response.content.decode())) == 4


def test_it_paginates_fifty_a_page(client: Client, club: Club, make_player: MakePlayer) -> None:
    for i in range(55):
        make_player(f"Player {i:02d}")
    first = names_on(client.get(reverse("players"), {"sort": "name"}).content.decode())
    second = names_on(client.get(reverse("players"), {"sort": "name", "page": "2"}).content.decode())
    assert len(first) == 50 and len(second) == 5
    assert second[-1] == "Player 54"


def test_it_exports_the_filtered_list_as_csv(client: Client, players: dict[str, Player]) -> None:
    response = client.get(reverse("players"), {"club": "stellenbosch", "export": "csv"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.getvalue().decode())))
    assert rows[0] == ["Name", "Club", "Rank", "Index", "Games", "Last updated"]
    assert rows[1:] == [
        ["Cat Smit", "Stellenbosch Go Club", "2d", "0", "40", ""],
        ["Ann Botha", "Stellenbosch Go Club", "3k", "450", "12", "2024-05-01"],
        ["Bob Nel", "Stellenbosch Go Club", "3k", "-20", "3", ""],
    ]


def test_the_csv_export_is_not_paginated(client: Client, club: Club, make_player: MakePlayer) -> None:
    for i in range(60):
        make_player(f"Player {i:02d}")
    response = client.get(reverse("players"), {"export": "csv"})
    assert len(response.getvalue().decode().strip().splitlines()) == 61


def test_it_takes_the_same_number_of_queries_for_many_players(
    client: Client, club: Club, make_player: MakePlayer, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    make_player("Only One")
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as few:
        client.get(reverse("players"))
    for i in range(40):
        make_player(f"Player {i:02d}")
    with django_assert_num_queries(len(few.captured_queries)):
        client.get(reverse("players"))


def test_a_club_filter_names_the_club_in_the_heading_and_title(
    client: Client, players: dict[str, Player]
) -> None:
    html = client.get(reverse("players"), {"club": "cape-town"}).content.decode()
    assert "<h1>Players of Cape Town Go Club</h1>" in html
    assert "<title>Players of Cape Town Go Club" in html
    assert "<h1>Players</h1>" in client.get(reverse("players")).content.decode()


def test_a_phone_may_drop_the_club_column_only_when_one_club_is_listed(
    client: Client, players: dict[str, Player]
) -> None:
    # static/css/site.css hides .club on narrow screens for table.one-club only.
    assert 'class="data players several-clubs"' in client.get(reverse("players")).content.decode()
    html = client.get(reverse("players"), {"club": "cape-town"}).content.decode()
    assert 'class="data players one-club"' in html


def test_the_csv_and_page_links_keep_the_filters_and_sorting(
    client: Client, club: Club, make_player: MakePlayer
) -> None:
    for i in range(55):
        make_player(f"Player {i:02d}")
    html = client.get(reverse("players"), {"q": "player", "sort": "name"}).content.decode()
    assert 'href="?q=player&amp;sort=name&amp;export=csv"' in html  # one "?", not "??q=..."
    assert 'href="?q=player&amp;sort=name&amp;page=2"' in html
    assert 'href="?q=player&amp;sort=-name"' in html  # the Name header reverses the order
