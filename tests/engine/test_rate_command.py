"""``manage.py rate GAMES.csv --system NAME [--out FILE]``.

The command must work on a fresh clone before ``migrate``: it is run in a
subprocess against a SQLite path that does not exist, which must still not
exist afterwards (SQLite creates its file on the first connection).  The
in-process tests have no ``db`` fixture, so pytest-django fails any query.
"""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

REPO = Path(__file__).resolve().parent.parent.parent
DATA = Path(__file__).resolve().parent.parent / "data"
EVENING = DATA / "whatif_club_evening.csv"
BAD = "date,white,black,winner,handicap,komi,white_start,black_start\n2024-01-06,Ann,Bob,white,0,6.5,5k,6k\n2024-01-07,Ann,Bob,white,many,6.5,,\n"


def manage(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    database = tmp_path / "fresh-clone" / "db.sqlite3"
    environment = dict(os.environ, DATABASE_URL=f"sqlite:///{database}")
    environment.pop("DJANGO_SETTINGS_MODULE", None)  # as a user's shell would have it
    process = subprocess.run(
        [sys.executable, "manage.py", "rate", *args],
        cwd=REPO,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return process, database


@pytest.mark.not_for_mutants
def test_it_runs_before_migrate_without_touching_the_database(tmp_path: Path) -> None:
    (tmp_path / "fresh-clone").mkdir()
    process, database = manage(tmp_path, str(EVENING), "--system", "sagc")
    assert process.returncode == 0, process.stderr
    rows = list(csv.DictReader(io.StringIO(process.stdout)))
    assert len(rows) == 14  # 7 games, two rows each
    assert rows[0]["player"] == "Alice"
    assert not database.exists()


@pytest.mark.not_for_mutants
def test_out_writes_the_file_and_nothing_on_stdout(tmp_path: Path) -> None:
    out = tmp_path / "result.csv"
    process, _ = manage(tmp_path, str(EVENING), "--system", "egf", "--out", str(out))
    assert process.returncode == 0, process.stderr
    assert process.stdout == ""
    assert out.read_text().splitlines()[0].startswith("date,event,player,opponent,rank_before")
    assert "14 rows written" in process.stderr


@pytest.mark.not_for_mutants
def test_a_bad_row_names_line_and_column_and_writes_nothing(tmp_path: Path) -> None:
    games = tmp_path / "games.csv"
    games.write_text(BAD)
    out = tmp_path / "result.csv"
    process, _ = manage(tmp_path, str(games), "--system", "sagc", "--out", str(out))
    assert process.returncode != 0
    assert "line 3, column handicap: 'many' is not a whole number" in process.stderr
    assert process.stdout == ""
    assert not out.exists()
    assert list(tmp_path.iterdir()) == [games]  # no temporary file left behind either


def test_a_bad_row_leaves_an_existing_out_file_as_it_was(tmp_path: Path) -> None:
    games = tmp_path / "games.csv"
    games.write_text(BAD)
    out = tmp_path / "result.csv"
    out.write_text("yesterday's result\n")
    with pytest.raises(CommandError, match="line 3, column handicap"):
        call_command("rate", str(games), system="sagc", out=str(out))
    assert out.read_text() == "yesterday's result\n"


def test_the_output_is_the_same_in_process_and_on_stdout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    call_command("rate", str(EVENING), system="sagc")
    in_process = capsys.readouterr().out
    process, _ = manage(tmp_path, str(EVENING), "--system", "sagc")
    assert in_process == process.stdout
    assert in_process.count("\n") == 15


@pytest.mark.not_for_mutants
def test_an_unknown_system_is_refused(tmp_path: Path) -> None:
    process, _ = manage(tmp_path, str(EVENING), "--system", "elo")
    assert process.returncode != 0
    assert "invalid choice: 'elo'" in process.stderr


def test_a_missing_file_is_refused() -> None:
    with pytest.raises(CommandError, match=r"nope\.csv: cannot read"):
        call_command("rate", "nope.csv", system="sagc")


def test_a_file_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    games = tmp_path / "latin1.csv"
    games.write_bytes(
        "date,white,black,winner,handicap,komi,white_start,black_start\n2024-01-06,Zoë,Bob,white,0,6.5,5k,6k\n".encode(
            "latin-1"
        )
    )
    with pytest.raises(CommandError, match="not UTF-8"):
        call_command("rate", str(games), system="sagc")
