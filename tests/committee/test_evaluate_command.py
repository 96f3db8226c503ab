"""``manage.py evaluate``: on a CSV of games (no database) and on a rating list's games."""

from __future__ import annotations

import csv
import io
from datetime import date
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ratings.evaluation.metrics import score
from ratings.evaluation.predict import PREDICTORS
from ratings.models import Club
from tests.support import MakePlayer

GAMES = """date,white,black,winner,handicap,komi,white_start,black_start
2024-03-01,Alice,Bongani,white,0,6.5,2k,3k
2024-03-01,=HYPERLINK("x"),Alice,black,2,0.5,4k,
2024-03-08,Bongani,=HYPERLINK("x"),white,1,0.5,,
2024-03-08,Alice,Bongani,jigo,0,6,,
"""


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("evaluate", *args, stdout=out)
    return out.getvalue()


def test_it_scores_every_system_and_both_baselines_on_a_csv(tmp_path: Path) -> None:
    path = tmp_path / "games.csv"
    path.write_text(GAMES, encoding="utf-8")
    out = run(str(path))
    assert "4 games predicted" in out
    assert "overall:" in out and "handicap even:" in out and "rank 1k-9k:" in out
    overall = out.split("overall:")[1].split("\n\n")[0]
    for name in PREDICTORS:
        assert f"\n  {name} " in overall
    # Always 50 %: log-loss ln 2 = 0.6931 (the jigo too), Brier 0.25 on the three
    # decisive games and 0 on the jigo (0.75 / 4 = 0.1875), accuracy 50 %.
    assert "even               4    0.6931  0.1875    50.0 %" in overall


def test_the_predictions_file_recomputes_every_figure(tmp_path: Path) -> None:
    path = tmp_path / "games.csv"
    path.write_text(GAMES, encoding="utf-8")
    target = tmp_path / "predictions.csv"
    out = run(str(path), "--systems", "egf,sagc", "--predictions", str(target))
    rows = list(csv.DictReader(target.open(encoding="utf-8", newline="")))
    assert len(rows) == 4 * 4  # four games, egf, sagc and the two baselines
    assert {r["system"] for r in rows} == {"egf", "sagc", "even", "ranks"}
    # A name a spreadsheet would run as a formula is neutralised.
    assert rows[4]["white"] == '\'=HYPERLINK("x")'
    assert rows[0]["date"] == "2024-03-01" and rows[0]["result"] == "white"
    value = {"white": 1.0, "black": 0.0, "jigo": 0.5}
    for name in ("egf", "sagc", "ranks"):
        mine = [r for r in rows if r["system"] == name]
        m = score((float(r["probability"]), value[r["result"]]) for r in mine)
        line = next(x for x in out.split("overall:")[1].splitlines() if x.startswith(f"  {name} "))
        assert f"{m.log_loss:.4f}" in line and f"{m.brier:.4f}" in line


def test_a_bad_row_stops_the_run_naming_its_line(tmp_path: Path) -> None:
    path = tmp_path / "games.csv"
    path.write_text(GAMES.replace("2024-03-08,Alice", "2024-03-08,Alice,"), encoding="utf-8")
    target = tmp_path / "predictions.csv"
    with pytest.raises(CommandError, match="line 5"):
        run(str(path), "--predictions", str(target))
    assert not target.exists()


def test_a_game_a_system_refuses_names_its_line(tmp_path: Path) -> None:
    # SAGC needs a starting rank, not an index (a plain number).
    path = tmp_path / "games.csv"
    path.write_text(GAMES.replace(",2k,3k", ",300,3k"), encoding="utf-8")
    with pytest.raises(CommandError, match="line 2: event 0: white_start"):
        run(str(path), "--systems", "sagc")


def test_it_wants_a_csv_or_a_club_and_known_systems(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match=r"either a CSV of games \(or results files\) or --list"):
        run()
    with pytest.raises(CommandError, match="unknown system 'elo'"):
        run("x.csv", "--systems", "elo")


def test_it_evaluates_a_lists_games_from_the_database(
    club: Club, make_player: MakePlayer, tmp_path: Path
) -> None:
    from ratings.models import Game, RecordSheet

    alice, bongani = make_player("Alice", rank=-2), make_player("+Bongani", rank=-3)
    sheet = RecordSheet.objects.create(club=club, date=date(2024, 3, 1), kind="club")
    for winner in ("white", "white", "black"):
        Game.objects.create(
            club=club, sheet=sheet, date=sheet.date, white=alice, black=bongani, winner=winner,
            handicap=0, komi=6.5, kind="club",
        )  # fmt: skip
    target = tmp_path / "p.csv"
    out = run("--list", "sagc", "--predictions", str(target))
    assert "list sagc: 3 games predicted" in out
    overall = out.split("overall:")[1].split("\n\n")[0]
    assert "\n  sagc " in overall  # the club's systems (SAGC is the default primary)
    assert "\n  egf " not in overall
    rows = list(csv.DictReader(target.open(encoding="utf-8", newline="")))
    assert rows[0]["white"] == "Alice" and rows[0]["black"] == "'+Bongani"
    with pytest.raises(CommandError, match="no list 'nowhere'"):
        run("--list", "nowhere")


def test_tournament_files_are_read_by_the_importers(tmp_path: Path) -> None:
    from tests.support import DATA

    path = DATA / "club-open-2024.h9"  # class B, 7 players, 3 rounds, 9 games
    target = tmp_path / "p.csv"
    out = run(str(path), "--systems", "egf", "--predictions", str(target))
    assert "club-open-2024.h9: 9 games predicted" in out
    rows = list(csv.DictReader(target.open(encoding="utf-8", newline="")))
    assert len(rows) == 9 * 3  # egf and the two baselines
    # Players are named as in the file, not by their keys.
    assert all(not r["white"].startswith("(") for r in rows)


def test_a_results_file_the_importer_refuses_stops_the_run(tmp_path: Path) -> None:
    path = tmp_path / "broken.h9"
    path.write_text("; CL[A]\n1 Dupont Jean 5k FR 75Pa 3 xyz\n", encoding="utf-8")
    with pytest.raises(CommandError, match=r"broken\.h9"):
        run(str(path))
