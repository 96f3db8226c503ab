"""A demotion shows on the record sheet as the drop and the new
rank, not as the index difference ("+172")."""

from __future__ import annotations

from datetime import date

import pytest
from django.test import Client

from ratings import services
from ratings.models import Club
from ratings.recompute import recompute_list
from ratings.services import GameRow
from tests.support import MakePlayer


@pytest.mark.django_db
def test_a_demotion_shows_the_drop_and_the_new_rank(
    client: Client, club: Club, make_player: MakePlayer
) -> None:
    alice, bob = make_player("Alice Mokoena", rank=-5), make_player("Bob Smit", rank=-8)
    services.save_sheet(
        club=club, date=date(2024, 3, 1), rows=[GameRow(white=alice, black=bob, winner="black")]
    )
    services.add_adjustment(player=alice, date=date(2024, 4, 1), rank=-6, rating=72, reason="rank list")
    recompute_list(club.rating_list_id, full=True)
    html = client.get(alice.get_absolute_url()).content.decode()
    row = html.split('<tr class="adjustment">')[1].split("</tr>")[0]
    cells = [c.split(">", 1)[1] for c in row.split("</td>")[:-1]]
    assert cells[1] == "5k", "the rank before"
    assert cells[7] == "demoted 1 rank" and cells[9] == "6k", cells
    assert "+" not in cells[7]
    # The chart steps: a corner at the adjustment's date.
    points = html.split('<polyline class="line" fill="none" points="')[1].split('"')[0].split()
    xs = [p.split(",")[0] for p in points]
    assert len(points) == 3 and xs[1] == xs[2]
