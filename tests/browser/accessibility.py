"""The accessibility test's machinery: the demo site's places, what is done
on a page before it is checked, and the check itself (axe-core, the width,
the title and landmarks).

axe-core runs inside the page (tests/browser/pages.py, axe_problems):
axe-playwright-python ships its script (nothing is downloaded at run time)
and Playwright evaluates it.  Every violation whose impact is serious or
critical fails.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.browser.pages import add_row, axe_problems, fill_player, settled
from tests.support import DATA, PASSWORD

#: The viewports: a small phone and a laptop.
PHONE_375 = {"width": 375, "height": 812}
DESKTOP_1280 = {"width": 1280, "height": 900}


def demo_places() -> dict[str, str]:
    """The demo site (``manage.py demo``) and what its pages need beyond it:
    a rank sync with rejected lines, a tournament import's preview, a
    waiting invitation and link request, a password-reset link; the values
    that fill the site map's ``{placeholders}``."""
    from django.contrib.auth.models import User
    from django.contrib.auth.tokens import default_token_generator
    from django.core.management import call_command
    from django.db.models import Count
    from django.utils.encoding import force_bytes
    from django.utils.http import urlsafe_base64_encode

    from accounts.models import LinkRequest
    from accounts.services import invitations
    from ratings import committee
    from ratings.committee.import_preview import preview_import
    from ratings.committee.past_games import preview_past_games
    from ratings.models import Club, Game, Player, RankAdjustment, RatingList, RecordSheet
    from ratings.notices import mail

    call_command("demo", "--password", PASSWORD, stdout=None)
    sagc = RatingList.objects.get(slug="sagc")
    club = Club.objects.get(slug="stellenbosch")
    chair = User.objects.get(username="committee-sagc")
    game = Game.objects.filter(club=club).order_by("-date", "-pk").first()
    assert game is not None
    player = Player.objects.get(user__username="player")
    opponent = Player.objects.filter(rating_list=sagc).exclude(pk=player.pk).order_by("name").first()
    assert opponent is not None
    adjustment = RankAdjustment.objects.filter(player__rating_list=sagc).first()
    assert adjustment is not None
    sync = committee.preview_rank_sync(
        sagc,
        (DATA / "ranks-saga-bad-lines.csv").read_bytes(),
        filename="ranks-saga-bad-lines.csv",
        user=chair,
    )
    preview = preview_import(
        club, (DATA / "preview-club-cup.h9").read_bytes(), filename="preview-club-cup.h9", user=chair
    )
    past = preview_past_games(
        sagc,
        b"date,white,white_rank,black,black_rank,handicap,komi,result,kind,club\n"
        b"2019-03-05,Ann Lee,3k,Bo Chen,6k,3,0.5,black,club,stellenbosch\n"
        b"2019-03-12,Anne Lee,3k,Bo Chen,6k,3,0.5,black,club,stellenbosch\n",
        filename="past.csv",
        user=chair,
    )
    _, token = invitations.invite("newcomer@example.org", "volunteer", sagc, club, by=chair)
    claimant = User.objects.create_user("claimant", password=PASSWORD)
    LinkRequest.objects.create(user=claimant, player=opponent)
    admin = User.objects.get(username="admin")
    event = (
        RecordSheet.objects.filter(club__rating_list=sagc).annotate(n=Count("games")).order_by("-n").first()
    )
    assert event is not None
    uid = urlsafe_base64_encode(force_bytes(claimant.pk))
    return {
        "player": player.slug,
        "player_pk": str(player.pk),
        "opponent": opponent.slug,
        "game": str(game.pk),
        "sheet": str(game.sheet_id),
        "adjustment": str(adjustment.pk),
        "rank_sync": str(sync.pk),
        "import_preview": str(preview.pk),
        "past_games_preview": str(past.pk),
        "invitation": token,
        "admin_user": str(admin.pk),
        "event": str(event.pk),  # the sheet of most games: the tournament weekend
        "unsubscribe": mail.unsubscribe_token(player),
        "password_reset": f"/accounts/password/reset/{uid}/{default_token_generator.make_token(claimant)}/",
        "known": player.name,
        "near_miss": opponent.name[:-1],  # one letter short: "did you mean…?"
    }


def log_in(page: Any, url: str, username: str) -> None:
    page.goto(f"{url}/accounts/login/")
    page.fill('input[name="username"]', username)
    page.fill('input[name="password"]', PASSWORD)
    page.click('main button[type="submit"]')
    page.wait_for_url(lambda address: "/accounts/login/" not in address)


def phone(page: Any) -> bool:
    return bool(page.viewport_size["width"] <= PHONE_375["width"])


def open_menu(page: Any, places: dict[str, str]) -> None:
    """On a phone the menu button opens the whole navigation; on a laptop it is hidden."""
    button = page.locator(".menu-toggle")
    if not phone(page):
        assert button.is_hidden(), "the menu button shows on a laptop"
        return
    assert page.locator(".nav-links").is_hidden(), "the navigation is not folded on a phone"
    button.click()
    assert button.get_attribute("aria-expanded") == "true"
    assert page.locator(".nav-links a").first.is_visible(), "the menu did not open"


def open_card(page: Any, places: dict[str, str]) -> None:
    """On a phone a record-sheet card opens on all its columns."""
    if phone(page):
        page.locator("button.row-more").first.click()
        assert page.locator("table.sheet tr.open td.opt").first.is_visible()


def submit_empty(page: Any, places: dict[str, str]) -> None:
    """The main form sent empty (the browser's own checks off): the errors
    as the server writes them, tied to their fields."""
    form = page.locator("main form:has(button[type=submit])").last
    form.evaluate("form => { form.noValidate = true; }")
    with page.expect_navigation():
        form.locator("button[type=submit]").last.click()


def enter_games(page: Any, places: dict[str, str]) -> None:
    """A sheet being entered: a known name, a new player (their rank asked),
    a near miss (did you mean…?), and a save refused for the missing winner."""
    if page.locator('input[name="row-0-white"]').count() == 0:
        return  # refused
    fill_player(page, "row-0-white", places["known"])
    page.wait_for_selector("#id_row-0-white-status > *")
    fill_player(page, "row-0-black", "Somebody Quite New")
    page.wait_for_selector('input[name="row-0-black_rank"]')
    add_row(page, 1)
    fill_player(page, "row-1-white", places["near_miss"])
    page.wait_for_selector("#id_row-1-white-status > *")
    settled(page)
    page.click("button.save")
    page.wait_for_selector(".error-summary")


STEPS: dict[str, Callable[[Any, dict[str, str]], None]] = {
    "": lambda page, places: None,
    "open-menu": open_menu,
    "open-card": open_card,
    "submit-empty": submit_empty,
    "enter-games": enter_games,
}


def problems(page: Any, admin: bool) -> list[str]:
    """What is wrong with the page as it stands: axe's serious and critical
    violations, a sideways scroll, no title of its own, no main landmark or
    first-level heading (our pages; Django's admin is checked by axe only)."""
    found = [f"axe {problem}" for problem in axe_problems(page)]
    width = page.evaluate("document.documentElement.scrollWidth")
    if width > page.viewport_size["width"]:
        found.append(f"scrolls sideways: {width}px wide")
    title = page.title()
    if not admin:
        if not re.search(r"\S · Club ratings$", title) or title.startswith("Club ratings ·"):
            found.append(f"no title of its own: {title!r}")
        if page.locator("main").count() != 1 or page.locator("main h1").count() < 1:
            found.append("no main landmark holding a first-level heading")
    return found


def shot(page: Any, folder: Path, name: str) -> None:
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)
