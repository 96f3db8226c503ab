"""A tournament upload in the browser is previewed before anything is saved:
players matched (and how), new players (and the rank they start
at), the games, the skipped lines; "Save these N games" then saves exactly
what was shown, re-running the import all or nothing."""

from __future__ import annotations

import html
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import time_machine
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from ratings import committee
from ratings.committee import tournament_import
from ratings.models import Club, Game, ImportPreview, LogEntry, Player, RecordSheet
from tests.support import ClientFor, MakePlayer

if TYPE_CHECKING:
    from tests.support import TestResponse

#: Our own file: five players, five games (one won by default, line 10 round 2),
#: an unknown result (lines 9 and 11, round 2) and a player without a game (line 12).
CUP = (Path(__file__).parent.parent / "data" / "preview-club-cup.h9").read_bytes()


@pytest.fixture
def known(make_player: MakePlayer) -> dict[str, Player]:
    """Two players of the list the file holds: one by EGD PIN (another spelling), one by name."""
    return {
        "jon": make_player("Jon Smith", rank=2, egd_pin="12345678"),
        "mary": make_player("Mary Brown", rank=-12),
    }


def state() -> tuple[int, int, int, int]:
    return RecordSheet.objects.count(), Game.objects.count(), Player.objects.count(), LogEntry.objects.count()


def upload(client: Client, club: Club, data: bytes = CUP, name: str = "club-cup.h9") -> TestResponse:
    return client.post(
        reverse("tournament_import"), {"file": SimpleUploadedFile(name, data), "club": club.pk, "format": ""}
    )


def page_of(response: TestResponse) -> str:
    return html.unescape(response.content.decode())


def table(page: str, css: str) -> str:
    return page.split(f'<table class="data {css}">')[1].split("</table>")[0]


def test_an_upload_shows_the_preview_and_saves_nothing(
    client_for: ClientFor, club: Club, known: dict[str, Player]
) -> None:
    client = client_for("committee")
    before = state()
    response = upload(client, club)
    preview = ImportPreview.objects.get()
    assert response.status_code == 302 and response["Location"] == preview.get_absolute_url()
    assert state() == before
    assert (bytes(preview.data), preview.format, preview.filename, preview.club) == (
        CUP,
        "h9",
        "club-cup.h9",
        club,
    )
    page = page_of(client.get(preview.get_absolute_url()))
    assert "Nothing is saved yet." in page and "Save these 5 games" in page
    assert "5 games (1 won by default: kept, not rated); 2 players matched, 2 new; 5 lines skipped." in page
    matched = table(page, "matched")
    assert "<td>Smith John</td><td>Jon Smith</td><td>national id (EGD PIN)</td>" in matched
    assert "<td>Brown Mary</td><td>Mary Brown</td><td>name</td>" in matched
    created = table(page, "created")
    assert '<td class="num">10</td><td>Green Tom</td><td>5k</td>' in created
    assert '<td class="num">11</td><td>White Anna</td><td>2k</td><td>EGD PIN 23456789</td>' in created
    games = table(page, "games")
    # Round 2, line 10 '1+/w0!': Green Tom had White and won by default.
    assert "<td>Green Tom</td><td>Jon Smith</td>" in games and "white (by default)" in games
    assert games.count("<tr>") == 1 + 5
    assert "line 12: Black Bob has no game" in page
    assert "unknown result ('?') between players 2 and 4 (lines 9 and 11)" in page
    assert state() == before


def test_saving_the_preview_saves_exactly_what_it_showed(
    client_for: ClientFor, club: Club, known: dict[str, Player]
) -> None:
    client = client_for("committee")
    upload(client, club)
    response = client.post(ImportPreview.objects.get().get_absolute_url())
    sheet = RecordSheet.objects.get()
    assert response.status_code == 302 and response["Location"] == sheet.get_absolute_url()
    assert not ImportPreview.objects.exists()
    assert (sheet.event, sheet.date.isoformat(), sheet.games.count()) == (
        "Guildford Club Cup",
        "2024-05-04",
        5,
    )
    players = {name for pair in sheet.games.values_list("white__name", "black__name") for name in pair}
    assert players == {"Jon Smith", "Mary Brown", "Green Tom", "White Anna"}
    assert Player.objects.get(name="White Anna").egd_pin == "23456789"
    assert Player.objects.get(name="Green Tom").rank == -5
    assert sheet.games.filter(forfeit=True).count() == 1


def test_a_player_created_in_between_is_caught_and_the_new_preview_shown(
    client_for: ClientFor, club: Club, known: dict[str, Player], make_player: MakePlayer
) -> None:
    client = client_for("committee")
    upload(client, club)
    preview = ImportPreview.objects.get()
    tom = make_player("Tom Green", rank=-6)  # entered at a club evening meanwhile
    before = state()
    response = client.post(preview.get_absolute_url())
    assert response.status_code == 409 and state() == before
    page = page_of(response)
    assert "Nothing was saved." in page and "changed since this preview was made" in page
    assert "<td>Green Tom</td><td>Tom Green</td><td>name</td>" in table(page, "matched")
    assert "Green Tom" not in table(page, "created")
    # Confirmed again, the new preview is saved: Tom's games are his.
    assert client.post(preview.get_absolute_url()).status_code == 302
    assert Game.objects.filter(white=tom).count() + Game.objects.filter(black=tom).count() == 3
    assert not Player.objects.filter(name="Green Tom").exists()


def test_a_preview_is_saved_once(client_for: ClientFor, club: Club, known: dict[str, Player]) -> None:
    client = client_for("committee")
    upload(client, club)
    url = ImportPreview.objects.get().get_absolute_url()
    assert client.post(url).status_code == 302
    before = state()
    response = client.post(url)
    assert response.status_code == 404 and state() == before


def test_the_same_file_imported_in_between_is_refused_at_saving(
    client_for: ClientFor, club: Club, known: dict[str, Player]
) -> None:
    client = client_for("committee")
    upload(client, club)
    preview = ImportPreview.objects.get()
    committee.import_tournament(club, CUP, filename="club-cup.h9")
    before = state()
    response = client.post(preview.get_absolute_url())
    assert response.status_code == 400 and state() == before
    assert "was already imported" in page_of(response)


def test_a_refused_file_keeps_nothing(client_for: ClientFor, club: Club, known: dict[str, Player]) -> None:
    response = upload(client_for("committee"), club, CUP.replace(b"DT[2024-05-04]", b"DT[2024-13-45]"))
    assert response.status_code == 400 and "club-cup.h9: " in page_of(response)
    assert not ImportPreview.objects.exists()


def test_a_preview_a_day_old_is_discarded(
    client_for: ClientFor, club: Club, known: dict[str, Player]
) -> None:
    client = client_for("committee")
    upload(client, club)
    url = ImportPreview.objects.get().get_absolute_url()
    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1)):
        response = client.post(url)
        assert response.status_code == 302 and response["Location"] == reverse("tournament_import")
        assert "more than a day old" in page_of(client.get(reverse("tournament_import")))
    assert not ImportPreview.objects.exists() and not RecordSheet.objects.exists()


def test_each_upload_deletes_the_previews_older_than_a_day(
    client_for: ClientFor, club: Club, known: dict[str, Player]
) -> None:
    client = client_for("committee")
    upload(client, club)
    old = ImportPreview.objects.get()
    with time_machine.travel(timezone.now() + timedelta(days=2)):
        upload(client, club)
    assert list(ImportPreview.objects.values_list("pk", flat=True)) != [old.pk]
    assert ImportPreview.objects.count() == 1


def test_the_preview_shows_the_first_games_and_counts_the_others(
    client_for: ClientFor, club: Club, known: dict[str, Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tournament_import, "GAMES_PREVIEWED", 2)
    client = client_for("committee")
    upload(client, club)
    preview = ImportPreview.objects.get()
    page = page_of(client.get(preview.get_absolute_url()))
    assert table(page, "games").count("<tr>") == 1 + 2 + 1 and "and 3 more" in page
    client.post(preview.get_absolute_url())
    assert Game.objects.count() == 5


@pytest.mark.parametrize("who", ["volunteer_b", "committee_2"])
def test_no_one_outside_the_lists_committee_sees_or_saves_its_preview(
    who: str, client_for: ClientFor, outsiders: dict[str, User], club: Club, known: dict[str, Player]
) -> None:
    upload(client_for("committee"), club)
    url = ImportPreview.objects.get().get_absolute_url()
    client = Client()
    client.force_login(outsiders[who])
    assert client.get(url).status_code == 403
    assert client.post(url).status_code == 403
    assert not RecordSheet.objects.exists() and ImportPreview.objects.count() == 1


def test_the_preview_shows_a_new_player_alike_one_of_the_list(
    client_for: ClientFor, club: Club, known: dict[str, Player], make_player: MakePlayer
) -> None:
    """ratings.names: "Green Tom" in the file, Tom Greene in the list: new, but shown beside him."""
    make_player("Tom Greene", rank=-5)
    client = client_for("committee")
    upload(client, club)
    page = page_of(client.get(ImportPreview.objects.get().get_absolute_url()))
    created = table(page, "created")
    green = created.split('<td class="num">10</td>')[1].split("</tr>")[0]
    assert "<td>Green Tom</td>" in green and "<td>Tom Greene, 5k, Stellenbosch Go Club</td>" in green
    anna = created.split('<td class="num">11</td>')[1].split("</tr>")[0]
    assert '<span class="hint">–</span></td>' in anna and "Greene" not in anna
    assert '<tr class="alike"><td class="num">10</td>' in created
