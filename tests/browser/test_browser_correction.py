"""Correcting a game in a real browser, as a volunteer, at 1280 and 375 px
(each page: no sideways scroll, no serious axe-core violation).

The sheet of a club night says Alice (W) beat Dan (B) with 5 stones; the
paper says Dan won an even game against Zoë.  The volunteer opens "Correct a
game", types "zoe muller" in Black (the entry's type-ahead: did you mean Zoë
Müller? picked with the keyboard), changes the terms and the winner and
gives a reason.  The correction comes back with the improbable result
flagged (SAGC gave Dan a few per cent, judged from the standings before
the game), nothing saved; ticking "yes, save anyway"
saves it and the log shows the reason.  Screenshots in $ARTIFACTS_DIR.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from pytest_django.live_server_helper import LiveServer

from ratings.models import Club, Game
from tests.browser.pages import DESKTOP, PHONE_375, fill_player, looked_at, opened_as, signed_in

pytestmark = pytest.mark.browser


@pytest.fixture
def night(checked_list: Club) -> Game:
    """Alice (W) beat Dan (B) with 5 stones two days ago; Zoë Müller, 5k, also plays."""
    from ratings import services
    from ratings.models import Player
    from ratings.services import GameRow

    players = {p.name: p for p in Player.objects.all()}
    Player.objects.create(
        name="Zoë Müller", slug="zoe", rating_list=checked_list.rating_list, home_club=checked_list,
        start_rank=-5, rank=-5, since=date.today() - timedelta(days=400),
    )  # fmt: skip
    sheet = services.save_sheet(
        club=checked_list,
        date=date.today() - timedelta(days=2),
        rows=[GameRow(white=players["Alice Mokoena"], black=players["Dan Kyu"], winner="white", handicap=5)],
    )
    return sheet.games.get()


@pytest.fixture(params=[DESKTOP, PHONE_375], ids=["1280px", "375px"])
def page(request: pytest.FixtureRequest, live_server: LiveServer, browser: Any) -> Any:
    """The volunteer's page, at 1280 and at 375 px."""
    return signed_in(browser, live_server.url, request.param)


def test_a_volunteer_corrects_a_game_with_the_type_ahead_a_check_and_a_reason(
    live_server: LiveServer, night: Game, page: Any, artifacts: Path
) -> None:
    page.goto(f"{live_server.url}/sheets/{night.sheet_id}/")
    page.click(f'a[href="/games/{night.pk}/edit/"]')
    page.wait_for_url(re.compile(r"/games/\d+/edit/$"))
    assert page.locator("select#id_white, select#id_black").count() == 0  # no drop-down of every player
    assert "✓ 10k" in page.inner_text("#id_black-status")
    looked_at(page, artifacts, "correction-00-form")

    # White is Zoë, typed without her accents: did you mean, picked from the keyboard.
    white = page.locator('input[name="white"]')
    white.fill("zoe muller")
    white.press("Tab")
    page.wait_for_selector("#id_white-status .pick-player")
    assert "Did you mean Zoë Müller, 5k" in page.inner_text("#id_white-status")
    assert "starting rank" not in page.inner_text("#id_white-status")  # a correction makes no new player
    assert page.evaluate("document.activeElement.classList.contains('pick-player')")
    looked_at(page, artifacts, "correction-01-did-you-mean")
    page.keyboard.press("Enter")
    page.wait_for_selector("#id_white-status .known")
    assert page.input_value('input[name="white"]') == "Zoë Müller"

    # The paper: an even game that Dan (Black) won.
    page.fill('input[name="handicap"]', "0")
    page.fill('input[name="komi"]', "6.5")
    page.check("#id_winner_1")
    page.fill('input[name="reason"]', "wrong line of the paper sheet")
    page.click("button.save")
    page.wait_for_selector("#improbable")
    warning = page.inner_text("#improbable")
    assert "gave Dan Kyu (Black) only a" in warning and "swapped winner is the commonest mistake" in warning
    night.refresh_from_db()
    assert (night.white.name, night.winner) == ("Alice Mokoena", "white")  # nothing saved yet
    assert page.input_value('input[name="reason"]') == "wrong line of the paper sheet"
    looked_at(page, artifacts, "correction-02-confirm")

    page.check('input[name="confirm_improbable"]')
    page.click("button.save")
    page.wait_for_url(re.compile(r"/sheets/\d+/$"))
    night.refresh_from_db()
    assert (night.white.name, night.handicap, night.winner) == ("Zoë Müller", 0, "black")
    assert night.flagged.startswith("result given ")
    page.goto(f"{live_server.url}/log/")
    assert "(wrong line of the paper sheet)" in page.inner_text("main")
    looked_at(page, artifacts, "correction-03-log")


def test_a_game_added_to_a_saved_sheet_asks_the_repeat_then_the_improbable_result(
    live_server: LiveServer, night: Game, page: Any, artifacts: Path
) -> None:
    """Alice and Dan again on the same night (a repeat), an even game the 10k won (improbable)."""
    page.goto(f"{live_server.url}/sheets/{night.sheet_id}/add/")
    fill_player(page, "row-0-white", "Alice Mokoena")
    fill_player(page, "row-0-black", "Dan Kyu")
    page.fill('input[name="row-0-handicap"]', "0")
    page.fill('input[name="row-0-komi"]', "6.5")
    page.check("#id_row-0-winner_1")
    page.click("button.save")
    page.wait_for_selector(".repeats")
    assert "this game repeats games already entered" in page.inner_text(".repeats")
    looked_at(page, artifacts, "add-game-01-repeat")
    page.click("button.save-anyway")
    page.wait_for_selector("#improbable")
    assert "gave Dan Kyu (Black) only a" in page.inner_text("#improbable")
    assert night.sheet.games.count() == 1  # nothing saved yet
    looked_at(page, artifacts, "add-game-02-improbable")
    page.check('input[name="confirm_improbable"]')
    page.click("button.save")
    page.wait_for_url(re.compile(r"/sheets/\d+/$"))
    added = night.sheet.games.order_by("-pk").first()
    assert night.sheet.games.count() == 2 and added is not None and added.flagged.startswith("result given")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE_375], ids=["1280px", "375px"])
def test_the_committee_sees_the_correction_page_and_a_player_is_refused_it(
    live_server: LiveServer, night: Game, browser: Any, artifacts: Path, viewport: dict[str, int]
) -> None:
    from django.contrib.auth.models import User

    from ratings.models import Player
    from tests.support import PASSWORD, committee_of

    committee_of(User.objects.create_user("committee", password=PASSWORD), night.rating_list)
    Player.objects.filter(name="Dan Kyu").update(user=User.objects.create_user("player", password=PASSWORD))
    committee = signed_in(browser, live_server.url, viewport, "committee")
    committee.goto(f"{live_server.url}/games/{night.pk}/edit/")
    assert committee.input_value('input[name="black"]') == "Dan Kyu"
    looked_at(committee, artifacts, "correction-as-committee")
    player = opened_as(browser, live_server.url, viewport["width"], "player", f"/sheets/{night.sheet_id}/")
    response = player.goto(f"{live_server.url}/games/{night.pk}/edit/")
    assert response.status == 403
    player.goto(f"{live_server.url}/sheets/{night.sheet_id}/")
    assert player.locator(f'a[href="/games/{night.pk}/edit/"]').count() == 0  # no link to it either
    looked_at(player, artifacts, "correction-sheet-as-player")
