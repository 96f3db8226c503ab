"""The demo's record sheets, planned before anything is written: club nights
(with visitors from other clubs of the list), tournament weekends, a monthly
internet league; and each game's colours, handicap, komi and result."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal

from ratings.demo.people import DAYS, DemoPlayer
from ratings.models import Club, Game, Kind, RecordSheet, Winner

Pairing = tuple[date, DemoPlayer, DemoPlayer, str]  # day, two players, kind
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


@dataclass
class Plan:
    """One record sheet: where, when (its first day), what, and its games."""

    club: Club
    day: date
    event: str
    kind: str
    games: list[Pairing] = field(default_factory=list)
    #: Entered by the list's committee rather than the club's volunteer.
    by_committee: bool = False


def by_strength(rng: random.Random, players: list[DemoPlayer]) -> list[DemoPlayer]:
    """Players in rank order with some noise: neighbours pair up, as at a
    club where people mostly play those a few stones away."""
    return sorted(players, key=lambda p: p.model.start_rank + rng.gauss(0, 2.5))


def first_weekday(day: date, weekday: int) -> date:
    return day + timedelta(days=(weekday - day.weekday()) % 7)


def club_nights(
    rng: random.Random,
    club: Club,
    weekday: int,
    home: list[DemoPlayer],
    visitors: list[tuple[DemoPlayer, float]],
    start: date,
    today: date,
    every: int = 7,
    attendance: float = 0.35,
    name: str = "club night",
) -> list[Plan]:
    """A club night every ``every`` days ("Tuesday club night"): some of the
    club's players, and now and then a visitor (each with their own chance
    to come)."""
    plans = []
    day = first_weekday(start, weekday)
    while day < today:
        present = [p for p in home if p.model.since <= day and rng.random() < attendance]
        present += [p for p, chance in visitors if p.model.since <= day and rng.random() < chance]
        present = by_strength(rng, present)
        games: list[Pairing] = []
        for a, b in zip(present[::2], present[1::2], strict=False):
            for _ in range(rng.choice((1, 1, 1, 2))):
                games.append((day, a, b, Kind.FREE if rng.random() < 0.08 else Kind.CLUB))
        if len(games) >= 2:
            event = f"{WEEKDAYS[day.weekday()]} {name}"
            plans.append(Plan(club, day, event, Kind.CLUB, games, by_committee=rng.random() < 0.1))
        day += timedelta(days=every)
    return plans


def tournament_weekend(
    rng: random.Random, club: Club, event: str, saturday: date, entrants: list[DemoPlayer]
) -> Plan:
    """Five rounds, three on Saturday and two on Sunday, on one sheet."""
    plan = Plan(club, saturday, event, Kind.TOURNAMENT)
    for round_ in range(5):
        day = saturday if round_ < 3 else saturday + timedelta(days=1)
        entrants = by_strength(rng, entrants)
        plan.games += [
            (day, a, b, Kind.TOURNAMENT) for a, b in zip(entrants[::2], entrants[1::2], strict=False)
        ]
    return plan


def internet_league(
    rng: random.Random, club: Club, players: list[DemoPlayer], start: date, today: date
) -> list[Plan]:
    """A few games on the last day of each month between players of any
    club, entered by the committee (at ``club``, where its rating officer sits)."""
    plans = []
    day = start
    while day < today:
        month_end = (day.replace(day=28) + timedelta(days=4)).replace(day=1) - timedelta(days=1)
        if month_end < today:
            online = by_strength(rng, [p for p in players if p.model.since <= month_end])
            pairs = [
                (online[i], online[i + 1]) for i in rng.sample(range(len(online) - 1), rng.randrange(2, 6))
            ]
            games: list[Pairing] = [(month_end, a, b, Kind.INTERNET) for a, b in pairs]
            plans.append(Plan(club, month_end, "Internet league", Kind.INTERNET, games, by_committee=True))
        day = month_end + timedelta(days=1)
    return plans


def make_game(rng: random.Random, sheet: RecordSheet, pairing: Pairing, start: date) -> Game:
    """One game: the weaker takes Black with handicap ≈ the difference of the
    ranks people know; the result follows the hidden strengths."""
    day, a, b, kind = pairing
    years = (day - start).days / DAYS
    white, black = (a, b) if a.known(years) >= b.known(years) else (b, a)
    gap = white.known(years) - black.known(years)
    handicap = int(min(9, max(0, round(gap + rng.choice((0, 0, 0, -1, 1))))))
    if kind == Kind.FREE and rng.random() < 0.5:
        handicap = min(9, int(gap) + 2)  # teaching game with extra stones
    if handicap == 0:
        komi = Decimal(rng.choice(("6.5", "6.5", "7.5", "5.5")))
        if gap == 0 and rng.random() < 0.5:
            white, black = black, white
    else:
        komi = Decimal("0.5") if rng.random() < 0.85 else Decimal("0")
    # Black's edge: stones received minus the real strength gap (a stone ~ a rank).
    edge = handicap - (0.5 if handicap == 0 else 0) - (white.playing(years) - black.playing(years))
    p_black = 1 / (1 + math.exp(-1.1 * edge))
    if komi == 0 and rng.random() < 0.03:
        winner = Winner.JIGO
    else:
        winner = Winner.BLACK if rng.random() < p_black else Winner.WHITE
    board = 19 if kind != Kind.FREE or rng.random() < 0.5 else rng.choice((9, 13))
    return Game(
        rating_list=sheet.club.rating_list,
        club=sheet.club,
        sheet=sheet,
        date=day,
        white=white.model,
        black=black.model,
        handicap=handicap,
        komi=komi,
        winner=winner,
        kind=kind,
        board=board,
        minutes=rng.choice((None, 30, 45, 60)),
        comments="resigned" if rng.random() < 0.05 else "",
        entered_at=sheet.entered_at,
    )
