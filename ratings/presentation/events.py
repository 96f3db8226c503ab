"""Events: every record sheet is one, an imported tournament or a club
night.  Its crosstable (rounds, colours, handicaps, results, forfeits and
byes; places and tie-breaks as the file gave them) and each player's rating
effect in every system of the list, rated yet or not."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, QuerySet
from django.utils.safestring import SafeString, mark_safe

from ratings.engine import SYSTEM_LABELS
from ratings.engine.ranks import format_rank
from ratings.models import (
    Club,
    EventEntry,
    HistoryEntry,
    Player,
    RatingList,
    RecordSheet,
    Winner,
    player_display_name,
)
from ratings.presentation.tables import Links, escape, signed


@dataclass(frozen=True, slots=True)
class Effect:
    """A player's rating change over the event in one system."""

    text: str
    rated: bool


@dataclass
class Row:
    number: int
    #: The player's name as shown, and their record sheet.
    name: str
    url: str
    place: str = ""
    tiebreaks: Sequence[str] = ()
    #: One a round (or game), written: ``<td class="cell" ...>...</td>`` (:func:`cell_html`).
    cells: list[str] = field(default_factory=list)
    won: int = 0
    games: int = 0
    rank_before: str = ""
    effects: list[Effect] = field(default_factory=list)
    #: The tie-breaks, padded to the table's number of tie-break columns.
    tiebreak_cells: list[str] = field(default_factory=list)
    #: The row as the page writes it (:func:`row_html`).
    html: str = ""


@dataclass(frozen=True, slots=True)
class Crosstable:
    sheet: RecordSheet
    #: "Round 1".. for a tournament, "Game 1".. for a club night.
    columns: Sequence[str]
    rows: Sequence[Row]
    systems: Sequence[str]
    tiebreak_columns: int
    #: Being rated: a recompute is pending from on or before the event's last day.
    pending: bool
    first_day: Any
    last_day: Any

    @property
    def tiebreak_range(self) -> range:
        return range(1, self.tiebreak_columns + 1)

    @property
    def system_labels(self) -> list[str]:
        return [SYSTEM_LABELS.get(name, name) for name in self.systems]


RESULT_MARK = {"won": "+", "lost": "-", "jigo": "="}


#: One round of one player, its HTML escaped: h9's notation ("3+/w0":
#: against number 3, won, White, no handicap; "!" for a forfeit; the
#: file's "0=" for a bye), what it says on hover, the game's page ("" for a bye).
Slot = tuple[str, str, str]


def result_of(winner: str, white: bool) -> str:
    if winner == Winner.JIGO:
        return "jigo"
    return "won" if (winner == Winner.WHITE) == white else "lost"


def crosstable(sheet: RecordSheet) -> Crosstable:
    """The event's table in a fixed number of queries: games, entries,
    players, the history of the games.  Written with tuples and strings, no
    object a cell: a 500-player tournament has 2,500 of them."""
    rating_list: RatingList = sheet.club.rating_list
    games = list(
        sheet.games.order_by("round", "id").values_list(
            "id", "round", "white_id", "black_id", "winner", "forfeit", "handicap", "komi", "date"
        )
    )
    entries = list(
        EventEntry.objects.filter(sheet=sheet)
        .order_by("position")
        .values_list("player_id", "position", "place", "tiebreaks", "byes")
    )
    player_ids = {g[2] for g in games} | {g[3] for g in games} | {e[0] for e in entries}
    names = {
        pk: (name, suffix, slug)
        for pk, name, suffix, slug in Player.objects.filter(pk__in=player_ids)
        .order_by()
        .values_list("id", "name", "suffix", "slug")
    }
    # Each address reversed once and filled in per row and cell (reversing
    # 2,500 times was most of a 500-player tournament's page).
    links = Links()

    def row_of(number: int, pk: int, place: str = "", tiebreaks: Sequence[str] = ()) -> Row:
        name, suffix, slug = names[pk]
        return Row(number, player_display_name(name, suffix), links.to("player", slug), place, tiebreaks)

    rows: dict[int, Row] = {}
    for pk, position, place, tiebreaks, _ in entries:
        if pk not in rows:
            rows[pk] = row_of(position, pk, place, tiebreaks)
    if not entries:
        # A club night: its players, most games won first.
        won: dict[int, int] = defaultdict(int)
        for _, _, white_id, black_id, winner, *_ in games:
            if winner != Winner.JIGO:
                won[white_id if winner == Winner.WHITE else black_id] += 1
        ordered = sorted(player_ids, key=lambda pk: (-won[pk], names[pk][0], names[pk][1]))
        rows = {pk: row_of(n, pk) for n, pk in enumerate(ordered, start=1)}
    else:
        # Games entered later by hand for someone the file did not list.
        for pk in sorted(player_ids - rows.keys()):
            rows[pk] = row_of(max(r.number for r in rows.values()) + 1, pk)
    tournament = any(g[1] for g in games)
    escaped = {pk: escape(row.name) for pk, row in rows.items()}
    by_slot: dict[tuple[int, int], list[Slot]] = defaultdict(list)
    counts: dict[int, int] = defaultdict(int)
    for game_id, round_, white_id, black_id, winner, forfeit, handicap, komi, _ in games:
        url = links.to("game", game_id)
        for pk, opponent, white in ((white_id, black_id, True), (black_id, white_id, False)):
            result = result_of(winner, white)
            row = rows[pk]
            row.games += 1
            row.won += result == "won"
            counts[pk] += 1
            slot = round_ if tournament and round_ else counts[pk]
            # Only the opponent's name needs escaping: the rest is digits and notation.
            text = f"{rows[opponent].number}{RESULT_MARK[result]}{'!' if forfeit else '/'}{'w' if white else 'b'}{handicap}"
            title = (
                f"{result} {'by forfeit ' if forfeit else ''}against {escaped[opponent]}, "
                f"{'White' if white else 'Black'}, handicap {handicap}, komi {komi:g}"
            )
            by_slot[(pk, slot)].append((text, title, url))
    for pk, *_, byes in entries:
        for bye in byes:
            round_, cell, words = [*bye, "", ""][:3]
            by_slot[(pk, int(round_))].append((escape(str(cell) or "0"), escape(str(words)), ""))
    width = max((slot for _, slot in by_slot), default=0)
    for pk, row in rows.items():
        row.cells = [cell_html(by_slot.get((pk, slot))) for slot in range(1, width + 1)]
    first_day, last_day = min((g[8] for g in games), default=None), max((g[8] for g in games), default=None)
    pending = (
        rating_list.dirty_from is not None and last_day is not None and rating_list.dirty_from <= last_day
    )
    rated = [g[0] for g in games if not g[5]]  # a forfeit is kept with the event, never rated
    add_effects(rows, rating_list.systems, rated, pending)
    tiebreaks = max((len(r.tiebreaks) for r in rows.values()), default=0)
    for row in rows.values():
        row.tiebreak_cells = [*row.tiebreaks, *[""] * (tiebreaks - len(row.tiebreaks))]
        row.html = row_html(row)
    return Crosstable(
        sheet=sheet,
        columns=[f"{'Round' if tournament else 'Game'} {n}" for n in range(1, width + 1)],
        rows=sorted(rows.values(), key=lambda r: r.number),
        systems=rating_list.systems,
        tiebreak_columns=tiebreaks,
        pending=pending,
        first_day=first_day,
        last_day=last_day,
    )


def cell_html(found: list[Slot] | None) -> str:
    """A round's cell: its game (linked to the game's page), its games or its bye."""
    if not found:
        return '<td class="cell"></td>'
    if len(found) == 1:
        text, title, url = found[0]
    else:
        text, title, url = " ".join(f[0] for f in found), "; ".join(f[1] for f in found), ""
    title = f' title="{title}"' if title else ""
    return (
        f'<td class="cell"{title}><a href="{url}">{text}</a></td>'
        if url
        else f'<td class="cell"{title}>{text}</td>'
    )


def add_effects(rows: dict[int, Row], systems: Sequence[str], games: list[int], pending: bool) -> None:
    """Each player's change over the event in each system: the sum of the
    history's changes of its rated ``games`` (one query on the history's
    game index); "being rated" while a recompute is pending, "not rated"
    when the system rated none of their games."""
    sums: dict[tuple[int, str], float] = {}
    # The rank each player came with: before their first game of the event.
    first: dict[int, tuple[int, float]] = {}
    history = HistoryEntry.objects.filter(game__in=games).order_by()
    for pk, system, change, seq, rank in history.values_list(
        "player_id", "system", "change", "seq", "rank_before"
    ):
        sums[(pk, system)] = sums.get((pk, system), 0.0) + change
        if system == systems[0] and (pk not in first or seq < first[pk][0]):
            first[pk] = (seq, rank)
    for pk, (_, rank) in first.items():
        rows[pk].rank_before = format_rank(rank)
    for pk, row in rows.items():
        for system in systems:
            found = sums.get((pk, system))
            if pending:
                row.effects.append(Effect("being rated", False))
            elif found is None:
                row.effects.append(Effect("not rated", False))
            else:
                row.effects.append(Effect(signed(round(found, 1)), True))


def events_of(rating_list: RatingList | None = None, club: Club | None = None) -> QuerySet[RecordSheet]:
    """A list's or a club's events, the latest first, with their games counts."""
    sheets = RecordSheet.objects.select_related("club")
    if club is not None:
        sheets = sheets.filter(club=club)
    elif rating_list is not None:
        sheets = sheets.filter(club__rating_list=rating_list)
    return sheets.annotate(games_count=Count("games")).order_by("-date", "-entered_at", "-id")


def row_html(row: Row) -> SafeString:
    """A crosstable row written here, each text escaped, rather than cell by
    cell in the template: a 500-player tournament has some 10,000 cells,
    and the template's loops took most of the page's time."""
    cells = [
        f'<td class="num">{row.number}</td>',
        f'<td class="num">{escape(row.place)}</td>',
        f'<td class="name"><a href="{escape(row.url)}">{escape(row.name)}</a></td>',
        f"<td>{escape(row.rank_before)}</td>",
        *row.cells,
        f'<td class="num">{row.won}/{row.games}</td>',
    ]
    cells += [f'<td class="num">{escape(value)}</td>' for value in row.tiebreak_cells]
    cells += [
        f'<td class="num{"" if effect.rated else " hint"}">{escape(effect.text)}</td>'
        for effect in row.effects
    ]
    return mark_safe("<tr>" + "".join(cells) + "</tr>")  # every text escaped above
