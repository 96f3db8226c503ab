"""The committee's rank sync and season import pages in Chromium, at 375 and
1280 px: an EGD list narrowed to a country, its grouped preview (applied at 1280 px), a
season of two tournaments previewed and saved.  No page scrolls sideways and
axe-core finds no serious or critical violation.  Screenshots in
$ARTIFACTS_DIR (default artifacts/), prefixed "sync-"."""

from __future__ import annotations

import io
import zipfile
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from pytest_django.live_server_helper import LiveServer

from tests.browser.pages import looked_at, opened_as
from tests.support import DATA, PASSWORD, committee_of, make_pool

pytestmark = pytest.mark.browser

WIDTHS = (375, 1280)


def check(page: Any, artifacts: Path, name: str) -> None:
    looked_at(page, artifacts, f"sync-{name}")


def new_page(browser: Any, width: int, live_server: LiveServer) -> Any:
    return opened_as(browser, live_server.url, width, "committee", "/committee/ranks/new/")


def test_rank_sync_and_season_pages_at_phone_and_desktop_widths(
    browser: Any, live_server: LiveServer, transactional_db: None, artifacts: Path
) -> None:
    from django.contrib.auth.models import User

    from ratings.models import Player, RecordSheet

    club = make_pool(name="Stellenbosch Go Club", slug="stellenbosch")
    committee_of(User.objects.create_user("committee", password=PASSWORD), club.rating_list)
    for name, suffix, rank in [
        ("Jean Dupont", "Paris", -10),
        ("Jean Dupont", "junior", -14),
        ("Alice Testeur", "", -3),
    ]:
        Player.objects.create(
            name=name, suffix=suffix, slug=f"{name}-{suffix}".lower().replace(" ", "-"),
            rating_list=club.rating_list, home_club=club, start_rank=rank, rank=rank, since=date(2019, 1, 1),
        )  # fmt: skip
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("season/open.h9", (DATA / "club-open-2024.h9").read_bytes())
        zipped.writestr("season/cup.h9", (DATA / "preview-club-cup.h9").read_bytes())
    season = {"name": "season.zip", "mimeType": "application/zip", "buffer": archive.getvalue()}
    for width in WIDTHS:
        page = new_page(browser, width, live_server)
        check(page, artifacts, "upload")
        page.set_input_files('input[name="file"]', str(DATA / "allworld_lp_sample.html"))
        page.fill('input[name="country"]', "FR")
        with page.expect_navigation():
            page.click("form button.save")
        body = page.inner_text("body")
        assert "EGD rating list for" in body and "list list" not in body
        assert "Ambiguous: choose the entry (2)" in body and "Jean Dupont (junior)" in body
        assert "Why: Jean Dupont (Paris) also has this name" in body
        check(page, artifacts, "preview")
        if width == WIDTHS[-1]:  # apply once: Jean Dupont (Paris) is the FR entry
            paris = page.get_by_label("Which entry is Jean Dupont (Paris)?")
            paris.select_option(index=1)
            page.get_by_label("Apply Jean Dupont (Paris)").check()
            with page.expect_navigation():
                page.click("form button.save")
            body = page.inner_text("body")
            assert "1 rank adjustments" in body and "id 10000005 stored" in body, body[:3000]
            check(page, artifacts, "applied")
        page.goto(f"{live_server.url}/committee/ranks/")
        assert "names among 3: country FR" in page.inner_text("body")
        check(page, artifacts, "syncs")
        page.goto(f"{live_server.url}/committee/import/")
        assert "at most 60 files and 20 MB in all" in page.inner_text("body")
        check(page, artifacts, "import")
        page.set_input_files('input[name="file"]', files=[season])
        with page.expect_navigation():
            page.click("form button.save")
        body = page.inner_text("body")
        assert "Preview: a season of 2 tournaments" in body
        assert body.index("Stellenbosch Autumn Open") < body.index("Guildford Club Cup")
        check(page, artifacts, "season")
        if width == WIDTHS[-1]:
            with page.expect_navigation():
                page.click("form button.save")
            assert "14 games of 2 tournaments saved" in page.inner_text("body")
            assert RecordSheet.objects.filter(club=club).count() == 2
        page.context.close()
