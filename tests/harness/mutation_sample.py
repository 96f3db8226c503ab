"""The mutants ``make mutation`` tests: a seeded random sample of each pure
package's mutants, and the sample's verdicts by package (docs/testing.md).

    python -m tests.harness.mutation_sample names ratings.engine=200 ratings.exchange=150
    python -m tests.harness.mutation_sample report ratings.engine=200 ratings.exchange=150

Both read ``mutmut results --all true`` (every mutant mutmut generated, with
its status: mutmut's own command line, run in ``mutants/``'s parent).
``names`` prints the sample, one name a line, for ``mutmut run``; ``report``
prints each package's counts, kill ratio and survivors.  The sample is
the mutants that rank first by a hash of a seed and their name: the same
mutants every run, and after an edit the same but for the edited
functions' own, so two runs compare.

Why a sample: mutmut's cost is its survivors, each running every test that
reaches its function (up to two minutes for the SAGC rules), and a whole
package's first run takes hours on two cores; a sample of a few hundred
estimates each package's kill ratio in minutes, and a survivor found there
is reviewed like any other (``make mutation-all`` runs everything).
"""

from __future__ import annotations

import hashlib
import math
import subprocess
import sys
from collections import Counter
from collections.abc import Mapping, Sequence

#: The seed of the samples (the day the first samples were drawn).
SEED = 20261129
#: What mutmut's verdicts count as: caught (by a test, its time limit or the type check), or not.
CAUGHT = frozenset({"killed", "timeout", "caught by type check"})


def parse(results: str) -> dict[str, str]:
    """Mutant name -> status, from ``mutmut results --all true``'s lines
    (``    ratings.engine.ranks.x_format_rank__mutmut_1: killed``)."""
    statuses: dict[str, str] = {}
    for line in results.splitlines():
        name, colon, status = line.strip().rpartition(": ")
        if colon and name:
            statuses[name] = status
    return statuses


def sizes(arguments: Sequence[str]) -> dict[str, int]:
    """``package=count`` arguments, e.g. ``ratings.engine=200``."""
    result: dict[str, int] = {}
    for argument in arguments:
        package, equals, count = argument.partition("=")
        if not equals or not count.isdigit():
            raise SystemExit(f"mutation_sample: expected PACKAGE=COUNT, got {argument!r}")
        result[package] = int(count)
    return result


def sample(names: Sequence[str], wanted: Mapping[str, int], seed: int = SEED) -> dict[str, list[str]]:
    """Each package's sample: the ``wanted[package]`` names of the package
    that rank first by a hash of the seed and the name (all of them when it
    has fewer).  A mutant's rank depends on its own name only, so an edit
    elsewhere (mutants added or gone in another function) leaves the rest of
    the sample as it was, and two runs a few commits apart compare."""

    def rank(name: str) -> bytes:
        return hashlib.blake2b(f"{seed}:{name}".encode(), digest_size=8).digest()

    drawn: dict[str, list[str]] = {}
    for package, count in wanted.items():
        own = [name for name in names if name.startswith(package + ".")]
        drawn[package] = sorted(sorted(own, key=rank)[:count])
    return drawn


def wilson(caught: int, total: int) -> tuple[float, float]:
    """The 95 % Wilson interval of a ratio of ``caught`` in ``total``."""
    z = 1.96
    p = caught / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    spread = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return max(0.0, centre - spread), min(1.0, centre + spread)


def report(statuses: Mapping[str, str], drawn: Mapping[str, Sequence[str]]) -> str:
    """Each package's verdicts over its sample: the counts by status, the
    kill ratio (caught of the sample) with its interval, and the survivors."""
    lines: list[str] = []
    for package, names in drawn.items():
        counts = Counter(statuses.get(name, "not generated") for name in names)
        caught = sum(counts[status] for status in CAUGHT)
        total = len(names)
        summary = ", ".join(f"{status} {count}" for status, count in sorted(counts.items()))
        if total:
            low, high = wilson(caught, total)
            ratio = f"{caught / total:.1%} (95 % interval {low:.0%}-{high:.0%})"
        else:
            ratio = "no mutants"
        lines.append(f"{package}: {caught} of {total} caught, {ratio}; {summary}")
        lines += [f"    survived: {name}" for name in names if statuses.get(name) == "survived"]
    return "\n".join(lines)


def main(argv: Sequence[str]) -> None:
    if len(argv) < 2 or argv[0] not in ("names", "report"):
        raise SystemExit(__doc__)
    results = subprocess.run(
        [sys.executable, "-m", "mutmut", "results", "--all", "true"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    statuses = parse(results)
    drawn = sample(list(statuses), sizes(argv[1:]))
    if argv[0] == "names":
        print("\n".join(name for names in drawn.values() for name in names))
    else:
        print(report(statuses, drawn))


if __name__ == "__main__":
    main(sys.argv[1:])
