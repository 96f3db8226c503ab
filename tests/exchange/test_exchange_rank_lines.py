"""Rank lists line by line: placeholders, a bad field's reason and column, and a list's own refusals.

The lines are taken from the real lists (ech_ffg_V3 of July 2021, the AGA
TD list, allworld_lp of February 2020), some with one field spoilt.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ratings.exchange import ExchangeError, detect_rank_format, parse_rank_list

FIXTURES = Path(__file__).resolve().parent.parent / "data"
FFG_HEAD = "#Echelle au 11/07/2021 07:09:39\n"
AGA_LINES = (
    "Aal, Zachary\t15648\tFull\t-20.05711\t7/2/2008\tLIGC\tNY\t1.09198\t8/1/2007\n"
    "Abbey, Ralph\t17957\tFull\t-5.50000\t7/2/2008\tLIGC\tNY\t1.09198\t8/1/2007\n"
)


def test_ffg_club_placeholders_in_either_case_mean_no_club() -> None:
    text = (
        FFG_HEAD + "AISSA Sofiane                         -9999 - 9148402 XXXX FR\n"
        "AAIJ René                               268 e ------- xxxx NL\n"
        "AMBLARD Pierre_Olivier                 -400 - 9613005 38Gr FR\n"
    )
    entries = parse_rank_list(text, "ffg").entries
    assert [e.club for e in entries] == [None, None, "38Gr"]


def test_an_ffg_given_name_written_with_an_underscore_reads_with_a_space() -> None:
    text = FFG_HEAD + "AMBLARD Pierre_Olivier                 -400 - 9613005 38Gr FR\n"
    (entry,) = parse_rank_list(text, "ffg").entries
    assert (entry.surname, entry.given_name) == ("AMBLARD", "Pierre Olivier")


def test_a_bad_ffg_licence_names_line_and_column() -> None:
    bad = "ARENILLAS Jean_Renaud                  -800 - 130029  17Ro FR"
    text = FFG_HEAD + "AMBLARD Pierre_Olivier                 -400 - 9613005 38Gr FR\n" + bad + "\n"
    text += "AISSA Sofiane                         -9999 - 9148402 XXXX FR\n"
    (rejected,) = parse_rank_list(text, "ffg").rejected
    assert (rejected.line, rejected.column, rejected.reason) == (
        3,
        bad.index("130029") + 1,
        "licence '130029' is not 7 characters or '-------'",
    )


def test_a_ladder_whose_lines_are_all_damaged_is_still_read_as_the_ffg_ladder() -> None:
    # The '#Echelle' header decides: the reader then says what is wrong with the lines.
    text = FFG_HEAD + "DUPONT Jean   -5x0 - 1234567 75Pa FR\n"
    assert detect_rank_format(text) == "ffg"
    with pytest.raises(ExchangeError, match="level '-5x0' is not a whole number"):
        parse_rank_list(text)


def test_a_list_of_no_known_kind_says_which_lists_are_known() -> None:
    with pytest.raises(ExchangeError) as error:
        detect_rank_format("hello world\n")
    assert (error.value.line, error.value.message) == (
        1,
        "not a rank list this site knows (expected the FFG ladder, the AGA TD list, "
        "the EGD allworld_lp list or a CSV with name, national id and rank columns)",
    )


def test_a_bad_aga_rating_names_the_field_and_its_column() -> None:
    bad = "Abad, Jahin\t19574\tFull\t-2O.5\t7/2/2008\tLIGC\tNY\t1.09198\t8/1/2007"
    (rejected,) = parse_rank_list(AGA_LINES + bad + "\n", "aga").rejected
    assert (rejected.line, rejected.column, rejected.reason) == (
        3,
        bad.index("-2O.5") + 1,
        "rating '-2O.5' (field 4) is not a signed number like -20.05 or 3.4",
    )


def test_a_csv_without_an_id_column_names_the_missing_column_and_the_header_found() -> None:
    with pytest.raises(ExchangeError) as error:
        parse_rank_list("Name,Rank\nDupont Jean,5k\n", "csv")
    assert error.value.line == 1
    assert error.value.message.startswith(
        "the header has no 'national id' column (expected one of national id, "
    )
    assert error.value.message.endswith("; found name, rank)")


def test_a_rejected_csv_row_keeps_its_first_120_characters() -> None:
    long_row = "Dupont Jean,1234567,five kyu" + " (see the note)" * 10
    ranks = parse_rank_list("name,id,rank\nMartin Lea,7654321,5k\n" + long_row + "\nPetit Paul,1,2d\n", "csv")
    (rejected,) = ranks.rejected
    assert rejected.text == long_row[:120]


def test_a_truncated_egd_list_says_how_many_players_it_announced_and_found() -> None:
    text = (FIXTURES / "allworld_lp_sample.html").read_text()
    without_last_player = "\n".join(line for line in text.splitlines() if "Dupont Jean" not in line)
    with pytest.raises(ExchangeError) as error:
        parse_rank_list(without_last_player)
    assert error.value.message == (
        "the list says it has 6 players but 5 player lines were found (truncated or damaged file?)"
    )


def test_an_aga_line_without_a_name_is_rejected_at_its_first_column() -> None:
    nameless = " , \t12345\tFull\t-5.50000\t7/2/2008\tLIGC\tNY\t1.09198\t8/1/2007\n"
    (rejected,) = parse_rank_list(AGA_LINES + nameless, "aga").rejected
    assert (rejected.line, rejected.column, rejected.reason) == (3, 1, "the name (field 1) is empty")


def test_an_ffg_level_off_the_ladder_is_rejected_at_its_column() -> None:
    bad = "DUPONT Jean                            1300 - 1234567 75Pa FR"
    text = FFG_HEAD + "AMBLARD Pierre_Olivier                 -400 - 9613005 38Gr FR\n" + bad + "\n"
    (rejected,) = parse_rank_list(text, "ffg").rejected
    assert (rejected.line, rejected.column, rejected.reason) == (
        3,
        bad.index("1300") + 1,
        "level 1300 is out of range",
    )


def test_a_rank_csv_that_is_not_valid_csv_says_so_on_its_line() -> None:
    with pytest.raises(ExchangeError) as error:
        parse_rank_list('name,id,rank\n"Doe, John"x,123,5k\n', "csv")
    assert (error.value.line, error.value.message) == (2, "not valid CSV: ',' expected after '\"'")


def test_a_list_with_no_good_line_points_at_the_first_bad_field() -> None:
    bad = "ARENILLAS Jean_Renaud                  -800 - 130029  17Ro FR"
    with pytest.raises(ExchangeError) as error:
        parse_rank_list(FFG_HEAD + bad + "\n", "ffg")
    assert (error.value.line, error.value.column) == (2, bad.index("130029") + 1)
