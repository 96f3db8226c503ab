"""A late game's rewrite replaces only the history rows whose values
changed (ratings/recompute/changed.py), numbered by the sparse seq
(columns.event_seqs), and still ends in exactly the history a full replay
gives: late games on a day of many games, a game moved to another date, a
deletion, a late adjustment."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from types import SimpleNamespace
from typing import Any, cast

import pytest
from django.db import connection

from ratings import recompute, services
from ratings.models import (
    Club,
    Game,
    HistoryEntry,
    LogEntry,
    Player,
    RankAdjustment,
    RatingCheckpoint,
    RecordSheet,
)
from ratings.recompute.columns import SEQ_STRIDE, event_seqs
from ratings.recompute.errors import RecomputeError
from tests.recompute.ripple_helpers import difference, recorded, results
from tests.support import MakePlayer, stored_history

pytestmark = pytest.mark.django_db

DAY0 = date(2025, 3, 1)
ENTERED = datetime(2025, 4, 1, 12, 0, tzinfo=UTC)
#: Checkpoints every few events: a late game resumes from one.
OPTIONS = recompute.Options(checkpoint_every=6)


def test_an_events_seq_is_its_dates_ordinal_and_its_place_in_the_day() -> None:
    d1, d2 = date(2025, 3, 1), date(2025, 3, 4)
    assert event_seqs([d1, d1, d1, d2]) == [
        d1.toordinal() * SEQ_STRIDE,
        d1.toordinal() * SEQ_STRIDE + 1,
        d1.toordinal() * SEQ_STRIDE + 2,
        d2.toordinal() * SEQ_STRIDE,
    ]
    assert event_seqs([]) == []
    assert date(9999, 12, 31).toordinal() * SEQ_STRIDE + SEQ_STRIDE < 2**53, "a JSON number"


def test_more_events_in_a_day_than_the_stride_is_an_error() -> None:
    with pytest.raises(RecomputeError, match="at most"):
        event_seqs([DAY0] * (SEQ_STRIDE + 1))


@pytest.fixture
def players(club: Club, make_player: MakePlayer) -> list[Player]:
    club.rating_list.compared_systems = ["egf", "ffg"]
    club.rating_list.save()
    return [make_player(f"P{i}", rank=-18 + 2 * i, since=DAY0) for i in range(8)]


def add_game(club: Club, players: list[Player], day: int, white: int, black: int, minute: int) -> Game:
    """A game on a sheet of its own (made here, not by the sheet service:
    its entry time sets its place in its day)."""
    sheet = RecordSheet.objects.create(club=club, date=DAY0 + timedelta(days=day), kind="club")
    game = Game.objects.create(
        club=club, sheet=sheet, date=DAY0 + timedelta(days=day), white=players[white], black=players[black],
        winner="white" if (day + white) % 3 else "black", handicap=0, komi=6.5, kind="club",
        entered_at=ENTERED + timedelta(minutes=minute),
    )  # fmt: skip
    recompute.mark_dirty(club.rating_list, game.date)
    return game


def logged(game: Game) -> Game:
    """``game`` with the log entry the sheet service writes (a run's cause)."""
    LogEntry.objects.create(
        rating_list=game.club.rating_list, club=game.club, action=LogEntry.Action.ADD, game=game,
        event_date=game.date, summary="late game",
    )  # fmt: skip
    return game


@pytest.fixture
def history(club: Club, players: list[Player]) -> list[Game]:
    """Twelve days: players 0-3 meet among themselves and 4-7 among
    themselves (two groups a late game of one leaves the other's rows
    alone), six games on day 5; rated from scratch."""
    games = []
    for day in range(12):
        for group in (0, 4):
            games.append(
                add_game(club, players, day, group + day % 4, group + (day + 1) % 4, 10 * day + group)
            )
        if day == 5:
            games += [add_game(club, players, day, i % 4, (i + 2) % 4, 10 * day + 5 + i) for i in range(4)]
    recompute.recompute_list(club.rating_list_id, full=True, options=OPTIONS)
    return games


def rows_by_id(club: Club) -> dict[int, tuple[Any, ...]]:
    from tests.support import HISTORY_COLUMNS

    return {
        row[0]: row[1:]
        for row in HistoryEntry.objects.filter(rating_list=club.rating_list).values_list(
            "id", *HISTORY_COLUMNS
        )
    }


def equals_a_full_replay(club: Club) -> None:
    """The incremental history is the full replay's, row for row."""
    incremental = stored_history(club)
    recompute.recompute_list(club.rating_list_id, full=True, options=OPTIONS)
    assert stored_history(club) == incremental


def test_a_late_game_rewrites_only_the_rows_it_changed(
    club: Club, players: list[Player], history: list[Game]
) -> None:
    before = rows_by_id(club)
    late = add_game(club, players, 3, 0, 2, 1000)
    run = recompute.recompute_list(club.rating_list_id, options=OPTIONS)
    assert run is not None and run.from_date == DAY0 + timedelta(days=3)
    after = rows_by_id(club)
    kept = before.keys() & after.keys()
    # The other group's rows from day 3 on did not change: the very same rows.
    others = {p.pk for p in players[4:]}
    later = [pk for pk, row in before.items() if row[3] in others and row[2] >= DAY0 + timedelta(days=3)]
    assert later and set(later) <= kept, "unchanged rows are left in place"
    assert all(before[pk] == after[pk] for pk in kept), "a row left in place is an unchanged row"
    written = after.keys() - kept
    assert run.rows_written == len(written)
    assert written and not {after[pk][3] for pk in written} & others, "only the late game's group's rows"
    assert {row[4] for pk, row in after.items() if pk in written} >= {late.pk}
    equals_a_full_replay(club)


def by_key(rows: dict[int, tuple[Any, ...]]) -> dict[tuple[Any, ...], tuple[Any, ...]]:
    """Rows (rows_by_id) by their key: system, seq, player."""
    return {(row[0], row[1], row[3]): row for row in rows.values()}


@pytest.mark.parametrize("change", ["late game", "deletion"])
def test_exactly_the_rows_whose_values_changed_are_written(
    club: Club, players: list[Player], history: list[Game], change: str
) -> None:
    """Every row a full replay changes (or adds) is written, and no other:
    a changed row left in place or an unchanged row rewritten fails here
    (a late game in the middle of the day of many games renumbers that
    day's later events; a deletion removes rows)."""
    before = rows_by_id(club)
    if change == "late game":
        add_game(club, players, 5, 1, 3, 55)
    else:
        services.delete_game(history[10])
    run = recompute.recompute_list(club.rating_list_id, options=OPTIONS)
    after = rows_by_id(club)
    recompute.recompute_list(club.rating_list_id, full=True, options=OPTIONS)
    old, replayed = by_key(before), by_key(rows_by_id(club))
    assert by_key(after) == replayed
    changed = {key for key, row in replayed.items() if old.get(key) != row}
    written = set(by_key({pk: row for pk, row in after.items() if pk not in before}))
    assert changed and written == changed
    assert run is not None and run.rows_written == len(changed)
    assert {pk for pk in before if pk not in after} == {
        pk for pk, row in before.items() if replayed.get((row[0], row[1], row[3])) != row
    }, "a stored row is deleted exactly when it changed or is gone"


@pytest.mark.parametrize("minute", [-1, 55, 10_000], ids=["first", "middle", "last"])
def test_a_late_game_on_a_day_of_many_games(
    club: Club, players: list[Player], history: list[Game], minute: int
) -> None:
    add_game(club, players, 5, 1, 3, minute)
    recompute.recompute_list(club.rating_list_id, options=OPTIONS)
    equals_a_full_replay(club)


@pytest.mark.parametrize("days", [-3, 4], ids=["earlier", "later"])
def test_a_game_moved_to_another_date(club: Club, history: list[Game], days: int) -> None:
    moved = history[10]  # day 5, among its many games
    services.edit_game(moved, date=moved.date + timedelta(days=days))
    recompute.recompute_list(club.rating_list_id, options=OPTIONS)
    equals_a_full_replay(club)


def test_a_deleted_game_and_a_late_adjustment(club: Club, players: list[Player], history: list[Game]) -> None:
    services.delete_game(history[11])
    recompute.recompute_list(club.rating_list_id, options=OPTIONS)
    equals_a_full_replay(club)
    RankAdjustment.objects.create(
        rating_list=club.rating_list, player=players[1], date=DAY0 + timedelta(days=5), rank=-9,
        entered_at=ENTERED + timedelta(minutes=52),
    )  # fmt: skip
    recompute.mark_dirty(club.rating_list, DAY0 + timedelta(days=5))
    recompute.recompute_list(club.rating_list_id, options=OPTIONS)
    equals_a_full_replay(club)


def _migration(name: str) -> Callable[..., None]:
    module = importlib.import_module("ratings.migrations.0013_sparse_seq")
    function: Callable[..., None] = getattr(module, name)
    return function


def test_the_migration_numbers_dense_seqs_as_the_recompute_does(club: Club, history: list[Game]) -> None:
    sparse = stored_history(club)
    checkpoints = list(RatingCheckpoint.objects.order_by("pk").values_list("seq", flat=True))
    editor = SimpleNamespace(connection=connection)  # all the functions use of a schema editor
    _migration("dense")(None, editor)
    dense = [cast(int, row[1]) for row in stored_history(club)]
    assert dense != [row[1] for row in sparse]
    assert max(dense) < len(history) + 1, "the place in the timeline"
    _migration("sparse")(None, editor)
    assert stored_history(club) == sparse
    assert list(RatingCheckpoint.objects.order_by("pk").values_list("seq", flat=True)) == checkpoints


@pytest.mark.parametrize("every", [6, 1000], ids=["replaced-rows", "whole-history"])
def test_the_ripple_from_the_replaced_rows_is_that_of_the_whole_history(
    club: Club, players: list[Player], history: list[Game], every: int
) -> None:
    """A rewrite from a date takes the ripple from the rows it replaced
    (ripple.replaced); without a checkpoint before the late game the whole
    history is rewritten and compared (ripple.find): the same ripple, the
    difference of two full replays."""
    options = recompute.Options(checkpoint_every=every)
    recompute.recompute_list(club.rating_list_id, full=True, options=options)
    before = results(club.rating_list)
    late = logged(add_game(club, players, 3, 0, 2, 1000))
    run = recompute.recompute_list(club.rating_list_id, options=options)
    assert run is not None and run.full == (every == 1000)
    recompute.recompute_list(club.rating_list_id, full=True, options=options)
    expected = difference(before, results(club.rating_list), {late.pk})
    assert expected
    assert recorded(club.rating_list, run=run) == expected


def test_the_migration_goes_back_and_forth_over_a_partly_renumbered_history(
    club: Club, players: list[Player], history: list[Game]
) -> None:
    """Dense rows with a tail the recompute wrote sparse (a recompute run
    between the two): back to dense and forward again ends where a full
    replay does.  (The reverse's collision in the unique index, seen on the
    million-game database, depends on the order PostgreSQL updates the rows
    in; this small history does not reproduce it.)"""
    editor = SimpleNamespace(connection=connection)
    _migration("dense")(None, editor)
    add_game(club, players, 8, 1, 3, 2000)
    recompute.recompute_list(club.rating_list_id, options=OPTIONS)
    seqs = [cast(int, row[1]) for row in stored_history(club)]
    assert min(seqs) < SEQ_STRIDE < max(seqs), "dense rows and sparse rows"
    _migration("dense")(None, editor)
    assert max(cast(int, row[1]) for row in stored_history(club)) < SEQ_STRIDE
    _migration("sparse")(None, editor)
    equals_a_full_replay(club)


def test_a_late_game_before_the_first_checkpoint_writes_only_from_its_date(
    club: Club, players: list[Player], history: list[Game]
) -> None:
    """No checkpoint before the late game: the run replays from the
    beginning but still writes only the rows that changed from its date
    on (it rewrote the whole list), with its ripple."""
    first = RatingCheckpoint.objects.filter(rating_list=club.rating_list).order_by("date").first()
    assert first is not None and first.date > DAY0 + timedelta(days=1)
    before = rows_by_id(club)
    without = results(club.rating_list)
    late = logged(add_game(club, players, 1, 0, 2, 1000))
    run = recompute.recompute_list(club.rating_list_id, options=OPTIONS)
    assert run is not None and run.from_date == DAY0 + timedelta(days=1) and not run.full
    after = rows_by_id(club)
    kept = before.keys() & after.keys()
    assert {pk for pk, row in before.items() if row[2] < DAY0 + timedelta(days=1)} <= kept, (
        "earlier rows stay"
    )
    assert run.rows_written == len(after.keys() - kept)
    others = {p.pk for p in players[4:]}
    assert {pk for pk, row in before.items() if row[3] in others} <= kept, "the other group's rows stay"
    assert RatingCheckpoint.objects.filter(rating_list=club.rating_list).exists()
    expected = difference(without, results(club.rating_list), {late.pk})
    assert expected and recorded(club.rating_list, run=run) == expected
    equals_a_full_replay(club)


def test_a_newly_added_system_without_checkpoints_is_written_whole(
    club: Club, players: list[Player], history: list[Game]
) -> None:
    """A system the list computes with no checkpoint yet has no history
    before the late game either: the run writes the whole list."""
    club.rating_list.compared_systems = ["egf", "ffg", "ffg-old"]
    club.rating_list.save()
    add_game(club, players, 1, 0, 2, 1000)
    run = recompute.recompute_list(club.rating_list_id, options=OPTIONS)
    assert run is not None and run.full and run.from_date is None
    assert HistoryEntry.objects.filter(rating_list=club.rating_list, system="ffg-old", date=DAY0).exists()
    equals_a_full_replay(club)
