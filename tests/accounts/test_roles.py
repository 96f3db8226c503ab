"""Roles on the read side: navigation by role, "my record sheet", login,
logout and password change."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from ratings.models import Club
from tests.support import PASSWORD, ClientFor, Personas

COMMITTEE_LINKS = ["Rank adjustments", "List settings", "Export", "Import"]
NAV_BY_ROLE = {
    # role: (links that must be there, links that must not)
    "anonymous": (
        ["Players", "Log", "Log in"],
        ["My record sheet", "Enter a sheet", *COMMITTEE_LINKS, "Log out"],
    ),
    "player": (
        ["Players", "Log", "My record sheet", "Log out"],
        ["Enter a sheet", *COMMITTEE_LINKS, "Log in<"],
    ),
    # Exports are the committee's now: a volunteer is not offered a page that refuses them.
    "volunteer": (["Players", "Log", "Enter a sheet", "Log out"], ["My record sheet", *COMMITTEE_LINKS]),
    "committee": (["Players", "Log", "Enter a sheet", *COMMITTEE_LINKS, "Log out"], ["My record sheet"]),
}


@pytest.mark.parametrize("role", list(NAV_BY_ROLE))
def test_the_navigation_shows_what_the_role_may_use(client_for: ClientFor, role: str) -> None:
    html = client_for(role).get(reverse("players")).content.decode()
    nav = html[html.index("<nav") : html.index("</nav>")]
    present, absent = NAV_BY_ROLE[role]
    for text in present:
        assert text in nav, text
    for text in absent:
        assert text not in nav, text


def test_the_navigation_of_a_volunteer_of_another_club_and_of_another_lists_committee(
    client: Client, outsiders: dict[str, User]
) -> None:
    client.force_login(outsiders["volunteer_b"])
    nav = client.get(reverse("players")).content.decode()
    assert "Enter a sheet" in nav and "Rank adjustments" not in nav
    client.force_login(outsiders["committee_2"])
    nav = client.get(reverse("players")).content.decode()
    assert 'href="/lists/guildford/settings/"' in nav and 'href="/lists/sagc/settings/"' not in nav


@pytest.mark.parametrize("role", ["volunteer", "committee"])
def test_volunteers_and_committee_see_enter_a_sheet(client_for: ClientFor, role: str) -> None:
    html = client_for(role).get(reverse("players")).content.decode()
    assert f'href="{reverse("sheet_new")}"' in html


def test_the_committee_sees_its_links(client_for: ClientFor) -> None:
    url = reverse("adjustments")
    assert f'href="{url}"' in client_for("committee").get(reverse("players")).content.decode()
    assert f'href="{url}"' not in client_for("volunteer").get(reverse("players")).content.decode()


def test_my_sheet_sends_anonymous_visitors_to_log_in(client: Client) -> None:
    response = client.get(reverse("my_sheet"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_my_sheet_takes_a_linked_player_to_their_record_sheet(
    client_for: ClientFor, personas: Personas
) -> None:
    response = client_for("player").get(reverse("my_sheet"))
    assert response.status_code == 302
    assert response["Location"] == personas["player"].players.get().get_absolute_url()


def test_my_sheet_is_marked_current_on_the_players_own_page(
    client_for: ClientFor, personas: Personas
) -> None:
    client = client_for("player")
    own = client.get(personas["player"].players.get().get_absolute_url()).content.decode()
    assert f'href="{reverse("my_sheet")}" aria-current="page">My record sheet' in own
    other = client.get(reverse("players")).content.decode()
    assert f'href="{reverse("my_sheet")}">My record sheet' in other


@pytest.mark.parametrize("role", ["volunteer", "committee"])
def test_my_sheet_explains_when_the_account_is_not_linked(client_for: ClientFor, role: str) -> None:
    response = client_for(role).get(reverse("my_sheet"))
    assert response.status_code == 404
    assert b"not linked to a player" in response.content


def test_the_recompute_notice_shows_on_every_page(client: Client, club: Club) -> None:
    from datetime import date

    club.rating_list.dirty_from = date(2024, 3, 1)
    club.rating_list.save()
    html = client.get(reverse("players")).content.decode()
    assert 'class="notice recompute"' in html
    assert "South African Go Clubs" in html[html.index('class="notice recompute"') :]


def test_a_user_logs_in_and_lands_where_they_were_going(client: Client, personas: Personas) -> None:
    assert client.get(reverse("login")).status_code == 200
    response = client.post(reverse("login"), {"username": "volunteer", "password": PASSWORD, "next": "/log/"})
    assert response.status_code == 302 and response["Location"] == "/log/"


def test_a_wrong_password_is_refused(client: Client, personas: Personas) -> None:
    response = client.post(reverse("login"), {"username": "volunteer", "password": "nope"})
    assert response.status_code == 200
    assert b"errors" in response.content
    assert "_auth_user_id" not in client.session


def test_a_user_logs_out_with_a_post(client_for: ClientFor) -> None:
    client = client_for("player")
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def test_the_password_change_page_needs_a_login(client: Client, db: None) -> None:
    response = client.get(reverse("password_change"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("role", ["player", "volunteer", "committee"])
def test_every_logged_in_role_can_change_their_password(
    client_for: ClientFor, personas: Personas, role: str
) -> None:
    client = client_for(role)
    assert client.get(reverse("password_change")).status_code == 200
    new = "a-much-better-passphrase-42"
    response = client.post(
        reverse("password_change"), {"old_password": PASSWORD, "new_password1": new, "new_password2": new}
    )
    assert response.status_code == 302 and response["Location"] == reverse("password_change_done")
    assert User.objects.get(username=role).check_password(new)
    assert client.get(reverse("password_change_done")).status_code == 200


@pytest.mark.parametrize("role", ["player", "volunteer", "committee"])
def test_the_header_offers_a_visible_password_link(client_for: ClientFor, role: str) -> None:
    html = client_for(role).get(reverse("players")).content.decode()
    account = html[html.index('<div class="account">') :].split("</div>")[0]
    assert f'href="{reverse("password_change")}"' in account
    assert ">Password</a>" in account
