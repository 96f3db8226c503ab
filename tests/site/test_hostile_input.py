"""Hostile and junk input: NUL bytes, negative or absurd
paging parameters and garbage in any query parameter answer an ordinary
page (200, 400 or 404), never a 500."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from django.test import Client

from ratings.models import Club
from tests.support import ClientFor, MakePlayer, Personas

JUNK_VALUES = [
    "\x00",
    "a\x00b",
    "-5",
    "0",
    "-1",
    "99999999999999999999",
    "abc",
    "1e9",
    "%00",
    " ",
    "🂡",
    "' OR 1=1",
]
JUNK_NAMES = [
    "page",
    "per_page",
    "sort",
    "q",
    "club",
    "system",
    "export",
    "start",
    "end",
    "player",
    "n",
    "field",
]


@pytest.fixture
def site(club: Club, make_player: MakePlayer, personas: Personas) -> dict[str, Any]:
    from ratings import services
    from ratings.models import Player

    ann, bob = make_player("Ann Bee"), make_player("Bob Cee")
    sheet = services.save_sheet(
        club=club,
        date=date(2024, 3, 5),
        rows=[services.GameRow(white=ann, black=bob, winner="white", handicap=0, komi=None)],
    )
    return {"club": club, "sheet": sheet, "player": Player.objects.get(name="Ann Bee")}


def _pages(site: dict[str, Any]) -> list[str]:
    game = site["sheet"].games.get()
    return [
        "/",
        "/players/",
        f"/players/{site['player'].slug}/",
        "/log/",
        "/sheets/new/",
        "/sheets/new/row/",
        "/sheets/new/players/",
        "/sheets/new/player-check/",
        f"/sheets/{site['sheet'].pk}/",
        f"/games/{game.pk}/edit/",
        "/adjustments/",
        "/recompute/",
        "/committee/ranks/",
        "/committee/export/",
        "/api/games/",
    ]


@pytest.mark.parametrize("role", ["anonymous", "committee"])
def test_it_never_answers_500_to_junk_query_parameters(
    site: dict[str, Any], client_for: ClientFor, role: str
) -> None:
    client = client_for(role)
    client.raise_request_exception = False
    failures = []
    for url in _pages(site):
        for name in JUNK_NAMES:
            for value in JUNK_VALUES:
                response = client.get(
                    url, {name: value, "club": site["club"].slug} if name != "club" else {name: value}
                )
                if response.status_code >= 500:
                    failures.append((url, name, value, response.status_code))
    assert failures == []


def test_per_page_minus_five_shows_the_players_list(site: dict[str, Any], client: Client) -> None:
    client.raise_request_exception = False
    response = client.get("/players/", {"per_page": "-5"})
    assert response.status_code == 200
    assert "Ann Bee" in response.content.decode()


def test_a_nul_byte_in_a_search_answers_400_with_a_page(site: dict[str, Any], client: Client) -> None:
    client.raise_request_exception = False
    response = client.get("/players/", {"q": "Ann\x00"})
    assert response.status_code == 400
    assert "NUL" in response.content.decode()


def test_a_nul_byte_in_a_posted_sheet_answers_400(site: dict[str, Any], client_for: ClientFor) -> None:
    client = client_for("volunteer")
    client.raise_request_exception = False
    response = client.post(
        "/sheets/new/", {"club": site["club"].pk, "date": "2024-03-05", "row-0-white": "A\x00"}
    )
    assert response.status_code == 400


def test_a_nul_byte_in_an_api_query_answers_the_apis_json_error(
    site: dict[str, Any], client_for: ClientFor
) -> None:
    response = client_for("volunteer").get("/api/games/", {"club": "stellen\x00bosch"})
    assert response.status_code == 400
    assert "NUL character" in response.json()["error"]
