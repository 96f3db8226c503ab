"""The read-only JSON API for national bodies (docs/api.md)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from datetime import date, timedelta

import pytest
import time_machine
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from ratings import committee, exchange, services
from ratings.committee import exports
from ratings.models import Club, Game, RatingList
from ratings.services import GameRow
from tests.support import ROLES, ClientFor, MakePlayer, make_pool

URL = "/api/games/"


@pytest.fixture(autouse=True)
def _today() -> Iterator[None]:
    with time_machine.travel(date(2024, 6, 15), tick=False):
        yield


@pytest.fixture
def games(club: Club, make_player: MakePlayer) -> list[Game]:
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


def test_it_gives_every_game_with_the_documented_fields_in_timeline_order(
    client_for: ClientFor, club: Club, games: list[Game]
) -> None:
    body = client_for("committee").get(URL, {"list": club.rating_list.slug}).json()
    assert set(body) == {"next", "results"} and body["next"] is None
    assert [r["id"] for r in body["results"]] == [g.pk for g in games]
    assert [r["date"] for r in body["results"]] == [f"2024-03-0{d}" for d in range(1, 8)]
    assert list(body["results"][0]) == ["id", *exchange.GAME_FIELDS]


def _all_pages(client: Client, query: dict[str, str]) -> list[dict[str, object]]:
    body = client.get(URL, query).json()
    results: list[dict[str, object]] = body["results"]
    while body["next"]:
        body = client.get(body["next"].removeprefix("http://testserver")).json()
        results += body["results"]
    return results


def test_its_records_are_the_csv_exports_records(
    client_for: ClientFor, club: Club, games: list[Game]
) -> None:
    """Same ranks and names as the CSV file of the same period (pages of 3);
    the API gives no round (docs/api.md)."""
    _, _, text = exports.export_games(club.rating_list, date(2024, 3, 2), None, "csv")
    exported = list(csv.DictReader(io.StringIO(text)))
    api = _all_pages(
        client_for("committee"), {"list": club.rating_list.slug, "from": "2024-03-02", "page_size": "3"}
    )
    assert len(api) == len(exported) == 6
    for record, row in zip(api, exported, strict=True):
        assert record["round"] is None
        assert {k: "" if v is None else str(v) for k, v in record.items() if k not in ("id", "round")} == {
            k: v for k, v in row.items() if k != "round"
        }


def test_it_pages_with_a_next_link_until_the_last_page(
    client_for: ClientFor, club: Club, games: list[Game]
) -> None:
    client = client_for("committee")
    first = client.get(URL, {"list": club.rating_list.slug, "page_size": "3"}).json()
    assert len(first["results"]) == 3
    assert first["next"].startswith(
        f"http://testserver{URL}?list={club.rating_list.slug}&page_size=3&cursor="
    )
    second = client.get(first["next"].removeprefix("http://testserver")).json()
    third = client.get(second["next"].removeprefix("http://testserver")).json()
    assert [r["id"] for r in third["results"]] == [games[6].pk] and third["next"] is None
    pages = [first, second, third]
    assert [r["id"] for page in pages for r in page["results"]] == [g.pk for g in games]


def test_a_page_exactly_full_at_the_end_has_no_next(
    client_for: ClientFor, club: Club, games: list[Game]
) -> None:
    body = client_for("committee").get(URL, {"list": "sagc", "page_size": "7"}).json()
    assert len(body["results"]) == 7 and body["next"] is None


def test_a_game_added_before_the_cursor_does_not_shift_the_next_page(
    client_for: ClientFor, club: Club, games: list[Game]
) -> None:
    client = client_for("committee")
    first = client.get(URL, {"list": "sagc", "page_size": "3"}).json()
    ann, cat = games[0].white, games[0].black
    services.save_sheet(
        club=club, date=date(2024, 2, 1), rows=[GameRow(white=ann, black=cat, winner="black")]
    )
    rest = _all_pages(client, {"list": "sagc", "page_size": "3", "cursor": first["next"].split("cursor=")[1]})
    assert [r["id"] for r in first["results"] + rest] == [g.pk for g in games]


def test_the_last_page_takes_as_many_queries_as_the_first(
    client_for: ClientFor, club: Club, games: list[Game]
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = client_for("committee")
    client.get(URL, {"list": "sagc", "page_size": "2"})  # session and user loaded once
    with CaptureQueriesContext(connection) as first_page:
        first = client.get(URL, {"list": "sagc", "page_size": "2"}).json()
    cursor = exports.encode_cursor(exports.key_of(games[-2]))
    with CaptureQueriesContext(connection) as last_page:
        last = client.get(URL, {"list": "sagc", "page_size": "2", "cursor": cursor}).json()
    assert len(first["results"]) == 2 and [r["id"] for r in last["results"]] == [games[-1].pk]
    assert len(last_page) == len(first_page)
    assert not any(
        "COUNT(" in q["sql"].upper() for q in first_page.captured_queries + last_page.captured_queries
    )


def test_it_filters_by_period(client_for: ClientFor, club: Club, games: list[Game]) -> None:
    body = client_for("committee").get(URL, {"list": "sagc", "from": "2024-03-03", "to": "2024-03-04"}).json()
    assert [r["date"] for r in body["results"]] == ["2024-03-03", "2024-03-04"]


@pytest.mark.parametrize(
    ("query", "status", "message"),
    [
        ({"from": "2024-13-01"}, 400, "from: '2024-13-01' is not a date (YYYY-MM-DD)"),
        ({"to": "yesterday"}, 400, "to: 'yesterday' is not a date"),
        ({"page": "0"}, 400, "page: this API pages with a cursor; follow the 'next' link"),
        ({"page": "2"}, 400, "page: this API pages with a cursor"),
        ({"page_size": "5000"}, 400, "page_size: '5000' must be a whole number from 1 to 1000"),
        ({"page_size": "-5"}, 400, "page_size: '-5' must be a whole number from 1 to 1000"),
        ({"cursor": "junk"}, 400, "cursor: 'junk' is not a cursor of this API"),
        ({"cursor": "MjAyNC0wMy0wMXx4fDE"}, 400, "is not a cursor of this API"),
        ({"from": "2024-04-01", "to": "2024-03-01"}, 400, "is before from"),
        ({"list": "nowhere"}, 404, "list: no list 'nowhere'"),
        ({"club": "nowhere"}, 400, "club: South African Go Clubs has no club 'nowhere'"),
        ({"club": "guildford-club"}, 400, "club: South African Go Clubs has no club 'guildford-club'"),
    ],
)
def test_bad_parameters_get_a_json_error_naming_them(
    client_for: ClientFor,
    club: Club,
    other_list: RatingList,
    games: list[Game],
    query: dict[str, str],
    status: int,
    message: str,
) -> None:
    response = client_for("committee").get(URL, {"list": club.rating_list.slug, **query})
    assert response.status_code == status and message in response.json()["error"]


def test_the_list_may_be_left_out_only_when_the_site_has_one(
    client_for: ClientFor, club: Club, games: list[Game]
) -> None:
    client = client_for("committee")
    assert len(client.get(URL, {"page_size": 100}).json()["results"]) == 7
    make_pool(name="Other", slug="other")
    response = client.get(URL)
    assert response.status_code == 400 and "list: give the rating list's slug" in response.json()["error"]


def test_a_club_gives_only_the_games_played_there(
    client_for: ClientFor, club: Club, other_club: Club, games: list[Game]
) -> None:
    """Players of the list meet at any of its clubs; ``club`` narrows to one."""
    ann, cat = games[0].white, games[0].black
    services.save_sheet(
        club=other_club, date=date(2024, 3, 9), rows=[GameRow(white=cat, black=ann, winner="black")]
    )
    client = client_for("committee")
    assert len(client.get(URL, {"list": "sagc"}).json()["results"]) == 8
    at_home = client.get(URL, {"list": "sagc", "club": club.slug}).json()
    assert len(at_home["results"]) == 7 and "2024-03-09" not in [r["date"] for r in at_home["results"]]
    away = client.get(URL, {"list": "sagc", "club": other_club.slug}).json()
    assert [r["date"] for r in away["results"]] == ["2024-03-09"]


@pytest.mark.parametrize("role", ROLES)
def test_a_session_must_be_the_committees(
    role: str, client_for: ClientFor, club: Club, games: list[Game]
) -> None:
    """The API is the committee's now: a volunteer is refused."""
    response = client_for(role).get(URL, {"list": club.rating_list.slug})
    expected = {"anonymous": 401, "player": 403, "volunteer": 403, "committee": 200}[role]
    assert response.status_code == expected
    if expected != 200:
        assert "results" not in response.json()
    if role == "anonymous":
        assert response["WWW-Authenticate"] == "Token"


@pytest.mark.parametrize(
    ("who", "expected"), [("volunteer_b", 403), ("committee_2", 403), ("site_admin", 200)]
)
def test_only_this_lists_committee_or_a_site_admin_reads_it(
    outsiders: dict[str, User], club: Club, games: list[Game], who: str, expected: int
) -> None:
    client = Client()
    client.force_login(outsiders[who])
    response = client.get(URL, {"list": club.rating_list.slug})
    assert response.status_code == expected
    assert ("results" in response.json()) == (expected == 200)


def test_a_national_body_reads_its_list_with_the_token(client: Client, club: Club, games: list[Game]) -> None:
    token = committee.new_api_token(club.rating_list)
    response = client.get(URL, headers={"Authorization": f"Token {token}"})
    assert response.status_code == 200 and len(response.json()["results"]) == 7


def test_a_wrong_token_is_refused(client: Client, club: Club, games: list[Game]) -> None:
    committee.new_api_token(club.rating_list)
    response = client.get(URL, {"list": "sagc"}, headers={"Authorization": "Token not-the-token"})
    assert response.status_code == 401 and "results" not in response.json()


def test_an_empty_token_never_matches_a_list_without_one(
    client: Client, club: Club, games: list[Game]
) -> None:
    assert club.rating_list.api_token_hash == ""
    response = client.get(URL, {"list": "sagc"}, headers={"Authorization": "Token "})
    assert response.status_code == 401


def test_a_token_reads_only_its_own_list(client: Client, club: Club, games: list[Game]) -> None:
    other = make_pool(name="Other", slug="other")
    token = committee.new_api_token(other.rating_list)
    response = client.get(URL, {"list": "sagc"}, headers={"Authorization": f"Token {token}"})
    assert response.status_code == 403 and "reads the games of other, not of sagc" in response.json()["error"]
    response = client.get(URL, {"club": club.slug}, headers={"Authorization": f"Token {token}"})
    assert response.status_code == 400 and "Other has no club 'stellenbosch'" in response.json()["error"]


def test_a_regenerated_token_replaces_the_old_one(client: Client, club: Club, games: list[Game]) -> None:
    old = committee.new_api_token(club.rating_list)
    committee.new_api_token(club.rating_list)
    assert client.get(URL, headers={"Authorization": f"Token {old}"}).status_code == 401


def test_the_api_only_reads(client_for: ClientFor, club: Club, games: list[Game]) -> None:
    assert client_for("committee").post(URL, {"list": "sagc"}).status_code == 405
    assert Game.objects.count() == 7


@pytest.fixture
def crowded_days(club: Club, make_player: MakePlayer) -> list[Game]:
    """Several games a day (issue 29: with one game a day no page ends
    inside a day).  Two days of three games and one of two; on the first
    day the game of the lowest id was entered last, and the other two at
    the same instant, so within a day the order is entered_at, then id."""
    players = [make_player(name, rank=-5 - i) for i, name in enumerate(["Ann Bee", "Cat Dee", "Dan Eel"])]
    ann, cat, dan = players
    first_day, second_day, third_day = date(2024, 3, 1), date(2024, 3, 2), date(2024, 3, 3)
    services.save_sheet(club=club, date=second_day, rows=[GameRow(white=ann, black=cat, winner="white")])
    services.save_sheet(
        club=club,
        date=first_day,
        rows=[
            GameRow(white=ann, black=cat, winner="white"),
            GameRow(white=cat, black=dan, winner="black"),
            GameRow(white=dan, black=ann, winner="white"),
        ],
    )
    services.save_sheet(
        club=club,
        date=second_day,
        rows=[GameRow(white=cat, black=dan, winner="white"), GameRow(white=dan, black=ann, winner="black")],
    )
    services.save_sheet(
        club=club,
        date=third_day,
        rows=[GameRow(white=ann, black=dan, winner="white"), GameRow(white=cat, black=ann, winner="white")],
    )
    noon = Game.objects.get(date=third_day, white=ann).entered_at
    on_first = list(Game.objects.filter(date=first_day).order_by("pk"))
    Game.objects.filter(pk=on_first[0].pk).update(entered_at=noon + timedelta(hours=2))
    Game.objects.filter(pk__in=[g.pk for g in on_first[1:]]).update(entered_at=noon)
    timeline = list(Game.objects.filter(club=club).timeline())
    assert len(timeline) == 8
    # The setup is what the test needs: ties on entered_at, and an id order that is not the timeline's.
    assert timeline[0].entered_at == timeline[1].entered_at and timeline[0].pk < timeline[1].pk
    assert timeline[2].pk == on_first[0].pk < timeline[0].pk
    return timeline


@pytest.mark.parametrize("page_size", range(1, 9))
def test_pages_that_end_inside_a_day_give_every_game_once_in_timeline_order(
    client_for: ClientFor, crowded_days: list[Game], page_size: int
) -> None:
    client = client_for("committee")
    body = client.get(URL, {"list": "sagc", "page_size": str(page_size)}).json()
    seen = [r["id"] for r in body["results"]]
    # At most as many pages as games: a cursor that does not move on fails here, never loops.
    for _ in range(len(crowded_days)):
        if not body["next"]:
            break
        body = client.get(body["next"].removeprefix("http://testserver")).json()
        seen += [r["id"] for r in body["results"]]
    assert body["next"] is None and seen == [g.pk for g in crowded_days]
