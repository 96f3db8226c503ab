"""The West Surrey club ladder, for players."""

from __future__ import annotations

from ratings.explain.how import Rule, SystemPage

PAGE = SystemPage(
    name="west-surrey",
    summary=(
        "A simple ladder for friendly club games. Every player stands on a rung; the winner of a ladder game "
        "climbs one rung and the loser goes down one, whatever their grades. The handicap is worked out from "
        "the two rungs."
    ),
    sources=("the West Surrey Go Club's ladder page",),
    rules=(
        Rule(
            "rungs",
            "The rungs",
            "Whole kyu grades from 40k to 20k, half grades from 19.5k to 10k, fifths of a grade from 9.8k to "
            "0.2k, then 1d and tenths of a grade up to 9.9d (there is no 0k, and nothing between 0.2k and "
            "1d). A new player starts on the rung of their declared grade, or the highest rung below it.",
        ),
        Rule(
            "move",
            "Win: up one rung; loss: down one",
            "The winner climbs one rung and the loser goes down one, regardless of grades or of the handicap "
            "actually played. A draw changes nothing. A 40k who loses and a 9.9d who wins stay where they "
            "are. Rungs are updated after every game.",
        ),
        Rule(
            "strength",
            "Strength",
            "Each rung is a strength on one scale: x kyu is −x, y dan is y − 1 (14.5k is −14.5, 1.3d is "
            "0.3). The change shown is the strength after minus the strength before: +1 for a win at 25k, "
            "+0.5 at 15k, +0.2 at 5k, +0.1 at 3d.",
        ),
        Rule(
            "handicap",
            "Handicap",
            "The difference of the two strengths, fractions dropped, is the handicap in levels. The stronger "
            "player takes White. Black may take it as stones, komi or a mix: one stone is worth 10 komi. A "
            "handicap of 0: White receives 6 komi and Black starts; of 1: Black starts without komi, or White "
            "starts and gives 10 komi.",
        ),
        Rule(
            "counted",
            "Only normal club games count",
            "Free (teaching), internet and tournament games, lightning games (under 10 minutes' main time), "
            "9×9 and 13×13 games and forfeits leave both players where they are.",
        ),
        Rule(
            "adjustment",
            "After a tournament",
            "A player who took part in a tournament should move their strength on the ladder to match how "
            "they did there: the committee enters it as an adjustment, to the rung at or below that "
            "strength.",
        ),
    ),
    example_note="the first counted game of the demo's Guildford ladder in which both players had played before",
)
