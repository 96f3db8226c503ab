"""Events: every record sheet is one, an imported tournament or a club
night.  Its crosstable (rounds, colours, handicaps, results, forfeits and
byes; places and tie-breaks as the file gave them) and each player's rating
effect in every system of the list, rated yet or not."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Max, Min, QuerySet, Sum
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from ratings.engine import SYSTEM_LABELS
from ratings.engine.ranks import format_rank
from ratings.models import Club, EventEntry, Game, HistoryEntry, Player, RatingList, RecordSheet, Winner
from ratings.presentation.tables import signed


@dataclass(frozen=True, slots=True)
class Cell:
    """One round of one player: h9's notation ("3+/w0": against number 3,
    won, White, no handicap; "!" for a forfeit; the file's "0=" for a bye)."""

    text: str
    title: str
    game_id: int | None = None
    #: The game's page (its explanation); "" for a bye or several games.
    url: str = ""


@dataclass(frozen=True, slots=True)
class Effect:
    """A player's rating change over the event in one system."""

    text: str
    rated: bool


@dataclass
class Row:
    number: int
    player: Player
    place: str = ""
    tiebreaks: Sequence[str] = ()
    cells: list[Cell] = field(default_factory=list)
    won: int = 0
    games: int = 0
    rank_before: str = ""
    effects: list[Effect] = field(default_factory=list)
    #: The tie-breaks, padded to the table's number of tie-break columns.
    tiebreak_cells: list[str] = field(default_factory=list)
    #: The player's record sheet, worked out once per row.
    url: str = ""
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


def result_of(game: Game, white: bool) -> str:
    if game.winner == Winner.JIGO:
        return "jigo"
    return "won" if (game.winner == Winner.WHITE) == white else "lost"


def crosstable(sheet: RecordSheet) -> Crosstable:
    """The event's table in a fixed number of queries: games, entries,
    players, the history's sums per player and system."""
    rating_list: RatingList = sheet.club.rating_list
    games = list(sheet.games.order_by("round", "id"))
    entries = list(EventEntry.objects.filter(sheet=sheet).order_by("position"))
    player_ids = {g.white_id for g in games} | {g.black_id for g in games} | {e.player_id for e in entries}
    players = Player.objects.only("name", "suffix", "slug", "rank").in_bulk(player_ids)
    rows: dict[int, Row] = {}
    for entry in entries:
        rows.setdefault(
            entry.player_id,
            Row(entry.position, players[entry.player_id], entry.place, entry.tiebreaks),
        )
    if not entries:
        # A club night: its players, most games won first.
        won: dict[int, int] = defaultdict(int)
        for game in games:
            if game.winner != Winner.JIGO:
                won[game.white_id if game.winner == Winner.WHITE else game.black_id] += 1
        ordered = sorted(player_ids, key=lambda pk: (-won[pk], players[pk].name, players[pk].suffix))
        rows = {pk: Row(n, players[pk]) for n, pk in enumerate(ordered, start=1)}
    else:
        # Games entered later by hand for someone the file did not list.
        for pk in sorted(player_ids - rows.keys()):
            rows[pk] = Row(max(r.number for r in rows.values()) + 1, players[pk])
    tournament = any(g.round for g in games)
    # The game page's address made once and filled in per cell (reversing
    # 2,500 times was most of a 500-player tournament's page).
    game_url = reverse("game", args=[0])
    player_url = reverse("player", args=["slug"])
    for row in rows.values():
        row.url = player_url.replace("/slug/", f"/{row.player.slug}/", 1)
    by_slot: dict[tuple[int, int], list[Cell]] = defaultdict(list)
    counts: dict[int, int] = defaultdict(int)
    for game in games:
        for pk, opponent, white in (
            (game.white_id, game.black_id, True),
            (game.black_id, game.white_id, False),
        ):
            result = result_of(game, white)
            row = rows[pk]
            row.games += 1
            row.won += result == "won"
            counts[pk] += 1
            slot = game.round if tournament and game.round else counts[pk]
            sep = "!" if game.forfeit else "/"
            text = f"{rows[opponent].number}{RESULT_MARK[result]}{sep}{'w' if white else 'b'}{game.handicap}"
            title = (
                f"{result} {'by forfeit ' if game.forfeit else ''}against {players[opponent]}, "
                f"{'White' if white else 'Black'}, handicap {game.handicap}, komi {game.komi:g}"
            )
            by_slot[(pk, slot)].append(Cell(text, title, game.pk, game_url.replace("0", str(game.pk), 1)))
    for entry in entries:
        for bye in entry.byes:
            round_, cell, words = [*bye, "", ""][:3]
            by_slot[(entry.player_id, int(round_))].append(Cell(str(cell) or "0", str(words)))
    width = max((slot for _, slot in by_slot), default=0)
    for pk, row in rows.items():
        for slot in range(1, width + 1):
            found = by_slot.get((pk, slot), [])
            row.cells.append(
                Cell(
                    " ".join(c.text for c in found),
                    "; ".join(c.title for c in found),
                    found[0].game_id if len(found) == 1 else None,
                    found[0].url if len(found) == 1 else "",
                )
                if found
                else Cell("", "")
            )
    days = sheet.games.aggregate(first=Min("date"), last=Max("date"))
    pending = (
        rating_list.dirty_from is not None
        and days["last"] is not None
        and rating_list.dirty_from <= days["last"]
    )
    add_effects(rows, rating_list.systems, sheet, pending)
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
        first_day=days["first"],
        last_day=days["last"],
    )


def add_effects(rows: dict[int, Row], systems: Sequence[str], sheet: RecordSheet, pending: bool) -> None:
    """Each player's change over the event in each system: the sum of the
    history's changes of its games; "being rated" while a recompute is
    pending, "not rated" when the system rated none of their games."""
    sums: dict[tuple[int, str], float] = {}
    # A forfeit is kept with the event, never rated (its history row moves nothing).
    rated = HistoryEntry.objects.filter(game__sheet=sheet, game__forfeit=False)
    history = rated.values("player_id", "system").annotate(total=Sum("change")).order_by()
    for item in history:
        sums[(item["player_id"], item["system"])] = item["total"]
    # The rank each player came with: before their first game of the event.
    first_rows = rated.filter(system=systems[0]).order_by("seq").values_list("player_id", "rank_before")
    for pk, rank in first_rows:
        if not rows[pk].rank_before:
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
        f'<td class="name"><a href="{escape(row.url)}">{escape(row.player.display_name)}</a></td>',
        f"<td>{escape(row.rank_before)}</td>",
    ]
    for cell in row.cells:
        title = f' title="{escape(cell.title)}"' if cell.title else ""
        text = f'<a href="{escape(cell.url)}">{escape(cell.text)}</a>' if cell.url else escape(cell.text)
        cells.append(f'<td class="cell"{title}>{text}</td>')
    cells.append(f'<td class="num">{row.won}/{row.games}</td>')
    cells += [f'<td class="num">{escape(value)}</td>' for value in row.tiebreak_cells]
    cells += [
        f'<td class="num{"" if effect.rated else " hint"}">{escape(effect.text)}</td>'
        for effect in row.effects
    ]
    return mark_safe("<tr>" + "".join(cells) + "</tr>")  # every text escaped above
