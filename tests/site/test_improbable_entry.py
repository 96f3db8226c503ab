"""Improbable results at entry: the sheet asks to confirm.

The list's primary system is SAGC.  With no game rated yet every player
stands at their start rank (index 0) and the probability is the prior's
curve, P(White wins) = 1 / (1 + 2^-x), x = White's rank - Black's rank -
the effective handicap (docs/evaluation.md, "Prior / initial value").  So:

* 5k (White) against 10k (Black), even, 6.5 komi: x = 5, P(White) = 32/33,
  Black winning has 1/33 = 3.0 % (below the default 5 %); the rule gives 5
  stones;
* 5k against 8k with 3 stones and 0.5 komi: the SAGC rule (one stone per
  rank), x = 0, either result 50 %;
* 5k against 8k even: off the rule (3 stones), and Black winning has
  1/(1 + 2^3) = 1/9 = 11.1 %.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.urls import reverse
from django.utils import timezone
from pytest_django import DjangoCaptureOnCommitCallbacks

from ratings.models import Club, Game, Player, RatingList, RecordSheet
from tests.site.entry_helpers import improbable_tick
from tests.support import ClientFor, sheet_data

UPSET = {"white": "Alice Mokoena", "black": "Dan Kyu", "komi": "6.5", "winner": "black"}
BY_THE_RULE = {
    "white": "Alice Mokoena",
    "black": "Bob Smit",
    "handicap": "3",
    "komi": "0.5",
    "winner": "black",
}
OFF_THE_RULE = {"white": "Alice Mokoena", "black": "Bob Smit", "komi": "6.5", "winner": "black"}


def post(client: Any, club: Any, rows: list[dict[str, Any]], **extra: str) -> Any:
    return client.post(reverse("sheet_new"), {**sheet_data(club, rows), **extra})


def test_an_improbable_result_comes_back_flagged_and_nothing_is_saved(
    client_for: ClientFor, club: Club, checked: RatingList, entry_players: dict[str, Player]
) -> None:
    response = post(client_for("volunteer"), club, [BY_THE_RULE, UPSET])
    assert response.status_code == 200
    page = response.content.decode()
    assert RecordSheet.objects.count() == 0 and Game.objects.count() == 0
    assert 'id="improbable"' in page
    assert "Game 2:" in page and "Game 1:" not in page  # the rule-abiding game is not flagged
    assert "only a 3.0 % chance" in page  # 1/33
    assert "swapped winner is the commonest mistake" in page
    assert "#row-1" in page  # the flagged row is outlined
    assert 'value="Dan Kyu"' in page  # everything typed is kept


def test_confirming_saves_the_sheet_and_marks_the_game_for_the_committee(
    client_for: ClientFor, club: Club, checked: RatingList, entry_players: dict[str, Player]
) -> None:
    client = client_for("volunteer")
    first = post(client, club, [BY_THE_RULE, UPSET])
    response = post(client, club, [BY_THE_RULE, UPSET], confirm_improbable=improbable_tick(first))
    assert response.status_code == 302
    games = {g.black.name: g for g in Game.objects.select_related("black")}
    assert games["Bob Smit"].flagged == ""
    assert games["Dan Kyu"].flagged == "result given 3.0 %; handicap: 0 stones given, the rule gives 5"
    listed = client_for("committee").get(reverse("list_predictions", args=[checked.slug]))
    assert listed.status_code == 200
    assert "result given 3.0 %" in listed.content.decode()


def test_a_sheet_changed_after_the_warning_is_checked_again(
    client_for: ClientFor, club: Club, checked: RatingList, entry_players: dict[str, Player]
) -> None:
    client = client_for("volunteer")
    digest = improbable_tick(post(client, club, [UPSET]))
    other = {**UPSET, "black": "Carl Venter"}  # another improbable game: the old tick does not cover it
    response = post(client, club, [other], confirm_improbable=digest)
    assert response.status_code == 200
    assert Game.objects.count() == 0
    assert improbable_tick(response) != digest


def test_the_expected_result_and_a_handicap_by_the_rule_save_without_asking(
    client_for: ClientFor, club: Club, checked: RatingList, entry_players: dict[str, Player]
) -> None:
    five_stones = {
        "white": "Alice Mokoena",
        "black": "Dan Kyu",
        "handicap": "5",
        "komi": "0.5",
        "winner": "white",
    }
    response = post(client_for("volunteer"), club, [BY_THE_RULE, five_stones])
    assert response.status_code == 302
    assert Game.objects.filter(flagged="").count() == 2


def test_a_handicap_off_the_rule_asks_too(
    client_for: ClientFor, club: Club, checked: RatingList, entry_players: dict[str, Player]
) -> None:
    response = post(client_for("volunteer"), club, [OFF_THE_RULE])
    assert response.status_code == 200
    page = response.content.decode()
    assert "is off the South African Go Clubs rule" in page and "0 stones given, the rule gives 3" in page
    assert "only a" not in page  # 11.1 % is not below 5 %
    confirmed = post(
        client_for("volunteer"), club, [OFF_THE_RULE], confirm_improbable=improbable_tick(response)
    )
    assert confirmed.status_code == 302
    assert Game.objects.get().flagged == "handicap: 0 stones given, the rule gives 3"


def test_the_weaker_player_taking_white_breaks_the_rule(
    client_for: ClientFor, club: Club, checked: RatingList, entry_players: dict[str, Player]
) -> None:
    row = {"white": "Bob Smit", "black": "Alice Mokoena", "handicap": "3", "komi": "0.5", "winner": "white"}
    page = post(client_for("volunteer"), club, [row]).content.decode()
    assert "the weaker player took White" in page


def test_the_committee_sets_the_threshold_and_the_handicap_check(
    client_for: ClientFor, club: Club, checked: RatingList, entry_players: dict[str, Player]
) -> None:
    committee = client_for("committee")
    response = committee.post(
        reverse("list_settings", args=[checked.slug]),
        {"primary_system": "sagc", "improbable_below": "12", "check_handicap": ""},
    )
    assert response.status_code == 302
    checked.refresh_from_db()
    assert (checked.improbable_below, checked.check_handicap) == (0.12, False)
    # 11.1 % is now below the threshold; the handicap is no longer checked.
    page = post(client_for("volunteer"), club, [OFF_THE_RULE]).content.decode()
    assert "only a 11.1 % chance" in page and "is off the" not in page
    assert 'value="12.0"' in committee.get(reverse("list_settings", args=[checked.slug])).content.decode()


def test_a_threshold_of_zero_and_no_handicap_check_never_ask(
    client_for: ClientFor, club: Club, checked: RatingList, entry_players: dict[str, Player]
) -> None:
    checked.improbable_below, checked.check_handicap = 0.0, False
    checked.save()
    response = post(client_for("volunteer"), club, [UPSET, OFF_THE_RULE])
    assert response.status_code == 302
    assert Game.objects.exclude(flagged="").count() == 0


def test_a_jigo_is_never_judged(
    client_for: ClientFor, club: Club, checked: RatingList, entry_players: dict[str, Player]
) -> None:
    row = {**UPSET, "komi": "6", "winner": "jigo"}  # 5k against 10k even: off the rule, but no probability
    page = post(client_for("volunteer"), club, [row]).content.decode()
    assert "only a" not in page


def test_a_new_player_enters_at_their_starting_rank(
    client_for: ClientFor, club: Club, checked: RatingList, entry_players: dict[str, Player]
) -> None:
    row = {
        "white": "Alice Mokoena",
        "black": "Eve Newcomer",
        "black_rank": "10k",
        "komi": "6.5",
        "winner": "black",
    }
    page = post(client_for("volunteer"), club, [row]).content.decode()
    assert "only a 3.0 % chance" in page  # as Dan Kyu, 10k


def test_the_standing_before_the_game_is_read_from_the_history(
    client_for: ClientFor,
    club: Club,
    checked: RatingList,
    entry_players: dict[str, Player],
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    """Once rated, a player's standing is their last history row up to the
    game's date: an older game is judged from the ratings of its day."""
    from ratings.predictions import standing
    from ratings.recompute import recompute_list
    from ratings.services import GameRow, save_sheet

    alice, dan = entry_players["alice"], entry_players["dan"]
    day = timezone.localdate() - timedelta(days=5)
    save_sheet(club=club, date=day, rows=[GameRow(white=alice, black=dan, winner="white")])
    recompute_list(checked.pk, full=True)
    row = alice.history.filter(system="sagc").get()
    now = standing("sagc", alice, -5, day)
    assert (now.rank, now.rating) == (row.rank_after, row.rating_after) != (-5.0, 0.0)
    before = standing("sagc", alice, -5, day - timedelta(days=1))
    assert (before.rank, before.rating) == (-5.0, 0.0)  # before it: the start  # before it: the start
