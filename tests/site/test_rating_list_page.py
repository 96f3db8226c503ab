"""The public page of a rating list: its clubs with their member counts."""

from __future__ import annotations

from django.test import Client

from ratings.models import Club
from tests.support import MakePlayer


def test_it_lists_the_clubs_with_their_member_counts(
    client: Client, club: Club, other_club: Club, make_player: MakePlayer
) -> None:
    make_player("Ann Botha")
    make_player("Ben Nel")
    make_player("Cas Venter", club=other_club)
    response = client.get(f"/lists/{club.rating_list.slug}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'Stellenbosch Go Club</a> <span class="hint">2 members</span>' in html
    assert 'Cape Town Go Club</a> <span class="hint">1 member</span>' in html
