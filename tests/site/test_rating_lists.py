"""One rating list shared by many clubs: players meet at any club
of their list, lists never mix, identity is per list, recomputes are per list."""

from __future__ import annotations

import threading
from datetime import date, timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, connection, transaction

from ratings import recompute, services
from ratings.models import Club, HistoryEntry, Player, RatingList, RecomputeRun
from ratings.services import GameRow, NewPlayer, SheetError
from tests.support import MakePlayer

DAY = date.today() - timedelta(days=30)


def test_a_visitor_plays_at_another_club_of_the_list_on_one_record_sheet(
    club: Club, other_club: Club, make_player: MakePlayer
) -> None:
    ann = make_player("Ann Botha", rank=-10)  # home club: Stellenbosch
    ben = make_player("Ben Nel", rank=-10, club=other_club)  # home club: Cape Town
    services.save_sheet(club=club, date=DAY, rows=[GameRow(white=ann, black=ben, winner="white")])
    services.save_sheet(
        club=other_club, date=DAY + timedelta(days=7), rows=[GameRow(white=ben, black=ann, winner="white")]
    )
    recompute.recompute_list(club.rating_list_id)
    rows = HistoryEntry.objects.filter(player=ann, system="sagc").order_by("seq")
    assert [(r.game.club.slug if r.game else "", r.opponent_id) for r in rows] == [
        ("stellenbosch", ben.pk),
        ("cape-town", ben.pk),
    ]
    assert rows[1].rating_before == rows[0].rating_after, (
        "one sheet: the second game starts where the first ended"
    )


def test_a_game_between_players_of_two_lists_is_refused_with_a_clear_message(
    club: Club, other_list: RatingList, make_player: MakePlayer
) -> None:
    ann = make_player("Ann Botha")
    stranger = make_player("Sam Jones", club=other_list.clubs.get())
    with pytest.raises(SheetError) as caught:
        services.save_sheet(club=club, date=DAY, rows=[GameRow(white=ann, black=stranger, winner="white")])
    assert "Sam Jones is a player of the list Guildford Ladder, not of South African Go Clubs" in str(
        caught.value
    )


def test_the_database_refuses_a_second_player_whose_normalised_name_is_taken(
    club: Club, make_player: MakePlayer
) -> None:
    make_player("Jean Dupont")
    with pytest.raises(IntegrityError), transaction.atomic():
        make_player("  jean   DUPONT ", slug="jean-2")
    # Unicode NFC: "é" typed as e + combining accent is the same name.
    make_player("Élodie Martin")
    with pytest.raises(IntegrityError), transaction.atomic():
        make_player("E\u0301lodie martin", slug="elodie-2")


def test_two_people_of_one_name_are_told_apart_by_a_suffix_shown_everywhere(
    club: Club, make_player: MakePlayer
) -> None:
    make_player("John Smith")
    second = make_player("John Smith", suffix="Durban", slug="john-smith-durban")
    assert str(second) == "John Smith (Durban)"
    assert Player.objects.named(club.rating_list, "john smith (durban)").get() == second


def test_the_same_name_may_be_in_two_lists(
    club: Club, other_list: RatingList, make_player: MakePlayer
) -> None:
    make_player("Jean Dupont")
    make_player("Jean Dupont", club=other_list.clubs.get(), slug="jean-dupont-2")
    assert Player.objects.filter(name="Jean Dupont").count() == 2


def test_a_new_player_typed_differently_on_two_sheets_is_one_player(
    club: Club, other_club: Club, make_player: MakePlayer
) -> None:
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
    club: Club, other_club: Club, make_player: MakePlayer
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
def test_two_lists_recompute_at_the_same_time_and_neither_waits(
    club: Club, other_list: RatingList, make_player: MakePlayer
) -> None:
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
