"""Record-sheet entry: /sheets/new/ and its htmx helpers, and the saved sheet."""

from __future__ import annotations

import re
from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from ratings.models import Club, Game, LogEntry, Player, RecordSheet
from tests.support import SHEET_URL as URL
from tests.support import ClientFor, MakePlayer, Personas, make_pool, refused_as, sheet_data, volunteer_of


@pytest.fixture
def players(make_player: MakePlayer) -> dict[str, Player]:
    return {
        "alice": make_player("Alice Mokoena", rank=-5),
        "bob": make_player("Bob Smit", rank=-8),
        "late": make_player("Late Comer", rank=-12, since=date(2024, 3, 1)),
    }


def test_it_shows_an_empty_sheet_with_todays_date_one_row_and_the_club_players(
    client_for: ClientFor, club: Club, players: dict[str, Player]
) -> None:
    response = client_for("volunteer").get(URL)
    assert response.status_code == 200
    html = response.content.decode()
    assert f'value="{timezone.localdate().isoformat()}"' in html
    assert html.count('class="game-row') == 1
    assert '<option value="Alice Mokoena">5k</option>' in html
    assert 'hx-get="/sheets/new/row/"' in html


def test_it_saves_the_games_and_lands_on_the_saved_sheet(
    client_for: ClientFor, club: Club, players: dict[str, Player]
) -> None:
    data = sheet_data(
        club,
        [
            {"white": "alice mokoena", "black": "Bob Smit", "winner": "white"},
            {
                "white": "Bob Smit",
                "black": "Alice Mokoena",
                "handicap": "3",
                "winner": "black",
                "comments": "close",
            },
            {},  # an untouched row is ignored
        ],
    )
    response = client_for("volunteer").post(URL, data)
    sheet = RecordSheet.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/sheets/{sheet.pk}/"
    games = list(sheet.games.order_by("id"))
    assert [(g.white, g.black, g.handicap, g.komi, g.winner) for g in games] == [
        (players["alice"], players["bob"], 0, Decimal("6.5"), "white"),
        (players["bob"], players["alice"], 3, Decimal("0.5"), "black"),
    ]
    assert games[1].comments == "close"
    assert (
        sheet.event == "Tuesday club night"
        and sheet.entered_by is not None
        and sheet.entered_by.username == "volunteer"
    )
    assert LogEntry.objects.filter(action="add").count() == 2


def test_it_creates_a_new_player_typed_with_a_starting_rank(
    client_for: ClientFor, club: Club, players: dict[str, Player]
) -> None:
    data = sheet_data(
        club, [{"white": "Alice Mokoena", "black": "Thabo New", "black_rank": "18k", "winner": "black"}]
    )
    response = client_for("volunteer").post(URL, data)
    assert response.status_code == 302
    thabo = Player.objects.get(name="Thabo New")
    assert (thabo.start_rank, thabo.rating_list, thabo.home_club, thabo.since) == (
        -18,
        club.rating_list,
        club,
        timezone.localdate() - timedelta(days=1),
    )


def test_an_unknown_name_without_a_rank_is_refused_and_reveals_the_rank_field(
    client_for: ClientFor, club: Club, players: dict[str, Player]
) -> None:
    data = sheet_data(club, [{"white": "Alice Mokoena", "black": "Nobody Known", "winner": "black"}])
    response = client_for("volunteer").post(URL, data)
    assert response.status_code == 400
    html = response.content.decode()
    assert (
        "Game 1, Black:</strong></a> unknown player: Nobody Known is not a player of South African Go Clubs"
        in html
    )
    assert 'name="row-0-black_rank"' in html
    assert not Player.objects.filter(name="Nobody Known").exists()


def test_a_bad_starting_rank_is_named(client_for: ClientFor, club: Club, players: dict[str, Player]) -> None:
    data = sheet_data(
        club, [{"white": "Alice Mokoena", "black": "Nobody", "black_rank": "11x", "winner": "black"}]
    )
    html = client_for("volunteer").post(URL, data).content.decode()
    assert "Game 1, Black&#x27;s starting rank:</strong></a> not a rank: &#x27;11x&#x27;" in html


@pytest.mark.parametrize(
    ("row", "where", "message"),
    [
        (
            {"white": "Alice Mokoena", "black": "alice mokoena", "winner": "white"},
            "Black",
            "cannot play both",
        ),
        (
            {"white": "Alice Mokoena", "black": "Bob Smit", "winner": "white", "handicap": "10"},
            "Handicap",
            "0 to 9",
        ),
        (
            {"white": "Alice Mokoena", "black": "Bob Smit", "winner": "white", "handicap": "-1"},
            "Handicap",
            "0 to 9",
        ),
        (
            {"white": "Alice Mokoena", "black": "Bob Smit", "winner": "white", "komi": "150"},
            "Komi",
            "komi must be",
        ),
        (
            {"white": "Alice Mokoena", "black": "Bob Smit", "winner": "white", "komi": "6.3"},
            "Komi",
            "half points",
        ),
        ({"white": "Alice Mokoena", "black": "Bob Smit", "winner": ""}, "Winner", "choose the winner"),
        (
            {"white": "Alice Mokoena", "black": "Bob Smit", "winner": "white", "date": "2099-01-01"},
            "Date",
            "in the future",
        ),
        (
            {"white": "Late Comer", "black": "Bob Smit", "winner": "white", "date": "2024-02-01"},
            "White",
            "joined on 2024-03-01",
        ),
        ({"white": "", "black": "Bob Smit", "winner": "white"}, "White", "give White"),
    ],
)
def test_a_bad_row_is_named_by_row_and_field_and_nothing_is_saved(
    client_for: ClientFor,
    club: Club,
    players: dict[str, Player],
    row: dict[str, str],
    where: str,
    message: str,
) -> None:
    good = {"white": "Alice Mokoena", "black": "Bob Smit", "winner": "white"}
    data = sheet_data(club, [good, row])
    response = client_for("volunteer").post(URL, data)
    assert response.status_code == 400
    html = response.content.decode()
    assert f"<strong>Game 2, {where}:</strong>" in html
    assert message in html
    assert not Game.objects.exists() and not RecordSheet.objects.exists() and not LogEntry.objects.exists()


def test_a_sheet_dated_in_the_future_or_without_games_is_refused(
    client_for: ClientFor, club: Club, players: dict[str, Player]
) -> None:
    future = (timezone.localdate() + timedelta(days=3)).isoformat()
    html = client_for("volunteer").post(URL, sheet_data(club, [{}], date=future)).content.decode()
    assert "<strong>Sheet, Date:</strong>" in html and "in the future" in html
    assert "enter at least one game" in html
    assert not RecordSheet.objects.exists()


def test_two_rows_disagreeing_on_a_new_players_rank_are_refused(
    client_for: ClientFor, club: Club, players: dict[str, Player]
) -> None:
    data = sheet_data(
        club,
        [
            {"white": "Alice Mokoena", "black": "Zed", "black_rank": "10k", "winner": "white"},
            {"white": "Bob Smit", "black": "Zed", "black_rank": "12k", "winner": "white"},
        ],
    )
    response = client_for("volunteer").post(URL, data)
    assert response.status_code == 400
    assert (
        "Game 2, Black&#x27;s starting rank:</strong></a> Zed is new with rank 10k"
        in response.content.decode()
    )
    assert not Player.objects.filter(name="Zed").exists()


def test_the_entered_values_survive_a_refused_save(
    client_for: ClientFor, club: Club, players: dict[str, Player]
) -> None:
    data = sheet_data(
        club, [{"white": "Alice Mokoena", "black": "Bob Smit", "winner": "black", "komi": "150"}]
    )
    html = client_for("volunteer").post(URL, data).content.decode()
    assert 'value="Alice Mokoena"' in html and 'value="150"' in html
    assert re.search(r'<input type="radio" name="row-0-winner" value="black"[^>]* checked>', html)


def test_the_add_a_game_button_fetches_one_numbered_row(client_for: ClientFor, club: Club) -> None:
    response = client_for("volunteer").get(reverse("sheet_row"), {"n": "7"})
    html = response.content.decode()
    assert html.count('class="game-row') == 1
    assert 'name="row-7-white"' in html and 'name="row-7-winner"' in html
    assert "<html" not in html


def test_the_player_check_confirms_a_known_name_and_asks_a_rank_for_a_new_one(
    client_for: ClientFor, club: Club, players: dict[str, Player]
) -> None:
    client = client_for("volunteer")
    url = reverse("sheet_player_check")
    known = client.get(
        url, {"field": "row-2-white", "row-2-white": "bob smit", "club": str(club.pk)}
    ).content.decode()
    assert "✓ 8k" in known and "black_rank" not in known and "white_rank" not in known
    new = client.get(
        url, {"field": "row-2-black", "row-2-black": "Someone New", "club": str(club.pk)}
    ).content.decode()
    assert 'name="row-2-black_rank"' in new
    assert client.get(url, {"field": "nonsense"}).status_code == 400


def test_the_player_list_follows_the_chosen_clubs_list(
    client_for: ClientFor,
    club: Club,
    other_club: Club,
    players: dict[str, Player],
    personas: Personas,
    make_player: MakePlayer,
) -> None:
    ladder = make_pool(name="Guildford Ladder", slug="guildford")
    make_player("Ladder Player", club=ladder)
    make_player("Cape Player", club=other_club)
    volunteer_of(personas["volunteer"], ladder)
    volunteer_of(personas["volunteer"], other_club)
    client = client_for("volunteer")
    html = client.get(reverse("sheet_players"), {"club": ladder.pk}).content.decode()
    assert "Ladder Player" in html and "Alice" not in html and "Cape Player" not in html
    # A club of the same list offers every player of the list, whatever their home club.
    for place in (club, other_club):
        html = client.get(reverse("sheet_players"), {"club": place.pk}).content.decode()
        assert "Alice Mokoena" in html and "Cape Player" in html and "Ladder Player" not in html


def test_a_sheet_at_one_club_may_hold_a_player_whose_home_is_another_club_of_the_list(
    client_for: ClientFor, club: Club, other_club: Club, players: dict[str, Player], make_player: MakePlayer
) -> None:
    visitor = make_player("Cape Visitor", rank=-6, club=other_club)
    data = sheet_data(club, [{"white": "Alice Mokoena", "black": "cape visitor", "winner": "black"}])
    assert client_for("volunteer").post(URL, data).status_code == 302
    game = Game.objects.get()
    assert (game.black, game.club, game.rating_list) == (visitor, club, club.rating_list)
    visitor.refresh_from_db()
    assert visitor.home_club == other_club  # playing elsewhere does not move the player


def test_a_player_typed_with_their_suffix_is_saved_and_shown_with_it(
    client_for: ClientFor, club: Club, players: dict[str, Player], make_player: MakePlayer
) -> None:
    make_player("Sam Dube", rank=-9)
    junior = make_player("Sam Dube", rank=-20, slug="sam-dube-jr", suffix="junior")
    data = sheet_data(club, [{"white": "Alice Mokoena", "black": "sam dube (Junior)", "winner": "black"}])
    response = client_for("volunteer").post(URL, data)
    assert response.status_code == 302
    assert Game.objects.get().black == junior
    html = client_for("anonymous").get(response["Location"]).content.decode()
    assert f'href="{junior.get_absolute_url()}" class="name">Sam Dube (junior)</a>' in html


def test_a_player_of_another_list_is_not_found_in_this_one(
    client_for: ClientFor, club: Club, players: dict[str, Player], make_player: MakePlayer
) -> None:
    make_player("Ladder Player", club=make_pool(name="Guildford Ladder", slug="guildford"))
    data = sheet_data(club, [{"white": "Alice Mokoena", "black": "Ladder Player", "winner": "black"}])
    response = client_for("volunteer").post(URL, data)
    assert response.status_code == 400
    assert "Ladder Player is not a player of South African Go Clubs" in response.content.decode()
    assert not Game.objects.exists() and Player.objects.filter(name="Ladder Player").count() == 1


def test_choosing_another_club_reloads_the_name_list(
    client_for: ClientFor, club: Club, players: dict[str, Player]
) -> None:
    html = client_for("volunteer").get(URL).content.decode()
    select = html[html.index('<select name="club"') :].split(">")[0]
    assert f'hx-get="{reverse("sheet_players")}"' in select
    assert 'hx-trigger="change"' in select and 'hx-target="#players-list"' in select


def test_a_new_sheet_starts_on_the_club_of_the_volunteers_last_sheet(
    client_for: ClientFor,
    club: Club,
    players: dict[str, Player],
    personas: Personas,
    make_player: MakePlayer,
) -> None:
    # "Aardvark" sorts first, so the old default (the first club by name) would pick it.
    other = make_pool(name="Aardvark Go Club", slug="aardvark")
    volunteer_of(personas["volunteer"], other)
    make_player("Aard Player", club=other)
    volunteer = client_for("volunteer")
    html = volunteer.get(URL).content.decode()
    assert f'<option value="{other.pk}" selected>' in html  # nothing entered yet: the first club
    volunteer.post(
        URL, sheet_data(club, [{"white": "Alice Mokoena", "black": "Bob Smit", "winner": "white"}])
    )
    html = volunteer.get(URL).content.decode()
    assert f'<option value="{club.pk}" selected>' in html
    assert '<option value="Alice Mokoena">' in html and "Aard Player" not in html


def test_the_saved_sheet_shows_its_games_and_the_rating_changes_once_computed(
    client_for: ClientFor, club: Club, players: dict[str, Player]
) -> None:
    from ratings.recompute import recompute_list

    client = client_for("volunteer")
    data = sheet_data(club, [{"white": "Alice Mokoena", "black": "Bob Smit", "winner": "black"}])
    response = client.post(URL, data, follow=True)
    html = response.content.decode()
    assert "Alice Mokoena" in html and "Bob Smit" in html and "Saved 1 game" in html
    recompute_list(club.rating_list_id, full=True)
    sheet = RecordSheet.objects.get()
    html = client.get(f"/sheets/{sheet.pk}/").content.decode()
    from ratings.models import HistoryEntry

    black = HistoryEntry.objects.get(system="sagc", player=players["bob"])
    assert black.change > 0
    assert f"+{black.change:g}" in html
    assert "being computed" not in html


def test_anyone_may_read_a_saved_sheet_but_only_volunteers_see_edit_links(
    client_for: ClientFor, club: Club, players: dict[str, Player]
) -> None:
    client_for("volunteer").post(
        URL, sheet_data(club, [{"white": "Alice Mokoena", "black": "Bob Smit", "winner": "white"}])
    )
    sheet = RecordSheet.objects.get()
    anonymous = client_for("anonymous").get(f"/sheets/{sheet.pk}/")
    assert anonymous.status_code == 200 and "Alice Mokoena" in anonymous.content.decode()
    assert "/edit/" not in anonymous.content.decode()
    assert "/edit/" in client_for("committee").get(f"/sheets/{sheet.pk}/").content.decode()


def test_a_saved_sheet_links_everyone_to_its_games_in_the_log(
    client_for: ClientFor, club: Club, players: dict[str, Player]
) -> None:
    client_for("volunteer").post(
        URL, sheet_data(club, [{"white": "Alice Mokoena", "black": "Bob Smit", "winner": "white"}])
    )
    sheet = RecordSheet.objects.get()
    day = sheet.games.get().date.isoformat()
    html = client_for("anonymous").get(f"/sheets/{sheet.pk}/").content.decode()
    assert f'href="/log/?club={club.slug}&amp;start={day}&amp;end={day}">These games in the log</a>' in html
    assert f"""href="/clubs/{club.slug}/">The club's players</a>""" in html


# --- every role against every entry view ---------------------------------------

EXPECTED: dict[str, str | int] = {"anonymous": "login", "player": 403, "volunteer": "ok", "committee": "ok"}


@pytest.mark.parametrize("role", EXPECTED)
def test_only_volunteers_and_committee_may_save_a_sheet(
    client_for: ClientFor, club: Club, players: dict[str, Player], role: str
) -> None:
    data = sheet_data(
        club, [{"white": "Alice Mokoena", "black": "New Person", "black_rank": "9k", "winner": "white"}]
    )
    response = client_for(role).post(URL, data)
    refused = refused_as(response, EXPECTED[role])
    if not refused:
        assert response.status_code == 302
    assert RecordSheet.objects.exists() == (not refused)
    assert Player.objects.filter(name="New Person").exists() == (not refused)
    assert LogEntry.objects.exists() == (not refused)
    club.rating_list.refresh_from_db()
    assert (club.rating_list.dirty_from is None) == refused


@pytest.mark.parametrize("role", EXPECTED)
def test_only_volunteers_and_committee_reach_the_entry_page_and_its_helpers(
    client_for: ClientFor, club: Club, role: str
) -> None:
    for url in (
        URL,
        reverse("sheet_row") + "?n=1",
        reverse("sheet_players") + f"?club={club.pk}",
        reverse("sheet_player_check") + "?field=row-0-white&row-0-white=x",
    ):
        response = client_for(role).get(url)
        if not refused_as(response, EXPECTED[role]):
            assert response.status_code == 200, url
