"""The demo's history is planned without a database, and ``manage.py demo``
writes exactly that plan: the "How ratings work" examples replay the
planner's games, so they must be the games the demo site holds."""

from __future__ import annotations

import random
from datetime import date, datetime, time

import pytest
from django.utils import timezone
from pytest_django import Settings

from ratings.demo.history import DEMO_SEED, engine_history, plan_demo
from ratings.demo.site import build
from ratings.engine.base import Adjustment, Game, PlayerId
from ratings.models import Player, RatingList
from ratings.recompute.timeline import load_timeline

TODAY = date(2026, 3, 14)


def end_of(day: date) -> datetime:
    return datetime.combine(day, time(23, 59), timezone.get_current_timezone())


@pytest.fixture(autouse=True)
def fast_hashing(settings: Settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def test_planning_the_demo_reads_and_writes_nothing() -> None:
    # No django_db mark: pytest-django refuses any query here.
    history = plan_demo(random.Random(DEMO_SEED), TODAY, end_of(TODAY))
    assert history.sagc.games and history.ladder.games and history.sagc.promotions


def test_the_same_seed_and_day_plan_the_same_games() -> None:
    one, two = (engine_history(plan_demo(random.Random(7), TODAY, end_of(TODAY)).sagc) for _ in range(2))
    assert one == two
    other = engine_history(plan_demo(random.Random(8), TODAY, end_of(TODAY)).sagc)
    assert other.events != one.events


@pytest.mark.django_db
def test_the_demo_database_holds_the_planned_timeline() -> None:
    build(random.Random(DEMO_SEED), "demo-pass-123", TODAY, end_of(TODAY))
    planned = plan_demo(random.Random(DEMO_SEED), TODAY, end_of(TODAY))
    for plan in planned.lists():
        stored = RatingList.objects.get(slug=plan.rating_list.slug)
        names: dict[PlayerId, str] = {p.pk: str(p) for p in Player.objects.filter(rating_list=stored)}
        timeline = load_timeline(stored)
        expected = engine_history(plan)
        assert len(timeline.events) == len(expected.events) > 100
        adjustments = 0
        for read, made in zip(timeline.events, expected.events, strict=True):
            if isinstance(read, Game):
                assert isinstance(made, Game)
                assert (names[read.white], names[read.black]) == (made.white, made.black)
                read_fields = (read.date, read.winner, read.handicap, read.komi, read.kind, read.board)
                made_fields = (made.date, made.winner, made.handicap, made.komi, made.kind, made.board)
                assert read_fields == made_fields
                assert (read.minutes, read.event, read.club, read.forfeit) == (
                    made.minutes,
                    made.event,
                    made.club,
                    made.forfeit,
                )
            else:
                assert isinstance(read, Adjustment) and isinstance(made, Adjustment)
                assert (read.date, names[read.player], read.rank) == (made.date, made.player, made.rank)
                adjustments += 1
        assert adjustments == len(plan.promotions)
        assert {names[pk]: start for pk, start in timeline.starts.items()} == expected.starts
