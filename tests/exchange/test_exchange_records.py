"""Game records in JSON: the text written, the fields read back, and what a bad record is told."""

from __future__ import annotations

import json

import pytest

from ratings.exchange import GAME_FIELDS, ExchangeError, game_records, iter_games_json, parse_tournament

RECORD = {
    "date": "2024-03-01",
    "event": "Ladder of March",
    "round": 2,
    "kind": "club",
    "board": 13,
    "white": "Jean Dupont",
    "white_rank": "2d",
    "black": "Léa Martin",
    "black_rank": "3k",
    "handicap": 4,
    "komi": 0.5,
    "winner": "black",
}


def refusal(value: object) -> ExchangeError:
    with pytest.raises(ExchangeError) as error:
        parse_tournament(value if isinstance(value, str) else json.dumps(value), "json")
    return error.value


def test_the_json_file_is_the_documented_object_written_with_indent_1() -> None:
    records = game_records(parse_tournament(json.dumps([RECORD, dict(RECORD, round=3)]), "json"))
    text = "".join(iter_games_json(records))
    assert text == json.dumps({"fields": list(GAME_FIELDS), "games": records}, ensure_ascii=False, indent=1)


def test_a_record_keeps_its_board_and_its_event() -> None:
    (game,) = parse_tournament(json.dumps([RECORD]), "json").games
    assert (game.board, game.event, game.round, game.handicap) == (13, "Ladder of March", 2, 4)


def test_the_events_class_is_read_from_the_records_that_give_it() -> None:
    t = parse_tournament(json.dumps([RECORD, dict(RECORD, round=3, event_class="B")]), "json")
    assert t.event_class == "B"


def test_text_that_is_not_json_is_refused_at_its_line_and_column() -> None:
    error = refusal('[\n {"white": "A",\n  "black" "B"}\n]')
    assert (error.line, error.column, error.message) == (3, 11, "not valid JSON: Expecting ':' delimiter")


def test_json_that_holds_no_list_of_games_says_what_it_expected() -> None:
    error = refusal({"fields": list(GAME_FIELDS)})
    assert (error.line, error.message) == (
        None,
        "expected a list of game records (or an object with a 'games' list)",
    )


def test_a_record_with_a_value_of_the_wrong_kind_names_it() -> None:
    error = refusal([dict(RECORD, handicap="two")])
    assert (error.line, error.message) == (
        1,
        "not a valid value: invalid literal for int() with base 10: 'two'",
    )


def test_a_record_without_komi_is_refused() -> None:
    error = refusal([dict(RECORD, komi=None)])
    assert (error.line, error.message) == (1, "komi is missing or not a number")
