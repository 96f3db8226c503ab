"""The words of the explanations of the French ladders and West Surrey.

The game page shows an explanation's terms by name, its reasons and moves
in words and its formula as written: these tests pin them for each side of
a game, so that a term given to the wrong colour, renamed or dropped, or a
reason for the wrong case, fails here (the properties of
``test_engine_explanations.py`` check that the numbers recombine, not the
words).  Written for the survivors of a mutation run (docs/testing.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

import pytest

from ratings.engine import get_system
from ratings.engine.base import Adjustment, Event, Game, Kind, PlayerId, Start, Winner
from ratings.engine.explanations import times
from ratings.engine.sagc import SAGC, SAGCState
from ratings.engine.west_surrey import WestSurrey, WestSurreyState, handicap_options
from ratings.explain.steps import steps

DAY = date(2024, 5, 4)
#: What each French ladder computes a rated game from, in the order the page lists them.
FFG_TERMS = ["level", "opponent_level", "handicap_bonus", "D", "a", "P", "epsilon", "epsilon_half", "R", "K"]
OLD_FFG_TERMS = ["level", "opponent_level", "handicap_bonus", "result", "stage_1_basic"]
#: The start level's settling, after a ladder's terms of every game.
SETTLING = ["entry_level", "threshold", "start_levels", "iterations", "special_case", "level_at_period_end"]
STANDS = "none: the start level stands"


def explanations(system: str, events: list[Event], starts: dict[PlayerId, Start]) -> list[dict[str, Any]]:
    result = get_system(system).rate(events, starts=starts, explain=True)
    assert result.explanations is not None
    return [dict(e.terms) if e is not None else {} for e in result.explanations]


# --- the FFG ladders -----------------------------------------------------------------------------


def test_ffg_names_each_term_of_a_handicap_game_for_its_own_side() -> None:
    # White 2k (-150) gives Black 6k (-550) three stones: Black counts 250 more (-300).
    game = Game(DAY, "w", "b", Winner.WHITE, handicap=3, komi=0.5, event="T")
    white, black = explanations("ffg", [game], {"w": Start(rating=-150.0), "b": Start(rating=-550.0)})
    assert list(white) == list(black) == [*FFG_TERMS, "coefficient", "change", *SETTLING, "published"]
    assert (white["level"], white["opponent_level"]) == (-150.0, -550.0)
    assert (black["level"], black["opponent_level"]) == (-550.0, -150.0)
    assert white["handicap_bonus"] == black["handicap_bonus"] == 250.0
    assert (white["D"], black["D"]) == (-150.0, 150.0)
    assert (white["R"], black["R"]) == (1.0, 0.0)
    assert white["special_case"] == black["special_case"] == STANDS


def test_the_old_ffg_ladder_names_each_term_and_says_who_won() -> None:
    game = Game(DAY, "w", "b", Winner.BLACK, handicap=4, komi=0.5, event="T")
    white, black = explanations("ffg-old", [game], {"w": Start(rating=-150.0), "b": Start(rating=-550.0)})
    expected = [*OLD_FFG_TERMS, "stages_2_4_coefficient", "stage_5_weight", "change", *SETTLING, "published"]
    assert list(white) == list(black) == expected
    assert (white["level"], white["opponent_level"], white["result"]) == (-150.0, -550.0, "loss")
    assert (black["level"], black["opponent_level"], black["result"]) == (-550.0, -150.0, "win")
    # Four stones with komi 0.5: the bonus of four stones (the FFG's 100 a stone, from the second).
    assert white["handicap_bonus"] == black["handicap_bonus"] == 350.0
    assert (white["stage_5_weight"], black["stage_5_weight"]) == (1.15, 1.55)


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        # The old ladder knows a winner and a loser only.
        ({"winner": Winner.JIGO}, "a jigo has no winner"),
        ({"board": 9, "minutes": 5}, "this game does not count (board size, time or handicap)"),
        ({"forfeit": True}, "a forfeit is not a game"),
        ({"kind": Kind.FREE}, "free games do not count"),
    ],
)
def test_an_old_ffg_game_that_does_not_count_says_why(extra: dict[str, Any], reason: str) -> None:
    fields: dict[str, Any] = {"winner": Winner.WHITE, "event": "T"} | extra
    game = Game(DAY, "w", "b", **fields)
    white, black = explanations("ffg-old", [game], {"w": Start(rating=-150.0), "b": Start(rating=-550.0)})
    assert {k: white[k] for k in ("level", "change", "reason")} == {
        "level": -150.0,
        "change": 0.0,
        "reason": reason,
    }
    assert {k: black[k] for k in ("level", "change", "reason")} == {
        "level": -550.0,
        "change": 0.0,
        "reason": reason,
    }


def test_a_start_level_corrected_once_says_so() -> None:
    # A new 5k who loses to a new 8k with no handicap: the old ladder's variation passes
    # the threshold once; the 8k's own start level stands or moves as its own trail says.
    game = Game(DAY, "a", "b", Winner.BLACK, komi=7.5, event="T")
    rows = explanations("ffg-old", [game], {"a": Start(rank=-5), "b": Start(rank=-8)})
    trails = [len(row["start_levels"]) for row in rows]
    assert 2 in trails
    for row in rows:
        corrections = len(row["start_levels"]) - 1
        if corrections == 0:
            assert row["special_case"] == STANDS
        else:
            assert row["special_case"] == (
                f"start level corrected {times(corrections)}: the variation passed the threshold"
            )
        assert row["iterations"] >= len(row["start_levels"])
    assert "start level corrected once: the variation passed the threshold" in [
        row["special_case"] for row in rows
    ]


def test_the_game_page_says_a_start_level_corrected_once_in_words() -> None:
    # The same game as above, as the game page words its steps (ratings/explain/steps.py).
    game = Game(DAY, "a", "b", Winner.BLACK, komi=7.5, event="T")
    rows = explanations("ffg-old", [game], {"a": Start(rank=-5), "b": Start(rank=-8)})
    once = [row for row in rows if len(row["start_levels"]) == 2]
    assert once
    for row in once:
        settling = [line for line in steps("ffg-old", row) if line.startswith("Settling")]
        assert len(settling) == 1
        assert settling[0].startswith("Settling: the start level was corrected once (")
        assert settling[0].endswith(f"), the period rated {times(row['iterations'])}")
        assert " 1 times" not in settling[0]


@pytest.mark.parametrize(("count", "words"), [(1, "once"), (2, "twice"), (3, "3 times"), (12, "12 times")])
def test_how_often_a_step_was_taken_reads_as_english(count: int, words: str) -> None:
    assert times(count) == words


def test_a_start_level_corrected_many_times_counts_its_corrections() -> None:
    # Two new 10k in the 2022 ladder: each variation passes the unknown threshold and the
    # start levels move several times (tests/engine/test_ffg.py checks by how much).
    game = Game(DAY, "a", "b", Winner.WHITE, event="T")
    for row in explanations("ffg", [game], {"a": Start(rank=-10), "b": Start(rank=-10)}):
        corrections = len(row["start_levels"]) - 1
        assert corrections > 2
        assert row["entry_level"] == row["start_levels"][0] == -950.0
        assert (
            row["special_case"]
            == f"start level corrected {corrections} times: the variation passed the threshold"
        )


# --- West Surrey -------------------------------------------------------------------------------------

WS_FORMULA = (
    "change = strength_after − strength; the winner climbs one rung, the loser goes down one;"
    " handicap = the difference of the strengths, fractions dropped (1 stone = 10 komi)"
)


def west_surrey_rows(events: list[Event], state: Mapping[Any, WestSurreyState]) -> list[Any]:
    result = WestSurrey().rate(events, state=state, explain=True)
    assert result.explanations is not None
    return list(result.explanations)


def test_west_surrey_explains_fred_and_bert_in_words() -> None:
    # The West Surrey ladder page: Fred 1.3d gives Bert 14.5k fourteen levels; Bert wins.
    state = {"Fred": WestSurreyState(0.3), "Bert": WestSurreyState(-14.5)}
    fred, bert = west_surrey_rows([Game(DAY, "Fred", "Bert", Winner.BLACK)], state)
    options = [option.label for option in handicap_options(14)]
    assert fred.terms == {
        "rung": "1.3d", "strength": 0.3, "opponent_rung": "14.5k", "handicap_levels": 14,
        "handicap_options": options, "result": "loss", "move": "down one rung", "reason": None,
        "rung_after": "1.2d", "strength_after": 0.2, "change": -0.1,
    }  # fmt: skip
    assert bert.terms == {
        "rung": "14.5k", "strength": -14.5, "opponent_rung": "1.3d", "handicap_levels": 14,
        "handicap_options": options, "result": "win", "move": "up one rung", "reason": None,
        "rung_after": "14k", "strength_after": -14.0, "change": 0.5,
    }  # fmt: skip
    assert fred.formula == bert.formula == WS_FORMULA


def test_west_surrey_says_why_a_rung_stays() -> None:
    state = {"A": WestSurreyState(-3.0), "B": WestSurreyState(-5.0)}
    events: list[Event] = [
        Game(DAY, "A", "B", Winner.JIGO),
        Game(DAY, "A", "B", Winner.BLACK, board=13),
    ]
    draw_a, draw_b, small_a, small_b = west_surrey_rows(events, state)
    for row, result in ((draw_a, "draw"), (draw_b, "draw")):
        assert (row.terms["result"], row.terms["move"], row.terms["reason"]) == (
            result,
            "stays (a draw leaves the rungs unaltered)",
            None,
        )
    ladder = "only normal 19x19 club games count on the ladder"
    assert (small_a.terms["result"], small_a.terms["move"], small_a.terms["reason"]) == (
        "loss",
        "stays",
        ladder,
    )
    assert (small_b.terms["result"], small_b.terms["move"], small_b.terms["reason"]) == (
        "win",
        "stays",
        ladder,
    )
    assert (small_a.terms["opponent_rung"], small_b.terms["opponent_rung"]) == ("5k", "3k")


def test_west_surrey_says_a_rung_at_the_end_of_the_ladder_stays() -> None:
    state = {"A": WestSurreyState(9.9), "B": WestSurreyState(-40.0)}
    top, bottom = west_surrey_rows([Game(DAY, "A", "B", Winner.WHITE)], state)
    assert (top.terms["result"], top.terms["move"], top.terms["change"]) == (
        "win",
        "stays (end of the ladder)",
        0.0,
    )
    assert (bottom.terms["result"], bottom.terms["move"]) == ("loss", "stays (end of the ladder)")
    assert (top.terms["rung"], bottom.terms["rung"]) == ("9.9d", "40k")


def test_west_surrey_explains_a_committee_adjustment() -> None:
    row, _ = west_surrey_rows([Adjustment(DAY, "A", rank=1.0)], {"A": WestSurreyState(0.3)})
    assert row.terms == {
        "rung": "1.3d",
        "adjusted_to": "2d",
        "change": 0.7,
        "reason": "strength set after a tournament (committee adjustment)",
    }
    assert row.formula == "change = adjusted_to − rung"


@pytest.mark.parametrize("noise", [4e-7, -4e-7])
def test_a_stored_strength_within_float_noise_of_a_rung_is_that_rung(noise: float) -> None:
    # A strength that went through a float sum (1.2d = 0.2) is read as its rung, exactly.
    state = WestSurrey().state_from_json({"rank": 0.2 + noise})
    assert state == WestSurreyState(0.2)
    assert state.rank == 0.2


# --- SAGC ----------------------------------------------------------------------------------------------

SAGC_TERMS = [
    "rank", "index", "x", "LF", "kind", "GSF", "games_against_opponent", "OF", "handicap", "komi",
    "eff_handicap", "differential", "beyond_three_rows", "zone", "result", "GRF", "HF", "product",
    "rounded", "loss_limit", "change", "boundary", "rank_after", "index_after",
]  # fmt: skip


def sagc_rows(events: list[Event], state: Mapping[Any, SAGCState], **settings: Any) -> list[dict[str, Any]]:
    result = SAGC(**settings).rate(events, state=state, explain=True)
    assert result.explanations is not None
    return [dict(e.terms) if e is not None else {} for e in result.explanations]


@pytest.mark.parametrize("beyond", [False, True])
def test_sagc_names_each_term_of_a_game_for_its_own_side(beyond: bool) -> None:
    # A 5k at index 0 (the promotion zone) gives two stones to an 8k at -1 (the demotion zone)
    # in a tournament, and loses.
    game = Game(DAY, "W", "B", Winner.BLACK, handicap=2, komi=0.5, kind=Kind.TOURNAMENT)
    white, black = sagc_rows(
        [game], {"W": SAGCState(-5, 0), "B": SAGCState(-8, -1)}, beyond_three_rows=beyond
    )
    assert list(white) == list(black) == SAGC_TERMS
    assert (white["rank"], white["index"], white["zone"], white["result"]) == ("5k", 0, "promotion", "defeat")
    assert (black["rank"], black["index"], black["zone"], black["result"]) == (
        "8k",
        -1,
        "demotion",
        "victory",
    )
    for row in (white, black):
        assert (row["kind"], row["games_against_opponent"], row["handicap"], row["komi"]) == (
            "tournament",
            0,
            2,
            0.5,
        )
        assert (row["eff_handicap"], row["beyond_three_rows"]) == (2, beyond)


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        ({"forfeit": True}, "a forfeit is not a game"),
        ({"kind": Kind.FREE}, "free games have a Game Status Factor of 0"),
        ({"winner": Winner.JIGO}, "a jigo is neither a victory nor a defeat in the result table"),
    ],
)
def test_a_sagc_game_that_changes_nothing_says_why(extra: dict[str, Any], reason: str) -> None:
    fields: dict[str, Any] = {"winner": Winner.WHITE} | extra
    white, black = sagc_rows([Game(DAY, "W", "B", **fields)], {"W": SAGCState(-5, 0), "B": SAGCState(-8, -1)})
    assert white == {"rank": "5k", "index": 0, "change": 0, "reason": reason}
    assert black == {"rank": "8k", "index": -1, "change": 0, "reason": reason}


def test_sagc_names_each_boundary_a_change_meets() -> None:
    # Two 5k near the ends of the index: the winner is promoted, the loser demoted.
    past = sagc_rows([Game(DAY, "W", "B", Winner.WHITE)], {"W": SAGCState(-5, 990), "B": SAGCState(-5, -990)})
    assert (past[0]["boundary"], past[0]["rank_after"], past[0]["index_after"]) == (
        "promoted past +999",
        "4k",
        0,
    )
    assert (past[1]["boundary"], past[1]["rank_after"], past[1]["index_after"]) == (
        "demoted past −999",
        "6k",
        0,
    )
    # A 9d cannot be promoted: stopped at +999.
    top = sagc_rows([Game(DAY, "W", "B", Winner.WHITE)], {"W": SAGCState(8, 998), "B": SAGCState(8, 0)})
    assert (top[0]["rounded"] > 1, top[0]["change"], top[0]["boundary"]) == (True, 1, "stopped at +999 (9d)")
    assert top[1]["boundary"] is None
    # A loss that would pass the player's demotion mark stops there.
    low = sagc_rows([Game(DAY, "W", "B", Winner.BLACK)], {"W": SAGCState(-5, -940), "B": SAGCState(-5, 0)})
    assert low[0]["rounded"] < low[0]["change"] < 0
    assert (low[0]["boundary"], low[0]["index_after"]) == ("stopped at the demotion mark -999", -999)
    assert (low[0]["zone"], low[1]["zone"]) == ("demotion", "promotion")
