"""A record sheet page's rows written as HTML here, each text escaped, as
templates/ratings/player_detail.html wrote them cell by cell: its loop over
50 rows of 12 cells, each with its tests and a data-label, was a fifth of
the page's time.  The template writes the result between its <tbody> tags."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.safestring import SafeString, mark_safe

from ratings.presentation.tables import SheetLine, escape


def sheet_rows_html(lines: Sequence[SheetLine], headers: Sequence[str], unit: str) -> SafeString:
    """The rows of the page, with the whitespace the template's loop wrote."""
    label = [f' data-label="{escape(header)}"' for header in headers]
    return mark_safe("".join(row_html(line, label, unit) for line in lines))  # every text escaped


def row_html(row: SheetLine, label: list[str], unit: str) -> str:
    opponent = escape(row.opponent)
    if row.adjustment:
        classes = ' class="adjustment changed"' if row.ripple else ' class="adjustment"'
    else:
        classes = ' class="changed"' if row.ripple else ""
    if row.opponent_url:
        name = f'<a href="{escape(row.opponent_url)}">{opponent}</a>'
        if row.versus_url:
            name += f' <a class="versus" href="{escape(row.versus_url)}" title="Every game against {opponent}">h2h</a>'
    else:
        name = opponent
    more = (
        '<button type="button" class="row-more" aria-expanded="false" '
        f'aria-label="All columns: {opponent}, {escape(row.date)}">More</button>'
    )
    if row.ripple:
        change_cell = f'<td class="ripple-changed" title="{escape(row.ripple)}"{label[7]}>'
    else:
        change_cell = f"<td{label[7]}>"
    if row.sheet_url and row.explained_url:
        change = f'<a href="{escape(row.explained_url)}" title="How this change was computed">{escape(row.change)}</a>'
    else:
        change = escape(row.change)
    if row.sheet_url:
        day = f'<a href="{escape(row.sheet_url)}" title="The record sheet this game was entered on">{escape(row.date)}</a>'
    elif row.explained_url:
        day = f'<a href="{escape(row.explained_url)}" title="What this adjustment did, and why">{escape(row.date)}</a>'
    else:
        day = escape(row.date)
    event = (
        f'<a class="versus" href="{escape(row.event_url)}" '
        'title="The event: its crosstable and everyone\'s rating change">event</a> '
        if row.event_url
        else ""
    )
    cells = (
        f'<td class="opt"{label[1]}>{escape(row.opponent_rank)}</td>'
        f'<td class="opt"{label[2]}>{escape(row.colour)}</td>'
        f'<td class="opt"{label[3]}>{escape(row.handicap)}</td>'
        f'<td class="opt"{label[4]}>{escape(row.komi)}</td>'
        f"<td{label[5]}>{escape(row.winner)}</td>"
        f'<td class="opt"{label[6]}>{escape(row.status_factor)}</td>'
        f"{change_cell}{change}</td>"
        f'<td class="opt"{label[8]}>{escape(row.new_index)}</td>'
        f"<td{label[9]}>{escape(row.new_rank)}</td>"
        f"<td{label[10]}>{day}</td>"
        f'<td class="opt comments"{label[11]}>{event}{escape(row.comments)}</td>'
    )
    note = ""
    if row.ripple:
        ripple = row.ripple
        note = (
            f'<tr class="ripple-note"><td colspan="12"><span class="ripple-mark">*</span> {escape(ripple)}: '
            f"change {escape(ripple.change)}, {escape(unit)} {escape(ripple.rating)}, rank {escape(ripple.rank)}</td></tr>"
        )
    return f'\n    <tr{classes}>\n      <td class="name">{name}{more}</td>\n      {cells}\n    </tr>\n    {note}\n  '
