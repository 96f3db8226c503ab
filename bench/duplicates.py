"""The committee's duplicate finder (ratings/names/duplicates.py) on a
large list: time, and how many injected duplicates it finds.

    python bench/duplicates.py [--players 5000] [--duplicates 100] [--seed 1] [--database URL]

Builds a fresh benchmark database (bench/recompute.py's: PostgreSQL
NAME_bench beside DATABASE_URL, else SQLite in a temporary file), one list
of ``--players`` players with bench/names.py's generated names (160 given
names in several languages, surnames of two or three syllables), then adds
``--duplicates`` second records of randomly drawn players, each one way a
name is mistyped in turn: a typo in the surname (bench/names.py's swap,
drop or double), the family name first, the umlauts and accents written
out, a typo in the given name.  There are no games: the rules "never met"
and "never at one club night" have nothing to exclude here
(tests/committee/test_duplicates.py measures them on a seeded list).

Prints the time of ``likely_pairs`` (median of ``--runs``, after a warm-up
run), the pairs offered, how many of the injected duplicates were found
(recall), and how many offered pairs are not injected ones: on generated
names these are real look-alikes of the list (two players whose generated
names differ by a letter), which a committee would mark as different people.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from names import build, list_options, migrated, transliterate, typo  # noqa: E402  (bench/names.py)

WAYS = ("a typo in the surname", "family name first", "written out", "a typo in the given name")


def mistyped(name: str, way: str, rng: random.Random) -> str:
    given, family = name.split(" ", 1)
    if way == WAYS[0]:
        return f"{given} {typo(family, rng)}"
    if way == WAYS[1]:
        return f"{family} {given}"
    if way == WAYS[2]:
        return transliterate(name)
    return f"{typo(given, rng)} {family}"


def main() -> None:
    parser = list_options(__doc__, 5000)
    parser.add_argument("--duplicates", type=int, default=100)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    migrated(args.database)

    from django.db import IntegrityError, connection, transaction

    from ratings.models import Player
    from ratings.names.duplicates import likely_pairs

    rng = random.Random(args.seed)
    rating_list, _club, names = build(args.players, rng)
    originals = {p.name: p for p in Player.objects.filter(rating_list=rating_list)}
    injected: set[tuple[int, int]] = set()
    by_way = {way: [0, 0] for way in WAYS}  # injected, found
    ways: dict[tuple[int, int], str] = {}
    for n, name in enumerate(rng.sample(names, args.duplicates)):
        way = WAYS[n % len(WAYS)]
        typed = mistyped(name, way, rng)
        try:
            with transaction.atomic():
                copy = Player.objects.create(
                    rating_list=rating_list, name=typed, slug=f"dup{n}", start_rank=-10, rank=-10
                )
        except IntegrityError:
            continue  # the mistyped name is the list's identity of another player: not a second record
        pair = tuple(sorted((originals[name].pk, copy.pk)))
        injected.add(pair)  # type: ignore[arg-type]
        ways[pair] = way  # type: ignore[index]
        by_way[way][0] += 1
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"{args.players} players and {len(injected)} second records on {connection.vendor}; "
        f"load average (1 min) {load:.1f} on {os.cpu_count()} CPUs",
        flush=True,
    )
    likely_pairs(rating_list)  # warm-up
    times = []
    for _ in range(args.runs):
        t0 = time.perf_counter()
        pairs = likely_pairs(rating_list)
        times.append(time.perf_counter() - t0)
    found = {tuple(sorted((p.kept.player.pk, p.duplicate.player.pk))) for p in pairs}
    for pair in found & injected:
        by_way[ways[pair]][1] += 1  # type: ignore[index]
    print(f"likely_pairs: median {statistics.median(times):.2f} s, max {max(times):.2f} s ({args.runs} runs)")
    print(
        f"pairs offered {len(found)}; injected found {len(found & injected)} of {len(injected)} "
        f"(recall {len(found & injected) / max(1, len(injected)):.2f}); "
        f"offered but not injected (look-alikes of the generated list) {len(found - injected)}"
    )
    for way, (made, hit) in by_way.items():
        print(f"  {way}: {hit} of {made}")


if __name__ == "__main__":
    main()
