"""A list's past from another system (manage.py import_past_games): a CSV of
games with the ranks then, saved as a sheet per club and day, new players
starting at their rank at their first game; a dry run saves nothing; a bad
line is named and nothing is saved; a second import is refused."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from ratings.models import Club, Game, LogEntry, Player, RecordSheet
from tests.support import ClientFor, MakePlayer

CSV = """date,white,white_rank,black,black_rank,handicap,komi,result,kind,club
2019-03-05,Ann Lee,3k,Bo Chen,6k,3,0.5,black,club,Stellenbosch Go Club
2019-03-05,Cara Smit,1d,Ann Lee,3k,2,0.5,W,club,Stellenbosch
2019-03-12,Bo Chen,5k,Dan Venter,5k,0,6.5,jigo,tournament,Cape Town Go Club
2019-02-26,Dan Venter,4k,Ann Lee,4k,,,b,,Cape Town Go Club
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "past.csv"
    path.write_text(text)
    return path


def _saved() -> tuple[int, int, int, int]:
    return Game.objects.count(), RecordSheet.objects.count(), Player.objects.count(), LogEntry.objects.count()


def test_the_past_is_saved_as_a_sheet_per_club_and_day(
    tmp_path: Path, club: Club, other_club: Club, make_player: MakePlayer, capsys: pytest.CaptureFixture[str]
) -> None:
    cara = make_player("Cara Smit", rank=0, since=date(2018, 1, 1))
    call_command("import_past_games", str(_write(tmp_path, CSV)), "--list", "sagc")
    out = capsys.readouterr().out
    assert "saved 4 games on 3 sheets (2019-02-26 to 2019-03-12), 3 new players" in out
    ann, bo, dan = (Player.objects.get(name=n) for n in ("Ann Lee", "Bo Chen", "Dan Venter"))
    # Starting ranks: the rank at the first game in date order (Ann and Dan on 26 February: 4k).
    assert (ann.start_rank, bo.start_rank, dan.start_rank) == (-4, -6, -4)
    assert Player.objects.get(pk=cara.pk).start_rank == 0, "a known player is that player"
    sheets = list(RecordSheet.objects.order_by("date").values_list("club__name", "date"))
    assert sheets == [
        ("Cape Town Go Club", date(2019, 2, 26)),
        ("Stellenbosch Go Club", date(2019, 3, 5)),
        ("Cape Town Go Club", date(2019, 3, 12)),
    ]
    jigo = Game.objects.get(winner="jigo")
    assert (jigo.kind, jigo.komi, jigo.white, jigo.black) == ("tournament", Decimal("6.5"), bo, dan)
    handicap = Game.objects.get(date=date(2019, 3, 5), white=ann)
    assert (handicap.handicap, handicap.komi, handicap.winner) == (3, Decimal("0.5"), "black")
    assert Game.objects.get(white=cara).winner == "white"
    assert LogEntry.objects.count() == 4


def test_a_dry_run_says_what_would_be_saved_and_saves_nothing(
    tmp_path: Path, club: Club, other_club: Club, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _saved()
    call_command("import_past_games", str(_write(tmp_path, CSV)), "--dry-run")
    out = capsys.readouterr().out
    assert "would save 4 games on 3 sheets" in out and "new: Cara Smit, starting at 1d" in out
    assert _saved() == before


@pytest.mark.parametrize(
    ("line", "named"),
    [
        ("2019-03-20,Ann Lee,3k,Eve Nel,12x,0,6.5,white,club,Stellenbosch Go Club", "line 6: black_rank:"),
        ("2019-03-20,Ann Lee,3k,Eve Nel,9k,12,6.5,white,club,Stellenbosch Go Club", "line 6: handicap: 12"),
        ("2019-03-20,Ann Lee,3k,Eve Nel,9k,0,6.5,white,club,Durban Go Club", "line 6: club 'Durban Go Club'"),
        ("2019-03-20,Ann Lee,3k,ann lee,9k,0,6.5,white,club,Stellenbosch Go Club", "line 6: the same player"),
        ("2019-03-20,Ann Lee,3k,Eve Nel,,0,6.5,white,club,Stellenbosch Go Club", "line 6: Eve Nel is new"),
        ("2019-03-20,Ann Lee,3k,Eve Nel,9k,0,6.5,lost,club,Stellenbosch Go Club", "line 6: result: 'lost'"),
        ("2019-02-30,Ann Lee,3k,Eve Nel,9k,0,6.5,white,club,Stellenbosch Go Club", "line 6: date:"),
    ],
)
def test_a_bad_line_is_named_and_nothing_is_saved(
    tmp_path: Path, club: Club, other_club: Club, line: str, named: str
) -> None:
    before = _saved()
    with pytest.raises(CommandError) as refused:
        call_command("import_past_games", str(_write(tmp_path, CSV + line + "\n")))
    assert named in str(refused.value) and "nothing saved" in str(refused.value)
    assert _saved() == before


def test_a_file_imported_twice_saves_nothing_the_second_time(
    tmp_path: Path, club: Club, other_club: Club
) -> None:
    path = _write(tmp_path, CSV)
    call_command("import_past_games", str(path))
    before = _saved()
    with pytest.raises(CommandError, match="already has this game"):
        call_command("import_past_games", str(path))
    assert _saved() == before


def test_on_the_committees_pages_previewed_then_saved_as_shown(
    client_for: ClientFor, club: Club, other_club: Club
) -> None:
    client = client_for("committee")
    assert reverse("past_games") in client.get(reverse("export")).content.decode(), (
        "the committee's pages link it"
    )
    upload = SimpleUploadedFile("past.csv", CSV.encode(), content_type="text/csv")
    response = client.post(
        reverse("past_games"), {"rating_list": club.rating_list_id, "file": upload}, follow=True
    )
    page = response.content.decode()
    assert "4 games on 3 record sheets" in page and "from 2019-02-26 to 2019-03-12" in page
    assert "<td>Cara Smit</td><td>1d</td>" in page and "<td>Bo Chen</td><td>6k</td>" in page
    assert Game.objects.count() == 0, "a preview saves nothing"
    preview_url = response.redirect_chain[-1][0]
    saved = client.post(preview_url, follow=True)
    assert "4 past games saved on 3 sheets" in saved.content.decode()
    assert Game.objects.count() == 4 and Player.objects.filter(name="Cara Smit", start_rank=0).exists()
    again = client.post(preview_url)
    assert again.status_code == 404, "saved once: the preview is gone"


def test_a_past_games_preview_is_no_tournament_preview(
    client_for: ClientFor, club: Club, other_club: Club
) -> None:
    from ratings.committee.past_games import preview_past_games

    preview = preview_past_games(club.rating_list, CSV.encode(), filename="past.csv")
    client = client_for("committee")
    assert client.get(reverse("tournament_import_preview", args=[preview.pk])).status_code == 404
    assert client.post(reverse("tournament_import_preview", args=[preview.pk])).status_code == 404
    assert client.get(reverse("past_games_preview", args=[preview.pk])).status_code == 200


def test_a_refused_file_is_named_on_the_upload_page(
    client_for: ClientFor, club: Club, other_club: Club
) -> None:
    bad = CSV + "2019-03-20,Ann Lee,3k,Eve Nel,9k,0,6.5,white,club,Durban Go Club\n"
    upload = SimpleUploadedFile("past.csv", bad.encode(), content_type="text/csv")
    response = client_for("committee").post(
        reverse("past_games"), {"rating_list": club.rating_list_id, "file": upload}
    )
    assert response.status_code == 400
    assert "past.csv: line 6: club &#x27;Durban Go Club&#x27; is not a club of" in response.content.decode()
    assert Game.objects.count() == 0


def test_a_preview_that_no_longer_matches_saves_nothing(
    client_for: ClientFor, club: Club, other_club: Club
) -> None:
    from ratings.committee.past_games import preview_past_games

    preview = preview_past_games(club.rating_list, CSV.encode(), filename="past.csv")
    Player.objects.create(
        rating_list=club.rating_list,
        name="Bo Chen",
        slug="bo-chen",
        start_rank=-2,
        rank=-2,
        since=date(2018, 1, 1),
    )
    response = client_for("committee").post(reverse("past_games_preview", args=[preview.pk]))
    assert response.status_code == 400 and "the list changed since the preview" in response.content.decode()
    assert Game.objects.count() == 0


def test_one_name_written_with_other_case_or_spacing_is_one_new_player(
    tmp_path: Path, club: Club, other_club: Club, capsys: pytest.CaptureFixture[str]
) -> None:
    # The list's identity rule (case and spacing aside), as at entry: one
    # person, even inside one sheet, starting at their first rank.
    text = CSV + (
        "2019-03-20,Eve Nel,9k,Ann Lee,3k,0,6.5,white,club,Stellenbosch Go Club\n"
        "2019-03-20,Bo Chen,5k,eve  NEL,8k,0,6.5,black,club,Stellenbosch Go Club\n"
        "2019-03-27,EVE NEL,8k,Cara Smit,1d,0,6.5,black,club,Stellenbosch Go Club\n"
        # "Zoë" composed, then decomposed (as macOS writes it): one name.
        "2019-03-27,Zo\u00eb Nel,9k,Ann Lee,3k,0,6.5,white,club,Stellenbosch Go Club\n"
        "2019-04-03,Zoe\u0308 Nel,9k,Bo Chen,5k,0,6.5,white,club,Stellenbosch Go Club\n"
    )
    call_command("import_past_games", str(_write(tmp_path, text)), "--list", "sagc")
    out = capsys.readouterr().out
    assert "6 new players" in out and out.count("new: ") == 6, "Ann, Bo, Cara, Dan, Eve and Zoë, once"
    assert Player.objects.filter(name_key="zo\u00eb nel").count() == 1
    eve = Player.objects.get(name_key="eve nel")
    assert Player.objects.filter(name__iexact="eve nel").count() == 1
    assert eve.start_rank == -9
    assert Game.objects.filter(white=eve).count() + Game.objects.filter(black=eve).count() == 3


ALIKE = """date,white,white_rank,black,black_rank,handicap,komi,result,kind,club
2019-03-05,José Dias,3k,Riaan Wnag,6k,3,0.5,black,club,Stellenbosch Go Club
2019-03-12,Jose Dias,3k,Ann Lee,3k,0,6.5,white,club,Stellenbosch Go Club
"""


def test_new_names_alike_a_player_or_each_other_are_shown_never_merged(
    tmp_path: Path, club: Club, other_club: Club, make_player: MakePlayer, capsys: pytest.CaptureFixture[str]
) -> None:
    make_player("Riaan Wang", rank=-5, since=date(2018, 1, 1))
    call_command("import_past_games", str(_write(tmp_path, ALIKE)), "--list", "sagc", "--dry-run")
    lines = {
        line.split(",")[0].strip(): line for line in capsys.readouterr().out.splitlines() if "new:" in line
    }
    assert "Riaan Wang, 5k" in lines["new: Riaan Wnag"], "a typo of a player of the list is shown"
    assert "Jose Dias (also new, in this file)" in lines["new: José Dias"]
    assert "José Dias (also new, in this file)" in lines["new: Jose Dias"]
    assert "alike" not in lines["new: Ann Lee"], "a name like no other is shown alone"
    # Shown, never taken for one another: saved, they are four new players.
    call_command("import_past_games", str(_write(tmp_path, ALIKE)), "--list", "sagc")
    assert set(Player.objects.values_list("name", flat=True)) == {
        "Riaan Wang", "Riaan Wnag", "José Dias", "Jose Dias", "Ann Lee",
    }  # fmt: skip


def test_the_preview_page_shows_the_alike_names_and_still_saves(
    client_for: ClientFor, club: Club, other_club: Club, make_player: MakePlayer
) -> None:
    make_player("Riaan Wang", rank=-5, since=date(2018, 1, 1))
    client = client_for("committee")
    upload = SimpleUploadedFile("past.csv", ALIKE.encode(), content_type="text/csv")
    response = client.post(
        reverse("past_games"), {"rating_list": club.rating_list_id, "file": upload}, follow=True
    )
    page = response.content.decode()
    assert "Riaan Wang, 5k" in page and "(in the list)" in page
    assert "Jose Dias (also new, in this file)" in page
    # A player added meanwhile changes the hints, not what the file saves.
    make_player("Jose Diaz", rank=-3, since=date(2018, 1, 1))
    saved = client.post(response.redirect_chain[-1][0], follow=True)
    assert "2 past games saved on 2 sheets" in saved.content.decode()
    assert Player.objects.filter(name="Riaan Wnag").exists()
