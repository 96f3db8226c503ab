"""The whole entry path in a real browser.

Playwright drives Debian's Chromium against the live server: a volunteer
logs in, enters a three-game sheet that adds a new player inline and holds a
game dated before games already in the database, saves, and opens every
player's record sheet, whose 12 columns (the SAGC FAQ, "What are the columns in
my record sheet?") must match what the SAGC engine computes for the same
games, replayed here straight from the database.  Every page is saved as a
screenshot in $ARTIFACTS_DIR (default artifacts/), on a desktop and a phone
viewport.
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from pytest_django.live_server_helper import LiveServer

from tests.browser.pages import DESKTOP, PHONE, add_row, fill_player, read_sheet, shoot
from tests.support import PASSWORD

pytestmark = pytest.mark.browser


def expected_sheets() -> dict[str, list[list[str]]]:
    """Every player's 12 columns, newest first, from the SAGC engine run on
    the games in the database in timeline order (date, then entry order)."""
    from ratings.engine import base, get_system
    from ratings.engine import sagc as sagc_module
    from ratings.engine.ranks import format_rank
    from ratings.models import Game, Player

    games = list(Game.objects.filter(club__slug="stellenbosch").select_related("white", "black").timeline())
    players = {p.pk: p for p in Player.objects.filter(rating_list__slug="stellenbosch")}
    events = [
        base.Game(
            date=g.date,
            white=g.white_id,
            black=g.black_id,
            winner=base.Winner(g.winner),
            handicap=g.handicap,
            komi=float(g.komi),
            kind=base.Kind(g.kind),
        )
        for g in games
    ]
    starts: dict[Hashable, base.Start] = {pk: base.Start(rank=p.start_rank) for pk, p in players.items()}
    ledger = get_system("sagc").rate(events, starts=starts).ledger
    status = {"free": 0, "internet": 0.5, "club": 1, "tournament": 1.5}  # the SAGC FAQ, Game Status Factor
    sheets: dict[str, list[list[str]]] = {p.name: [] for p in players.values()}
    for i, g in enumerate(games):
        for colour, own, other in ((base.WHITE, g.white, g.black), (base.BLACK, g.black, g.white)):
            mine = ledger.row(i, colour)
            theirs = ledger.row(i, 1 - colour)
            assert mine is not None and theirs is not None
            change = round(mine.change)
            sheets[own.name].insert(
                0,
                [
                    other.name,
                    format_rank(theirs.rank_before),
                    "White" if colour == base.WHITE else "Black",
                    str(g.handicap),
                    str(g.komi.normalize()) if g.komi != g.komi.to_integral() else str(int(g.komi)),
                    g.winner.title(),
                    f"{status[g.kind]:g}",
                    f"+{change}" if change > 0 else str(change),
                    str(round(mine.rating_after)),
                    format_rank(mine.rank_after),
                    g.date.isoformat(),
                    g.comments,
                ],
            )
    assert sagc_module is not None
    return sheets


def test_a_volunteer_enters_a_three_game_sheet_and_every_record_sheet_matches_the_engine(
    live_server: LiveServer, history: dict[str, Any], browser: Any, artifacts: Path
) -> None:
    from ratings.models import Game, Player, RecordSheet

    today = date.today()
    sheet_day = today - timedelta(days=1)
    early = today - timedelta(days=30)  # before the two games already in the database
    page = browser.new_page(viewport=DESKTOP)
    page.set_default_timeout(15_000)

    # Log in as the volunteer.
    page.goto(f"{live_server.url}/sheets/new/")
    assert "/accounts/login/" in page.url
    page.fill('input[name="username"]', "volunteer")
    page.fill('input[name="password"]', PASSWORD)
    shoot(page, artifacts, "01-login")
    page.click('button[type="submit"]')
    page.wait_for_url(re.compile(r"/sheets/new/$"))

    # The sheet header: today's date by default; this sheet is of yesterday.
    assert page.input_value('input[name="date"]') == today.isoformat()
    page.fill('input[name="date"]', sheet_day.isoformat())
    page.fill('input[name="event"]', "Club night")

    # Game 1: a new player, added inline with their starting rank.
    fill_player(page, "row-0-white", "Alice Mokoena")
    page.wait_for_selector("#id_row-0-white-status .known")
    fill_player(page, "row-0-black", "Dora Newcomer")
    page.wait_for_selector('input[name="row-0-black_rank"]')
    page.fill('input[name="row-0-black_rank"]', "15k")
    page.fill('input[name="row-0-handicap"]', "9")
    assert page.input_value('input[name="row-0-komi"]') == "0.5"  # komi follows the handicap
    page.check("#id_row-0-winner_1")  # Black

    # Games 2 and 3 are added without a page reload.
    page.evaluate("window.__marker = 'same page'")
    for n in (1, 2):
        add_row(page, n)
    assert page.evaluate("window.__marker") == "same page"

    fill_player(page, "row-1-white", "Bob Smit")
    fill_player(page, "row-1-black", "Chen Wei")
    page.fill('input[name="row-1-handicap"]', "4")
    page.check("#id_row-1-winner_0")  # White

    # Game 3 is dated before the games already in the database.
    fill_player(page, "row-2-white", "Chen Wei")
    fill_player(page, "row-2-black", "Dora Newcomer")  # new on game 1: no second rank
    page.wait_for_selector("#id_row-2-black-status .new-player")
    page.fill('input[name="row-2-handicap"]', "3")
    page.click("#row-2 details.more summary")
    page.fill('input[name="row-2-date"]', early.isoformat())
    page.fill('input[name="row-2-comments"]', "played at the library")

    # Saving without game 3's winner saves nothing and names the row and field,
    # keeping everything typed (the added rows and the new player's rank too).
    page.click("button.save")
    page.wait_for_selector(".error-summary")
    assert "Game 3, Winner: choose the winner" in page.inner_text(".error-summary")
    assert RecordSheet.objects.filter(event="Club night").count() == 0
    assert page.input_value('input[name="row-0-black_rank"]') == "15k"
    assert "new, 15k (game 1)" in page.inner_text("#id_row-2-black-status")
    assert page.input_value('input[name="row-2-date"]') == early.isoformat()
    assert page.is_checked("#id_row-0-winner_1")
    shoot(page, artifacts, "02-sheet-entry-error")
    page.check("#id_row-2-winner_0")  # White
    shoot(page, artifacts, "02-sheet-entry")

    page.click("button.save")
    page.wait_for_load_state()
    if not re.search(r"/sheets/\d+/$", page.url):
        shoot(page, artifacts, "02-sheet-entry-refused")
        summary = page.locator(".error-summary").all_inner_texts()
        pytest.fail(f"the sheet was not saved: {summary}")
    sheet = RecordSheet.objects.get(event="Club night")
    assert page.url.endswith(f"/sheets/{sheet.pk}/")
    assert sheet.games.count() == 3
    dora = Player.objects.get(name="Dora Newcomer")
    assert (dora.start_rank, dora.since) == (-15, early)
    assert Game.objects.filter(date=early).count() == 1
    assert page.locator("table.sheet-games tbody tr").count() == 3
    assert "Saved 3 games" in page.content()
    shoot(page, artifacts, "03-saved-sheet")

    # Every player's record sheet: the 12 columns as the engine computes them.
    expected = expected_sheets()
    assert sorted(expected) == ["Alice Mokoena", "Bob Smit", "Chen Wei", "Dora Newcomer"]
    for player in Player.objects.order_by("name"):
        page.goto(f"{live_server.url}/players/{player.slug}/")
        headers = page.locator("table.sheet thead th").all_inner_texts()
        assert len(headers) == 12
        assert read_sheet(page) == expected[player.name], player.name
        shoot(page, artifacts, f"04-record-sheet-{player.slug}")

    # The same pages on a phone.
    phone = browser.new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    phone.set_default_timeout(15_000)
    phone.context.add_cookies(page.context.cookies())
    for name, path in [
        ("sheet-entry", "/sheets/new/"),
        ("saved-sheet", f"/sheets/{sheet.pk}/"),
        ("record-sheet-dora", f"/players/{dora.slug}/"),
        ("game-edit", f"/games/{sheet.games.get(date=early).pk}/edit/"),
    ]:
        phone.goto(f"{live_server.url}{path}")
        if name == "sheet-entry":
            add_row(phone, 1)
            fill_player(phone, "row-0-black", "Somebody New")
            phone.wait_for_selector('input[name="row-0-black_rank"]')
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{path} scrolls sideways on a phone ({width}px)"
        shoot(phone, artifacts, f"05-phone-{name}")
    assert Decimal("0.5") == Game.objects.get(date=sheet_day, handicap=9).komi


def test_the_pages_work_under_the_content_security_policy(
    live_server: LiveServer, history: dict[str, Any], browser: Any
) -> None:
    """Content-Security-Policy: no inline script, style or eval is blocked, and the
    behaviour moved to static/js (add and remove a game row, the confirm
    before a new API token) still works."""
    from django.contrib.auth.models import User

    from accounts.models import CommitteeMember

    committee = User.objects.create_user("committee", password=PASSWORD)
    CommitteeMember.objects.create(user=committee, rating_list=history["club"].rating_list)
    page = browser.new_page(viewport=DESKTOP)
    page.set_default_timeout(15_000)
    blocked: list[str] = []
    page.on("console", lambda m: blocked.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda error: blocked.append(str(error)))
    page.goto(f"{live_server.url}/accounts/login/?next=/sheets/new/")
    page.fill('input[name="username"]', "committee")
    page.fill('input[name="password"]', PASSWORD)
    page.click('button[type="submit"]')
    page.wait_for_url(re.compile(r"/sheets/new/$"))
    assert "script-src 'self'" in (page.request.get(page.url).headers["content-security-policy"])
    for n in (1, 2):
        add_row(page, n)
    page.click("#row-1 button.remove-row")
    page.wait_for_selector("#row-1", state="detached")
    add_row(page, 3)  # numbered after the last row, 2
    fill_player(page, "row-0-black", "Somebody New")
    page.wait_for_selector('input[name="row-0-black_rank"]')  # htmx's name check answered

    page.goto(f"{live_server.url}/committee/export/")
    page.click("form[action$='/export/token/'] button")  # no token yet: no question
    page.wait_for_selector("text=New API token")
    questions: list[str] = []

    def answer(dialog: Any) -> None:
        questions.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", answer)
    page.click("form[action$='/export/token/'] button")
    assert questions and "stops working at once" in questions[0]
    for path in ("/", "/players/", "/players/alice/", "/log/", "/adjustments/", "/recompute/"):
        page.goto(f"{live_server.url}{path}")
    assert blocked == []
