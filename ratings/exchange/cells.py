"""CSV cells a spreadsheet cannot run: the one guard against formula
injection for every CSV the site writes (exports, the players list, record
sheets, what-if results).

A spreadsheet opening a CSV treats a cell that starts with ``=``, ``+``,
``-`` or ``@`` as a formula (and tab or carriage return can hide one), so a
player named ``=HYPERLINK("http://evil", "Bob")`` would run in the
committee's spreadsheet.  Following the OWASP "CSV Injection" advice, such
a *text* cell is written with a leading apostrophe, which spreadsheets show
as text and do not evaluate.

Decision — numbers stay numbers: a cell that is a plain decimal number
(``-12.5``, ``+7``, ``-0.25``, ``1e3``), whether given as an int/float/
Decimal or already formatted as text, is written as it is.  It cannot be a
formula, and a rating change of -12.5 must stay a number a spreadsheet
adds up.  Everything else starting with a trigger character is text and is
neutralised (``-`` alone, ``-5k``, ``+1 (jigo)``, ``@home``).

Reading back our own files, :func:`restore_cell` removes the apostrophe
again (only before a trigger character, where we put it), so an export
imports to the same names.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Iterator
from decimal import Decimal

__all__ = ["FORMULA_TRIGGERS", "csv_lines", "restore_cell", "safe_cell", "safe_row"]

#: First characters that make a spreadsheet read a cell as a formula: the
#: four operators, tab and carriage return, and the full-width forms of the
#: operators, which some spreadsheets also accept.
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")

_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def _is_trigger_text(text: str) -> bool:
    return text.startswith(FORMULA_TRIGGERS) and _NUMBER.fullmatch(text) is None


def safe_cell(value: object) -> object:
    """The value to hand to csv.writer: numbers as they are, None as an empty
    cell, text that a spreadsheet would run with a leading apostrophe."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int | float | Decimal):
        return value
    text = str(value)
    return "'" + text if _is_trigger_text(text) else text


def safe_row(row: Iterable[object]) -> list[object]:
    return [safe_cell(value) for value in row]


def restore_cell(text: str) -> str:
    """Undo :func:`safe_cell` on a cell read from one of our CSV files."""
    if text.startswith("'") and _is_trigger_text(text[1:]):
        return text[1:]
    return text


def csv_lines(rows: Iterable[Iterable[object]], **writer_options: str) -> Iterator[str]:
    """The CSV text of ``rows``, one line at a time and every cell made safe
    (for a streamed response or file: memory stays one row)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, **writer_options)  # type: ignore[arg-type]  # typeshed types each option apart
    for row in rows:
        writer.writerow(safe_row(row))
        yield buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
