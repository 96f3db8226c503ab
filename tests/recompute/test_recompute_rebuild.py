"""A rewrite of a large share of the history drops the history's secondary
indexes and builds them again in the same transaction (docs/recompute.md,
"Bulk writes"): the history is the same as without, the indexes come back
exactly, and a failure in the middle leaves both the previous history and
the indexes."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterable, Iterator, Sequence
from datetime import date, timedelta
from typing import Any

import pytest
from django.db import connection, connections

from ratings import recompute
from ratings.models import Club, Game, HistoryEntry, RatingList, RecomputeRun, RecordSheet
from ratings.recompute.indexes import create_indexes
from tests.support import MakePlayer, make_pool, stored_history

COLUMNS = (
    "system", "seq", "date", "player_id", "opponent_id", "game_id", "colour",
    "rank_before", "rating_before", "change", "rank_after", "rating_after",
)  # fmt: skip


def indexes() -> dict[str, tuple[Any, ...]]:
    """The history table's indexes and constraints as the database reports them."""
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, HistoryEntry._meta.db_table)
    return {
        name: (tuple(info["columns"]), info["unique"], info["primary_key"], info["index"])
        for name, info in found.items()
        if not info["foreign_key"] and not info["check"]
    }


def fill(club: Club, make_player: Any, games: int = 30) -> list[Any]:
    players = [make_player(f"{club.slug} P{i}", rank=-15 + i, club=club) for i in range(6)]
    sheet = RecordSheet.objects.create(club=club, date=date(2025, 1, 1))
    for n in range(games):
        Game.objects.create(
            club=club, sheet=sheet, date=date(2025, 1, 1) + timedelta(days=n // 3), white=players[n % 6],
            black=players[(n + 1 + (n // 6) % 5) % 6], winner="white" if n % 4 else "black",
        )  # fmt: skip
    return players


class Rebuilds(list[list[str]]):
    """The statements each rebuild of the indexes ran, and the options that
    count every rewrite as large and record its rebuild."""

    def options(self, **more: Any) -> recompute.Options:
        def spy(statements: Sequence[str]) -> None:
            self.append(list(statements))
            create_indexes(statements)

        return recompute.Options(rebuild_min_rows=0, create_indexes=spy, **more)


@pytest.fixture
def rebuilds() -> Rebuilds:
    return Rebuilds()


@pytest.mark.django_db
def test_it_rebuilds_the_indexes_of_a_full_rewrite_and_writes_the_same_history(
    club: Club, make_player: MakePlayer, rebuilds: Rebuilds
) -> None:
    fill(club, make_player)
    recompute.recompute_list(club.rating_list_id, full=True)
    plain, before = stored_history(club, COLUMNS), indexes()
    assert plain, "the first run wrote a history"
    assert not rebuilds

    recompute.recompute_list(club.rating_list_id, full=True, options=rebuilds.options())

    assert len(rebuilds) == 1 and len(rebuilds[0]) >= 2, (
        "the secondary indexes were dropped and created again"
    )
    assert stored_history(club, COLUMNS) == plain
    assert indexes() == before, "every index and constraint is back, with the same columns"


@pytest.mark.django_db
def test_it_keeps_the_indexes_for_a_short_tail(
    club: Club, make_player: MakePlayer, rebuilds: Rebuilds
) -> None:
    options = rebuilds.options(checkpoint_every=10)  # so that a late game resumes near the end
    players = fill(club, make_player, games=60)
    recompute.recompute_list(club.rating_list_id, full=True, options=options)
    assert len(rebuilds) == 1, "the first, full run rebuilt"
    sheet = RecordSheet.objects.get(club=club)
    last = Game.objects.filter(club=club).order_by("-date").first()
    assert last is not None
    Game.objects.create(
        club=club, sheet=sheet, date=last.date, white=players[0], black=players[3], winner="black"
    )
    recompute.mark_dirty(club.rating_list, last.date)
    run = recompute.recompute_list(club.rating_list_id, options=options)
    assert run is not None and run.from_date == last.date and run.rows_written < 20
    assert len(rebuilds) == 1, "a tail of a few rows is written into the indexes as they are"


@pytest.mark.django_db
def test_a_failure_after_the_indexes_were_dropped_leaves_them_and_the_history(
    club: Club, make_player: MakePlayer, rebuilds: Rebuilds
) -> None:
    players = fill(club, make_player)
    recompute.recompute_list(club.rating_list_id, full=True, options=rebuilds.options())
    before_rows, before_indexes = stored_history(club, COLUMNS), indexes()
    first = Game.objects.filter(club=club).order_by("date").first()
    assert first is not None
    Game.objects.create(
        club=club, sheet=first.sheet, date=first.date, white=players[2], black=players[0], winner="black"
    )
    recompute.mark_dirty(club.rating_list, first.date)

    def write_some_then_fail(rows: Iterable[Any], table: str | None) -> None:
        recompute.write_history(list(rows)[:5], table)
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError, match="disk full"):
        recompute.recompute_list(
            club.rating_list_id, options=rebuilds.options(write_history=write_some_then_fail)
        )
    assert stored_history(club, COLUMNS) == before_rows
    assert indexes() == before_indexes, "the dropped indexes came back with the rollback"

    recompute.recompute_list(club.rating_list_id, options=rebuilds.options())
    assert len(rebuilds) == 2, "the run from the first date rebuilt the indexes"
    assert stored_history(club, COLUMNS) != before_rows
    assert indexes() == before_indexes


# --- the federation's full recompute: every club in one transaction -----------------


@pytest.fixture
def two_clubs(club: Club, make_player: MakePlayer) -> list[Club]:
    other = make_pool(name="Cape Town Go Club", slug="cape-town", primary_system="egf")
    fill(club, make_player)
    fill(other, make_player, games=24)
    return [club, other]


@pytest.mark.django_db
def test_recompute_all_gives_every_club_its_own_full_replay_and_builds_the_indexes_once(
    two_clubs: list[Club], rebuilds: Rebuilds
) -> None:
    for each in two_clubs:
        recompute.recompute_list(each.rating_list_id, full=True, options=rebuilds.options())
    each_alone = [stored_history(each, COLUMNS) for each in two_clubs]
    assert all(each_alone), "both clubs have a history"
    rebuilds.clear()
    before = indexes()

    runs = recompute.recompute_all(trigger="command", options=rebuilds.options())

    assert [stored_history(each, COLUMNS) for each in two_clubs] == each_alone
    assert len(rebuilds) == 1, "one drop and one rebuild for the whole federation"
    assert indexes() == before
    assert [(run.rating_list_id, run.status, run.full) for run in runs] == [
        (each.rating_list_id, "done", True) for each in two_clubs
    ]
    assert all(run.rows_written == len(rows) for run, rows in zip(runs, each_alone, strict=True))
    assert not RatingList.objects.filter(dirty_from__isnull=False).exists()


@pytest.mark.django_db
def test_a_failure_in_the_second_club_of_recompute_all_leaves_every_club_as_it_was(
    two_clubs: list[Club], rebuilds: Rebuilds
) -> None:
    for each in two_clubs:
        recompute.recompute_list(each.rating_list_id, full=True, options=rebuilds.options())
    RatingList.objects.filter(pk=two_clubs[0].rating_list_id).update(
        dirty_from=date(2025, 1, 1), dirty_generation=5
    )
    before_rows, before_indexes = [stored_history(each, COLUMNS) for each in two_clubs], indexes()
    calls: list[int] = []

    def fail_on_the_second_club(rows: Iterable[Any], table: str | None) -> int:
        calls.append(1)
        written = recompute.write_history(rows, table)
        if len(calls) == 2:
            raise RuntimeError("disk full")
        return written

    with pytest.raises(RuntimeError, match="disk full"):
        recompute.recompute_all(
            trigger="command", options=rebuilds.options(write_history=fail_on_the_second_club)
        )
    assert [stored_history(each, COLUMNS) for each in two_clubs] == before_rows, (
        "the first club's rewrite was rolled back too"
    )
    assert indexes() == before_indexes
    assert set(RecomputeRun.objects.filter(trigger="command").values_list("status", flat=True)) == {"failed"}
    assert RatingList.objects.get(pk=two_clubs[0].rating_list_id).dirty_from == date(2025, 1, 1), (
        "the dirty club stays dirty"
    )


@pytest.mark.django_db
def test_recompute_all_falls_back_to_one_club_at_a_time_when_a_club_is_busy(two_clubs: list[Club]) -> None:
    busy = two_clubs[1].rating_list_id
    with held_elsewhere(busy):  # another process is recomputing this club
        runs = recompute.recompute_all()
    assert [run.rating_list_id for run in runs] == [two_clubs[0].rating_list_id], (
        "the busy club is left to the run holding its lock"
    )
    assert stored_history(two_clubs[0], COLUMNS)
    assert not stored_history(two_clubs[1], COLUMNS)


@contextlib.contextmanager
def held_elsewhere(rating_list_id: int) -> Iterator[None]:
    """The list's recompute lock, held by another thread on its own
    database connection (another session, as another process would be)."""
    taken, release = threading.Event(), threading.Event()
    outcome: list[bool] = []

    def hold() -> None:
        try:
            with recompute.list_lock(rating_list_id) as got:
                outcome.append(got)
                taken.set()
                release.wait(30)
        finally:
            taken.set()
            connections.close_all()  # this thread's connections

    thread = threading.Thread(target=hold)
    thread.start()
    try:
        assert taken.wait(30) and outcome == [True], "the other session took the lock"
        yield
    finally:
        release.set()
        thread.join()


@pytest.mark.django_db
def test_a_busy_club_leaves_the_others_a_full_recompute_each_even_when_clean(two_clubs: list[Club]) -> None:
    """The federation's full recompute (a system changed, a restore) rewrites
    a clean list too; one list by one when another is busy, still full."""
    for each in two_clubs:
        recompute.recompute_list(each.rating_list_id, full=True)
    replayed = stored_history(two_clubs[0], COLUMNS)
    HistoryEntry.objects.filter(player__rating_list_id=two_clubs[0].rating_list_id).update(change=0)
    with held_elsewhere(two_clubs[1].rating_list_id):
        runs = recompute.recompute_all()
    assert [(run.rating_list_id, run.full) for run in runs] == [(two_clubs[0].rating_list_id, True)]
    assert stored_history(two_clubs[0], COLUMNS) == replayed, "the clean list rewritten from its games"


@pytest.mark.django_db
@pytest.mark.parametrize("checkpoint_every", [7, 10_000], ids=["in-stretches", "in-one"])
def test_the_progress_counts_each_event_once_per_system(two_clubs: list[Club], checkpoint_every: int) -> None:
    """``manage.py recompute``'s bar: every list's events, once per system,
    on either backend's path (PostgreSQL replays beside the write)."""
    steps: list[int] = []
    recompute.recompute_all(
        progress=steps.append, options=recompute.Options(checkpoint_every=checkpoint_every)
    )
    events = sum(
        Game.objects.filter(rating_list_id=each.rating_list_id).count() * len(each.rating_list.systems)
        for each in two_clubs
    )
    assert events > 0 and sum(steps) == events
    assert all(step > 0 for step in steps)
    stretches = sum(len(each.rating_list.systems) for each in two_clubs)  # one a system in one stretch
    if checkpoint_every == 7:
        assert len(steps) > stretches
    else:
        assert len(steps) == stretches
