"""The "How ratings work" pages: every system's page renders for anyone,
describes every term the engine's explanations can emit (an anchor
``term-<key>`` for each), and shows a worked example that is the demo's
own game as a fresh engine computation rates it."""

from __future__ import annotations

import html
import random
from datetime import date, datetime, time, timedelta
from fractions import Fraction
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from ratings.demo.history import DEMO_SEED, LADDER_SLUG, engine_history, plan_demo
from ratings.engine import SYSTEM_LABELS, SYSTEM_NAMES, get_system
from ratings.engine.base import Adjustment, Event, Game, Kind, PlayerId, Start, Winner
from ratings.explain.how.examples import worked_example
from ratings.synthetic import synthetic_history

pytestmark = pytest.mark.django_db

QUESTIONS = (
    "Why did I lose points for a win?",
    "Why did a game from last month change my rating today?",
    "Why is my rating different in the other systems?",
    "What is the index?",
    "When does my rank change?",
)


def page(client: Client, system: str) -> str:
    response = client.get(reverse("how_system", args=[system]))
    assert response.status_code == 200, system
    return html.unescape(response.content.decode())


def odd_games() -> tuple[list[Event], dict[PlayerId, Start]]:
    """Games of every kind a system may decline, and adjustments (one of a
    player no game introduced, one with a rating), so that every kind of
    explanation appears."""
    day = date(2024, 3, 2)
    starts: dict[PlayerId, Start] = {
        name: Start(rank=rank) for name, rank in (("a", -12.0), ("b", -10.0), ("c", 1.0), ("d", -29.0))
    }
    events: list[Event] = [
        Game(day, "a", "b", Winner.WHITE, handicap=2, komi=0.5),
        Game(day, "b", "a", Winner.BLACK, forfeit=True),
        Game(day, "c", "a", Winner.WHITE, kind=Kind.FREE),
        Game(day, "c", "b", Winner.JIGO, komi=0.0),
        Game(day, "c", "d", Winner.BLACK, board=9, minutes=15, handicap=9, komi=0.5),
        Game(day, "a", "d", Winner.WHITE, kind=Kind.INTERNET, event="league", event_class="D"),
        Adjustment(day + timedelta(days=1), "b", -9.0),
        Adjustment(day + timedelta(days=1), "a", -11.0, 0.0),
        Game(day + timedelta(days=2), "b", "a", Winner.BLACK, kind=Kind.TOURNAMENT, event="open"),
    ]
    for n in range(30):  # a losing streak: demotion marks, floors, ladder ends
        events.append(Game(day + timedelta(days=3 + n), "c", "d", Winner.WHITE, komi=6.5))
    return events, starts


def emitted_keys(system: str) -> set[str]:
    """Every term key the system's explanations emit on generated histories."""
    histories = [synthetic_history(2500, players=60, seed=seed, clubs=2) for seed in (1, 2)]
    histories.append(odd_games())
    keys: set[str] = set()
    for events, starts in histories:
        result = get_system(system).rate(events, starts=starts, explain=True)
        assert result.explanations is not None
        for explanation in result.explanations:
            if explanation is not None:
                keys.update(explanation.terms)
    return keys


def test_the_index_lists_every_system_and_answers_the_players_questions(client: Client) -> None:
    response = client.get(reverse("how"))
    assert response.status_code == 200
    text = html.unescape(response.content.decode())
    for system in SYSTEM_NAMES:
        assert f'href="{reverse("how_system", args=[system])}"' in text, system
        assert SYSTEM_LABELS[system] in text
    for question in QUESTIONS:
        assert question in text


def test_the_navigation_links_to_the_pages(client: Client) -> None:
    text = client.get(reverse("players")).content.decode()
    assert f'href="{reverse("how")}"' in text


def test_a_record_sheet_links_to_its_systems_page(client: Client, make_player: Any) -> None:
    player = make_player("Anna Botha")
    text = client.get(reverse("player", args=[player.slug])).content.decode()
    assert f'href="{reverse("how_system", args=[player.rating_list.primary_system])}"' in text


def test_an_unknown_system_is_not_found(client: Client) -> None:
    assert client.get(reverse("how_system", args=["elo"])).status_code == 404


@pytest.mark.parametrize("system", SYSTEM_NAMES)
def test_every_term_the_engine_emits_has_an_anchor_on_the_systems_page(client: Client, system: str) -> None:
    text = page(client, system)
    keys = emitted_keys(system)
    assert {"change"} <= keys  # the histories did explain something
    missing = sorted(key for key in keys if f'id="term-{key}"' not in text)
    assert not missing, f"{system}: no rule for {missing}"


def today_and_end() -> tuple[date, datetime]:
    today = timezone.localdate()
    return today, datetime.combine(today, time(23, 59), timezone.get_current_timezone())


def recombined(system: str, terms: dict[str, Any]) -> float:
    """The change the terms make, by each system's formula."""
    if system == "sagc":
        product = terms["LF"] * terms["GSF"] * terms["OF"] * terms["GRF"] * terms["HF"]
        assert product == terms["product"]
        rounded = int(product + Fraction(1, 2)) if product >= 0 else -int(-product + Fraction(1, 2))
        assert rounded == terms["rounded"]
        return float(rounded) if terms["boundary"] is None else float(terms["change"])
    if system == "egf":
        return float(terms["weight"] * (terms["con"] * (terms["Sa"] - terms["Se"]) + terms["bonus"]))
    if system == "egf-old":
        return float(terms["weight"] * terms["con"] * (terms["Sa"] - terms["Se"]))
    if system == "ffg":
        return float(terms["coefficient"] * terms["K"] * (terms["R"] - terms["P"] + terms["epsilon_half"]))
    if system == "ffg-old":
        return float(terms["stage_1_basic"] * terms["stages_2_4_coefficient"] * terms["stage_5_weight"])
    return float(terms["strength_after"] - terms["strength"])


@pytest.mark.parametrize("system", SYSTEM_NAMES)
def test_the_worked_example_is_the_demos_game_as_a_fresh_replay_rates_it(client: Client, system: str) -> None:
    today, end = today_and_end()
    example = worked_example(system, today)
    # Independently: the demo planned again, its whole history rated.
    history = plan_demo(random.Random(DEMO_SEED), today, end)
    plan = history.ladder if system == "west-surrey" else history.sagc
    assert plan.rating_list.slug == (LADDER_SLUG if system == "west-surrey" else "sagc")
    timeline = engine_history(plan)
    result = get_system(system).rate(timeline.events, starts=timeline.starts, explain=True)
    assert result.explanations is not None
    k = example.position
    game = timeline.events[k]
    assert game == example.game and isinstance(game, Game)
    # A representative game: counted, with stones where the system has handicaps,
    # both players with games before it.
    earlier = [e for e in timeline.events[:k] if isinstance(e, Game)]
    for player in (game.white, game.black):
        assert any(player in (e.white, e.black) for e in earlier)
    if system != "west-surrey":
        assert game.handicap >= 1
    demo_names = {str(p.model) for p in plan.players}
    assert {side.player for side in example.sides} == {str(game.white), str(game.black)} <= demo_names
    text = page(client, system)
    for colour, side in enumerate(example.sides):
        fresh = result.explanations[2 * k + colour]
        row = result.ledger.row(k, colour)
        assert fresh is not None and row is not None
        assert dict(side.explanation.terms) == dict(fresh.terms)
        assert side.row == row
        assert fresh.terms.get("reason") is None
        assert recombined(system, dict(fresh.terms)) == pytest.approx(row.change, abs=1e-9)
        # The page shows this side's player, numbers and working.
        assert side.player in text
        for shown in (side.before, side.after, side.change, *side.working):
            assert shown in text, shown


def test_the_example_is_computed_once_a_day() -> None:
    today, _ = today_and_end()
    assert worked_example("sagc", today) is worked_example("sagc", today)
