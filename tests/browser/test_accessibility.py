"""Every page of the site, as every persona, on a 375 px phone and a 1280 px
laptop, checked by axe-core inside a real Chromium.

The demo site (``manage.py demo``) is loaded once a persona; one browser serves
the persona's pages, one context a width, the persona logged in once.
One test a persona (they run in parallel under pytest-xdist): each page of
tests/browser/site_map.py is opened as each of its personas,
the step it names is done (the menu opened on a phone, a record-sheet card
opened, a form sent empty, games typed into a sheet), and then it must have
no serious or critical axe violation, must not scroll sideways, must have a
title of its own and a main landmark with a heading.  Every page is saved at
both widths in $ARTIFACTS_DIR/accessibility/.  All problems are gathered and
reported together.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pytest_django.live_server_helper import LiveServer

from tests.browser.accessibility import DESKTOP_1280, PHONE_375, STEPS, demo_places, log_in, problems, shot
from tests.browser.site_map import MORE_PAGES, PERSONAS, SITE_MAP, Visit

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.parametrize("persona", list(PERSONAS))
def test_every_page_passes_axe_on_a_phone_and_a_laptop(
    persona: str, live_server: LiveServer, transactional_db: None, browser: Any, artifacts: Path
) -> None:
    places = demo_places()
    folder = artifacts / "accessibility"
    folder.mkdir(exist_ok=True)
    visits = {**{route or "home": v for route, v in SITE_MAP.items() if isinstance(v, Visit)}, **MORE_PAGES}
    failures: list[str] = []
    checked = 0
    username = PERSONAS[persona]
    mine = {name: visit for name, visit in visits.items() if persona in visit.who}
    state = None
    for viewport in (PHONE_375, DESKTOP_1280):
        context = browser.new_context(viewport=viewport, storage_state=state)
        page = context.new_page()
        page.set_default_timeout(15_000)
        if username and state is None:
            log_in(page, live_server.url, username)
            state = context.storage_state()
        for name, visit in mine.items():
            where = f"{persona} {viewport['width']}px {visit.path.format(**places)}"
            response = page.goto(live_server.url + visit.path.format(**places))
            status = response.status if response else 0
            expected = 403 if persona in visit.refused else visit.status
            if status != expected:
                failures.append(f"{where}: answered {status}, not {expected}")
                continue
            try:
                STEPS[visit.then](page, places)
            except Exception as error:  # reported with the others
                failures.append(f"{where}: {visit.then or 'opening'} failed: {error}")
                continue
            failures += [f"{where}: {p}" for p in problems(page, admin=name.startswith("admin/"))]
            checked += 1
            slug = name.strip("/").replace("/", "_").replace("<", "").replace(">", "").replace(":", "-")
            if visit.who[0] == persona or name == "home":  # each page once, the home page's menu as each
                shot(page, folder, f"{viewport['width']}-{slug}-{persona}")
        context.close()
    assert checked == 2 * len(mine) or failures, f"only {checked} pages checked"
    assert not failures, f"{len(failures)} problems:\n" + "\n".join(failures)
