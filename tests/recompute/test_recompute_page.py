"""The committee's recompute page: clubs' state and the recorded runs; the
"recompute all" button (every mutating view tested for every role)."""

from __future__ import annotations

from datetime import date

import pytest
from django.urls import reverse
from pytest_django import Settings

from ratings.models import Club, Game, HistoryEntry, RatingList, RecomputeRun, RecordSheet
from tests.support import ClientFor, MakePlayer

pytestmark = pytest.mark.django_db


def test_it_lists_the_runs_with_their_figures_and_errors(client_for: ClientFor, club: Club) -> None:
    RecomputeRun.objects.create(
        rating_list=club.rating_list, from_date=date(2026, 3, 12), games_replayed=1234, rows_written=2468, duration=0.42,
        status="done", trigger="celery",
    )  # fmt: skip
    RecomputeRun.objects.create(
        rating_list=club.rating_list, status="failed", error="RecomputeError: game 7 of 2026-03-01: handicap"
    )
    RatingList.objects.filter(pk=club.rating_list_id).update(dirty_from=date(2026, 3, 1))
    response = client_for("committee").get(reverse("recompute_status"))
    assert response.status_code == 200
    page = response.content.decode()
    for text in (
        "2026-03-12",
        "1234",
        "2468",
        "0.42",
        "background worker",  # trigger "celery", in words
        "game 7 of 2026-03-01",
        "Updating</strong> from 2026-03-01",
    ):
        assert text in page, text
    assert "Ratings after 1 March 2026 are being updated for South African Go Clubs." in page


def test_it_names_systems_and_reasons_in_words_and_links_each_clubs_settings(
    client_for: ClientFor, club: Club
) -> None:
    RatingList.objects.filter(pk=club.rating_list_id).update(primary_system="sagc", compared_systems=["egf"])
    RecomputeRun.objects.create(rating_list=club.rating_list, status="done", trigger="commit")
    page = client_for("committee").get(reverse("recompute_status")).content.decode()
    assert "South African Go Clubs, EGF GoR (since 2021)" in page
    assert "<td>after a change</td>" in page and "<td>commit</td>" not in page
    assert f'href="{reverse("list_settings", args=[club.rating_list.slug])}"' in page


@pytest.mark.parametrize(
    ("role", "status"), [("anonymous", 302), ("player", 403), ("volunteer", 403), ("committee", 200)]
)
def test_only_the_committee_sees_the_runs(client_for: ClientFor, role: str, status: int) -> None:
    assert client_for(role).get(reverse("recompute_status")).status_code == status


@pytest.mark.parametrize(
    ("role", "status"), [("anonymous", 302), ("player", 403), ("volunteer", 403), ("committee", 302)]
)
def test_only_the_committee_can_recompute_a_club(
    client_for: ClientFor, club: Club, make_player: MakePlayer, role: str, status: int, settings: Settings
) -> None:
    settings.CELERY_BROKER_URL = ""
    alice, bob = make_player("Alice"), make_player("Bob")
    sheet = RecordSheet.objects.create(club=club, date=date(2025, 1, 7))
    Game.objects.create(club=club, sheet=sheet, date=date(2025, 1, 7), white=alice, black=bob, winner="white")
    url = reverse("recompute_now", args=[club.rating_list.slug])
    response = client_for(role).post(url)
    assert response.status_code == status
    club.rating_list.refresh_from_db()
    if role == "committee":
        assert response["Location"] == reverse("recompute_status")
        assert club.rating_list.dirty_from == date(2025, 1, 7), "marked dirty from the first game"
    else:
        assert club.rating_list.dirty_from is None and club.rating_list.dirty_generation == 0
    assert not HistoryEntry.objects.exists()  # the test transaction never commits; nothing ran


def test_recompute_now_refuses_get(client_for: ClientFor, club: Club) -> None:
    assert (
        client_for("committee").get(reverse("recompute_now", args=[club.rating_list.slug])).status_code == 405
    )
