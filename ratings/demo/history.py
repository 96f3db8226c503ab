"""The demo's history, planned without a database: its lists, clubs and
players, record sheets and games, komi corrections and rank adjustments,
as unsaved model objects, every random number drawn here in one order.

``manage.py demo`` writes this plan (ratings/demo/site.py, store.py); the
"How ratings work" pages replay it through the pure engine
(:func:`engine_history`), so their worked examples are the demo's own
games.  The same seed and dates give the same plan.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from decimal import Decimal

from django.utils import timezone

from ratings.demo.people import (
    DAYS,
    FIRST_SA,
    FIRST_UK,
    LAST_SA,
    LAST_UK,
    DemoPlayer,
    club_ranks,
    make_players,
    names,
)
from ratings.demo.sheets import (
    Plan,
    club_nights,
    first_weekday,
    internet_league,
    make_game,
    tournament_weekend,
)
from ratings.engine import base
from ratings.models import Club, Game, Kind, RatingList, RecordSheet

#: The seed of ``manage.py demo`` unless told otherwise.
DEMO_SEED = 2005


@dataclass(frozen=True)
class ClubSpec:
    name: str
    slug: str
    weekday: int  # of its club night (Monday = 0)
    region: str  # players visit the clubs of their own region most
    egd_code: str  # its code in the EGD's club list (written in h9 and .tou exports)


SAGC_CLUBS = (
    ClubSpec("Stellenbosch Go Club", "stellenbosch", 1, "Western Cape", "Stel"),
    ClubSpec("Cape Town Go Club", "cape-town", 2, "Western Cape", "Cape"),
    ClubSpec("Johannesburg Go Club", "johannesburg", 3, "Gauteng", "Joha"),
    ClubSpec("Pretoria Go Club", "pretoria", 0, "Gauteng", "Pret"),
)
LADDER_CLUB = ClubSpec("Guildford Go Club", "guildford-club", 3, "Surrey", "Guil")
PLAYERS_PER_CLUB = 20
LADDER_PLAYERS = 12
#: The chance that a player comes to another club's night: a town nearby, or far away.
VISIT_NEAR, VISIT_FAR = 0.03, 0.004
#: The South African Open: days after the start, and the host club.
OPENS = ((200, "johannesburg"), (560, "cape-town"))
SAGC_SLUG, LADDER_SLUG = "sagc", "guildford"


@dataclass(frozen=True)
class KomiCorrection:
    """A volunteer corrects a game's komi a few days after entering it."""

    game: Game
    old: Decimal
    new: Decimal
    at: datetime


@dataclass(frozen=True)
class Promotion:
    """The committee sets a fast improver's rank from ``day`` on."""

    player: DemoPlayer
    day: date
    rank: float
    at: datetime


@dataclass
class ListPlan:
    """One rating list of the demo, nothing saved yet."""

    rating_list: RatingList
    clubs: list[Club]
    players: list[DemoPlayer]
    sheets: list[RecordSheet]
    #: The plan each sheet came from (who enters it depends on it).
    plans_by_sheet: list[Plan]
    games: list[Game]
    corrections: list[KomiCorrection] = field(default_factory=list)
    promotions: list[Promotion] = field(default_factory=list)


@dataclass
class DemoHistory:
    start: date
    today: date
    sagc: ListPlan
    ladder: ListPlan

    def lists(self) -> tuple[ListPlan, ListPlan]:
        return self.sagc, self.ladder


def plan_demo(rng: random.Random, today: date | None = None, now: datetime | None = None) -> DemoHistory:
    """The whole demo, two years up to ``today``; ``now`` bounds the entry
    times (no sheet is entered in the future).  No database access."""
    now = timezone.now() if now is None else now
    today = timezone.localdate(now) if today is None else today
    start = today - timedelta(days=DAYS)
    sagc = _south_africa(rng, start, today, now)
    ladder = _ladder(rng, start, today, now)
    return DemoHistory(start, today, sagc, ladder)


def _south_africa(rng: random.Random, start: date, today: date, now: datetime) -> ListPlan:
    rating_list = RatingList(
        name="South African Go Clubs",
        slug=SAGC_SLUG,
        primary_system="sagc",
        compared_systems=["egf"],
        country="ZA",
    )
    clubs = [Club(rating_list=rating_list, name=s.name, slug=s.slug, egd_code=s.egd_code) for s in SAGC_CLUBS]
    everyone = names(rng, FIRST_SA, LAST_SA, PLAYERS_PER_CLUB * len(clubs))
    # Two real people of one name, told apart by a suffix.
    twin = everyone[0]
    members: dict[str, list[DemoPlayer]] = {}
    for n, (spec, club) in enumerate(zip(SAGC_CLUBS, clubs, strict=True)):
        people = everyone[n * PLAYERS_PER_CLUB : (n + 1) * PLAYERS_PER_CLUB]
        suffixes = {}
        if n == 3:
            people[-1], suffixes = twin, {twin: "Pretoria"}
        ranks = club_ranks(rng, PLAYERS_PER_CLUB, -25, 3)
        members[spec.slug] = make_players(
            rng, club, people, ranks, start, founders=15, id_base=1000 + 200 * n, suffixes=suffixes
        )
    players = [p for group in members.values() for p in group]

    plans: list[Plan] = []
    for spec, club in zip(SAGC_CLUBS, clubs, strict=True):
        visitors = [
            (p, VISIT_NEAR if other.region == spec.region else VISIT_FAR)
            for other in SAGC_CLUBS
            if other != spec
            for p in members[other.slug]
        ]
        plans += club_nights(rng, club, spec.weekday, members[spec.slug], visitors, start, today)
    by_slug = {club.slug: club for club in clubs}
    for offset, host in OPENS:
        saturday = first_weekday(start + timedelta(days=offset), 5)
        if saturday + timedelta(days=1) >= today:
            continue
        entrants = [p for p in players if p.model.since <= saturday and rng.random() < 0.6]
        plans.append(
            tournament_weekend(rng, by_slug[host], f"South African Open {saturday.year}", saturday, entrants)
        )
    plans += internet_league(rng, clubs[0], players, start, today)
    made = plan_sheets(rng, rating_list, clubs, players, plans, start, now)
    made.corrections = plan_komi_corrections(rng, made.games)
    made.promotions = plan_promotions(rng, players, start, today)
    return made


def _ladder(rng: random.Random, start: date, today: date, now: datetime) -> ListPlan:
    """A town ladder on the West Surrey system: one club, fortnightly nights."""
    rating_list = RatingList(
        name="Guildford Ladder", slug=LADDER_SLUG, primary_system="west-surrey", country="GB"
    )
    club = Club(
        rating_list=rating_list, name=LADDER_CLUB.name, slug=LADDER_CLUB.slug, egd_code=LADDER_CLUB.egd_code
    )
    people = names(rng, FIRST_UK, LAST_UK, LADDER_PLAYERS)
    players = make_players(
        rng, club, people, club_ranks(rng, LADDER_PLAYERS, -20, 1), start, founders=10, id_base=None
    )
    plans = club_nights(
        rng,
        club,
        LADDER_CLUB.weekday,
        players,
        [],
        start,
        today,
        every=14,
        attendance=0.5,
        name="ladder night",
    )
    return plan_sheets(rng, rating_list, [club], players, plans, start, now)


def plan_sheets(
    rng: random.Random,
    rating_list: RatingList,
    clubs: list[Club],
    players: list[DemoPlayer],
    plans: list[Plan],
    start: date,
    now: datetime,
) -> ListPlan:
    """The sheets in date order, each entered a day or two after its last
    game, one in six weeks late (after later sheets), never after ``now``."""
    tz = timezone.get_current_timezone()
    sheets: list[RecordSheet] = []
    plans_by_sheet: list[Plan] = []
    games: list[Game] = []
    for plan in sorted(plans, key=lambda plan: (plan.day, plan.club.slug)):
        last = max(day for day, *_ in plan.games)
        delay = (
            timedelta(days=rng.randrange(7, 45))
            if rng.random() < 1 / 6
            else timedelta(days=rng.randrange(1, 3))
        )
        entered_at = datetime.combine(last, time(20, rng.randrange(60)), tz) + delay
        entered_at = min(entered_at, now - timedelta(minutes=rng.randrange(5, 600)))
        entered_at = max(entered_at, datetime.combine(last, time(23, 0), tz))
        sheet = RecordSheet(
            club=plan.club, event=plan.event, date=plan.day, kind=plan.kind, entered_at=entered_at
        )
        sheets.append(sheet)
        plans_by_sheet.append(plan)
        games += [make_game(rng, sheet, pairing, start) for pairing in plan.games]
    return ListPlan(rating_list, clubs, players, sheets, plans_by_sheet, games)


def plan_komi_corrections(rng: random.Random, games: list[Game]) -> list[KomiCorrection]:
    """Two club games whose komi a volunteer corrects after entering them."""
    club_games = [g for g in games if g.kind == Kind.CLUB]
    corrections = []
    for game in rng.sample(club_games, 2):
        new = Decimal("6.5") if game.komi != Decimal("6.5") else Decimal("7.5")
        at = game.entered_at + timedelta(days=rng.randrange(1, 5))
        corrections.append(KomiCorrection(game, game.komi, new, at))
    return corrections


def plan_promotions(
    rng: random.Random, players: list[DemoPlayer], start: date, today: date
) -> list[Promotion]:
    """The committee promotes the fastest improvers (a national rank sync)."""
    promotions = []
    for p in sorted(players, key=lambda p: -p.growth)[:4]:
        day = start + timedelta(days=rng.randrange(250, DAYS - 30))
        day = max(day, p.model.since + timedelta(days=30))
        if day >= today:
            continue
        rank = float(min(8, p.model.start_rank + max(1, round(p.growth / 2))))
        at = datetime.combine(day, time(19, 0), timezone.get_current_timezone()) + timedelta(days=1)
        promotions.append(Promotion(p, day, rank, at))
    return promotions


@dataclass(frozen=True)
class EngineHistory:
    """A demo list as the rating engine reads it: its events in timeline
    order (players named as the site shows them) and every player's start."""

    events: list[base.Event]
    starts: dict[base.PlayerId, base.Start]


def engine_history(plan: ListPlan) -> EngineHistory:
    """The list's games (with their komi corrections) and adjustments in
    timeline order, as the recompute reads them from the database: date,
    then entry time, then entry order; at one instant, games first."""
    komi = {id(fix.game): fix.new for fix in plan.corrections}
    games = (
        ((g.date, g.entered_at, 0, i), _engine_game(g, komi.get(id(g), g.komi)))
        for i, g in enumerate(plan.games)
    )
    adjustments = (
        ((step.day, step.at, 1, i), base.Adjustment(step.day, str(step.player.model), step.rank))
        for i, step in enumerate(plan.promotions)
    )
    merged: Iterator[tuple[tuple[date, datetime, int, int], base.Event]] = heapq.merge(
        sorted(games, key=_key), sorted(adjustments, key=_key), key=_key
    )
    starts: dict[base.PlayerId, base.Start] = {
        str(p.model): base.Start(rank=p.model.start_rank) for p in plan.players
    }
    return EngineHistory([event for _, event in merged], starts)


def _key(item: tuple[tuple[date, datetime, int, int], base.Event]) -> tuple[date, datetime, int, int]:
    return item[0]


def _engine_game(game: Game, komi: Decimal) -> base.Game:
    """One game as the recompute's timeline makes it (ratings/recompute/timeline.py):
    a tournament sheet's event, with its year, is the rating period."""
    sheet = game.sheet
    tournament = sheet.kind == Kind.TOURNAMENT and sheet.event
    return base.Game(
        game.date,
        str(game.white),
        str(game.black),
        base.Winner(game.winner),
        handicap=game.handicap,
        komi=float(komi),
        kind=base.Kind(game.kind),
        board=game.board,
        minutes=game.minutes,
        event=f"{sheet.event} ({game.date.year})" if tournament else None,
        club=game.club.slug,
        forfeit=game.forfeit,
    )
