"""The read-only JSON API for national bodies (issue 5, docs/api.md)."""

from __future__ import annotations

import csv
import io
from datetime import date, timedelta

import pytest
import time_machine
from django.urls import reverse

from ratings import committee, exchange, services
from ratings.models import Game
from ratings.services import GameRow
from tests.conftest import ROLES, make_pool

URL = "/api/games/"


@pytest.fixture(autouse=True)
def _fast_passwords(settings):  # type: ignore[no-untyped-def]
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _today():  # type: ignore[no-untyped-def]
    with time_machine.travel(date(2024, 6, 15), tick=False):
        yield


@pytest.fixture
def games(club, make_player) -> list[Game]:  # type: ignore[no-untyped-def]
    """Seven games on seven days among three players (entered out of date order)."""
    players = [make_player(name, rank=-5 - i) for i, name in enumerate(["Ann Bee", "Cat Dee", "Dan Eel"])]
    for n in (3, 1, 6, 0, 2, 5, 4):
        white, black = players[n % 3], players[(n + 1) % 3]
        services.save_sheet(
            club=club,
            date=date(2024, 3, 1) + timedelta(days=n),
            rows=[GameRow(white=white, black=black, winner="white")],
        )
    return list(Game.objects.filter(club=club).timeline())


def test_the_url_is_documented() -> None:
    assert reverse("api_games") == URL


def test_it_gives_every_game_with_the_documented_fields_in_timeline_order(client_for, club, games) -> None:
    body = client_for("volunteer").get(URL, {"club": club.slug}).json()
    assert body["count"] == 7 and body["next"] is None and body["previous"] is None
    assert [r["id"] for r in body["results"]] == [g.pk for g in games]
    assert [r["date"] for r in body["results"]] == [f"2024-03-0{d}" for d in range(1, 8)]
    assert list(body["results"][0]) == ["id", *exchange.GAME_FIELDS]


def test_its_records_are_the_csv_exports_records(client_for, club, games) -> None:
    """Same rounds, ranks and names as the CSV file of the same period (one page of 3)."""
    _, _, text = committee.export_games(club.rating_list, date(2024, 3, 2), None, "csv")
    exported = list(csv.DictReader(io.StringIO(text)))
    api = []
    for page in (1, 2):
        query = {"club": club.slug, "from": "2024-03-02", "page_size": 3, "page": page}
        api += client_for("committee").get(URL, query).json()["results"]
    assert len(api) == 6
    for record, row in zip(api, exported[:6], strict=True):
        assert {k: "" if v is None else str(v) for k, v in record.items() if k != "id"} == row


def test_it_pages_with_next_and_previous_links(client_for, club, games) -> None:
    client = client_for("volunteer")
    first = client.get(URL, {"club": club.slug, "page_size": 3}).json()
    assert first["count"] == 7 and len(first["results"]) == 3 and first["previous"] is None
    assert first["next"] == f"http://testserver{URL}?club={club.slug}&page_size=3&page=2"
    last = client.get(first["next"].removeprefix("http://testserver")).json()
    assert last["previous"] is not None
    third = client.get(URL, {"club": club.slug, "page_size": 3, "page": 3}).json()
    assert [r["id"] for r in third["results"]] == [games[6].pk] and third["next"] is None


def test_it_filters_by_period(client_for, club, games) -> None:
    body = (
        client_for("volunteer").get(URL, {"club": club.slug, "from": "2024-03-03", "to": "2024-03-04"}).json()
    )
    assert [r["date"] for r in body["results"]] == ["2024-03-03", "2024-03-04"]


@pytest.mark.parametrize(
    ("query", "status", "message"),
    [
        ({"from": "2024-13-01"}, 400, "from: '2024-13-01' is not a date (YYYY-MM-DD)"),
        ({"to": "yesterday"}, 400, "to: 'yesterday' is not a date"),
        ({"page": "0"}, 400, "page: '0' must be a whole number from 1"),
        ({"page_size": "5000"}, 400, "page_size: '5000' must be a whole number from 1 to 1000"),
        ({"page": "9"}, 404, "page: there are 1 pages of 100 games"),
        ({"from": "2024-04-01", "to": "2024-03-01"}, 400, "is before from"),
        ({"club": "nowhere"}, 404, "no club 'nowhere'"),
        ({"club": ""}, 400, "club: give the club's slug"),
    ],
)
def test_bad_parameters_get_a_json_error_naming_them(client_for, club, games, query, status, message) -> None:
    response = client_for("volunteer").get(URL, {"club": club.slug, **query})
    assert response.status_code == status and message in response.json()["error"]


@pytest.mark.parametrize("role", ROLES)
def test_a_session_must_be_a_volunteers_or_the_committees(role, client_for, club, games) -> None:
    response = client_for(role).get(URL, {"club": club.slug})
    expected = {"anonymous": 401, "player": 403, "volunteer": 200, "committee": 200}[role]
    assert response.status_code == expected
    if expected != 200:
        assert "results" not in response.json()
    if role == "anonymous":
        assert response["WWW-Authenticate"] == "Token"


def test_a_national_body_reads_its_club_with_the_token(client, club, games) -> None:
    token = committee.new_api_token(club.rating_list)
    response = client.get(URL, headers={"Authorization": f"Token {token}"})
    assert response.status_code == 200 and response.json()["count"] == 7


def test_a_wrong_token_is_refused(client, club, games) -> None:
    committee.new_api_token(club.rating_list)
    response = client.get(URL, {"club": club.slug}, headers={"Authorization": "Token not-the-token"})
    assert response.status_code == 401 and "results" not in response.json()


def test_an_empty_token_never_matches_a_club_without_one(client, club, games) -> None:
    assert club.rating_list.api_token == ""
    response = client.get(URL, {"club": club.slug}, headers={"Authorization": "Token "})
    assert response.status_code == 401


def test_a_token_reads_only_its_own_club(client, club, games) -> None:
    other = make_pool(name="Other", slug="other")
    token = committee.new_api_token(other.rating_list)
    response = client.get(URL, {"club": club.slug}, headers={"Authorization": f"Token {token}"})
    assert response.status_code == 403 and "reads the games of other" in response.json()["error"]


def test_a_regenerated_token_replaces_the_old_one(client, club, games) -> None:
    old = committee.new_api_token(club.rating_list)
    committee.new_api_token(club.rating_list)
    assert client.get(URL, headers={"Authorization": f"Token {old}"}).status_code == 401


def test_the_api_only_reads(client_for, club, games) -> None:
    assert client_for("committee").post(URL, {"club": club.slug}).status_code == 405
    assert Game.objects.count() == 7
