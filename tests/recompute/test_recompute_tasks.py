"""Enqueueing after commit, the thin Celery tasks, the sweeper, and the
recompute/generate commands."""

from __future__ import annotations

from datetime import date
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import OperationalError, transaction
from pytest_django import DjangoCaptureOnCommitCallbacks, Settings

from ratings import recompute, tasks
from ratings.models import Club, Game, HistoryEntry, Player, RatingList, RecomputeRun, RecordSheet
from tests.support import MakePlayer, make_pool

pytestmark = pytest.mark.django_db


def test_it_enqueues_the_task_by_club_id_after_commit_when_a_broker_is_set(
    club: Club,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    settings.CELERY_BROKER_URL = "redis://broker.invalid:6379/0"
    sent: list[tuple[object, ...]] = []
    monkeypatch.setattr(tasks.recompute_list_task, "delay", lambda *args: sent.append(args))
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        recompute.mark_dirty(club.rating_list, date(2026, 3, 12))
        recompute.mark_dirty(club.rating_list, date(2026, 3, 10))
        assert sent == [], "nothing is enqueued before commit"
    assert sent and set(sent) == {(club.rating_list_id,)}, "tasks by id, after commit (their runs coalesce)"


def test_a_rolled_back_transaction_enqueues_nothing_and_marks_nothing(
    club: Club,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    settings.CELERY_BROKER_URL = "redis://broker.invalid:6379/0"
    sent: list[object] = []
    monkeypatch.setattr(tasks.recompute_list_task, "delay", lambda *args: sent.append(args))
    with pytest.raises(RuntimeError), transaction.atomic():
        recompute.mark_dirty(club.rating_list, date(2026, 3, 12))
        raise RuntimeError("the sheet did not validate")
    club.rating_list.refresh_from_db()
    assert club.rating_list.dirty_from is None and sent == []
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        recompute.mark_dirty(
            club.rating_list, date(2026, 3, 12)
        )  # the next transaction still schedules its own run
    assert sent == [(club.rating_list_id,)]


def test_the_task_retries_transient_database_errors_only() -> None:
    # Options of the task (Celery's type stubs do not declare them).
    assert getattr(tasks.recompute_list_task, "autoretry_for", None) == (OperationalError,)
    assert tasks.recompute_list_task.acks_late is True
    assert getattr(tasks.recompute_list_task, "retry_backoff", None)


def test_the_task_body_recomputes_the_club(club: Club, make_player: MakePlayer) -> None:
    alice, bob = make_player("Alice"), make_player("Bob")
    sheet = RecordSheet.objects.create(club=club, date=date(2025, 2, 4))
    Game.objects.create(club=club, sheet=sheet, date=date(2025, 2, 4), white=alice, black=bob, winner="black")
    recompute.mark_dirty(club.rating_list, date(2025, 2, 4))
    run_id = tasks.recompute_list_task.run(club.rating_list_id)
    run = RecomputeRun.objects.get(pk=run_id)
    assert (run.status, run.trigger, run.games_replayed, run.rows_written) == ("done", "celery", 1, 2)
    assert tasks.recompute_list_task.run(club.rating_list_id) is None, "a clean list: nothing to do"


def test_the_sweeper_recomputes_every_dirty_club(
    club: Club, make_player: MakePlayer, settings: Settings
) -> None:
    settings.CELERY_BROKER_URL = ""
    other = make_pool(name="Cape Town Go Club", slug="cape-town")
    alice, bob = make_player("Alice"), make_player("Bob")
    sheet = RecordSheet.objects.create(club=club, date=date(2025, 2, 4))
    Game.objects.create(club=club, sheet=sheet, date=date(2025, 2, 4), white=alice, black=bob, winner="black")
    RatingList.objects.filter(pk=club.rating_list_id).update(dirty_from=date(2025, 2, 4), dirty_generation=1)
    assert tasks.sweep_dirty_lists.run() == [club.rating_list_id]
    assert RatingList.objects.filter(dirty_from__isnull=False).count() == 0
    assert HistoryEntry.objects.filter(rating_list=club.rating_list).count() == 2
    assert not HistoryEntry.objects.filter(rating_list=other.rating_list).exists()


def test_the_recompute_command_reports_each_club(club: Club, make_player: MakePlayer) -> None:
    alice, bob = make_player("Alice"), make_player("Bob")
    sheet = RecordSheet.objects.create(club=club, date=date(2025, 2, 4))
    Game.objects.create(club=club, sheet=sheet, date=date(2025, 2, 4), white=alice, black=bob, winner="white")
    out = StringIO()
    call_command("recompute", "--list", "sagc", "--full", "--no-progress", stdout=out)
    assert "sagc: done, from the start, 1 games replayed, 2 rows written" in out.getvalue()
    out = StringIO()
    call_command("recompute", "--no-progress", stdout=out)
    assert "sagc: up to date" in out.getvalue()
    with pytest.raises(CommandError, match="--list: no list 'nowhere'"):
        call_command("recompute", "--list", "nowhere")
    with pytest.raises(CommandError, match="--from: '12/03/2026' is not a date"):
        call_command("recompute", "--from", "12/03/2026")


def test_a_full_recompute_of_every_club_is_one_federation_run(club: Club, make_player: MakePlayer) -> None:
    other = make_pool(name="Cape Town Go Club", slug="cape-town")
    alice, bob = make_player("Alice"), make_player("Bob")
    carol, dan = make_player("Carol", club=other), make_player("Dan", club=other)
    for home, white, black in ((club, alice, bob), (other, carol, dan)):
        sheet = RecordSheet.objects.create(club=home, date=date(2025, 2, 4))
        Game.objects.create(
            club=home, sheet=sheet, date=date(2025, 2, 4), white=white, black=black, winner="white"
        )
    out = StringIO()
    call_command("recompute", "--full", "--no-progress", stdout=out)
    text = out.getvalue()
    assert "sagc: done, from the start, 1 games replayed, 2 rows written" in text
    assert "cape-town: done, from the start, 1 games replayed, 2 rows written" in text
    assert HistoryEntry.objects.filter(rating_list=other.rating_list).count() == 2
    assert set(RecomputeRun.objects.values_list("trigger", flat=True)) == {"command"}


def _games() -> list[tuple[Any, ...]]:
    return list(
        Game.objects.order_by("id").values_list(
            "date", "white__slug", "black__slug", "handicap", "komi", "winner", "kind"
        )
    )


def test_generate_is_reproducible_and_realistic(db: None) -> None:
    call_command(
        "generate", games=600, players=40, clubs=2, seed=7, end=date(2025, 12, 31), stdout=StringIO()
    )
    first = _games()
    assert len(first) == 600 and RatingList.objects.count() == 2 and Player.objects.count() == 40
    assert {g[6] for g in first} >= {"club", "tournament"}
    assert any(g[3] >= 2 for g in first), "some handicap games"
    assert all((g[3] == 0) == (float(g[4]) == 6.5) for g in first), "komi 6.5 even, 0.5 with stones"
    assert all(-25 <= r <= 3 for r in Player.objects.values_list("start_rank", flat=True))
    assert RatingList.objects.filter(dirty_from__isnull=False).count() == 2, (
        "left dirty for the next recompute"
    )
    with pytest.raises(CommandError, match="already has games"):
        call_command("generate", games=10, players=4, clubs=1)
    for model in (Game, RecordSheet, Player, Club, RatingList):
        model.objects.all().delete()
    call_command(
        "generate", games=600, players=40, clubs=2, seed=7, end=date(2025, 12, 31), stdout=StringIO()
    )
    assert [g[:1] + g[3:] for g in _games()] == [g[:1] + g[3:] for g in first], "same seed, same history"
