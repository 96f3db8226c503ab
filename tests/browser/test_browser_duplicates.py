"""The committee's likely duplicates in a real browser, at 1280 and 375 px.

The committee opens its list's page, follows "likely duplicates", reads the
pair Riaan Wang / Riaan Wnag with its evidence, opens the merge (the record
to keep chosen already), comes back and marks the pair as different people:
it is hidden.  A volunteer and a player are refused the page.  Each page:
no sideways scroll, no serious axe-core violation; screenshots in
$ARTIFACTS_DIR.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from pytest_django.live_server_helper import LiveServer

from tests.browser.pages import DESKTOP, PHONE_375, looked_at, signed_in
from tests.support import PASSWORD, committee_of, make_pool

pytestmark = pytest.mark.browser


@pytest.fixture
def pair(transactional_db: None) -> Any:
    """A list with Riaan Wang (two club nights) and Riaan Wnag (another
    night); a committee member, a volunteer and a player of it."""
    from django.contrib.auth.models import User

    from accounts.models import Volunteer
    from ratings import services
    from ratings.models import Player
    from ratings.services import GameRow

    club = make_pool(name="Stellenbosch Go Club", slug="stellenbosch")
    made = {
        slug: Player.objects.create(
            name=name, slug=slug, rating_list=club.rating_list, home_club=club, start_rank=-3, rank=-3,
            since=date.today() - timedelta(days=400),
        )
        for name, slug in [("Riaan Wang", "riaan-wang"), ("Riaan Wnag", "riaan-wnag"), ("Alice Mokoena", "alice")]
    }  # fmt: skip
    for days, who in ((30, "riaan-wang"), (23, "riaan-wang"), (9, "riaan-wnag")):
        services.save_sheet(
            club=club,
            date=date.today() - timedelta(days=days),
            rows=[GameRow(white=made[who], black=made["alice"], winner="white")],
        )
    committee_of(User.objects.create_user("committee", password=PASSWORD), club.rating_list)
    Volunteer.objects.create(user=User.objects.create_user("volunteer", password=PASSWORD), club=club)
    made["alice"].user = User.objects.create_user("player", password=PASSWORD)
    made["alice"].save()
    return club.rating_list


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE_375], ids=["1280px", "375px"])
def test_the_committee_reads_a_pair_opens_the_merge_and_marks_it_different_people(
    live_server: LiveServer, pair: Any, browser: Any, artifacts: Path, viewport: dict[str, int]
) -> None:
    from ratings.models import DifferentPeople

    page = signed_in(browser, live_server.url, viewport, "committee")
    page.goto(f"{live_server.url}/lists/{pair.slug}/")
    page.click("text=likely duplicates")
    page.wait_for_url(re.compile(r"/duplicates/$"))
    pair_box = page.locator(".duplicate-pair")
    assert pair_box.count() == 1
    text = pair_box.inner_text()
    assert "Riaan Wnag and Riaan Wang" in text and "Names alike: 97 %" in text
    assert "Riaan Wang: 2 games at 2 club nights" in text and "Riaan Wnag: 1 game at 1 club night" in text
    looked_at(page, artifacts, "duplicates-01-pair")

    page.click("text=Merge Riaan Wnag into Riaan Wang…")
    page.wait_for_url(re.compile(r"/players/riaan-wnag/merge/\?kept=\d+$"))
    assert page.locator("select[name=kept] option:checked").inner_text().startswith("Riaan Wang")
    looked_at(page, artifacts, "duplicates-02-merge")

    page.go_back()
    page.click("button:has-text('Different people')")
    page.wait_for_selector("text=No likely duplicates")
    assert "marked as different people" in page.inner_text("main")
    assert DifferentPeople.objects.count() == 1
    looked_at(page, artifacts, "duplicates-03-marked")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE_375], ids=["1280px", "375px"])
@pytest.mark.parametrize("username", ["volunteer", "player"])
def test_a_volunteer_and_a_player_are_refused_the_page(
    live_server: LiveServer, pair: Any, browser: Any, artifacts: Path, viewport: dict[str, int], username: str
) -> None:
    page = signed_in(browser, live_server.url, viewport, username)
    response = page.goto(f"{live_server.url}/lists/{pair.slug}/duplicates/")
    assert response.status == 403
    assert "Riaan Wnag" not in page.inner_text("body")
    page.goto(f"{live_server.url}/lists/{pair.slug}/")
    assert page.locator("text=likely duplicates").count() == 0
    looked_at(page, artifacts, f"duplicates-list-as-{username}")
