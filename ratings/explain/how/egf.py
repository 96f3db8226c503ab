"""The EGF GoR, current and before 2021, for players: one family, shared terms."""

from __future__ import annotations

from ratings.explain.how import PERIOD_NOTE, Rule, SystemPage

SCALE = Rule(
    "scale",
    "The GoR scale",
    "Every player has a GoR (Go Rating): 2100 is a 1 dan, 2000 a 1 kyu, 100 points a grade (20k = 100, "
    "7d = 2700). A new player starts at the GoR of the grade they declare. Your grade is the band of 100 "
    "points around a grade's GoR: 2050 to 2149 is 1 dan, 1950 to 2049 is 1 kyu.",
)
PERIODS = Rule(
    "periods",
    "A tournament is rated as a whole",
    "Ratings are not updated between the games of one tournament: every game of it uses both players' "
    "ratings as they were when it began, and your result is the sum of your games' changes. A tournament "
    "sheet is one period; club and internet games without a tournament form one period per club and "
    "day. On the record sheet the rows of a period add up: each row starts where the one before ended.",
)
HANDICAP = Rule(
    "handicap",
    "Handicap",
    "With H handicap stones Black counts as 100 × (H − ½) points stronger when the expected result is "
    "worked out (H = 1, a game without komi, is worth 50 points); an even game gets no correction, and "
    "komi is not looked at. More than 9 stones is refused.",
)
CLASSES = Rule(
    "classes",
    "Tournament classes",
    "The whole change of a game is multiplied by its class weight: class A 1, B ¾, C ½, D ¼. Tournament "
    "games are class A unless their sheet says otherwise, club games class C, internet games class D.",
)
COUNTED = Rule(
    "counted",
    "Games that do not count",
    "Free games, forfeits, games on boards smaller than 19×19 and games with less than 25 minutes' main "
    "time a player change nothing.",
)
ADJUSTMENT = Rule(
    "adjustment",
    "Committee adjustments",
    "The committee may set a player's GoR, or their grade (then the GoR is the grade's, as for a new "
    "player), from a date on. The row's change is the new GoR minus the old one.",
)


PAGE = SystemPage(
    name="egf",
    summary=(
        "The European Go Federation's rating, as the European Go Database has computed it since 2021. After "
        "each tournament your GoR moves by the difference between what you scored and what your GoR "
        "predicted, more for weak players than for strong ones, plus a small bonus that keeps kyu ratings "
        "from sinking."
    ),
    sources=(
        "“EGF Official ratings system”, European Go Database (europeangodatabase.eu)",
        "the revised EGF rating system, goratings.eu",
        "“EGF tournament class”, Sensei's Library",
    ),
    rules=(
        SCALE,
        Rule(
            "formula",
            "The change after a game",
            "change = weight × (con × (Sa − Se) + bonus). Sa is the result (1, ½ or 0). Se is the expected "
            "result, 1 / (1 + e^(β(opponent) − β(you))) with β(r) = −7 × ln(3300 − r): the same ratings "
            "give an even chance, 100 points more makes you the favourite. con = ((3300 − r)/200)^1.6 "
            "(about 20 for a 1 kyu, 10 for a 5 dan) and bonus = ln(1 + e^((2300 − r)/80))/5 (0.75 for a "
            "1 kyu, nearly 0 for dan players), both at your own rating.",
        ),
        HANDICAP,
        CLASSES,
        PERIODS,
        COUNTED,
        Rule(
            "floor",
            "The floor",
            "No GoR goes below −900 (30 kyu): a period that would end lower ends at −900.",
        ),
        ADJUSTMENT,
    ),
    example_note=PERIOD_NOTE,
)

OLD_PAGE = SystemPage(
    name="egf-old",
    summary=(
        "The European ratings from 1998 to 2020: the same GoR scale, with an older winning chance whose "
        "steepness depends on the weaker player's rating, and a table of con factors. Use it to compare "
        "with ratings published before 2021."
    ),
    sources=(
        "“EGF Official ratings system”, the old algorithm, European Go Database (europeangodatabase.eu)",
        "“GoR”, Sensei's Library",
        "“Rating System Commission”, European Go Federation (eurogofed.org)",
    ),
    rules=(
        SCALE,
        Rule(
            "formula",
            "The change after a game",
            "change = weight × con × (Sa − Se). Se = 1 / (e^(D/a) + 1) − ε/2, where D is the opponent's "
            "rating minus yours and a = 200 − (GoR − 100)/20 at the weaker of the two ratings (200 at 20 "
            "kyu, 70 at 7 dan): between strong players 100 points matter more. ε = 0.016 is taken off both "
            "players' Se, which nudges ratings up. con comes from a table by your own rating: 116 at GoR "
            "100, 27 at 2000, 10 at 2700, straight lines in between. There is no bonus.",
        ),
        Rule(
            "very-weak",
            "A very weak player's Se may be below zero",
            "With ε taken off, a player with almost no chance has a slightly negative Se, so even a loss "
            "adds a fraction of a point.",
        ),
        HANDICAP,
        CLASSES,
        PERIODS,
        COUNTED,
        Rule(
            "floor",
            "The floor",
            "Before 2021 no GoR went below 100 (20 kyu): a newcomer below 20 kyu enters at 100, and a period "
            "that would end lower ends at 100.",
        ),
        ADJUSTMENT,
    ),
    example_note=PERIOD_NOTE,
)
