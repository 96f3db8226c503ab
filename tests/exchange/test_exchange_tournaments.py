"""Tournament results in: EGD h9 and FFG .tou, the real samples and broken variants."""

from __future__ import annotations

import pytest

from ratings.exchange import ExchangeError, Tournament, Winner, name_key, parse_tournament, read_tournament
from ratings.exchange.text import decode_text
from ratings.exchange.tournaments import detect_game_format
from tests.support import shared_bytes


def games_by_name(t: Tournament) -> list[tuple[int, str, str, Winner, int, float]]:
    return sorted(
        (
            g.round,
            name_key(t.player(g.white).name),
            name_key(t.player(g.black).name),
            g.winner,
            g.handicap,
            g.komi,
        )
        for g in t.games
    )


@pytest.mark.realfiles
def test_juvisy_in_both_formats_gives_the_same_games() -> None:
    h9 = read_tournament(shared_bytes("juvisy-2019.h9"))
    tou = read_tournament(shared_bytes("juvisy-2019.tou"))
    assert (h9.format, tou.format) == ("h9", "tou")
    assert games_by_name(h9) == games_by_name(tou)
    # 19 players, 4 rounds, 4 byes ('0='): (19 * 4 - 4) / 2 games.
    assert len(h9.games) == 36


@pytest.mark.realfiles
def test_juvisy_h9_header_and_a_handicap_game() -> None:
    t = read_tournament(shared_bytes("juvisy-2019.h9"))
    assert (t.name, str(t.start), str(t.end), t.event_class) == (
        "Tournoi de Juvisy",
        "2019-10-26",
        "2019-10-28",
        "A",
    )
    assert (t.komi, t.handicap_rule, t.minutes, t.encoding) == (7.5, 1, 82, "iso-8859-1")
    # Line 12: "1 Minieri Davide 3D FR 75Ju ... 15+/w4": round 4, Minieri (White) beat
    # Pinchard (Black, 4 stones); line 26 (Pinchard) says "1-/b4".
    game = next(g for g in t.games if g.round == 4 and t.player(g.white).name == "Minieri Davide")
    assert t.player(game.black).name == "Pinchard Alexandre"
    assert (game.winner, game.handicap, game.komi, game.lines) == (Winner.WHITE, 4, 0.5, (12, 26))
    minieri = t.player(game.white)
    assert (minieri.rank, minieri.country, minieri.club) == (2, "FR", "75Ju")


@pytest.mark.realfiles
def test_juvisy_byes_are_reported_and_skipped() -> None:
    t = read_tournament(shared_bytes("juvisy-2019.h9"))
    # Daguenet (line 13) has '0=' in rounds 2-4, Vargas (line 25) in round 1.
    assert sorted((s.line, s.round) for s in t.skipped) == [(13, 2), (13, 3), (13, 4), (25, 1)]


@pytest.mark.realfiles
def test_the_tou_file_gives_licences_and_the_missing_one() -> None:
    t = read_tournament(shared_bytes("juvisy-2019.tou"))
    players = {p.name: p for p in t.players}
    assert players["Minieri Davide"].ffg_licence == "1800014"
    assert players["Nicita Giovanni"].ffg_licence is None  # blank licence, line 29
    assert players["Nicita Giovanni"].club == "91SM"
    assert players["Rebelo Manuela"].rank == -18


@pytest.mark.realfiles
def test_cdfa_accented_names_and_count() -> None:
    t = read_tournament(shared_bytes("cdfa-2020.tou"))
    assert len(t.players) == 16  # README
    assert t.rounds() == 4
    assert len(t.games) == 32  # 16 players * 4 rounds / 2, no byes
    assert "Dréan-Guénaïzia Benjamin" in {p.name for p in t.players}


@pytest.mark.realfiles
def test_istanbul_class_d_without_handicap_rule() -> None:
    t = read_tournament(shared_bytes("istanbul-online-2020.h9"))
    assert (t.event_class, t.handicap_rule, t.komi) == ("D", None, 6.5)
    # Line 11: "1 Kulubecioglu Ali 7K ... 3+/b7": Black with 7 stones beat Celebican (1D).
    first = next(g for g in t.games if g.round == 1 and "Kulubecioglu" in t.player(g.black).name)
    assert (first.winner, first.handicap, t.player(first.white).name) == (Winner.BLACK, 7, "Celebican Barkin")


@pytest.mark.realfiles
def test_tournoi_chinois_skips_anonymous_players_unknown_results_and_byes() -> None:
    t = read_tournament(shared_bytes("tournoi-chinois.h9"))
    assert {p.name for p in t.players} == {"Vannier Remi", "Vannier Luc"}
    assert t.games == ()  # every game has an anonymous player or an unknown result
    reasons = [s.reason for s in t.skipped]
    assert any("unknown result" in r and "lines 18 and 19" in r for r in reasons)  # '8?/w0' and '7?/b0'
    assert any("anonymous" in r for r in reasons)
    assert any("bye" in r and "'0-'" in r for r in reasons)
    # Lines 20 and 21 both say '+': OpenGotha's "both win", reported, not an error.
    assert any("both win" in r for r in reasons)


# --- contradictions and broken files -------------------------------------------------

H9 = """; CL[B]
; EV[Test]
; DT[2024-03-02,2024-03-02]
; KM[6.5]
;
; Pl Name            Rk Co Club  MMS
   1 Dupont Jean     5k FR 75Pa   12    2+/w0    3+/b2
   2 Martin Lea      6k FR 75Pa   11    1-/b0    0-
   3 Durand Paul     7k FR 75Pa   10    0-       1-/w2
"""


def test_a_well_formed_file_reads() -> None:
    t = parse_tournament(H9)
    assert [(g.round, g.white, g.black, g.winner, g.handicap, g.komi) for g in t.games] == [
        (1, "1", "2", Winner.WHITE, 0, 6.5),
        (2, "3", "1", Winner.BLACK, 2, 0.5),
    ]


@pytest.mark.parametrize(
    ("first", "second", "white", "black", "winner"),
    [
        # Only the second line gives the colour: the first line's player has the other one.
        ("2+", "1-/b0", "1", "2", Winner.WHITE),
        ("2+", "1-/w0", "2", "1", Winner.BLACK),
        ("2-", "1+/w", "2", "1", Winner.WHITE),
        ("2=", "1=/w0", "2", "1", Winner.JIGO),
        # Only the first line gives it.
        ("2+/b0", "1-", "2", "1", Winner.BLACK),
        ("2-/w", "1+", "1", "2", Winner.BLACK),
    ],
)
def test_an_h9_pair_where_only_one_line_gives_the_colour(
    first: str, second: str, white: str, black: str, winner: Winner
) -> None:
    """h9 may leave a result's colour out ('2+'): the other line's colour
    then decides, opposite (issue 29: no fixture had such a pair)."""
    text = H9.replace("2+/w0    3+/b2", f"{first:<9}3+/b2").replace("1-/b0    0-", f"{second:<9}0-")
    game = parse_tournament(text).games[0]
    assert (game.round, game.white, game.black, game.winner) == (1, white, black, winner)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("1-/b0    0-", "1+/b0    0-"),  # both '+': OpenGotha's "both win", see below
        ("1-/b0    0-", "1-/w0    0-"),  # both say White
        ("1-/b0    0-", "1=/b0    0-"),  # jigo against a win
        ("1-/b0    0-", "1-/b3    0-"),  # different handicap
        ("1-/b0    0-", "3-/b0    0-"),  # a different opponent
    ],
)
def test_lines_that_disagree_about_a_game_name_both_lines(old: str, new: str) -> None:
    text = H9.replace(old, new)
    if "1+/b0" in new:
        # '+' on both lines is OpenGotha's "both win": reported and skipped, not a contradiction.
        t = parse_tournament(text)
        assert any("both win" in s.reason and (s.line, s.round) == (7, 1) for s in t.skipped)
        return
    with pytest.raises(ExchangeError) as error:
        parse_tournament(text)
    assert {error.value.line, error.value.other_line} & {7, 8, 9}
    assert error.value.other_line is not None
    assert "line" in str(error.value)


def test_a_missing_opponent_line_is_named() -> None:
    with pytest.raises(ExchangeError) as error:
        parse_tournament(H9.replace("2+/w0", "4+/w0"))
    assert (error.value.line, error.value.column) == (7, 41)


def test_a_truncated_h9_file_names_the_cut_line() -> None:
    # Cut in the club: line 9 still looks like a player without results, so the
    # error is line 7's game of round 2 that line 9 does not report.
    cut = H9[: H9.index("Durand Paul") + 24]
    with pytest.raises(ExchangeError) as error:
        parse_tournament(cut, "h9")
    assert (error.value.line, error.value.other_line) == (7, 9)
    cut = H9[: H9.index("Durand Paul") + 8]  # cut in the name
    with pytest.raises(ExchangeError) as error:
        parse_tournament(cut, "h9")
    assert error.value.line == 9


def test_a_garbled_result_names_line_and_column() -> None:
    with pytest.raises(ExchangeError) as error:
        parse_tournament(H9.replace("3+/b2", "3+/x2"))
    assert (error.value.line, error.value.column) == (7, 50)


@pytest.mark.realfiles
def test_a_tou_file_read_as_h9_is_refused_on_its_first_row() -> None:
    with pytest.raises(ExchangeError) as error:
        read_tournament(shared_bytes("juvisy-2019.tou"), format="h9")
    assert error.value.line == 12


@pytest.mark.realfiles
def test_an_h9_file_read_as_tou_is_refused_on_its_first_row() -> None:
    with pytest.raises(ExchangeError) as error:
        read_tournament(shared_bytes("juvisy-2019.h9"), format="tou")
    assert error.value.line == 12


@pytest.mark.realfiles
def test_tou_rows_that_disagree_name_both_lines() -> None:
    text = shared_bytes("juvisy-2019.tou").decode("latin-1").replace("2+w0", "2+b0", 1)
    with pytest.raises(ExchangeError) as error:
        parse_tournament(text)
    assert (error.value.line, error.value.other_line) == (12, 13)


@pytest.mark.realfiles
def test_a_tou_row_numbered_out_of_place_is_refused() -> None:
    text = shared_bytes("cdfa-2020.tou").decode("latin-1").replace("   2 Debarre", "   1 Debarre")
    with pytest.raises(ExchangeError) as error:
        parse_tournament(text)
    assert (error.value.line, error.value.other_line) == (13, 12)


def test_an_h9_pin_is_read() -> None:
    t = parse_tournament(H9.replace("3+/b2\n", "3+/b2 |12345678\n"))
    assert t.player("1").egd_pin == "12345678"


# --- which format a file is (mutmut's survivors in tournaments.detect_game_format) ---------------


@pytest.mark.parametrize("text", ["", "  \n\n \t\n", "\r\n\r\n", "\ufeff", "\ufeff\r\n \n"])
def test_an_empty_file_is_refused_as_empty(text: str) -> None:
    with pytest.raises(ExchangeError) as caught:
        detect_game_format(text)
    assert (caught.value.line, str(caught.value)) == (None, "the file is empty")


@pytest.mark.parametrize(
    "data", [b"", b" \r\n", b"\xef\xbb\xbf", b"\xef\xbb\xbf\r\n", b"\xff\xfe", b"\xfe\xff"]
)
def test_an_upload_of_nothing_but_a_byte_order_mark_is_refused_as_empty(data: bytes) -> None:
    with pytest.raises(ExchangeError) as caught:
        decode_text(data)
    assert (caught.value.line, str(caught.value)) == (None, "the file is empty")


def test_a_file_of_no_known_format_is_refused_on_its_first_line() -> None:
    with pytest.raises(ExchangeError) as caught:
        detect_game_format("hello\nworld\n")
    assert caught.value.line == 1
    assert str(caught.value).startswith("line 1: not a results file this site knows")


def test_an_indented_tou_header_line_is_read_as_tou() -> None:
    # the header alone decides, found however far its ';' is indented
    assert detect_game_format("  ;name=Open de Juvisy\n") == "tou"


def test_h9_players_keep_their_place_and_a_tie_leaves_it_blank() -> None:
    text = (
        "; EV[Test]\n; DT[2024-03-02,2024-03-02]\n"
        "   1 Dupont Jean     5k FR 75Pa   2    2+/w0    3+/w0\n"
        "   2 Martin Lea      6k FR 75Pa   0    1-/b0    0=\n"
        "     Petit Paul      7k FR 75Pa   0    0=       1-/b0\n"
    )
    t = parse_tournament(text, "h9")
    assert [p.place for p in t.players] == ["1", "2", None]


def test_the_h9_tie_break_heading_is_what_follows_the_first_club_column() -> None:
    # A heading may name the club again after the tie-breaks (here a team score).
    text = "; Pl Name  Rk Co Club  MMS  SOS  R1  Club-pts\n   1 Dupont Jean     5k FR 75Pa   2  0=\n"
    assert parse_tournament(text, "h9").tiebreak_header == "MMS SOS Club-pts"


def test_a_tou_file_without_a_name_takes_its_comment_as_the_name() -> None:
    text = ";name=\n;comm=Open de Juvisy\n   1 Dupont Jean              3D 1800014 75Ju    0=\n"
    assert parse_tournament(text, "tou").name == "Open de Juvisy"


def test_files_without_their_headers_are_known_by_their_sections_or_results() -> None:
    # an AGA file whose TOURNEY line is gone, a .tou file whose ';' header is gone
    assert (
        detect_game_format("PLAYERS\n   101 Doe, John  5k\n   102 Roe, Jane  3k\nGAMES\n101 102 w 0 7\n")
        == "aga"
    )
    tou = "   1 Dupont Jean              3D 1800014 75Ju    2+w0\n   2 Martin Lea               3K -------  75Ju    1-b0\n"
    assert detect_game_format(tou) == "tou"


def test_a_tou_player_knows_the_line_of_the_file_it_came_from() -> None:
    text = ";name=Test\n;date=01/03/2024\n   1 Dupont Jean              3D 1800014 75Ju    2+w0\n"
    text += "   2 Martin Lea               3K -------  75Ju    1-b0\n"
    assert [(p.name, p.line) for p in parse_tournament(text, "tou").players] == [
        ("Dupont Jean", 3),
        ("Martin Lea", 4),
    ]
