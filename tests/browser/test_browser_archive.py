"""The list archive's pages in Chromium, at 375 and 1280 px: the committee
opens its list's archive page and downloads the zip; the site admin imports
it as a new list. No page scrolls sideways and axe-core finds no serious or
critical violation. Screenshots in $ARTIFACTS_DIR (default artifacts/),
prefixed "archive-"."""

from __future__ import annotations

import zipfile
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from pytest_django.live_server_helper import LiveServer

from tests.browser.pages import looked_at as look
from tests.browser.pages import opened_as
from tests.support import PASSWORD, committee_of, make_pool

pytestmark = pytest.mark.browser


def signed_in(browser: Any, live_server: LiveServer, width: int, username: str, path: str) -> Any:
    return opened_as(browser, live_server.url, width, username, path)


@pytest.mark.parametrize("width", [375, 1280])
def test_the_archive_downloaded_and_imported_in_the_browser(
    browser: Any, live_server: LiveServer, transactional_db: None, artifacts: Path,
    tmp_path: Path, width: int,
) -> None:  # fmt: skip
    from django.contrib.auth.models import User

    from ratings import services
    from ratings.models import Game, Player, RatingList
    from ratings.services import GameRow

    club = make_pool(name="Stellenbosch Go Club", slug="stellenbosch")
    committee_of(User.objects.create_user("committee", "c@example.org", PASSWORD), club.rating_list)
    User.objects.create_superuser("root", "root@example.org", PASSWORD)
    a, b = (
        Player.objects.create(
            name=name, slug=name.lower(), rating_list=club.rating_list, home_club=club, start_rank=r, rank=r,
            since=date(2024, 1, 1),
        )
        for name, r in (("Thandi", -5), ("Pieter", -8))
    )  # fmt: skip
    services.save_sheet(
        club=club, date=date(2024, 5, 7), rows=[GameRow(white=a, black=b, handicap=3, winner="black")]
    )

    path = f"/lists/{club.rating_list.slug}/archive/"
    page = signed_in(browser, live_server, width, "committee", path)
    looked_at(page, artifacts, "page")
    with page.expect_download() as info:
        page.click("text=Download the archive")
    saved = tmp_path / info.value.suggested_filename
    info.value.save_as(saved)
    assert saved.name.startswith("stellenbosch-go-club-archive-") or saved.name.endswith(".zip")
    with zipfile.ZipFile(saved) as z:
        assert len(z.read("games.jsonl").splitlines()) == 1

    admin = signed_in(browser, live_server, width, "root", "/lists/import/")
    looked_at(admin, artifacts, "import")
    admin.set_input_files('input[name="archive"]', str(saved))
    admin.fill('input[name="slug"]', "copy")
    with admin.expect_navigation():
        admin.click("form button.save")
    assert "Imported Stellenbosch Go Club (copy): 2 players, 1 games" in admin.inner_text("body")
    looked_at(admin, artifacts, "imported")
    copy = RatingList.objects.get(slug="copy")
    assert Game.objects.filter(rating_list=copy).count() == 1

    admin.goto(f"{live_server.url}/lists/import/")
    admin.set_input_files('input[name="archive"]', str(saved))
    admin.fill('input[name="slug"]', "copy")
    admin.click("form button.save")
    admin.wait_for_selector(".error-summary")
    assert "exists already" in admin.inner_text("body")
    looked_at(admin, artifacts, "refused")


def looked_at(page: Any, artifacts: Path, name: str) -> None:
    look(page, artifacts, f"archive-{name}")


PAST_CSV = """date,white,white_rank,black,black_rank,handicap,komi,result,kind,club
2019-03-05,Ann Lee,3k,Bo Chen,6k,3,0.5,black,club,Stellenbosch Go Club
2019-03-12,Bo Chen,5k,Cara Smith,1d,0,6.5,white,tournament,Stellenbosch Go Club
2019-03-19,Cara Smit,1d,Ann Lee,3k,2,0.5,white,club,Stellenbosch Go Club
"""


@pytest.mark.parametrize("width", [375, 1280])
def test_past_games_previewed_and_saved_in_the_browser(
    browser: Any, live_server: LiveServer, transactional_db: None, artifacts: Path,
    tmp_path: Path, width: int,
) -> None:  # fmt: skip
    from django.contrib.auth.models import User

    from ratings.models import Game

    club = make_pool(name="Stellenbosch Go Club", slug="stellenbosch")
    committee_of(User.objects.create_user("committee", "c@example.org", PASSWORD), club.rating_list)
    csv = tmp_path / "past.csv"
    csv.write_text(PAST_CSV)
    page = signed_in(browser, live_server, width, "committee", "/committee/past-games/")
    looked_at(page, artifacts, "past-upload")
    page.set_input_files('input[name="file"]', str(csv))
    with page.expect_navigation():
        page.click("form button.save")
    body = page.inner_text("body")
    assert "3 games on 3 record sheets" in body and "Cara Smit" in body, body
    assert "Cara Smith (also new, in this file)" in body, "two spellings of one name are pointed out"
    looked_at(page, artifacts, "past-preview")
    with page.expect_navigation():
        page.click("form button.save")
    assert "3 past games saved on 3 sheets" in page.inner_text("body")
    looked_at(page, artifacts, "past-saved")
    assert Game.objects.count() == 3
