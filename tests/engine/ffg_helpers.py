"""A hypothesis strategy of random FFG ladder histories, shared by
tests/engine/test_ffg.py and tests/engine/test_ffg_exact.py."""

from __future__ import annotations

from datetime import date, timedelta

from hypothesis import strategies as st

from ratings.engine.base import Game, PlayerId, Start, Winner

#: The first day of a random history.
FIRST_DAY = date(2023, 3, 4)
W, B, J = Winner.WHITE, Winner.BLACK, Winner.JIGO

NAMES = [f"p{i}" for i in range(8)]


@st.composite
def histories(draw: st.DrawFn, forfeits: bool = True) -> tuple[list[Game], dict[PlayerId, Start]]:
    starts: dict[PlayerId, Start] = {}
    for name in NAMES:
        if draw(st.booleans()):
            starts[name] = Start(rank=float(draw(st.integers(-30, 8))))
        else:
            starts[name] = Start(rating=float(draw(st.integers(-2950, 850))))
    events: list[Game] = []
    for period in range(draw(st.integers(1, 5))):
        day = FIRST_DAY + timedelta(days=period)
        event = draw(st.sampled_from([None, f"t{period}"]))
        for _ in range(draw(st.integers(1, 8))):
            white, black = draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=2, unique=True))
            handicap = draw(st.sampled_from([0, 0, 0, 2, 5, 9]))
            events.append(
                Game(
                    day,
                    white,
                    black,
                    draw(st.sampled_from([W, W, B, B, J])),
                    handicap=handicap,
                    komi=0.5 if handicap else draw(st.sampled_from([6.5, 0.5, 7])),
                    board=draw(st.sampled_from([19, 19, 19, 13, 9])),
                    minutes=draw(st.sampled_from([None, 60, 45, 20])),
                    event=event,
                    club="c",
                    forfeit=forfeits and draw(st.integers(0, 9)) == 0,
                )
            )
    return events, starts
