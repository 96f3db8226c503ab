"""A list's own ranks written in the FFG ladder, EGD list and AGA TD list
layouts, read back by our own readers (ratings/exchange/rank_writers.py)."""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.exchange import RankEntry, read_rank_list, split_given_surname, write_rank_file
from ratings.exchange.h9 import whole_grade

AS_OF = datetime(2026, 11, 29, 7, 5, 0)


def entry(name: str, rank: float, national_id: str | None = None, **extra: object) -> RankEntry:
    fields: dict[str, object] = {
        "surname": None,
        "given_name": None,
        "rating": None,
        "country": "ZA",
        "club": "Joha",
    }
    fields.update(extra)
    return RankEntry(line=0, name=name, national_id=national_id, rank=rank, **fields)  # type: ignore[arg-type]


PLAYERS = [
    entry("Werner Mahlangu", -12, national_id="12345678"),
    entry("Thabo le Roux", 0.3, national_id="1800014"),  # 1.3d: written as 1d
    entry("Léa Ndlovu", -14.5, country="ZW", club=None),  # 14.5k: written as 15k
    entry("Wei Zhang", 3, national_id="7206"),
]


@pytest.mark.parametrize(
    ("name", "parts"),
    [
        ("Werner Mahlangu", ("Mahlangu", "Werner")),
        ("Thabo le Roux", ("le Roux", "Thabo")),
        ("Barbara van der Aarle", ("van der Aarle", "Barbara")),
        ("Cher", ("Cher", "")),
        ("van Gogh", ("Gogh", "van")),  # a particle never makes the whole name a surname
    ],
)
def test_a_name_written_given_names_first_splits_before_the_surname(
    name: str, parts: tuple[str, str]
) -> None:
    assert split_given_surname(name) == parts


def test_the_ffg_ladder_reads_back_to_the_same_grades_ids_and_codes() -> None:
    data = write_rank_file("ech_ffg_V3.txt", PLAYERS, AS_OF, "Test list")
    assert data.startswith(b"#Echelle au 29/11/2026 07:05:00\r\n")
    assert "Léa".encode("latin-1") in data  # ISO-8859-1, as the FFG's own file
    back = read_rank_list(data, filename="ech_ffg_V3.txt")
    assert back.format == "ffg" and not back.rejected and back.as_of is not None
    got = {e.name: (e.rank, e.national_id, e.country, e.club) for e in back.entries}
    assert got == {
        "MAHLANGU Werner": (-12, None, "ZA", "Joha"),  # an 8-digit id is not an FFG licence
        "LE_ROUX Thabo": (0, "1800014", "ZA", "Joha"),
        "NDLOVU Léa": (-15, None, "ZW", None),
        "ZHANG Wei": (3, None, "ZA", "Joha"),  # nor are four digits
    }
    assert {e.surname for e in back.entries} == {"MAHLANGU", "LE ROUX", "NDLOVU", "ZHANG"}


def test_names_outside_latin_1_are_transliterated_in_the_ffg_ladder() -> None:
    data = write_rank_file("ech_ffg_V3.txt", [entry("Wei 张", -3), entry("Łukasz Wójcik", -4)], AS_OF)
    [wei, lukasz] = read_rank_list(data, filename="ech_ffg_V3.txt").entries
    assert (wei.surname, wei.given_name) == ("ZHANG", "Wei")
    assert (lukasz.surname, lukasz.given_name) == ("WÓJCIK", "Lukasz")  # ó is Latin-1, Ł is not


def test_the_ffg_columns_are_the_ladders_fixed_columns() -> None:
    """Name in columns 1-38, level 39-43, status 45, licence 47-53, club 55-58, country 60-61:
    the layout of the FFG's file, which pairing programs read by position."""
    line = write_rank_file("ech_ffg_V3.txt", PLAYERS[1:2], AS_OF).decode("latin-1").splitlines()[1]
    assert (line[:38].strip(), line[38:43].strip(), line[44], line[46:53], line[54:58], line[59:61]) == (
        "LE_ROUX Thabo", "50", "-", "1800014", "Joha", "ZA",
    )  # fmt: skip


def test_the_egd_list_holds_the_players_with_a_pin_in_the_egd_columns() -> None:
    data = write_rank_file("egf_db.txt", PLAYERS, AS_OF, "Test list")
    text = data.decode()
    assert text.startswith("(29 Nov 2026)\n") and text.endswith("Number of players: 1\n")
    [line] = [t for t in text.splitlines() if t.startswith(" 1")]
    # PIN 2-9, name 12-48, country 50-51, club 54-57, grade 61-63, GoR up to 75 (the EGD download's columns).
    assert (line[1:9], line[11:48].strip(), line[49:51], line[53:57], line[60:63], line[71:75]) == (
        "12345678", "Mahlangu Werner", "ZA", "Joha", "12k", " 900",
    )  # fmt: skip
    [back] = read_rank_list(data, filename="egf_db.txt").entries
    assert (back.national_id, back.rank, back.rating, back.country, back.club) == (
        "12345678",
        -12,
        900,
        "ZA",
        "Joha",
    )


def test_the_aga_td_list_holds_the_players_with_an_aga_id() -> None:
    data = write_rank_file("tdlista.txt", PLAYERS, AS_OF)
    back = read_rank_list(data, filename="tdlista.txt")
    assert back.format == "aga" and not back.rejected
    # Every id of digits is written (which body's id it is, is the caller's business); Léa has none.
    assert {(e.surname, e.given_name, e.national_id, e.rank, e.club) for e in back.entries} == {
        ("Mahlangu", "Werner", "12345678", -12, "Joha"),
        ("le Roux", "Thabo", "1800014", 0, "Joha"),
        ("Zhang", "Wei", "7206", 3, "Joha"),
    }


def test_a_rating_in_the_layouts_unit_is_written_as_it_is() -> None:
    """A list computing FFG levels or GoR publishes its own figure, not the middle of the grade."""
    ffg = write_rank_file("ech_ffg_V3.txt", [entry("Ann Bee", -3, rating=-212.7)], AS_OF)
    assert read_rank_list(ffg, filename="ech_ffg_V3.txt").entries[0].rating == -213
    egd = write_rank_file("egf_db.txt", [entry("Ann Bee", 2, national_id="12345678", rating=2318.4)], AS_OF)
    assert read_rank_list(egd, filename="egf_db.txt").entries[0].rating == 2318


@given(st.floats(min_value=-30, max_value=8.99, allow_nan=False))
def test_every_rank_reads_back_as_its_grade_in_every_layout(rank: float) -> None:
    player = entry("Ann Bee", rank, national_id="12345678")
    grade = whole_grade(rank)
    for name in ("ech_ffg_V3.txt", "egf_db.txt"):
        [back] = read_rank_list(write_rank_file(name, [player], AS_OF), filename=name).entries
        assert whole_grade(back.rank) == grade, name
    aga = entry("Ann Bee", rank, national_id="7206")
    [back] = read_rank_list(write_rank_file("tdlista.txt", [aga], AS_OF), filename="tdlista.txt").entries
    assert whole_grade(back.rank) == grade


def test_a_long_ffg_name_is_cut_to_keep_a_space_before_the_level() -> None:
    long = entry(
        "x", -12, national_id="1234567", surname="Wolfeschlegelsteinhausenberger", given_name="Maximiliano"
    )
    line = write_rank_file("ech_ffg_V3.txt", [long], AS_OF).decode("latin-1").splitlines()[1]
    assert line == "WOLFESCHLEGELSTEINHAUSENBERGER Maximi -1150 - 1234567 Joha ZA"


def test_a_player_without_a_club_is_written_with_the_egds_xxxx() -> None:
    lea = entry("Léa Ndlovu", -14.5, national_id="12345678", club=None)
    text = write_rank_file("egf_db.txt", [lea], AS_OF).decode()
    assert " ZA  xxxx   15k " in text
