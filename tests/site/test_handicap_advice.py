"""Handicap and komi advice: the public "what handicap do we
play?" page and the sheet's pre-fill.

SAGC's rule (the SAGC FAQ): one stone per rank of difference, the stronger
takes White; stones with 0.5 komi.  Between 5k and 8k: White to the 5k,
3 stones, komi 0.5, and with no game rated yet the prior's curve at x = 0
gives White 50 %.  The EGF's rating rule gives no handicap: the EGD's
tournament rule (grade difference) gives the same 3 stones.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from ratings.models import Club, Player, RatingList
from tests.support import ClientFor, MakePlayer


@pytest.fixture
def players(make_player: MakePlayer) -> dict[str, Player]:
    return {"alice": make_player("Alice Mokoena", rank=-5), "bob": make_player("Bob Smit", rank=-8)}


def rows(page: str) -> dict[str, str]:
    import re

    return {
        m.group(1): re.sub(r"<[^>]+>", "|", m.group(2))
        for m in re.finditer(r'<tr data-system="([a-z-]+)">(.*?)</tr>', page, re.S)
    }


def test_anyone_can_ask_what_handicap_two_players_play(club: Club, players: dict[str, Player]) -> None:
    lst = club.rating_list
    lst.compared_systems = ["egf"]
    lst.save()
    page = Client().get(reverse("handicap"), {"list": "sagc", "first": "Bob Smit", "second": "alice mokoena"})
    assert page.status_code == 200
    found = rows(page.content.decode())
    assert list(found) == ["sagc", "egf"]  # the primary system first
    cells = [c for c in found["sagc"].split("|") if c.strip()]
    assert cells[1:] == ["primary", "Alice Mokoena", "Bob Smit", "3", "0.5", "50 %"]
    egf = [c for c in found["egf"].split("|") if c.strip()]
    assert egf[1:5] == ["Alice Mokoena", "Bob Smit", "3", "0.5"]


def test_the_page_names_a_player_it_does_not_know(club: Club, players: dict[str, Player]) -> None:
    page = Client().get(reverse("handicap"), {"list": "sagc", "first": "Bob Smit", "second": "Nobody"})
    assert "Nobody is not a player of South African Go Clubs" in page.content.decode()
    assert 'data-system="' not in page.content.decode()


def test_the_page_offers_the_lists_players_once_a_list_is_chosen(
    club: Club, players: dict[str, Player], other_list: RatingList
) -> None:
    page = Client().get(reverse("handicap")).content.decode()
    assert "Choose a list" in page and "Bob Smit" not in page  # two lists: choose one first
    page = Client().get(reverse("handicap"), {"list": "sagc"}).content.decode()
    assert '<option value="Bob Smit">8k</option>' in page


def test_the_sheet_gets_the_handicap_of_a_pairing_to_fill_in(
    club: Club, players: dict[str, Player], client_for: ClientFor
) -> None:
    response = client_for("volunteer").get(
        reverse("sheet_advice"), {"club": str(club.pk), "white": "Alice Mokoena", "black": "Bob Smit"}
    )
    page = response.content.decode()
    assert 'data-stones="3" data-komi="0.5" data-swapped=""' in page
    assert "3 stones, komi 0.5 (filled in" in page


def test_the_sheet_says_so_when_the_rule_gives_white_to_the_other_player(
    club: Club, players: dict[str, Player], client_for: ClientFor
) -> None:
    page = (
        client_for("volunteer")
        .get(reverse("sheet_advice"), {"club": str(club.pk), "white": "Bob Smit", "black": "Alice Mokoena"})
        .content.decode()
    )
    assert 'data-swapped="1"' in page and "the rule gives White to Alice Mokoena" in page


def test_the_sheet_advice_is_empty_until_both_players_are_known(
    club: Club, players: dict[str, Player], client_for: ClientFor
) -> None:
    page = client_for("volunteer").get(
        reverse("sheet_advice"), {"club": str(club.pk), "white": "Alice Mokoena", "black": "Someone New"}
    )
    assert page.status_code == 200 and page.content.decode().strip() == ""


def test_the_sheet_advice_is_for_volunteers(
    club: Club, players: dict[str, Player], client_for: ClientFor
) -> None:
    response = client_for("anonymous").get(reverse("sheet_advice"), {"club": club.pk})
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_the_lists_page_links_to_the_handicap_page_and_its_committee_to_the_figures(
    club: Club, client_for: ClientFor
) -> None:
    url = reverse("rating_list", args=[club.rating_list.slug])
    public = client_for("anonymous").get(url).content.decode()
    assert f"{reverse('handicap')}?list=sagc" in public
    assert reverse("list_predictions", args=["sagc"]) not in public
    assert reverse("list_predictions", args=["sagc"]) in client_for("committee").get(url).content.decode()
