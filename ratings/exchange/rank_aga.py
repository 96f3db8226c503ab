"""The AGA TD list (``tdlista.txt``).

Tab-separated, no header: ``Last, First``, AGA id, membership type, rating,
expiry, chapter, state, sigma, last rated.  Real lists drop trailing empty
fields (aga_rl-fixture.txt: 7 fields when sigma and date are empty) and put
a space before some names; both are read.
"""

from __future__ import annotations

import math

from ._rankbase import RankEntry, RankList, clamp, collect, field_column
from .errors import ExchangeError
from .names import split_comma_name
from .text import split_lines

AGA_FIELDS = 9
#: Fewer fields than this is not a TD list line (name, id, membership, rating).
AGA_MIN_FIELDS = 4


def aga_rating_to_rank(rating: float) -> float:
    """AGA rating to a whole grade: 3.4 -> 3d (2), -20.05 -> 20k (-20).

    The AGA scale has no zero: 1.0 .. 1.999 is 1d, -1.0 .. -1.999 is 1k, and
    the fraction is how far into the grade the player is (-20.05 is a weak
    20k, not a 21k).  So the whole grade is the integer part, cut toward
    zero.  Ratings strictly between -1 and 1 do not occur on the AGA scale;
    they are taken as 1k (negative) or 1d (non-negative).
    """
    whole = math.trunc(rating)
    if rating < 0:
        return clamp(min(whole, -1))
    return clamp(max(whole, 1) - 1)


def read_aga_line(number: int, line: str) -> RankEntry | None:
    if not line.strip():
        return None
    fields = line.split("\t")
    if not AGA_MIN_FIELDS <= len(fields) <= AGA_FIELDS:
        raise ExchangeError(
            number, f"expected {AGA_FIELDS} tab-separated fields (AGA TD list), found {len(fields)}"
        )
    padded = [f.strip() for f in fields] + [""] * (AGA_FIELDS - len(fields))
    name, member_id, _kind, rating_text, _expiry, chapter, _state, _sigma, _last = padded
    if not name.strip(", "):
        raise ExchangeError(number, "the name (field 1) is empty", column=1)
    if not member_id.isdigit():
        raise ExchangeError(
            number, f"AGA id {member_id!r} (field 2) is not a number", column=field_column(fields, 1)
        )
    rating: float | None = None
    if rating_text:
        try:
            rating = float(rating_text)
        except ValueError:
            rating = math.nan
        if not math.isfinite(rating) or not -100 < rating < 100:
            raise ExchangeError(
                number,
                f"rating {rating_text!r} (field 4) is not a signed number like -20.05 or 3.4",
                column=field_column(fields, 3),
            )
    surname, given = split_comma_name(name)
    return RankEntry(
        line=number,
        name=name,
        surname=surname,
        given_name=given,
        national_id=member_id,
        rank=None if rating is None else aga_rating_to_rank(rating),
        rating=rating,
        # The list has no country; the chapter is the member's club.
        country=None,
        club=chapter or None,
    )


def parse_aga_tdlist(text: str) -> RankList:
    entries, rejected = collect(enumerate(split_lines(text), start=1), read_aga_line)
    return RankList("aga", "", None, tuple(entries), tuple(rejected))
