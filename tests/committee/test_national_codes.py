"""The committee's national codes page (/lists/<slug>/codes/): the list's
country, clubs' EGD codes, players' countries and national ids, all or nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from ratings import services
from ratings.committee import exports
from ratings.models import Club, Player, RatingList
from tests.support import ROLES, ClientFor, MakePlayer, logged_in, refused_as


@pytest.fixture
def two(make_player: MakePlayer) -> tuple[Player, Player]:
    return make_player("Werner Mahlangu", rank=-12), make_player("Thabo le Roux", rank=-3)


def codes_post(club: Club, players: tuple[Player, ...], **changes: str) -> dict[str, str]:
    """The form as the page shows it, with ``changes`` (field name -> value) typed in."""
    data = {"country": club.rating_list.country, f"club_{club.pk}": club.egd_code}
    for player in players:
        for name in services.PLAYER_CODES:
            data[f"p{player.pk}_{name}"] = getattr(player, name)
    data.update(changes)
    return data


def url(club: Club) -> str:
    return reverse("national_codes", args=[club.rating_list.slug])


@pytest.mark.parametrize("role", ROLES)
def test_only_the_committee_of_the_list_sets_codes(
    role: str, client_for: ClientFor, club: Club, two: tuple[Player, Player]
) -> None:
    expected: dict[str, Any] = {"anonymous": "login", "committee": 302}
    data = codes_post(
        club, two, country="ZA", **{f"club_{club.pk}": "Stel", f"p{two[0].pk}_egd_pin": "12345678"}
    )
    client = client_for(role)
    response = client.post(url(club), data)
    if refused_as(response, expected.get(role, 403)):
        assert RatingList.objects.get(pk=club.rating_list_id).country == ""
        assert client.get(url(club)).status_code in (302, 403)
        return
    assert response.status_code == 302
    assert RatingList.objects.get(pk=club.rating_list_id).country == "ZA"
    assert Club.objects.get(pk=club.pk).egd_code == "Stel"
    assert Player.objects.get(pk=two[0].pk).egd_pin == "12345678"
    page = client.get(response["Location"])
    assert "3 codes saved" in page.content.decode()


@pytest.mark.parametrize("who", ["volunteer_b", "committee_2", "site_admin"])
def test_outsiders_are_refused_but_the_site_admin(
    who: str, outsiders: dict[str, User], club: Club, two: tuple[Player, Player]
) -> None:
    client = logged_in(outsiders[who])
    response = client.post(url(club), codes_post(club, two, country="GB"))
    if who == "site_admin":
        assert response.status_code == 302 and RatingList.objects.get(pk=club.rating_list_id).country == "GB"
    else:
        assert response.status_code == 403 and RatingList.objects.get(pk=club.rating_list_id).country == ""


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("country", "za", "two capital letters"),
        ("club", "Stellenbosch", "at most 4 characters"),
        ("club", "St-l", "up to four letters or digits"),
        ("p0_country", "ZAF", "at most 2 characters"),
        ("p0_egd_pin", "1234567", "an EGD PIN is eight digits"),
        ("p0_ffg_licence", "18-0014", "an FFG licence is seven digits"),
        ("p0_aga_id", "A7206", "an AGA id is digits"),
    ],
)
def test_a_wrong_code_is_refused_next_to_its_field_and_nothing_is_saved(
    client_for: ClientFor, club: Club, two: tuple[Player, Player], field: str, value: str, message: str
) -> None:
    name = {"club": f"club_{club.pk}"}.get(field, field.replace("p0_", f"p{two[0].pk}_"))
    data = codes_post(club, two, **{f"p{two[1].pk}_country": "ZW", name: value})
    response = client_for("committee").post(url(club), data)
    assert response.status_code == 400
    page = response.content.decode()
    assert "Nothing was saved" in page and message in page
    assert Player.objects.get(pk=two[1].pk).country == ""  # the good change is not saved either


def test_an_id_on_two_players_names_both(
    client_for: ClientFor, club: Club, two: tuple[Player, Player], make_player: MakePlayer
) -> None:
    anna = make_player("Anna Fourie", egd_pin="12345678")
    data = codes_post(club, (*two, anna), **{f"p{two[0].pk}_egd_pin": "12345678"})
    response = client_for("committee").post(url(club), data)
    assert response.status_code == 400
    assert "Werner Mahlangu: EGD PIN 12345678 is also Anna Fourie&#x27;s" in response.content.decode()
    with pytest.raises(services.CodesError, match="EGD PIN 23456789 is also"):
        services.set_national_codes(
            club.rating_list,
            country="",
            club_codes={},
            player_codes={p.pk: {"egd_pin": "23456789"} for p in two},
        )


def test_the_players_come_a_page_at_a_time(
    client_for: ClientFor, club: Club, make_player: MakePlayer
) -> None:
    for n in range(55):
        make_player(f"Player {n:02d}")
    first = client_for("committee").get(url(club)).content.decode()
    second = client_for("committee").get(url(club), {"page": 2}).content.decode()
    assert "Player 00" in first and "Player 54" not in first
    # 55 and the personas' "Player One".
    assert "Player 54" in second and "Players 51–56 of 56" in second


def test_saved_codes_are_written_in_the_exports(
    client_for: ClientFor, club: Club, two: tuple[Player, Player]
) -> None:
    from ratings import services as s

    s.save_sheet(club=club, date=two[0].since, rows=[s.GameRow(white=two[0], black=two[1], winner="white")])
    data = codes_post(
        club,
        two,
        country="ZA",
        **{f"club_{club.pk}": "Stel", f"p{two[1].pk}_country": "ZW", f"p{two[0].pk}_egd_pin": "12345678"},
    )
    assert client_for("committee").post(url(club), data).status_code == 302
    _, _, text = exports.export_games(RatingList.objects.get(pk=club.rating_list_id), None, None, "h9")
    assert " ZA Stel " in text and " ZW Stel " in text and "|12345678" in text
