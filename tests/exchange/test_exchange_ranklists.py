"""National rank lists: the real FFG and AGA files, an EGD allworld_lp fixture, CSV."""

from __future__ import annotations

from pathlib import Path

import pytest

from ratings.exchange import ExchangeError, RankEntry, detect_rank_format, parse_rank_list, read_rank_list
from ratings.exchange.ranklists import aga_rating_to_rank, ffg_level_to_rank
from tests.support import shared_bytes

FIXTURES = Path(__file__).resolve().parent.parent / "data"


def by_name(entries: tuple[RankEntry, ...], name: str) -> RankEntry:
    return next(e for e in entries if e.name == name)


# --- conversions, as the lists define them ------------------------------------------------


@pytest.mark.parametrize(
    ("level", "rank"),
    # FFG ladder: 0..99 = 1d, 100..199 = 2d, -100..-1 = 1k; -9999 = not rated.
    [(0, 0), (99, 0), (100, 1), (199, 1), (-1, -1), (-100, -1), (-101, -2), (-3000, -30), (-9999, None)],
)
def test_ffg_levels_become_grades_as_formats_md_says(level: int, rank: float | None) -> None:
    assert ffg_level_to_rank(level) == rank


@pytest.mark.parametrize(
    ("rating", "rank"),
    # AGA TD list: -20.05 = 20k, 3.4 = 3d; the AGA has no grade between -1 and 1.
    [(-20.05, -20), (3.4, 2), (-1.0, -1), (-1.99, -1), (1.0, 0), (1.99, 0), (-2.0, -2), (-0.5, -1), (0.5, 0)],
)
def test_aga_ratings_become_grades_by_their_integer_part(rating: float, rank: float) -> None:
    assert aga_rating_to_rank(rating) == rank


def test_ratings_off_the_shared_scale_are_held_at_its_ends() -> None:
    assert aga_rating_to_rank(-49.67667) == -30  # a real tdlista.txt rating (49k)
    assert aga_rating_to_rank(10.3293) == 8  # 10d -> 9d


# --- the real files ----------------------------------------------------------------


@pytest.mark.realfiles
def test_the_ffg_ladder_has_12511_lines_of_which_12_are_obsolete_records() -> None:
    ladder = read_rank_list(shared_bytes("ech_ffg_V3.txt"), filename="ech_ffg_V3.txt")
    assert ladder.format == "ffg"
    # README: 12,511 player lines; 12 of them are the FFG's superseded records,
    # the name ending "_(obsolète)" (grep -c obso): listed as rejected, not imported.
    assert len(ladder.entries) == 12_511 - 12
    assert len(ladder.rejected) == 12
    assert all("obsolete" in r.reason and "_(obsol" in r.reason for r in ladder.rejected)
    assert str(ladder.as_of) == "2021-01-11"  # "#Echelle au 11/01/2021"
    assert ladder.rating_unit == "FFG level"


@pytest.mark.realfiles
def test_ffg_lines_read_field_by_field() -> None:
    entries = read_rank_list(shared_bytes("ech_ffg_V3.txt")).entries
    # Line 4: "ABAD Jahin   -3000 - 2000205 38GJ FR"
    abad = by_name(entries, "ABAD Jahin")
    assert (abad.line, abad.surname, abad.given_name) == (4, "ABAD", "Jahin")
    assert (abad.national_id, abad.rank, abad.rating, abad.club, abad.country) == (
        "2000205",
        -30,
        -3000,
        "38GJ",
        "FR",
    )
    # Line 2: "AAIJ René   243 e ------- xxxx NL": a foreign player, no licence, 3d.
    aaij = by_name(entries, "AAIJ René")
    assert (aaij.national_id, aaij.rank, aaij.club, aaij.country) == (None, 2, None, "NL")
    # "-9999 = not rated"
    abat = by_name(entries, "ABAT Alexis")
    assert (abat.rank, abat.rating, abat.national_id) == (None, None, "9179004")
    # Capitals mark the surname, also with several words and apostrophes.
    assert by_name(entries, "ANGLES_D'AURIAC Jean-Christian").surname == "ANGLES D'AURIAC"


@pytest.mark.realfiles
def test_the_aga_list_has_22410_members() -> None:
    members = read_rank_list(shared_bytes("tdlista.txt"), filename="tdlista.txt")
    assert members.format == "aga"
    assert len(members.entries) == 22_410  # README
    aal = members.entries[0]  # "Aal, Zachary\t15648\tFull\t-20.05711\t..."
    assert (aal.surname, aal.given_name, aal.national_id, aal.rank, aal.rating) == (
        "Aal",
        "Zachary",
        "15648",
        -20,
        -20.05711,
    )
    assert by_name(members.entries, "Aaron, William C.").rank is None  # empty rating = unrated
    assert by_name(members.entries, "Zweig, Adrian").rank == 2  # 3.20000 = 3d
    assert by_name(members.entries, "Colima Go Center").surname is None  # no comma: no split


@pytest.mark.realfiles
@pytest.mark.parametrize(("name", "fmt"), [("ech_ffg_V3.txt", "ffg"), ("tdlista.txt", "aga")])
def test_the_format_is_detected_from_content_without_a_filename(name: str, fmt: str) -> None:
    assert read_rank_list(shared_bytes(name)).format == fmt


@pytest.mark.realfiles
def test_a_ffg_ladder_cut_in_a_line_imports_the_lines_before_and_lists_the_cut_one() -> None:
    data = shared_bytes("ech_ffg_V3.txt")
    cut = data[: data.index(b"ABEL Hugues") + 30]  # in the middle of line 13
    ladder = read_rank_list(cut)
    assert [e.line for e in ladder.entries] == list(range(2, 13))
    assert [(r.line, r.text[:11]) for r in ladder.rejected] == [(13, "ABEL Hugues")]


@pytest.mark.realfiles
def test_an_aga_list_cut_in_a_line_lists_the_cut_line() -> None:
    data = shared_bytes("tdlista.txt")
    cut = data[: data.index(b"Abbey, Ralph") + 20]  # line 10 cut after "Abbey, Ralph\t17957\tF": 3 fields
    members = read_rank_list(cut, format="aga")
    assert len(members.entries) == 9
    assert [(r.line, r.reason) for r in members.rejected] == [
        (10, "expected 9 tab-separated fields (AGA TD list), found 3")
    ]


@pytest.mark.realfiles
def test_a_list_without_its_header_is_refused() -> None:
    data = shared_bytes("ech_ffg_V3.txt")
    with pytest.raises(ExchangeError, match="#Echelle au") as error:
        read_rank_list(data[data.index(b"\n") + 1 :], format="ffg")
    assert error.value.line == 1


@pytest.mark.realfiles
def test_a_list_read_as_the_wrong_format_names_the_first_line() -> None:
    with pytest.raises(ExchangeError) as error:
        read_rank_list(shared_bytes("tdlista.txt"), format="ffg")
    assert error.value.line == 1
    with pytest.raises(ExchangeError) as error:
        read_rank_list(shared_bytes("ech_ffg_V3.txt"), format="aga")
    assert error.value.line == 1  # the '#Echelle' line is not 9 tab-separated fields


@pytest.mark.realfiles
def test_a_tournament_file_is_not_a_rank_list() -> None:
    with pytest.raises(ExchangeError):
        read_rank_list(shared_bytes("juvisy-2019.h9"))


def test_two_rows_with_one_licence_are_both_rejected_naming_each_other() -> None:
    text = (
        "#Echelle au 11/01/2021 07:09:39\r\n"
        "DUPONT Jean                            -500 - 1234567 75Pa FR\r\n"
        "DUPONT Jean                            -900 - 1234567 75Pa FR\r\n"
        "MARTIN Lea                             -900 - 7654321 75Pa FR\r\n"
    )
    ladder = parse_rank_list(text)
    assert [e.name for e in ladder.entries] == ["MARTIN Lea"]
    assert [(r.line, r.reason) for r in ladder.rejected] == [
        (2, "national id 1234567 is also on line 3; neither is imported"),
        (3, "national id 1234567 is also on line 2; neither is imported"),
    ]
    assert [r.text for r in ladder.rejected] == ["DUPONT Jean", "DUPONT Jean"]  # who, for the list's reader


def test_a_bad_ffg_level_names_line_and_column() -> None:
    text = (
        "#Echelle au 11/01/2021 07:09:39\nDUPONT Jean   -5x0 - 1234567 75Pa FR\n"
        "MARTIN Lea   -500 - 7654321 75Pa FR\n"
    )
    (bad,) = parse_rank_list(text, "ffg").rejected
    assert (bad.line, bad.column, bad.reason) == (2, 15, "level '-5x0' is not a whole number")


def test_a_list_with_more_bad_lines_than_good_is_refused_naming_the_first() -> None:
    text = "#Echelle au 11/01/2021\nA B -5x0 - 1234567 75Pa FR\nC D -5y0 - 1234568 75Pa FR\nE F -500 - 1234569 75Pa FR\n"
    with pytest.raises(ExchangeError, match="2 lines do not read and only 1 do") as error:
        parse_rank_list(text, "ffg")
    assert (error.value.line, error.value.column) == (2, 5)


# --- EGD allworld_lp (fixture written from the documented line) --------------------


def test_the_egd_list_reads_the_documented_line() -> None:
    egd = read_rank_list((FIXTURES / "allworld_lp_sample.html").read_bytes())
    assert egd.format == "egd"
    assert str(egd.as_of) == "2020-02-02"
    # An EGD rating-list line: 19574643 Abad Jahin FR 38GJ 20k -- 15 2 T200202B
    abad = egd.entries[0]
    assert (abad.national_id, abad.surname, abad.given_name, abad.country, abad.club) == (
        "19574643",
        "Abad",
        "Jahin",
        "FR",
        "38GJ",
    )
    assert (abad.rank, abad.rating) == (-20, 15)
    assert egd.rating_unit == "GoR"


def test_egd_grades_pro_grades_and_names() -> None:
    entries = read_rank_list((FIXTURES / "allworld_lp_sample.html").read_bytes()).entries
    alice = by_name(entries, "Testeur Alice")
    assert (alice.rank, alice.rating) == (1, 2188)  # 2d
    assert by_name(entries, "Exemple Bruno_de").given_name == "Bruno de"
    assert by_name(entries, "Solo").given_name is None
    # A pro grade takes the grade of its GoR: 2745 is in 2650..2749 = 7d (ranks.gor_to_rank).
    assert by_name(entries, "Pro Chang").rank == 6


def test_a_truncated_egd_list_is_caught_by_its_player_count() -> None:
    text = (FIXTURES / "allworld_lp_sample.html").read_text()
    lines = text.splitlines()
    without_last_player = "\n".join(line for line in lines if "Dupont Jean" not in line)
    with pytest.raises(ExchangeError) as error:
        parse_rank_list(without_last_player)
    assert "says it has 6 players but 5" in str(error.value)
    cut = text[: text.index("Dupont Jean") + 30]
    with pytest.raises(ExchangeError, match="without its closing line 'Number of players") as error:
        parse_rank_list(cut, "egd")
    assert error.value.line == 32


# --- CSV -----------------------------------------------------------------------------


def test_a_csv_list_with_header() -> None:
    text = 'name,national id,rank\r\n"Dupont, Jean",1234567,5k\r\nLéa Martin,,1.3d\r\nNew Player,,\r\n'
    ranks = parse_rank_list(text)
    assert ranks.format == "csv"
    dupont, martin, new = ranks.entries
    assert (dupont.line, dupont.surname, dupont.given_name, dupont.national_id, dupont.rank) == (
        2,
        "Dupont",
        "Jean",
        "1234567",
        -5,
    )
    assert (martin.national_id, martin.rank) == (None, 0.3)
    assert new.rank is None


def test_a_semicolon_csv_with_french_headers() -> None:
    ranks = parse_rank_list("Nom;Licence;Niveau\nDUPONT Jean;1234567;2d\n", "csv")
    assert ranks.entries[0].rank == 1


def test_a_bad_csv_rank_names_line_and_column() -> None:
    ranks = parse_rank_list("name,id,rank\nA B,1,5k\nC D,2,five kyu\nE F,3,2d\n", "csv")
    assert [e.name for e in ranks.entries] == ["A B", "E F"]
    (bad,) = ranks.rejected
    assert (bad.line, bad.column, bad.text) == (3, 3, "C D,2,five kyu")
    assert bad.reason.startswith("rank: ")


def test_a_csv_without_a_rank_column_is_refused_on_line_1() -> None:
    with pytest.raises(ExchangeError) as error:
        parse_rank_list("name,id\nA B,1\n", "csv")
    assert error.value.line == 1


def test_detection_uses_the_filename_only_as_a_hint() -> None:
    assert detect_rank_format("name,national id,rank\nA B,1,5k\n", "ech_ffg_V3.txt") == "csv"
    with pytest.raises(ExchangeError):
        detect_rank_format("hello world\n", "ranks.csv")


@pytest.mark.parametrize("text", ["", " \n\t\n", "\ufeff", "\ufeff\r\n"])
def test_a_list_of_nothing_but_spacing_or_a_byte_order_mark_is_refused_as_empty(text: str) -> None:
    with pytest.raises(ExchangeError) as error:
        detect_rank_format(text, "ranks.csv")
    assert (error.value.line, str(error.value)) == (None, "the file is empty")
