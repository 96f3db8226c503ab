"""Sheet entry, issue 16: a new player known to every later row, the kind per game."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.models import Game, Player, RecordSheet
from tests.test_sheet_entry import URL, _fast_passwords, sheet_data  # noqa: F401  (autouse fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(make_player):  # type: ignore[no-untyped-def]
    return {"alice": make_player("Alice Mokoena", rank=-5), "bob": make_player("Bob Smit", rank=-8)}


def test_a_new_player_given_a_rank_on_one_row_is_the_same_player_on_later_rows(
    client_for, club, players
) -> None:
    data = sheet_data(
        club,
        [
            {"white": "Alice Mokoena", "black": "Dora Newcomer", "black_rank": "15k", "winner": "black"},
            {"white": "dora  newcomer", "black": "Bob Smit", "winner": "white"},
            {"white": "Bob Smit", "black": "Dora Newcomer", "winner": "black"},
        ],
    )
    response = client_for("volunteer").post(URL, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    dora = Player.objects.get(name="Dora Newcomer")
    assert dora.start_rank == -15
    assert Game.objects.filter(white=dora).count() + Game.objects.filter(black=dora).count() == 3


def test_a_later_row_does_not_lend_its_rank_to_an_earlier_one(client_for, club, players) -> None:
    data = sheet_data(
        club,
        [
            {"white": "Alice Mokoena", "black": "Dora Newcomer", "winner": "black"},
            {"white": "Dora Newcomer", "white_rank": "15k", "black": "Bob Smit", "winner": "white"},
        ],
    )
    response = client_for("volunteer").post(URL, data)
    assert response.status_code == 400
    assert "Game 1, Black:" in response.content.decode()
    assert not Player.objects.filter(name="Dora Newcomer").exists()


def test_a_refused_sheet_shows_the_later_rows_new_player_with_the_earlier_rank(
    client_for, club, players
) -> None:
    data = sheet_data(
        club,
        [
            {"white": "Alice Mokoena", "black": "Dora Newcomer", "black_rank": "15k", "winner": "black"},
            {"white": "Dora Newcomer", "black": "Bob Smit"},  # no winner
        ],
    )
    html = client_for("volunteer").post(URL, data).content.decode()
    assert "✓ new, 15k (game 1)" in html
    assert 'name="row-1-white_rank"' not in html


def test_the_player_check_knows_a_new_player_of_an_earlier_row(client_for, club, players) -> None:
    client = client_for("volunteer")
    query = {
        "club": club.pk,
        "row-0-white": "Alice Mokoena",
        "row-0-black": "Dora Newcomer",
        "row-0-black_rank": "15k",
        "row-3-white": "DORA newcomer",
        "field": "row-3-white",
    }
    html = client.get(reverse("sheet_player_check"), query).content.decode()
    assert "✓ new, 15k (game 1)" in html and "row-3-white_rank" not in html
    # The same name on the row that introduces it, or before it: a rank is asked.
    first = client.get(reverse("sheet_player_check"), {**query, "field": "row-0-black"}).content.decode()
    assert 'name="row-0-black_rank"' in first and 'value="15k"' in first


def test_the_kind_of_each_game_defaults_to_the_sheets(client_for, club, players) -> None:
    data = sheet_data(
        club,
        [
            {"white": "Alice Mokoena", "black": "Bob Smit", "winner": "white", "kind": "free"},
            {"white": "Bob Smit", "black": "Alice Mokoena", "winner": "white", "kind": ""},
        ],
        kind="tournament",
    )
    assert client_for("volunteer").post(URL, data).status_code == 302
    sheet = RecordSheet.objects.get()
    assert sheet.kind == "tournament"
    assert [g.kind for g in sheet.games.order_by("id")] == ["free", "tournament"]


def test_an_unknown_kind_on_a_row_is_named(client_for, club, players) -> None:
    data = sheet_data(
        club, [{"white": "Alice Mokoena", "black": "Bob Smit", "winner": "white", "kind": "blitz"}]
    )
    response = client_for("volunteer").post(URL, data)
    assert response.status_code == 400
    assert "Game 1, Kind:" in response.content.decode()


def test_each_row_offers_the_kinds_with_the_sheets_as_default(client_for, club) -> None:
    html = client_for("volunteer").get(reverse("sheet_row"), {"n": "4"}).content.decode()
    assert 'name="row-4-kind"' in html
    assert '<option value="" selected>As the sheet</option>' in html
