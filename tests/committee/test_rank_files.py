"""A list's own ranks published for pairing programs, at /lists/<slug>/ranks/<file>
and through export_ranks; import_ranks reads each back to the same ranks."""

from __future__ import annotations

import io
from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path

import pytest
import time_machine
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from ratings import committee, exchange
from ratings.models import Club, Player, RankSync, RatingList
from tests.support import MakePlayer

FILES = ("ech_ffg_V3.txt", "egf_db.txt", "tdlista.txt")


@pytest.fixture(autouse=True)
def _now() -> Iterator[None]:
    with time_machine.travel(datetime(2024, 6, 15, 12, 0), tick=False):
        yield


@pytest.fixture
def ranked(club: Club, other_club: Club, make_player: MakePlayer) -> list[Player]:
    """Players of every kind of rank and id: a 1.3d (a fractional rank), a
    visitor from Zimbabwe, ids of each body, one without any."""
    club.rating_list.country = "ZA"
    club.rating_list.save(update_fields=["country"])
    club.egd_code = "Stel"
    club.save(update_fields=["egd_code"])
    return [
        make_player("Werner Mahlangu", rank=-12, egd_pin="12345678"),
        make_player("Thabo le Roux", rank=0.3, ffg_licence="1800014", aga_id="7206"),
        make_player("Léa Ndlovu", rank=-14.5, country="ZW", club=other_club),
        make_player("Sipho Dlamini", rank=2, egd_pin="23456789", aga_id="7301"),
        make_player("Anna Fourie", rank=-25),
    ]


def grade(rank: float) -> str:
    return exchange.h9.whole_grade(rank)


@pytest.mark.parametrize("name", FILES)
def test_a_published_list_is_public_and_reads_back_to_the_players_grades(
    club: Club, ranked: list[Player], name: str
) -> None:
    response = Client().get(f"/lists/{club.rating_list.slug}/ranks/{name}")
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'inline; filename="{name}"'
    back = exchange.read_rank_list(response.content, filename=name)
    layout = exchange.RANK_FILES[name]
    id_field = committee.common.ID_FIELD[layout.format]
    expected = {
        getattr(p, id_field) or exchange.name_key(p.name): grade(p.rank)
        for p in ranked
        if layout.format == "ffg" or getattr(p, id_field)
    }
    got = {
        e.national_id if layout.format != "ffg" or e.national_id else exchange.name_key(e.name): grade(
            e.rank or 0
        )
        for e in back.entries
    }
    assert got == expected and not back.rejected


def test_the_ffg_ladder_writes_the_codes_and_the_list_date(club: Club, ranked: list[Player]) -> None:
    data = committee.publish_ranks(club.rating_list, "ech_ffg_V3.txt").data
    back = exchange.read_rank_list(data, filename="ech_ffg_V3.txt")
    assert back.as_of == date(2024, 6, 15)
    codes = {exchange.name_key(e.name): (e.national_id, e.country, e.club) for e in back.entries}
    assert codes[exchange.name_key("Thabo le Roux")] == ("1800014", "ZA", "Stel")
    assert codes[exchange.name_key("Léa Ndlovu")] == (None, "ZW", None)  # Cape Town has no EGD code


@pytest.mark.parametrize("name", FILES)
def test_import_ranks_reads_a_published_list_back_to_the_same_ranks(
    club: Club, ranked: list[Player], name: str, tmp_path: Path
) -> None:
    """The round trip: export_ranks writes the file, import_ranks matches every
    player written (by id where the file has one) and proposes no change."""
    path = tmp_path / name
    err = io.StringIO()
    call_command("export_ranks", name, "--list", "sagc", "--out", str(path), stderr=err)
    published = committee.publish_ranks(club.rating_list, name)
    assert path.read_bytes() == published.data  # the same bytes as the page
    assert f"{published.written} of 5 players" in err.getvalue()
    out = io.StringIO()
    call_command("import_ranks", str(path), "--list", "sagc", "--dry-run", stdout=out)
    summary = out.getvalue().splitlines()[0]
    written = {"ech_ffg_V3.txt": 5, "egf_db.txt": 2, "tdlista.txt": 2}[name]
    assert published.written == written
    assert f"read {written}, matched {written}, ambiguous 0, unmatched {5 - written}, changes 0" in summary
    assert not RankSync.objects.exists()  # a dry run


def test_a_list_computing_gor_publishes_its_gor(club: Club, make_player: MakePlayer) -> None:
    RatingList.objects.filter(pk=club.rating_list_id).update(primary_system="egf")
    make_player("Werner Mahlangu", rank=1, egd_pin="12345678", rating=2231.6)
    data = committee.publish_ranks(RatingList.objects.get(pk=club.rating_list_id), "egf_db.txt").data
    [entry] = exchange.read_rank_list(data, filename="egf_db.txt").entries
    assert (entry.rank, entry.rating) == (1, 2232)


def test_an_unknown_file_or_list_is_not_found(club: Club, ranked: list[Player]) -> None:
    assert Client().get(f"/lists/{club.rating_list.slug}/ranks/ratings.csv").status_code == 404
    assert Client().get("/lists/nowhere/ranks/egf_db.txt").status_code == 404


def test_the_list_page_links_the_published_files(club: Club, ranked: list[Player]) -> None:
    page = Client().get(reverse("rating_list", args=[club.rating_list.slug])).content.decode()
    for name in FILES:
        assert f'href="/lists/sagc/ranks/{name}"' in page
    assert "players with an EGD PIN only" in page
