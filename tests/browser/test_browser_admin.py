"""List administration in a real browser.

The second test is a whole walk: a list set up in the browser, two
clubs, a volunteer each, a visitor with one record sheet.  The first, on a
phone 375 px wide:

The site admin (made by `manage.py setup`) logs in, creates a second list,
and as committee of the first creates a club and invites a volunteer; the
volunteer opens the e-mailed link, sets a password and lands on "My places"
with the club.  Every page must fit the 375 px viewport (the page never
scrolls sideways; wide tables scroll inside their container).  Screenshots
go to $ARTIFACTS_DIR (default artifacts/).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.core import mail
from django.core.management import call_command
from pytest_django.live_server_helper import LiveServer

from tests.browser.pages import DESKTOP, fill_player, read_sheet
from tests.support import PASSWORD

pytestmark = pytest.mark.browser

PHONE_375 = {"width": 375, "height": 812}


def fits(page: Any, name: str, folder: Any) -> None:
    page.screenshot(path=str(folder / f"admin-{name}.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE_375["width"], f"{name}: the page is {width} px wide on a 375 px phone"


def log_in(page: Any, url: str, username: str) -> None:
    page.goto(f"{url}/accounts/login/")
    page.fill('input[name="username"]', username)
    page.fill('input[name="password"]', PASSWORD)
    page.click('button[type="submit"]')


def test_the_admin_sets_up_in_the_browser_and_a_volunteer_joins_by_e_mail(
    live_server: LiveServer,
    transactional_db: None,
    browser: Any,
    artifacts: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from accounts.models import Volunteer
    from ratings.models import RatingList

    monkeypatch.setenv("CLUBRATING_ADMIN_PASSWORD", PASSWORD)
    call_command(
        "setup", "--list", "South African Go Clubs", "--club", "Stellenbosch Go Club",
        "--admin", "root", "--email", "root@example.org", "--no-input", stdout=None,
    )  # fmt: skip
    url = live_server.url
    admin = browser.new_page(viewport=PHONE_375)
    log_in(admin, url, "root")

    admin.goto(f"{url}/accounts/places/")
    fits(admin, "01-my-places", artifacts)
    admin.click("text=create rating lists")
    admin.fill('input[name="name"]', "Guildford Ladder")
    admin.select_option('select[name="primary_system"]', "west-surrey")
    fits(admin, "02-new-list", artifacts)
    admin.click("text=Create the list")
    assert admin.url.endswith("/lists/guildford-ladder/")
    assert RatingList.objects.get(slug="guildford-ladder").primary_system == "west-surrey"

    admin.goto(f"{url}/lists/south-african-go-clubs/")
    fits(admin, "03-list-page", artifacts)
    admin.click("text=New club")
    admin.fill('input[name="name"]', "Cape Town Go Club")
    admin.click("text=Create the club")
    assert "Created Cape Town Go Club" in admin.content()

    admin.goto(f"{url}/clubs/cape-town-go-club/")
    fits(admin, "04-club-page", artifacts)
    admin.click("text=Invite a volunteer")
    admin.fill('input[name="email"]', "thandi@example.org")
    assert admin.input_value('select[name="place"]').startswith("club:"), "the club page chose the club"
    admin.click("text=Send the invitation")
    fits(admin, "05-invitations", artifacts)
    link = re.search(r"https?://[^/\s]+(/accounts/invitations/[^/\s]+/)", str(mail.outbox[-1].body))
    assert link, mail.outbox[-1].body

    volunteer = browser.new_page(viewport=PHONE_375)
    volunteer.goto(f"{url}{link.group(1)}")
    fits(volunteer, "06-invitation", artifacts)
    volunteer.fill('input[name="username"]', "thandi")
    volunteer.fill('input[name="password1"]', PASSWORD)
    volunteer.fill('input[name="password2"]', PASSWORD)
    volunteer.click("text=Create my account and accept")
    assert volunteer.url.endswith("/accounts/places/")
    assert "Cape Town Go Club" in volunteer.content()
    fits(volunteer, "07-volunteer-places", artifacts)
    assert Volunteer.objects.filter(user__username="thandi", club__slug="cape-town-go-club").exists()

    admin.goto(f"{url}/lists/south-african-go-clubs/members/")
    assert "thandi" in admin.content()
    fits(admin, "08-members", artifacts)
    admin.goto(f"{url}/lists/south-african-go-clubs/link-requests/")
    fits(admin, "09-link-requests", artifacts)


def accept_invitation(browser: Any, url: str, username: str) -> Any:
    """The newest e-mail's link, opened by a newcomer who sets a password."""
    link = re.search(r"https?://[^/\s]+(/accounts/invitations/[^/\s]+/)", str(mail.outbox[-1].body))
    assert link, mail.outbox[-1].body
    page = browser.new_page(viewport=DESKTOP)
    page.set_default_timeout(15_000)
    page.goto(f"{url}{link.group(1)}")
    page.fill('input[name="username"]', username)
    page.fill('input[name="password1"]', PASSWORD)
    page.fill('input[name="password2"]', PASSWORD)
    page.click("text=Create my account and accept")
    assert page.url.endswith("/accounts/places/"), page.url
    return page


def invite_by_form(page: Any, url: str, list_slug: str, email: str, role_label: str) -> None:
    page.goto(f"{url}/lists/{list_slug}/invitations/")
    page.fill('input[name="email"]', email)
    page.select_option('select[name="place"]', label=role_label)
    page.click("text=Send the invitation")
    assert "Invitation sent to" in page.content()


def enter_game(page: Any, white: tuple[str, str | None], black: tuple[str, str | None], winner: int) -> None:
    """One game on a new sheet at the volunteer's club; a rank for a new player."""
    page.click("text=enter a sheet")
    page.wait_for_url(re.compile(r"/sheets/new/"))
    for field, (name, rank) in (("row-0-white", white), ("row-0-black", black)):
        fill_player(page, field, name)
        if rank is not None:
            page.wait_for_selector(f'input[name="{field}_rank"]')
            page.fill(f'input[name="{field}_rank"]', rank)
        else:
            page.wait_for_selector(f"#id_{field}-status .known")
    page.check(f"#id_row-0-winner_{winner}")
    with page.expect_navigation():
        page.click("button.save")
    if page.locator("#improbable").count():  # the list's entry check: confirm as the paper says
        page.check("#improbable input[type=checkbox]")
        page.click("button.save")
    page.wait_for_url(re.compile(r"/sheets/\d+/$"))


def test_a_list_with_two_clubs_set_up_in_the_browser_rates_a_visitor_on_one_record_sheet(
    live_server: LiveServer, transactional_db: None, browser: Any, artifacts: Path
) -> None:
    """One list, many clubs, from nothing: the site admin creates a list; its committee
    creates two clubs and invites one volunteer for each; each volunteer
    enters a sheet at their club, one of them with a player whose home club
    is the other; that player has one record sheet holding both clubs' games."""
    from django.contrib.auth.models import User

    from ratings.models import Game, Player

    User.objects.create_superuser("root", "root@example.org", PASSWORD)
    url = live_server.url
    root = browser.new_page(viewport=DESKTOP)
    log_in(root, url, "root")
    root.goto(f"{url}/lists/new/")
    root.fill('input[name="name"]', "Western Cape Go")
    root.click("text=Create the list")
    invite_by_form(root, url, "western-cape-go", "chair@example.org", "Committee of Western Cape Go")

    chair = accept_invitation(browser, url, "chair")
    for name in ("Stellenbosch Go Club", "Cape Town Go Club"):
        chair.goto(f"{url}/lists/western-cape-go/clubs/new/")
        chair.fill('input[name="name"]', name)
        chair.click("text=Create the club")
    invite_by_form(chair, url, "western-cape-go", "ann@example.org", "Volunteer at Stellenbosch Go Club")
    ann = accept_invitation(browser, url, "ann")
    invite_by_form(chair, url, "western-cape-go", "ben@example.org", "Volunteer at Cape Town Go Club")
    ben = accept_invitation(browser, url, "ben")

    enter_game(ann, ("Alice Mokoena", "5k"), ("Bob Smit", "8k"), winner=0)
    enter_game(ben, ("Alice Mokoena", None), ("Carol Venter", "10k"), winner=1)

    alice = Player.objects.get(name="Alice Mokoena")
    assert alice.home_club is not None and alice.home_club.slug == "stellenbosch-go-club"
    played = Game.objects.filter(white=alice) | Game.objects.filter(black=alice)
    assert sorted(played.values_list("club__slug", flat=True)) == [
        "cape-town-go-club",
        "stellenbosch-go-club",
    ]
    assert Player.objects.filter(rating_list__slug="western-cape-go").count() == 3
    ben.goto(f"{url}/players/{alice.slug}/")
    opponents = [row[0] for row in read_sheet(ben)]  # the name alone, not its h2h link
    assert sorted(opponents) == ["Bob Smit", "Carol Venter"]
    ben.screenshot(path=str(artifacts / "admin-10-visitor-record-sheet.png"), full_page=True)
