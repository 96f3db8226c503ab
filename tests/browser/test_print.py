"""Printing a record sheet and an event's crosstable (static/css/print.css):
the page's content alone, every column, on paper-sized pages.  Each page is
also printed to a PDF in $ARTIFACTS_DIR."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pytest_django.live_server_helper import LiveServer

#: An A4 page's width at 96 dots an inch: the width a printout lays out in.
A4 = {"width": 794, "height": 1123}

pytestmark = pytest.mark.browser


def test_a_record_sheet_and_an_event_crosstable_print_with_every_column_and_no_menu(
    live_server: LiveServer, history: dict[str, Any], browser: Any, artifacts: Path
) -> None:
    from ratings.models import RecordSheet

    sheet = RecordSheet.objects.get(club=history["club"])
    page = browser.new_page(viewport=A4)
    for name, path, table in [
        ("record-sheet", f"/players/{history['Alice Mokoena'].slug}/", "table.sheet"),
        ("crosstable", f"/events/{sheet.pk}/", "table.crosstable"),
    ]:
        page.goto(f"{live_server.url}{path}")
        page.emulate_media(media="screen")
        assert page.is_visible(".site-header")
        page.emulate_media(media="print")
        assert page.is_hidden(".site-header") and page.is_hidden(".menu-toggle"), name
        cells = page.locator(f"{table} tbody tr").first.locator("td")
        hidden = [i for i in range(cells.count()) if cells.nth(i).is_hidden()]
        assert cells.count() >= 5 and hidden == [], f"{name}: columns {hidden} not printed"
        if name == "record-sheet":
            assert cells.count() == 12
        wide = page.evaluate(f"document.querySelector('{table}').getBoundingClientRect().width")
        assert wide <= page.evaluate("document.documentElement.clientWidth"), f"{name}: the table is cut"
        page.pdf(path=str(artifacts / f"print-{name}.pdf"), format="A4")
        assert (artifacts / f"print-{name}.pdf").read_bytes().startswith(b"%PDF")
        page.emulate_media(media="screen")
