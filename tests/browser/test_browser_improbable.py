"""Improbable result at entry, in a real browser.

A volunteer picks two players: the list's rule pre-fills the handicap and
komi (htmx).  They then enter an even game that the 10k won against the
5k: SAGC gave that result 1/33 = 3.0 % (the prior's curve, nothing rated
yet), below the list's 5 %, and the handicap is off the rule.  The sheet
comes back with the game flagged, nothing saved; ticking "yes, save
anyway" saves it, marked for the committee.  Screenshots in $ARTIFACTS_DIR.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from pytest_django.live_server_helper import LiveServer

from ratings.models import Club
from tests.browser.pages import DESKTOP, fill_player, shoot, signed_in

pytestmark = pytest.mark.browser


def test_an_improbable_result_is_saved_only_after_the_volunteer_confirms_it(
    live_server: LiveServer, checked_list: Club, browser: Any, artifacts: Path
) -> None:
    from ratings.models import Game, RecordSheet

    page = signed_in(browser, live_server.url, DESKTOP)
    page.fill('input[name="date"]', (date.today() - timedelta(days=1)).isoformat())

    # Both players known: the rule's handicap and komi are filled in.
    fill_player(page, "row-0-white", "Alice Mokoena")
    fill_player(page, "row-0-black", "Dan Kyu")
    page.wait_for_selector("#row-0-advice .advice-hint")
    assert "5 stones, komi 0.5" in page.inner_text("#row-0-advice")
    page.wait_for_function("document.querySelector('input[name=\"row-0-handicap\"]').value === '5'")
    assert page.input_value('input[name="row-0-komi"]') == "0.5"
    shoot(page, artifacts, "improbable-01-advice")

    # They played even, and the paper says Black (the 10k) won.
    page.fill('input[name="row-0-handicap"]', "0")
    page.fill('input[name="row-0-komi"]', "6.5")
    page.check("#id_row-0-winner_1")  # Black
    page.click("button.save")
    page.wait_for_selector("#improbable")
    warning = page.inner_text("#improbable")
    assert "Game 1:" in warning and "only a 3.0 % chance" in warning
    assert "swapped winner is the commonest mistake" in warning
    assert "off the South African Go Clubs rule" in warning
    assert RecordSheet.objects.count() == 0 and Game.objects.count() == 0
    assert page.is_checked("#id_row-0-winner_1")  # everything typed is kept
    assert page.input_value('input[name="row-0-black"]') == "Dan Kyu"
    shoot(page, artifacts, "improbable-02-confirm")

    # Saving again without the tick asks again.
    page.click("button.save")
    page.wait_for_selector("#improbable")
    assert Game.objects.count() == 0

    # "Yes, save anyway".
    page.check('input[name="confirm_improbable"]')
    page.click("button.save")
    page.wait_for_url(re.compile(r"/sheets/\d+/$"))
    game = Game.objects.get()
    assert (game.handicap, game.winner) == (0, "black")
    assert game.flagged.startswith("result given 3.0 %; handicap:")
    shoot(page, artifacts, "improbable-03-saved")


def test_advice_arriving_while_the_volunteer_is_in_the_handicap_field_does_not_spoil_their_typing(
    live_server: LiveServer, checked_list: Club, browser: Any, artifacts: Path
) -> None:
    """The advice fills the field the volunteer is in and selects it: what they type replaces it.

    Without the selection the caret sits after the filled "5" and the "4" they type makes 54
    stones (CI saw the same race in Playwright's fill, "handicap ... not 44").
    """
    page = signed_in(browser, live_server.url, DESKTOP)

    fill_player(page, "row-0-white", "Alice Mokoena")
    # Black's name is written without leaving the handicap field, which the volunteer is in.
    handicap = page.locator('input[name="row-0-handicap"]')
    handicap.focus()
    page.keyboard.press("Control+A")
    page.evaluate(
        """() => {
            const black = document.querySelector('input[name="row-0-black"]');
            black.value = "Dan Kyu";
            black.dispatchEvent(new Event("change", { bubbles: true }));
        }"""
    )
    page.wait_for_selector("#row-0-advice .advice-hint")
    page.wait_for_function("document.querySelector('input[name=\"row-0-handicap\"]').value === '5'")
    assert page.evaluate("document.activeElement.name") == "row-0-handicap"
    page.keyboard.type("4")
    assert handicap.input_value() == "4"
