"""Which games a rated results file may carry, format by format.

A results file sent to a national body (EGD ``.h9``, FFG ``.tou``, AGA
results) is a list of games to rate; a club's record sheets also hold games
no national body rates.  :func:`left_out_reason` gives, for a game's kind,
board size and main time, why a format leaves it out (None: written).  The decisions and
their sources are in docs/formats.md ("What a rated export leaves out"); the
site's game records (CSV, JSON) are complete records and leave nothing out
but forfeits, since their ``kind`` and ``board`` columns say what each game is.
Forfeits are left out of every file by the caller (a game flag, not a kind).
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["FORFEIT", "RATED_FORMATS", "left_out_reason"]

#: The formats whose files are games to rate.
RATED_FORMATS = ("h9", "tou", "aga")

FORFEIT = "won or lost by default: recorded, never rated"
FREE = "free or teaching game: not rated (weight 0 in the SAGC rules)"
_BOARD = {
    "h9": "{board}×{board} board: the EGD rates 19×19 games only",
    "tou": "{board}×{board} board: a .tou file has one board size (size=19) for all its games",
    "aga": "{board}×{board} board: the AGA rates 19×19 games only (its results file has no board size)",
}
_INTERNET = {
    "C": "internet game: the EGD rates games played online only as class D; export them as a class D file",
    "tou": "internet game: a .tou file cannot mark a game played online (the FFG rates games over the board)",
    "aga": "internet game: an AGA results file cannot mark a game played online",
}
#: The shortest main time a format's body rates (minutes a player): the EGD
#: rates no game under 25 minutes (its class C minimum, as the egf engine's
#: min_minutes), the FFG ladder none under 30 (the French Ladder page, stage 4).
MIN_MINUTES: Mapping[str, int] = {"h9": 25, "tou": 30}
_FAST = {
    "h9": "{minutes} minutes' main time: the EGD rates no game under 25 minutes",
    "tou": "{minutes} minutes' main time: the FFG ladder counts no game under 30 minutes a player",
}
OVER_THE_BOARD = "played over the board: a class D file is for internet games only"
#: The EGD tournament classes a club export may be (docs/formats.md): C for
#: games over the board (a club ladder), D for games played online.
EGD_CLASSES: Mapping[str, str] = {"C": "club ladder, games over the board", "D": "games played online"}


def left_out_reason(
    format: str, *, kind: str, board: int, minutes: int | None = None, event_class: str = "C"
) -> str | None:
    """Why a rated file of ``format`` leaves out a game of ``kind`` on
    ``board`` with ``minutes`` of main time (None: unknown, which counts), or
    None when it is written.  ``event_class`` is the EGD class of an h9 file
    (C or D); other formats ignore it."""
    if format not in RATED_FORMATS:
        return None
    if kind == "free":
        return FREE
    if board != 19:
        return _BOARD[format].format(board=board)
    if minutes is not None and minutes < MIN_MINUTES.get(format, 0):
        return _FAST[format].format(minutes=minutes)
    if format == "h9" and event_class == "D":
        return None if kind == "internet" else OVER_THE_BOARD
    if kind == "internet":
        return _INTERNET["C" if format == "h9" else format]
    return None
