"""Which rating system predicts best: walk-forward predictions and their scores.

Pure Python, no Django (like :mod:`ratings.engine`, whose public API it
reads: ``rate()`` and the ledger).  docs/evaluation.md explains the method.

* :func:`predict.evaluate` -- before every game, each system's P(White wins)
  and the two baselines';
* :mod:`metrics` -- log-loss, Brier score, accuracy;
* :mod:`report` -- the tables (overall, by handicap band, by rank band) and
  the predictions CSV;
* :mod:`fit` -- the logistic curve fitted walk-forward;
* :mod:`readings` -- each system's strength and handicap readings;
* :mod:`advice` -- for a new pairing: the probability of a result, the
  handicap and komi each system prescribes, a check of a given handicap.

May import: ratings.engine, ratings.exchange.
"""
