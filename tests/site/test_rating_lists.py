"""One rating list shared by many clubs (issue 11): players meet at any club
of their list, lists never mix, identity is per list, recomputes are per list,
and existing databases migrate without loss."""

from __future__ import annotations

import hashlib
import threading
from datetime import date, timedelta
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, connection, transaction

from ratings import recompute, services
from ratings.models import HistoryEntry, Player, RatingList, RecomputeRun
from ratings.services import GameRow, NewPlayer, SheetError

DAY = date.today() - timedelta(days=30)


def test_a_visitor_plays_at_another_club_of_the_list_on_one_record_sheet(
    club, other_club, make_player
) -> None:
    ann = make_player("Ann Botha", rank=-10)  # home club: Stellenbosch
    ben = make_player("Ben Nel", rank=-10, club=other_club)  # home club: Cape Town
    services.save_sheet(club=club, date=DAY, rows=[GameRow(white=ann, black=ben, winner="white")])
    services.save_sheet(
        club=other_club, date=DAY + timedelta(days=7), rows=[GameRow(white=ben, black=ann, winner="white")]
    )
    recompute.recompute_list(club.rating_list_id)
    rows = HistoryEntry.objects.filter(player=ann, system="sagc").order_by("seq")
    assert [(r.game.club.slug, r.opponent_id) for r in rows] == [
        ("stellenbosch", ben.pk),
        ("cape-town", ben.pk),
    ]
    assert rows[1].rating_before == rows[0].rating_after, (
        "one sheet: the second game starts where the first ended"
    )


def test_a_game_between_players_of_two_lists_is_refused_with_a_clear_message(
    club, other_list, make_player
) -> None:
    ann = make_player("Ann Botha")
    stranger = make_player("Sam Jones", club=other_list.clubs.get())
    with pytest.raises(SheetError) as caught:
        services.save_sheet(club=club, date=DAY, rows=[GameRow(white=ann, black=stranger, winner="white")])
    assert "Sam Jones is a player of the list Guildford Ladder, not of South African Go Clubs" in str(
        caught.value
    )


def test_the_database_refuses_a_second_player_whose_normalised_name_is_taken(club, make_player) -> None:
    make_player("Jean Dupont")
    with pytest.raises(IntegrityError), transaction.atomic():
        make_player("  jean   DUPONT ", slug="jean-2")
    # Unicode NFC: "é" typed as e + combining accent is the same name.
    make_player("Élodie Martin")
    with pytest.raises(IntegrityError), transaction.atomic():
        make_player("E\u0301lodie martin", slug="elodie-2")


def test_two_people_of_one_name_are_told_apart_by_a_suffix_shown_everywhere(club, make_player) -> None:
    make_player("John Smith")
    second = make_player("John Smith", suffix="Durban", slug="john-smith-durban")
    assert str(second) == "John Smith (Durban)"
    assert Player.objects.named(club.rating_list, "john smith (durban)").get() == second


def test_the_same_name_may_be_in_two_lists(club, other_list, make_player) -> None:
    make_player("Jean Dupont")
    make_player("Jean Dupont", club=other_list.clubs.get(), slug="jean-dupont-2")
    assert Player.objects.filter(name="Jean Dupont").count() == 2


def test_a_new_player_typed_differently_on_two_sheets_is_one_player(club, other_club, make_player) -> None:
    ann = make_player("Ann Botha")
    services.save_sheet(
        club=club, date=DAY, rows=[GameRow(white=ann, black=NewPlayer("Li Wei", -15), winner="white")]
    )
    with pytest.raises(SheetError, match="already a player of South African Go Clubs"):
        services.save_sheet(
            club=other_club,
            date=DAY,
            rows=[GameRow(white=ann, black=NewPlayer("  li  WEI", -15), winner="black")],
        )
    assert Player.objects.filter(name_key="li wei").count() == 1


def test_a_tournament_imported_at_one_club_matches_players_of_the_whole_list(
    club, other_club, make_player
) -> None:
    from ratings import committee

    make_player("Ann Botha", rank=-5, club=other_club)
    data = (
        b"date,round,kind,board,white,black,white_rank,black_rank,handicap,komi,winner\n"
        b"2024-05-04,1,tournament,19,Ann Botha,Carl Venter,5k,9k,0,6.5,white\n"
    )
    report = committee.import_tournament(club, data, filename="games.csv")
    assert report.matched == ["Ann Botha"] and len(report.created) == 1
    assert Player.objects.get(name="Carl Venter").home_club == club


@pytest.mark.django_db(transaction=True)
def test_two_lists_recompute_at_the_same_time_and_neither_waits(club, other_list, make_player) -> None:
    """List 1's lock held by another session (as a running recompute holds
    it) does not stop list 2's recompute."""
    ann, ben = make_player("Ann Botha"), make_player("Ben Nel")
    far = other_list.clubs.get()
    cat, dan = make_player("Cat Lee", club=far), make_player("Dan Roe", club=far)
    services.save_sheet(club=club, date=DAY, rows=[GameRow(white=ann, black=ben, winner="white")])
    services.save_sheet(club=far, date=DAY, rows=[GameRow(white=cat, black=dan, winner="white")])
    holding, release = threading.Event(), threading.Event()

    def hold_list_one() -> None:
        try:
            with recompute.list_lock(club.rating_list_id) as taken:
                assert taken
                holding.set()
                release.wait(30)
        finally:
            connection.close()

    holder = threading.Thread(target=hold_list_one)
    holder.start()
    try:
        assert holding.wait(30)
        # No broker and no transaction: each mark runs its recompute at once.
        recompute.mark_dirty(club.rating_list, DAY)
        assert RatingList.objects.get(pk=club.rating_list_id).dirty_from == DAY, (
            "list 1 busy: left to its holder"
        )
        recompute.mark_dirty(other_list, DAY - timedelta(days=1))
        assert RatingList.objects.get(pk=other_list.pk).dirty_from is None, "list 2 did not wait for list 1"
        assert RecomputeRun.objects.filter(rating_list=other_list, status="done").count() == 2
        with pytest.raises(CommandError, match="sagc: another recompute is running"):
            call_command("recompute", "--list", "sagc", "--full", "--no-progress", stdout=StringIO())
    finally:
        release.set()
        holder.join()
    out = StringIO()
    call_command("recompute", "--list", "sagc", "--full", "--no-progress", "--wait", "5", stdout=out)
    assert "sagc: done, from the start" in out.getvalue()


# --- migrating an existing database ------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_each_existing_club_becomes_a_list_without_losing_anything(migrator) -> None:
    old = migrator.apply_initial_migration(("ratings", "0008_history_unique_index"))
    User = old.apps.get_model("auth", "User")
    Group = old.apps.get_model("auth", "Group")
    Club = old.apps.get_model("ratings", "Club")
    Player = old.apps.get_model("ratings", "Player")
    Sheet = old.apps.get_model("ratings", "RecordSheet")
    Game = old.apps.get_model("ratings", "Game")
    History = old.apps.get_model("ratings", "HistoryEntry")
    Run = old.apps.get_model("ratings", "RecomputeRun")
    clubs = [
        Club.objects.create(name="Stellenbosch Go Club", slug="stellenbosch", primary_system="sagc",
                            compared_systems=["egf"], api_token="s3cret", dirty_from=date(2025, 3, 1),
                            dirty_generation=4, clean_generation=3),
        Club.objects.create(name="Guildford", slug="guildford", primary_system="west-surrey"),
    ]  # fmt: skip
    players = {}
    for club in clubs:
        # Case-duplicates were allowed within a club before (unique on the exact name).
        for name in ("Ann Botha", "ann botha", "Ben Nel"):
            players[(club.slug, name)] = Player.objects.create(
                name=name, slug=f"{club.slug}-{name.replace(' ', '-').lower()}-{len(players)}", club=club,
                start_rank=-10, rank=-9.5, rating=123.0, games_count=1, since=date(2024, 1, 1),
            )  # fmt: skip
    stored = []
    for club in clubs:
        sheet = Sheet.objects.create(club=club, date=date(2025, 2, 1))
        ann, ben = players[(club.slug, "Ann Botha")], players[(club.slug, "Ben Nel")]
        game = Game.objects.create(club=club, sheet=sheet, date=date(2025, 2, 1), white=ann, black=ben,
                                   winner="white", komi=Decimal("6.5"))  # fmt: skip
        for seq, (player, opponent, colour, change) in enumerate(
            ((ann, ben, "w", 12.5), (ben, ann, "b", -12.5))
        ):
            History.objects.create(club=club, system="sagc", seq=1, date=game.date, player=player, game=game,
                                   colour=colour, opponent=opponent, rank_before=-10, rating_before=100.0 + seq,
                                   change=change, rank_after=-10, rating_after=100.0 + seq + change)  # fmt: skip
        Run.objects.create(club=club, status="done")
        stored += list(History.objects.filter(club=club).values_list(
            "club_id", "system", "seq", "player_id", "game_id", "rank_before", "rating_before", "change",
            "rank_after", "rating_after"))  # fmt: skip
    volunteer = User.objects.create(username="vol")
    volunteer.groups.add(Group.objects.get_or_create(name="volunteer")[0])

    new = migrator.apply_tested_migration(("accounts", "0002_roles_per_place"))
    RatingList = new.apps.get_model("ratings", "RatingList")
    NewClub = new.apps.get_model("ratings", "Club")
    NewPlayer_ = new.apps.get_model("ratings", "Player")
    NewHistory = new.apps.get_model("ratings", "HistoryEntry")
    lists = {r.slug: r for r in RatingList.objects.all()}
    assert set(lists) == {"stellenbosch", "guildford"}
    sagc = lists["stellenbosch"]
    assert (sagc.name, sagc.primary_system, sagc.compared_systems) == (
        "Stellenbosch Go Club",
        "sagc",
        ["egf"],
    )
    assert (sagc.dirty_from, sagc.dirty_generation, sagc.clean_generation) == (date(2025, 3, 1), 4, 3)
    assert sagc.api_token_hash == hashlib.sha256(b"s3cret").hexdigest()
    assert lists["guildford"].primary_system == "west-surrey"
    for club in NewClub.objects.all():
        assert club.rating_list.slug == club.slug, "each club is a list holding that one club"
    after = sorted(NewHistory.objects.values_list(
        "rating_list_id", "system", "seq", "player_id", "game_id", "rank_before", "rating_before", "change",
        "rank_after", "rating_after"))  # fmt: skip
    assert after == sorted(stored), "every stored rating identical, in the list that took the club's id"
    for (slug, _name), old_player in players.items():
        moved = NewPlayer_.objects.get(pk=old_player.pk)
        assert (moved.rating_list.slug, moved.home_club.slug) == (slug, slug)
        assert (moved.rank, moved.rating, moved.games_count) == (-9.5, 123.0, 1)
    duplicates = NewPlayer_.objects.filter(rating_list=sagc, name_key__startswith="ann botha")
    assert sorted(p.suffix for p in duplicates) == ["", "2"], "a case-duplicate is told apart, not lost"
    Volunteer = new.apps.get_model("accounts", "Volunteer")
    assert Volunteer.objects.filter(user__username="vol").count() == 2, (
        "a site-wide volunteer keeps every club"
    )
    assert RatingList.objects.create(name="New", slug="new").pk > max(r.pk for r in lists.values())
    migrator.reset()
