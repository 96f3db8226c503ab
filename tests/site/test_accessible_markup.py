"""What the accessibility work fixed in the markup (issue 25, docs/accessibility.md),
checked on the HTML the server writes; the browser side (axe-core on every
page, the menu, the cards) is tests/browser/test_accessibility.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from ratings.models import Club, RatingList
from tests.support import ClientFor, Personas, committee_of


def test_form_errors_and_help_are_tied_to_their_fields(client_for: ClientFor) -> None:
    page = client_for("player").post("/accounts/password/", {}).content.decode()
    box = re.search(r'<input[^>]*name="new_password1"[^>]*>', page)
    assert box, page
    described = re.search(r'aria-describedby="([^"]+)"', box.group(0))
    assert described and 'aria-invalid="true"' in box.group(0)
    ids = described.group(1).split()
    assert ids == ["id_new_password1_helptext", "id_new_password1_error"]
    for name in ids:
        assert f'id="{name}"' in page, f"{name} is named by the field but not on the page"
    assert "This field is required." in page.split('id="id_new_password1_error"')[1][:200]


@pytest.mark.django_db
def test_the_password_rules_are_a_list_not_one_run_of_text(client: Client) -> None:
    from accounts.services import invitations

    rating_list = RatingList.objects.create(name="L", slug="l")
    club = Club.objects.create(rating_list=rating_list, name="C", slug="c")
    _, token = invitations.invite("new@example.org", "volunteer", rating_list, club, by=None)
    page = client.get(f"/accounts/invitations/{token}/").content.decode()
    help_text = page.split('id="id_password1_helptext"')[1].split("</div>")[0]
    assert help_text.count("<li>") >= 2
    assert not re.search(r"[a-z]\.Your", page), "two rules run together"


def test_the_committees_list_settings_link_goes_to_the_list_shown(
    personas: Personas, other_list: RatingList, client: Client
) -> None:
    """A member of two lists' committees (the site admin, say) viewing the
    second list: "List settings" goes to that list, not their first."""
    user = personas["committee"]
    committee_of(user, other_list)  # Guildford Ladder sorts before South African Go Clubs
    client.force_login(user)

    def settings_link(path: str) -> str:
        page = client.get(path).content.decode()
        found = re.search(r'<a href="(/lists/[^/]+/settings/)"[^>]*>List settings</a>', page)
        assert found, path
        return found.group(1)

    assert settings_link("/lists/sagc/") == "/lists/sagc/settings/"
    assert settings_link("/clubs/stellenbosch/") == "/lists/sagc/settings/"
    assert settings_link("/lists/guildford/") == "/lists/guildford/settings/"
    assert settings_link("/players/") == "/lists/guildford/settings/"  # no list shown: the first


@pytest.mark.django_db
def test_every_page_names_the_icon_and_favicon_ico_leads_to_it(client: Client) -> None:
    page = client.get("/how/").content.decode()
    icon = re.search(r'<link rel="icon" href="([^"]+)"', page)
    assert icon and icon.group(1).endswith("favicon.svg")
    answer = client.get("/favicon.ico")
    assert answer.status_code == 301 and answer["Location"] == icon.group(1)
    found = finders.find("favicon.svg")
    assert isinstance(found, str) and "<svg" in Path(found).read_text()


def test_the_menu_button_names_what_it_opens(client_for: ClientFor) -> None:
    page = client_for("committee").get("/players/").content.decode()
    button = re.search(r'<button type="button" class="menu-toggle"[^>]*>', page)
    assert (
        button
        and 'aria-controls="site-menu"' in button.group(0)
        and 'aria-expanded="false"' in button.group(0)
    )
    menu = page.split('id="site-menu"')[1]
    assert "Enter a sheet" in menu and "Log out" in menu, "the whole navigation is inside the menu"
