"""Broker down: a save succeeds, says the ratings will
update shortly, and the list stays dirty until the broker is back."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from datetime import date

import pytest
from django.db import transaction
from pytest_django import Settings

from ratings import recompute
from ratings.models import Club, Game, RatingList
from tests.support import ClientFor, MakePlayer, celery_broker, sheet_data

pytestmark = pytest.mark.django_db(transaction=True)


def _closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def broker_down(settings: Settings) -> Iterator[None]:
    with celery_broker(settings, f"redis://127.0.0.1:{_closed_port()}/0"):
        yield


def test_a_sheet_saved_while_the_broker_is_down_is_kept_and_the_club_stays_dirty(
    broker_down: None, client_for: ClientFor, club: Club, make_player: MakePlayer
) -> None:
    make_player("Alice Mokoena", rank=-5)
    make_player("Bob Smit", rank=-8)
    data = sheet_data(club, [{"white": "Alice Mokoena", "black": "Bob Smit", "winner": "white"}])
    response = client_for("volunteer").post("/sheets/new/", data, follow=True)
    assert response.status_code == 200
    assert Game.objects.count() == 1
    club.rating_list.refresh_from_db()
    assert club.rating_list.dirty_from is not None, "the sweeper finds it when the broker is back"
    assert "will update shortly" in response.content.decode()


def test_marking_dirty_outside_a_transaction_survives_a_dead_broker(broker_down: None, club: Club) -> None:
    with transaction.atomic():
        recompute.mark_dirty(club.rating_list, date(2026, 3, 12))
    assert RatingList.objects.get(pk=club.rating_list_id).dirty_from == date(2026, 3, 12)
