"""Every URL pattern of the site, and the page the accessibility test opens for it.

``SITE_MAP`` maps each route (as Django's resolver spells it, prefixes
included: ``"players/<slug:slug>/"``) to either

- a :class:`Visit`: a path to open (its ``{placeholders}`` filled from the
  demo site, :func:`tests.browser.accessibility.demo_places`), the personas
  who open it, and what is done on the page before it is checked; or
- a :class:`Through`: a route that is no page of its own (a POST-only
  action, an htmx fragment, a redirect, a JSON answer) and the visited route
  whose page shows it (its form, its fragment) or that it redirects to.

``tests/browser/test_site_map.py`` walks ``clubrating.urls`` and fails when a
route of the site has no entry here, or an entry no route;
``tests/browser/test_accessibility.py`` opens every visit as each of its
personas at 375 and 1280 px and runs axe-core on it.  A new page adds its
route here.

Django's admin is mapped by :func:`admin_entry`: one model's pages are
visited (every kind of admin page: list, add, change, history, delete), the
other models' pages are the same templates and go through them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: The personas, as the demo's users (None: not logged in).
PERSONAS: dict[str, str | None] = {
    "anonymous": None,
    "player": "player",  # linked to a player of the SAGC list
    "volunteer": "volunteer-stellenbosch",
    "volunteer_b": "volunteer-cape-town",  # another club of the same list
    "committee": "committee-sagc",
    "committee_2": "committee-guildford",  # another list
    "site_admin": "admin",
}

EVERYONE = tuple(PERSONAS)
#: Public pages: read by everyone, and checked as every persona (each sees
#: its own menu and its own controls on them: a correction link, the e-mail
#: switch on its record sheet, a list's settings).
PUBLIC = EVERYONE
ENTRY = ("volunteer", "committee")  # who enters and corrects the Stellenbosch sheets
COMMITTEE = ("committee",)


@dataclass(frozen=True)
class Visit:
    path: str
    who: tuple[str, ...]
    #: What is done on the page before the check (tests/browser/accessibility.py, STEPS).
    then: str = ""
    #: Personas the page refuses (403): the refusal is what they see and what is checked.
    refused: tuple[str, ...] = ()
    #: The status of the page when not refused.
    status: int = 200


@dataclass(frozen=True)
class Through:
    route: str
    why: str


Entry = Visit | Through

SITE_MAP: dict[str, Entry] = {
    # --- reading: players, record sheets, the log, games, how ratings work ---
    "": Visit("/", EVERYONE, then="open-menu"),
    "favicon.ico": Through("", "redirects to the site's icon (static/favicon.svg)"),
    "players/": Visit("/players/", PUBLIC),
    "players/<slug:slug>/": Visit("/players/{player}/", PUBLIC, then="open-card"),
    "players/<slug:slug>/vs/<slug:other>/": Visit("/players/{player}/vs/{opponent}/", PUBLIC),
    "players/<slug:slug>/feed/": Through(
        "players/<slug:slug>/", "the record sheet's news feed: XML, no page"
    ),
    "players/<slug:slug>/notices/": Through("players/<slug:slug>/", "POST: the record sheet's e-mail switch"),
    "notices/unsubscribe/<str:token>/": Visit("/notices/unsubscribe/{unsubscribe}/", ("anonymous",)),
    "events/<int:pk>/": Visit("/events/{event}/", PUBLIC),
    "lists/<slug:slug>/events/": Visit("/lists/sagc/events/", PUBLIC),
    "clubs/<slug:slug>/events/": Visit("/clubs/stellenbosch/events/", PUBLIC),
    "lists/<slug:slug>/ranks/<str:name>": Through(
        "lists/<slug:slug>/", "a rank file for pairing programs: text"
    ),
    "me/": Visit("/me/", ("player",)),  # a linked player's record sheet
    "log/": Visit("/log/", PUBLIC),
    "games/<int:pk>/": Visit("/games/{game}/", PUBLIC),
    "adjustments/<int:pk>/": Visit("/adjustments/{adjustment}/", PUBLIC),
    "sheets/<int:pk>/": Visit("/sheets/{sheet}/", PUBLIC),
    "lists/<slug:slug>/": Visit("/lists/sagc/", PUBLIC),
    "clubs/<slug:slug>/": Visit("/clubs/stellenbosch/", PUBLIC),
    "clubs/<slug:slug>/kit/": Visit("/clubs/stellenbosch/kit/", ("volunteer", "committee")),
    "how/": Visit("/how/", PUBLIC),
    "how/<slug:system>/": Visit("/how/sagc/", PUBLIC),
    "handicap/": Visit("/handicap/?list=sagc&white={player}&black={opponent}", PUBLIC),
    "api/games/": Through(
        "committee/export/", "the JSON API: no page; its tokens are made on the export page"
    ),
    # --- entering sheets, corrections ---
    "sheets/new/": Visit("/sheets/new/", (*ENTRY, "volunteer_b"), then="enter-games"),
    "sheets/new/row/": Through("sheets/new/", "htmx: a game row, added on the entry page"),
    "sheets/new/players/": Through("sheets/new/", "htmx: the names offered while typing"),
    "sheets/new/player-check/": Through("sheets/new/", "htmx: a typed name checked beside it"),
    "sheets/new/suggest/": Through(
        "sheets/new/", "script: the type-ahead's players under a name being typed"
    ),
    "sheets/new/advice/": Through("sheets/new/", "htmx: the handicap advice under a game row"),
    "sheets/<int:pk>/add/": Visit("/sheets/{sheet}/add/", ENTRY),
    "sheets/<int:pk>/delete/": Visit("/sheets/{sheet}/delete/", ENTRY),
    "log/<int:pk>/restore/": Through("log/", "POST: the log's restore button"),
    "games/<int:pk>/edit/": Visit("/games/{game}/edit/", (*ENTRY, "volunteer_b"), refused=("volunteer_b",)),
    "games/<int:pk>/delete/": Visit("/games/{game}/delete/", ENTRY),
    "players/<slug:slug>/rename/": Visit("/players/{player}/rename/", COMMITTEE),
    "players/<slug:slug>/merge/": Visit("/players/{player}/merge/", COMMITTEE),
    "log/<int:pk>/unmerge/": Through("log/", "POST: the log's undo button of a merge"),
    "accounts/places/": Visit("/accounts/places/", ("volunteer", "committee", "site_admin")),
    # --- the committee ---
    "adjustments/": Visit("/adjustments/", COMMITTEE),
    "adjustments/new/": Visit("/adjustments/new/", COMMITTEE, then="submit-empty"),
    "lists/<slug:slug>/settings/": Visit(
        "/lists/sagc/settings/", ("committee", "committee_2", "site_admin"), refused=("committee_2",)
    ),
    "lists/<slug:slug>/predictions/": Visit("/lists/sagc/predictions/", COMMITTEE),
    "lists/<slug:slug>/predictions/compute/": Through("lists/<slug:slug>/predictions/", "POST: Compute now"),
    "recompute/": Visit("/recompute/", COMMITTEE),
    "recompute/<slug:slug>/": Through("recompute/", "POST: the recompute page's button"),
    "committee/ranks/": Visit("/committee/ranks/", COMMITTEE),
    "committee/ranks/new/": Visit("/committee/ranks/new/", COMMITTEE),
    "committee/ranks/<int:pk>/": Visit("/committee/ranks/{rank_sync}/", COMMITTEE),
    "committee/export/": Visit("/committee/export/", COMMITTEE),
    "committee/export/token/": Through("committee/export/", "POST: the export page's token button"),
    "committee/import/": Visit("/committee/import/", COMMITTEE),
    "committee/import/<int:pk>/": Visit("/committee/import/{import_preview}/", COMMITTEE),
    "committee/past-games/": Visit("/committee/past-games/", COMMITTEE),
    "committee/past-games/<int:pk>/": Visit("/committee/past-games/{past_games_preview}/", COMMITTEE),
    # --- list administration ---
    "lists/new/": Visit("/lists/new/", ("site_admin",)),
    "lists/import/": Visit("/lists/import/", ("site_admin",)),
    "lists/<slug:slug>/archive/": Visit("/lists/sagc/archive/", COMMITTEE),
    "lists/<slug:slug>/archive/download/": Through("lists/<slug:slug>/archive/", "the archive's zip file"),
    "lists/<slug:slug>/duplicates/": Visit("/lists/sagc/duplicates/", COMMITTEE),
    "lists/<slug:slug>/duplicates/different/": Through(
        "lists/<slug:slug>/duplicates/", "POST: a pair's “different people” button"
    ),
    "lists/<slug:slug>/codes/": Visit("/lists/sagc/codes/", COMMITTEE),
    "lists/<slug:slug>/clubs/new/": Visit("/lists/sagc/clubs/new/", COMMITTEE),
    "lists/<slug:slug>/members/": Visit("/lists/sagc/members/", ("committee", "site_admin")),
    "lists/<slug:slug>/members/link/": Through(
        "lists/<slug:slug>/members/", "POST: the members page's link form"
    ),
    "lists/<slug:slug>/invitations/": Visit("/lists/sagc/invitations/", COMMITTEE),
    "lists/<slug:slug>/link-requests/": Visit("/lists/sagc/link-requests/", COMMITTEE),
    "seats/volunteer/<int:pk>/remove/": Through(
        "lists/<slug:slug>/members/", "POST: a volunteer's remove button"
    ),
    "seats/committee/<int:pk>/remove/": Through(
        "lists/<slug:slug>/members/", "POST: a member's remove button"
    ),
    "invitations/<int:pk>/withdraw/": Through(
        "lists/<slug:slug>/invitations/", "POST: an invitation's withdraw button"
    ),
    "link-requests/<int:pk>/approve/": Through(
        "lists/<slug:slug>/link-requests/", "POST: a request's approve button"
    ),
    "link-requests/<int:pk>/refuse/": Through(
        "lists/<slug:slug>/link-requests/", "POST: a request's refuse button"
    ),
    "players/<slug:slug>/unlink/": Through(
        "lists/<slug:slug>/members/", "POST: a linked player's unlink button"
    ),
    "players/<slug:slug>/claim/": Through("players/<slug:slug>/", "POST: the record sheet's “This is me”"),
    # --- accounts ---
    "accounts/login/": Visit("/accounts/login/", ("anonymous",), then="submit-empty"),
    "accounts/logout/": Through("", "POST: the menu's Log out"),
    "accounts/password/": Visit("/accounts/password/", ("player",), then="submit-empty"),
    "accounts/password/done/": Visit("/accounts/password/done/", ("player",)),
    "accounts/password/reset/": Visit("/accounts/password/reset/", ("anonymous",)),
    "accounts/password/reset/sent/": Visit("/accounts/password/reset/sent/", ("anonymous",)),
    "accounts/password/reset/<uidb64>/<token>/": Visit("{password_reset}", ("anonymous",)),
    "accounts/password/reset/done/": Visit("/accounts/password/reset/done/", ("anonymous",)),
    "accounts/invitations/<str:token>/": Visit("/accounts/invitations/{invitation}/", ("anonymous",)),
    # --- Django's admin (one model's pages stand for every model's: admin_entry) ---
    "admin/": Visit("/admin/", ("site_admin",)),
    "admin/login/": Visit("/admin/login/", ("anonymous",)),
    "admin/logout/": Through("admin/", "POST: the admin's log out"),
    "admin/password_change/": Visit("/admin/password_change/", ("site_admin",)),
    "admin/password_change/done/": Visit("/admin/password_change/done/", ("site_admin",)),
    "admin/autocomplete/": Through(
        "admin/ratings/player/<path:object_id>/change/", "JSON for the admin's pickers"
    ),
    "admin/jsi18n/": Through("admin/", "the admin's JavaScript catalogue"),
    "admin/r/<path:content_type_id>/<path:object_id>/": Through(
        "players/<slug:slug>/", "“View on site” redirect"
    ),
    "admin/(?P<url>.*)$": Through("admin/", "an unknown admin address: redirected or not found"),
    "admin/auth/user/<id>/password/": Visit("/admin/auth/user/{admin_user}/password/", ("site_admin",)),
    "admin/ratings/player/": Visit("/admin/ratings/player/", ("site_admin",)),
    "admin/ratings/player/add/": Visit("/admin/ratings/player/add/", ("site_admin",)),
    "admin/ratings/player/<path:object_id>/change/": Visit(
        "/admin/ratings/player/{player_pk}/change/", ("site_admin",)
    ),
    "admin/ratings/player/<path:object_id>/history/": Visit(
        "/admin/ratings/player/{player_pk}/history/", ("site_admin",)
    ),
    "admin/ratings/player/<path:object_id>/delete/": Visit(
        "/admin/ratings/player/{player_pk}/delete/", ("site_admin",)
    ),
    "admin/ratings/player/<path:object_id>/": Through(
        "admin/ratings/player/<path:object_id>/change/", "redirects to the change page"
    ),
}

#: Pages under no fixed route: the error pages, and the admin's page of an
#: app (its route is a regular expression of the installed apps' labels).
MORE_PAGES: dict[str, Visit] = {
    "admin/app/": Visit("/admin/ratings/", ("site_admin",)),
    "404": Visit("/players/nobody-of-that-name/", ("anonymous",), status=404),
    "not-linked": Visit("/me/", ("committee",), status=404),  # "My record sheet" of a user with no player
    "403": Visit("/committee/export/", ("player",), refused=("player",)),  # a player opens a committee page
}

ADMIN_MODEL = re.compile(r"^admin/(?P<app>\w+)/(?P<model>\w+)/(?P<page>|add/|<path:object_id>/(?:\w+/)?)$")


def admin_entry(route: str) -> Entry | None:
    """A model's admin page: through the same kind of page of the visited
    model (ratings/player), the same Django template with other fields; an
    app's page: visited (MORE_PAGES)."""
    if route.startswith("admin/^(?P<app_label>"):
        return MORE_PAGES["admin/app/"]
    match = ADMIN_MODEL.match(route)
    if match is None:
        return None
    return Through(f"admin/ratings/player/{match['page']}", "Django's admin: the same page of another model")


def entry_for(route: str) -> Entry | None:
    return SITE_MAP.get(route) or admin_entry(route)
