"""Tables of an :class:`~ratings.evaluation.predict.Evaluation`, and its predictions as CSV.

Bands (docs/evaluation.md):

* handicap band, by the stones of the game: ``even`` (0), ``1``, ``2-4``,
  ``5-9``, ``10+``;
* rank band, by the mean of the two players' declared ranks before the
  game: ``dan`` (1d and up), ``1k-9k``, ``10k-19k``, ``20k-30k``, and
  ``unknown`` when a player has no declared rank.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Final

from ratings.engine.base import PlayerId
from ratings.evaluation.metrics import Metrics, by_band, score
from ratings.evaluation.predict import Evaluation

__all__ = [
    "HANDICAP_BANDS",
    "PREDICTION_COLUMNS",
    "RANK_BANDS",
    "handicap_band",
    "prediction_rows",
    "predictions_csv",
    "rank_band",
    "safe_cell",
    "summary",
    "summary_text",
]

HANDICAP_BANDS: Final = ("even", "1", "2-4", "5-9", "10+")
RANK_BANDS: Final = ("dan", "1k-9k", "10k-19k", "20k-30k", "unknown")
PREDICTION_COLUMNS: Final = (
    "date",
    "white",
    "black",
    "handicap",
    "komi",
    "result",
    "system",
    "probability",
)


def handicap_band(stones: int) -> str:
    if stones <= 0:
        return "even"
    if stones == 1:
        return "1"
    if stones <= 4:
        return "2-4"
    if stones <= 9:
        return "5-9"
    return "10+"


def rank_band(white: float | None, black: float | None) -> str:
    """The band of the mean of two ranks on the shared scale (1d = 0, 1k = -1)."""
    if white is None or black is None:
        return "unknown"
    mean = (white + black) / 2.0
    if mean >= 0.0:
        return "dan"
    if mean > -10.0:
        return "1k-9k"
    if mean > -20.0:
        return "10k-19k"
    return "20k-30k"


#: One table: scope ("overall", "handicap <band>", "rank <band>") -> predictor -> metrics.
Summary = dict[str, dict[str, Metrics]]


def summary(evaluation: Evaluation) -> Summary:
    """The metrics of every predictor, overall, by handicap band and by rank band."""
    games = evaluation.games
    ranks = evaluation.ranks
    outcomes = evaluation.outcomes
    tables: Summary = {"overall": {}}
    for name, probabilities in evaluation.probabilities.items():
        tables["overall"][name] = score(zip(probabilities, outcomes, strict=True))
        for prefix, bands, band in (
            ("handicap", HANDICAP_BANDS, lambda i: handicap_band(games[i].handicap)),
            ("rank", RANK_BANDS, lambda i: rank_band(*ranks[i])),
        ):
            found = by_band(probabilities, outcomes, band)
            for key in bands:
                if key in found:
                    tables.setdefault(f"{prefix} {key}", {})[name] = found[key]
    return tables


def _figure(value: float | None, percent: bool = False) -> str:
    if value is None:
        return "-"
    return f"{100.0 * value:.1f} %" if percent else f"{value:.4f}"


def summary_text(tables: Summary) -> str:
    """The tables as aligned text, one block per scope."""
    out: list[str] = []
    for scope, rows in tables.items():
        out.append(f"{scope}:")
        out.append(f"  {'predictor':<12} {'games':>7} {'log-loss':>9} {'Brier':>7} {'accuracy':>9}")
        for name, m in rows.items():
            out.append(
                f"  {name:<12} {m.games:>7} {_figure(m.log_loss):>9} {_figure(m.brier):>7} "
                f"{_figure(m.accuracy, percent=True):>9}"
            )
        out.append("")
    return "\n".join(out)


_FORMULA_STARTS: Final = ("=", "+", "-", "@")


def safe_cell(text: str) -> str:
    """A text cell a spreadsheet will not run as a formula: one starting
    with =, +, - or @ gets a leading apostrophe (OWASP "CSV Injection")."""
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


def prediction_rows(evaluation: Evaluation, label: Callable[[PlayerId], str] = str) -> list[list[str]]:
    """Header, then one row per game and predictor, games in timeline order.

    ``label`` writes a player (default: the id as text, a name in a CSV).
    The probability is written in full (Python's shortest exact repr), so
    that every figure can be recomputed from the file.
    """
    predictors = list(evaluation.probabilities)
    rows: list[list[str]] = [list(PREDICTION_COLUMNS)]
    for i, game in enumerate(evaluation.games):
        for name in predictors:
            rows.append(
                [
                    game.date.isoformat(),
                    safe_cell(label(game.white)),
                    safe_cell(label(game.black)),
                    str(game.handicap),
                    f"{game.komi:g}",
                    game.winner.value,
                    name,
                    repr(evaluation.probabilities[name][i]),
                ]
            )
    return rows


def predictions_csv(evaluation: Evaluation, label: Callable[[PlayerId], str] = str) -> str:
    out = io.StringIO(newline="")
    csv.writer(out, lineterminator="\n").writerows(prediction_rows(evaluation, label))
    return out.getvalue()
