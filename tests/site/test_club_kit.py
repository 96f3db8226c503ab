"""The printable club-night kit."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.test import Client

from ratings import services
from ratings.models import Club
from ratings.names import matching
from ratings.services import GameRow
from tests.support import MakePlayer


@pytest.mark.django_db
def test_the_kit_lists_the_active_players_by_rank_and_the_lists_handicap_rule(
    client: Client, club: Club, make_player: MakePlayer
) -> None:
    long_ago = date.today() - timedelta(days=matching.INACTIVE_AFTER_DAYS + 40)
    alice, bob = make_player("Alice Mokoena", rank=-5), make_player("Bob Smit", rank=-8)
    gone = make_player("Olga Old", rank=-3, since=long_ago - timedelta(days=1))
    services.save_sheet(club=club, date=long_ago, rows=[GameRow(white=gone, black=bob, winner="white")])
    services.save_sheet(club=club, date=date.today(), rows=[GameRow(white=alice, black=bob, winner="white")])
    response = client.get(f"/clubs/{club.slug}/kit/")
    html = response.content.decode()
    assert response.status_code == 200
    players = html.split('<ol class="kit-players">')[1].split("</ol>")[0]
    assert players.index("Alice Mokoena") < players.index("Bob Smit"), "strongest first"
    assert '<span class="rank">5k</span>' in players and "Olga Old" not in players
    assert "One stone per rank of difference" in html  # SAGC, the list's primary system
    assert html.count("<tr><td>") == 20


def test_the_kit_prints_one_section_a_page_without_the_site_menu() -> None:
    from pathlib import Path

    css = (Path(__file__).resolve().parent.parent.parent / "static/css/kit.css").read_text()
    print_rules = css.split("@media print")[1]
    assert ".site-header" in print_rules and "break-after: page" in print_rules
