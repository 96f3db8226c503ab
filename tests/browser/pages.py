"""Helpers of the browser tests: viewports, reading a record sheet, typing a
player's name, logging in, adding a game row, screenshots, and a page
looked at (no sideways scroll, no serious axe-core violation)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.support import PASSWORD, need

PHONE = {"width": 390, "height": 844}
#: The narrowest phone the pages are checked at.
PHONE_375 = {"width": 375, "height": 667}
DESKTOP = {"width": 1280, "height": 900}


def read_sheet(page: Any) -> list[list[str]]:
    rows = page.locator("table.sheet tbody tr:not(.ripple-note)")  # a late game's note is no row of the sheet
    # A cell's value, without the links and buttons beside it (the head-to-head link, the phone's "More").
    value = "cells => cells.map(c => { const d = c.cloneNode(true); d.querySelectorAll('.versus, .row-more').forEach(e => e.remove()); return d.textContent.trim(); })"
    return [rows.nth(i).locator("td").evaluate_all(value) for i in range(rows.count())]


def log_in(page: Any, url: str, username: str = "volunteer") -> None:
    """``username`` logged in on the way to a new record sheet."""
    page.goto(f"{url}/sheets/new/")
    page.fill('input[name="username"]', username)
    page.fill('input[name="password"]', PASSWORD)
    page.click('button[type="submit"]')
    page.wait_for_url(re.compile(r"/sheets/new/$"))


def signed_in(browser: Any, url: str, viewport: dict[str, int], username: str = "volunteer") -> Any:
    """A new page of ``browser`` at ``viewport``, ``username`` logged in (on the new sheet page)."""
    page = browser.new_page(viewport=viewport)
    page.set_default_timeout(15_000)
    log_in(page, url, username)
    return page


def shoot(page: Any, folder: Path, name: str) -> None:
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def settled(page: Any) -> None:
    """Wait until htmx has settled what it swapped in.

    htmx inserts new content at once but attaches its triggers (hx-trigger="change"
    on a new row's names) only when it settles, 20 ms later: a name typed and left
    inside those 20 ms is never checked.  A person cannot type that fast; Playwright can.
    """
    page.wait_for_selector(".htmx-added, .htmx-settling, .htmx-swapping", state="detached")


def add_row(page: Any, n: int, tap: bool = False) -> None:
    """Game row ``n`` added with "+ Add a game", ready to be typed into."""
    button = page.locator("button.add-row")
    button.tap() if tap else button.click()
    page.wait_for_selector(f'input[name="row-{n}-white"]')
    settled(page)


def fill_player(page: Any, field: str, name: str) -> None:
    box = page.locator(f'input[name="{field}"]')
    box.fill(name)
    box.press("Tab")  # leaving the field fires "change": htmx checks the name


def axe_problems(page: Any) -> list[str]:
    """The serious and critical violations axe-core finds on the page."""
    try:
        from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
    except ImportError:
        need(False, "axe-playwright-python (pip install -e '.[dev]')", "REQUIRE_BROWSER")
        raise
    results = Axe().run(page)
    return [
        f"{v['id']}: {v['help']} ({len(v['nodes'])}: {', '.join(str(n['target']) for n in v['nodes'][:3])})"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def looked_at(page: Any, folder: Path, name: str) -> None:
    """A screenshot ``name-<width>``; the page scrolls no pixel sideways and
    axe-core finds no serious or critical violation on it."""
    width = page.viewport_size["width"]
    shoot(page, folder, f"{name}-{width}")
    sideways = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert sideways <= 0, f"{name} at {width} px scrolls {sideways} px sideways"
    assert axe_problems(page) == [], name


def opened_as(browser: Any, url: str, width: int, username: str, path: str) -> Any:
    """A new page ``width`` px wide (downloads accepted), ``username`` logged in on the way to ``path``."""
    page = browser.new_context(viewport={"width": width, "height": 900}, accept_downloads=True).new_page()
    page.set_default_timeout(20_000)
    page.goto(f"{url}/accounts/login/?next={path}")
    page.fill('input[name="username"]', username)
    page.fill('input[name="password"]', PASSWORD)
    page.click('button[type="submit"]')
    page.wait_for_url(re.compile(re.escape(path) + "$"))
    return page


def add_player(club: Any, name: str, slug: str, rank: int) -> Any:
    """A player of the club's list, at home there, who joined 100 days ago."""
    from datetime import date, timedelta

    from ratings.models import Player

    return Player.objects.create(
        name=name, slug=slug, rating_list=club.rating_list, home_club=club,
        start_rank=rank, rank=rank, since=date.today() - timedelta(days=100),
    )  # fmt: skip


def open_entry(browser: Any, url: str, viewport: dict[str, int]) -> Any:
    """A new page at ``viewport``, the volunteer logged in on the entry page."""
    page = browser.new_page(viewport=viewport)
    page.set_default_timeout(15_000)
    log_in(page, url)
    return page
