"""Record-sheet limits (docs/limits.md): stated on the
page, and a sheet beyond them is refused whole with a message, never cut
short and never answered with a bare 400."""

from __future__ import annotations

import pytest

from ratings.models import Club, Game, Player, RecordSheet
from ratings.views.sheets import MAX_ROWS
from tests.support import SHEET_URL as URL
from tests.support import ClientFor, MakePlayer, sheet_data


@pytest.fixture
def two(make_player: MakePlayer) -> tuple[Player, Player]:
    return make_player("Alice Mokoena", rank=-5), make_player("Bob Smit", rank=-8)


def _rows(count: int) -> list[dict[str, str]]:
    return [{"white": "Alice Mokoena", "black": "Bob Smit", "winner": "white"}] * count


def test_the_page_states_the_limit(client_for: ClientFor, club: Club) -> None:
    html = client_for("committee").get(URL).content.decode()
    assert f"A sheet holds up to {MAX_ROWS} games" in html


def test_a_230_game_sheet_is_refused_whole_with_a_message(
    client_for: ClientFor, club: Club, two: tuple[Player, Player]
) -> None:
    response = client_for("volunteer").post(URL, sheet_data(club, _rows(230)))
    html = response.content.decode()
    assert response.status_code == 400
    assert "this sheet has 230 games; a sheet holds at most 200" in html
    assert "Remove 30 and enter them on a second sheet" in html
    assert "Nothing was saved" in html
    assert Game.objects.count() == 0 and RecordSheet.objects.count() == 0
    assert html.count('class="game-row') == 230  # every row typed comes back


def test_a_sheet_of_exactly_the_limit_is_saved_whole(
    client_for: ClientFor, club: Club, two: tuple[Player, Player]
) -> None:
    response = client_for("volunteer").post(URL, sheet_data(club, _rows(MAX_ROWS)))
    assert response.status_code == 302
    assert Game.objects.count() == MAX_ROWS


def test_a_row_with_a_high_number_is_not_dropped(
    client_for: ClientFor, club: Club, two: tuple[Player, Player]
) -> None:
    data = sheet_data(club, _rows(1))
    data.update({k.replace("row-0-", "row-12345-"): v for k, v in data.items() if k.startswith("row-0-")})
    response = client_for("volunteer").post(URL, data)
    assert response.status_code == 302
    assert Game.objects.count() == 2


def test_far_too_many_fields_answer_a_page_that_says_why(
    client_for: ClientFor, club: Club, two: tuple[Player, Player]
) -> None:
    client = client_for("volunteer")
    client.raise_request_exception = False
    response = client.post(URL, sheet_data(club, _rows(800)))
    html = response.content.decode()
    assert response.status_code == 400
    assert "at most 200 games" in html and "Nothing was saved" in html
    assert 'class="site-header"' in html
    assert Game.objects.count() == 0
