"""Names as people type them, in a real browser (ratings.names): at entry a
typo ("Riaan Wnag") is caught before a new player is made, the suggestion
is readable and chosen with the keyboard; a different person of a close name
("Riaan Wan") takes one explicit confirmation, which shows the starting-rank
box; the players search finds "zoe" and "Muller".  At 1280 and 375 px, no
sideways scrolling, no serious axe-core violation."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from pytest_django.live_server_helper import LiveServer

from tests.browser.pages import DESKTOP, PHONE_375, add_player, axe_problems, open_entry, shoot

pytestmark = pytest.mark.browser


def focused(page: Any) -> str:
    """The focused element: its name, or its class for a button."""
    return str(page.evaluate("(e => e && (e.name || e.className))(document.activeElement)"))


def luminance(rgb: str) -> float:
    """The relative luminance (WCAG 2) of a CSS 'rgb(r, g, b)' colour."""
    channels = [int(c) / 255 for c in re.findall(r"\d+", rgb)[:3]]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(page: Any, selector: str) -> float:
    color, background = page.eval_on_selector(
        selector, "e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]"
    )
    light, dark = sorted((luminance(color), luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE_375], ids=["1280px", "375px"])
def test_a_typo_is_caught_and_the_suggestion_chosen_with_the_keyboard(
    live_server: LiveServer, history: dict[str, Any], browser: Any, artifacts: Path, viewport: dict[str, int]
) -> None:
    from ratings.models import Player, RecordSheet

    club = history["club"]
    riaan = add_player(club, "Riaan Wang", "riaan-wang", -3)
    page = open_entry(browser, live_server.url, viewport)
    page.fill('input[name="event"]', "Typo night")
    width = viewport["width"]

    # "Riaan Wnag": caught; the suggestion takes the focus; no rank box yet.
    page.click('input[name="row-0-white"]')
    page.keyboard.type("Riaan Wnag")
    page.keyboard.press("Tab")
    page.wait_for_selector("#id_row-0-white-status .did-you-mean")
    assert "Riaan Wang, 3k, Stellenbosch Go Club" in page.inner_text("#id_row-0-white-status")
    assert page.locator("#id_row-0-white-status .rank-input").is_hidden()
    page.wait_for_function(
        "document.activeElement && document.activeElement.classList.contains('pick-player')"
    )
    # Readable: the button's text against its own background, WCAG AA (4.5).
    assert contrast(page, "#id_row-0-white-status .pick-player") >= 4.5
    assert axe_problems(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shoot(page, artifacts, f"23-01-did-you-mean-{width}")
    page.keyboard.press("Enter")  # picks Riaan Wang
    page.wait_for_selector("#id_row-0-white-status .known")
    assert page.input_value('input[name="row-0-white"]') == "Riaan Wang"

    # "Riaan Wan" is meant as a different person: Tab past the suggestion to
    # "a different person", Space ticks it, the rank box shows and comes next.
    page.click('input[name="row-0-black"]')
    page.keyboard.type("Riaan Wan")
    page.keyboard.press("Tab")
    page.wait_for_selector("#id_row-0-black-status .did-you-mean")
    page.wait_for_function(
        "document.activeElement && document.activeElement.classList.contains('pick-player')"
    )
    assert page.locator("#id_row-0-black-status .rank-input").is_hidden()
    page.keyboard.press("Tab")
    assert focused(page) == "row-0-black_new"
    page.keyboard.press("Space")
    assert page.locator("#id_row-0-black-status .rank-input").is_visible()
    page.keyboard.press("Tab")
    assert focused(page) == "row-0-black_rank"
    page.keyboard.type("4k")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shoot(page, artifacts, f"23-02-different-person-{width}")
    page.click("label:has(#id_row-0-winner_0)")
    page.click("button.save")
    page.wait_for_url(re.compile(r"/sheets/\d+/$"))
    game = RecordSheet.objects.get(event="Typo night").games.get()
    assert game.white == riaan
    assert game.black.name == "Riaan Wan" and game.black.start_rank == -4
    assert not Player.objects.filter(name="Riaan Wnag").exists()


def test_the_players_search_and_the_log_filter_find_names_as_typed(
    live_server: LiveServer, history: dict[str, Any], browser: Any, artifacts: Path
) -> None:
    club = history["club"]
    add_player(club, "Zoë Müller", "zoe-muller", -7)
    for viewport in (DESKTOP, PHONE_375):
        page = browser.new_page(viewport=viewport)
        page.set_default_timeout(15_000)
        for typed in ("zoe", "Muller", "zoe muller"):
            page.goto(f"{live_server.url}/players/?q={typed.replace(' ', '+')}")
            names = page.locator("main").inner_text()
            assert "Zoë Müller" in names and "Alice Mokoena" not in names, typed
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        assert axe_problems(page) == []
        shoot(page, artifacts, f"23-03-players-search-{viewport['width']}")
        # The log's player filter: the same matching (family name first, a typo).
        page.goto(f"{live_server.url}/log/?player=wei+chen")
        log = page.locator("main").inner_text()
        assert "Chen Wei" in log and "Alice Mokoena" not in log
        page.goto(f"{live_server.url}/log/?player=mokoena+alise")
        log = page.locator("main").inner_text()
        assert "Alice Mokoena" in log and "Chen Wei" not in log
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        assert axe_problems(page) == []
        shoot(page, artifacts, f"23-05-log-filter-{viewport['width']}")
        page.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE_375], ids=["1280px", "375px"])
def test_the_type_ahead_offers_players_as_a_name_is_typed_and_the_keyboard_picks_one(
    live_server: LiveServer, history: dict[str, Any], browser: Any, artifacts: Path, viewport: dict[str, int]
) -> None:
    club = history["club"]
    add_player(club, "Zoë Müller", "zoe-muller", -7)
    page = open_entry(browser, live_server.url, viewport)
    page.click('input[name="row-0-white"]')
    page.keyboard.type("mueller z")  # transliterated, family name first
    page.wait_for_selector('#id_row-0-white-suggest [role="option"]')
    assert page.inner_text("#id_row-0-white-suggest") == "Zoë Müller, 7k, Stellenbosch Go Club"
    assert page.get_attribute('input[name="row-0-white"]', "aria-expanded") == "true"
    page.keyboard.press("ArrowDown")
    assert (
        page.get_attribute('input[name="row-0-white"]', "aria-activedescendant") == "id_row-0-white-option-0"
    )
    assert axe_problems(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    shoot(page, artifacts, f"23-04-type-ahead-{viewport['width']}")
    page.keyboard.press("Enter")  # picks her; the sheet's Enter (next row) does not run
    page.wait_for_selector("#id_row-0-white-status .known")
    assert page.input_value('input[name="row-0-white"]') == "Zoë Müller"
    assert focused(page) == "row-0-white"
    assert page.locator('#id_row-0-white-suggest [role="option"]').count() == 0
    assert page.locator(".game-row").count() == 1
    # Escape closes the list, keeping what was typed.
    page.click('input[name="row-0-black"]')
    page.keyboard.type("alice mok")
    page.wait_for_selector('#id_row-0-black-suggest [role="option"]')
    page.keyboard.press("Escape")
    assert page.locator('#id_row-0-black-suggest [role="option"]').count() == 0
    assert page.input_value('input[name="row-0-black"]') == "alice mok"
