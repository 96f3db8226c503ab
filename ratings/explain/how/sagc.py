"""The South African Go Clubs system, for players."""

from __future__ import annotations

from ratings.explain.how import Rule, SystemPage

RULES = (
    Rule(
        "rank-and-index",
        "Rank and index",
        "Every player has a rank, from 30 kyu (the weakest) to 9 dan, and an index from −999 to +999. "
        "A new player starts at the rank they declare (their national rank) with index 0.",
    ),
    Rule(
        "formula",
        "The change after a game",
        "Each player's index changes by Level Factor × Game Status Factor × Opponent Factor × Game Result "
        "Factor × Handicap Factor, worked out for that player alone (the two players' changes need not "
        "add up to zero). The product is computed exactly and rounded to a whole point, halves away from "
        "zero.",
    ),
    Rule(
        "level-factor",
        "Level Factor: weak players move faster",
        "x is the number of stones the player is weaker than 7 dan (10k: 16, 1k: 7, 1d: 6; 0 for 7d and "
        "above). Level Factor = x² + 1.5x + 55 + x⁵/30000: about 370 for a 10k, 115 for a 1k, 77 for a 3d.",
    ),
    Rule(
        "game-status",
        "Game Status Factor: what kind of game",
        "Free or teaching games 0 (they change nothing), internet games 0.5, club games 1, tournament games "
        "1.5. A game is a club game unless the sheet says otherwise.",
    ),
    Rule(
        "opponent-factor",
        "Opponent Factor: playing the same opponent again",
        "1 minus 0.1 for every time the player met this opponent in their own last ten games (of every kind, "
        "free games included; forfeits and adjustments are not games), at least 0.1. Playing the same "
        "person over and over counts less and less.",
    ),
    Rule(
        "handicap",
        "Effective handicap and Handicap Factor",
        "Komi goes to White; a negative komi goes to Black. The effective handicap is the stones minus "
        "(komi − 6)/10, with the fraction dropped toward zero: 2 stones and 0.5 komi is 2, an even game "
        "with 6.5 komi is 0, 0 stones and −4 komi is 1. Handicap Factor = 1 − 0.05 × effective handicap, "
        "at least 0.1 (a 4-stone game 0.8); it is above 1 when the effective handicap is negative.",
    ),
    Rule(
        "differential",
        "Rank/handicap differential",
        "The right handicap is one stone per rank of difference. For Black the differential is (White's "
        "rank − Black's rank) − effective handicap, for White the same number with the opposite sign: "
        "positive means the player had the harder game. Beyond ±3 it counts as ±3.",
    ),
    Rule(
        "result",
        "Game Result Factor: the table",
        "Read from a table by the differential, the result and the zone: the promotion zone is an index of "
        "0 or more, the demotion zone a negative index. An even game between equals gives +1.0 for a win "
        "and −1.17 for a loss in the promotion zone, +1.4 and −0.6 in the demotion zone. A harder game "
        "earns more for a win and costs less for a loss. A jigo is neither a victory nor a defeat: it "
        "changes nothing (but counts for the Opponent Factor).",
    ),
    Rule(
        "promotion",
        "Promotion and demotion",
        "When the index goes past +999 the player goes up one rank and the index starts again at 0; past "
        "−999, down one rank, index 0. The change is never carried over into the new rank. A 9 dan's "
        "index stops at +999; a 30 kyu is never demoted and stops at −999.",
    ),
    Rule(
        "demotion-marks",
        "Demotion is slowed down",
        "From an index of 0 or more a loss stops at the rank's first mark: −800 (25k–29k), −850 (20k–24k), "
        "−900 (10k–19k), −950 (5k–9k) or −999 (4k and dan). The next marks are every 50 below it. From a "
        "negative index a loss may go down to the mark after the one the index is at or above. So it "
        "takes at least 6, 5, 4, 3 or 2 losses in a row to drop a rank. A loss that is cut short shows "
        "the cut change.",
    ),
    Rule(
        "no-change",
        "Games that change nothing",
        "Free games (factor 0), forfeits (nothing was played) and jigo. Every other game counts.",
    ),
    Rule(
        "adjustment",
        "Committee adjustments",
        "The committee may set a player's rank (and index, 0 unless given) from a date on, for example "
        "when it synchronises with the national rank list. On the record sheet it is the row whose "
        "opponent is the player's own name; its change is the new index minus the old one.",
    ),
    Rule(
        "order",
        "Order of games",
        "Games are rated one at a time in date order, then in the order they were entered; a game entered "
        "late takes its place at its date and everything after it is rated again.",
    ),
)


PAGE = SystemPage(
    name="sagc",
    summary=(
        "The system of the South African Go Clubs. Every game moves each player's index up or down; an index "
        "past +999 or −999 changes the rank. How far it moves depends on the player's rank, the kind of "
        "game, how often they met this opponent lately, whether the handicap was right, and how big it was. "
        "Ratings are updated after every game."
    ),
    sources=("“The South African Go Clubs Rating System” (the SAGC rating system's questions and answers)",),
    rules=RULES,
    example_note="the first handicap game of the demo's South African list in which both players had played before",
)
