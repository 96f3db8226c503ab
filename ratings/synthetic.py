"""A reproducible, realistic synthetic game history for benchmarks and demos.

``synthetic_history(games, players, seed, clubs, start)`` returns the events
(games and a few committee adjustments, in timeline order) and the start of
every player, ready for ``get_system(name).rate(events, starts=starts)``.
The same arguments always give the same history (a private
:class:`random.Random` seeded with ``seed``; no global random state is read
or changed).  Used by ``bench/engine.py`` and by the site's
``manage.py generate``; the signature and the promises below are kept stable.

What the history looks like:

* **Players** are the integers ``0 .. players - 1``.  Each has a hidden true
  strength on the rank scale of :mod:`ratings.engine.ranks` between 30k
  (-30) and 7d (6), weighted toward the kyu grades (a beta distribution with
  its mode near 10k), and a declared start rank: the true strength plus
  national-rank noise, rounded to a whole grade (``Start(rank=...)``).
  Player ``p`` belongs to club ``"club-{p % clubs + 1}"``.
* **Dates** run from ``start`` over about ``games / 100`` days (at most ten
  years), never backwards; each day's games follow each other club by club,
  so the games of one club's day (its rating period, ``period_key``) are
  contiguous, and so is every tournament.
* **Club days**: most games are between club mates of similar declared rank.
  White is the stronger player; the handicap is the difference of declared
  ranks, capped at 9; an even game has komi 6.5, a handicap game komi 0.5;
  a few even games between near-equals are played with reverse komi (komi to
  Black, written negative) or an integer komi (so jigo can happen).  Kinds:
  mostly ``club``, some ``internet`` and ``free``; a few games on 13x13 or
  9x9 boards and a few rapid games (``minutes`` 10 or 20).
* **Tournaments** (on about one day in four): a named event with an EGF
  class A-D, ``kind=tournament``, ``minutes`` 60 or 90, played in rounds
  between neighbours in declared rank (McMahon-like), handicap reduced by 2
  (class A and B even).  About one game in six belongs to a tournament.
* **Results** are drawn from a logistic curve of the true strength
  difference, after the advantage of the stones and the komi; jigo only with
  an integer komi, and rarely.
* **Adjustments**: about one committee rank change per 20,000 games (never
  fewer than one in a history of 2,000 games or more), at the start of a
  day: a player moved one grade toward their true strength.

Memory: a million games take about 150 MB.  Dates, player ids, komis,
strings and enum members are shared objects; only the ``Game`` records
themselves are allocated per game.  This module never imports Django.
"""

from __future__ import annotations

import math
import random
from bisect import bisect
from datetime import date, timedelta

from ratings.engine.base import Adjustment, Event, Game, Kind, PlayerId, Start, Winner
from ratings.engine.ranks import MAX_RANK, MIN_RANK

__all__ = ["synthetic_history"]

STRONGEST_TRUE = 6.0  # 7d: nobody in a club history is stronger
GAMES_PER_DAY = 100
MAX_DAYS = 3650
TOURNAMENT_DAY_SHARE = 0.25
TOURNAMENT_GAME_SHARE = 0.65  # of a tournament day's games
GAMES_PER_ADJUSTMENT = 20_000
LOGISTIC_SLOPE = 1.1  # per stone of true difference: 1 stone -> 75 % for the stronger
JIGO_SHARE = 0.03  # of games with an integer komi

_CITIES = (
    "Cape Town",
    "Johannesburg",
    "Durban",
    "Pretoria",
    "Stellenbosch",
    "Paris",
    "Lyon",
    "Guildford",
    "Woking",
    "Leiden",
)
_CLASSES = ("A", "B", "C", "D")
_CLASS_WEIGHTS = (1, 3, 4, 2)
_KOMI_EVEN = 6.5
_KOMI_HANDICAP = 0.5
_KOMI_REVERSE = (-0.5, -5.5, -6.5)  # komi to Black (the SAGC FAQ, record sheet column 5)
_KOMI_INTEGER = (6.0, 7.0, 0.0)


def synthetic_history(
    games: int,
    players: int = 5000,
    seed: int = 1,
    clubs: int = 1,
    start: date = date(2015, 1, 1),
) -> tuple[list[Event], dict[PlayerId, Start]]:
    """``games`` games (plus a few adjustments) among ``players`` players.

    Returns ``(events, starts)``: the events in timeline order and a
    :class:`Start` (a declared rank) for every player ``0 .. players - 1``,
    including those who happen to play no game.  Reproducible: equal
    arguments give equal results.
    """
    if games < 0:
        raise ValueError(f"games: must be 0 or more, not {games}")
    if players < 2:
        raise ValueError(f"players: at least 2 are needed for a game, not {players}")
    if clubs < 1:
        raise ValueError(f"clubs: must be 1 or more, not {clubs}")
    if clubs * 2 > players:
        raise ValueError(f"clubs: {clubs} clubs need at least {2 * clubs} players, not {players}")

    rng = random.Random(seed)
    ids = list(range(players))  # shared int objects: one per player, not one per game
    true = [MIN_RANK + (STRONGEST_TRUE - MIN_RANK) * rng.betavariate(2.2, 1.9) for _ in ids]
    declared = [float(min(MAX_RANK, max(MIN_RANK, round(t + rng.gauss(0.0, 1.2))))) for t in true]
    starts: dict[PlayerId, Start] = {p: Start(rank=declared[p]) for p in ids}
    club_names = [f"club-{c + 1}" for c in range(clubs)]
    # Each club's members sorted by declared rank, so that "similar strength"
    # is a small step along the list.  Activity weights: a few players play a
    # lot, most play a little (a Pareto tail).
    members = [sorted((p for p in ids if p % clubs == c), key=declared.__getitem__) for c in range(clubs)]
    weights = [[1.0 / (1.0 - rng.random()) ** 0.7 for _ in m] for m in members]
    cum_weights = [_cumulate(w) for w in weights]

    days = max(1, min(MAX_DAYS, games // GAMES_PER_DAY))
    day_dates = [start + timedelta(days=d) for d in range(days)]
    adjustments_left = max(1 if games >= 2000 else 0, games // GAMES_PER_ADJUSTMENT)
    adjustment_days = set(rng.sample(range(days), min(days, adjustments_left)))
    minutes_rapid = (10, 20)
    minutes_tournament = (60, 90)

    events: list[Event] = []
    append = events.append
    random_ = rng.random
    tournaments = 0

    def game(
        day: date,
        white: int,
        black: int,
        handicap: int,
        komi: float,
        kind: Kind,
        board: int,
        minutes: int | None,
        event: str | None,
        event_class: str | None,
        club: str,
    ) -> Game:
        # Results from a logistic of the true difference after the stones and
        # komi: h stones at komi 0.5 are worth h - 0.5 grades to Black, an
        # even game's komi moves the balance by (6.5 - komi) / 13 grades.
        advantage = handicap - 0.5 if handicap else (_KOMI_EVEN - komi) / 13.0
        edge = true[white] - true[black] - advantage
        if komi == int(komi) and random_() < JIGO_SHARE:
            winner = Winner.JIGO
        elif random_() < 1.0 / (1.0 + math.exp(-LOGISTIC_SLOPE * edge)):
            winner = Winner.WHITE
        else:
            winner = Winner.BLACK
        return Game(
            day,
            ids[white],
            ids[black],
            winner,
            handicap,
            komi,
            kind,
            board,
            minutes,
            event,
            event_class,
            club,
        )

    def pair(a: int, b: int, cap: int) -> tuple[int, int, int, float]:
        """White, black, handicap, komi for two players (handicap reduced by ``cap``)."""
        if declared[a] < declared[b] or (declared[a] == declared[b] and random_() < 0.5):
            a, b = b, a
        stones = min(9, max(0, int(declared[a] - declared[b]) - cap))
        if stones:
            return a, b, stones, _KOMI_HANDICAP
        roll = random_()
        if roll < 0.04:
            return a, b, 0, rng.choice(_KOMI_REVERSE)
        if roll < 0.07:
            return a, b, 0, rng.choice(_KOMI_INTEGER)
        return a, b, 0, _KOMI_EVEN

    for d in range(days):
        day = day_dates[d]
        today = (games * (d + 1)) // days - (games * d) // days
        if d in adjustment_days:
            p = rng.randrange(players)
            step = 1.0 if true[p] > declared[p] else -1.0
            declared[p] = min(float(MAX_RANK), max(float(MIN_RANK), declared[p] + step))
            append(Adjustment(day, ids[p], declared[p]))
        if today >= 8 and random_() < TOURNAMENT_DAY_SHARE:
            in_tournament = int(today * TOURNAMENT_GAME_SHARE)
            today -= in_tournament
            tournaments += 1
            event_class = rng.choices(_CLASSES, _CLASS_WEIGHTS)[0]
            name = f"{rng.choice(_CITIES)} Open {day.year} #{tournaments}"
            cap = 9 if event_class in ("A", "B") else 2
            event_minutes = rng.choice(minutes_tournament)
            rounds = rng.randint(3, 6)
            size = min(players - players % 2, 2 * -(-in_tournament // rounds))
            field = rng.sample(ids, size)
            club = club_names[rng.randrange(clubs)]
            played = 0
            while played < in_tournament:
                # McMahon-like round: neighbours in declared rank, shuffled a little.
                field.sort(key=lambda p: declared[p] + rng.gauss(0.0, 1.0))
                for i in range(0, size, 2):
                    if played == in_tournament:
                        break
                    w, b, h, k = pair(field[i], field[i + 1], cap)
                    append(game(day, w, b, h, k, Kind.TOURNAMENT, 19, event_minutes, name, event_class, club))
                    played += 1
        # The rest of the day, club by club (each club's day is one period).
        per_club = [today // clubs + (1 if c < today % clubs else 0) for c in range(clubs)]
        for c in range(clubs):
            club = club_names[c]
            squad = members[c]
            size = len(squad)
            width = 2.0 * max(1.0, size / 25.0)  # 2 * spread: sd of a sum of three uniforms is 1/2
            cum = cum_weights[c]
            total = cum[-1]
            last = size - 1
            for _ in range(per_club[c]):
                i = bisect(cum, random_() * total, 0, last)
                if random_() < 0.1:
                    j = int(random_() * size)  # an occasional mismatch: big handicaps
                else:
                    # A bell-shaped step of standard deviation max(1, size / 25)
                    # (a sum of three uniforms: cheaper than gauss()).
                    j = i + int((random_() + random_() + random_() - 1.5) * width)
                    j = last if j > last else (0 if j < 0 else j)
                if j == i:
                    j = i + 1 if i + 1 < size else i - 1
                w, b, h, k = pair(squad[i], squad[j], 0)
                roll = random_()
                if roll < 0.80:
                    kind = Kind.CLUB
                elif roll < 0.93:
                    kind = Kind.INTERNET
                else:
                    kind = Kind.FREE
                roll = random_()
                board = 19 if roll < 0.95 else (13 if roll < 0.98 else 9)
                minutes = rng.choice(minutes_rapid) if random_() < 0.05 else None
                append(game(day, w, b, h, k, kind, board, minutes, None, None, club))
    return events, starts


def _cumulate(weights: list[float]) -> list[float]:
    total = 0.0
    out = []
    for w in weights:
        total += w
        out.append(total)
    return out
