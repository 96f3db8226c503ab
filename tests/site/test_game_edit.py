"""Correcting and deleting a saved game: /games/<id>/edit/ and /games/<id>/delete/."""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from ratings import services
from ratings.models import Club, Game, LogEntry, RatingList
from ratings.services import GameRow
from tests.site.entry_helpers import correction_data
from tests.support import ClientFor, MakePlayer, Personas, refused_as


@pytest.fixture
def game(club: Club, make_player: MakePlayer) -> Game:
    alice, bob = make_player("Alice", rank=-5), make_player("Bob", rank=-8)
    make_player("Carol", rank=-9)
    sheet = services.save_sheet(
        club=club,
        date=date(2024, 5, 1),
        rows=[GameRow(white=alice, black=bob, winner="white", comments="r1")],
    )
    RatingList.objects.filter(pk=club.rating_list_id).update(dirty_from=None)
    return sheet.games.get()


def snapshot(game: Game) -> tuple[object, ...]:
    game.refresh_from_db()
    return (game.date, game.white_id, game.black_id, game.handicap, game.komi, game.winner, game.comments)


def test_the_edit_form_shows_the_game_as_saved(client_for: ClientFor, game: Game) -> None:
    html = client_for("volunteer").get(f"/games/{game.pk}/edit/").content.decode()
    assert 'value="2024-05-01"' in html and 'value="6.5"' in html
    assert re.search(r'<input type="radio" name="winner" value="white"[^>]* checked>', html)


def test_a_correction_is_saved_logged_with_who_and_what_and_marks_dirty_from_the_earlier_date(
    client_for: ClientFor, game: Game, personas: Personas
) -> None:
    data = correction_data(game, winner="black", date="2024-04-20", handicap=2, komi="0.5")
    response = client_for("volunteer").post(f"/games/{game.pk}/edit/", data)
    assert response.status_code == 302 and response["Location"] == f"/sheets/{game.sheet_id}/"
    game.refresh_from_db()
    assert (game.winner, game.date, game.handicap, game.komi) == (
        "black",
        date(2024, 4, 20),
        2,
        Decimal("0.5"),
    )
    entry = LogEntry.objects.get(action="edit")
    assert entry.actor == personas["volunteer"]
    assert entry.changes == {
        "winner": ["white", "black"],
        "date": ["2024-05-01", "2024-04-20"],
        "handicap": [0, 2],
        "komi": ["6.5", "0.5"],
    }
    game.club.rating_list.refresh_from_db()
    assert game.club.rating_list.dirty_from == date(2024, 4, 20)


def test_changing_a_player_is_logged_by_name(client_for: ClientFor, game: Game) -> None:
    from ratings.models import Player

    carol = Player.objects.get(name="Carol")
    client_for("committee").post(f"/games/{game.pk}/edit/", correction_data(game, black=carol.name))
    entry = LogEntry.objects.get(action="edit")
    assert entry.changes == {"black": ["Bob", "Carol"]}
    assert {p.name for p in entry.players.all()} == {"Alice", "Bob", "Carol"}


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"black": "white"}, "black", "cannot play both"),
        ({"handicap": 10}, "handicap", "0 to 9"),
        ({"komi": "120"}, "komi", "komi must be between"),
        ({"date": "2099-01-01"}, "date", "in the future"),
        ({"date": "2019-12-31"}, "white", "joined on 2020-01-01"),
        ({"winner": ""}, "winner", "required"),
    ],
)
def test_a_bad_correction_is_refused_next_to_its_field_and_changes_nothing(
    client_for: ClientFor, game: Game, changes: dict[str, Any], field: str, message: str
) -> None:
    before = snapshot(game)
    data = correction_data(game, **changes)
    if changes.get("black") == "white":
        data["black"] = data["white"]
    response = client_for("volunteer").post(f"/games/{game.pk}/edit/", data)
    assert response.status_code == 400
    assert message in str(response.context["form"].errors[field])
    assert snapshot(game) == before
    assert not LogEntry.objects.filter(action="edit").exists()


def test_the_delete_page_asks_for_confirmation_and_a_get_deletes_nothing(
    client_for: ClientFor, game: Game
) -> None:
    response = client_for("volunteer").get(f"/games/{game.pk}/delete/")
    assert response.status_code == 200
    assert "Delete this game?" in response.content.decode()
    assert Game.objects.filter(pk=game.pk).exists()


def test_deleting_removes_the_game_logs_it_and_marks_dirty_from_its_date(
    client_for: ClientFor, game: Game, personas: Personas
) -> None:
    response = client_for("volunteer").post(f"/games/{game.pk}/delete/", {"reason": "entered twice"})
    assert response.status_code == 302 and response["Location"] == f"/sheets/{game.sheet_id}/"
    assert not Game.objects.filter(pk=game.pk).exists()
    entry = LogEntry.objects.get(action="delete")
    assert entry.actor == personas["volunteer"] and "entered twice" in entry.summary
    game.club.rating_list.refresh_from_db()
    assert game.club.rating_list.dirty_from == date(2024, 5, 1)


def test_an_unknown_game_is_404(client_for: ClientFor, db: None) -> None:
    assert client_for("volunteer").get("/games/999999/edit/").status_code == 404
    assert client_for("volunteer").post("/games/999999/delete/").status_code == 404


# --- every role against every mutating view ------------------------------------

EXPECTED: dict[str, str | int] = {"anonymous": "login", "player": 403, "volunteer": 302, "committee": 302}


@pytest.mark.parametrize("role", EXPECTED)
def test_only_volunteers_and_committee_may_correct_a_game(
    client_for: ClientFor, game: Game, role: str
) -> None:
    before = snapshot(game)
    response = client_for(role).post(f"/games/{game.pk}/edit/", correction_data(game, winner="black"))
    changed = snapshot(game) != before
    if not refused_as(response, EXPECTED[role]):
        assert response.status_code == EXPECTED[role]
    assert changed == (EXPECTED[role] == 302)
    assert LogEntry.objects.filter(action="edit").exists() == changed


@pytest.mark.parametrize("role", EXPECTED)
def test_only_volunteers_and_committee_may_delete_a_game(
    client_for: ClientFor, game: Game, role: str
) -> None:
    response = client_for(role).post(f"/games/{game.pk}/delete/")
    if not refused_as(response, EXPECTED[role]):
        assert response.status_code == EXPECTED[role]
    deleted = not Game.objects.filter(pk=game.pk).exists()
    assert deleted == (EXPECTED[role] == 302)
    assert LogEntry.objects.filter(action="delete").exists() == deleted
    game.club.rating_list.refresh_from_db()
    assert (game.club.rating_list.dirty_from is not None) == deleted


@pytest.mark.parametrize("role", EXPECTED)
def test_only_volunteers_and_committee_see_the_correction_pages(
    client_for: ClientFor, game: Game, role: str
) -> None:
    for url in (f"/games/{game.pk}/edit/", f"/games/{game.pk}/delete/"):
        response = client_for(role).get(url)
        if not refused_as(response, EXPECTED[role]):
            assert response.status_code == 200
