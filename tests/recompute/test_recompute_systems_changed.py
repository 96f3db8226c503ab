"""A list whose systems changed between checkpoints (issue 29): a system
added through the Django admin, which saves the list without a recompute,
then a late game.  The checkpoints stored so far belong to the old systems
only; resuming from one of them would start the new system from nothing at
that date.  The replay must resume only where every system has a checkpoint
(here: nowhere, so from the beginning)."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from ratings import recompute
from ratings.models import Club, Game, Player, RatingCheckpoint, RecordSheet
from tests.support import MakePlayer, list_admin_form, stored_history

pytestmark = pytest.mark.django_db

EVERY_FEW = recompute.Options(checkpoint_every=4)


def add_game(club: Club, day: date, white: Player, black: Player, winner: str) -> None:
    sheet = RecordSheet.objects.create(club=club, date=day)
    Game.objects.create(club=club, sheet=sheet, date=day, white=white, black=black, winner=winner)


def thirty_games(club: Club, make_player: MakePlayer) -> list[Player]:
    """Five players, 30 games over 15 days (a checkpoint every 4 events)."""
    players = [make_player(f"P{i}", rank=-14 + i) for i in range(5)]
    for n in range(30):
        winner = "white" if n % 3 else "black"
        add_game(club, date(2025, 2, 1 + n // 2), players[n % 5], players[(n + 2) % 5], winner)
    return players


def add_system_in_the_admin(club: Club, system: str) -> None:
    """Tick ``system`` on the list's admin page, as a site admin would."""
    admin = User.objects.create_superuser("root", "root@example.org", "pw")
    client = Client()
    client.force_login(admin)
    rating_list = club.rating_list
    data = list_admin_form(club, [*rating_list.compared_systems, system])
    url = reverse("admin:ratings_ratinglist_change", args=[rating_list.pk])
    assert client.post(url, data).status_code == 302
    rating_list.refresh_from_db()


def test_a_late_game_after_a_system_added_in_the_admin_gives_the_full_replay(
    club: Club, make_player: MakePlayer
) -> None:
    assert club.rating_list.systems == ["sagc"]
    players = thirty_games(club, make_player)
    recompute.recompute_list(club.rating_list_id, full=True, options=EVERY_FEW)
    sagc_only = set(RatingCheckpoint.objects.values_list("system", flat=True))
    assert sagc_only == {"sagc"} and RatingCheckpoint.objects.count() >= 3

    add_system_in_the_admin(club, "egf")
    assert club.rating_list.systems == ["sagc", "egf"]
    assert club.rating_list.dirty_from is None, "the admin saved the list without a recompute"

    add_game(club, date(2025, 2, 12), players[0], players[4], "black")
    recompute.mark_dirty(club.rating_list, date(2025, 2, 12))
    run = recompute.recompute_list(club.rating_list_id, options=EVERY_FEW)
    assert run is not None and run.full, "no date has a checkpoint of both systems: a full replay"
    resumed = stored_history(club)
    assert {row[0] for row in resumed} >= {"sagc", "egf"}

    recompute.recompute_list(club.rating_list_id, full=True)
    assert stored_history(club) == resumed


def test_after_the_full_replay_both_systems_have_checkpoints_and_a_late_game_resumes(
    club: Club, make_player: MakePlayer
) -> None:
    """The other side: once both systems have checkpoints, a late game
    resumes from one (not a full replay) and still gives the full replay."""
    players = thirty_games(club, make_player)
    recompute.recompute_list(club.rating_list_id, full=True, options=EVERY_FEW)
    add_system_in_the_admin(club, "egf")
    recompute.recompute_list(club.rating_list_id, full=True, options=EVERY_FEW)
    add_game(club, date(2025, 2, 12), players[0], players[4], "black")
    recompute.mark_dirty(club.rating_list, date(2025, 2, 12))
    run = recompute.recompute_list(club.rating_list_id, options=EVERY_FEW)
    assert run is not None and not run.full and run.from_date == date(2025, 2, 12)
    resumed = stored_history(club)
    recompute.recompute_list(club.rating_list_id, full=True)
    assert stored_history(club) == resumed


def set_systems_in_the_admin(club: Club, systems: list[str]) -> None:
    """Save the list's compared systems on its admin page (no recompute)."""
    admin, _ = User.objects.get_or_create(username="root", defaults={"is_staff": True, "is_superuser": True})
    client = Client()
    client.force_login(admin)
    data = list_admin_form(club, systems)
    url = reverse("admin:ratings_ratinglist_change", args=[club.rating_list.pk])
    assert client.post(url, data).status_code == 302
    club.rating_list.refresh_from_db()


def test_a_system_removed_then_added_again_is_not_resumed_from_its_old_checkpoints(
    club: Club, make_player: MakePlayer
) -> None:
    """A recompute after a system is removed deletes its rows; its old
    checkpoints must go with them: a late game after the system is ticked
    again would otherwise resume it from them (or, before the first of
    them, write it only from the game's date) with its earlier rows gone."""
    players = thirty_games(club, make_player)
    set_systems_in_the_admin(club, ["egf"])
    recompute.recompute_list(club.rating_list_id, full=True, options=EVERY_FEW)
    assert set(RatingCheckpoint.objects.values_list("system", flat=True)) == {"sagc", "egf"}

    set_systems_in_the_admin(club, [])
    add_game(club, date(2025, 2, 14), players[1], players[3], "white")
    recompute.mark_dirty(club.rating_list, date(2025, 2, 14))
    recompute.recompute_list(club.rating_list_id, options=EVERY_FEW)
    assert {row[0] for row in stored_history(club)} == {"sagc"}, "the removed system's rows are gone"
    assert set(RatingCheckpoint.objects.values_list("system", flat=True)) == {"sagc"}, "and its checkpoints"

    set_systems_in_the_admin(club, ["egf"])
    add_game(club, date(2025, 2, 12), players[0], players[4], "black")
    recompute.mark_dirty(club.rating_list, date(2025, 2, 12))
    recompute.recompute_list(club.rating_list_id, options=EVERY_FEW)
    resumed = stored_history(club)
    recompute.recompute_list(club.rating_list_id, full=True)
    assert stored_history(club) == resumed
