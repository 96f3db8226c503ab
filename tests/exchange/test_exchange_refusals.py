"""What a refused results file says: the line, the column and the words a committee member reads.

Each test is a small file of the real formats with one thing wrong; the
message must name what was expected and where, so the file can be fixed.
"""

from __future__ import annotations

import pytest

from ratings.exchange import (
    ExchangeError,
    Player,
    Tournament,
    TournamentGame,
    Winner,
    detect_game_format,
    parse_tournament,
)
from ratings.exchange.text import decode_text

TOU_HEAD = ";name=Test\n;komi=7.5\n"


def refusal(text: str, fmt: str) -> ExchangeError:
    with pytest.raises(ExchangeError) as error:
        parse_tournament(text, fmt)  # type: ignore[arg-type]
    return error.value


def test_two_lines_that_disagree_about_a_game_are_both_quoted_with_colour_and_stones() -> None:
    one = "   1 Dupont Jean              3D 1800014 75Ju    2+b3"
    two = "   2 Martin Lea               3K -------  75Ju    1-w2"
    error = refusal(TOU_HEAD + one + "\n" + two + "\n", "tou")
    assert error.message == (
        "round 1: the two lines disagree about this game: line 3 says player 1 won against 2 "
        "with Black, 3 stones ('2+b3'), line 4 says player 2 lost against 1 with White, 2 stones ('1-w2')"
    )
    assert (error.line, error.column, error.other_line) == (3, one.index("2+b3") + 1, 4)
    assert str(error).startswith(f"line 3, column {one.index('2+b3') + 1} (and line 4): round 1: ")


def test_a_game_missing_from_the_opponents_shorter_line_says_no_result() -> None:
    one = "   1 Dupont Jean              3D 1800014 75Ju    2+w0    2-b0"
    two = "   2 Martin Lea               3K -------  75Ju    1-b0"
    error = refusal(TOU_HEAD + one + "\n" + two + "\n", "tou")
    assert error.message == (
        "round 2: line 3 says player 1 lost against 2 with Black ('2-b0'), "
        "but line 4 (player 2) has no result"
    )
    assert (error.line, error.column, error.other_line) == (3, one.index("2-b0") + 1, 4)


@pytest.mark.parametrize("value", ["seven", "7.5.1", "inf"])
def test_a_tou_header_number_that_is_not_one_is_refused_naming_its_line(value: str) -> None:
    error = refusal(f";name=Test\n;komi={value}\n   1 Dupont Jean    3D 1800014 75Ju    0=\n", "tou")
    assert (error.line, error.message) == (2, f";komi={value}: expected a number")


def test_an_h9_line_that_is_not_a_player_line_says_what_one_looks_like() -> None:
    error = refusal("; EV[Test]\n   1 Dupont Jean     5k FR 75Pa   1    0=\nhello\n", "h9")
    assert error.line == 3
    assert error.message == (
        "not an EGD results line (expected 'place Surname Firstname grade country club "
        "tie-breaks results', e.g. '1 Dupont Jean 5k FR 75Pa 3 2+/w0')"
    )


def test_an_h9_handicap_rule_that_is_not_hn_is_refused_on_its_tag_line() -> None:
    text = "; EV[Test]\n; HA[9]\n   1 Dupont Jean     5k FR 75Pa   1    2+/w0\n   2 Martin Lea      6k FR 75Pa   0    1-/b0\n"
    error = refusal(text, "h9")
    assert (error.line, error.message) == (2, "HA[9]: expected hN, e.g. HA[h9]")


def test_an_aga_game_of_an_unknown_player_points_at_that_players_id() -> None:
    head = "TOURNEY Test\nPLAYERS\n   101 Doe, John  5k\n   102 Roe, Jane  3k\nGAMES\n"
    white = refusal(head + "999 102 w 0 7\n", "aga")
    assert (white.line, white.column, white.message) == (6, 1, "player 999 is not in PLAYERS")
    black = refusal(head + "101  999 b 0 7\n", "aga")
    assert (black.line, black.column, black.message) == (6, 6, "player 999 is not in PLAYERS")


def test_a_file_with_a_utf_8_mark_and_a_latin_1_line_is_refused_at_the_bad_character() -> None:
    data = "\ufeff;name=Test\n".encode() + b"   1 Ren\xe9 Martin\n"
    with pytest.raises(ExchangeError) as error:
        decode_text(data)
    assert (error.value.line, error.value.column) == (2, 9)
    assert error.value.message == "the file says it is UTF-8 (byte-order mark) but this line is not"


def test_a_tou_row_that_is_not_a_player_row_says_what_one_looks_like() -> None:
    error = refusal(TOU_HEAD + "Dupont Jean 3D\n", "tou")
    assert error.line == 3
    assert error.message == (
        "not a .tou player row (expected 'number Surname Firstname level licence club results', "
        "e.g. '   1 Dupont Jean   3D 1800014 75Ju    2+w0')"
    )


def test_a_tou_result_that_is_not_one_names_its_line_and_column() -> None:
    row = "   1 Dupont Jean              3D 1800014 75Ju    0=   2x"
    error = refusal(TOU_HEAD + row + "\n", "tou")
    assert (error.line, error.column) == (3, row.index("2x") + 1)
    assert error.message == "'2x' is not a round result like '2+w0' or '0='"


def test_a_file_of_headers_only_is_not_a_tou_or_aga_file() -> None:
    assert refusal(TOU_HEAD, "tou").message == "no player rows: this is not an FFG .tou file"
    assert refusal("# nothing here\n", "aga").message == (
        "no TOURNEY or PLAYERS section: this is not an AGA results file"
    )


def test_an_aga_date_that_is_not_one_is_refused_on_its_line() -> None:
    text = "TOURNEY Test\n\tstart=13/45/2024\nPLAYERS\n   101 Doe, John  5k\n   102 Roe, Jane  3k\nGAMES\n101 102 w 0 7\n"
    error = refusal(text, "aga")
    assert (error.line, error.message) == (2, "'13/45/2024' is not a date (expected mm/dd/yyyy)")


def test_a_file_of_no_known_kind_says_which_kinds_are_known() -> None:
    with pytest.raises(ExchangeError) as error:
        detect_game_format("Dupont Jean won against Martin Lea\n")
    assert (error.value.line, error.value.message) == (
        1,
        "not a results file this site knows (expected an EGD .h9, an FFG .tou, an AGA results file, "
        "or the game-record CSV/JSON)",
    )


def test_a_game_of_a_player_missing_from_the_list_is_refused_naming_the_game_and_player() -> None:
    players = (Player("1", "Jean Dupont", rank=-5), Player("2", "Léa Martin", rank=2))
    games = (TournamentGame(1, "1", "3", Winner.WHITE, 0, 7.5),)
    with pytest.raises(ExchangeError) as error:
        Tournament("Test", players=players, games=games).check()
    assert error.value.message == "game 1: player '3' is not in the player list"
