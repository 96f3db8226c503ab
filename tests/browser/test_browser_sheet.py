"""Sheet entry with the keyboard in a real browser.

Playwright drives Debian's Chromium (launch options and fixtures in
tests/browser/conftest.py): a new player typed on game 1 is known on game 2
without a second rank; Tab goes from a new name to its rank; Enter in a row
moves to the next row (adding one at the end) and never submits; the kind
is chosen per game.  Screenshots go to $ARTIFACTS_DIR (default artifacts/).
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from pytest_django.live_server_helper import LiveServer

from tests.browser.pages import DESKTOP, add_player, add_row, fill_player, log_in, open_entry, settled, shoot
from tests.support import PASSWORD

pytestmark = pytest.mark.browser


def focused_name(page: Any) -> str:
    return str(page.evaluate("document.activeElement && document.activeElement.name"))


def test_a_new_player_is_typed_once_and_enter_and_tab_follow_the_sheet(
    live_server: LiveServer,
    history: dict[str, Any],
    browser: Any,
    artifacts: Path,
) -> None:
    from ratings.models import Player, RecordSheet

    page = browser.new_page(viewport=DESKTOP)
    page.set_default_timeout(15_000)
    log_in(page, live_server.url)
    page.fill('input[name="date"]', (date.today() - timedelta(days=1)).isoformat())
    page.fill('input[name="event"]', "Keyboard night")

    # Game 1: Tab from a new name lands in its starting rank.
    page.click('input[name="row-0-white"]')
    page.keyboard.type("Alice Mokoena")
    page.keyboard.press("Tab")
    page.wait_for_selector("#id_row-0-white-status .known")
    page.click('input[name="row-0-black"]')
    page.keyboard.type("Dora Newcomer")
    page.keyboard.press("Tab")
    page.wait_for_selector('input[name="row-0-black_rank"]')
    page.wait_for_function("document.activeElement && document.activeElement.name === 'row-0-black_rank'")
    page.keyboard.type("15k")
    page.check("#id_row-0-winner_1")  # Black
    shoot(page, artifacts, "16-01-new-player-rank")

    # Enter in a row: the next row (added), never a submit.
    page.click('input[name="row-0-handicap"]')
    page.keyboard.press("Enter")
    page.wait_for_selector('input[name="row-1-white"]')
    page.wait_for_function("document.activeElement && document.activeElement.name === 'row-1-white'")
    settled(page)  # htmx checks the new row's names once it has settled
    assert RecordSheet.objects.count() == 1  # only the one of the fixture
    assert page.url.endswith("/sheets/new/")

    # Game 2 names the new player again: known, no second rank asked.
    page.keyboard.type("dora newcomer")
    page.keyboard.press("Tab")
    page.wait_for_selector("#id_row-1-white-status .new-player")
    assert "new, 15k (game 1)" in page.inner_text("#id_row-1-white-status")
    assert page.locator('input[name="row-1-white_rank"]').count() == 0
    assert focused_name(page) == "row-1-black"
    page.keyboard.type("Bob Smit")
    page.keyboard.press("Tab")
    page.wait_for_selector("#id_row-1-black-status .known")
    page.select_option('select[name="row-1-kind"]', "free")
    page.check("#id_row-1-winner_0")  # White

    # Enter in the last row's name field adds game 3; it is left empty.
    page.click('input[name="row-1-black"]')
    page.keyboard.press("Enter")
    page.wait_for_selector('input[name="row-2-white"]')
    assert focused_name(page) == "row-2-white"
    shoot(page, artifacts, "16-02-keyboard-sheet")

    page.click("button.save")
    page.wait_for_url(re.compile(r"/sheets/\d+/$"))
    sheet = RecordSheet.objects.get(event="Keyboard night")
    dora = Player.objects.get(name="Dora Newcomer")
    games = list(sheet.games.order_by("id"))
    assert [(g.white.name, g.black.name, g.kind) for g in games] == [
        ("Alice Mokoena", "Dora Newcomer", "club"),
        ("Dora Newcomer", "Bob Smit", "free"),
    ]
    assert dora.start_rank == -15
    shoot(page, artifacts, "16-03-keyboard-sheet-saved")


def enter_game(page: Any, n: int, white: str, black: str, winner: int) -> None:
    for colour, name in (("white", white), ("black", black)):
        fill_player(page, f"row-{n}-{colour}", name)
        page.wait_for_selector(f"#id_row-{n}-{colour}-status .known")
    page.check(f"#id_row-{n}-winner_{winner}")


def test_a_sheet_entered_twice_is_warned_deleted_and_restored_and_a_forgotten_game_added(
    live_server: LiveServer,
    history: dict[str, Any],
    browser: Any,
    artifacts: Path,
) -> None:
    from ratings.models import LogEntry, RecordSheet

    page = browser.new_page(viewport=DESKTOP)
    page.set_default_timeout(15_000)
    log_in(page, live_server.url)
    night = (date.today() - timedelta(days=1)).isoformat()

    def enter_sheet() -> None:
        page.goto(f"{live_server.url}/sheets/new/")
        page.fill('input[name="date"]', night)
        page.fill('input[name="event"]', "Twice")
        enter_game(page, 0, "Alice Mokoena", "Bob Smit", 0)
        add_row(page, 1)
        enter_game(page, 1, "Chen Wei", "Alice Mokoena", 1)
        page.click("button.save")

    enter_sheet()
    page.wait_for_url(re.compile(r"/sheets/\d+/$"))
    first = RecordSheet.objects.get(event="Twice")

    # The same sheet again: a warning, nothing saved; "Save anyway" saves it.
    enter_sheet()
    page.wait_for_selector(".repeats")
    assert "Game 1:" in page.inner_text(".repeats") and "Game 2:" in page.inner_text(".repeats")
    assert RecordSheet.objects.filter(event="Twice").count() == 1
    assert f'href="/sheets/{first.pk}/"' in page.inner_html(".recent-sheets")  # who, when, how many games
    shoot(page, artifacts, "16-04-repeat-warning")
    page.click("button.save-anyway")
    page.wait_for_url(re.compile(r"/sheets/\d+/$"))
    second = RecordSheet.objects.filter(event="Twice").exclude(pk=first.pk).get()

    # Delete the second, whole.
    page.click("text=Delete the sheet")
    page.fill('input[name="reason"]', "entered twice")
    shoot(page, artifacts, "16-05-delete-sheet")
    page.click("button.danger")
    page.wait_for_url(re.compile(r"/clubs/stellenbosch/$"))
    assert not RecordSheet.objects.filter(pk=second.pk).exists()
    assert page.locator(".recent-sheets tbody tr").count() == 2  # the fixture's sheet and the first
    shoot(page, artifacts, "16-06-club-after-delete")

    # Restore it from the log, then delete it again.
    page.goto(f"{live_server.url}/log/")
    page.click("text=Restore the sheet")
    page.wait_for_url(re.compile(r"/sheets/\d+/$"))
    restored = RecordSheet.objects.filter(event="Twice").exclude(pk=first.pk).get()
    assert restored.games.count() == 2
    assert LogEntry.objects.get(action="delete").changes["restored_as"] == restored.pk
    page.click("text=Delete the sheet")
    page.click("button.danger")
    page.wait_for_url(re.compile(r"/clubs/stellenbosch/$"))

    # The next day: a forgotten game added to the first sheet.
    page.goto(f"{live_server.url}/sheets/{first.pk}/")
    page.click("text=Add a game")
    enter_game(page, 0, "Bob Smit", "Chen Wei", 0)
    shoot(page, artifacts, "16-07-add-game")
    page.click("button.save")
    page.wait_for_url(re.compile(rf"/sheets/{first.pk}/$"))
    assert first.games.count() == 3
    assert page.locator("table.sheet-games tbody tr").count() == 3
    shoot(page, artifacts, "16-08-sheet-with-added-game")


def test_a_typo_is_caught_by_did_you_mean_and_the_existing_player_picked(
    live_server: LiveServer,
    history: dict[str, Any],
    browser: Any,
    artifacts: Path,
) -> None:
    from ratings.models import Player, RecordSheet

    club = history["club"]
    add_player(club, "François Dupont", "francois", -5)
    page = open_entry(browser, live_server.url, DESKTOP)
    page.fill('input[name="event"]', "Typo night")
    page.click('input[name="row-0-white"]')
    page.keyboard.type("francois dupont")
    page.keyboard.press("Tab")
    page.wait_for_selector("#id_row-0-white-status .did-you-mean")
    assert "François Dupont, 5k, Stellenbosch Go Club" in page.inner_text("#id_row-0-white-status")
    page.wait_for_function(
        "document.activeElement && document.activeElement.classList.contains('pick-player')"
    )
    shoot(page, artifacts, "16-09-did-you-mean")
    page.keyboard.press("Enter")  # picks François
    page.wait_for_selector("#id_row-0-white-status .known")
    assert page.input_value('input[name="row-0-white"]') == "François Dupont"
    fill_player(page, "row-0-black", "Bob Smit")
    page.wait_for_selector("#id_row-0-black-status .known")
    page.check("#id_row-0-winner_0")
    page.click("button.save")
    page.wait_for_url(re.compile(r"/sheets/\d+/$"))
    game = RecordSheet.objects.get(event="Typo night").games.get()
    assert game.white.name == "François Dupont"
    assert not Player.objects.filter(name__iexact="francois dupont").exists()


PHONE_375 = {"width": 375, "height": 667}


def test_a_club_night_is_entered_on_a_375px_phone_without_sideways_scrolling(
    live_server: LiveServer,
    history: dict[str, Any],
    browser: Any,
    artifacts: Path,
) -> None:
    from ratings.models import Player, RecordSheet

    context = browser.new_context(viewport=PHONE_375, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    log_in(page, live_server.url)
    # The volunteer reaches the sheet through the phone's menu: folded, opened, tapped.
    page.goto(f"{live_server.url}/log/")
    assert page.is_hidden("text=Enter a sheet")
    page.tap(".menu-toggle")
    page.tap("text=Enter a sheet")
    page.wait_for_url(re.compile(r"/sheets/new/$"))
    page.fill('input[name="event"]', "Phone night")

    def wide() -> int:
        return int(page.evaluate("document.documentElement.scrollWidth"))

    games = [
        ("Alice Mokoena", "Eve Phone", 1),
        ("Eve Phone", "Bob Smit", 0),
        ("Chen Wei", "Eve Phone", 1),
        ("Bob Smit", "Alice Mokoena", 0),
    ]
    for n, (white, black, winner) in enumerate(games):
        if n:
            add_row(page, n, tap=True)
        for colour, name in (("white", white), ("black", black)):
            fill_player(page, f"row-{n}-{colour}", name)
            page.wait_for_selector(f"#id_row-{n}-{colour}-status > *")
        if n == 0:
            page.fill('input[name="row-0-black_rank"]', "20k")
            shoot(page, artifacts, "16-10-phone-new-player")
        page.tap(f"label:has(#id_row-{n}-winner_{winner})")
        assert wide() <= PHONE_375["width"], f"game {n + 1}: the page scrolls sideways ({wide()}px)"
    heights = page.eval_on_selector_all(
        ".game-row", "rows => rows.map(r => r.getBoundingClientRect().height)"
    )
    # Compact: a known-players row is well under one screen (it was a long column of boxes).
    assert max(heights[1:]) < 0.5 * PHONE_375["height"], heights
    shoot(page, artifacts, "16-11-phone-club-night")
    page.tap("button.save")
    page.wait_for_url(re.compile(r"/sheets/\d+/$"))
    assert wide() <= PHONE_375["width"]
    shoot(page, artifacts, "16-12-phone-saved")
    sheet = RecordSheet.objects.get(event="Phone night")
    assert sheet.games.count() == 4
    assert Player.objects.filter(name="Eve Phone").count() == 1
    context.close()


def test_the_club_night_kit_prints_without_the_menu(
    live_server: LiveServer,
    history: dict[str, Any],
    browser: Any,
    artifacts: Path,
) -> None:
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{live_server.url}/clubs/stellenbosch/kit/")
    assert page.is_visible(".site-header")
    page.emulate_media(media="print")
    assert not page.is_visible(".site-header") and not page.is_visible(".no-print")
    assert "Alice Mokoena" in page.inner_text(".kit-players")
    page.pdf(path=str(artifacts / "16-13-club-night-kit.pdf"), format="A4")
    shoot(page, artifacts, "16-13-club-night-kit")
    pdf = (artifacts / "16-13-club-night-kit.pdf").read_bytes()
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) >= 2, "players, then the blank sheet"


def type_game(page: Any, n: int, white: str, black: str, winner: int, add: bool = True) -> None:
    """Game ``n`` typed into the sheet (adding its row first when ``add``)."""
    if add and n:
        add_row(page, n)
    for colour, name in (("white", white), ("black", black)):
        fill_player(page, f"row-{n}-{colour}", name)
        page.wait_for_selector(f"#id_row-{n}-{colour}-status > *")
    page.click(f"label:has(#id_row-{n}-winner_{winner})")


def test_a_whole_club_night_two_volunteers_twenty_games_on_desktop_and_phone(
    live_server: LiveServer,
    history: dict[str, Any],
    browser: Any,
    artifacts: Path,
) -> None:
    """Two volunteers, 20 games, a new member on three
    rows, a typo caught by did-you-mean, a sheet entered twice (warned, then
    deleted), a forgotten game added the next day."""
    from django.contrib.auth.models import User

    from accounts.models import Volunteer
    from ratings.models import Game, Player, RecordSheet

    club = history["club"]
    Volunteer.objects.create(user=User.objects.create_user("volunteer2", password=PASSWORD), club=club)
    for name, rank in (("Dave Dlamini", -9), ("Erin Essop", -11)):
        Player.objects.create(
            name=name, slug=name.split()[0].lower(), rating_list=club.rating_list, home_club=club,
            start_rank=rank, rank=rank, since=date.today() - timedelta(days=100),
        )  # fmt: skip
    night = (date.today() - timedelta(days=1)).isoformat()
    # 60 s, not 15: twenty saves, each recomputing the list in the server's
    # process, on a loaded 2-core CI machine (a save's page once came after
    # 15 s there, with the load average at 6; 31 s for the whole test alone).
    desk = browser.new_page(viewport=DESKTOP)
    desk.set_default_timeout(60_000)
    log_in(desk, live_server.url)
    phone_context = browser.new_context(viewport=PHONE_375, is_mobile=True, has_touch=True)
    phone = phone_context.new_page()
    phone.set_default_timeout(60_000)
    log_in(phone, live_server.url, "volunteer2")

    # Volunteer 1, desktop: board A, 10 games; Nia is new on three rows.
    desk.fill('input[name="date"]', night)
    desk.fill('input[name="event"]', "Board A")
    a_games = [
        ("Alice Mokoena", "Nia Newcomer", 1), ("Bob Smit", "Chen Wei", 0), ("Nia Newcomer", "Chen Wei", 1),
        ("Alice Mokoena", "Bob Smit", 0), ("Chen Wei", "Alice Mokoena", 1), ("Bob Smit", "Nia Newcomer", 0),
        ("Alice Mokoena", "Chen Wei", 0), ("Chen Wei", "Bob Smit", 1), ("Bob Smit", "Alice Mokoena", 0),
        ("Alice Mokoena", "Chen Wei", 1),
    ]  # fmt: skip
    for n, (white, black, winner) in enumerate(a_games):
        type_game(desk, n, white, black, winner)
        if n == 0:
            desk.fill('input[name="row-0-black_rank"]', "18k")
            desk.press('input[name="row-0-black_rank"]', "Tab")
    assert "new, 18k (game 1)" in desk.inner_text("#id_row-5-black-status")
    desk.click("button.save")
    desk.wait_for_url(re.compile(r"/sheets/\d+/$"))
    shoot(desk, artifacts, "16-20-night-board-a")

    # Volunteer 2, phone: board B, 10 other pairings; "Mokoena Alice" is caught by did-you-mean.
    phone.fill('input[name="date"]', night)
    phone.fill('input[name="event"]', "Board B")
    b_games = [
        ("Mokoena Alice", "Dave Dlamini", 0), ("Erin Essop", "Nia Newcomer", 1), ("Dave Dlamini", "Erin Essop", 1),
        ("Nia Newcomer", "Dave Dlamini", 0), ("Erin Essop", "Alice Mokoena", 0), ("Dave Dlamini", "Chen Wei", 0),
        ("Chen Wei", "Erin Essop", 1), ("Nia Newcomer", "Alice Mokoena", 1), ("Erin Essop", "Dave Dlamini", 0),
        ("Chen Wei", "Nia Newcomer", 0),
]  # fmt: skip
    for n, (white, black, winner) in enumerate(b_games):
        type_game(phone, n, white, black, winner)
        if n == 0:
            assert "Alice Mokoena, 5k" in phone.inner_text("#id_row-0-white-status .did-you-mean")
            phone.tap("#id_row-0-white-status .pick-player")
            phone.wait_for_selector("#id_row-0-white-status .known")
            assert phone.input_value('input[name="row-0-white"]') == "Alice Mokoena"
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE_375["width"]
    phone.tap("button.save")
    phone.wait_for_url(re.compile(r"/sheets/\d+/$"))
    shoot(phone, artifacts, "16-21-night-board-b-phone")
    assert Game.objects.filter(date=night).count() == 20
    assert Player.objects.filter(name="Nia Newcomer").count() == 1
    assert not Player.objects.filter(name="Mokoena Alice").exists()

    # Volunteer 2 enters board A again by mistake: warned, saves anyway, then deletes it.
    phone.goto(f"{live_server.url}/sheets/new/")
    phone.fill('input[name="date"]', night)
    phone.fill('input[name="event"]', "Board A again")
    for n, (white, black, winner) in enumerate(a_games[:3]):
        type_game(phone, n, white, black, winner)
    phone.tap("button.save")
    phone.wait_for_selector(".repeats")
    shoot(phone, artifacts, "16-22-night-repeat-warning-phone")
    phone.tap("button.save-anyway")
    phone.wait_for_url(re.compile(r"/sheets/\d+/$"))
    phone.tap("text=Delete the sheet")
    phone.tap("button.danger")
    phone.wait_for_url(re.compile(r"/clubs/stellenbosch/$"))
    assert not RecordSheet.objects.filter(event="Board A again").exists()
    assert Game.objects.filter(date=night).count() == 20

    # The next day, volunteer 1 adds a forgotten game to board A.
    board_a = RecordSheet.objects.get(event="Board A")
    desk.goto(f"{live_server.url}/sheets/{board_a.pk}/add/")
    type_game(desk, 0, "Nia Newcomer", "Alice Mokoena", 0, add=False)
    desk.click("button.save")
    # Nia and Alice played that night on board B too: asked, as a new sheet would be.
    desk.wait_for_selector(".repeats")
    assert "this game repeats games already entered" in desk.inner_text(".repeats")
    desk.click("button.save-anyway")
    desk.wait_for_url(re.compile(rf"/sheets/{board_a.pk}/$"))
    assert board_a.games.count() == 11 and Game.objects.filter(date=night).count() == 21
    shoot(desk, artifacts, "16-23-night-forgotten-game")
    phone_context.close()
