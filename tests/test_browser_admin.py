"""List administration in a real browser, on a phone 375 px wide (issue 11).

The site admin (made by `manage.py setup`) logs in, creates a second list,
and as committee of the first creates a club and invites a volunteer; the
volunteer opens the e-mailed link, sets a password and lands on "My places"
with the club.  Every page must fit the 375 px viewport (the page never
scrolls sideways; wide tables scroll inside their container).  Screenshots
go to $ARTIFACTS_DIR (default artifacts/).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from django.core.management import call_command

from tests.conftest import PASSWORD
from tests.test_browser import CHROMIUM_ARGS, artifacts, browser  # noqa: F401  (fixtures)

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
    live_server,
    transactional_db,
    browser,
    artifacts,
    monkeypatch,  # noqa: F811
):  # type: ignore[no-untyped-def]
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
    link = re.search(r"https?://[^/\s]+(/accounts/invitations/[^/\s]+/)", mail.outbox[-1].body)
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
