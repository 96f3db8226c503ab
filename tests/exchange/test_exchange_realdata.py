"""Every importer on every real file of the shared real-data folder.

Each file is pinned to what a committee member holding it expects: a valid
tournament file gives its players and games, a valid rank list its players,
a broken file is refused naming the line.  The figures (below, and for the
tournaments in ``tests.support.VALID_TOURNAMENTS``, which the committee's
import tests share) were counted from the files without the readers of
ratings.exchange, by the methods in the comments; ``_count_results`` and
``_count_player_lines`` repeat those counts here, so a table row cannot
drift from its file.  The files are
never copied into the repository: the tests skip when the folder is absent.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import date

import pytest

from ratings.exchange import ExchangeError, Tournament, Winner, read_rank_list, read_tournament
from tests.support import VALID_TOURNAMENTS, realdata, realdata_folder

pytestmark = pytest.mark.realfiles


# --- independent counts -------------------------------------------------------------

_DECIDED = re.compile(r"^([1-9]\d*)([-+=])")
_OPPOSITE = {"+": "-", "-": "+", "=": "="}


def _player_lines(data: bytes) -> list[str]:
    """h9 and .tou: every non-blank line that does not start with ';' is a player."""
    text = data.decode("latin-1")  # byte-safe; only digits and signs are looked at
    return [line for line in text.split("\n") if line.strip() and not line.lstrip().startswith(";")]


def _count_results(data: bytes) -> tuple[int, int, int]:
    """(player lines, games, forfeits) of an h9 or .tou file, counted by hand's method.

    Each line is the player at that position.  A game is a token 'N+', 'N-' or
    'N=' (N > 0: a real opponent) on line i, matched by the opposite token
    naming i on line N; '?' results, byes ('0+') and pairs whose two lines
    give the same outcome (OpenGotha's "both win", a double forfeit) are no
    game.  A forfeit is such a game with '!' on either line.  Tie-break
    columns never hold a digit followed by '+', '-' or '=', so whitespace
    tokens are enough; rounds are not needed.
    """
    lines = _player_lines(data)
    seen: Counter[tuple[int, int, str]] = Counter()
    marked: Counter[tuple[int, int, str]] = Counter()
    for position, line in enumerate(lines, start=1):
        for token in line.split("|")[0].split():
            match = _DECIDED.match(token)
            if match:
                key = (position, int(match.group(1)), match.group(2))
                seen[key] += 1
                marked[key] += "!" in token
    games = forfeits = 0
    for (i, j, outcome), n in seen.items():
        if i < j:
            found = min(n, seen[j, i, _OPPOSITE[outcome]])
            games += found
            forfeits += min(marked[i, j, outcome] + marked[j, i, _OPPOSITE[outcome]], found)
    return len(lines), games, forfeits


def _count_rank_lines(name: str, data: bytes) -> int:
    """Player lines of a rank list, by its layout (the lines a grep would count).

    FFG: every non-blank line not starting with '#', less the FFG's superseded
    records (name ending '_(obsolète)', 'grep -c _(obso'); AGA: every non-blank
    line; EGD: every line starting with an 8-digit PIN.
    """
    lines = [line for line in data.decode("latin-1").split("\n") if line.strip()]
    if name.startswith(("ech_ffg", "ffg_")):
        return sum(1 for line in lines if not line.startswith("#") and "_(obso" not in line)
    if name.startswith(("tdlista", "aga_")):
        return len(lines)
    return sum(1 for line in lines if re.match(r"^\s*\d{8}\s", line))


# --- tournaments --------------------------------------------------------------------


@pytest.mark.parametrize(("name", "lines", "games", "forfeits", "start"), VALID_TOURNAMENTS)
def test_a_valid_tournament_file_gives_its_players_and_games(
    name: str, lines: int, games: int, forfeits: int, start: date
) -> None:
    data = realdata(name)
    assert _count_results(data) == (lines, games, forfeits)  # the row is the file's
    t = read_tournament(data, filename=name)
    anonymous = sum(1 for s in t.skipped if s.reason.startswith("anonymous player"))
    assert len(t.players) + anonymous == lines
    assert (len(t.games), sum(g.forfeit for g in t.games), t.start) == (games, forfeits, start)
    assert t.format == name.rsplit(".", 1)[-1]


def test_egc_2009_h9_has_no_dt_line_and_is_refused_unless_the_date_is_given() -> None:
    data = realdata("egc-2009.h9")  # its header is '; EGC 2009' and '; 26/07/2009': no DT[...]
    with pytest.raises(ExchangeError, match=r"no date \(no DT\[start,end\] line\).*--date") as error:
        read_tournament(data, filename="egc-2009.h9")
    assert error.value.line is None
    assert _count_results(data) == (599, 2350, 0)
    t = read_tournament(data, filename="egc-2009.h9", date=date(2009, 7, 26))
    assert (len(t.players), len(t.games), t.start) == (599, 2350, date(2009, 7, 26))


def test_polish_youth_2012_is_refused_naming_the_two_lines_that_disagree() -> None:
    # Written by hand: round 3, line 11 ('4 Paczek') says '6+/w' and line 13
    # ('6 Zarzycki') says '4-/w': both players had White.  The h9 format: the
    # two lines of a game must agree.  The committee is told which lines to correct.
    with pytest.raises(ExchangeError, match="round 3: the two lines disagree") as error:
        read_tournament(realdata("polish-youth-2012-u12.h9"))
    assert (error.value.line, error.value.other_line) == (11, 13)


@pytest.mark.parametrize(
    ("name", "players", "start", "place"),
    [
        # PLAYERS lines counted by eye; every GAMES line has '?' (not played).
        ("lille-nonlatin-aga-2011.txt", 9, date(2011, 11, 5), None),
        ("oustalous-aga-2020.txt", 1, date(2020, 8, 31), "Les Oustalous"),
    ],
)
def test_opengotha_aga_results_files_read(name: str, players: int, start: date, place: str | None) -> None:
    t = read_tournament(realdata(name), filename=name)
    assert (t.format, len(t.players), len(t.games), t.start, t.place) == ("aga", players, 0, start, place)


def _outcomes(t: Tournament) -> list[tuple[int, str, str, int]]:
    """Each game as round, winner, loser ('' for a jigo's pair order) and handicap:
    veterans-2015.h9 writes no colours ('5+'), its .tou does."""
    out = []
    for g in t.games:
        won, lost = (g.white, g.black) if g.winner is not Winner.BLACK else (g.black, g.white)
        if g.winner is Winner.JIGO:
            won, lost = sorted((won, lost))
        out.append((g.round, won, lost, g.handicap))
    return sorted(out)


@pytest.mark.parametrize("stem", ["veterans-2015", "rennes-2021", "egc-2013", "toulouse-test-2021"])
def test_the_h9_and_tou_of_one_tournament_give_the_same_games(stem: str) -> None:
    h9 = read_tournament(realdata(f"{stem}.h9"))
    tou = read_tournament(realdata(f"{stem}.tou"))
    assert _outcomes(h9) == _outcomes(tou)


# --- rank lists ---------------------------------------------------------------------

#: file, players, lines set aside as the FFG's superseded records.  Players
#: are counted by _count_rank_lines, the records by 'grep -c _(obso'.
VALID_RANK_LISTS = [
    ("ech_ffg-2012-06.txt", 9976, 5),  # the older five-field layout
    ("ech_ffg_new-2014-11.txt", 10782, 12),
    ("ech_ffg_V3-2014-11.txt", 10785, 12),  # line 1134 'BON Maxence ... xxxx ': no country
    ("ech_ffg_V3-2017-06.txt", 11680, 13),
    ("ech_ffg_V3-rgf-2018-02.txt", 11876, 13),
    ("ech_ffg_V3-2019-08.txt", 12191, 12),
    ("ech_ffg_V3-2021-07.txt", 12568, 15),
    ("ffg_rl-fixture.txt", 10, 0),
    ("tdlista-2013-12.txt", 18434, 0),
    ("tdlista-2018-06.txt", 21105, 0),
    ("tdlista-rgf-lf.txt", 20936, 0),
    ("aga_rl-fixture.txt", 10, 0),  # lines of 7 fields: trailing sigma and date dropped
    ("egf_db-2012-05.txt", 30615, 0),
    ("egf_db-2018-12.txt", 45085, 0),  # UTF-8 and Latin-1 lines
    ("allworld_lp-2020-02.html", 48017, 0),
]


@pytest.mark.parametrize(("name", "players", "obsolete"), VALID_RANK_LISTS)
def test_a_valid_rank_list_gives_its_players(name: str, players: int, obsolete: int) -> None:
    data = realdata(name)
    assert _count_rank_lines(name, data) == players
    ranks = read_rank_list(data, filename=name)
    assert len(ranks.entries) == players
    # The only lines set aside are the FFG's superseded records.
    assert len(ranks.rejected) == obsolete
    assert all("marks obsolete" in r.reason for r in ranks.rejected)


def test_the_egd_list_of_february_2019_imports_all_but_its_corrupt_row() -> None:
    name = "allworld_lp-2019-02.html"
    data = realdata(name)
    assert _count_rank_lines(name, data) == 45_524  # = its 'Number of players: 45524'
    ranks = read_rank_list(data, filename=name)
    (bad,) = ranks.rejected
    # ' 13462834  Qiu Danyun   0+  8+   8d ...': results where country and club belong.
    assert (bad.line, bad.text[:20]) == (32372, "13462834  Qiu Danyun")
    assert len(ranks.entries) == 45_523


def test_a_truncated_egd_download_is_refused() -> None:
    # Ten players and no closing 'Number of players' line (the list is cut).
    with pytest.raises(ExchangeError, match="without its closing line 'Number of players: N'"):
        read_rank_list(realdata("egf_rl-fixture.html"), filename="egf_rl-fixture.html")


def test_every_file_of_realdata_is_covered_here() -> None:
    folder = realdata_folder()
    covered = {row[0] for row in VALID_TOURNAMENTS} | {row[0] for row in VALID_RANK_LISTS}
    covered |= {
        "egc-2009.h9",
        "polish-youth-2012-u12.h9",
        "lille-nonlatin-aga-2011.txt",
        "oustalous-aga-2020.txt",
        "allworld_lp-2019-02.html",
        "egf_rl-fixture.html",
    }
    on_disk = {p.name for p in folder.iterdir() if p.name != "README.md"}
    assert on_disk == covered
