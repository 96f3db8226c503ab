"""`manage.py demo`: an empty database filled with a realistic rating list
(the SAGC list with the Stellenbosch club), and refused (or skipped) when
data exists."""

from __future__ import annotations

import io
import itertools
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db.models import F, Max, Min
from django.utils import timezone

from accounts.models import CommitteeMember, Volunteer
from accounts.roles import is_committee_of, may_enter_at
from ratings.models import Club, Game, HistoryEntry, Kind, LogEntry, Player, RankAdjustment, RatingList


@pytest.fixture(autouse=True)
def fast_hashing(settings):  # type: ignore[no-untyped-def]
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def demo(*args: str) -> str:
    out = io.StringIO()
    call_command("demo", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


@pytest.fixture
def filled(db) -> str:  # type: ignore[no-untyped-def]
    return demo("--password", "demo-pass-123")


def test_it_makes_the_sagc_list_with_a_club_of_about_40_players_from_25k_to_4d(filled):  # type: ignore[no-untyped-def]
    rating_list = RatingList.objects.get()
    assert (rating_list.name, rating_list.slug) == ("South African Go Clubs", "sagc")
    club = Club.objects.get()
    assert (club.name, club.slug, club.rating_list) == ("Stellenbosch Go Club", "stellenbosch", rating_list)
    players = Player.objects.all()
    assert players.filter(rating_list=rating_list, home_club=club).count() == players.count()
    assert set(Game.objects.values_list("rating_list", "club").distinct()) == {(rating_list.pk, club.pk)}
    assert 35 <= players.count() <= 45
    ranks = players.aggregate(low=Min("start_rank"), high=Max("start_rank"))
    assert ranks == {"low": -25, "high": 3}
    assert players.exclude(saga_id="").exists() and players.filter(saga_id="").exists()
    assert players.exclude(egd_pin="").exists()


def test_it_plays_two_years_of_games_of_every_kind(filled):  # type: ignore[no-untyped-def]
    games = Game.objects.all()
    span = games.aggregate(first=Min("date"), last=Max("date"))
    assert (span["last"] - span["first"]).days > 650
    assert span["last"] <= timezone.localdate()
    kinds = {kind: games.filter(kind=kind).count() for kind in Kind.values}
    assert all(kinds.values()), kinds
    assert kinds[Kind.CLUB] > sum(kinds.values()) / 2  # mostly club games
    assert games.filter(handicap__gt=0).exists() and games.filter(handicap=0).exists()
    assert not games.filter(date__lt=F("white__since")).exists()
    assert not games.filter(date__lt=F("black__since")).exists()


def test_handicaps_follow_the_rank_difference(filled):  # type: ignore[no-untyped-def]
    rated = Game.objects.exclude(kind=Kind.FREE).select_related("white", "black")
    close = [g for g in rated if abs(g.handicap - (g.white.start_rank - g.black.start_rank)) <= 3]
    assert len(close) / len(rated) > 0.7


def test_some_sheets_are_entered_late_and_out_of_date_order(filled):  # type: ignore[no-untyped-def]
    games = list(Game.objects.order_by("entered_at", "id").values_list("date", "entered_at"))
    late = [1 for day, at in games if at.date() - day > timedelta(days=6)]
    assert len(late) > 20
    out_of_order = sum(1 for (d1, _), (d2, _) in itertools.pairwise(games) if d2 < d1)
    assert out_of_order >= 3
    assert all(at.date() >= day for day, at in games)


def test_it_logs_every_game_and_adjustment(filled):  # type: ignore[no-untyped-def]
    assert RankAdjustment.objects.count() >= 2
    assert LogEntry.objects.filter(action="add", game__isnull=False).count() == Game.objects.count()
    assert LogEntry.objects.filter(adjustment__isnull=False).count() == RankAdjustment.objects.count()
    assert LogEntry.objects.filter(action="edit").exclude(changes={}).exists()
    entry = LogEntry.objects.filter(game__isnull=False).first()
    assert set(entry.players.all()) == {entry.game.white, entry.game.black}


def test_it_computes_the_ratings(filled):  # type: ignore[no-untyped-def]
    rating_list = RatingList.objects.get()
    assert (
        HistoryEntry.objects.filter(system=rating_list.primary_system).count()
        >= 2 * Game.objects.exclude(forfeit=True).count() - 10
    )
    in_games = set(Game.objects.values_list("white", flat=True)) | set(
        Game.objects.values_list("black", flat=True)
    )
    assert set(Player.objects.filter(games_count__gt=0).values_list("id", flat=True)) == in_games
    assert Player.objects.exclude(last_updated=None).exists()
    rating_list.refresh_from_db()
    assert rating_list.dirty_from is None


def test_it_creates_the_three_users_with_the_given_password_and_their_roles(filled):  # type: ignore[no-untyped-def]
    assert "demo-pass-123" in filled
    volunteer, committee, player = (
        User.objects.get(username=n) for n in ("volunteer", "committee", "player")
    )
    club = Club.objects.get()
    rating_list = club.rating_list
    # Roles per place: the volunteer of the club, the committee of its list; no groups.
    assert list(Volunteer.objects.values_list("user", "club")) == [(volunteer.pk, club.pk)]
    assert list(CommitteeMember.objects.values_list("user", "rating_list")) == [
        (committee.pk, rating_list.pk)
    ]
    assert not User.objects.filter(groups__isnull=False).exists()
    assert may_enter_at(volunteer, club.pk, rating_list.pk) and not is_committee_of(volunteer, rating_list.pk)
    assert may_enter_at(committee, club.pk, rating_list.pk) and is_committee_of(committee, rating_list.pk)
    assert not may_enter_at(player, club.pk, rating_list.pk) and not is_committee_of(player, rating_list.pk)
    assert player.player is not None and player.player.rating_list == rating_list
    assert all(u.check_password("demo-pass-123") for u in (volunteer, committee, player))


def test_it_prints_a_random_password_when_none_is_given(db):  # type: ignore[no-untyped-def]
    out = demo()
    password = out.strip().splitlines()[-1].split("password: ")[1]
    assert len(password) >= 10
    assert User.objects.get(username="player").check_password(password)


def test_it_refuses_a_database_with_data(club):  # type: ignore[no-untyped-def]
    with pytest.raises(CommandError, match=r"already has data.*--reset"):
        demo()
    assert Club.objects.count() == 1 and not Game.objects.exists()


def test_it_refuses_when_a_demo_user_exists(db):  # type: ignore[no-untyped-def]
    User.objects.create_user("volunteer")
    with pytest.raises(CommandError, match="already has data"):
        demo()


def test_if_empty_leaves_existing_data_alone(club):  # type: ignore[no-untyped-def]
    assert "already has data" in demo("--if-empty")
    assert Club.objects.get() == club and not Player.objects.exists()


def test_reset_replaces_the_data_and_the_users(club, make_player):  # type: ignore[no-untyped-def]
    make_player("Old Timer")
    User.objects.create_user("committee", password="old")
    demo("--reset", "--password", "fresh-pass-456")
    assert not Player.objects.filter(name="Old Timer").exists()
    assert User.objects.get(username="committee").check_password("fresh-pass-456")
    assert RatingList.objects.count() == 1 and Club.objects.count() == 1 and Game.objects.count() > 500
    assert CommitteeMember.objects.get().user.username == "committee"


def test_it_is_reproducible(db):  # type: ignore[no-untyped-def]
    def fingerprint() -> list[tuple]:
        # Sorted on every column: two games may differ in komi alone, and
        # an ORDER BY on fewer columns leaves their order to the database.
        return sorted(
            Game.objects.values_list(
                "date", "white__name", "black__name", "handicap", "komi", "winner", "kind"
            )
        )

    demo("--password", "p-1234567890", "--seed", "7")
    first = fingerprint()
    demo("--reset", "--password", "p-1234567890", "--seed", "7")
    assert fingerprint() == first
    demo("--reset", "--password", "p-1234567890", "--seed", "8")
    assert fingerprint() != first
