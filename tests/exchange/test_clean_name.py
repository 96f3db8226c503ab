"""clean_name: the one gate every new player's name passes."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.exchange import clean_name
from ratings.exchange.h9 import parse_h9, write_h9
from ratings.exchange.model import Player, Tournament, TournamentGame, Winner


def test_it_composes_to_nfc() -> None:
    assert clean_name("Le\u0301a Martin") == "L\u00e9a Martin"


@pytest.mark.parametrize(
    "char",
    [
        "\u200b",
        "\u200c",
        "\u200d",
        "\u2060",
        "\ufeff",
        "\u00ad",
        "\u200e",
        "\u200f",
        "\u202a",
        "\u202e",
        "\u2066",
        "\u2069",
    ],
)
def test_it_removes_zero_width_and_bidi_controls(char: str) -> None:
    assert clean_name(f"{char}Ann{char} Bee{char}") == "Ann Bee"


def test_it_collapses_white_space() -> None:
    assert clean_name(" \tAnn \u00a0\u3000 Bee\n ") == "Ann Bee"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Ann|Bee", "cannot contain '|'"),
        ("Ann\x00Bee", "control characters (U+0000)"),
        ("Ann\x07", "control characters (U+0007)"),
        (" \u200b ", "the name is empty"),
        ("A" * 101, "101 characters long; at most 100"),
        ("J\u0435an Dupont", "'J\u0435an' mixes letters of different alphabets (Cyrillic, Latin)"),
        ("\u0391nna", "mixes letters of different alphabets (Greek, Latin)"),
    ],
)
def test_it_refuses_with_a_message(text: str, message: str) -> None:
    with pytest.raises(ValueError) as error:
        clean_name(text)
    assert message in str(error.value)


@pytest.mark.parametrize(
    "name",
    [
        "\u041e\u043b\u0435\u0433 Pavlov",
        "\u0391\u03bb\u03ad\u03be\u03b7\u03c2",
        "Wang \u738b",
        "M\u00fcller-L\u00fcdenscheidt",
        "O'Neil",
    ],
)
def test_names_in_one_alphabet_per_word_pass(name: str) -> None:
    assert clean_name(name) == name


@given(st.text(max_size=60))
def test_a_cleaned_name_is_clean_and_cleaning_it_again_changes_nothing(text: str) -> None:
    try:
        name = clean_name(text)
    except ValueError:
        return
    assert clean_name(name) == name
    assert name == unicodedata.normalize("NFC", name) and name == " ".join(name.split())
    assert not any(unicodedata.category(c) in ("Cf", "Cc") for c in name) and "|" not in name


def test_a_cleaned_name_survives_the_h9_export() -> None:
    # A '|' would have started the EGD PIN column of the player's line.
    names = [clean_name("Ann \u200bBee"), clean_name("Carl  Dee")]
    players = tuple(Player(key=str(i), name=n, rank=-10.0, egd_pin="12345678") for i, n in enumerate(names))
    tournament = Tournament(
        name="Ladder",
        players=players,
        games=(TournamentGame(round=1, white="0", black="1", winner=Winner.WHITE),),
    )
    back = parse_h9(write_h9(tournament))
    assert sorted(p.egd_pin or "" for p in back.players) == ["12345678", "12345678"]
    assert sorted(" ".join(filter(None, (p.surname, p.given_name))) for p in back.players) == [
        "Ann Bee",
        "Carl Dee",
    ]


def test_a_bar_in_a_name_stored_before_cleaning_cannot_break_the_h9_line() -> None:
    players = (
        Player(key="0", name="Ann|Bee", rank=-10.0, egd_pin="12345678"),
        Player(key="1", name="Carl Dee", rank=-10.0),
    )
    tournament = Tournament(
        name="Ladder",
        players=players,
        games=(TournamentGame(round=1, white="0", black="1", winner=Winner.WHITE),),
    )
    back = {p.egd_pin for p in parse_h9(write_h9(tournament)).players}
    assert back == {"12345678", None}
