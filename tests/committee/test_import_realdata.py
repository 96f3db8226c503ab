"""import_tournament on every valid tournament file of the shared real-data folder:
the games the readers find are the games saved, forfeits marked, all or nothing."""

from __future__ import annotations

from datetime import date

import pytest

from ratings import committee
from ratings.committee import CommitteeError
from ratings.models import Game, RecordSheet
from tests.support import VALID_TOURNAMENTS, make_pool, realdata

pytestmark = pytest.mark.realfiles

# The three European Congress files (2,259 to 2,350 games) take 6 to 8 s each
# to save; their reading is pinned in test_exchange_realdata.py, the saving of
# every other file here.
WITH_GAMES = [row for row in VALID_TOURNAMENTS if 0 < row[2] < 1000]
WITHOUT_GAMES = [row[0] for row in VALID_TOURNAMENTS if row[2] == 0]


@pytest.mark.parametrize(("name", "lines", "games", "forfeits", "start"), WITH_GAMES)
def test_a_valid_file_is_saved_as_one_sheet_with_its_games_and_forfeits(
    db: None, name: str, lines: int, games: int, forfeits: int, start: date
) -> None:
    club = make_pool(name="Real", slug="real")
    report = committee.import_tournament(club, realdata(name), filename=name)
    assert report.sheet is not None and report.sheet.date == start
    saved = Game.objects.filter(sheet=report.sheet)
    assert (saved.count(), saved.filter(forfeit=True).count()) == (games, forfeits)


@pytest.mark.parametrize("name", WITHOUT_GAMES)
def test_a_file_without_results_saves_nothing_and_says_so(db: None, name: str) -> None:
    club = make_pool(name="Real", slug="real")
    with pytest.raises(CommitteeError, match="has no game to import"):
        committee.import_tournament(club, realdata(name), filename=name)
    assert not RecordSheet.objects.exists()
