"""``make mutation``'s sample (tests/harness/mutation_sample.py): the same
mutants at every run, each package's own, and its verdicts counted."""

from __future__ import annotations

import pytest

from tests.harness.mutation_sample import parse, report, sample, sizes, wilson

RESULTS = """\
    ratings.engine.ranks.x_format_rank__mutmut_1: killed
    ratings.engine.ranks.x_format_rank__mutmut_2: survived
    ratings.engine.sagc.xǁSAGCǁrate__mutmut_3: timeout
    ratings.engine.sagc.xǁSAGCǁrate__mutmut_4: caught by type check
    ratings.engine.sagc.xǁSAGCǁrate__mutmut_5: no tests
    ratings.engine_extra.x_f__mutmut_1: survived
    ratings.exchange.text.x_line_of__mutmut_1: not checked
"""


def test_the_results_are_read_name_by_name_with_their_status() -> None:
    statuses = parse(RESULTS)
    assert len(statuses) == 7
    assert statuses["ratings.engine.sagc.xǁSAGCǁrate__mutmut_4"] == "caught by type check"
    assert statuses["ratings.exchange.text.x_line_of__mutmut_1"] == "not checked"


def test_a_package_samples_its_own_mutants_and_the_same_ones_every_time() -> None:
    names = [f"ratings.engine.m.x_f__mutmut_{n}" for n in range(1000)] + [
        "ratings.engine_extra.x_f__mutmut_1"
    ]
    first = sample(names, {"ratings.engine": 50})
    assert first == sample(list(reversed(names)), {"ratings.engine": 50})
    assert len(first["ratings.engine"]) == len(set(first["ratings.engine"])) == 50
    assert "ratings.engine_extra.x_f__mutmut_1" not in first["ratings.engine"]
    assert first != sample(names, {"ratings.engine": 50}, seed=1)
    # Mutants added elsewhere (an edited function's) leave the rest of the sample.
    edited = sample(
        [*names, *(f"ratings.engine.n.x_g__mutmut_{n}" for n in range(20))], {"ratings.engine": 50}
    )
    kept = set(first["ratings.engine"]) & set(edited["ratings.engine"])
    assert len(kept) == 50 - sum(name.startswith("ratings.engine.n.") for name in edited["ratings.engine"])
    # A package with fewer mutants than asked gives them all.
    assert len(sample(names, {"ratings.engine": 5000})["ratings.engine"]) == 1000


def test_the_report_counts_caught_mutants_of_the_sample_and_names_the_survivors() -> None:
    statuses = parse(RESULTS)
    drawn = sample(list(statuses), {"ratings.engine": 10})
    text = report(statuses, drawn)
    first, *survivors = text.splitlines()
    # killed, timeout and the type check are caught; no tests is not.
    assert first.startswith("ratings.engine: 3 of 5 caught, 60.0% (95 % interval 23%-88%);")
    assert survivors == ["    survived: ratings.engine.ranks.x_format_rank__mutmut_2"]


def test_the_interval_holds_the_ratio_and_narrows_with_the_sample() -> None:
    low, high = wilson(169, 200)
    assert low < 169 / 200 < high
    assert (round(low, 2), round(high, 2)) == (0.79, 0.89)
    wide = wilson(17, 20)
    assert wide[1] - wide[0] > high - low


@pytest.mark.parametrize("argument", ["ratings.engine", "ratings.engine=", "ratings.engine=ten"])
def test_a_size_must_be_package_equals_count(argument: str) -> None:
    with pytest.raises(SystemExit, match="expected PACKAGE=COUNT"):
        sizes([argument])
