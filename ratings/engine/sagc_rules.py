"""The rules of the South African Go Clubs (SAGC) rating system (the SAGC
FAQ), one function or table each: the factors of an index change, the
rounding, the demotion restrictions and the promotion and demotion at
+-999.  :mod:`ratings.engine.sagc` replays games with them (it builds its
lookup tables from these functions) and the explanations name the terms
they compute; neither is imported here.

Every factor is a whole number of its own unit (LF in 1/30000, GSF in
halves, OF in tenths, GRF in hundredths, HF in twentieths), so the product
is an exact fraction and an exact half rounds as a half
(:func:`rounded_change`).  Decisions where the SAGC FAQ is silent or
contradicts itself are marked "Decision:" and explained in
docs/rating-systems.md.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Final

from ratings.engine.base import Kind, PlayerId
from ratings.engine.ranks import MAX_RANK, MIN_RANK

INDEX_MAX: Final = 999  # the SAGC FAQ: "an index which ranges between +999 and -999"
INDEX_MIN: Final = -999
MAX_HANDICAP: Final = MAX_RANK - MIN_RANK  # 38 stones: 30k against 9d; more is a typo
MAX_KOMI: Final = 1000.0  # a komi beyond +-1000 points is a typo, not a game
HISTORY: Final = 10  # the SAGC FAQ, Opponent Factor: "in his previous ten games"

# the SAGC FAQ, "The Game Result Factor": the table, one row per Rank/Handicap
# differential, columns (promotion-zone victory, promotion-zone defeat,
# demotion-zone victory, demotion-zone defeat).  Rows +4 and -4 are the
# table's ">+3 (harder game)" and "<-3 (easier game)" rows.
RESULT_TABLE: Mapping[int, tuple[float, float, float, float]] = {
    4: (3.5, -0.0, 3.5, -0.0),
    3: (3.5, -0.09, 3.5, -0.0),
    2: (2.2, -0.47, 2.2, -0.03),
    1: (1.5, -0.81, 1.6, -0.28),
    0: (1.0, -1.17, 1.4, -0.6),
    -1: (0.54, -1.44, 0.7, -0.75),
    -2: (0.13, -1.8, 0.37, -1.0),
    -3: (0.09, -2.7, 0.12, -1.9),
    -4: (0.0, -2.7, 0.0, -1.9),
}

# the SAGC FAQ, "The Game Status Factor" (and "What's this about free games?").
STATUS_FACTOR: Mapping[Kind, float] = {
    Kind.FREE: 0.0,
    Kind.INTERNET: 0.5,
    Kind.CLUB: 1.0,
    Kind.TOURNAMENT: 1.5,
}

# The factors as whole numbers of their units, so that their product is exact.
LEVEL_UNIT: Final = 30000  # LF = (30000 x^2 + 45000 x + 1650000 + x^5) / 30000
STATUS_UNIT: Final = 2  # GSF in halves
OPPONENT_UNIT: Final = 10  # OF in tenths
RESULT_UNIT: Final = 100  # GRF in hundredths (the table has two decimals)
HANDICAP_UNIT: Final = 20  # HF in twentieths (1 - 0.05 h = (20 - h) / 20)
#: The denominator of LF x GSF x OF x GRF x HF when each is a whole number of its unit.
PRODUCT_UNIT: Final = LEVEL_UNIT * STATUS_UNIT * OPPONENT_UNIT * RESULT_UNIT * HANDICAP_UNIT
STATUS_HALVES: Mapping[Kind, int] = {
    kind: int(factor * STATUS_UNIT) for kind, factor in STATUS_FACTOR.items()
}
#: RESULT_TABLE in hundredths.
RESULT_HUNDREDTHS: Mapping[int, tuple[int, int, int, int]] = {
    diff: (round(a * 100), round(b * 100), round(c * 100), round(d * 100))
    for diff, (a, b, c, d) in RESULT_TABLE.items()
}

# the SAGC FAQ, demotion restrictions: "-800, -850, -900, -950 or -999 ... for each
# of the categories above, respectively", then every 50-mark below it.
DEMOTION_MARKS: Final[tuple[int, ...]] = (-800, -850, -900, -950, -999)

#: below any reachable index: a loss that no demotion restriction limits
NO_LIMIT: Final = -1_000_000


# --- the rules, one function each -------------------------------------------


def level_factor(rank: int) -> float:
    """the SAGC FAQ, "The Level Factor": x^2 + 1.5x + 55 + x^5/30000.

    x is the number of stones weaker than 7d (10k: 16, 1k: 7, 1d: 6); "If you
    are stronger than 7-dan, x in the level factor is set to 0."
    """
    return level_units(rank) / LEVEL_UNIT


def stones_weaker_than_7d(rank: int) -> int:
    """x of the Level Factor: 10k 16, 1k 7, 1d 6; 0 from 7d up."""
    return max(0, 6 - rank)  # 7d is 6 on the shared scale (1d = 0)


def level_units(rank: int) -> int:
    """The Level Factor in units of 1/30000: 30000 x^2 + 45000 x + 1650000 + x^5."""
    x = stones_weaker_than_7d(rank)
    return LEVEL_UNIT * x * x + 45000 * x + 55 * LEVEL_UNIT + x**5


def status_factor(kind: Kind) -> float:
    """the SAGC FAQ, "The Game Status Factor": free 0, internet 0.5, club 1,
    tournament 1.5."""
    return STATUS_FACTOR[kind]


def opponent_factor(recent: Sequence[PlayerId], opponent: PlayerId) -> float:
    """the SAGC FAQ, "The Opponent Factor": 1 - 0.1 for each of the player's
    previous ten games against this opponent, at least 0.1.

    ``recent`` holds the opponents of the player's previous games (free games
    included, the SAGC FAQ); only the last ten count.
    """
    return opponent_tenths(list(recent[-HISTORY:]).count(opponent)) / OPPONENT_UNIT


def opponent_tenths(times: int) -> int:
    """The Opponent Factor in tenths after ``times`` games against the opponent
    among the previous ten: 10 - times, at least 1."""
    return max(1, OPPONENT_UNIT - times)


def effective_handicap(handicap: int, komi: float) -> int:
    """the SAGC FAQ, "The Handicap Factor": ``$eff_handicap = int($handicap - ($komi-6)/10);``

    ``komi`` is given to White, a negative komi to Black (record sheet column
    5).  Python's int() truncates toward zero exactly as Perl's int() does.
    """
    return int(handicap - (komi - 6) / 10)


def handicap_factor(eff_handicap: int) -> float:
    """the SAGC FAQ: "(1 - 0.05*eff_handicap), with a minimum of 0.1".

    As the SAGC FAQ's code has it: a negative effective handicap (a large komi
    to White, e.g. 1 stone and 26.5 komi: -1) gives a factor above 1 (1.05).
    """
    return handicap_twentieths(eff_handicap) / HANDICAP_UNIT


def handicap_twentieths(eff_handicap: int) -> int:
    """The Handicap Factor in twentieths: 20 - eff_handicap, at least 2."""
    return max(2, HANDICAP_UNIT - eff_handicap)


def differential(own_rank: int, opponent_rank: int, eff_handicap: int, black: bool) -> int:
    """The player's Rank/Handicap differential (the SAGC FAQ, "The Game Result
    Factor"): positive for a harder game than the correct handicap, negative
    for an easier one, not yet clamped.

    The correct handicap between ranks r_white and r_black is r_white - r_black
    stones for Black (one stone per rank, the SAGC FAQ's eff_handicap counts
    stones); the effective handicap Black actually got is ``eff_handicap``.
    Black's differential is the correct minus the actual handicap, White's
    is its negation.  The SAGC FAQ's example fixes the sign: a 16k (Black)
    playing a 14k on even has +2, the 14k has -2.
    """
    if black:
        return (opponent_rank - own_rank) - eff_handicap
    return eff_handicap - (own_rank - opponent_rank)


def result_factor(diff: int, index: float, won: bool, *, beyond_three_rows: bool = False) -> float:
    """the SAGC FAQ, the Game Result Factor table.

    Promotion zone: index >= 0 ("a positive or zero index"); demotion zone:
    index < 0.  "Any game with a differential greater than 3, is treated like
    a game with a differential of 3": the differential is clamped to +-3.
    The table also prints ">+3" and "<-3" rows that differ slightly; with
    ``beyond_three_rows`` those rows are read instead (decision, see docs).
    """
    return result_hundredths(diff, index, won, beyond_three_rows=beyond_three_rows) / RESULT_UNIT


def result_hundredths(diff: int, index: float, won: bool, *, beyond_three_rows: bool = False) -> int:
    """The Game Result Factor in hundredths (see :func:`result_factor`)."""
    column = (0 if won else 1) + (0 if index >= 0 else 2)
    return RESULT_HUNDREDTHS[clamped(diff, 4 if beyond_three_rows else 3)][column]


def clamped(diff: int, bound: int) -> int:
    """The SAGC FAQ: "Any game with a differential greater than 3, is treated
    like a game with a differential of 3" (``bound`` 3, or 4 to read the
    table's ">+3" and "<-3" rows)."""
    return bound if diff > bound else -bound if diff < -bound else diff


def rounded_change(units: float) -> float:
    """The change ``units / PRODUCT_UNIT`` rounded to a whole point.

    Decision: the index is a whole number; a change is rounded to the
    nearest point, halves away from zero, so that a win and a loss of the
    same size round alike.

    ``units`` is a whole number (the product of the factors in their units,
    at most about 10^14) held in a double, which holds every whole number
    below 2^53 exactly; the remainder (fmod) and the division of a multiple
    are exact too, so an exact half stays a half.  (Python ints would do
    the same, but compiled they leave the machine-word fast path for
    products this large.)
    """
    size = units if units >= 0.0 else -units
    rest = size % PRODUCT_UNIT
    whole = (size - rest) / PRODUCT_UNIT
    if rest + rest >= PRODUCT_UNIT:
        whole += 1.0
    return whole if units >= 0.0 else -whole


def demotion_floor_of(rank: int) -> int:
    """The first demotion restriction for a rank (the SAGC FAQ): a loss from a
    non-negative index cannot take the index below this.

    25k-29k: -800, 20k-24k: -850, 10k-19k: -900, 5k-9k: -950, dan-4k: -999,
    which gives the SAGC FAQ's minimum of 6, 5, 4, 3 and 2 lost games.
    Decision: 30k is in none of the SAGC FAQ's bands; it is never demoted and its
    index simply stops at -999 ("A player at 30 kyu cannot be demoted").
    """
    if rank <= -25:
        return -800 if rank > MIN_RANK else INDEX_MIN
    if rank <= -20:
        return -850
    if rank <= -10:
        return -900
    if rank <= -5:
        return -950
    return -999


def loss_limit(rank: int, index: int) -> int | None:
    """The lowest index a loss may leave a player at, or None when a loss
    may demote them (the SAGC FAQ, demotion restrictions).

    From a non-negative index the band's first floor applies.  "Thereafter,
    his/her index points will not be allowed to pass a '50-mark' without first
    stopping somewhere within those 50 points": as in the SAGC FAQ's 11k example,
    from -1..-900 a loss stops at -950, from -901..-950 at -999, and from
    -951..-999 it may demote.  The marks are the first floor and every 50
    below it, down to -999.
    """
    if rank <= MIN_RANK:
        return INDEX_MIN  # the SAGC FAQ: 30k "is never allowed past -999"
    first = demotion_floor_of(rank)
    if index >= 0:
        return first
    marks = DEMOTION_MARKS[DEMOTION_MARKS.index(first) :]
    for position, mark in enumerate(marks):
        if index >= mark:
            return marks[position + 1] if position + 1 < len(marks) else None
    return None  # below -999 cannot happen; a loss from there demotes


def settle(rank: int, index: float, change: float) -> tuple[int, float, float]:
    """Apply a rounded change: restrictions, then promotion or demotion.

    Returns (new rank, new index, change as reported); see :func:`settle_within`.
    """
    limit = loss_limit(rank, int(index))
    return settle_within(rank, index, change, NO_LIMIT if limit is None else limit)


def settle_within(rank: int, index: float, change: float, limit: float) -> tuple[int, float, float]:
    """Apply a rounded change whose loss may go down to ``limit``
    (:func:`loss_limit`, NO_LIMIT when a loss may demote).

    Indexes and changes are whole numbers (held in doubles in the replay).
    Returns (new rank, new index, change as reported).  The reported change
    is the one applied before a promotion or demotion resets the index
    (record sheet column 8, "Change in index"): it is the computed change
    unless a demotion restriction or an end of the scale cut it short.

    the SAGC FAQ: "If it goes past +999, the index is reset to zero, and the
    players' rank is improved by one rank.  Similarly, if it goes past -999,
    the index is reset and the player demoted by one rank."
    Decision: 9d is the top rank; a 9d's index stops at +999.
    """
    if change < 0 and index + change < limit:
        change = limit - index
    new = index + change
    if new > INDEX_MAX:
        if rank >= MAX_RANK:
            return rank, INDEX_MAX, INDEX_MAX - index
        return rank + 1, 0.0, change
    if new < INDEX_MIN:  # only reachable when a demotion is allowed
        return rank - 1, 0.0, change
    return rank, new, change


def index_change(
    rank: int,
    index: float,
    opponent_rank: int,
    recent: Sequence[PlayerId],
    opponent: PlayerId,
    *,
    black: bool,
    won: bool,
    handicap: int,
    komi: float,
    kind: Kind,
    beyond_three_rows: bool = False,
) -> int:
    """One player's rounded index change for one decisive game, before the
    demotion restrictions (the SAGC FAQ, "How do I calculate my index
    adjustment?"): the five factors multiplied exactly."""
    eff = effective_handicap(handicap, komi)
    diff = differential(rank, opponent_rank, eff, black)
    times = list(recent[-HISTORY:]).count(opponent)
    return int(
        rounded_change(
            float(
                level_units(rank)
                * STATUS_HALVES[kind]
                * opponent_tenths(times)
                * result_hundredths(diff, index, won, beyond_three_rows=beyond_three_rows)
                * handicap_twentieths(eff)
            )
        )
    )


def start_rank(rank: float) -> int:
    """The whole SAGC rank of a declared rank (the SAGC FAQ: "Your current SAGA
    rank will be your point of departure").

    Decision: a fractional rank (1.3d, 14.5k from another system) starts at
    the whole rank at or below it; ranks outside 30k..9d start at the nearest
    end ("minimum 30 kyu").
    """
    whole = math.floor(round(rank, 6))
    return max(MIN_RANK, min(MAX_RANK, whole))
