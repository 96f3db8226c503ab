"""Helpers shared by the tests of the two EGF systems (tests/engine/test_egf.py
and tests/engine/test_egf_old.py): a small EGD h9 reader and a hypothesis
strategy of random histories."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

from hypothesis import strategies as st

from ratings.engine.base import Game, Kind, PlayerId, Start, Winner

# --- a tournament in the EGD's h9 format ----------------------------------------------------

H9_RESULT = re.compile(r"^(\d+)([+\-=?])/([wb])(\d+)$")


def read_h9(path: Path) -> tuple[str, dict[PlayerId, float], list[Game]]:
    """Just enough of an EGD h9 file for a rating test (full parsing lives elsewhere)."""
    cls = "A"
    grades: dict[PlayerId, float] = {}
    results: list[tuple[str, int, str, str, str, int]] = []
    for line in path.read_text(encoding="latin-1").splitlines():
        if line.startswith(";"):
            found = re.search(r"CL\[(\w)\]", line)
            cls = found.group(1) if found else cls
            continue
        fields = line.split()
        if not fields:
            continue
        number = fields[0]
        grade = next(f for f in fields[1:] if re.fullmatch(r"\d+[kKdD]", f))
        value = int(grade[:-1])
        grades[number] = float(value - 1 if grade[-1] in "dD" else -value)
        for rnd, found in enumerate(m for f in fields if (m := H9_RESULT.match(f))):
            opp, res, colour, stones = found.groups()
            if opp != "0" and res in "+-=":
                results.append((number, rnd, opp, res, colour, int(stones)))
    games: list[Game] = []
    for number, rnd, opp, res, colour, stones in results:
        if colour != "w":
            continue  # each game once, from White's line
        winner = {"+": Winner.WHITE, "-": Winner.BLACK, "=": Winner.JIGO}[res]
        games.append(Game(date(2024, 4, 13 + rnd // 2), number, opp, winner, handicap=stones,
                          kind=Kind.TOURNAMENT, event="Club Open 2024", event_class=cls))  # fmt: skip
    games.sort(key=lambda g: g.date)
    return cls, grades, games


# --- random histories -----------------------------------------------------------------------

PLAYERS = [f"p{i}" for i in range(6)]


@st.composite
def histories(draw: st.DrawFn) -> tuple[dict[str, float], list[list[Game]]]:
    """Start ratings and a list of periods (each a list of games of one key)."""
    starts = {p: draw(st.floats(-900, 2900)) for p in PLAYERS}
    periods: list[list[Game]] = []
    for n in range(draw(st.integers(1, 5))):
        club = draw(st.booleans())
        games = []
        for _ in range(draw(st.integers(1, 6))):
            w, b = draw(st.permutations(PLAYERS))[:2]
            games.append(
                Game(
                    date(2024, 1, 1 + n),
                    w,
                    b,
                    draw(st.sampled_from(list(Winner))),
                    handicap=draw(st.sampled_from([0, 0, 1, 2, 5, 9])),
                    kind=draw(st.sampled_from(list(Kind))),
                    event=None if club else f"T{n}",
                    club="K" if club else None,
                    event_class=draw(st.sampled_from([None, "A", "B", "C", "D"])),
                )
            )
        periods.append(games)
    return starts, periods


def rating_starts(values: dict[str, float]) -> dict[PlayerId, Start]:
    return {p: Start(rating=r) for p, r in values.items()}
