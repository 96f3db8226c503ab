"""The committee's exchange pages in Chromium at 375 and 1280 px: the export
page's "Check what is exported" summary and its download, the national codes
page saved (and a wrong PIN refused next to its field), the list page's
published rank files.  No page scrolls sideways and axe-core finds no
serious or critical violation.  Screenshots in $ARTIFACTS_DIR (default
artifacts/), prefixed "exchange-"."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from pytest_django.live_server_helper import LiveServer

from tests.browser.pages import looked_at, opened_as
from tests.support import PASSWORD, committee_of, make_pool

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("width", [375, 1280])
def test_exports_codes_and_published_ranks_in_the_browser(
    browser: Any,
    live_server: LiveServer,
    transactional_db: None,
    artifacts: Path,
    width: int,
) -> None:
    from django.contrib.auth.models import User

    from ratings import services
    from ratings.models import Club, Player
    from ratings.services import GameRow

    club = make_pool(name="Johannesburg Go Club", slug="johannesburg")
    committee_of(User.objects.create_user("committee", password=PASSWORD), club.rating_list)
    werner, thabo = (
        Player.objects.create(
            name=name, slug=slug, rating_list=club.rating_list, home_club=club, start_rank=rank, rank=rank,
            since=date.today() - timedelta(days=100),
        )
        for name, slug, rank in [("Werner Mahlangu", "werner", -12), ("Thabo le Roux", "thabo", -9)]
    )  # fmt: skip
    services.save_sheet(club=club, date=date.today() - timedelta(days=5), rows=[
        GameRow(white=werner, black=thabo, winner="black"),
        GameRow(white=thabo, black=werner, winner="white", kind="free", board=13),  # issue 26's example
    ])  # fmt: skip

    page = opened_as(browser, live_server.url, width, "committee", "/committee/export/")

    # What the EGD file holds, then the file itself.
    page.select_option('select[name="format"]', "h9")
    with page.expect_navigation():
        page.click('button[name="check"]')
    summary = page.inner_text("section.notice")
    assert "1 game written (EGD class C: club ladder, games over the board); 1 left out:" in summary
    assert "1 × free or teaching game" in summary
    looked_at(page, artifacts, "exchange-export-check")
    with page.expect_download() as download:
        page.click("text=Download it")
    text = Path(download.value.path()).read_text()
    assert "CL[C]" in text and "Mahlangu Werner" in text and text.count("|") == 0

    # The national codes: a wrong PIN is refused next to its field; then the codes are saved.
    page.goto(f"{live_server.url}/lists/{club.rating_list.slug}/codes/")
    looked_at(page, artifacts, "exchange-codes")
    page.fill('input[name="country"]', "ZA")
    page.fill(f'input[name="club_{club.pk}"]', "Joha")
    page.fill(f'input[name="p{werner.pk}_egd_pin"]', "1234")
    with page.expect_navigation():
        page.click("form button.save")
    assert "Nothing was saved" in page.inner_text(".error-summary")
    assert "an EGD PIN is eight digits" in page.inner_text(".has-error")
    looked_at(page, artifacts, "exchange-codes-refused")
    page.fill(f'input[name="p{werner.pk}_egd_pin"]', "12345678")
    with page.expect_navigation():
        page.click("form button.save")
    assert "3 codes saved" in page.inner_text("ul.messages")
    assert Club.objects.get(pk=club.pk).egd_code == "Joha"

    # The list's page links its ranks for pairing programs; the EGD list holds Werner, now with his PIN.
    page.goto(f"{live_server.url}/lists/{club.rating_list.slug}/")
    looked_at(page, artifacts, "exchange-list")
    response = page.request.get(f"{live_server.url}/lists/{club.rating_list.slug}/ranks/egf_db.txt")
    assert response.ok and " 12345678  Mahlangu Werner" in response.text()
    assert "ZA  Joha   12k" in response.text() and "Number of players: 1" in response.text()
