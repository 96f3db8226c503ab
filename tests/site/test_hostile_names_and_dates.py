"""Names and dates from people and files: names are
cleaned (ratings.exchange.clean_name) on the record sheet and in imports;
dates before 1900 or in the future are refused naming the field or line."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

import pytest

from ratings import committee
from ratings.models import Club, Game, Player
from ratings.services import EARLIEST_DATE
from tests.support import SHEET_URL as URL
from tests.support import ClientFor, MakePlayer, sheet_data

if TYPE_CHECKING:
    from tests.support import TestResponse

CSV_HEADER = "date,event,white,white_rank,black,black_rank,handicap,komi,winner\n"


@pytest.fixture
def alice(make_player: MakePlayer) -> Player:
    return make_player("Alice Mokoena", rank=-5)


def _post(client_for: ClientFor, club: Club, **row: str) -> TestResponse:
    values = {"white": "Alice Mokoena", "winner": "white", **row}
    return client_for("volunteer").post(URL, sheet_data(club, [values]))


def test_a_new_name_typed_with_invisible_characters_is_stored_clean(
    client_for: ClientFor, club: Club, alice: Player
) -> None:
    response = _post(client_for, club, black=" Bo\u0301\u200b  Smit\u202e ", black_rank="12k")
    assert response.status_code == 302
    assert Player.objects.filter(name="B\u00f3 Smit").exists()


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("Bob|Smit", "Black: a name cannot contain &#x27;|&#x27;"),
        ("B\u043eb Smit", "mixes letters of different alphabets"),
    ],
)
def test_a_name_that_cannot_be_stored_is_refused_naming_black(
    client_for: ClientFor, club: Club, alice: Player, name: str, message: str
) -> None:
    response = _post(client_for, club, black=name, black_rank="12k")
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Player.objects.filter(name__contains="Smit").exists() and Game.objects.count() == 0


def test_an_imported_name_is_cleaned(club: Club) -> None:
    data = f"{CSV_HEADER}2024-03-05,Cup,Ann\u200b Bee,5k,Carl  Dee,6k,0,6.5,white\n".encode()
    committee.import_tournament(club, data, filename="cup.csv")
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Ann Bee", "Carl Dee"]


def test_an_imported_lookalike_name_is_refused_naming_the_line(club: Club) -> None:
    data = f"{CSV_HEADER}2024-03-05,Cup,Ann Bee,5k,C\u0430rl Dee,6k,0,6.5,white\n".encode()
    with pytest.raises(committee.CommitteeError, match=r"line 2: .*mixes letters of different alphabets"):
        committee.import_tournament(club, data, filename="cup.csv")
    assert Player.objects.count() == 0


@pytest.mark.parametrize("day", ["0001-01-01", "1899-12-31"])
def test_a_game_date_before_1900_is_refused_naming_the_date(
    client_for: ClientFor, club: Club, alice: Player, make_player: MakePlayer, day: str
) -> None:
    make_player("Bob Smit", rank=-8, since=date(1, 1, 1))
    response = _post(client_for, club, black="Bob Smit", date=day)
    html = response.content.decode()
    assert response.status_code == 400
    assert f"Date:</strong></a> {day} is before {EARLIEST_DATE:%Y-%m-%d}" in html
    assert Game.objects.count() == 0


def test_a_sheet_date_before_1900_is_refused(client_for: ClientFor, club: Club, alice: Player) -> None:
    response = client_for("volunteer").post(
        URL,
        sheet_data(
            club,
            [{"white": "Alice Mokoena", "black": "Bob", "black_rank": "9k", "winner": "white"}],
            date="0001-01-01",
        ),
    )
    assert response.status_code == 400
    assert "0001-01-01 is before 1900-01-01" in response.content.decode()
    assert Game.objects.count() == 0


def test_an_imported_game_of_year_one_is_refused_naming_the_line(club: Club) -> None:
    data = f"{CSV_HEADER}0001-01-01,Cup,Ann Bee,5k,Carl Dee,6k,0,6.5,white\n".encode()
    with pytest.raises(committee.CommitteeError, match="line 2: 0001-01-01 is before 1900-01-01"):
        committee.import_tournament(club, data, filename="cup.csv")
    assert Game.objects.count() == 0


def test_a_far_future_import_is_refused(club: Club) -> None:
    data = f"{CSV_HEADER}9999-12-31,Cup,Ann Bee,5k,Carl Dee,6k,0,6.5,white\n".encode()
    with pytest.raises(committee.CommitteeError, match="9999-12-31 is in the future"):
        committee.import_tournament(club, data, filename="cup.csv")


def test_the_name_check_finds_a_player_typed_with_invisible_characters(
    client_for: ClientFor, club: Club, alice: Player
) -> None:
    html = (
        client_for("volunteer")
        .get(
            "/sheets/new/player-check/",
            {"field": "row-0-white", "row-0-white": "Alice\u200b  Mokoena", "club": str(club.pk)},
        )
        .content.decode()
    )
    assert "✓ 5k" in html and "white_rank" not in html
