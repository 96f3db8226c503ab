"""Real codes in the exports: the list's country (or the player's own), the
home club's EGD code and every national id known, read back by our own readers."""

from __future__ import annotations

import re
from datetime import date

import pytest

from ratings import exchange, services
from ratings.committee import exports
from ratings.models import Club, Player, RatingList
from ratings.services import GameRow
from tests.support import MakePlayer


@pytest.fixture
def coded(club: Club, other_club: Club, make_player: MakePlayer) -> dict[str, Player]:
    """A list of South Africa, Stellenbosch coded "Stel", Cape Town without a code,
    a visitor from Zimbabwe; one game each way."""
    RatingList.objects.filter(pk=club.rating_list_id).update(country="ZA")
    Club.objects.filter(pk=club.pk).update(egd_code="Stel")
    ann = make_player("Ann Bee", rank=-5, egd_pin="12345678", ffg_licence="1800014", aga_id="7206")
    tafa = make_player("Tafadzwa Moyo", rank=-3, country="ZW", club=other_club)
    bob = make_player("Bob Cee", rank=-9, club=None, rating_list=club.rating_list)
    services.save_sheet(club=club, date=date(2024, 3, 5), rows=[
        GameRow(white=ann, black=tafa, winner="white"),
        GameRow(white=bob, black=ann, winner="black"),
    ])  # fmt: skip
    return {"ann": ann, "tafa": tafa, "bob": bob}


def read_back(rating_list: RatingList, fmt: exchange.GameFormat) -> dict[str, exchange.Player]:
    """The export read by our own reader: each player by name."""
    _, _, text = exports.export_games(RatingList.objects.get(pk=rating_list.pk), None, None, fmt)
    tournament = exchange.read_tournament(text.encode(), format=fmt)
    return {exchange.name_key(p.name): p for p in tournament.players}


@pytest.mark.parametrize("fmt", ["h9", "tou", "csv", "json"])
def test_country_and_club_codes_are_written_and_read_back(
    club: Club, coded: dict[str, Player], fmt: exchange.GameFormat
) -> None:
    players = read_back(club.rating_list, fmt)
    ann, tafa, bob = (players[exchange.name_key(n)] for n in ("Ann Bee", "Tafadzwa Moyo", "Bob Cee"))
    # The home club's EGD code; a club without one, or no home club, is written as none.
    assert (ann.club, tafa.club, bob.club) == ("Stel", None, None)
    if fmt != "tou":  # the .tou has no country column
        # The list's country unless the player has their own.
        assert (ann.country, tafa.country, bob.country) == ("ZA", "ZW", "ZA")
    ids = {"h9": ("12345678", None, None), "tou": (None, "1800014", None)}
    assert (ann.egd_pin, ann.ffg_licence, ann.aga_id) == ids.get(fmt, ("12345678", "1800014", "7206"))


def test_the_h9_lines_carry_the_codes_not_placeholders(club: Club, coded: dict[str, Player]) -> None:
    _, _, text = exports.export_games(RatingList.objects.get(pk=club.rating_list_id), None, None, "h9")
    ann_line = next(line for line in text.splitlines() if "Bee Ann" in line)
    assert " ZA Stel " in ann_line and ann_line.endswith("|12345678")
    # Place in columns 1-4, the name from column 6, surname first: OpenGotha's own layout,
    # which its importer reads by position (docs/formats.md).
    assert ann_line[:4].strip().isdigit() and ann_line[4] == " " and ann_line[5:12] == "Bee Ann"
    assert " ZW xxxx " in next(line for line in text.splitlines() if "Moyo Tafadzwa" in line)


def test_without_any_code_the_placeholders_are_written(club: Club, make_player: MakePlayer) -> None:
    """A list with no country and clubs without codes: 'XX' and 'xxxx', which read back as none."""
    ann, cat = make_player("Ann Bee"), make_player("Cat Dee")
    services.save_sheet(
        club=club, date=date(2024, 3, 5), rows=[GameRow(white=ann, black=cat, winner="white")]
    )
    _, _, text = exports.export_games(club.rating_list, None, None, "h9")
    assert " XX xxxx " in next(line for line in text.splitlines() if "Bee Ann" in line)
    players = exchange.read_tournament(text.encode(), format="h9").players
    assert {(p.country, p.club) for p in players} == {(None, None)}


def test_the_aga_file_writes_the_aga_id(club: Club, coded: dict[str, Player]) -> None:
    _, _, text = exports.export_games(RatingList.objects.get(pk=club.rating_list_id), None, None, "aga")
    assert re.search(r"^ +7206 Bee, Ann ", text, re.MULTILINE)  # the AGA writes "Last, First"
    players = {
        exchange.name_key(p.name): p for p in exchange.read_tournament(text.encode(), format="aga").players
    }
    assert players[exchange.name_key("Ann Bee")].aga_id == "7206"
