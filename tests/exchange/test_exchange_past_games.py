"""The past-games CSV reader (ratings/exchange/past_games.py), pure: the
columns in any order and case, the defaults of the optional cells, the
result's spellings, and each problem named by its line and column (the
import itself, with the database, is tests/committee/test_past_games.py)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from ratings.exchange import ExchangeError
from ratings.exchange.past_games import PastGame, read_past_games

HEADER = "date,white,white_rank,black,black_rank,handicap,komi,result,kind,club\n"


def read(text: str) -> list[PastGame]:
    return read_past_games(text.encode())


def test_a_full_line_is_read_cell_by_cell() -> None:
    (game,) = read(HEADER + "2019-03-05,Ann Lee,3k,Bo Chen,1d,3,0.5,black,tournament,Stellenbosch Go Club\n")
    assert (game.line, game.date, game.white, game.white_rank, game.black, game.black_rank) == (
        2, date(2019, 3, 5), "Ann Lee", -3, "Bo Chen", 0,
    )  # fmt: skip
    assert (game.handicap, game.komi, game.winner, game.kind, game.club) == (
        3, Decimal("0.5"), "black", "tournament", "Stellenbosch Go Club",
    )  # fmt: skip


def test_columns_in_any_order_and_case_the_optional_ones_left_out() -> None:
    text = " Club ,RESULT,Black,White,Date\nCape Town,W,  Bo   Chen ,Ann Lee,2019-03-05\n"
    (game,) = read(text)
    assert (game.white, game.black, game.winner, game.club) == ("Ann Lee", "Bo Chen", "white", "Cape Town")
    # Empty or absent: no handicap, the list's komi, a club game, ranks unknown.
    assert (game.handicap, game.komi, game.kind, game.white_rank, game.black_rank) == (
        0,
        None,
        "club",
        None,
        None,
    )


@pytest.mark.parametrize(
    ("result", "winner"),
    [
        ("white", "white"),
        ("W", "white"),
        ("Black", "black"),
        ("b", "black"),
        ("jigo", "jigo"),
        ("DRAW", "jigo"),
    ],
)
def test_a_result_in_each_of_its_spellings(result: str, winner: str) -> None:
    (game,) = read(HEADER + f"2019-03-05,Ann,,Bo,,,,{result},,Club\n")
    assert game.winner == winner


@pytest.mark.parametrize("kind", ["club", "tournament", "internet", "free", "Internet"])
def test_every_kind_is_read(kind: str) -> None:
    (game,) = read(HEADER + f"2019-03-05,Ann,,Bo,,,,white,{kind},Club\n")
    assert game.kind == kind.lower()


def test_games_keep_the_files_order_and_lines() -> None:
    games = read(HEADER + "2019-03-12,Ann,,Bo,,,,white,,Club\n\n2019-03-05,Bo,,Cy,,9,-6.5,black,,Club\n")
    assert [(g.line, g.date, g.handicap, g.komi) for g in games] == [
        (2, date(2019, 3, 12), 0, None),
        (4, date(2019, 3, 5), 9, Decimal("-6.5")),
    ]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (",Ann,,Bo,,,,white,,Club", "line 2: date: missing"),
        ("2019-03-05,,,Bo,,,,white,,Club", "line 2: white: missing"),
        ("2019-03-05,Ann,,,,,,white,,Club", "line 2: black: missing"),
        ("2019-03-05,Ann,,Bo,,,,,,Club", "line 2: result: missing"),
        ("2019-03-05,Ann,,Bo,,,,white,,", "line 2: club: missing"),
        ("2019-02-30,Ann,,Bo,,,,white,,Club", "line 2: date: '2019-02-30' is not a date (YYYY-MM-DD)"),
        ("05/03/2019,Ann,,Bo,,,,white,,Club", "line 2: date: '05/03/2019' is not a date (YYYY-MM-DD)"),
        ("2019-03-05,Ann,,Bo,,two,,white,,Club", "line 2: handicap: 'two' is not a whole number"),
        ("2019-03-05,Ann,,Bo,,-1,,white,,Club", "line 2: handicap: '-1' is not a whole number"),
        ("2019-03-05,Ann,,Bo,,10,,white,,Club", "line 2: handicap: 10 is out of range (0..9)"),
        ("2019-03-05,Ann,,Bo,,,six,white,,Club", "line 2: komi: 'six' is not a number"),
        ("2019-03-05,Ann,,Bo,,,,lost,,Club", "line 2: result: 'lost': expected white, black or jigo"),
        (
            "2019-03-05,Ann,,Bo,,,,white,league,Club",
            "line 2: kind: 'league': expected one of club, tournament, internet, free",
        ),
        ("2019-03-05,Ann,,ANN,,,,white,,Club", "line 2: the same player is on both sides"),
        ("2019-03-05,Ann,,Bo,,,,white,,Club,extra", "line 2: more fields than the header's 10"),
    ],
)
def test_a_bad_line_is_refused_naming_its_line_and_field(line: str, message: str) -> None:
    with pytest.raises(ExchangeError) as refused:
        read(HEADER + line + "\n")
    assert str(refused.value) == message
    assert refused.value.line == 2


@pytest.mark.parametrize(
    ("ranks", "message"),
    [
        ("3x,1k", "line 2: white_rank: not a rank: '3x' (expected e.g. '11k', '2d', '1.3d')"),
        ("3k,12x", "line 2: black_rank: not a rank: '12x' (expected e.g. '11k', '2d', '1.3d')"),
    ],
)
def test_a_bad_rank_is_refused_naming_its_line_and_column(ranks: str, message: str) -> None:
    white_rank, black_rank = ranks.split(",")
    with pytest.raises(ExchangeError) as refused:
        read(HEADER + f"2019-03-05,Ann,{white_rank},Bo,{black_rank},,,white,,Club\n")
    assert (refused.value.line, str(refused.value)) == (2, message)


def test_a_header_without_a_required_column_is_refused_on_line_1() -> None:
    with pytest.raises(ExchangeError) as refused:
        read("date,white,black\n2019-03-05,Ann,Bo\n")
    assert (refused.value.line, str(refused.value)) == (
        1,
        "line 1: the header lacks the columns result, club",
    )


def test_a_header_alone_holds_no_game() -> None:
    with pytest.raises(ExchangeError) as refused:
        read(HEADER)
    assert (refused.value.line, str(refused.value)) == (None, "no game in the file")


def test_a_quote_left_open_is_not_valid_csv() -> None:
    with pytest.raises(ExchangeError) as refused:
        read(HEADER + '2019-03-05,"Ann,,Bo,,,,white,,Club\n')
    assert str(refused.value).startswith("line ") and "not valid CSV" in str(refused.value)
