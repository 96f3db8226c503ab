"""Go ranks as numbers, shared by every rating system.

One scale for all systems (the West Surrey ladder page, "Handicaps": "treat 'x'kyu = -x;
'y'dan = y-1"): 30k = -30, 1k = -1, 1d = 0, 9d = 8.  Fractional ranks such as
West Surrey's rungs ("1.3d", "14.5k") use the same scale: 1.3d = 0.3,
14.5k = -14.5.  The difference of two values is the number of handicap stones
between them, and the conversions to other systems' units are linear:

* EGF GoR (the Revised European Ratings page): 1d = 2100, 1k = 2000, 100 per grade,
  so GoR = 2100 + 100 * value.
* FFG level (the French Ladder and FFG algorithm pages): 1d = 0..99, 1k = -100..-1, entry level of a
  new 1d is 50, of a new 1k is -50, so level = 100 * value + 50.
"""

from __future__ import annotations

import math
import re
from typing import Final

MIN_RANK: Final = -30  # 30k, SAGC's floor (the SAGC FAQ: "minimum 30 kyu")
MAX_RANK: Final = 8  # 9d

_RANK_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kKdD])(?:yu|an)?\s*$")


class RankError(ValueError):
    """A rank could not be read."""


def parse_rank(text: str) -> float:
    """'11k' -> -11.0, '2d' -> 1.0, '1.3d' -> 0.3, '14.5k' -> -14.5.

    Kyu numbers below 1 ('0.2k', the West Surrey ladder page's rung just below 1d) are accepted.
    A dan grade below 1 ('0.5d') does not exist (the West Surrey ladder page: "0d to 0.9d do not
    exist") and is refused.
    """
    match = _RANK_RE.match(text)
    if match is None:
        raise RankError(f"not a rank: {text!r} (expected e.g. '11k', '2d', '1.3d')")
    number = float(match.group(1))
    if match.group(2) in "kK":
        if number <= 0:
            raise RankError(f"not a rank: {text!r} (kyu grades start above 0)")
        return -number
    if number < 1:
        raise RankError(f"not a rank: {text!r} (dan grades start at 1d)")
    return round(number - 1, 6)  # 1.3d -> 0.3 exactly as written, not 0.30000000000000004


def format_rank(value: float) -> str:
    """Inverse of :func:`parse_rank`: -11 -> '11k', 0 -> '1d', 0.3 -> '1.3d'."""
    if value < 0:
        number = -value
        suffix = "k"
    else:
        number = value + 1
        suffix = "d"
    rounded = round(number, 2)
    if rounded == math.floor(rounded):
        return f"{int(rounded)}{suffix}"
    return f"{rounded:g}{suffix}"


def rank_to_gor(value: float) -> float:
    """EGF grade to GoR: 1d = 2100, 1k = 2000 (the Revised European Ratings page)."""
    return 2100.0 + 100.0 * value


def gor_to_rank(gor: float) -> int:
    """The whole grade a GoR falls in: 2050..2149 = 1d, 1950..2049 = 1k.

    EGD convention: a grade's GoR is the middle of its band of 100 points.
    """
    return math.floor((gor - 2050.0) / 100.0)


def rank_to_ffg(value: float) -> float:
    """FFG entry level of a grade: 1d = 50, 1k = -50 (the French Ladder page)."""
    return 100.0 * value + 50.0


def ffg_to_rank(level: float) -> int:
    """The whole grade an FFG level falls in: 0..99 = 1d, -100..-1 = 1k."""
    return math.floor(level / 100.0)
