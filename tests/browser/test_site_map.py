"""The site map of the accessibility test covers every URL pattern.

Walks ``clubrating.urls`` through Django's public resolver API (each
URLResolver's ``url_patterns`` and ``pattern``) and demands an entry of
tests/browser/site_map.py for each route: a page opened as its personas, or
a route that shows through a visited one.  No browser: this runs everywhere.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from django.urls import URLResolver, get_resolver, resolve

from tests.browser.site_map import MORE_PAGES, PERSONAS, SITE_MAP, Through, Visit, entry_for


def routes(patterns: Sequence[Any], prefix: str = "") -> Iterator[str]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from routes(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            yield prefix + str(pattern.pattern)


def all_routes() -> list[str]:
    return list(routes(get_resolver().url_patterns))


def test_every_url_pattern_of_the_site_has_a_page_in_the_site_map() -> None:
    found = all_routes()
    assert "players/<slug:slug>/" in found and "admin/" in found, "the walk missed the site's routes"
    missing = [route for route in found if entry_for(route) is None]
    assert not missing, (
        f"routes with no accessibility coverage (add them to tests/browser/site_map.py): {missing}"
    )


def test_every_entry_of_the_site_map_is_a_route_and_every_visit_opens_its_own_route() -> None:
    found = set(all_routes())
    assert not set(SITE_MAP) - found, f"entries for no route: {sorted(set(SITE_MAP) - found)}"
    for route, entry in SITE_MAP.items():
        if isinstance(entry, Visit):
            assert entry.who and set(entry.who) <= set(PERSONAS), route
            if "{" not in entry.path:  # the others are filled from the demo site by the browser test
                assert resolve(entry.path.split("?")[0]).route == route, (route, entry.path)
        else:
            assert isinstance(SITE_MAP.get(entry.route), Visit), (
                f"{route} goes through {entry.route}: no visit"
            )
    for name, visit in MORE_PAGES.items():
        assert set(visit.refused) <= set(visit.who), name


def test_a_new_route_without_an_entry_is_caught() -> None:
    """The check above can fail: a route nobody mapped has no entry."""
    assert entry_for("lists/<slug:slug>/something-new/") is None
    assert isinstance(entry_for("admin/ratings/game/<path:object_id>/delete/"), Through)
    assert entry_for("admin/ratings/game/<path:object_id>/undo/") is not None  # any admin model page
