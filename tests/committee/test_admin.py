"""The Django admin: every model's list, search, filters and forms open for a
superuser; everyone else is kept out; the log and history are read-only."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from ratings.models import Club, Game, LogEntry, RecordSheet
from tests.support import ClientFor, MakePlayer, Personas, list_admin_form

MODELS = [
    "ratinglist",
    "club",
    "player",
    "recordsheet",
    "game",
    "rankadjustment",
    "historyentry",
    "logentry",
    "recomputerun",
]


@pytest.fixture
def admin_client_with_data(client: Client, club: Club, make_player: MakePlayer) -> Client:
    admin = User.objects.create_superuser("root", "root@example.org", "pw")
    ann, bob = (
        make_player("Ann Botha", rank=-12, user=User.objects.create_user("ann")),
        make_player("Bob Nel"),
    )
    sheet = RecordSheet.objects.create(club=club, date=date(2024, 3, 5), event="Club night")
    Game.objects.create(club=club, sheet=sheet, date=date(2024, 3, 5), white=ann, black=bob, winner="white")
    entry = LogEntry.objects.create(club=club, action="add", event_date=date(2024, 3, 5), summary="Ann v Bob")
    entry.players.set([ann, bob])
    client.force_login(admin)
    return client


@pytest.mark.parametrize("model", MODELS)
def test_every_models_list_searches_and_opens_for_a_superuser(
    admin_client_with_data: Client, model: str
) -> None:
    url = reverse(f"admin:ratings_{model}_changelist")
    assert admin_client_with_data.get(url).status_code == 200
    assert admin_client_with_data.get(url, {"q": "Ann"}).status_code == 200


def test_the_player_list_filters_by_rank_band(admin_client_with_data: Client) -> None:
    url = reverse("admin:ratings_player_changelist")
    html = admin_client_with_data.get(url, {"band": "ddk"}).content.decode()
    assert "Ann Botha" in html and "Bob Nel" not in html  # 12k is in 20k-11k, 10k is not
    assert "12k" in html


def test_the_player_form_opens(admin_client_with_data: Client) -> None:
    assert admin_client_with_data.get(reverse("admin:ratings_player_add")).status_code == 200


def test_the_log_cannot_be_rewritten_in_the_admin(admin_client_with_data: Client) -> None:
    entry = LogEntry.objects.get()
    assert admin_client_with_data.get(reverse("admin:ratings_logentry_add")).status_code == 403
    response = admin_client_with_data.post(
        reverse("admin:ratings_logentry_delete", args=[entry.pk]), {"post": "yes"}
    )
    assert response.status_code == 403
    assert LogEntry.objects.filter(pk=entry.pk).exists()


def test_the_user_list_shows_role_and_linked_player(
    admin_client_with_data: Client, personas: Personas
) -> None:
    html = admin_client_with_data.get(reverse("admin:auth_user_changelist")).content.decode()
    assert "Ann Botha" in html and "Player One" in html
    assert "committee" in html and "volunteer" in html


@pytest.mark.parametrize("role", ["anonymous", "player", "volunteer", "committee"])
def test_the_admin_keeps_out_every_role_without_staff_status(client_for: ClientFor, role: str) -> None:
    response = client_for(role).get(reverse("admin:ratings_game_changelist"))
    assert response.status_code == 302
    assert reverse("admin:login") in response["Location"]


def test_the_list_form_offers_the_compared_systems_as_ticks(
    admin_client_with_data: Client, club: Club
) -> None:
    """The systems now belong to the rating list, not the club; the API token
    is kept only as a hash (shown once on the export page), so the admin
    neither shows nor edits it."""
    rating_list = club.rating_list
    url = reverse("admin:ratings_ratinglist_change", args=[rating_list.pk])
    html = admin_client_with_data.get(url).content.decode()
    assert 'type="checkbox" name="compared_systems" value="egf"' in html
    assert 'name="api_token_hash"' not in html
    assert club.name in html  # its clubs, inline
    data = list_admin_form(club, ["egf", "ffg"])
    assert admin_client_with_data.post(url, data).status_code == 302
    rating_list.refresh_from_db()
    assert rating_list.compared_systems == ["egf", "ffg"]
