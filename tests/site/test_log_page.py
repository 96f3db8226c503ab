"""The log-file page /log/ (the SAGC FAQ: "You can then verify that the details
are correct by visiting the site and checking the log-file"): every entry,
newest first, who and when, filters by list, club (where entered), player
and date, pagination, and what an edit changed."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from ratings.models import Club, LogEntry, Player, RecordSheet
from tests.support import ClientFor, MakePlayer, make_pool


def summaries(html: str) -> list[str]:
    return re.findall(r'<td class="details">(Entry [^<\n]+)', html)


@pytest.fixture
def log(club: Club, other_club: Club, make_player: MakePlayer) -> dict[str, Any]:
    """Entries at two clubs of one list: Stellenbosch and Cape Town."""
    volunteer = User.objects.create_user("vera", password="x")
    other = other_club
    ann, bob = make_player("Ann Botha"), make_player("Bob Nel")
    zed = make_player("Zed Zulu", club=other)

    def entry(
        summary: str,
        at: datetime,
        event_date: date,
        players: list[Player],
        *,
        club: Club = club,
        action: str = "add",
        changes: dict[str, Any] | None = None,
    ) -> LogEntry:
        e = LogEntry.objects.create(
            club=club,
            at=at,
            actor=volunteer,
            action=action,
            event_date=event_date,
            summary=summary,
            changes=changes or {},
        )
        e.players.set(players)
        return e

    entry("Entry A: Ann v Bob", datetime(2024, 3, 6, 20, tzinfo=UTC), date(2024, 3, 5), [ann, bob])
    # Entered last, played first: it is the newest entry.
    entry("Entry B: Ann v Bob (late)", datetime(2024, 4, 2, 9, tzinfo=UTC), date(2024, 2, 20), [ann, bob])
    entry("Entry C: Zed alone", datetime(2024, 3, 10, 20, tzinfo=UTC), date(2024, 3, 9), [zed], club=other)
    entry(
        "Entry D: komi corrected",
        datetime(2024, 3, 7, 8, tzinfo=UTC),
        date(2024, 3, 5),
        [ann, bob],
        action="edit",
        changes={"komi": ["6.5", "7.5"]},
    )
    return {"ann": ann, "bob": bob, "zed": zed}


@pytest.mark.parametrize("role", ["anonymous", "player", "volunteer", "committee"])
def test_it_is_public(client_for: ClientFor, log: dict[str, Any], role: str) -> None:
    response = client_for(role).get(reverse("log"))
    assert response.status_code == 200
    assert len(summaries(response.content.decode())) == 4


def test_it_lists_the_newest_entry_first_by_entry_time_not_game_date(
    client: Client, log: dict[str, Any]
) -> None:
    html = client.get(reverse("log")).content.decode()
    assert [s[:7] for s in summaries(html)] == ["Entry B", "Entry C", "Entry D", "Entry A"]


def test_it_shows_who_entered_it_and_when(client: Client, log: dict[str, Any]) -> None:
    html = client.get(reverse("log")).content.decode()
    row = html[html.index("Entry B") - 600 : html.index("Entry B")]
    assert "vera" in row
    assert "2024-04-02" in row  # entered (local time is the same day)
    assert "2024-02-20" in row  # played


def test_an_edit_shows_what_changed(client: Client, log: dict[str, Any]) -> None:
    html = client.get(reverse("log")).content.decode()
    assert "<b>Komi</b>: <del>6.5</del> → <ins>7.5</ins>" in html
    assert "Edited" in html


def test_changes_are_in_words_and_a_deletion_is_its_summary_alone(
    client: Client, log: dict[str, Any], club: Club
) -> None:
    LogEntry.objects.create(
        club=club, action="edit", event_date=date(2024, 3, 5), summary="Entry E: forfeit",
        changes={"forfeit": [False, True], "minutes": [None, 45]},
    )  # fmt: skip
    LogEntry.objects.create(
        club=club, action="delete", event_date=date(2024, 3, 5), summary="Entry F: deleted",
        changes={"komi": ["6.5", None], "forfeit": [False, None]},
    )  # fmt: skip
    html = client.get(reverse("log")).content.decode()
    assert "<b>Forfeit</b>: <del>no</del> → <ins>yes</ins>" in html
    assert "<b>Minutes</b>: <del>(blank)</del> → <ins>45</ins>" in html
    deleted = html[html.index("Entry F") :].split("</tr>")[0]
    assert "<del>" not in deleted and "None" not in deleted


def test_it_filters_by_the_club_where_it_was_entered(
    client: Client, log: dict[str, Any], club: Club, make_player: MakePlayer
) -> None:
    html = client.get(reverse("log"), {"club": "cape-town"}).content.decode()
    assert [s[:7] for s in summaries(html)] == ["Entry C"]
    # Zed (at home in Cape Town) visits Stellenbosch: the entry is Stellenbosch's.
    LogEntry.objects.create(
        club=club,
        action="add",
        event_date=date(2024, 3, 12),
        summary="Entry V: Zed visits",
        at=datetime(2024, 3, 13, tzinfo=UTC),
    ).players.set([log["zed"], log["ann"]])
    html = client.get(reverse("log"), {"club": "cape-town"}).content.decode()
    assert [s[:7] for s in summaries(html)] == ["Entry C"]
    html = client.get(reverse("log"), {"club": "stellenbosch", "player": "zed"}).content.decode()
    assert [s[:7] for s in summaries(html)] == ["Entry V"]


def test_it_filters_by_list_once_the_site_has_several(client: Client, log: dict[str, Any]) -> None:
    assert 'name="list"' not in client.get(reverse("log")).content.decode()  # one list: no choice
    ladder = make_pool(name="Guildford Ladder", slug="guildford")
    LogEntry.objects.create(club=ladder, action="add", event_date=date(2024, 3, 5), summary="Entry L: ladder")
    html = client.get(reverse("log"), {"list": "guildford"}).content.decode()
    assert 'name="list"' in html and [s[:7] for s in summaries(html)] == ["Entry L"]
    html = client.get(reverse("log"), {"list": "sagc"}).content.decode()
    assert sorted(s[:7] for s in summaries(html)) == ["Entry A", "Entry B", "Entry C", "Entry D"]


@pytest.mark.parametrize("given", ["ann-botha", "botha", "ANN"])
def test_it_filters_by_player_slug_or_name(client: Client, log: dict[str, Any], given: str) -> None:
    html = client.get(reverse("log"), {"player": given}).content.decode()
    assert [s[:7] for s in summaries(html)] == ["Entry B", "Entry D", "Entry A"]


def test_it_filters_by_game_date_range(client: Client, log: dict[str, Any]) -> None:
    html = client.get(reverse("log"), {"start": "2024-03-01", "end": "2024-03-06"}).content.decode()
    assert [s[:7] for s in summaries(html)] == ["Entry D", "Entry A"]


def test_a_backwards_date_range_is_explained_not_applied(client: Client, log: dict[str, Any]) -> None:
    html = client.get(reverse("log"), {"start": "2024-05-01", "end": "2024-03-01"}).content.decode()
    assert "The &#x27;From&#x27; date is after the &#x27;To&#x27; date." in html
    assert len(summaries(html)) == 4


def test_it_links_the_players_to_their_record_sheets(client: Client, log: dict[str, Any]) -> None:
    html = client.get(reverse("log")).content.decode()
    assert f'href="{log["zed"].get_absolute_url()}">Zed Zulu</a>' in html


def test_two_players_of_the_same_name_are_told_apart_by_their_suffix(
    client: Client, club: Club, make_player: MakePlayer
) -> None:
    senior, junior = make_player("Sam Dube"), make_player("Sam Dube", slug="sam-dube-jr", suffix="junior")
    LogEntry.objects.create(
        club=club, action="add", event_date=date(2024, 3, 5), summary="Entry S: Sam v Sam"
    ).players.set([senior, junior])
    html = client.get(reverse("log")).content.decode()
    assert f'href="{senior.get_absolute_url()}">Sam Dube</a>' in html
    assert f'href="{junior.get_absolute_url()}">Sam Dube (junior)</a>' in html


def test_an_entrys_date_links_to_the_record_sheet_it_was_entered_on(
    client: Client, log: dict[str, Any], club: Club
) -> None:
    sheet = RecordSheet.objects.create(club=club, date=date(2024, 3, 5))
    LogEntry.objects.filter(summary__startswith="Entry A").update(sheet=sheet)
    html = client.get(reverse("log")).content.decode()
    row = html[: html.index("Entry A")].rsplit("<tr", 1)[1]
    assert re.search(rf'<a href="/sheets/{sheet.pk}/"[^>]*>2024-03-05</a>', row)
    other = html[: html.index("Entry B")].rsplit("<tr", 1)[1]
    assert "/sheets/" not in other


def test_it_paginates(client: Client, club: Club, make_player: MakePlayer) -> None:
    ann = make_player("Ann")
    start = datetime(2024, 1, 1, tzinfo=UTC)
    for i in range(55):
        e = LogEntry.objects.create(
            club=club,
            at=start + timedelta(hours=i),
            action="add",
            event_date=date(2024, 1, 1),
            summary=f"Entry {i:02d}",
        )
        e.players.add(ann)
    first = summaries(client.get(reverse("log")).content.decode())
    second = summaries(client.get(reverse("log"), {"page": 2}).content.decode())
    assert len(first) == 50 and first[0] == "Entry 54"
    assert second == [f"Entry {i:02d}" for i in range(4, -1, -1)]


def test_it_takes_a_fixed_number_of_queries(
    client: Client, log: dict[str, Any], django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    with django_assert_max_num_queries(7):
        assert client.get(reverse("log")).status_code == 200
