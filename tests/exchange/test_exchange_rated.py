"""What a rated results file leaves out, format by format (ratings/exchange/rated.py)."""

from __future__ import annotations

import pytest

from ratings.exchange import RATED_FORMATS, left_out_reason


@pytest.mark.parametrize("fmt", RATED_FORMATS)
def test_club_and_tournament_games_on_19_are_written(fmt: str) -> None:
    for kind in ("club", "tournament"):
        assert left_out_reason(fmt, kind=kind, board=19) is None
        assert left_out_reason(fmt, kind=kind, board=19, minutes=60) is None


@pytest.mark.parametrize("fmt", RATED_FORMATS)
def test_free_games_and_small_boards_are_left_out_with_the_reason(fmt: str) -> None:
    assert "free or teaching game" in str(left_out_reason(fmt, kind="free", board=19))
    for board in (9, 13):
        reason = str(left_out_reason(fmt, kind="club", board=board))
        assert reason.startswith(f"{board}×{board} board")
    # The free game's reason wins over its board.
    assert "free" in str(left_out_reason(fmt, kind="free", board=13))


@pytest.mark.parametrize(
    ("fmt", "reason"),
    [
        ("h9", "the EGD rates games played online only as class D"),
        ("tou", "a .tou file cannot mark a game played online"),
        ("aga", "an AGA results file cannot mark a game played online"),
    ],
)
def test_internet_games_are_left_out_where_the_file_cannot_mark_them(fmt: str, reason: str) -> None:
    assert reason in str(left_out_reason(fmt, kind="internet", board=19))


def test_a_class_d_file_holds_the_internet_games_only() -> None:
    assert left_out_reason("h9", kind="internet", board=19, event_class="D") is None
    for kind in ("club", "tournament"):
        assert "class D file is for internet games only" in str(
            left_out_reason("h9", kind=kind, board=19, event_class="D")
        )
    assert "board" in str(left_out_reason("h9", kind="internet", board=13, event_class="D"))


@pytest.mark.parametrize(("fmt", "limit"), [("h9", 25), ("tou", 30)])
def test_fast_games_are_left_out_below_each_bodys_limit(fmt: str, limit: int) -> None:
    assert left_out_reason(fmt, kind="club", board=19, minutes=limit) is None
    assert f"{limit - 1} minutes' main time" in str(
        left_out_reason(fmt, kind="club", board=19, minutes=limit - 1)
    )
    assert left_out_reason("aga", kind="club", board=19, minutes=10) is None  # the AGA states no limit


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_game_records_leave_nothing_out(fmt: str) -> None:
    """Their kind and board columns say what each game is."""
    for kind in ("free", "internet", "club"):
        assert left_out_reason(fmt, kind=kind, board=9, minutes=5) is None
