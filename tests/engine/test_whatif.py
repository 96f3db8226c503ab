"""What-if runs (ratings/whatif.py): reading the games CSV, writing the rows.

The source examples that fit a CSV naturally are run end to end: the FFG algorithm page's
15k against 14k, the West Surrey ladder page's Fred against Bert.  No database is used: these
tests have no ``db`` fixture, so pytest-django fails any query.
"""

from __future__ import annotations

import csv
import io
from datetime import date
from pathlib import Path

import pytest

from ratings.engine import get_system
from ratings.engine.base import Game, Kind, Start, Winner
from ratings.whatif import OUTPUT_COLUMNS, WhatIfError, rate_csv, rating_decimals, read_games

DATA = Path(__file__).resolve().parent.parent / "data"
HEADER = "date,white,black,winner,handicap,komi,white_start,black_start\n"


def rows_of(output: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(output)))


def fixture(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


# --- the sources' examples ----------------------------------------------------


@pytest.mark.parametrize(
    ("name", "winner_change", "loser_change", "winner", "loser"),
    [
        # the FFG algorithm page: "En cas de victoire du joueur 14k, il gagne alors ... 41,3
        # points tandis que son adversaire perd ... -34,7 points."
        ("whatif_ffg_14k_wins.csv", "41.3", "-34.7", "Quatorze", "Quinze"),
        # the FFG algorithm page: "En cas de victoire du joueur 15k, il gagne alors ... 55,3
        # points tandis que son adversaire perd ... -43,7 points."
        ("whatif_ffg_15k_wins.csv", "55.3", "-43.7", "Quinze", "Quatorze"),
    ],
)
def test_the_ffg_2022_worked_example_15k_against_14k(
    name: str, winner_change: str, loser_change: str, winner: str, loser: str
) -> None:
    rows = {row["player"]: row for row in rows_of(rate_csv(fixture(name), "ffg"))}
    assert rows[winner]["change"] == winner_change
    assert rows[loser]["change"] == loser_change
    # Established players (plain numbers): -1350 is a 14k level, -1450 a 15k one.
    assert rows["Quatorze"]["rating_before"] == "-1350.0"
    assert rows["Quinze"]["rating_before"] == "-1450.0"
    assert rows["Quatorze"]["rank_before"] == "14k"
    assert rows["Quinze"]["rank_before"] == "15k"


def test_the_west_surrey_example_fred_against_bert() -> None:
    # the West Surrey ladder page: "Fred=0.3, Bert=-14.5 ... 14 handicap levels which may be taken
    # as ... 9st + 50k" (komi to Black is negative) ... "When Bert wins, he is
    # promoted to 14k and Fred is demoted to 1.2d."
    rows = {
        row["player"]: row
        for row in rows_of(rate_csv(fixture("whatif_west_surrey_fred_bert.csv"), "west-surrey"))
    }
    assert rows["Fred"]["rank_before"] == "1.3d"
    assert rows["Bert"]["rank_before"] == "14.5k"
    assert rows["Bert"]["rank_after"] == "14k"
    assert rows["Fred"]["rank_after"] == "1.2d"
    assert float(rows["Bert"]["rating_after"]) == -14.0
    assert float(rows["Fred"]["rating_after"]) == pytest.approx(0.2)


# --- the output -------------------------------------------------------------


def test_it_writes_a_white_row_then_a_black_row_per_game_in_input_order() -> None:
    text = fixture("whatif_club_evening.csv")
    rows = rows_of(rate_csv(text, "sagc"))
    games = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 2 * len(games)
    for i, game in enumerate(games):
        white, black = rows[2 * i], rows[2 * i + 1]
        assert (white["player"], white["opponent"]) == (game["white"], game["black"])
        assert (black["player"], black["opponent"]) == (game["black"], game["white"])
        assert white["date"] == black["date"] == game["date"]
        assert white["event"] == black["event"] == game["event"]


def test_the_header_is_the_documented_one() -> None:
    output = rate_csv(fixture("whatif_club_evening.csv"), "sagc")
    assert output.splitlines()[0] == ",".join(OUTPUT_COLUMNS)
    assert OUTPUT_COLUMNS == (
        "date",
        "event",
        "player",
        "opponent",
        "rank_before",
        "rating_before",
        "change",
        "rank_after",
        "rating_after",
    )


def test_the_sagc_index_is_written_as_a_whole_number() -> None:
    rows = rows_of(rate_csv(fixture("whatif_club_evening.csv"), "sagc"))
    for row in rows:
        for column in ("rating_before", "change", "rating_after"):
            assert row[column].lstrip("-").isdigit(), (column, row[column])


def test_a_players_rows_chain_rating_after_into_the_next_rating_before() -> None:
    rows = rows_of(rate_csv(fixture("whatif_club_evening.csv"), "sagc"))
    last: dict[str, str] = {}
    for row in rows:
        if row["player"] in last and row["date"] != "2024-03-09":  # not inside a tournament
            assert row["rating_before"] == last[row["player"]]
        last[row["player"]] = row["rating_after"]


def test_a_new_players_rank_start_is_their_rank_before() -> None:
    rows = rows_of(rate_csv(fixture("whatif_club_evening.csv"), "sagc"))
    first: dict[str, str] = {}
    for row in rows:
        first.setdefault(row["player"], row["rank_before"])
    assert first == {"Alice": "3k", "Bongani": "4k", "Chen": "2d", "Dineo": "2k", "Eve": "5k"}


def test_a_plain_number_start_is_an_established_rating_in_the_systems_unit() -> None:
    text = HEADER + "2024-01-06,Ann,Bob,white,0,6.5,1923.5,12k\n"
    rows = rows_of(rate_csv(text, "egf"))
    assert rows[0]["rating_before"] == "1923.500"
    assert rows[1]["rating_before"] == "900.000"  # a new 12k: 1k = 2000, 100 a grade


def test_a_later_start_of_a_known_player_is_not_used() -> None:
    text = HEADER + "2024-01-06,Ann,Bob,white,0,6.5,5k,6k\n2024-01-07,Ann,Bob,white,0,6.5,1d,1d\n"
    data = read_games(io.StringIO(text))
    assert data.starts == {"Ann": Start(rank=-5.0), "Bob": Start(rank=-6.0)}


def test_optional_columns_are_read_and_default_when_absent() -> None:
    data = read_games(io.StringIO(fixture("whatif_club_evening.csv")))
    assert data.lines == [2, 3, 4, 5, 6, 7, 8]
    free, tournament = data.games[2], data.games[4]
    assert (free.kind, free.board, free.minutes, free.event) == (Kind.FREE, 9, 10, None)
    assert (tournament.kind, tournament.event, tournament.event_class) == (
        Kind.TOURNAMENT,
        "Spring Open",
        "B",
    )
    assert data.games[5].winner is Winner.JIGO
    assert data.games[3].komi == -5.5
    plain = read_games(io.StringIO(HEADER + "2024-01-06,Ann,Bob,white,2,0.5,5k,7k\n")).games[0]
    assert plain == Game(date(2024, 1, 6), "Ann", "Bob", Winner.WHITE, handicap=2, komi=0.5)


def test_a_byte_order_mark_and_blank_lines_are_tolerated() -> None:
    text = "\ufeff" + HEADER + "\n2024-01-06,Ann,Bob,white,0,6.5,5k,6k\n\n"
    assert len(rows_of(rate_csv(text, "sagc"))) == 2


def test_the_decimals_follow_the_system() -> None:
    assert rating_decimals(get_system("sagc")) == 0
    assert rating_decimals(get_system("egf")) == 3


def test_a_system_may_set_its_own_decimals() -> None:
    class Stub:
        name = "stub"
        rating_decimals = 4

    # A stand-in with only what rating_decimals reads, not a whole RatingSystem.
    assert rating_decimals(Stub()) == 4  # type: ignore[arg-type]


# --- bad input: a clear error naming the line and the column ---------------


@pytest.mark.parametrize(
    ("row", "column", "words"),
    [
        ("2024-13-06,Ann,Bob,white,0,6.5,5k,6k", "date", "not a date"),
        ("06/01/2024,Ann,Bob,white,0,6.5,5k,6k", "date", "YYYY-MM-DD"),
        (",Ann,Bob,white,0,6.5,5k,6k", "date", "not a date"),
        ("2024-01-06,,Bob,white,0,6.5,5k,6k", "white", "empty"),
        ("2024-01-06,Ann,,white,0,6.5,5k,6k", "black", "empty"),
        ("2024-01-06,Ann,Ann,white,0,6.5,5k,6k", "black", "themselves"),
        ("2024-01-06,Ann,Bob,W+R,0,6.5,5k,6k", "winner", "not one of white, black, jigo"),
        ("2024-01-06,Ann,Bob,white,-1,6.5,5k,6k", "handicap", "below 0"),
        ("2024-01-06,Ann,Bob,white,two,6.5,5k,6k", "handicap", "not a whole number"),
        ('2024-01-06,Ann,Bob,white,0,"6,5",5k,6k', "komi", "not a number"),
        ("2024-01-06,Ann,Bob,white,0,nan,5k,6k", "komi", "finite"),
        (
            "2024-01-06,Ann,Bob,white,0,6.5,,6k",
            "white_start",
            "'Ann' appears for the first time without a start",
        ),
        (
            "2024-01-06,Ann,Bob,white,0,6.5,5k,",
            "black_start",
            "'Bob' appears for the first time without a start",
        ),
        ("2024-01-06,Ann,Bob,white,0,6.5,0.5d,6k", "white_start", "dan grades start at 1d"),
        ("2024-01-06,Ann,Bob,white,0,6.5,5k,35k", "black_start", "outside 30k..9d"),
        ("2024-01-06,Ann,Bob,white,0,6.5,5k,strong", "black_start", "not a number"),
        ("2024-01-06,Ann,Bob,white,0,6.5,5k", "black_start", "7 cells, the header has 8"),
    ],
)
def test_a_bad_cell_is_named_by_line_and_column(row: str, column: str, words: str) -> None:
    text = HEADER + "2024-01-05,Cid,Dan,black,0,6.5,3k,3k\n" + row + "\n"
    with pytest.raises(WhatIfError) as caught:
        rate_csv(text, "sagc")
    assert caught.value.line == 3
    assert caught.value.column == column
    assert words in str(caught.value)
    assert str(caught.value).startswith(f"line 3, column {column}: ")


@pytest.mark.parametrize(
    ("column", "value", "words"),
    [
        ("kind", "ladder", "not one of free, internet, club, tournament"),
        ("board", "11", "not a board size"),
        ("minutes", "0", "below 1"),
        ("class", "E", "not an EGF class"),
    ],
)
def test_a_bad_optional_cell_is_named_by_line_and_column(column: str, value: str, words: str) -> None:
    text = f"date,white,black,winner,handicap,komi,white_start,black_start,{column}\n"
    text += f"2024-01-06,Ann,Bob,white,0,6.5,5k,6k,{value}\n"
    with pytest.raises(WhatIfError) as caught:
        rate_csv(text, "sagc")
    assert (caught.value.line, caught.value.column) == (2, column)
    assert words in caught.value.message


def test_dates_going_backwards_are_refused_not_sorted() -> None:
    text = HEADER + "2024-01-06,Ann,Bob,white,0,6.5,5k,6k\n2024-01-05,Ann,Bob,white,0,6.5,,\n"
    with pytest.raises(WhatIfError) as caught:
        rate_csv(text, "sagc")
    assert (caught.value.line, caught.value.column) == (3, "date")
    assert "before the previous game's 2024-01-06" in caught.value.message


@pytest.mark.parametrize(
    ("header", "column", "words"),
    [
        ("date,white,black,winner,handicap,komi,colour", "colour", "unknown column"),
        ("date,white,black,winner,komi", "handicap", "required column missing"),
        ("date,white,black,winner,handicap,komi,komi", "komi", "given twice"),
    ],
)
def test_a_bad_header_is_named_on_line_1(header: str, column: str, words: str) -> None:
    with pytest.raises(WhatIfError) as caught:
        rate_csv(header + "\n", "sagc")
    assert (caught.value.line, caught.value.column) == (1, column)
    assert words in caught.value.message


def test_an_empty_file_is_refused() -> None:
    with pytest.raises(WhatIfError, match=r"^line 1, column date: the file is empty"):
        rate_csv("", "sagc")


def test_a_game_the_system_refuses_is_named_by_its_line_and_column() -> None:
    # SAGC refuses more stones than 30k..9d apart (an InvalidEvent from the
    # engine, mapped back to the CSV line).
    text = HEADER + "2024-01-06,Ann,Bob,white,0,6.5,5k,6k\n2024-01-07,Ann,Bob,white,99,0.5,,\n"
    with pytest.raises(WhatIfError) as caught:
        rate_csv(text, "sagc")
    assert (caught.value.line, caught.value.column) == (3, "handicap")


def test_an_unknown_system_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown rating system 'elo'"):
        rate_csv(HEADER, "elo")


# --- West Surrey's end rungs -------------------------------------------


@pytest.mark.parametrize(
    ("start", "after"), [("40k", "39k"), ("35k", "34k"), ("31k", "30k"), ("9.1d", "9.2d")]
)
def test_west_surrey_starts_on_the_ladders_end_rungs(start: str, after: str) -> None:
    # the West Surrey ladder page lists the rungs from 40k to 9.9d; a new player may declare any of them.
    text = HEADER + f"2024-01-06,Low,Top,white,0,6.5,{start},9.9d\n"
    rows = {row["player"]: row for row in rows_of(rate_csv(text, "west-surrey"))}
    assert rows["Low"]["rank_before"] == start
    assert rows["Low"]["rank_after"] == after
    assert rows["Top"]["rank_before"] == "9.9d"
    assert rows["Top"]["rank_after"] == "9.8d"


def test_west_surrey_refuses_a_start_beyond_its_ladder_and_sagc_beyond_30k() -> None:
    with pytest.raises(WhatIfError, match=r"outside 40k\.\.9\.9d"):
        rate_csv(HEADER + "2024-01-06,Low,Top,white,0,6.5,41k,9d\n", "west-surrey")
    with pytest.raises(WhatIfError, match=r"outside 30k\.\.9d"):
        rate_csv(HEADER + "2024-01-06,Low,Top,white,0,6.5,35k,9d\n", "sagc")
