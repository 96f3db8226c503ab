"""Log-loss, Brier score and accuracy (ratings/evaluation/metrics.py) against
values computed by hand, and the logistic fit (ratings/evaluation/fit.py)."""

from __future__ import annotations

import math
from dataclasses import astuple

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.evaluation.fit import PRIOR, LogisticCurve, Prior, WalkForward, fit_curve, logistic
from ratings.evaluation.metrics import Bin, by_band, calibration, score


def test_four_games_computed_by_hand() -> None:
    # (P(White wins), outcome): White won at 0.8, Black won at 0.4, White won
    # at 0.5, a jigo at 0.9.
    m = score([(0.8, 1.0), (0.4, 0.0), (0.5, 1.0), (0.9, 0.5)])
    # log-loss: -ln 0.8 = 0.2231436, -ln 0.6 = 0.5108256, -ln 0.5 = 0.6931472,
    # jigo -(ln 0.9 + ln 0.1)/2 = (0.1053605 + 2.3025851)/2 = 1.2039728;
    # sum 2.6310892, mean 0.6577723.
    assert m.log_loss == pytest.approx(0.6577723, abs=1e-7)
    # Brier: 0.2^2 + 0.4^2 + 0.5^2 + 0.4^2 = 0.04 + 0.16 + 0.25 + 0.16 = 0.61, mean 0.1525.
    assert m.brier == pytest.approx(0.1525, abs=1e-12)
    # Accuracy on the three decisive games: right, right, a coin (half): 2.5 / 3.
    assert m.accuracy == pytest.approx(2.5 / 3, abs=1e-12)
    assert (m.games, m.decisive) == (4, 3)


def test_always_fifty_percent_scores_ln2_a_quarter_and_a_half() -> None:
    m = score([(0.5, 1.0), (0.5, 0.0), (0.5, 0.0)])
    assert m.log_loss == pytest.approx(math.log(2), abs=1e-15)
    assert m.brier == 0.25
    assert m.accuracy == 0.5


def test_a_certainty_proved_wrong_costs_a_large_finite_amount() -> None:
    # p kept at 1e-15: -ln(1e-15) = 15 ln 10 = 34.538776...
    assert score([(0.0, 1.0)]).log_loss == pytest.approx(15 * math.log(10), rel=1e-9)
    assert score([(1.0, 1.0)]).log_loss == pytest.approx(0.0, abs=1e-14)


def test_no_games_gives_no_figures() -> None:
    m = score([])
    assert (m.games, m.log_loss, m.brier, m.accuracy) == (0, None, None, None)
    assert score([(0.7, 0.5)]).accuracy is None  # only a jigo: nobody to name


def test_a_bad_probability_or_outcome_is_refused() -> None:
    with pytest.raises(ValueError, match="probability"):
        score([(1.2, 1.0)])
    with pytest.raises(ValueError, match="outcome"):
        score([(0.5, 2.0)])


def test_by_band_splits_the_games() -> None:
    bands = by_band([0.8, 0.4, 0.9], [1.0, 1.0, 1.0], lambda i: "even" if i < 2 else "5-9")
    assert bands["even"].games == 2
    assert bands["even"].accuracy == 0.5
    assert bands["5-9"].log_loss == pytest.approx(-math.log(0.9))


def test_logistic_is_symmetric_and_does_not_overflow() -> None:
    assert logistic(0.0) == 0.5
    assert logistic(2.0) + logistic(-2.0) == pytest.approx(1.0, abs=1e-15)
    assert logistic(-1000.0) == 0.0 and logistic(1000.0) == 1.0


def test_without_games_the_fit_is_the_prior() -> None:
    assert fit_curve([], []) == PRIOR.curve


def _gradient(xs: list[float], ys: list[float], curve: LogisticCurve, prior: Prior) -> tuple[float, float]:
    ga = prior.weight * (curve.intercept - prior.intercept)
    gb = prior.weight * (curve.slope - prior.slope)
    for x, y in zip(xs, ys, strict=True):
        r = curve.probability(x) - y
        ga += r
        gb += r * x
    return ga, gb


def test_games_at_an_equal_footing_fit_the_intercept_only() -> None:
    # 1000 games at x = 0, White won 600: the slope stays at the prior's
    # (x = 0 says nothing about it) and the intercept solves
    # 1000 logistic(a) - 600 + a = 0: a little under logit(0.6) = 0.405465.
    xs, ys = [0.0] * 1000, [1.0] * 600 + [0.0] * 400
    curve = fit_curve(xs, ys)
    assert curve.slope == pytest.approx(PRIOR.slope, abs=1e-12)
    assert 1000 * logistic(curve.intercept) - 600 + curve.intercept == pytest.approx(0.0, abs=1e-8)
    assert 0.40 < curve.intercept < math.log(0.6 / 0.4)


@given(
    st.lists(
        st.tuples(st.floats(-6, 6, allow_nan=False), st.sampled_from([0.0, 0.5, 1.0])),
        min_size=1,
        max_size=60,
    )
)
def test_the_fit_is_where_the_posterior_is_flat(games: list[tuple[float, float]]) -> None:
    # Whatever the games (even all won by White: separable data), the prior
    # keeps the maximum finite and Newton's method reaches it.
    xs = [x for x, _ in games]
    ys = [y for _, y in games]
    curve = fit_curve(xs, ys)
    ga, gb = _gradient(xs, ys, curve, PRIOR)
    assert abs(ga) < 1e-7 and abs(gb) < 1e-7


def test_the_walk_forward_refits_on_its_schedule() -> None:
    # After each of the first 20 games, then when the games grow by a tenth.
    assert WalkForward.due(1, 0) and WalkForward.due(20, 19)
    assert not WalkForward.due(21, 20) and WalkForward.due(22, 20)
    assert not WalkForward.due(109, 100) and WalkForward.due(110, 100)
    walk = WalkForward()
    assert walk.probability(1.0) == pytest.approx(2 / 3)  # the prior: one stone wins 2 games in 3
    for _ in range(200):
        walk.observe(0.0, 1.0)
        walk.probability(0.0)
    # 20 fits one a game, then 21 -> ... -> 200 by tenths: 22, 24, 26, 28, 30, 33, ...
    assert 20 < walk.fits < 50
    assert walk.fitted_at <= 200


def test_the_calibration_table_by_hand() -> None:
    # Five bands of 0.2: 0.1 and 0.15 (Black won both) in the first; 0.5 (a jigo)
    # and 0.55 (White won) in the third; 0.9 and 1.0 (White won, lost) in the last.
    table = calibration([0.1, 0.15, 0.5, 0.55, 0.9, 1.0], [0.0, 0.0, 0.5, 1.0, 1.0, 0.0], bins=5)
    assert [astuple(row) for row in table] == [
        (0.0, 0.2, 2, pytest.approx(0.125), 0.0),
        (0.4, 0.6, 2, pytest.approx(0.525), 0.75),
        (0.8, 1.0, 2, pytest.approx(0.95), 0.5),
    ]
    assert all(isinstance(row, Bin) for row in table)
    with pytest.raises(ValueError, match="bins"):
        calibration([], [], bins=0)


def test_a_prior_without_weight_is_refused_saying_so() -> None:
    with pytest.raises(ValueError, match=r"^the prior's weight must be positive, got 0\.0$"):
        fit_curve([1.0], [1.0], Prior(PRIOR.intercept, PRIOR.slope, 0.0))


def test_rank_bands_begin_at_their_first_grade() -> None:
    from ratings.evaluation.report import rank_band

    # The shared scale: 1d = 0, 1k = -1, 10k = -10, 20k = -20.
    assert [rank_band(r, r) for r in (0.0, -1.0, -9.0, -10.0, -19.0, -20.0, -29.0)] == [
        "dan", "1k-9k", "1k-9k", "10k-19k", "10k-19k", "20k-30k", "20k-30k",
    ]  # fmt: skip
    assert rank_band(-19.0, -21.0) == "20k-30k"  # the mean, 20k
    assert rank_band(None, 0.0) == "unknown"


def test_a_calibration_of_unequal_lists_says_how_many_of_each() -> None:
    with pytest.raises(ValueError, match=r"^2 probabilities but 1 outcomes$"):
        calibration([0.5, 0.7], [1.0])


def test_handicap_bands_end_with_ten_stones_or_more() -> None:
    from ratings.evaluation.report import handicap_band

    assert [handicap_band(s) for s in (0, 1, 2, 4, 5, 9, 10, 13)] == [
        "even", "1", "2-4", "2-4", "5-9", "5-9", "10+", "10+",
    ]  # fmt: skip
