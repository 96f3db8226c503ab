"""A season at once (issue 26): several tournament files, or one .zip, in one
upload on the import page and in ``import_tournament``; each file previewed,
saved all or none, oldest first; the limits stated and enforced; archives
that climb out of themselves or unpack to far more than they weigh refused."""

from __future__ import annotations

import html
import io
import zipfile
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from ratings.committee import CommitteeError, season_import
from ratings.committee.season_import import SeasonFile, import_season, season_files
from ratings.models import Club, Game, ImportPreview, Player, RecordSheet
from tests.support import (
    DATA,
    ROLES,
    VALID_TOURNAMENTS,
    ClientFor,
    MakePlayer,
    make_pool,
    realdata,
    refused_as,
)

if TYPE_CHECKING:
    from tests.support import TestResponse

#: Two tournaments of our own: the Stellenbosch Autumn Open of 2024-04-13
#: (7 players, 9 games) and the Guildford Club Cup of 2024-05-04 (5 games,
#: one won by default).
OPEN = (DATA / "club-open-2024.h9").read_bytes()
OPEN_TOU = (DATA / "club-open-2024.tou").read_bytes()  # the same tournament, in the FFG format
CUP = (DATA / "preview-club-cup.h9").read_bytes()


def zipped(*members: tuple[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members:
            archive.writestr(name, data)
    return out.getvalue()


def upload(client: Client, club: Club, *files: tuple[str, bytes]) -> TestResponse:
    body = {"file": [SimpleUploadedFile(name, data) for name, data in files], "club": club.pk, "format": ""}
    return client.post(reverse("tournament_import"), body)


def page_of(response: TestResponse) -> str:
    return html.unescape(response.content.decode())


def games_of(club: Club) -> list[tuple[object, ...]]:
    """Every game of the club's list, by the players' names (two lists compare)."""
    rows = Game.objects.filter(rating_list=club.rating_list_id).values_list(
        "date", "white__name", "black__name", "winner", "handicap", "komi", "kind", "forfeit", "board"
    )
    return sorted(rows, key=repr)


def nothing_saved() -> bool:
    return not RecordSheet.objects.exists() and not Game.objects.exists()


# --- the page -----------------------------------------------------------------------


def test_the_page_states_the_limits(client_for: ClientFor) -> None:
    page = page_of(client_for("committee").get(reverse("tournament_import")))
    assert "at most 60 files and 20 MB in all" in page and 'type="file" name="file" multiple' in page


def test_a_zip_is_previewed_file_by_file_and_saved_all_at_once(client_for: ClientFor, club: Club) -> None:
    client = client_for("committee")
    response = upload(client, club, ("season.zip", zipped(("2024/cup.h9", CUP), ("2024/open.h9", OPEN))))
    assert response.status_code == 302, page_of(response)[:3000]
    assert nothing_saved()
    preview = ImportPreview.objects.get()
    page = page_of(client.get(preview.get_absolute_url()))
    # Oldest first: the Open (13 April) before the Cup (4 May).
    assert page.index("Stellenbosch Autumn Open") < page.index("Guildford Club Cup")
    assert "season.zip: 2024/open.h9 (h9)" in page and "season.zip: 2024/cup.h9 (h9)" in page
    assert "New players (7)" in page and "9 games; 0 players matched" in page
    assert "Save all 14 games of these 2 tournaments" in page
    saved = client.post(preview.get_absolute_url())
    assert saved.status_code == 302 and saved["Location"] == club.get_absolute_url()
    assert RecordSheet.objects.filter(club=club).count() == 2 and Game.objects.count() == 14
    assert not ImportPreview.objects.exists()


def test_several_files_in_one_upload_are_a_season(client_for: ClientFor, club: Club) -> None:
    client = client_for("committee")
    response = upload(client, club, ("cup.h9", CUP), ("open.h9", OPEN))
    assert response.status_code == 302
    preview = ImportPreview.objects.get()
    assert (preview.filename, preview.format) == ("2 files", "zip")
    assert client.post(preview.get_absolute_url()).status_code == 302
    events = sorted(RecordSheet.objects.values_list("event", flat=True))
    assert events == ["Guildford Club Cup", "Stellenbosch Autumn Open"]


def test_one_file_refused_refuses_the_season_naming_it(client_for: ClientFor, club: Club) -> None:
    # The .tou is the Open again: a duplicate once the .h9 is in.
    response = upload(
        client_for("committee"), club, ("s.zip", zipped(("open.h9", OPEN), ("open.tou", OPEN_TOU)))
    )
    assert response.status_code == 400
    assert "s.zip: open.tou: Stellenbosch Autumn Open of 2024-04-13 was already imported" in page_of(response)
    assert nothing_saved() and not ImportPreview.objects.exists()


def test_a_player_created_before_saving_shows_the_new_preview_and_saves_nothing(
    client_for: ClientFor, club: Club, make_player: MakePlayer
) -> None:
    client = client_for("committee")
    upload(client, club, ("cup.h9", CUP), ("open.h9", OPEN))
    preview = ImportPreview.objects.get()
    make_player("Priya Naidoo", rank=1)  # line 1 of the Open: no longer new
    response = client.post(preview.get_absolute_url())
    assert response.status_code == 409 and "Nothing was saved" in page_of(response)
    assert nothing_saved()
    assert client.post(preview.get_absolute_url()).status_code == 302
    assert Game.objects.count() == 14


@pytest.mark.parametrize("role", ROLES)
def test_only_the_committee_uploads_a_season(role: str, client_for: ClientFor, club: Club) -> None:
    response = upload(client_for(role), club, ("season.zip", zipped(("cup.h9", CUP), ("open.h9", OPEN))))
    if not refused_as(response, {"anonymous": "login"}.get(role, 403 if role != "committee" else 302)):
        assert response.status_code == 302 and ImportPreview.objects.count() == 1
        return
    assert not ImportPreview.objects.exists()


@pytest.mark.parametrize("who", ["volunteer_b", "committee_2", "site_admin"])
def test_outsiders_upload_a_season_only_as_site_admin(
    who: str, outsiders: dict[str, User], club: Club
) -> None:
    client = Client()
    client.force_login(outsiders[who])
    response = upload(client, club, ("season.zip", zipped(("cup.h9", CUP), ("open.h9", OPEN))))
    if who == "site_admin":
        assert response.status_code == 302 and ImportPreview.objects.count() == 1
    else:
        assert refused_as(response, 403) and not ImportPreview.objects.exists()


def test_an_upload_over_the_size_limit_is_refused_on_the_field(
    client_for: ClientFor, club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ratings.forms import committee as forms

    monkeypatch.setattr(forms, "MAX_SEASON_BYTES", len(CUP) + len(OPEN) - 1)
    response = upload(client_for("committee"), club, ("cup.h9", CUP), ("open.h9", OPEN))
    page = page_of(response)
    assert response.status_code == 400 and "the files come to 0.0 MB; the limit is 0 MB in all" in page
    assert not ImportPreview.objects.exists()


# --- the archive: limits, paths, bombs -------------------------------------------------------


def test_a_zip_is_unpacked_to_its_files_skipping_folders_and_hidden_ones() -> None:
    data = zipped(("s/", b""), ("s/open.h9", OPEN), ("__MACOSX/s/._open.h9", b"junk"), ("s/.DS_Store", b"x"))
    assert season_files([("s.zip", data), ("cup.h9", CUP)]) == [
        SeasonFile("s.zip: s/open.h9", OPEN),
        SeasonFile("cup.h9", CUP),
    ]


@pytest.mark.parametrize(
    "name", ["../open.h9", "s/../../open.h9", "/etc/open.h9", "C:/open.h9", "..\\open.h9"]
)
def test_a_path_out_of_the_archive_is_refused(name: str) -> None:
    with pytest.raises(CommitteeError, match=r"s\.zip: .* is a path outside the archive"):
        season_files([("s.zip", zipped((name, OPEN)))])


def test_a_zip_bomb_is_refused_before_it_is_unpacked_in_full(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(season_import, "MAX_SEASON_BYTES", 1024 * 1024)
    bomb = zipped(("open.h9", b"0" * (50 * 1024 * 1024)))  # 50 MB of zeros in ~50 KB
    assert len(bomb) < 100 * 1024
    with pytest.raises(
        CommitteeError, match=r"bomb\.zip: open\.h9: the files come to more than 1 MB once unpacked"
    ):
        season_files([("bomb.zip", bomb)])


def test_more_files_than_the_limit_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(season_import, "MAX_SEASON_FILES", 2)
    with pytest.raises(CommitteeError, match="more than 2 tournament files in one upload"):
        season_files([("a.h9", OPEN), ("b.zip", zipped(("c.h9", CUP), ("d.h9", CUP)))])


@pytest.mark.parametrize(
    ("uploads", "message"),
    [
        ([("in.zip", zipped(("inner.zip", zipped(("open.h9", OPEN)))))], "an archive inside an archive"),
        ([("broken.zip", b"PK\x03\x04 not really")], "broken.zip: not a readable .zip archive"),
        ([("empty.zip", zipped(("folder/", b"")))], "empty.zip: the archive holds no file"),
        ([("open.h9", OPEN), ("open.h9", OPEN)], "open.h9 was sent twice"),
    ],
)
def test_what_is_no_season_is_refused_naming_it(uploads: Sequence[tuple[str, bytes]], message: str) -> None:
    with pytest.raises(CommitteeError, match=message):
        season_files(uploads)


# --- the command ---------------------------------------------------------------------


def test_import_tournament_takes_several_files_and_a_zip(
    club: Club, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path
    # The same date: the archive's order by name, dup.tou first, then open.h9 is the duplicate.
    (folder / "open.h9").write_bytes(OPEN)
    (folder / "cup.h9").write_bytes(CUP)
    (folder / "s.zip").write_bytes(zipped(("open.h9", OPEN), ("dup.tou", OPEN_TOU)))
    call_command("import_tournament", str(folder / "cup.h9"), str(folder / "open.h9"), "--dry-run")
    out = capsys.readouterr().out
    assert "Season: 14 games of 2 tournaments would be saved" in out and nothing_saved()
    assert out.index("== open.h9") < out.index("== cup.h9")
    with pytest.raises(CommandError, match=r"^s\.zip: open\.h9: .*already imported.*; nothing was changed"):
        call_command("import_tournament", str(folder / "s.zip"))
    assert nothing_saved()
    call_command("import_tournament", str(folder / "cup.h9"), str(folder / "open.h9"))
    assert Game.objects.count() == 14 and Player.objects.count() == 11  # Black Bob of the Cup has no game


# --- the real files --------------------------------------------------------------------


def _one_per_tournament() -> list[tuple[str, date]]:
    """The valid real files with games, each tournament once (its .h9 when
    both formats are there: the second would be a duplicate), oldest first."""
    names = {row[0] for row in VALID_TOURNAMENTS}
    rows = [
        row
        for row in VALID_TOURNAMENTS
        if row[2] > 0 and not (row[0].endswith(".tou") and row[0][:-4] + ".h9" in names)
    ]
    return sorted(((row[0], row[4]) for row in rows), key=lambda pair: (pair[1], pair[0]))


@pytest.mark.realfiles
@pytest.mark.slow
def test_the_real_tournaments_as_one_zip_give_the_same_games_as_one_by_one(db: None) -> None:
    files = _one_per_tournament()
    assert len(files) == 24
    data = {name: realdata(name) for name, _ in files}
    one_by_one = make_pool(name="One by one", slug="one")
    from ratings import committee

    for name, _ in files:
        committee.import_tournament(one_by_one, data[name], filename=name)
    season = make_pool(name="Season", slug="season")
    done = import_season(season, season_files([("season.zip", zipped(*data.items()))]))
    assert [item.name for item, _ in done] == [f"season.zip: {name}" for name, _ in files]
    expected = games_of(one_by_one)
    assert len(expected) == sum(row[2] for row in VALID_TOURNAMENTS if row[0] in data) == 6655
    assert games_of(season) == expected
    assert RecordSheet.objects.filter(club=season).count() == len(files)
