"""An h9 player line read token by token, and the games a results file names but does not import.

The lines follow the EGD's layout (place, name, grade, country, club,
tie-breaks and results); each test changes one thing a real file has:
an unknown result in the middle of the rounds, a player who did not
play, an anonymous opponent.
"""

from __future__ import annotations

from ratings.exchange import parse_tournament

H9_HEAD = "; EV[Test]\n; DT[2024-03-01]\n"
NAMES = [
    "Dupont Jean", "Martin Lea", "Durand Paul", "Petit Anne", "Roux Marc",
    "Morel Lise", "Faure Luc", "Blanc Rose", "Girard Noe", "Bonnet Eva",
]  # fmt: skip


def h9(results: dict[int, str], byes: str) -> str:
    """An h9 file of the players of ``NAMES`` (as many as the highest row given), byes for the rows not given."""
    rows = [f"{i:>4} {name:<16} 5k FR 75Pa  {results.get(i, byes)}" for i, name in enumerate(NAMES, start=1)]
    return H9_HEAD + "\n".join(rows[: max(results)]) + "\n"


def test_an_unknown_result_against_player_10_inside_the_rounds_is_skipped_on_its_line() -> None:
    # '10?' between two results of player 1: round 2 against player 10, result unknown.
    text = h9({1: "2+/w0 10? 3-/b0", 2: "1-/b0 0= 0=", 3: "0= 0= 1+/w0", 10: "0= 1? 0="}, "0= 0= 0=")
    t = parse_tournament(text, "h9")
    assert len(t.games) == 2
    unknown = [(s.line, s.round, s.reason) for s in t.skipped if not s.bye]
    assert unknown == [(3, 2, "unknown result ('?') between players 1 and 10 (lines 3 and 12)")]
    assert t.tiebreak_header == ""  # no ';' line with the columns' names


def test_a_player_who_played_no_round_keeps_the_tie_breaks_of_the_line() -> None:
    text = h9({1: "1  2+/w0", 2: "0  1-/b0", 3: "0"}, "")
    t = parse_tournament(text, "h9")
    assert [(p.name, p.tiebreaks) for p in t.players] == [
        ("Dupont Jean", ("1",)), ("Martin Lea", ("0",)), ("Durand Paul", ("0",)),
    ]  # fmt: skip


def test_a_question_figure_before_the_results_stays_a_tie_break() -> None:
    # Only the 'N?' right after a short line's results are its unknown last rounds.
    text = h9({1: "4? 2+/w0 3?", 2: "1-/b0 0=", 3: "0= 1?", 4: "0= 0="}, "")
    t = parse_tournament(text, "h9")
    assert t.players[0].tiebreaks == ("4?",)
    unknown = [(s.line, s.round, s.reason) for s in t.skipped if not s.bye]
    assert unknown == [(3, 2, "unknown result ('?') between players 1 and 3 (lines 3 and 5)")]


def test_a_game_against_an_anonymous_player_is_skipped_in_its_round() -> None:
    text = H9_HEAD + "   1 Dupont Jean     5k FR 75Pa   1    2+/w0\n   2 ? ?      6k FR 75Pa   0    1-/b0\n"
    t = parse_tournament(text, "h9")
    assert t.games == ()
    assert [(s.line, s.round, s.reason) for s in t.skipped] == [
        (3, 1, "game between players 1 and 2 has an anonymous player"),
        (4, None, "anonymous player ('? ?'): not imported"),
    ]
