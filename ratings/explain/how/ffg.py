"""The French Go Federation's ladder, since 2022 and before, for players:
one family, shared terms (the settling of a period above all)."""

from __future__ import annotations

from ratings.explain.how import PERIOD_NOTE, Rule, SystemPage

SCALE = Rule(
    "scale",
    "Levels",
    "Every player has a level: 0 to 99 is 1 dan, 100 to 199 is 2 dan, −100 to −1 is 1 kyu, −1000 to −901 "
    "is 10 kyu. A newcomer enters at the middle of the grade they declare (1d = 50, 1k = −50, 10k = −950). "
    "The ladder publishes whole levels: the level at the end of a period is rounded, halves away from "
    "zero, and the next period starts from it.",
)
PERIODS = Rule(
    "periods",
    "A tournament is rated as a whole",
    "A tournament sheet is one period; club and internet games without a tournament form one period per "
    "club and day. On the record sheet a period's rows add up from the level it was rated from; the last "
    "row shows the published level.",
)
ADJUSTMENT = Rule(
    "adjustment",
    "Committee adjustments",
    "The committee may set a player's level, or their grade (then the level is the grade's entry level), "
    "from a date on. The row's change is the new level minus the old one.",
)
COEFFICIENTS = (
    "Handicap games count 1 − H/10 (more than 9 stones do not count), 13×13 games 0.2, 9×9 games 0.1 "
    "(other boards do not count), games with 30 to 59 minutes' main time a player 0.5 (faster games do not "
    "count)."
)


PAGE = SystemPage(
    name="ffg",
    summary=(
        "The French Go Federation's ladder (échelle) as computed since 6 October 2022. All the games of a "
        "tournament are rated from the levels the players had when it began: winning against the odds gains "
        "a lot, winning as expected little, and weak players move faster. A player who moved more than a set "
        "amount is taken to have been entered at the wrong level: their start level is corrected and the "
        "tournament rated again until the levels settle."
    ),
    sources=(
        "the French Go Federation's description of its ladder algorithm used since 6 October 2022 (ffg.jeudego.org)",
        "“French Ladder”, Sensei's Library",
    ),
    rules=(
        SCALE,
        Rule(
            "formula",
            "The change after a game",
            "change = coefficient × K × (R − P + ε/2). R is the result (1, ½ for a jigo, 0). P is your "
            "chance of winning, 1 / (e^(D/a) + 1), where D is the opponent's level minus yours and "
            "a = (1250 − the weaker level)/7. ε is 0 % to 15 %, by the stronger player's level (10 % around "
            "14 kyu), and half of it is added to both players' changes. K is your own factor: 10 at 7 dan "
            "and above, up to 116 at 20 kyu and below, in straight lines between its rows (90 for a 15k, "
            "85 for a 14k).",
        ),
        Rule(
            "handicap",
            "Handicap",
            "With H stones Black counts as level + 100 × (H − ½) (a game without stones and with less than "
            "3.5 komi is a game at sen, H = 1). " + COEFFICIENTS + " A player below −2000 gets coefficient "
            "1, except White losing a 19×19 handicap game.",
        ),
        PERIODS,
        Rule(
            "settling",
            "Settling: correcting start levels",
            "After rating the period, every player whose variation (end level − start level) is larger than "
            "their threshold has their start level moved by (variation − threshold) in the same direction, "
            "and the period is rated again; this repeats until no level moves by 0.1 any more (at most 100 "
            "times). The threshold is (6200 − 4 × level)/175 for a known player (about 66 for a 14 kyu), "
            "20 above level 675 and 80 at or below −1950; half of that for a newcomer. You are known once "
            "one of your games has counted, or when you entered with an established level.",
        ),
        Rule(
            "counted",
            "Games that do not count",
            "Free games and forfeits never count; club, internet and tournament games count in full, but for "
            "the coefficients above.",
        ),
        Rule("bounds", "Bounds", "Levels stay between −2950 and 850."),
        ADJUSTMENT,
    ),
    example_note=PERIOD_NOTE,
)

OLD_PAGE = SystemPage(
    name="ffg-old",
    summary=(
        "The French Go Federation's older ladder. Each game moves the winner up and the loser down by a basic "
        "amount, 15 points between equals, more for an upset and less for an expected win; it is reduced for "
        "handicap games, small boards and quick games, and weighted by level. A newcomer who moved more than "
        "50 points, or a known player more than 100, has their start level corrected and the tournament "
        "rated again."
    ),
    sources=("“French Ladder”, Sensei's Library",),
    rules=(
        SCALE,
        Rule(
            "stage-1",
            "Stage 1: the basic change",
            "The winner gains 15 + (loser's level − winner's level)/15, between 1 and 40; the loser loses as "
            "much, between 1 and 15. Black's level counts 100 × (H − ½) higher with H stones. A winner above "
            "level 400 gains 0 to 40; a loser below −2000 loses at most 1; a player at or above −2000 facing "
            "one below it moves by at most 1.",
        ),
        Rule(
            "stages-2-4",
            "Stages 2 to 4: the coefficient",
            COEFFICIENTS + " Below −2000 the handicap and board reductions do not apply.",
        ),
        Rule(
            "stage-5",
            "Stage 5: the weight",
            "The change is multiplied by 1 − level/1000 (your own level before the game), between 0.1 and "
            "2.5: weak players move faster. Levels are updated after every game.",
        ),
        Rule("stage-6", "Stage 6: the floor", "No level goes below −2950."),
        PERIODS,
        Rule(
            "settling",
            "Special cases: correcting start levels",
            "After a period, a newcomer whose level moved by more than 50, or a known player by more than "
            "100, has their start level moved by (variation − threshold) and the period is rated again, "
            "until no level moves by 10 or more (at most 100 times).",
        ),
        Rule(
            "counted",
            "Games that do not count",
            "Free games and forfeits never count; a jigo has no winner and changes nothing.",
        ),
        ADJUSTMENT,
    ),
    example_note=PERIOD_NOTE,
)
