"""Tables of the read pages: the players list (django-tables2) and the
rows of a player's record sheet (the SAGC FAQ's 12 columns)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from functools import cache
from html import escape as escape_html
from typing import Any

import django_tables2 as tables
from django.db.models import Case, F, When
from django.urls import reverse

from ratings.engine import SYSTEM_LABELS, get_system, sagc_rules
from ratings.engine.ranks import format_rank
from ratings.models import HistoryEntry, Player, Winner


def system_column(system: str) -> str:
    """The players list's column of one system's ratings ("rating_west_surrey")."""
    return "rating_" + system.replace("-", "_")


def per_system_ratings(players: Any, systems: Sequence[str]) -> Any:
    """Annotate each of ``systems``' columns: the player's rating when it is
    their list's primary system, else nothing."""
    return players.annotate(
        **{
            system_column(name): Case(When(rating_list__primary_system=name, then=F("rating")), default=None)
            for name in systems
        }
    )


class SystemRatingColumn(tables.Column):
    """One system's ratings on the players list of several lists."""

    def __init__(self, system: str) -> None:
        unit, label = unit_of(system), SYSTEM_LABELS.get(system, system)
        if unit.lower() not in label.lower():
            label = f"{label} {unit}"  # "South African Go Clubs index"; "EGF GoR (since 2021)" says it
        super().__init__(verbose_name=label, default="", attrs={"td": {"class": "num"}})
        self.system = system

    def order(self, queryset: Any, is_descending: bool) -> tuple[Any, bool]:
        """This system's players first, either way (a database puts the
        empty cells first or last as it likes), then rank and name."""
        value = F(system_column(self.system))
        key = value.desc(nulls_last=True) if is_descending else value.asc(nulls_last=True)
        return queryset.order_by(key, "-rank", "name"), True

    def render(self, value: float) -> str:
        return number(value)

    def value(self, value: float | None) -> str:
        return number(value)


class PlayerTable(tables.Table):
    name = tables.Column(linkify=True, attrs={"td": {"class": "name"}})
    club = tables.Column(
        accessor="home_club__name",
        verbose_name="Club",
        default="",
        attrs={"th": {"class": "club"}, "td": {"class": "club"}},
    )
    rank = tables.Column(verbose_name="Rank", attrs={"td": {"class": "num"}})
    rating = tables.Column(verbose_name="Index", attrs={"td": {"class": "num"}})
    games_count = tables.Column(verbose_name="Games", attrs={"td": {"class": "num"}})
    last_updated = tables.DateColumn(verbose_name="Last updated", format="Y-m-d")

    class Meta:
        model = Player
        fields = ("name", "club", "rank", "rating", "games_count", "last_updated")
        order_by = ("-rank", "-rating")
        template_name = "django_tables2/table.html"
        attrs = {"class": "data players"}
        empty_text = "No players match."

    def render_name(self, record: Player) -> str:
        return record.display_name

    def value_name(self, record: Player) -> str:
        return record.display_name

    def __init__(self, *args: Any, systems: Sequence[str] = ("sagc",), **kwargs: Any) -> None:
        """``systems``: the primary systems of the lists shown.  One system:
        the rating column is named after its unit ("Index", "GoR", "Level",
        "Strength").  Several: one column a system, each player's rating in
        the column of their list's system and the others empty, so no
        column mixes two systems' numbers (the queryset is annotated by
        :func:`per_system_ratings`)."""
        if len(systems) > 1:
            kwargs["exclude"] = ("rating",)
            kwargs["extra_columns"] = [(system_column(name), SystemRatingColumn(name)) for name in systems]
            kwargs["sequence"] = ("name", "club", "rank", *(system_column(n) for n in systems), "...")
        super().__init__(*args, **kwargs)
        if len(systems) == 1:
            self.columns["rating"].column.verbose_name = rating_label(systems)
        self.rating_columns = [system_column(n) for n in systems] if len(systems) > 1 else ["rating"]

    def render_rank(self, value: float) -> str:
        return format_rank(value)

    def value_rank(self, value: float) -> str:
        return format_rank(value)

    def render_rating(self, value: float) -> str:
        return number(value)

    def value_rating(self, value: float) -> str:
        return number(value)

    def value_last_updated(self, value: date | None) -> str:
        return value.isoformat() if value else ""

    def order_rank(self, queryset: Any, is_descending: bool) -> tuple[Any, bool]:
        """Rank, then index within the rank (an 11k at +900 is above one at 0)."""
        prefix = "-" if is_descending else ""
        return queryset.order_by(f"{prefix}rank", f"{prefix}rating", "name"), True


def number(value: float | None) -> str:
    """A rating as written on the sheet: whole numbers without a decimal point."""
    if value is None:
        return ""
    if abs(value - round(value)) < 1e-9:
        return str(round(value))
    return f"{value:.1f}"


def signed(value: float | None) -> str:
    text = number(value)
    return f"+{text}" if value is not None and value > 0 else text


def escape(text: object) -> str:
    """Django's ``escape`` (what a template's autoescape does to a value),
    without its lazy-text wrapper: for the pages' large tables written as
    HTML in Python (sheet_html, events), where the wrapper cost a tenth of
    the page's time."""
    return escape_html(str(text))


@dataclass(frozen=True)
class Note:
    """The latest change of one record-sheet row by a late game, as the page
    writes it (ratings.presentation.result_changes makes them)."""

    changed_on: str
    why: str
    change: str
    rating: str
    rank: str

    def __str__(self) -> str:
        return f"changed on {self.changed_on}: {self.why}"


# the SAGC FAQ, "The Game Status Factor", keyed by the stored kind ("club"):
# the engine's table, not a copy of it.
STATUS_FACTOR: dict[str, float] = {kind.value: factor for kind, factor in sagc_rules.STATUS_FACTOR.items()}

COLOURS = {"w": "White", "b": "Black"}
WINNER_COLOURS: dict[str, str] = {Winner.WHITE: "White", Winner.BLACK: "Black", Winner.JIGO: "Jigo"}

#: the SAGC FAQ, "What are the columns in my record sheet?", in its order.
SHEET_HEADERS: tuple[str, ...] = (
    "Opponent",
    "Opponent's rank",
    "Colour",
    "Handicap",
    "Komi",
    "Winner's colour",
    "Game status factor",
    "Change in index",
    "New index",
    "New rank",
    "Date",
    "Comments",
)


@cache
def unit_of(system: str) -> str:
    """The name of a system's rating column ("index", "GoR", "level").

    Cached: ``unit`` is a class constant of each system, read from a
    built system (building SAGC took tens of milliseconds, most of a
    players-list request, until its tables were built once per process,
    ratings/engine/sagc_tables.py).
    "rating" for a name no system has (a list's compared systems are
    stored as plain JSON)."""
    try:
        return str(get_system(system).unit)
    except ValueError:
        return "rating"


def rating_label(systems: Iterable[str]) -> str:
    """The players list's rating header: the unit of the primary system,
    capitalised ("Index", "GoR", "Level", "Strength"); "Rating" when the
    clubs shown rate in different units."""
    units = {unit_of(name) for name in systems}
    if len(units) != 1:
        return "Rating"
    unit = units.pop()
    return unit[:1].upper() + unit[1:]


def sheet_headers(system: str) -> tuple[str, ...]:
    """The 12 headers, "index" named after the system's unit."""
    unit = unit_of(system)
    if unit == "index":
        return SHEET_HEADERS
    return tuple(h.replace("index", unit) for h in SHEET_HEADERS)


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One line of a record sheet (the SAGC FAQ's columns 1-12, in order)."""

    opponent: Player
    opponent_rank: float | None
    colour: str
    handicap: int | None
    komi: Decimal | None
    winner: str
    status_factor: float | None
    change: float
    new_index: float
    new_rank: float
    date: date
    comments: str
    adjustment: bool
    #: The record sheet the game was entered on (None for an adjustment), for a link.
    sheet_id: int | None = None
    #: The game or the adjustment itself, for the link to its explanation.
    game_id: int | None = None
    adjustment_id: int | None = None

    def cells(self) -> tuple[str, ...]:
        """The 12 columns as text, for the page and the CSV export."""
        return (
            self.opponent.display_name,
            format_rank(self.opponent_rank) if self.opponent_rank is not None else "",
            self.colour,
            "" if self.handicap is None else str(self.handicap),
            "" if self.komi is None else format(self.komi.normalize(), "f"),
            self.winner,
            "" if self.status_factor is None else f"{self.status_factor:g}",
            signed(self.change),
            number(self.new_index),
            format_rank(self.new_rank),
            self.date.isoformat(),
            self.comments,
        )


@dataclass(frozen=True, slots=True)
class SheetLine:
    """A record-sheet row as the page writes it: the 12 cells as text, with
    the links worked out here, so the template writes each row with plain
    variables (a loop over the cells with a test on each took most of the
    page's time)."""

    adjustment: bool
    opponent: str
    #: The opponent's record sheet; "" for an adjustment (the player's own name).
    opponent_url: str
    opponent_rank: str
    colour: str
    handicap: str
    komi: str
    winner: str
    status_factor: str
    change: str
    new_index: str
    new_rank: str
    date: str
    #: The record sheet the game was entered on; "" for an adjustment.
    sheet_url: str
    comments: str
    #: The page that explains the change: the game's (linked from the
    #: change) or the adjustment's (linked from its date).
    explained_url: str = ""
    #: The row's latest change by a late game (result_changes.notes_for).
    ripple: Note | None = None
    #: The head-to-head of the sheet's player and this opponent.
    versus_url: str = ""
    #: The event (the sheet's crosstable) the game was played at.
    event_url: str = ""

    @classmethod
    def of(cls, row: SheetRow, opponent_url: str | None = None, links: Links | None = None) -> SheetLine:
        link = links or Links()
        cells = row.cells()
        if opponent_url is None:
            opponent_url = "" if row.adjustment else link.to("player", row.opponent.slug)
        name, rank, colour, handicap, komi, winner, factor, change, index, new_rank, day, comments = cells
        if row.adjustment and row.opponent_rank is not None and row.new_rank != row.opponent_rank:
            # A rank change by adjustment shows the step of ranks,
            # not the index difference ("+172" read as a gain for a demotion).
            change = rank_step(row.opponent_rank, row.new_rank)
        return cls(
            adjustment=row.adjustment,
            opponent=name,
            opponent_url=opponent_url,
            opponent_rank=rank,
            colour=colour,
            handicap=handicap,
            komi=komi,
            winner=winner,
            status_factor=factor,
            change=change,
            new_index=index,
            new_rank=new_rank,
            date=day,
            sheet_url=link.to("sheet", row.sheet_id) if row.sheet_id else "",
            event_url=link.to("event", row.sheet_id) if row.sheet_id else "",
            comments=comments,
            explained_url=explained_url(row, link),
        )


class Links:
    """The addresses of one page's rows: each URL pattern reversed once, with
    a stand-in for its last argument, then filled in per row (reversing
    some 250 times was a sixth of a long record sheet's page)."""

    STAND_IN = "987654321"  # a whole number, so that it fits a slug and an int

    def __init__(self) -> None:
        self.patterns: dict[tuple[str, tuple[object, ...]], tuple[str, str]] = {}

    def to(self, name: str, last: object, *first: object) -> str:
        """reverse(name, args=[*first, last]), for a ``last`` that reverse
        writes as it is: a whole number, or a slug (ASCII: SlugField)."""
        key = (name, first)
        pattern = self.patterns.get(key)
        if pattern is None:
            head, _, tail = reverse(name, args=[*first, self.STAND_IN]).rpartition(self.STAND_IN)
            pattern = self.patterns[key] = (head, tail)
        return f"{pattern[0]}{last}{pattern[1]}"


def explained_url(row: SheetRow, links: Links | None = None) -> str:
    """The page that explains a row's change (game or adjustment), if any."""
    link = links or Links()
    if row.game_id is not None:
        return link.to("game", row.game_id)
    if row.adjustment_id is not None:
        return link.to("adjustment", row.adjustment_id)
    return ""


def rank_step(before: float, after: float) -> str:
    """'demoted 1 rank' / 'promoted 2 ranks' (half ranks of other systems as 0.5)."""
    steps = abs(after - before)
    word = "promoted" if after > before else "demoted"
    return f"{word} {steps:g} rank{'' if steps == 1 else 's'}"


def sheet_lines(rows: Iterable[SheetRow], player: Player | None = None) -> list[SheetLine]:
    """The page's lines; each opponent's links (their record sheet and, given
    the sheet's ``player``, the head-to-head of the two) worked out once (a
    club's players meet the same opponents again and again)."""
    links = Links()
    urls: dict[int, tuple[str, str]] = {}
    lines = []
    for row in rows:
        if row.adjustment:
            url, versus = "", ""
        elif (known := urls.get(row.opponent.pk)) is not None:
            url, versus = known
        else:
            url = links.to("player", row.opponent.slug)
            versus = links.to("head_to_head", row.opponent.slug, player.slug) if player else ""
            urls[row.opponent.pk] = (url, versus)
        lines.append(replace(SheetLine.of(row, url, links), versus_url=versus))
    return lines


def sheet_row(entry: HistoryEntry, player: Player) -> SheetRow:
    """A HistoryEntry (with ``opponent_rank`` annotated, see
    HistoryQuerySet.with_opponent_rank) as a record-sheet line.

    An adjustment shows the player's own name as opponent (the SAGC FAQ, column
    1: "same name indicates an adjustment") and, as that "opponent's" rank,
    the rank the player had before it.
    """
    game = entry.game
    if game is None:
        adjustment = entry.adjustment
        return SheetRow(
            opponent=player,
            opponent_rank=entry.rank_before,
            colour="",
            handicap=None,
            komi=None,
            winner="",
            status_factor=None,
            change=entry.change,
            new_index=entry.rating_after,
            new_rank=entry.rank_after,
            date=entry.date,
            comments=adjustment.reason if adjustment is not None else "",
            adjustment=True,
            adjustment_id=entry.adjustment_id,
        )
    opponent = entry.opponent or (game.black if entry.colour == "w" else game.white)
    return SheetRow(
        opponent=opponent,
        opponent_rank=getattr(entry, "opponent_rank", None),
        colour=COLOURS.get(entry.colour, entry.colour),
        handicap=game.handicap,
        komi=game.komi,
        winner=WINNER_COLOURS.get(game.winner, game.winner),
        status_factor=STATUS_FACTOR.get(game.kind),
        change=entry.change,
        new_index=entry.rating_after,
        new_rank=entry.rank_after,
        date=game.date,
        comments=game.comments,
        adjustment=False,
        sheet_id=game.sheet_id,
        game_id=game.pk,
    )


def sheet_rows(entries: Iterable[HistoryEntry], player: Player) -> Iterator[SheetRow]:
    return (sheet_row(entry, player) for entry in entries)
