"""The list archive on the committee's pages: the archive page and its
download for the list's committee, the import of an archive as a new list
for a site admin (who may do what: tests/site/test_access.py)."""

from __future__ import annotations

import io
import zipfile
from datetime import date
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from ratings import services
from ratings.models import Club, Game, RatingList
from ratings.services import GameRow
from tests.support import ClientFor, MakePlayer, Personas


@pytest.fixture
def games(club: Club, make_player: MakePlayer, personas: Personas) -> int:
    a, b = make_player("Thandi Nkosi", rank=-5), make_player("Pieter Botha", rank=-8)
    services.save_sheet(
        club=club, date=date(2024, 5, 7), actor=personas["volunteer"],
        rows=[GameRow(white=a, black=b, handicap=3, winner="black"), GameRow(white=b, black=a, winner="white")],
    )  # fmt: skip
    return 2


def _admin() -> Client:
    client = Client()
    client.force_login(User.objects.create_superuser("root", "root@example.org", "x"))
    return client


def _download(client: Client) -> bytes:
    response: Any = client.get(reverse("list_archive_download", args=["sagc"]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"].startswith('attachment; filename="sagc-archive-')
    return b"".join(response.streaming_content)


def test_the_committee_downloads_the_archive_from_the_lists_pages(client_for: ClientFor, games: int) -> None:
    client = client_for("committee")
    page = client.get(reverse("list_members", args=["sagc"])).content.decode()
    assert reverse("list_archive", args=["sagc"]) in page, "the list's administration links to its archive"
    page = client.get(reverse("list_archive", args=["sagc"])).content.decode()
    assert reverse("list_archive_download", args=["sagc"]) in page and "games.jsonl" in page
    with zipfile.ZipFile(io.BytesIO(_download(client))) as z:
        assert len(z.read("games.jsonl").splitlines()) == games
        assert "manifest.json" in z.namelist()


def test_a_site_admin_imports_it_as_a_new_list(client_for: ClientFor, games: int) -> None:
    data = _download(client_for("committee"))
    client = _admin()
    assert reverse("list_import") in client.get(reverse("my_places")).content.decode()
    upload = SimpleUploadedFile("sagc.zip", data, content_type="application/zip")
    response = client.post(reverse("list_import"), {"archive": upload, "slug": "sagc-2"}, follow=True)
    copy = RatingList.objects.get(slug="sagc-2")
    assert response.redirect_chain[-1][0] == copy.get_absolute_url()
    assert "Imported South African Go Clubs (sagc-2): 3 players, 2 games" in response.content.decode()
    assert Game.objects.filter(rating_list=copy).count() == games


@pytest.mark.parametrize(
    ("data", "slug", "named"),
    [
        (b"PK not really", "", "not a zip archive"),
        (None, "", "a list with the address &#x27;sagc&#x27; exists already"),
        (None, "import", "a word of the site&#x27;s addresses"),
    ],
)
def test_an_archive_that_cannot_be_imported_says_why_and_writes_nothing(
    client_for: ClientFor, games: int, data: bytes | None, slug: str, named: str
) -> None:
    data = data or _download(client_for("committee"))
    lists = RatingList.objects.count()
    upload = SimpleUploadedFile("sagc.zip", data, content_type="application/zip")
    response: Any = _admin().post(reverse("list_import"), {"archive": upload, "slug": slug})
    assert response.status_code == 400
    text = response.content.decode()
    assert "Nothing imported" in text and named in text
    assert RatingList.objects.count() == lists
