"""The keyboard through the menu (docs/accessibility.md): on a phone the
skip link, the site's name and the menu button come first; the button opens
the whole navigation, Tab walks into it, Escape closes it and gives the
focus back; every focus shows an outline.  On a laptop the button is out of
the way and Tab goes from the site's name to the first link."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pytest_django.live_server_helper import LiveServer

from tests.browser.accessibility import DESKTOP_1280, PHONE_375
from tests.browser.pages import shoot, signed_in

pytestmark = pytest.mark.browser

FOCUSED = """() => {
  const e = document.activeElement, style = getComputedStyle(e);
  return [e.textContent.trim(), style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2];
}"""


def tab(page: Any) -> str:
    """Tab once: the text of the element that has the focus now, which must show it."""
    page.keyboard.press("Tab")
    text, outlined = page.evaluate(FOCUSED)
    assert outlined, f"no visible focus on {text!r}"
    return str(text)


def test_the_menu_by_keyboard_on_a_phone_and_a_laptop(
    live_server: LiveServer, history: dict[str, Any], browser: Any, artifacts: Path
) -> None:
    page = signed_in(browser, live_server.url, PHONE_375)
    page.goto(f"{live_server.url}/log/")
    assert [tab(page), tab(page), tab(page)] == ["Skip to content", "Club ratings", "Menu"]
    assert page.is_hidden(".nav-links")
    page.keyboard.press("Enter")
    assert page.get_attribute(".menu-toggle", "aria-expanded") == "true"
    walked = [tab(page) for _ in range(5)]
    assert walked == ["Players", "Log", "How ratings work", "My places", "Enter a sheet"], walked
    shoot(page, artifacts, "menu-375-open")
    page.keyboard.press("Escape")
    assert page.is_hidden(".nav-links")
    assert page.evaluate("document.activeElement.className") == "menu-toggle"
    assert page.get_attribute(".menu-toggle", "aria-expanded") == "false"

    laptop = signed_in(browser, live_server.url, DESKTOP_1280)
    laptop.goto(f"{live_server.url}/log/")
    assert [tab(laptop), tab(laptop), tab(laptop)] == ["Skip to content", "Club ratings", "Players"]
    tab(laptop)  # "Log": the current page
    assert laptop.is_visible(".nav-links") and laptop.is_hidden(".menu-toggle")
