"""A sheet entered twice is caught, the club's recent
sheets, a forgotten game added to a saved sheet, a whole sheet deleted
(one recompute, logged) and restored from the log."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from django.urls import reverse

from ratings import services
from ratings.models import Club, Game, HistoryEntry, LogEntry, Player, RatingList, RecordSheet
from ratings.recompute import recompute_list
from ratings.services import GameRow, sheet_changes
from tests.support import SHEET_URL as URL
from tests.support import ClientFor, MakePlayer, Personas, sheet_data

NIGHT = date.today() - timedelta(days=2)


@pytest.fixture
def players(make_player: MakePlayer) -> dict[str, Player]:
    return {
        "alice": make_player("Alice Mokoena", rank=-5, since=date(2020, 1, 1)),
        "bob": make_player("Bob Smit", rank=-8, since=date(2020, 1, 1)),
        "chen": make_player("Chen Wei", rank=-12, since=date(2020, 1, 1)),
    }


@pytest.fixture
def saved(club: Club, players: dict[str, Player], personas: Personas) -> RecordSheet:
    """A sheet of NIGHT at the club, entered by the volunteer: Alice v Bob, Bob v Chen."""
    a, b, c = players.values()
    return services.save_sheet(
        club=club,
        date=NIGHT,
        event="Tuesday",
        rows=[
            GameRow(white=a, black=b, winner="white"),
            GameRow(white=b, black=c, winner="black", handicap=3),
        ],
        actor=personas["volunteer"],
    )


def night(club: Club, rows: list[dict[str, str]], **header: Any) -> dict[str, str]:
    return sheet_data(club, rows, **{"date": NIGHT.isoformat(), **header})


AB = {"white": "Alice Mokoena", "black": "Bob Smit", "winner": "white"}
CA = {"white": "Chen Wei", "black": "Alice Mokoena", "winner": "black"}


def test_a_sheet_repeating_saved_games_is_warned_about_and_not_saved(
    client_for: ClientFor, club: Club, saved: RecordSheet
) -> None:
    response = client_for("volunteer").post(URL, night(club, [CA, AB]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "repeats games already entered" in html
    assert "Game 2: " in html and "Game 1: " not in html
    assert f'href="/sheets/{saved.pk}/"' in html and 'name="save_anyway"' in html
    assert RecordSheet.objects.count() == 1
    assert 'value="Chen Wei"' in html  # what was typed is kept


def test_save_anyway_saves_the_sheet(client_for: ClientFor, club: Club, saved: RecordSheet) -> None:
    response = client_for("volunteer").post(URL, {**night(club, [CA, AB]), "save_anyway": "1"})
    assert response.status_code == 302
    assert RecordSheet.objects.count() == 2 and Game.objects.count() == 4


def test_each_saved_game_answers_for_one_repeat_only(
    club: Club, players: dict[str, Player], saved: RecordSheet
) -> None:
    a, b, _ = players.values()
    rows = [GameRow(white=a, black=b, winner="white"), GameRow(white=a, black=b, winner="black")]
    repeats = sheet_changes.repeated_games(club, NIGHT, rows)
    assert [position for position, _ in repeats] == [1]


def test_other_dates_clubs_and_colours_are_no_repeats(
    client_for: ClientFor, club: Club, other_club: Club, saved: RecordSheet
) -> None:
    client = client_for("volunteer")
    other_day = night(club, [AB], date=(NIGHT - timedelta(days=1)).isoformat())
    assert client.post(URL, other_day).status_code == 302
    swapped = night(club, [{"white": "Bob Smit", "black": "Alice Mokoena", "winner": "white"}])
    assert client.post(URL, swapped).status_code == 302
    at_other_club = night(other_club, [AB])
    assert client_for("committee").post(URL, at_other_club).status_code == 302
    # A game dated on its row counts on that date.
    moved = night(club, [{**AB, "date": (NIGHT - timedelta(days=1)).isoformat()}])
    assert "repeats games" in client.post(URL, moved).content.decode()


def test_the_entry_page_and_the_club_page_list_the_clubs_recent_sheets(
    client_for: ClientFor, club: Club, saved: RecordSheet
) -> None:
    for url in (URL, reverse("club", args=[club.slug])):
        html = client_for("volunteer").get(url).content.decode()
        table = html.split('class="data recent-sheets"')[1].split("</table>")[0]
        assert f'href="/sheets/{saved.pk}/">{NIGHT:%Y-%m-%d}</a>' in table
        assert '<td class="num">2</td><td>volunteer</td>' in table


def test_a_forgotten_game_is_added_to_the_saved_sheet(
    client_for: ClientFor, club: Club, saved: RecordSheet
) -> None:
    client = client_for("volunteer")
    url = reverse("sheet_add_game", args=[saved.pk])
    assert client.get(url).status_code == 200
    before = RatingList.objects.get().dirty_generation
    data = {f"row-0-{k}": v for k, v in {**CA, "handicap": "0", "komi": "", "kind": "free"}.items()}
    response = client.post(url, data)
    assert response.status_code == 302 and response["Location"] == f"/sheets/{saved.pk}/"
    game = saved.games.get(white__name="Chen Wei")
    assert (game.date, game.kind, game.winner) == (NIGHT, "free", "black")
    assert LogEntry.objects.filter(game=game, sheet=saved, action="add").exists()
    assert RatingList.objects.get().dirty_generation == before + 1


def test_a_bad_added_game_is_named_and_nothing_is_saved(
    client_for: ClientFor, club: Club, saved: RecordSheet
) -> None:
    data = {
        "row-0-white": "Chen Wei",
        "row-0-black": "Nobody Known",
        "row-0-handicap": "0",
        "row-0-winner": "",
    }
    response = client_for("volunteer").post(reverse("sheet_add_game", args=[saved.pk]), data)
    assert response.status_code == 400
    assert "choose the winner" in response.content.decode()
    assert saved.games.count() == 2


def test_deleting_a_sheet_removes_its_games_marks_the_list_once_and_logs_it(
    client_for: ClientFor, club: Club, saved: RecordSheet
) -> None:
    client = client_for("volunteer")
    assert "Delete the sheet" in client.get(reverse("sheet_delete", args=[saved.pk])).content.decode()
    before = RatingList.objects.get()
    response = client.post(reverse("sheet_delete", args=[saved.pk]), {"reason": "entered twice"})
    assert response.status_code == 302 and response["Location"] == reverse("club", args=[club.slug])
    assert not RecordSheet.objects.exists() and not Game.objects.exists()
    after = RatingList.objects.get()
    assert after.dirty_generation == before.dirty_generation + 1
    assert after.dirty_from == NIGHT
    entry = LogEntry.objects.get(action="delete")
    assert "(2 games) (entered twice)" in entry.summary
    assert sorted(p.name for p in entry.players.all()) == ["Alice Mokoena", "Bob Smit", "Chen Wei"]
    assert len(entry.changes["deleted_sheet"]["games"]) == 2


def test_a_deleted_sheet_is_restored_from_the_log_once(
    client_for: ClientFor, club: Club, saved: RecordSheet
) -> None:
    games_before = sorted(
        saved.games.values_list("date", "white__name", "black__name", "winner", "handicap", "komi", "kind")
    )
    client = client_for("volunteer")
    client.post(reverse("sheet_delete", args=[saved.pk]))
    entry = LogEntry.objects.get(action="delete")
    log = client.get(reverse("log")).content.decode()
    assert reverse("sheet_restore", args=[entry.pk]) in log
    response = client.post(reverse("sheet_restore", args=[entry.pk]))
    restored = RecordSheet.objects.get()
    assert response["Location"] == f"/sheets/{restored.pk}/"
    assert (restored.event, restored.date, restored.club) == ("Tuesday", NIGHT, club)
    games_after = sorted(
        restored.games.values_list("date", "white__name", "black__name", "winner", "handicap", "komi", "kind")
    )
    assert games_after == games_before
    entry.refresh_from_db()
    assert entry.changes["restored_as"] == restored.pk
    again = client.post(reverse("sheet_restore", args=[entry.pk]), follow=True)
    assert "restored already" in again.content.decode()
    assert RecordSheet.objects.count() == 1


def test_delete_then_restore_gives_back_the_same_history(
    club: Club, saved: RecordSheet, personas: Personas
) -> None:
    def history() -> list[tuple[str, str, float, float]]:
        recompute_list(club.rating_list_id, full=True)
        return list(
            HistoryEntry.objects.order_by("player__name", "system", "game__date").values_list(
                "player__name", "system", "rank_after", "rating_after"
            )
        )

    before = history()
    assert before
    entry = sheet_changes.delete_sheet(saved, actor=personas["volunteer"])
    assert history() == []
    sheet_changes.restore_sheet(entry, actor=personas["volunteer"])
    assert history() == before


def test_only_who_enters_at_the_club_may_restore(
    client_for: ClientFor, club: Club, saved: RecordSheet
) -> None:
    sheet_changes.delete_sheet(saved)
    entry = LogEntry.objects.get(action="delete")
    assert client_for("player").post(reverse("sheet_restore", args=[entry.pk])).status_code == 403
    assert not RecordSheet.objects.exists()
    other = LogEntry.objects.filter(action="add").first()
    assert other is not None
    assert client_for("volunteer").post(reverse("sheet_restore", args=[other.pk])).status_code == 404
