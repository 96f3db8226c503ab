"""Helpers of the browser tests: viewports, reading a record sheet, typing a
player's name, screenshots."""

from __future__ import annotations

from pathlib import Path
from typing import Any

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def read_sheet(page: Any) -> list[list[str]]:
    rows = page.locator("table.sheet tbody tr:not(.ripple-note)")  # a late game's note is no row of the sheet
    return [
        [cell.strip() for cell in rows.nth(i).locator("td").all_inner_texts()] for i in range(rows.count())
    ]


def shoot(page: Any, folder: Path, name: str) -> None:
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def fill_player(page: Any, field: str, name: str) -> None:
    box = page.locator(f'input[name="{field}"]')
    box.fill(name)
    box.press("Tab")  # leaving the field fires "change": htmx checks the name
