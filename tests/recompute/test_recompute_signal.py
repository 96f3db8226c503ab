"""What the recompute announces: ``list_recomputed`` once a list is clean,
received by whoever follows the ratings (the prediction figures) without
the recompute importing them; a failing receiver changes nothing saved."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest

from ratings import recompute
from ratings.models import Club, HistoryEntry, ListEvaluation, RecordSheet
from ratings.recompute.signals import list_recomputed
from tests.support import MakePlayer

pytestmark = pytest.mark.django_db


@pytest.fixture
def heard() -> Iterator[list[dict[str, Any]]]:
    calls: list[dict[str, Any]] = []

    def listen(sender: object, **kwargs: Any) -> None:
        calls.append(kwargs)

    list_recomputed.connect(listen, dispatch_uid="test-listen")
    yield calls
    list_recomputed.disconnect(dispatch_uid="test-listen")


def a_game(club: Club, make_player: MakePlayer) -> None:
    white, black = make_player("Ann", rank=-10), make_player("Ben", rank=-10)
    sheet = RecordSheet.objects.create(club=club, date=date(2026, 3, 12))
    sheet.games.create(club=club, date=sheet.date, white=white, black=black, winner="white")
    recompute.mark_dirty(club.rating_list, sheet.date)


def test_a_clean_list_is_announced_once_with_its_run(
    club: Club, make_player: MakePlayer, heard: list[dict[str, Any]]
) -> None:
    a_game(club, make_player)
    run = recompute.recompute_list(club.rating_list_id)
    assert run is not None
    assert [(call["rating_list_id"], call["run"]) for call in heard] == [(club.rating_list_id, run)]


@pytest.mark.evaluation
def test_the_prediction_figures_follow_the_signal(club: Club, make_player: MakePlayer, settings: Any) -> None:
    settings.CELERY_BROKER_URL = ""
    a_game(club, make_player)
    recompute.recompute_list(club.rating_list_id)
    assert ListEvaluation.objects.filter(rating_list=club.rating_list).exists()


def test_a_failing_receiver_changes_nothing_saved(
    club: Club, make_player: MakePlayer, caplog: pytest.LogCaptureFixture
) -> None:
    def fail(sender: object, **kwargs: Any) -> None:
        raise RuntimeError("a receiver broke")

    list_recomputed.connect(fail, dispatch_uid="test-fail")
    try:
        a_game(club, make_player)
        run = recompute.recompute_list(club.rating_list_id)
    finally:
        list_recomputed.disconnect(dispatch_uid="test-fail")
    assert run is not None and run.status == "done"
    assert HistoryEntry.objects.filter(player__rating_list=club.rating_list).count() > 0
    assert "failed after the recompute" in caplog.text
