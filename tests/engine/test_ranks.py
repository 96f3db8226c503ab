"""Ranks as numbers and as words (ratings/engine/ranks.py): the rank a
record sheet prints and the grade of a GoR, at the edges of their bands."""

from __future__ import annotations

import pytest

from ratings.engine.ranks import format_rank, gor_to_rank, parse_rank


@pytest.mark.parametrize(
    ("value", "words"),
    [(-11, "11k"), (-30, "30k"), (0, "1d"), (8, "9d"), (0.3, "1.3d"), (1.25, "2.25d"), (-1.5, "1.5k")],
)
def test_a_rank_is_written_as_its_grade_and_a_fraction_in_hundredths(value: float, words: str) -> None:
    assert format_rank(value) == words
    assert parse_rank(words) == value


@pytest.mark.parametrize(("value", "words"), [(-11.004, "11k"), (2.996, "4d"), (0.3049, "1.3d")])
def test_float_noise_below_a_hundredth_is_not_written(value: float, words: str) -> None:
    # A ladder's rungs and an average of ranks carry float noise; the sheet
    # shows hundredths at most.
    assert format_rank(value) == words


@pytest.mark.parametrize(
    ("gor", "grade"),
    [
        (2050.0, 0),  # 1d's band is 2050..2149.99
        (2149.99, 0),
        (2049.99, -1),  # 1k's is 1950..2049.99
        (1950.0, -1),
        (1949.99, -2),
        (2749.99, 6),
        (2750.0, 7),  # 8d from 2750
        (2850.0, 8),
        (100.0, -20),  # the old floor: 20k
        (-900.0, -30),  # the revised floor: 30k
    ],
)
def test_a_gor_falls_in_the_grade_whose_band_of_100_holds_it(gor: float, grade: int) -> None:
    assert gor_to_rank(gor) == grade


@pytest.mark.parametrize("words", ["0k", "0d", "-1k"])
def test_a_grade_below_1k_or_1d_is_not_a_rank(words: str) -> None:
    with pytest.raises(ValueError, match="not a rank"):
        parse_rank(words)
