"""A correction and a game added to a saved sheet get every check of a new
sheet (ratings/entry/confirmation.py): a repeated game ("Save anyway"), an
improbable result and a handicap off the rule (the tick), in that order; a
correction names players of the list through the entry's type-ahead, and
its optional reason is kept in the log.

The figures are those of tests/site/test_improbable_entry.py (SAGC, no game
rated yet): Alice 5k against Dan 10k even, Black winning has 1/33 = 3.0 %;
Alice 5k against Bob 8k even is off the rule (3 stones).
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from ratings import services
from ratings.models import Club, Game, LogEntry, Player, RatingList, RecordSheet
from ratings.services import GameRow
from tests.site.entry_helpers import correction_data, improbable_tick
from tests.support import ClientFor

DAY = timezone.localdate() - timedelta(days=3)


@pytest.fixture
def sheet(club: Club, entry_players: dict[str, Player]) -> RecordSheet:
    """A saved night: Alice (W) beat Dan (B), by the rule (5 stones); Alice (W) beat Bob (B) with 3."""
    alice, bob, dan = entry_players["alice"], entry_players["bob"], entry_players["dan"]
    return services.save_sheet(
        club=club,
        date=DAY,
        rows=[
            GameRow(white=alice, black=dan, winner="white", handicap=5),
            GameRow(white=alice, black=bob, winner="white", handicap=3),
        ],
    )


def game_of(sheet: RecordSheet, black: str) -> Game:
    return sheet.games.select_related("white", "black").get(black__name=black)


def edit(client: Any, game: Game, **changes: Any) -> Any:
    return client.post(reverse("game_edit", args=[game.pk]), correction_data(game, **changes))


# --- corrections: the type-ahead and the reason ----------------------------------


def test_the_correction_page_offers_the_entry_type_ahead_not_a_drop_down(
    client_for: ClientFor, sheet: RecordSheet
) -> None:
    page = (
        client_for("volunteer")
        .get(reverse("game_edit", args=[game_of(sheet, "Dan Kyu").pk]))
        .content.decode()
    )
    players = re.search(r'<div class="players">.*?</div>\s*</div>\s*</div>', page, re.S)
    assert players is not None and "<select" not in players.group(0)
    assert re.search(
        r'<input type="text" name="black" id="id_black" value="Dan Kyu"\s+list="players-list"', page
    )
    assert '<option value="Zoë Müller">' in page  # the datalist of the list's players, as at entry
    assert "✓ 10k" in page  # the players as saved, with their rank
    assert 'hx-get="/sheets/new/player-check/"' in page


def test_the_name_check_of_a_correction_offers_players_never_a_new_one(
    client_for: ClientFor, club: Club, sheet: RecordSheet
) -> None:
    client = client_for("volunteer")
    url = reverse("sheet_player_check")
    known = client.get(url, {"field": "black", "black": "dan kyu", "club": str(club.pk)}).content.decode()
    assert "✓ 10k" in known
    near = client.get(url, {"field": "black", "black": "Zoe Muller", "club": str(club.pk)}).content.decode()
    assert "Did you mean" in near and 'data-name="Zoë Müller"' in near
    assert "starting rank" not in near and "different person" not in near
    unknown = client.get(
        url, {"field": "black", "black": "Nobody Here", "club": str(club.pk)}
    ).content.decode()
    assert (
        "Nobody Here is not a player of South African Go Clubs" in unknown and "starting rank" not in unknown
    )


def test_a_player_is_corrected_by_typing_their_name_in_any_case(
    client_for: ClientFor, sheet: RecordSheet, entry_players: dict[str, Player]
) -> None:
    game = game_of(sheet, "Bob Smit")
    response = edit(client_for("volunteer"), game, black="zoë müller", handicap=0, komi="6.5", winner="black")
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.black == entry_players["zoe"]
    assert LogEntry.objects.get(action="edit").changes["black"] == ["Bob Smit", "Zoë Müller"]


def test_a_name_not_of_the_list_is_refused_with_did_you_mean(
    client_for: ClientFor, sheet: RecordSheet
) -> None:
    game = game_of(sheet, "Bob Smit")
    response = edit(client_for("volunteer"), game, black="Zoe Muller")
    assert response.status_code == 400
    message = str(response.context["form"].errors["black"])
    assert "Zoe Muller is not a player of South African Go Clubs: did you mean Zoë Müller, 5k" in message
    assert 'data-name="Zoë Müller"' in response.content.decode()
    assert game_of(sheet, "Bob Smit").pk == game.pk  # unchanged
    assert not LogEntry.objects.filter(action="edit").exists()


def test_the_reason_of_a_correction_is_kept_in_the_log(client_for: ClientFor, sheet: RecordSheet) -> None:
    game = game_of(sheet, "Bob Smit")
    response = edit(client_for("volunteer"), game, comments="board 3", reason="comment missed")
    assert response.status_code == 302
    entry = LogEntry.objects.get(action="edit")
    assert entry.summary.endswith("(comment missed)")
    assert entry.changes == {"comments": ["", "board 3"]}  # the reason is not a field of the game
    log = client_for("anonymous").get(reverse("log")).content.decode()
    assert "(comment missed)" in log


# --- corrections: every check of a new sheet -----------------------------------


def test_a_correction_to_an_improbable_result_asks_then_saves_flagged(
    client_for: ClientFor, sheet: RecordSheet, checked: RatingList
) -> None:
    client = client_for("volunteer")
    game = game_of(sheet, "Dan Kyu")
    swapped = {"handicap": 0, "komi": "6.5", "winner": "black"}  # 5k v 10k even, Black won: 3.0 %
    first = edit(client, game, **swapped)
    assert first.status_code == 200
    page = first.content.decode()
    assert "only a 3.0 % chance" in page and "swapped winner is the commonest mistake" in page
    game.refresh_from_db()
    assert (game.winner, game.handicap) == ("white", 5)  # nothing saved yet
    second = client.post(
        reverse("game_edit", args=[game.pk]),
        {**correction_data(game, **swapped), "confirm_improbable": improbable_tick(first)},
    )
    assert second.status_code == 302
    game.refresh_from_db()
    assert game.winner == "black"
    assert game.flagged == "result given 3.0 %; handicap: 0 stones given, the rule gives 5"


def test_a_correction_off_the_handicap_rule_asks(
    client_for: ClientFor, sheet: RecordSheet, checked: RatingList
) -> None:
    game = game_of(sheet, "Bob Smit")
    response = edit(client_for("volunteer"), game, handicap=0, komi="6.5")
    assert response.status_code == 200
    assert "0 stones given, the rule gives 3" in response.content.decode()
    assert "only a" not in response.content.decode()  # White winning is likely
    game.refresh_from_db()
    assert game.handicap == 3


def test_a_correction_back_to_a_probable_result_clears_the_flag(
    client_for: ClientFor, sheet: RecordSheet, checked: RatingList
) -> None:
    game = game_of(sheet, "Dan Kyu")
    Game.objects.filter(pk=game.pk).update(flagged="result given 3.0 %", handicap=0, komi=6.5, winner="black")
    game.refresh_from_db()
    response = edit(client_for("volunteer"), game, winner="white", handicap=5, komi="0.5", reason="typo")
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.flagged == ""


def test_a_correction_that_leaves_the_result_alone_is_not_asked_again(
    client_for: ClientFor, sheet: RecordSheet, checked: RatingList
) -> None:
    game = game_of(sheet, "Dan Kyu")
    Game.objects.filter(pk=game.pk).update(flagged="result given 3.0 %", handicap=0, winner="black")
    game.refresh_from_db()
    response = edit(client_for("volunteer"), game, comments="board 2")
    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.comments, game.flagged) == ("board 2", "result given 3.0 %")


def test_a_correction_that_makes_a_repeat_asks_save_anyway(client_for: ClientFor, sheet: RecordSheet) -> None:
    client = client_for("volunteer")
    game = game_of(sheet, "Bob Smit")  # Alice v Bob; the other game is Alice v Dan, same night
    first = edit(client, game, black="Dan Kyu", handicap=5)
    assert first.status_code == 200
    page = first.content.decode()
    assert "the corrected game repeats games already entered" in page
    assert "Alice Mokoena (W) v Dan Kyu (B)" in page and 'name="save_anyway"' in page
    assert game_of(sheet, "Bob Smit").pk == game.pk
    second = client.post(
        reverse("game_edit", args=[game.pk]),
        {**correction_data(game, black="Dan Kyu", handicap=5), "save_anyway": "1"},
    )
    assert second.status_code == 302
    assert sheet.games.filter(black__name="Dan Kyu").count() == 2


def test_a_game_is_never_a_repeat_of_itself(client_for: ClientFor, sheet: RecordSheet) -> None:
    game = game_of(sheet, "Bob Smit")
    response = edit(
        client_for("volunteer"),
        game,
        black="bob smit",
        date=(DAY - timedelta(days=0)).isoformat(),
        komi="1.5",
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert str(game.komi) == "1.5"


# --- a game added to a saved sheet ----------------------------------------------


def add(client: Any, sheet: RecordSheet, row: dict[str, str], confirm: dict[str, str] | None = None) -> Any:
    """Post one game to "Add a game" (``confirm``: the confirmations, not row fields)."""
    values = {"handicap": "0", "komi": "", "winner": "white", **row}
    data = {f"row-0-{k}": v for k, v in values.items()}
    return client.post(reverse("sheet_add_game", args=[sheet.pk]), {**data, **(confirm or {})})


def test_an_added_game_that_repeats_one_of_the_sheet_asks_save_anyway(
    client_for: ClientFor, sheet: RecordSheet
) -> None:
    client = client_for("volunteer")
    row = {"white": "Alice Mokoena", "black": "Bob Smit", "handicap": "3", "komi": "0.5"}
    first = add(client, sheet, row)
    assert first.status_code == 200
    assert "this game repeats games already entered" in first.content.decode()
    assert sheet.games.count() == 2
    assert add(client, sheet, row, {"save_anyway": "1"}).status_code == 302
    assert sheet.games.count() == 3


def test_an_added_improbable_game_asks_then_saves_flagged(
    client_for: ClientFor, sheet: RecordSheet, checked: RatingList
) -> None:
    client = client_for("volunteer")
    row = {"white": "Alice Mokoena", "black": "Zoë Müller", "handicap": "0", "komi": "6.5"}
    by_the_rule = add(client, sheet, row)  # two 5k even: nothing to ask
    assert by_the_rule.status_code == 302
    upset = {"white": "Zoë Müller", "black": "Dan Kyu", "komi": "6.5", "winner": "black"}
    first = add(client, sheet, upset)
    assert first.status_code == 200
    assert "only a 3.0 % chance" in first.content.decode()
    assert sheet.games.count() == 3
    second = add(client, sheet, upset, {"confirm_improbable": improbable_tick(first)})
    assert second.status_code == 302
    added = sheet.games.order_by("-pk").first()
    assert added is not None and added.black.name == "Dan Kyu"
    assert added.flagged == "result given 3.0 %; handicap: 0 stones given, the rule gives 5"
    assert sheet.games.exclude(pk=added.pk).filter(flagged="").count() == 3


def test_an_added_game_off_the_handicap_rule_asks(
    client_for: ClientFor, sheet: RecordSheet, checked: RatingList
) -> None:
    response = add(
        client_for("volunteer"), sheet, {"white": "Zoë Müller", "black": "Bob Smit", "komi": "6.5"}
    )
    assert response.status_code == 200
    assert "0 stones given, the rule gives 3" in response.content.decode()
    assert sheet.games.count() == 2


def test_a_repeat_is_asked_first_then_the_improbable_result_keeping_the_save_anyway(
    client_for: ClientFor, sheet: RecordSheet, checked: RatingList
) -> None:
    client = client_for("volunteer")
    upset = {"white": "Alice Mokoena", "black": "Dan Kyu", "komi": "6.5", "winner": "black"}  # and a repeat
    first = add(client, sheet, upset)
    assert "this game repeats" in first.content.decode() and "only a" not in first.content.decode()
    second = add(client, sheet, upset, {"save_anyway": "1"})
    page = second.content.decode()
    assert second.status_code == 200 and "only a 3.0 % chance" in page
    assert '<input type="hidden" name="save_anyway" value="1">' in page  # the repeat stays confirmed
    third = add(client, sheet, upset, {"save_anyway": "1", "confirm_improbable": improbable_tick(second)})
    assert third.status_code == 302 and sheet.games.count() == 3


def test_a_corrected_game_is_judged_without_its_own_first_result(
    client_for: ClientFor, sheet: RecordSheet, checked: RatingList
) -> None:
    """Once rated, Dan's standing after losing this very game is lower than
    10k; the correction is judged from what was known before the game: 3.0 %."""
    from ratings.models import HistoryEntry, ListEvaluation
    from ratings.recompute import recompute_list

    recompute_list(checked.pk, full=True)
    ListEvaluation.objects.all().delete()  # the prior's curve, as before: only the standings changed
    game = game_of(sheet, "Dan Kyu")

    assert (
        HistoryEntry.objects.filter(game=game, system="sagc", player__name="Dan Kyu")
        .exclude(change=0)
        .exists()
    )
    response = edit(client_for("volunteer"), game, handicap=0, komi="6.5", winner="black")
    assert "only a 3.0 % chance" in response.content.decode()
