"""How long the committee's "which system predicts best" figures take.

    .venv/bin/python bench/evaluation.py --games 100000 --systems sagc
    .venv/bin/python bench/evaluation.py --games 100000 --systems sagc,egf,egf-old,ffg,ffg-old,west-surrey

Generates a synthetic history (ratings.synthetic; not timed), then times
``ratings.evaluation.predict.evaluate`` (rating with each system, reading
the ledger, the walk-forward fits) and the tables and calibration bins the
page shows (what ``ratings.predictions`` stores).  Prints the figures;
docs/evaluation.md ("The committee's page") quotes them to justify caching
the result after each recompute instead of computing it on request.
"""

from __future__ import annotations

import argparse
import time

from ratings.evaluation.metrics import calibration
from ratings.evaluation.predict import evaluate
from ratings.evaluation.report import summary
from ratings.synthetic import synthetic_history


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--systems", default="sagc")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    systems = [s for s in args.systems.split(",") if s]
    began = time.perf_counter()
    events, starts = synthetic_history(args.games, players=args.players, seed=args.seed)
    print(f"generated {args.games} games among {args.players} players in {time.perf_counter() - began:.1f} s")
    began = time.perf_counter()
    evaluation = evaluate(events, starts, systems)
    rated = time.perf_counter() - began
    began = time.perf_counter()
    summary(evaluation)
    for probabilities in evaluation.probabilities.values():
        calibration(probabilities, evaluation.outcomes)
    tabled = time.perf_counter() - began
    print(f"systems {','.join(systems)}: evaluate {rated:.2f} s, tables and calibration {tabled:.2f} s")


if __name__ == "__main__":
    main()
