"""A rating list set up and used from the browser alone.

Playwright drives Debian's Chromium against the live server: the site admin
creates a list and invites its committee; the committee creates two clubs
and invites one volunteer for each; each invitee opens the one-time link
from the e-mail (Django's locmem outbox in tests) and sets a password; each
volunteer enters a sheet at their own club (the only club they are offered),
the second with two players whose home club is the first; and every player
has one record sheet holding their games of both clubs.  Every page is saved
as a screenshot in $ARTIFACTS_DIR (default artifacts/), prefixed "lists-".
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.mail import EmailMessage
from pytest_django.live_server_helper import LiveServer

from tests.browser.pages import DESKTOP, add_row, fill_player, read_sheet, shoot
from tests.support import PASSWORD

pytestmark = pytest.mark.browser

LIST_NAME = "Western Cape Go"
LINK = re.compile(r"https?://\S+/accounts/invitations/[^/\s]+/")


def new_page(browser: Any) -> Any:
    """A page in a browser context of its own: one person, one set of cookies."""
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.set_default_timeout(15_000)
    return page


def save(page: Any) -> None:
    """Press a form's main button and wait for the next page."""
    with page.expect_navigation():
        page.click("form button.save")


def invite(page: Any, url: str, email: str, place: str, mailoutbox: list[Any]) -> str:
    """Send an invitation from the list's invitations page; the link in the e-mail."""
    page.goto(url)
    page.fill('input[name="email"]', email)
    page.select_option('select[name="place"]', label=place)
    sent = len(mailoutbox)
    save(page)
    assert f"Invitation sent to {email}" in page.inner_text("body")
    assert len(mailoutbox) == sent + 1
    message = mailoutbox[-1]
    assert message.to == [email] and place.lower() in message.subject.lower()
    match = LINK.search(message.body)
    assert match, message.body
    return match.group(0)


def accept(browser: Any, link: str, username: str, folder: Path) -> Any:
    """A newcomer opens the link, chooses a username and password: logged in."""
    page = new_page(browser)
    page.goto(link)
    assert "You are invited" in page.inner_text("h1")
    page.fill('input[name="username"]', username)
    page.fill('input[name="password1"]', PASSWORD)
    page.fill('input[name="password2"]', PASSWORD)
    shoot(page, folder, f"lists-03-invitation-{username}")
    with page.expect_navigation():
        page.click("form.stacked button[type=submit]")
    assert f"Welcome, {username}" in page.inner_text("body"), page.inner_text("body")
    return page


Row = tuple[str, str | None, str, str | None, str]  # white, rank if new, black, rank if new, winner


def fill_side(page: Any, field: str, name: str, new_rank: str | None) -> None:
    """A player's name; a new one's starting rank, or the sign that the list knows them."""
    fill_player(page, field, name)
    if new_rank is None:
        page.wait_for_selector(f"#id_{field}-status .known")
    else:
        page.wait_for_selector(f'input[name="{field}_rank"]')
        page.fill(f'input[name="{field}_rank"]', new_rank)


def enter_sheet(page: Any, base: str, club: str, day: date, rows: list[Row]) -> None:
    """Enter a sheet at ``club``, the only club a volunteer of it is offered."""
    page.goto(f"{base}/sheets/new/")
    options = page.locator('select[name="club"] option').all_inner_texts()
    assert [o.strip() for o in options] == [club]
    page.fill('input[name="date"]', day.isoformat())
    page.fill('input[name="event"]', "Club night")
    for n, (white, white_rank, black, black_rank, winner) in enumerate(rows):
        if n:
            add_row(page, n)
        fill_side(page, f"row-{n}-white", white, white_rank)
        fill_side(page, f"row-{n}-black", black, black_rank)
        page.check(f"#id_row-{n}-winner_{0 if winner == 'white' else 1}")
    with page.expect_navigation():
        page.click("button.save")
    if page.locator("#improbable").count():  # the list's entry check: confirm as the paper says
        page.check("#improbable input[type=checkbox]")
        with page.expect_navigation():
            page.click("button.save")
    if not re.search(r"/sheets/\d+/$", page.url):
        pytest.fail(f"the sheet was not saved: {page.locator('.error-summary').all_inner_texts()}")
    assert f"Saved {len(rows)} game" in page.inner_text("body")
    assert club in page.inner_text("main")  # the saved sheet names where it was entered


def test_a_list_is_set_up_in_the_browser_and_a_visitor_has_one_record_sheet_for_both_clubs(
    live_server: LiveServer,
    transactional_db: None,
    mailoutbox: list[EmailMessage],
    browser: Any,
    artifacts: Path,
) -> None:
    from django.contrib.auth.models import User

    from accounts.models import CommitteeMember, Volunteer
    from ratings.models import Club, Game, Player, RatingList, RecordSheet

    User.objects.create_superuser("admin", "admin@example.org", PASSWORD)
    base = live_server.url

    # The site admin logs in and creates the list.
    admin = new_page(browser)
    admin.goto(f"{base}/lists/new/")
    assert "/accounts/login/" in admin.url
    admin.fill('input[name="username"]', "admin")
    admin.fill('input[name="password"]', PASSWORD)
    with admin.expect_navigation():
        admin.click("main form button[type=submit]")
    admin.fill('input[name="name"]', LIST_NAME)
    admin.select_option('select[name="primary_system"]', "sagc")
    shoot(admin, artifacts, "lists-01-new-list")
    save(admin)
    rating_list = RatingList.objects.get(name=LIST_NAME)
    assert admin.url.rstrip("/").endswith(f"/lists/{rating_list.slug}")
    assert rating_list.primary_system == "sagc" and not rating_list.clubs.exists()
    shoot(admin, artifacts, "lists-02-list-created")

    # ... and invites its committee, who accepts by the link in the e-mail.
    invitations = f"{base}/lists/{rating_list.slug}/invitations/"
    link = invite(admin, invitations, "officer@example.org", f"Committee of {LIST_NAME}", mailoutbox)
    committee = accept(browser, link, "officer", artifacts)
    assert CommitteeMember.objects.filter(user__username="officer", rating_list=rating_list).exists()

    # The committee creates two clubs ...
    for name in ("Stellenbosch Go Club", "Cape Town Go Club"):
        committee.goto(f"{base}/lists/{rating_list.slug}/clubs/new/")
        committee.fill('input[name="name"]', name)
        save(committee)
        assert f"Created {name}" in committee.inner_text("body")
    shoot(committee, artifacts, "lists-04-two-clubs")
    stellenbosch = Club.objects.get(name="Stellenbosch Go Club", rating_list=rating_list)
    cape_town = Club.objects.get(name="Cape Town Go Club", rating_list=rating_list)

    # ... and invites one volunteer for each; each accepts.
    volunteers = {}
    for username, club in (("anna", stellenbosch), ("sipho", cape_town)):
        link = invite(
            committee, invitations, f"{username}@example.org", f"Volunteer at {club.name}", mailoutbox
        )
        volunteers[username] = accept(browser, link, username, artifacts)
    shoot(committee, artifacts, "lists-05-invitations")
    seats = set(Volunteer.objects.values_list("user__username", "club__slug"))
    assert seats == {("anna", stellenbosch.slug), ("sipho", cape_town.slug)}

    # Each volunteer enters a sheet at their club; Cape Town's has two
    # Stellenbosch players visiting, who meet a Cape Town newcomer.
    yesterday, today = date.today() - timedelta(days=1), date.today()
    anna, sipho = volunteers["anna"], volunteers["sipho"]
    enter_sheet(
        anna, base, stellenbosch.name, yesterday, [("Alice Mokoena", "5k", "Bob Smit", "8k", "white")]
    )
    shoot(anna, artifacts, "lists-06-sheet-stellenbosch")
    enter_sheet(
        sipho,
        base,
        cape_town.name,
        today,
        [
            ("Alice Mokoena", None, "Carol Nkosi", "12k", "black"),
            ("Bob Smit", None, "Carol Nkosi", None, "white"),  # new on game 1: known on game 2
        ],
    )
    shoot(sipho, artifacts, "lists-07-sheet-cape-town")

    sheets = {sheet.club: sheet for sheet in RecordSheet.objects.all()}
    assert set(sheets) == {stellenbosch, cape_town}
    by_anna, by_sipho = sheets[stellenbosch].entered_by, sheets[cape_town].entered_by
    assert by_anna is not None and by_anna.username == "anna"
    assert by_sipho is not None and by_sipho.username == "sipho"
    players = {p.name: p for p in Player.objects.filter(rating_list=rating_list)}
    assert sorted(players) == [
        "Alice Mokoena",
        "Bob Smit",
        "Carol Nkosi",
    ]  # one player each, not one per club
    assert {name: p.home_club for name, p in players.items()} == {
        "Alice Mokoena": stellenbosch,
        "Bob Smit": stellenbosch,
        "Carol Nkosi": cape_town,
    }

    # Every player's one record sheet holds their games of both clubs.
    for name, player in players.items():
        games = list(Game.objects.of_player(player).select_related("white", "black", "club"))
        clubs = {game.club for game in games}
        assert clubs == ({cape_town} if name == "Carol Nkosi" else {stellenbosch, cape_town}), name
        sipho.goto(f"{base}{player.get_absolute_url()}")
        rows = read_sheet(sipho)
        expected = sorted(
            (game.black.name if game.white == player else game.white.name, game.date.isoformat())
            for game in games
        )
        assert sorted((row[0], row[10]) for row in rows) == expected, name
        assert all(row[8] for row in rows), f"{name}: a row without a rating"
        shoot(sipho, artifacts, f"lists-08-record-sheet-{player.slug}")
