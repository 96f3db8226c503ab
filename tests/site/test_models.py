"""The data model: constraints in the database, the named queries the pages
use, and the small helpers on each model."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

import pytest
from django.db import DataError, IntegrityError, transaction
from pytest_django import DjangoAssertNumQueries

from ratings.models import (
    Club,
    Game,
    HistoryEntry,
    LogEntry,
    Player,
    RankAdjustment,
    RatingList,
    RecordSheet,
)
from ratings.names import ranked
from tests.support import MakePlayer, make_pool


def a_game(club: Club, white: Player, black: Player, **extra: Any) -> Game:
    sheet = RecordSheet.objects.create(club=club, date=date(2024, 3, 5))
    values = {"date": date(2024, 3, 5), "winner": "white", **extra}
    return Game.objects.create(club=club, sheet=sheet, white=white, black=black, **values)


def refused(make: Callable[[], object]) -> bool:
    try:
        with transaction.atomic():
            make()
    except (IntegrityError, DataError):  # PostgreSQL refuses an over-long value with DataError
        return True
    return False


# --- RatingList and Club ------------------------------------------------------------


def test_a_lists_systems_put_the_primary_first_without_repeats_or_unknowns(rating_list: RatingList) -> None:
    rating_list.primary_system = "egf"
    rating_list.compared_systems = ["sagc", "egf", "no-such-system", "ffg"]
    assert rating_list.systems == ["egf", "sagc", "ffg"]


def test_a_list_and_a_club_each_have_their_own_page(club: Club) -> None:
    assert club.rating_list.get_absolute_url() == "/lists/sagc/"
    assert club.get_absolute_url() == "/clubs/stellenbosch/"


def test_list_names_are_unique(rating_list: RatingList) -> None:
    assert refused(lambda: RatingList.objects.create(name=rating_list.name, slug="other"))


def test_club_names_are_unique_within_a_list_and_slugs_everywhere(club: Club, other_list: RatingList) -> None:
    assert refused(lambda: Club.objects.create(rating_list=club.rating_list, name=club.name, slug="other"))
    assert refused(lambda: Club.objects.create(rating_list=other_list, name="Elsewhere", slug=club.slug))
    Club.objects.create(rating_list=other_list, name=club.name, slug="other")  # another list may have one


# --- Player ---------------------------------------------------------------------


def test_a_player_shows_their_rank_as_go_players_write_it(make_player: MakePlayer) -> None:
    assert make_player("Kyu", rank=-11).rank_label == "11k"
    assert make_player("Dan", rank=2).rank_label == "3d"


def test_a_players_page_is_their_record_sheet(make_player: MakePlayer) -> None:
    assert make_player("Ann Botha").get_absolute_url() == "/players/ann-botha/"


@pytest.mark.parametrize("rank", [-31, 9])
def test_the_database_refuses_a_start_rank_off_the_scale(make_player: MakePlayer, rank: int) -> None:
    assert refused(lambda: make_player("Off Scale", rank=rank))


def test_two_players_of_one_list_cannot_share_a_name(
    club: Club, other_club: Club, make_player: MakePlayer
) -> None:
    make_player("Ann Botha", slug="ann")
    assert refused(lambda: make_player("Ann Botha", slug="ann-2"))
    # Whatever their home club, and however the name is typed (case, spacing, Unicode form).
    assert refused(lambda: make_player("ANN  botha ", slug="ann-3", club=other_club))
    make_player("Ann Botha", slug="ann-4", suffix="Cape Town")  # told apart deliberately
    other = make_pool(name="Other", slug="other")
    make_player("Ann Botha", slug="ann-5", club=other)  # another list may have one
    make_player("Zoe\u0301", slug="zoe-1")  # "e" and a combining acute accent
    assert refused(lambda: make_player("Zo\u00e9", slug="zoe-2"))  # the same name, precomposed


def test_a_player_is_found_by_name_as_the_identity_rule_compares_names(
    club: Club, make_player: MakePlayer
) -> None:
    ann = make_player("Ann Botha", suffix="junior")
    assert ann.display_name == str(ann) == "Ann Botha (junior)"
    assert list(Player.objects.named(club.rating_list, " ann   BOTHA (Junior)")) == [ann]
    assert not Player.objects.named(club.rating_list, "Ann Botha").exists()


def test_player_queries_search_filter_by_list_and_join_the_home_club(
    club: Club, make_player: MakePlayer, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    other = make_pool(name="Other", slug="other")
    make_player("Ann Botha")
    make_player("Bob Nel", club=other)
    make_player("Cid Homeless", club=None, rating_list=club.rating_list)
    assert [p.name for p in ranked(Player.objects.all(), "  BOT ")] == ["Ann Botha"]
    assert not ranked(Player.objects.all(), "   ").exists()
    assert [p.name for p in Player.objects.in_list(other.rating_list)] == ["Bob Nel"]
    assert Player.objects.in_list(None).count() == 3
    with django_assert_num_queries(1):
        clubs = [p.home_club.name if p.home_club else None for p in Player.objects.for_table()]
        assert clubs == ["Stellenbosch Go Club", "Other", None]


# --- Game ------------------------------------------------------------------------


def test_a_game_belongs_to_the_list_of_the_club_where_it_was_played(
    club: Club, other_club: Club, make_player: MakePlayer
) -> None:
    ann, bob = make_player("Ann"), make_player("Bob", club=other_club)
    game = a_game(other_club, ann, bob)
    assert (game.club, game.rating_list) == (other_club, club.rating_list)


def test_the_database_refuses_a_game_against_oneself(club: Club, make_player: MakePlayer) -> None:
    ann = make_player("Ann")
    assert refused(lambda: a_game(club, ann, ann))


@pytest.mark.parametrize(
    "bad",
    [{"handicap": 10}, {"komi": Decimal("100")}, {"winner": "nobody"}, {"kind": "blitz"}, {"board": 15}],
)
def test_the_database_refuses_a_game_out_of_range(
    club: Club, make_player: MakePlayer, bad: dict[str, Any]
) -> None:
    ann, bob = make_player("Ann"), make_player("Bob")
    assert refused(lambda: a_game(club, ann, bob, **bad))


def test_games_come_in_timeline_order_date_then_entry_order(club: Club, make_player: MakePlayer) -> None:
    ann, bob = make_player("Ann"), make_player("Bob")
    late = a_game(club, ann, bob, date=date(2024, 3, 1), entered_at=datetime(2024, 3, 20, tzinfo=UTC))
    first = a_game(club, ann, bob, date=date(2024, 3, 5), entered_at=datetime(2024, 3, 6, tzinfo=UTC))
    second = a_game(club, bob, ann, date=date(2024, 3, 5), entered_at=datetime(2024, 3, 7, tzinfo=UTC))
    assert list(Game.objects.timeline()) == [late, first, second]
    assert Game.objects.of_player(ann).count() == 3


# --- RankAdjustment ----------------------------------------------------------------


def test_the_database_refuses_an_adjustment_off_the_scale(club: Club, make_player: MakePlayer) -> None:
    ann = make_player("Ann")
    assert refused(
        lambda: RankAdjustment.objects.create(
            rating_list=club.rating_list, player=ann, date=date(2024, 1, 1), rank=9
        )
    )
    assert str(
        RankAdjustment.objects.create(
            rating_list=club.rating_list, player=ann, date=date(2024, 1, 1), rank=-5
        )
    ) == ("2024-01-01 Ann set to 5k")


# --- HistoryEntry ------------------------------------------------------------------


def row(
    club: Club,
    player: Player,
    seq: int,
    game: Game | None = None,
    opponent: Player | None = None,
    rank_before: float = -10.0,
    system: str = "sagc",
) -> HistoryEntry:
    return HistoryEntry.objects.create(
        rating_list=club.rating_list,
        system=system,
        seq=seq,
        date=date(2024, 1, 1 + seq),
        player=player,
        game=game,
        opponent=opponent,
        colour="w" if game else "",
        rank_before=rank_before,
        rating_before=0,
        change=10,
        rank_after=rank_before,
        rating_after=10 * seq,
    )


def test_one_history_row_per_player_event_and_system(club: Club, make_player: MakePlayer) -> None:
    ann = make_player("Ann")
    row(club, ann, 1)
    row(club, ann, 1, system="egf")
    assert refused(lambda: row(club, ann, 1))


def test_the_sheet_query_is_newest_first_with_the_opponents_rank_at_the_time(
    club: Club, make_player: MakePlayer
) -> None:
    ann, bob = make_player("Ann"), make_player("Bob")
    g1, g2 = a_game(club, ann, bob), a_game(club, ann, bob)
    row(club, ann, 1, g1, bob, rank_before=-10)
    row(club, bob, 1, g1, ann, rank_before=-12)
    row(club, ann, 2, g2, bob, rank_before=-10)
    row(club, bob, 2, g2, ann, rank_before=-11)
    row(club, bob, 2, g2, ann, rank_before=-3, system="egf")  # another system's row is not read
    sheet = list(HistoryEntry.objects.for_sheet(ann, "sagc").with_opponent_rank())
    # An annotation of the query (with_opponent_rank): not an attribute the model declares.
    assert [(e.seq, getattr(e, "opponent_rank", None)) for e in sheet] == [(2, -11.0), (1, -12.0)]


def test_the_chart_query_gives_date_rank_and_rating_oldest_first(club: Club, make_player: MakePlayer) -> None:
    ann = make_player("Ann")
    row(club, ann, 2)
    row(club, ann, 1)
    assert list(HistoryEntry.objects.for_chart(ann, "sagc")) == [
        (date(2024, 1, 2), -10.0, 10.0),
        (date(2024, 1, 3), -10.0, 20.0),
    ]


# --- LogEntry -----------------------------------------------------------------------


def test_log_queries_filter_by_list_player_and_game_date(club: Club, make_player: MakePlayer) -> None:
    other = make_pool(name="Other", slug="other")
    ann, bob = make_player("Ann Botha"), make_player("Bob Nel", club=other)
    e1 = LogEntry.objects.create(club=club, action="add", event_date=date(2024, 3, 1), summary="one")
    e1.players.set([ann])
    e2 = LogEntry.objects.create(club=other, action="add", event_date=date(2024, 3, 9), summary="two")
    e2.players.set([bob])
    assert (e1.rating_list, e2.rating_list) == (club.rating_list, other.rating_list)  # filled from the club
    assert list(LogEntry.objects.in_list(club.rating_list)) == [e1]
    assert LogEntry.objects.in_list(None).count() == 2
    assert list(LogEntry.objects.about([bob.pk])) == [e2]
    assert list(LogEntry.objects.about([ann.pk, bob.pk]).order_by("pk")) == [e1, e2]
    assert not LogEntry.objects.about([]).exists()
    assert list(LogEntry.objects.between(date(2024, 3, 2), None)) == [e2]
    assert list(LogEntry.objects.between(None, date(2024, 3, 1))) == [e1]


def test_the_log_is_newest_entry_first(club: Club) -> None:
    old = LogEntry.objects.create(
        club=club,
        action="add",
        event_date=date(2024, 3, 9),
        summary="old",
        at=datetime(2024, 3, 1, tzinfo=UTC),
    )
    new = LogEntry.objects.create(
        club=club,
        action="add",
        event_date=date(2024, 1, 1),
        summary="new",
        at=datetime(2024, 4, 1, tzinfo=UTC),
    )
    assert list(LogEntry.objects.for_page()) == [new, old]
    assert str(new).endswith("Added new")


def test_a_log_entry_outlives_its_deleted_game(club: Club, make_player: MakePlayer) -> None:
    ann, bob = make_player("Ann"), make_player("Bob")
    game = a_game(club, ann, bob)
    entry = LogEntry.objects.create(club=club, action="add", event_date=game.date, summary="s", game=game)
    entry.players.set([ann, bob])
    game.delete()
    entry.refresh_from_db()
    assert entry.game is None and entry.players.count() == 2
