"""Sheet entry: a new player known to every later row, the kind per game."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.models import Club, Game, Player, RecordSheet
from tests.support import SHEET_URL as URL
from tests.support import ClientFor, MakePlayer, sheet_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(make_player: MakePlayer) -> dict[str, Player]:
    return {"alice": make_player("Alice Mokoena", rank=-5), "bob": make_player("Bob Smit", rank=-8)}


def test_a_new_player_given_a_rank_on_one_row_is_the_same_player_on_later_rows(
    client_for: ClientFor, club: Club, players: dict[str, Player]
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


def test_a_later_row_does_not_lend_its_rank_to_an_earlier_one(
    client_for: ClientFor, club: Club, players: dict[str, Player]
) -> None:
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
    client_for: ClientFor, club: Club, players: dict[str, Player]
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


def test_the_player_check_knows_a_new_player_of_an_earlier_row(
    client_for: ClientFor, club: Club, players: dict[str, Player]
) -> None:
    client = client_for("volunteer")
    query = {
        "club": str(club.pk),
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


def test_the_kind_of_each_game_defaults_to_the_sheets(
    client_for: ClientFor, club: Club, players: dict[str, Player]
) -> None:
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


def test_an_unknown_kind_on_a_row_is_named(
    client_for: ClientFor, club: Club, players: dict[str, Player]
) -> None:
    data = sheet_data(
        club, [{"white": "Alice Mokoena", "black": "Bob Smit", "winner": "white", "kind": "blitz"}]
    )
    response = client_for("volunteer").post(URL, data)
    assert response.status_code == 400
    assert "Game 1, Kind:" in response.content.decode()


def test_each_row_offers_the_kinds_with_the_sheets_as_default(client_for: ClientFor, club: Club) -> None:
    html = client_for("volunteer").get(reverse("sheet_row"), {"n": "4"}).content.decode()
    assert 'name="row-4-kind"' in html
    assert '<option value="" selected>As sheet</option>' in html


@pytest.fixture
def francois(make_player: MakePlayer, other_club: Club) -> Player:
    return make_player("François Dupont", rank=-5, club=other_club)


@pytest.mark.parametrize("typed", ["Francois Dupont", "dupont françois", "  DUPONT   Francois "])
def test_a_name_alike_an_existing_player_is_offered_before_a_new_one_is_made(
    client_for: ClientFor, club: Club, players: dict[str, Player], francois: Player, typed: str
) -> None:
    row = {"white": "Alice Mokoena", "black": typed, "black_rank": "9k", "winner": "white"}
    before = Player.objects.count()
    response = client_for("volunteer").post(URL, sheet_data(club, [row]))
    html = response.content.decode()
    assert response.status_code == 400
    assert "did you mean François Dupont, 5k, Cape Town Go Club?" in html
    assert 'name="row-0-black_new"' in html
    assert Player.objects.count() == before and not Game.objects.exists()


def test_a_different_person_of_a_name_alike_is_added_once_confirmed(
    client_for: ClientFor, club: Club, players: dict[str, Player]
) -> None:
    make = Player.objects.get(name="Alice Mokoena")
    make.name = "Li Wei"
    make.save()
    row = {"white": "Wei Li", "white_rank": "9k", "black": "Bob Smit", "winner": "white"}
    refused = client_for("volunteer").post(URL, sheet_data(club, [row])).content.decode()
    assert "did you mean Li Wei, 5k, Stellenbosch Go Club?" in refused
    response = client_for("volunteer").post(URL, sheet_data(club, [{**row, "white_new": "on"}]))
    assert response.status_code == 302
    assert Player.objects.get(name="Wei Li").start_rank == -9
    assert Player.objects.get(name="Li Wei").pk == make.pk


def test_the_player_check_offers_the_player_alike(
    client_for: ClientFor, club: Club, players: dict[str, Player], francois: Player
) -> None:
    query = {"club": str(club.pk), "row-1-white": "francois DUPONT", "field": "row-1-white"}
    html = client_for("volunteer").get(reverse("sheet_player_check"), query).content.decode()
    assert 'data-name="François Dupont"' in html and "François Dupont, 5k, Cape Town Go Club" in html
    assert 'name="row-1-white_new"' in html and 'name="row-1-white_rank"' in html
    exact = client_for("volunteer").get(
        reverse("sheet_player_check"), {**query, "row-1-white": "François Dupont"}
    )
    assert "✓ 5k" in exact.content.decode() and "Did you mean" not in exact.content.decode()


def test_inactive_players_leave_the_autocomplete_but_not_history(
    client_for: ClientFor, club: Club, make_player: MakePlayer
) -> None:
    from datetime import date, timedelta

    from ratings import services
    from ratings.names import matching

    today = date.today()
    long_ago = today - timedelta(days=matching.INACTIVE_AFTER_DAYS + 30)
    old = make_player("Olga Old", rank=-3, since=long_ago - timedelta(days=10))
    kept = make_player("Kim Kept", rank=-4, since=long_ago - timedelta(days=10))
    newcomer = make_player("Nina New", rank=-20, since=today - timedelta(days=5))
    services.save_sheet(
        club=club, date=long_ago, rows=[services.GameRow(white=old, black=kept, winner="white")]
    )
    recent = today - timedelta(days=matching.INACTIVE_AFTER_DAYS - 30)
    ray = make_player("Ray Recent", rank=-6, since=long_ago - timedelta(days=10))
    services.save_sheet(
        club=club, date=recent, rows=[services.GameRow(white=kept, black=ray, winner="black")]
    )
    imported = make_player("Ian Imported", rank=-7, since=long_ago)  # never played: still offered
    html = client_for("volunteer").get(URL).content.decode()
    datalist = html.split('<datalist id="players-list">')[1].split("</datalist>")[0]
    assert '"Kim Kept"' in datalist and '"Ray Recent"' in datalist and f'"{newcomer.name}"' in datalist
    assert '"Olga Old"' not in datalist and f'"{imported.name}"' in datalist
    # Still a player: found when typed in full, and the record sheet keeps the game.
    row = {"white": "Olga Old", "black": "Kim Kept", "winner": "white"}
    assert client_for("volunteer").post(URL, sheet_data(club, [row])).status_code == 302
    assert client_for("volunteer").get(old.get_absolute_url()).status_code == 200
    assert Game.objects.filter(white=old).count() == 2
