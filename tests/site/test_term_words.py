"""Every term any system's explanation can emit has plain words
(ratings/explain/terms.py): a system that adds a term fails here until its
words are written."""

from __future__ import annotations

import random
from datetime import date, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.engine import SYSTEM_NAMES, get_system
from ratings.engine.base import Adjustment, Event, Game, Kind, PlayerId, Start, Winner
from ratings.explain.terms import WORDS, words_for

NAMES = ("a", "b", "c", "d", "e", "f")
DAY = date(2024, 5, 4)


def emitted(system: str, events: list[Event], starts: dict[PlayerId, Start]) -> set[str]:
    result = get_system(system).rate(events, starts=starts, explain=True)
    assert result.explanations is not None
    return {
        key for explanation in result.explanations if explanation is not None for key in explanation.terms
    }


def broad_history() -> tuple[list[Event], dict[PlayerId, Start]]:
    """Every kind, board, time, result, handicap and forfeit, tournaments,
    club nights and adjustments, from 30k to 9d."""
    rng = random.Random(3)
    starts: dict[PlayerId, Start] = {
        name: Start(rank=float(rank)) for name, rank in zip(NAMES, [-30, -22, -12, -4, 2, 8], strict=True)
    }
    events: list[Event] = []
    for day in range(40):
        event = f"open-{day}" if day % 4 == 0 else None
        for _ in range(8):
            white, black = rng.sample(NAMES, 2)
            events.append(
                Game(
                    DAY + timedelta(days=day),
                    white,
                    black,
                    rng.choice(list(Winner)),
                    handicap=rng.randint(0, 9),
                    komi=rng.choice([6.5, 0.5, -4.5, 26.5]),
                    kind=rng.choice(list(Kind)),
                    board=rng.choice([19, 19, 13, 9]),
                    minutes=rng.choice([None, 60, 45, 20, 5]),
                    event=event,
                    event_class=rng.choice([None, "A", "D"]) if event else None,
                    club="club",
                    forfeit=rng.random() < 0.05,
                )
            )
        if day % 6 == 5:
            rating = rng.choice([None, 100.0])
            events.append(
                Adjustment(DAY + timedelta(days=day), rng.choice(NAMES), float(rng.randint(-25, 5)), rating)
            )
    return events, starts


@pytest.mark.parametrize("system", SYSTEM_NAMES)
def test_every_term_of_a_broad_history_has_words(system: str) -> None:
    keys = emitted(system, *broad_history())
    assert {"change", "reason"} <= keys  # the history reaches rated and unrated rows
    assert keys <= set(WORDS[system]), sorted(keys - set(WORDS[system]))


@st.composite
def histories(draw: st.DrawFn) -> tuple[list[Event], dict[PlayerId, Start]]:
    starts: dict[PlayerId, Start] = {name: Start(rank=float(draw(st.integers(-30, 8)))) for name in NAMES}
    events: list[Event] = []
    for day in range(draw(st.integers(1, 4))):
        event = draw(st.sampled_from([None, f"open-{day}"]))
        for _ in range(draw(st.integers(1, 6))):
            white, black = draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=2, unique=True))
            events.append(
                Game(
                    DAY + timedelta(days=day),
                    white,
                    black,
                    draw(st.sampled_from(list(Winner))),
                    handicap=draw(st.integers(0, 9)),
                    komi=draw(st.sampled_from([6.5, 0.5, -4.5, 16.5])),
                    kind=draw(st.sampled_from(list(Kind))),
                    board=draw(st.sampled_from([19, 13, 9])),
                    minutes=draw(st.sampled_from([None, 60, 20])),
                    event=event,
                    forfeit=draw(st.booleans()),
                )
            )
        if draw(st.booleans()):
            player = draw(st.sampled_from(NAMES))
            events.append(Adjustment(DAY + timedelta(days=day), player, float(draw(st.integers(-30, 8)))))
    return events, starts


@pytest.mark.parametrize("system", SYSTEM_NAMES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(history=histories())
def test_every_term_of_any_history_has_words(
    system: str, history: tuple[list[Event], dict[PlayerId, Start]]
) -> None:
    keys = emitted(system, *history)
    assert keys <= set(WORDS[system]), sorted(keys - set(WORDS[system]))


@pytest.mark.parametrize("system", SYSTEM_NAMES)
def test_every_word_says_what_the_term_is_and_how_it_is_obtained(system: str) -> None:
    for key, words in WORDS[system].items():
        assert words.label and words.meaning.endswith(".") and words.formula, key
        assert words_for(system, key) is words


def test_a_key_without_words_shows_its_own_name() -> None:
    assert words_for("sagc", "no-such-term").label == "no-such-term"
