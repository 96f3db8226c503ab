"""What players come to see, in a real browser at 375 and 1280 px: from a
list's home to an event (an imported tournament), to a player's record
sheet, to the head-to-head of two players, to a game's explanation.  Each
page: no sideways scrolling, no serious axe-core violation; screenshots in
$ARTIFACTS_DIR prefixed "sync-players-"."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from pytest_django.live_server_helper import LiveServer

from ratings import committee
from ratings.recompute import recompute_list
from tests.browser.test_browser_sync import check
from tests.support import DATA

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("width", [375, 1280])
def test_from_a_lists_home_to_an_event_a_head_to_head_and_a_games_explanation(
    browser: Any, live_server: LiveServer, history: dict[str, Any], artifacts: Path, width: int
) -> None:
    club = history["club"]
    report = committee.import_tournament(club, (DATA / "club-open-2024.h9").read_bytes(), filename="open.h9")
    assert report.sheet is not None
    recompute_list(club.rating_list_id, full=True)
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.set_default_timeout(20_000)

    page.goto(f"{live_server.url}/")
    page.wait_for_url(re.compile(rf"/lists/{club.rating_list.slug}/$"))
    assert page.locator("table.standings tbody tr").count() >= 3
    check(page, artifacts, "players-home")

    page.click(f'ul.latest-sheets a:has-text("{report.sheet.event}")')
    page.wait_for_url(re.compile(rf"/events/{report.sheet.pk}/$"))
    assert page.locator("table.crosstable tbody tr").count() == report.sheet.entries.count()
    check(page, artifacts, "players-event")

    page.locator("table.crosstable td.name a").first.click()
    page.wait_for_url(re.compile(r"/players/[^/]+/$"))
    check(page, artifacts, "players-record-sheet")

    page.locator("table.sheet a.versus").first.click()
    page.wait_for_url(re.compile(r"/players/[^/]+/vs/[^/]+/$"))
    assert "Score for" in page.inner_text("body")
    check(page, artifacts, "players-head-to-head")

    page.locator('table.meetings a:has-text("explained")').first.click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    check(page, artifacts, "players-game")
