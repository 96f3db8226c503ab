"""`manage.py demo`: an empty database filled with the demo site (the SAGC
list shared by four clubs, and an independent town ladder), a demo user per
role and place, and refused (or skipped) when data exists."""

from __future__ import annotations

import io
import itertools
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db.models import F, Max, Min, Q, QuerySet
from django.utils import timezone
from pytest_django import Settings

from accounts.models import CommitteeMember, Volunteer
from accounts.roles import is_committee_of, is_site_admin, may_enter_at
from ratings.models import (
    Club,
    Game,
    HistoryEntry,
    Kind,
    LogEntry,
    Player,
    RankAdjustment,
    RatingList,
    RecordSheet,
)
from tests.support import MakePlayer

SAGC_CLUBS = {
    "stellenbosch": "Stellenbosch Go Club",
    "cape-town": "Cape Town Go Club",
    "johannesburg": "Johannesburg Go Club",
    "pretoria": "Pretoria Go Club",
}


@pytest.fixture(autouse=True)
def fast_hashing(settings: Settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def demo(*args: str) -> str:
    out = io.StringIO()
    call_command("demo", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


@pytest.fixture
def filled(db: None) -> str:
    return demo("--password", "demo-pass-123")


def sagc_games() -> QuerySet[Game]:
    return Game.objects.filter(rating_list__slug="sagc")


def test_it_makes_the_sagc_list_with_four_clubs_of_players_from_25k_to_4d(filled: str) -> None:
    sagc = RatingList.objects.get(slug="sagc")
    assert (sagc.name, sagc.primary_system, sagc.systems) == (
        "South African Go Clubs",
        "sagc",
        ["sagc", "egf"],
    )
    assert dict(sagc.clubs.values_list("slug", "name")) == SAGC_CLUBS
    players = Player.objects.filter(rating_list=sagc)
    assert not players.filter(home_club=None).exists()
    assert not players.exclude(home_club__rating_list=sagc).exists()
    for club in sagc.clubs.all():
        home = players.filter(home_club=club)
        assert 15 <= home.count() <= 25, club
        assert home.aggregate(low=Min("start_rank"), high=Max("start_rank")) == {"low": -25, "high": 3}
    assert players.exclude(saga_id="").exists() and players.filter(saga_id="").exists()
    assert players.exclude(egd_pin="").exists()
    saga_ids = list(players.exclude(saga_id="").values_list("saga_id", flat=True))
    assert len(saga_ids) == len(set(saga_ids))


def test_two_people_of_one_name_are_told_apart_by_a_suffix(filled: str) -> None:
    twin = Player.objects.get(rating_list__slug="sagc", suffix__gt="")
    namesake = Player.objects.get(rating_list__slug="sagc", name=twin.name, suffix="")
    assert twin.home_club != namesake.home_club
    assert str(twin) == f"{twin.name} ({twin.suffix})"


def test_every_club_has_its_own_nights_with_visitors_from_other_clubs(filled: str) -> None:
    nights = sagc_games().filter(kind__in=[Kind.CLUB, Kind.FREE])
    visiting = Q(white__home_club=F("club")) & Q(black__home_club=F("club"))
    for slug in SAGC_CLUBS:
        at_club = nights.filter(club__slug=slug)
        assert at_club.filter(visiting).count() > 200, slug  # mostly the club's own players
        one = at_club.first()
        assert one is not None
        assert set(
            RecordSheet.objects.filter(club__slug=slug, kind=Kind.CLUB).values_list("event", flat=True)
        ) == {f"{one.date:%A} club night"}
        visitors = at_club.exclude(visiting)
        assert visitors.count() >= 10, slug
        # A visitor's game sits on the sheet of the club they visited, entered by its volunteer.
        assert not visitors.exclude(sheet__club=F("club")).exists()
        assert set(visitors.values_list("sheet__entered_by__username", flat=True)) <= {
            f"volunteer-{slug}",
            "committee-sagc",
        }
    # Neighbours visit more than far-away clubs.
    near = nights.filter(club__slug="cape-town", white__home_club__slug="stellenbosch").count()
    far = nights.filter(club__slug="cape-town", white__home_club__slug="pretoria").count()
    assert near > far


def test_a_visitor_has_one_record_sheet_with_games_of_several_clubs(filled: str) -> None:
    player = User.objects.get(username="player").players.get()
    clubs = set(Game.objects.of_player(player).values_list("club__slug", flat=True))
    home = player.home_club
    assert home is not None and home.slug in clubs and len(clubs) >= 2
    assert HistoryEntry.objects.filter(
        player=player, system="sagc", game__club__slug__in=clubs - {home.slug}
    ).exists()


def test_a_tournament_weekend_brings_players_of_all_four_clubs_together(filled: str) -> None:
    tournaments = RecordSheet.objects.filter(club__rating_list__slug="sagc", kind=Kind.TOURNAMENT)
    assert tournaments.count() >= 1
    for sheet in tournaments:
        assert sheet.event.startswith("South African Open")
        days = sorted(set(sheet.games.values_list("date", flat=True)))
        assert days == [sheet.date, sheet.date + timedelta(days=1)] and sheet.date.weekday() == 5
        assert not sheet.games.exclude(kind=Kind.TOURNAMENT).exists()
        homes = set(sheet.games.values_list("white__home_club__slug", flat=True)) | set(
            sheet.games.values_list("black__home_club__slug", flat=True)
        )
        assert homes == set(SAGC_CLUBS)
        # Players of different clubs meet, not just club-mates.
        assert sheet.games.exclude(white__home_club=F("black__home_club")).count() > 10
    # One sheet per tournament.
    events = list(tournaments.values_list("event", flat=True))
    assert len(events) == len(set(events))


def test_the_ladder_is_a_separate_list_whose_players_never_meet_the_sagc_ones(filled: str) -> None:
    ladder = RatingList.objects.get(slug="guildford")
    assert ladder.primary_system == "west-surrey"
    assert ladder.clubs.count() == 1
    assert 10 <= ladder.players.count() <= 14
    assert ladder.games.count() > 50
    assert RatingList.objects.count() == 2
    games = Game.objects.all()
    # No player of one list in a game of the other; a game's club is of its list.
    assert not games.exclude(white__rating_list=F("rating_list")).exists()
    assert not games.exclude(black__rating_list=F("rating_list")).exists()
    assert not games.exclude(club__rating_list=F("rating_list")).exists()
    assert not games.exclude(sheet__club=F("club")).exists()
    assert not Player.objects.exclude(home_club__rating_list=F("rating_list")).exists()
    sagc_names = set(Player.objects.filter(rating_list__slug="sagc").values_list("name", flat=True))
    assert not sagc_names & set(ladder.players.values_list("name", flat=True))


def test_it_plays_two_years_of_games_of_every_kind(filled: str) -> None:
    games = sagc_games()
    span = games.aggregate(first=Min("date"), last=Max("date"))
    assert (span["last"] - span["first"]).days > 650
    assert span["last"] <= timezone.localdate()
    kinds = {kind: games.filter(kind=kind).count() for kind in Kind.values}
    assert all(kinds.values()), kinds
    assert kinds[Kind.CLUB] > sum(kinds.values()) / 2  # mostly club games
    assert games.filter(handicap__gt=0).exists() and games.filter(handicap=0).exists()
    assert not Game.objects.filter(date__lt=F("white__since")).exists()
    assert not Game.objects.filter(date__lt=F("black__since")).exists()


def test_handicaps_follow_the_rank_difference(filled: str) -> None:
    rated = Game.objects.exclude(kind=Kind.FREE).select_related("white", "black")
    close = [g for g in rated if abs(g.handicap - (g.white.start_rank - g.black.start_rank)) <= 3]
    assert len(close) / len(rated) > 0.7


def test_some_sheets_are_entered_late_and_out_of_date_order(filled: str) -> None:
    games = list(sagc_games().order_by("entered_at", "id").values_list("date", "entered_at"))
    late = [1 for day, at in games if at.date() - day > timedelta(days=6)]
    assert len(late) > 20
    out_of_order = sum(1 for (d1, _), (d2, _) in itertools.pairwise(games) if d2 < d1)
    assert out_of_order >= 3
    assert all(at.date() >= day for day, at in Game.objects.values_list("date", "entered_at"))


def test_it_logs_every_game_and_adjustment(filled: str) -> None:
    assert RankAdjustment.objects.filter(rating_list__slug="sagc").count() >= 2
    assert LogEntry.objects.filter(action="add", game__isnull=False).count() == Game.objects.count()
    assert not LogEntry.objects.filter(game__isnull=False).exclude(club=F("game__club")).exists()
    assert LogEntry.objects.filter(adjustment__isnull=False).count() == RankAdjustment.objects.count()
    assert LogEntry.objects.filter(action="edit").exclude(changes={}).exists()
    entry = LogEntry.objects.filter(game__isnull=False).first()
    assert entry is not None and entry.game is not None
    assert set(entry.players.all()) == {entry.game.white, entry.game.black}


def test_it_computes_the_ratings_of_both_lists(filled: str) -> None:
    for rating_list in RatingList.objects.all():
        games = Game.objects.filter(rating_list=rating_list)
        assert (
            HistoryEntry.objects.filter(rating_list=rating_list, system=rating_list.primary_system).count()
            >= 2 * games.exclude(forfeit=True).count() - 10
        ), rating_list
        in_games = set(games.values_list("white", flat=True)) | set(games.values_list("black", flat=True))
        rated = rating_list.players.filter(games_count__gt=0).values_list("id", flat=True)
        assert set(rated) == in_games, rating_list
        assert rating_list.players.exclude(last_updated=None).exists()
        assert rating_list.dirty_from is None


def test_it_makes_a_user_per_role_and_place_with_the_given_password(filled: str) -> None:
    sagc, ladder = RatingList.objects.get(slug="sagc"), RatingList.objects.get(slug="guildford")
    clubs = {club.slug: club for club in Club.objects.all()}
    users = {user.username: user for user in User.objects.all()}
    expected = {"admin", "committee-sagc", "committee-guildford", "player"}
    expected |= {f"volunteer-{slug}" for slug in [*SAGC_CLUBS, "guildford"]}
    assert set(users) == expected
    for name in expected:  # all printed, with the password
        assert f"  {name} " in filled
    assert "password: demo-pass-123" in filled
    assert all(user.check_password("demo-pass-123") for user in users.values())
    assert not User.objects.filter(groups__isnull=False).exists()

    # A volunteer of each club, there only.
    volunteers = {(v.user.username, v.club.slug) for v in Volunteer.objects.select_related("user", "club")}
    assert volunteers == {(f"volunteer-{s.removesuffix('-club')}", s) for s in clubs}
    stellenbosch = users["volunteer-stellenbosch"]
    assert may_enter_at(stellenbosch, clubs["stellenbosch"].pk, sagc.pk)
    assert not may_enter_at(stellenbosch, clubs["cape-town"].pk, sagc.pk)
    assert not is_committee_of(stellenbosch, sagc.pk)
    # The committee of each list, of that list only.
    committees = {
        (m.user.username, m.rating_list.slug)
        for m in CommitteeMember.objects.select_related("user", "rating_list")
    }
    assert committees == {("committee-sagc", "sagc"), ("committee-guildford", "guildford")}
    assert all(may_enter_at(users["committee-sagc"], clubs[s].pk, sagc.pk) for s in SAGC_CLUBS)
    assert not is_committee_of(users["committee-sagc"], ladder.pk)
    assert not may_enter_at(users["committee-guildford"], clubs["stellenbosch"].pk, sagc.pk)
    # The site admin; the player, linked to a player and nothing more.
    assert users["admin"].is_superuser and users["admin"].is_staff and is_site_admin(users["admin"])
    assert not any(u.is_superuser for name, u in users.items() if name != "admin")
    player = users["player"]
    assert player.players.get().rating_list == sagc
    home_club_id = player.players.get().home_club_id
    assert home_club_id is not None
    assert not may_enter_at(player, home_club_id, sagc.pk) and not is_committee_of(player, sagc.pk)


def test_it_prints_a_random_password_when_none_is_given(db: None) -> None:
    out = demo()
    password = out.strip().splitlines()[-1].split("password: ")[1]
    assert len(password) >= 10
    assert User.objects.get(username="player").check_password(password)


def test_it_refuses_a_database_with_data(club: Club) -> None:
    with pytest.raises(CommandError, match=r"already has data.*--reset"):
        demo()
    assert Club.objects.count() == 1 and not Game.objects.exists()


def test_it_refuses_a_database_with_a_list_without_clubs(db: None) -> None:
    # What a site admin makes first: a list, its clubs later.
    RatingList.objects.create(name="Gauteng Go", slug="gauteng")
    with pytest.raises(CommandError, match="already has data"):
        demo()
    assert "already has data" in demo("--if-empty")
    assert list(RatingList.objects.values_list("slug", flat=True)) == ["gauteng"]
    assert not User.objects.exists()


@pytest.mark.parametrize("username", ["volunteer-pretoria", "admin", "volunteer"])
def test_it_refuses_when_a_demo_user_exists(db: None, username: str) -> None:
    User.objects.create_user(username)
    with pytest.raises(CommandError, match="already has data"):
        demo()


def test_if_empty_leaves_existing_data_alone(club: Club) -> None:
    assert "already has data" in demo("--if-empty")
    assert Club.objects.get() == club and not Player.objects.exists()


def test_reset_replaces_the_data_and_the_users(club: Club, make_player: MakePlayer) -> None:
    make_player("Old Timer")
    User.objects.create_user("committee-sagc", password="old")
    User.objects.create_user("volunteer", password="old")  # of the one-club demo
    demo("--reset", "--password", "fresh-pass-456")
    assert not Player.objects.filter(name="Old Timer").exists()
    assert not User.objects.filter(username="volunteer").exists()
    assert User.objects.get(username="committee-sagc").check_password("fresh-pass-456")
    assert RatingList.objects.count() == 2 and Club.objects.count() == 5 and Game.objects.count() > 1000
    assert CommitteeMember.objects.get(rating_list__slug="sagc").user.username == "committee-sagc"


def test_it_is_reproducible(db: None) -> None:
    def fingerprint() -> list[tuple[Any, ...]]:
        # Sorted on every column: two games may differ in komi alone, and
        # an ORDER BY on fewer columns leaves their order to the database.
        return sorted(
            Game.objects.values_list(
                "club__slug", "date", "white__name", "black__name", "handicap", "komi", "winner", "kind"
            )
        )

    demo("--password", "p-1234567890", "--seed", "7")
    first = fingerprint()
    demo("--reset", "--password", "p-1234567890", "--seed", "7")
    assert fingerprint() == first
    demo("--reset", "--password", "p-1234567890", "--seed", "8")
    assert fingerprint() != first
