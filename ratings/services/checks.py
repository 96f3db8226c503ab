"""The domain rules a game must keep (same player twice, handicap, komi,
dates, names, ranks), shared with the forms so that both say the same."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from django.utils import timezone

from ratings.engine.ranks import MAX_RANK, MIN_RANK, format_rank
from ratings.exchange.names import clean_name, identity_key
from ratings.models import Player, RatingList, Winner
from ratings.services.rows import MAX_HANDICAP, MAX_KOMI, PlayerRef


def _name(ref: PlayerRef) -> str:
    return ref.display_name


def _since(ref: PlayerRef) -> date | None:
    return ref.since if isinstance(ref, Player) else None


def game_problems(
    *,
    white: PlayerRef | None,
    black: PlayerRef | None,
    winner: str | None,
    handicap: int | None,
    komi: Decimal | None,
    game_date: date | None,
    rating_list: RatingList | None = None,
    today: date | None = None,
) -> dict[str, str]:
    """What is wrong with one game, by field name; empty when nothing is.

    Any two players of a list may meet at any of its clubs; a player of
    another list may not (lists never mix)."""
    today = today or timezone.localdate()
    problems: dict[str, str] = {}
    if white is not None and black is not None and identity_key(_name(white)) == identity_key(_name(black)):
        problems["black"] = f"{_name(black)} cannot play both White and Black in one game"
    for colour, ref in (("white", white), ("black", black)):
        if ref is None:
            continue
        if rating_list is not None and isinstance(ref, Player) and ref.rating_list_id != rating_list.pk:
            problems[colour] = (
                f"{ref} is a player of the list {ref.rating_list}, not of {rating_list}: "
                "games between players of two lists are not rated"
            )
        since = _since(ref)
        if game_date is not None and since is not None and game_date < since and colour not in problems:
            problems[colour] = (
                f"{ref} joined on {since:%Y-%m-%d}; a game dated {game_date:%Y-%m-%d} is before that"
            )
    if winner not in Winner.values:
        problems["winner"] = "choose the winner: White, Black or jigo"
    if handicap is None or not 0 <= handicap <= MAX_HANDICAP:
        problems["handicap"] = f"handicap must be 0 to {MAX_HANDICAP} stones, not {handicap}"
    if komi is not None:
        if not -MAX_KOMI <= komi <= MAX_KOMI:
            problems["komi"] = (
                f"komi must be between -{MAX_KOMI} and {MAX_KOMI} (negative = to Black), not {komi}"
            )
        elif (komi * 2) % 1 != 0:
            problems["komi"] = f"komi is counted in half points, not {komi}"
    if game_date is not None and (problem := date_problem(game_date, today)) is not None:
        problems["date"] = problem
    return problems


#: The earliest date a game, sheet or adjustment may carry.  Go was played
#: in European clubs from the early twentieth century; anything before 1900
#: is a typing slip (year 0001, 0204 for 2024), not a record.
EARLIEST_DATE = date(1900, 1, 1)


def date_problem(value: date, today: date | None = None) -> str | None:
    """Why a game or sheet date is not plausible (before 1900, after today), or None."""
    if value < EARLIEST_DATE:
        return (
            f"{value.isoformat()} is before {EARLIEST_DATE.isoformat()}, the earliest date the site records"
        )
    if value > (today or timezone.localdate()):
        return f"{value.isoformat()} is in the future"
    return None


def name_problem(name: str) -> str | None:
    """What exchange.clean_name refuses in a new player's name: the forms
    and imports clean names first; this refuses one that slipped past them."""
    try:
        clean_name(name)
    except ValueError as error:
        return f"{name!r}: {error}"
    return None


def rank_problem(rank: int) -> str | None:
    if not MIN_RANK <= rank <= MAX_RANK:
        return f"a starting rank is between {format_rank(MIN_RANK)} and {format_rank(MAX_RANK)}"
    return None
