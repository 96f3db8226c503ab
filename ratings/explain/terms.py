"""Plain words for the terms of every system's explanations.

The engine names the numbers each change was computed from
(ratings/engine/explanations.py); this module says, for every term key of
every system, what a reader is looking at: a short label, one sentence of
meaning, and how the term is computed, as text.  The game page
(ratings/views/games.py) shows them beside the numbers.  Pure Python, no
Django: a test checks that every key any system can emit has words here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class TermWords:
    """A term as a reader sees it: ``label`` names it, ``meaning`` says in
    one sentence what it is, ``formula`` how it is obtained."""

    label: str
    meaning: str
    formula: str


W = TermWords

#: The words every system uses the same way.
_COMMON: Final[dict[str, TermWords]] = {
    "change": W(
        "Change",
        "How much this game moved the player's rating.",
        "as the system's formula gives it (see the steps above)",
    ),
    "reason": W(
        "Why it does not count",
        "The rule that makes this game change nothing in this system.",
        "from the game: its kind, result, board, time or forfeit",
    ),
}

SAGC: Final[dict[str, TermWords]] = {
    **_COMMON,
    "rank": W("Rank", "The player's rank before the game.", "the rank after the player's previous event"),
    "index": W(
        "Index",
        "Where the player stands inside their rank, from −999 to +999, before the game.",
        "the index after the player's previous event (0 for a new player)",
    ),
    "x": W(
        "Stones weaker than 7d (x)",
        "How many ranks the player is below 7 dan; weaker players move faster.",
        "x = 7d − rank in stones (1d: 6, 1k: 7, 10k: 16); 0 above 7d",
    ),
    "LF": W(
        "Level Factor (LF)",
        "The size of a change at the player's rank: large for weak players, small for strong ones.",
        "LF = x² + 1.5x + 55 + x⁵/30000",
    ),
    "kind": W(
        "Kind of game", "Free, internet, club or tournament game, as entered.", "from the record sheet"
    ),
    "GSF": W(
        "Game Status Factor (GSF)",
        "How much the kind of game counts.",
        "free 0, internet 0.5, club 1, tournament 1.5",
    ),
    "games_against_opponent": W(
        "Games against this opponent",
        "How many of the player's previous ten games were against the same opponent.",
        "counted in the player's last ten games (free games included, forfeits not)",
    ),
    "OF": W(
        "Opponent Factor (OF)",
        "Meeting the same opponent again and again counts less.",
        "OF = 1 − 0.1 × games against this opponent, at least 0.1",
    ),
    "handicap": W("Handicap", "The handicap stones Black received.", "from the record sheet"),
    "komi": W(
        "Komi",
        "The komi White received (a negative komi went to Black).",
        "from the record sheet",
    ),
    "eff_handicap": W(
        "Effective handicap",
        "The handicap the stones and komi amount to, in stones.",
        "eff_handicap = int(handicap − (komi − 6) / 10)",
    ),
    "differential": W(
        "Rank/handicap differential",
        "How much harder (positive) or easier (negative) the game was than the correct handicap.",
        "Black: (White's rank − Black's rank) − eff_handicap; White: the negative; beyond ±3 read as ±3",
    ),
    "beyond_three_rows": W(
        "Rows beyond ±3",
        "Whether the result table's '>+3' and '<−3' rows are read (otherwise a differential past 3 counts as 3).",
        "a setting of the list's system (off by default)",
    ),
    "zone": W(
        "Zone",
        "Promotion zone when the index is 0 or more, demotion zone when it is negative.",
        "zone = promotion if index ≥ 0, else demotion",
    ),
    "result": W("Result", "Whether the player won or lost.", "from the record sheet's winner"),
    "GRF": W(
        "Game Result Factor (GRF)",
        "The table's value for this result, zone and differential: positive for a win, negative for a loss.",
        "read from the result table by zone, result and differential",
    ),
    "HF": W(
        "Handicap Factor (HF)",
        "Handicap games count less.",
        "HF = 1 − 0.05 × eff_handicap, at least 0.1",
    ),
    "product": W(
        "Exact product",
        "The change before rounding, computed exactly.",
        "LF × GSF × OF × GRF × HF",
    ),
    "rounded": W(
        "Rounded change",
        "The product rounded to a whole index point.",
        "round(product), halves away from zero",
    ),
    "loss_limit": W(
        "Loss limit",
        "The lowest index a loss may leave the player at (the demotion floor or the next 50-mark); none when a loss may demote.",
        "first floor −800 … −999 by rank from an index ≥ 0, then each 50-mark below",
    ),
    "boundary": W(
        "Boundary",
        "Whether the change crossed +999 (promotion) or −999 (demotion), or stopped at a limit.",
        "past +999: rank + 1, index 0; past −999: rank − 1, index 0",
    ),
    "rank_after": W(
        "Rank after", "The player's rank after the game.", "the rank, changed only at a boundary"
    ),
    "index_after": W(
        "Index after",
        "The player's index after the game.",
        "index + change, or 0 after a promotion or demotion",
    ),
}

EGF: Final[dict[str, TermWords]] = {
    **_COMMON,
    "level": W(
        "Rating",
        "The player's GoR, unchanged by a game that does not count.",
        "the GoR after the player's previous event",
    ),
    "rating": W(
        "Rating (GoR)",
        "The player's GoR when this game's rating period began.",
        "the GoR after the player's previous period (2100 = 1d, 100 a grade)",
    ),
    "handicap": W("Handicap", "The handicap stones Black received.", "from the record sheet"),
    "handicap_shift": W(
        "Handicap shift",
        "Black counts this many points stronger in the expected result.",
        "100 × (H − 0.5) for Black with H ≥ 1 stones; 0 for White and in even games",
    ),
    "rating_in_Se": W(
        "Own rating in Se",
        "The player's rating as it counts in the expected result.",
        "rating + handicap shift",
    ),
    "opponent_in_Se": W(
        "Opponent's rating in Se",
        "The opponent's rating (with their handicap shift) as it counts in the expected result.",
        "opponent's rating + their handicap shift",
    ),
    "Sa": W("Actual result (Sa)", "What the player scored.", "1 for a win, 0.5 for a jigo, 0 for a loss"),
    "Se": W(
        "Expected result (Se)",
        "The chance of winning the ratings predicted.",
        "Se = 1 / (1 + e^(β(opponent) − β(own)))",
    ),
    "con": W(
        "con",
        "How far one game can move the rating: more for weak players.",
        "con = ((3300 − rating) / 200)^1.6",
    ),
    "beta": W(
        "β (own)",
        "The player's rating on the scale of the expected result.",
        "β = −7 × ln(3300 − rating in Se)",
    ),
    "beta_opponent": W(
        "β (opponent)",
        "The opponent's rating on the same scale.",
        "β = −7 × ln(3300 − opponent's rating in Se)",
    ),
    "bonus": W(
        "Bonus",
        "A small gain for every game that keeps kyu ratings from sinking.",
        "bonus = ln(1 + e^((2300 − rating) / 80)) / 5",
    ),
    "class": W(
        "Tournament class",
        "The EGF class of the game's tournament, when it has one.",
        "from the tournament; club games count as class C and internet games as D",
    ),
    "weight": W(
        "Class weight",
        "How much the game's class counts.",
        "A 1, B 0.75, C 0.5, D 0.25",
    ),
    "rating_before": W(
        "Rating before the game",
        "The period's start rating plus the player's earlier changes in the same period.",
        "rating + the period's changes before this game",
    ),
    "period_changes": W(
        "Changes in the period so far",
        "The sum of the player's changes in this rating period, this game's included.",
        "sum of the period's changes up to this game",
    ),
    "rating_after": W(
        "Rating after",
        "The player's GoR after the game.",
        "rating + the period's changes so far, at least the floor",
    ),
    "floor": W("Floor", "No rating goes below it.", "−900 since 2021"),
    "floored": W(
        "Floor applied",
        "Whether the rating would have gone below the floor and was held there.",
        "rating + period changes < floor",
    ),
    "adjusted_to": W(
        "Adjusted to",
        "The GoR the committee's adjustment set.",
        "the adjustment's rating, or the GoR of its rank (2100 = 1d)",
    ),
}

OLD_EGF: Final[dict[str, TermWords]] = {
    **{key: words for key, words in EGF.items() if key not in ("beta", "beta_opponent", "bonus")},
    "Se": W(
        "Expected result (Se)",
        "The chance of winning the ratings predicted, lowered by half of ε.",
        "Se = 1 / (e^(D/a) + 1) − ε/2, D = opponent's rating in Se − own rating in Se",
    ),
    "con": W(
        "con",
        "How far one game can move the rating, from the old EGF table: 116 at GoR 100 down to 10 at 2700.",
        "read from the con table at the player's own rating, linear in between",
    ),
    "a": W(
        "a",
        "How steeply the winning chance falls with the rating difference.",
        "a = 200 − (GoR − 100) / 20 at the weaker rating in Se, from 200 down to 70",
    ),
    "epsilon": W(
        "ε",
        "A small amount taken off both players' expected results, against deflation.",
        "ε = 0.016",
    ),
    "floor": W("Floor", "No rating goes below it.", "100 (20 kyu) before 2021"),
}

_FFG_SHARED: Final[dict[str, TermWords]] = {
    **_COMMON,
    "level": W(
        "Level",
        "The player's level when this game was rated (the corrected start level of the period, plus earlier changes).",
        "the level after the player's previous period, corrected by the settling",
    ),
    "opponent_level": W(
        "Opponent's level", "The opponent's level when the game was rated.", "as for the player"
    ),
    "handicap_bonus": W(
        "Black's handicap bonus",
        "Black counts this many levels stronger.",
        "100 × (H − 0.5) with H stones (a game without stones and little komi is H = 1)",
    ),
    "entry_level": W(
        "Entry level",
        "The player's level when the rating period (the tournament or club night) began.",
        "the level after the previous period; 100 × rank + 50 for a new player",
    ),
    "threshold": W(
        "Threshold",
        "How far the player's level may move in the period before their start level is taken to be wrong.",
        "read at the entry level, half as large for a player new to the ladder",
    ),
    "start_levels": W(
        "Start levels tried",
        "The entry level, then each corrected start level of the settling.",
        "start level + (variation − threshold) while the variation passes the threshold",
    ),
    "iterations": W(
        "Iterations",
        "How many times the whole period was rated while the levels settled.",
        "until no level moves by the convergence margin, or 100",
    ),
    "special_case": W(
        "Settling",
        "Whether the player's start level was corrected because the period moved it past the threshold.",
        "variation = level at the period's end − start level, compared with the threshold",
    ),
    "level_at_period_end": W(
        "Level at the period's end",
        "The level the last rating of the period ended at, before rounding.",
        "start level + the sum of the period's changes",
    ),
    "published": W(
        "Published level",
        "The level the ladder publishes after the period.",
        "the level at the period's end rounded, halves away from zero",
    ),
    "adjusted_to": W(
        "Adjusted to",
        "The level the committee's adjustment set.",
        "the adjustment's level, or 100 × rank + 50",
    ),
}

FFG: Final[dict[str, TermWords]] = {
    **_FFG_SHARED,
    "D": W(
        "Level difference (D)",
        "The opponent's level minus the player's, Black's counted with the handicap bonus.",
        "D = opponent's level − own level",
    ),
    "a": W(
        "a",
        "How steeply the winning chance falls with the difference: flatter among weak players.",
        "a = (1250 − the weaker level as it counts) / 7",
    ),
    "P": W("Expected result (P)", "The chance of winning the levels predicted.", "P = 1 / (e^(D/a) + 1)"),
    "epsilon": W(
        "ε",
        "A small gain for both players, larger among weak players, against deflation.",
        "read from the table at the stronger player's level (0 % to 15 %)",
    ),
    "epsilon_half": W("ε/2", "Half of ε, added to each player's result.", "ε / 2"),
    "R": W("Result (R)", "What the player scored.", "1 for a win, 0.5 for a jigo, 0 for a loss"),
    "K": W(
        "K",
        "How far one game can move the level: more for weak players.",
        "read from the table at the player's own level, linear in between (10 at 650 to 116 at −1950)",
    ),
    "coefficient": W(
        "Game coefficient",
        "How much the game counts for its handicap, board and time.",
        "(1 − H/10) × board (13×13: 0.2, 9×9: 0.1) × time (30–59 minutes: 0.5); 1 below −2000",
    ),
}

OLD_FFG: Final[dict[str, TermWords]] = {
    **_FFG_SHARED,
    "level": W("Level", "The player's level before this game.", "the level after the player's previous game"),
    "result": W("Result", "Whether the player won or lost.", "from the record sheet's winner"),
    "stage_1_basic": W(
        "Stage 1: basic change",
        "The basic change: 15 between equals, more for an upset, less for an expected win.",
        "winner: 15 + (loser's level − winner's level) / 15 within 1..40; loser: its opposite within −15..−1",
    ),
    "stages_2_4_coefficient": W(
        "Stages 2–4: coefficient",
        "How much the game counts for its handicap, board and time.",
        "(1 − H/10) × board (13×13: 0.2, 9×9: 0.1) × time (30–59 minutes: 0.5)",
    ),
    "stage_5_weight": W(
        "Stage 5: weight",
        "Weaker players move faster.",
        "1 − level / 1000, within 0.1..2.5",
    ),
}

WEST_SURREY: Final[dict[str, TermWords]] = {
    **_COMMON,
    "rung": W(
        "Rung",
        "The player's rung on the ladder before the game.",
        "the rung after the player's previous game",
    ),
    "strength": W(
        "Strength",
        "The rung as a number: x kyu = −x, y dan = y − 1.",
        "from the rung",
    ),
    "opponent_rung": W("Opponent's rung", "The opponent's rung before the game.", "as for the player"),
    "handicap_levels": W(
        "Ladder handicap",
        "The handicap the two rungs give, in stones.",
        "the difference of the strengths, fractions dropped",
    ),
    "handicap_options": W(
        "Ways to take it",
        "The handicap as stones, komi or a mix, at Black's choice.",
        "one stone = 10 komi",
    ),
    "result": W("Result", "Whether the player won, lost or drew.", "from the record sheet's winner"),
    "move": W(
        "Move",
        "Where the result moves the player on the ladder.",
        "winner up one rung, loser down one, a draw stays",
    ),
    "rung_after": W("Rung after", "The player's rung after the game.", "rung ± one rung"),
    "strength_after": W("Strength after", "The new rung as a number.", "from the new rung"),
    "change": W(
        "Change",
        "The difference in strength between the two rungs.",
        "strength after − strength",
    ),
    "reason": W(
        "Why it does not count",
        "The rule that leaves both players where they were.",
        "only normal 19×19 club games count on the ladder",
    ),
    "adjusted_to": W(
        "Adjusted to",
        "The rung the player's strength was set to after a tournament.",
        "the rung at or below the given strength",
    ),
}

#: Per system, per term key, its words.
WORDS: Final[Mapping[str, Mapping[str, TermWords]]] = {
    "sagc": SAGC,
    "egf": EGF,
    "egf-old": OLD_EGF,
    "ffg": FFG,
    "ffg-old": OLD_FFG,
    "west-surrey": WEST_SURREY,
}


def words_for(system: str, key: str) -> TermWords:
    """The words of ``key`` in ``system``; a key without words is shown by
    its own name (the test of this module makes that never happen)."""
    found = WORDS.get(system, {}).get(key)
    if found is not None:
        return found
    return TermWords(key, "", "")
