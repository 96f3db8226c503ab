"""A random corpus of games replayed by every system, as one JSON digest.

Run as a script (``python corpus.py SEED...``) by tests/engine/test_agree.py
against the compiled engine and against a pure copy of its sources: it
imports nothing but ``ratings.engine``, and prints which engine it ran and,
per seed and system, a digest of the ledger, the final states and the
explanations, for a whole replay and for one resumed halfway.

The corpus covers what the systems treat differently: handicaps from 0 to
9 stones with their komi, reverse and integer komi, every kind of game,
small boards, rapid games, tournaments of each class, jigo, forfeits, new
players joining late (declared whole and half ranks), and committee
adjustments.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from datetime import date, timedelta
from typing import Any

import ratings.engine as engine
from ratings.engine.base import Adjustment, Event, Game, Kind, PlayerId, Result, Start, Winner

KINDS = (Kind.CLUB, Kind.CLUB, Kind.CLUB, Kind.TOURNAMENT, Kind.INTERNET, Kind.FREE)
EVEN_KOMI = (6.5, 6.5, 6.5, 7.5, 7.0, 0.0, 0.5, -5.5, 3.5)
HANDICAP_KOMI = (0.5, 0.5, 0.0, -0.5, 10.5)


def corpus(seed: int) -> tuple[list[Event], dict[PlayerId, Start], int]:
    """Events in timeline order, every player's start, and a day boundary
    (an index where a replay may stop and resume: no period straddles it)."""
    rng = random.Random(seed)
    players = rng.randint(12, 60)
    starts: dict[PlayerId, Start] = {
        p: Start(rank=float(rng.randint(-30, 8)) + rng.choice((0.0, 0.0, 0.5))) for p in range(players)
    }
    events: list[Event] = []
    day = date(2020, 1, 1)
    boundary = 0
    days = rng.randint(20, 60)
    for number in range(days):
        day += timedelta(days=rng.randint(1, 9))
        if number == days // 2:
            boundary = len(events)
        # New players join as the history goes on: the first days see a few.
        present = list(range(max(4, players * (number + 1) // days)))
        if rng.random() < 0.15:
            events.append(Adjustment(day, rng.choice(present), float(rng.randint(-30, 8))))
        if rng.random() < 0.25:
            events += tournament(rng, day, present, f"t{seed}-{number}")
        for club in ("north", "south")[: rng.randint(1, 2)]:
            for _ in range(rng.randint(1, 12)):
                events.append(club_game(rng, day, present, club))
    return events, starts, boundary


def club_game(rng: random.Random, day: date, present: list[int], club: str) -> Game:
    white, black = rng.sample(present, 2)
    handicap = rng.choice((0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9))
    komi = rng.choice(HANDICAP_KOMI if handicap else EVEN_KOMI)
    board = rng.choice((19, 19, 19, 19, 13, 9))
    minutes = rng.choice((None, None, None, 10, 20, 45, 90))
    return Game(
        day,
        white,
        black,
        result(rng, komi),
        handicap=handicap,
        komi=komi,
        kind=rng.choice(KINDS),
        board=board,
        minutes=minutes,
        club=club,
        forfeit=rng.random() < 0.03,
    )


def tournament(rng: random.Random, day: date, present: list[int], name: str) -> list[Event]:
    entrants = rng.sample(present, min(len(present), rng.randint(4, 16)) // 2 * 2)
    event_class = rng.choice("ABCD")
    games: list[Event] = []
    for _ in range(rng.randint(1, 4)):  # rounds
        rng.shuffle(entrants)
        for white, black in zip(entrants[::2], entrants[1::2], strict=True):
            handicap = 0 if event_class in "AB" else rng.choice((0, 0, 1, 2, 3))
            komi = 0.5 if handicap else 6.5
            games.append(
                Game(
                    day,
                    white,
                    black,
                    result(rng, komi),
                    handicap=handicap,
                    komi=komi,
                    kind=Kind.TOURNAMENT,
                    minutes=rng.choice((60, 90, None)),
                    event=name,
                    event_class=event_class,
                    club="north",
                )
            )
    return games


def result(rng: random.Random, komi: float) -> Winner:
    if komi == int(komi) and rng.random() < 0.2:
        return Winner.JIGO
    return rng.choice((Winner.WHITE, Winner.BLACK))


def digest(result: Result) -> str:
    """The ledger's bytes, the final states and the explanations, hashed."""
    h = hashlib.sha256()
    ledger = result.ledger
    for column in (
        ledger.rank_before,
        ledger.rating_before,
        ledger.change,
        ledger.rank_after,
        ledger.rating_after,
    ):
        h.update(column.tobytes())
    state = {repr(k): v.to_json() for k, v in sorted(result.state.items(), key=lambda kv: repr(kv[0]))}
    h.update(json.dumps(state, sort_keys=True).encode())
    if result.explanations is not None:
        explained = [None if e is None else e.to_json() for e in result.explanations]
        h.update(json.dumps(explained, sort_keys=True).encode())
    return h.hexdigest()


def replay(name: str, seed: int) -> dict[str, Any]:
    events, starts, boundary = corpus(seed)
    system = engine.get_system(name)
    try:
        whole = system.rate(events, starts=starts, explain=True)
        first = system.rate(events[:boundary], starts=starts)
        rest = system.rate(events[boundary:], state=first.state, starts=starts)
    except engine.base.RatingError as error:
        # Both engines must refuse the same event for the same reason.
        return {"error": [type(error).__name__, getattr(error, "index", None), getattr(error, "field", None)]}
    return {"events": len(events), "whole": digest(whole), "resumed": digest(rest)}


def main(seeds: list[int]) -> dict[str, Any]:
    compiled = sorted(engine.COMPILED)
    out: dict[str, Any] = {"engine": engine.ENGINE, "compiled": compiled, "file": engine.__file__}
    for seed in seeds:
        for name in engine.SYSTEM_NAMES:
            out[f"{seed}/{name}"] = replay(name, seed)
    return out


if __name__ == "__main__":
    print(json.dumps(main([int(a) for a in sys.argv[1:]])))
