"""ratings/services/: the one place that writes games, sheets and adjustments."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import pytest
import time_machine
from django.contrib.auth.models import User
from pytest_django import DjangoAssertNumQueries

from ratings import services
from ratings.models import Club, Game, LogEntry, Player, RankAdjustment, RatingList, RecordSheet
from ratings.services import GameRow, NewPlayer, SheetError
from tests.support import MakePlayer, make_pool

TODAY = date(2024, 6, 15)


@pytest.fixture
def alice(make_player: MakePlayer) -> Player:
    return make_player("Alice", rank=-5)


@pytest.fixture
def bob(make_player: MakePlayer) -> Player:
    return make_player("Bob", rank=-8)


@pytest.fixture
def actor(db: None) -> User:
    return User.objects.create_user("vol", password="x")


def _sheet(
    club: Club,
    rows: list[services.GameRow],
    day: date = date(2024, 6, 1),
    actor: User | None = None,
    **extra: Any,
) -> RecordSheet:
    return services.save_sheet(club=club, date=day, rows=rows, actor=actor, today=TODAY, **extra)


def test_it_saves_a_sheet_its_games_and_a_log_entry_per_game(
    club: Club, alice: Player, bob: Player, actor: User
) -> None:
    sheet = _sheet(
        club,
        [
            GameRow(white=alice, black=bob, winner="white"),
            GameRow(white=bob, black=alice, winner="black", handicap=2),
        ],
        actor=actor,
        event="Tuesday club night",
    )
    games = list(sheet.games.order_by("id"))
    assert [(g.white.name, g.black.name, g.winner) for g in games] == [
        ("Alice", "Bob", "white"),
        ("Bob", "Alice", "black"),
    ]
    assert all(g.entered_by == actor and g.date == date(2024, 6, 1) for g in games)
    log = LogEntry.objects.filter(action="add").order_by("id")
    assert [entry.game_id for entry in log] == [g.pk for g in games]
    assert {p.name for p in log[0].players.all()} == {"Alice", "Bob"}
    assert log[0].actor == actor and log[0].sheet == sheet
    assert "Alice (W) v Bob (B)" in log[0].summary


def test_it_defaults_komi_from_the_handicap(club: Club, alice: Player, bob: Player) -> None:
    sheet = _sheet(
        club,
        [
            GameRow(white=alice, black=bob, winner="white", handicap=0),
            GameRow(white=alice, black=bob, winner="white", handicap=1),
            GameRow(white=alice, black=bob, winner="white", handicap=4),
            GameRow(white=alice, black=bob, winner="white", handicap=0, komi=Decimal("-3")),
        ],
    )
    assert [g.komi for g in sheet.games.order_by("id")] == [
        Decimal("6.5"),
        Decimal("0.5"),
        Decimal("0.5"),
        Decimal("-3"),
    ]


def test_default_komi_gives_an_sagc_effective_handicap_equal_to_the_stones() -> None:
    # the SAGC FAQ, The Handicap Factor: eff_handicap = int(handicap - (komi - 6) / 10)
    for stones in range(10):
        komi = float(services.default_komi(stones))
        assert int(stones - (komi - 6) / 10) == stones


def test_it_creates_a_new_player_once_with_their_start_rank_and_first_game_date(
    club: Club, alice: Player, bob: Player
) -> None:
    newbie = NewPlayer("Carol Nkosi", -11)
    _sheet(
        club,
        [
            GameRow(white=alice, black=newbie, winner="white", date=date(2024, 5, 20)),
            GameRow(white=NewPlayer("carol nkosi", -11), black=bob, winner="black", date=date(2024, 5, 10)),
        ],
    )
    carol = Player.objects.get(name="Carol Nkosi")
    assert (carol.start_rank, carol.rank, carol.since) == (-11, -11, date(2024, 5, 10))
    assert (carol.rating_list, carol.home_club) == (club.rating_list, club), "the list's, at the sheet's club"
    assert carol.slug == "carol-nkosi"
    assert Game.objects.of_player(carol).count() == 2


def test_it_gives_a_new_player_a_free_slug(club: Club, make_player: MakePlayer, alice: Player) -> None:
    other = make_pool(name="Cape Town", slug="cape-town")
    make_player("Dan Smith", club=other)
    _sheet(club, [GameRow(white=alice, black=NewPlayer("Dan Smith", -20), winner="black")])
    assert Player.objects.get(rating_list=club.rating_list, name="Dan Smith").slug == "dan-smith-stellenbosch"


def test_it_saves_nothing_when_one_row_is_bad_and_names_every_bad_row_and_field(
    club: Club, alice: Player, bob: Player
) -> None:
    rows = [
        GameRow(white=alice, black=NewPlayer("Eve", -3), winner="white"),
        GameRow(white=alice, black=alice, winner="white"),
        GameRow(white=alice, black=bob, winner="", handicap=12, komi=Decimal("150")),
        GameRow(white=alice, black=bob, winner="white", date=TODAY + timedelta(days=1)),
    ]
    with pytest.raises(SheetError) as caught:
        _sheet(club, rows)
    problems = caught.value.problems
    assert set(problems) == {2, 3, 4}
    assert "both White and Black" in problems[2]["black"]
    assert set(problems[3]) == {"winner", "handicap", "komi"}
    assert "future" in problems[4]["date"]
    assert "row 3: handicap" in str(caught.value)
    assert not RecordSheet.objects.exists() and not Game.objects.exists() and not LogEntry.objects.exists()
    assert not Player.objects.filter(name="Eve").exists()


def test_it_refuses_a_game_dated_before_the_player_existed(
    club: Club, make_player: MakePlayer, alice: Player
) -> None:
    late = make_player("Late Comer", since=date(2024, 3, 1))
    with pytest.raises(SheetError) as caught:
        _sheet(club, [GameRow(white=alice, black=late, winner="white")], day=date(2024, 2, 1))
    assert "joined on 2024-03-01" in caught.value.problems[1]["black"]


def test_it_refuses_a_sheet_dated_in_the_future_and_an_empty_sheet(club: Club) -> None:
    with pytest.raises(SheetError) as caught:
        _sheet(club, [], day=TODAY + timedelta(days=2))
    assert set(caught.value.problems[0]) == {"date", "games"}


def test_it_refuses_a_player_of_another_club(club: Club, make_player: MakePlayer, alice: Player) -> None:
    other = make_pool(name="Cape Town", slug="cape-town")
    stranger = make_player("Stranger", club=other)
    with pytest.raises(SheetError) as caught:
        _sheet(club, [GameRow(white=alice, black=stranger, winner="white")])
    assert "Cape Town" in caught.value.problems[1]["black"]


def test_it_refuses_a_new_player_whose_name_is_taken_or_whose_rank_differs(club: Club, alice: Player) -> None:
    with pytest.raises(SheetError) as caught:
        _sheet(
            club,
            [
                GameRow(white=alice, black=NewPlayer("alice", -3), winner="white"),
                GameRow(white=alice, black=NewPlayer("Zed", -3), winner="white"),
                GameRow(white=alice, black=NewPlayer("Zed", -4), winner="white"),
                GameRow(white=alice, black=NewPlayer("Yan", -31), winner="white"),
            ],
        )
    problems = caught.value.problems
    assert "already a player" in problems[1]["black"]
    assert "earlier row" in problems[3]["black_rank"]
    assert "between 30k and 9d" in problems[4]["black_rank"]


def test_it_marks_the_club_dirty_from_the_earliest_game_of_the_sheet(
    club: Club, alice: Player, bob: Player
) -> None:
    _sheet(
        club,
        [
            GameRow(white=alice, black=bob, winner="white"),
            GameRow(white=alice, black=bob, winner="white", date=date(2024, 4, 2)),
        ],
    )
    club.rating_list.refresh_from_db()
    assert club.rating_list.dirty_from == date(2024, 4, 2)
    assert club.rating_list.dirty_generation == 1


@pytest.mark.django_db(transaction=True)
def test_a_refused_sheet_does_not_mark_the_club_dirty(club: Club, alice: Player) -> None:
    with pytest.raises(SheetError):
        _sheet(club, [GameRow(white=alice, black=alice, winner="white")])
    club.rating_list.refresh_from_db()
    assert club.rating_list.dirty_from is None and club.rating_list.dirty_generation == 0


def test_last_updated_is_the_date_of_the_most_recently_added_game_even_when_older(
    club: Club, alice: Player, bob: Player
) -> None:
    # the SAGC FAQ, "My last updated date has gone backwards"
    with time_machine.travel("2024-06-10 12:00 +0000"):
        _sheet(club, [GameRow(white=alice, black=bob, winner="white")], day=date(2024, 6, 8))
    alice.refresh_from_db()
    assert alice.last_updated == date(2024, 6, 8)
    with time_machine.travel("2024-06-11 12:00 +0000"):
        _sheet(club, [GameRow(white=alice, black=bob, winner="black")], day=date(2024, 1, 5))
    alice.refresh_from_db()
    bob.refresh_from_db()
    assert alice.last_updated == date(2024, 1, 5)
    assert bob.last_updated == date(2024, 1, 5)


def test_on_one_sheet_the_last_row_of_a_player_is_their_most_recently_added_game(
    club: Club, alice: Player, bob: Player, make_player: MakePlayer
) -> None:
    # the SAGC FAQ, "My last updated date has gone backwards": the rows of a sheet
    # are added in order, so the later row counts even when it is older.
    cat = make_player("Cat")
    _sheet(
        club,
        [
            GameRow(white=alice, black=bob, winner="white", date=date(2024, 5, 20)),
            GameRow(white=bob, black=cat, winner="black", date=date(2024, 5, 2)),
            GameRow(white=cat, black=alice, winner="white", date=date(2024, 5, 10)),
        ],
    )
    updated = dict(Player.objects.values_list("name", "last_updated"))
    assert updated == {"Alice": date(2024, 5, 10), "Bob": date(2024, 5, 2), "Cat": date(2024, 5, 10)}


def test_a_sheet_takes_as_many_queries_for_ten_games_as_for_one(
    club: Club, make_player: MakePlayer, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    players = [make_player(f"P{i}") for i in range(20)]
    with CaptureQueriesContext(connection) as one:
        _sheet(club, [GameRow(white=players[0], black=players[1], winner="white")])
    rows = [GameRow(white=players[i], black=players[i + 10], winner="black") for i in range(10)]
    with django_assert_num_queries(len(one.captured_queries)):
        _sheet(club, rows)
    assert Game.objects.count() == 11
    assert LogEntry.players.through.objects.count() == 22  # each log entry names both players


# --- edit and delete -------------------------------------------------------------


@pytest.fixture
def game(club: Club, alice: Player, bob: Player) -> Game:
    sheet = _sheet(club, [GameRow(white=alice, black=bob, winner="white")], day=date(2024, 5, 1))
    RatingList.objects.filter(pk=club.rating_list_id).update(dirty_from=None)
    return sheet.games.get()


def test_an_edit_logs_each_changed_field_with_old_and_new_value(
    game: Game, bob: Player, actor: User, make_player: MakePlayer
) -> None:
    carol = make_player("Carol")
    changed = services.edit_game(
        game, actor=actor, today=TODAY, winner="black", komi="0.5", black=carol, handicap=0
    )
    assert changed == {"winner": ["white", "black"], "komi": ["6.5", "0.5"], "black": ["Bob", "Carol"]}
    entry = LogEntry.objects.get(action="edit")
    assert entry.changes == changed and entry.actor == actor and entry.game == game
    assert {p.name for p in entry.players.all()} == {"Alice", "Bob", "Carol"}
    game.refresh_from_db()
    assert (game.winner, game.komi, game.black) == ("black", Decimal("0.5"), carol)


def test_an_edit_that_changes_nothing_writes_nothing(game: Game) -> None:
    assert services.edit_game(game, today=TODAY, winner="white") == {}
    assert not LogEntry.objects.filter(action="edit").exists()
    game.club.rating_list.refresh_from_db()
    assert game.club.rating_list.dirty_from is None


def test_an_edit_moving_a_game_later_marks_dirty_from_its_old_date(game: Game) -> None:
    services.edit_game(game, today=TODAY, date=date(2024, 6, 1))
    game.club.rating_list.refresh_from_db()
    assert game.club.rating_list.dirty_from == date(2024, 5, 1)


def test_an_edit_moving_a_game_earlier_marks_dirty_from_its_new_date(game: Game) -> None:
    services.edit_game(game, today=TODAY, date=date(2024, 3, 1))
    game.club.rating_list.refresh_from_db()
    assert game.club.rating_list.dirty_from == date(2024, 3, 1)


def test_a_bad_edit_changes_nothing(game: Game, alice: Player) -> None:
    with pytest.raises(SheetError) as caught:
        services.edit_game(game, today=TODAY, black=alice, handicap=10)
    assert set(caught.value.problems[1]) == {"black", "handicap"}
    game.refresh_from_db()
    assert game.black.name == "Bob" and game.handicap == 0
    assert not LogEntry.objects.filter(action="edit").exists()


def test_a_delete_logs_the_game_and_moves_last_updated_back(
    club: Club, alice: Player, bob: Player, actor: User
) -> None:
    with time_machine.travel("2024-06-10 12:00 +0000"):
        _sheet(club, [GameRow(white=alice, black=bob, winner="white")], day=date(2024, 5, 1))
    with time_machine.travel("2024-06-11 12:00 +0000"):
        late = _sheet(
            club, [GameRow(white=alice, black=bob, winner="white")], day=date(2024, 2, 1)
        ).games.get()
    services.delete_game(late, actor=actor, reason="entered twice")
    assert not Game.objects.filter(pk=late.pk).exists()
    entry = LogEntry.objects.get(action="delete")
    assert "entered twice" in entry.summary and entry.actor == actor
    assert entry.changes["winner"] == ["white", None]
    assert {p.name for p in entry.players.all()} == {"Alice", "Bob"}
    alice.refresh_from_db()
    club.rating_list.refresh_from_db()
    assert alice.last_updated == date(2024, 5, 1)
    assert club.rating_list.dirty_from == date(2024, 2, 1)


# --- adjustments and club settings -------------------------------------------------


def test_an_adjustment_is_logged_and_marks_dirty_from_its_date(
    club: Club, alice: Player, actor: User
) -> None:
    adjustment = services.add_adjustment(
        player=alice, date=date(2024, 3, 1), rank=-3, reason="SAGA sync", actor=actor, today=TODAY
    )
    assert RankAdjustment.objects.get() == adjustment
    entry = LogEntry.objects.get(adjustment=adjustment)
    assert entry.action == "add" and "Alice set to 3k" in entry.summary and "SAGA sync" in entry.summary
    club.rating_list.refresh_from_db()
    assert club.rating_list.dirty_from == date(2024, 3, 1)


def test_an_adjustment_refuses_a_future_date_a_date_before_the_player_and_a_rank_off_the_scale(
    club: Club, alice: Player
) -> None:
    with pytest.raises(SheetError) as caught:
        services.add_adjustment(player=alice, date=TODAY + timedelta(days=1), rank=9, today=TODAY)
    assert set(caught.value.problems[1]) == {"date", "rank"}
    with pytest.raises(SheetError) as caught:
        services.add_adjustment(player=alice, date=date(2019, 1, 1), rank=-3, today=TODAY)
    assert "joined on" in caught.value.problems[1]["date"]
    assert not RankAdjustment.objects.exists()


def test_changing_the_club_systems_marks_dirty_from_the_first_game(club: Club, game: Game) -> None:
    services.add_adjustment(player=game.white, date=date(2024, 5, 3), rank=-4, today=TODAY)
    RatingList.objects.filter(pk=club.rating_list_id).update(dirty_from=None)
    assert (
        services.set_list_systems(club.rating_list, primary="egf", compared=["sagc", "egf", "sagc"]) is True
    )
    club.rating_list.refresh_from_db()
    assert (club.rating_list.primary_system, club.rating_list.compared_systems) == ("egf", ["sagc"])
    assert club.rating_list.dirty_from == date(2024, 5, 1)
    RatingList.objects.filter(pk=club.rating_list_id).update(dirty_from=None)
    assert services.set_list_systems(club.rating_list, primary="egf", compared=["sagc"]) is False
    club.rating_list.refresh_from_db()
    assert club.rating_list.dirty_from is None


def test_switching_the_primary_system_keeps_the_old_one_for_comparison(club: Club) -> None:
    services.set_list_systems(club.rating_list, primary="sagc", compared=["egf"])
    services.set_list_systems(club.rating_list, primary="egf", compared=[])
    club.rating_list.refresh_from_db()
    assert (club.rating_list.primary_system, club.rating_list.compared_systems) == ("egf", ["sagc"])
    # and back: EGF stays, nothing is silently dropped
    services.set_list_systems(club.rating_list, primary="sagc", compared=[])
    club.rating_list.refresh_from_db()
    assert (club.rating_list.primary_system, club.rating_list.compared_systems) == ("sagc", ["egf"])
    # unticking a compared system while the primary stays drops it
    services.set_list_systems(club.rating_list, primary="sagc", compared=[])
    club.rating_list.refresh_from_db()
    assert club.rating_list.compared_systems == []


def test_an_unknown_system_is_refused(club: Club) -> None:
    with pytest.raises(ValueError, match="unknown rating system nope"):
        services.set_list_systems(club.rating_list, primary="nope", compared=[])
