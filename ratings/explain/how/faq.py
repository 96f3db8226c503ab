"""The players' questions on the "How ratings work" index, answered for
every system the site computes."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Question:
    key: str
    question: str
    #: Paragraphs; each may start with a system's label, then what holds there.
    answer: tuple[str, ...]


FAQ = (
    Question(
        "lose-for-a-win",
        "Why did I lose points for a win?",
        (
            "In none of these systems does a won game on its own lower your rating. What you see is "
            "something else happening on the same row or the same day:",
            "South African Go Clubs: a win always adds to your index (it may round to 0 when the factors "
            "are tiny). If the win takes the index past +999 you go up a rank and the index starts again "
            "at 0, which looks like a drop but is a promotion. Otherwise the index only falls through a "
            "loss, a demotion, or a committee adjustment (for example the synchronisation with the "
            "national rank list), which sets your rank and index.",
            "EGF GoR (both): a won game's own change is always positive, but a tournament is rated as a "
            "whole: the period's result is the sum of its games, so one win and two losses may add up to "
            "a loss. A committee adjustment can also set a lower GoR.",
            "FFG ladder (both): a won game's own change is positive (the old ladder's can be 0 for a strong "
            "player beating a much weaker one). Your published level is the sum over the tournament, "
            "rounded; when the settling corrected your start level, the first row of the period starts from "
            "the corrected level, so the jump shows between periods, not as a loss. A committee "
            "adjustment can set a lower level.",
            "West Surrey ladder: a win always climbs one rung (a 9.9d stays where he is). Only a committee "
            "adjustment after a tournament, or a loss, moves you down.",
        ),
    ),
    Question(
        "late-game",
        "Why did a game from last month change my rating today?",
        (
            "Games are rated in the order they were played, not the order they were entered. When a "
            "record sheet is entered late, or a game is corrected or deleted, its games take their place "
            "at their date, and every rating after that date is computed again, for every player whose "
            "games follow. Your own games did not change, but the ratings they were rated from did: an "
            "opponent who now has a different rank or rating, or in the South African system a different "
            "count of recent games against the same opponent, gives a different result.",
        ),
    ),
    Question(
        "other-systems",
        "Why is my rating different in the other systems?",
        (
            "Every system rates the same games by its own rules, in its own unit: an index within a rank "
            "(South African Go Clubs), a GoR (EGF), a level (FFG) or a rung (West Surrey). They count "
            "different games (West Surrey only counts club games; EGF weighs club and internet games less "
            "than tournament games and leaves out small boards and fast games; FFG counts small boards and "
            "quicker games at a fraction), they update at different times "
            "(after every game, or after a whole tournament), and they react differently to the same "
            "result. Your rank in each is that system's own judgement; none is converted from another.",
        ),
    ),
    Question(
        "index",
        "What is the index?",
        (
            "In the South African Go Clubs system the index says where you stand within your rank, from "
            "−999 to +999. Wins raise it, losses lower it; past +999 you go up a rank, past −999 down one, "
            "and it starts again at 0. A positive index (the promotion zone) means you are on your way "
            "up; a negative one (the demotion zone) that you are slipping, and losses then cost less. "
            "The other systems have no index: the rating itself (GoR, level, rung) says where you are.",
        ),
    ),
    Question(
        "rank-change",
        "When does my rank change?",
        (
            "South African Go Clubs: when your index passes +999 (up one rank) or −999 (down one rank, and "
            "weak players must lose several games in a row first), or when the committee sets your rank.",
            "EGF GoR: your rank is the band of 100 points your GoR falls in (1950 to 2049 is 1 kyu, 2050 to "
            "2149 is 1 dan), so it changes as soon as a tournament takes your GoR over a band's edge.",
            "FFG ladder: the same with levels: 0 to 99 is 1 dan, −100 to −1 is 1 kyu.",
            "West Surrey ladder: your rung is your rank, and every won or lost ladder game moves it.",
        ),
    ),
)
