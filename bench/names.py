"""Searching players by name among 100,000 (ratings.names): median and p95.

    DATABASE_URL=postgres://USER@HOST:5432/NAME python bench/names.py [--players 100000] [--queries 300]

Builds a fresh benchmark database beside the configured one (as
bench/recompute.py does: on PostgreSQL NAME_bench, migrated, so with the
trigram index of migration 0009; SQLite in a temporary file otherwise), one
rating list of ``--players`` players with generated names (given names from
a list of 160 in several languages, accents included, surnames made of two
or three syllables: many players share a given name, as in a real list),
then times ``ratings.names.find`` for ``--queries`` typed names drawn from
the players (seed 1), each once while typing and once as a whole name at
entry:

- a given name alone ("zoe"), a surname alone, both in either order;
- the same with one typo (a letter swapped, dropped or doubled);
- a prefix of each word ("zo mul"), as typed into the search box;
- transliterated ("Mueller" for "Müller", no accents).

Generation is not timed.  Each query is timed once with
``time.perf_counter`` after one warm-up round; the last lines print, per
kind of search, ``median X ms, p95 Y ms`` and how often the player the
query was drawn from came first or among the results.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from recompute import setup_django  # noqa: E402  (bench/recompute.py)

GIVEN = [
    "Aaliyah",
    "Abdul",
    "Adriaan",
    "Ahmed",
    "Aiko",
    "Aleksandr",
    "Alice",
    "Amahle",
    "Amir",
    "Ana",
    "Andile",
    "Andre",
    "Andrea",
    "Anna",
    "Anneke",
    "Ayanda",
    "Bao",
    "Beatriz",
    "Bongani",
    "Bruno",
    "Busisiwe",
    "Carlos",
    "Carmen",
    "Charl",
    "Chen",
    "Chloé",
    "Chris",
    "Cornelius",
    "Daniel",
    "David",
    "Dieter",
    "Dimitri",
    "Elena",
    "Élodie",
    "Emma",
    "Erik",
    "Fatima",
    "Felix",
    "Fiona",
    "François",
    "Frederik",
    "Gabriel",
    "Georg",
    "Gift",
    "Grace",
    "Hannah",
    "Hans",
    "Hiroshi",
    "Hyun",
    "Ibrahim",
    "Ingrid",
    "Isabel",
    "Ivan",
    "Jacques",
    "Jan",
    "Jana",
    "Jaco",
    "Jean",
    "Jesús",
    "Jin",
    "Johan",
    "John",
    "Jonas",
    "José",
    "Juan",
    "Jürgen",
    "Karin",
    "Kenji",
    "Khanyi",
    "Kim",
    "Klaus",
    "Kwame",
    "Lars",
    "Lea",
    "Lena",
    "Lerato",
    "Li",
    "Lindiwe",
    "Lucas",
    "Lucía",
    "Luis",
    "Lungile",
    "Maria",
    "Marie",
    "Mark",
    "Marta",
    "Mateo",
    "Matthias",
    "Mei",
    "Michael",
    "Mihai",
    "Ming",
    "Mohammed",
    "Moses",
    "Musa",
    "Nadia",
    "Naledi",
    "Nandi",
    "Nikolai",
    "Nina",
    "Noah",
    "Nomsa",
    "Olga",
    "Oliver",
    "Olivia",
    "Pablo",
    "Palesa",
    "Paul",
    "Pedro",
    "Peter",
    "Pieter",
    "Priya",
    "Rajesh",
    "Refilwe",
    "Riaan",
    "Robert",
    "Rosa",
    "Ruth",
    "Sakura",
    "Samuel",
    "Sandile",
    "Sara",
    "Sergei",
    "Sibusiso",
    "Simone",
    "Sipho",
    "Sofia",
    "Søren",
    "Stefan",
    "Sun",
    "Susanne",
    "Takeshi",
    "Tamara",
    "Tebogo",
    "Thabo",
    "Themba",
    "Thomas",
    "Tomás",
    "Tshepo",
    "Ursula",
    "Victor",
    "Vusi",
    "Wei",
    "Werner",
    "Willem",
    "Xolani",
    "Yan",
    "Yuki",
    "Zanele",
    "Zeynep",
    "Zoë",
    "Zola",
    "Zsófia",
    "Ömer",
]
SYLLABLES = [
    "ba",
    "be",
    "bo",
    "bu",
    "da",
    "de",
    "di",
    "do",
    "ka",
    "ke",
    "ki",
    "ko",
    "la",
    "le",
    "li",
    "lo",
    "ma",
    "me",
    "mi",
    "mo",
    "na",
    "ne",
    "ni",
    "no",
    "ra",
    "re",
    "ri",
    "ro",
    "sa",
    "se",
    "si",
    "so",
    "ta",
    "te",
    "ti",
    "to",
    "va",
    "ve",
    "vi",
    "wa",
    "we",
    "zu",
    "mül",
    "schn",
    "berg",
    "stein",
    "wang",
    "zhou",
    "kov",
    "ová",
    "dlam",
    "ini",
    "nel",
    "ma",
    "rais",
    "van",
    "der",
    "merwe",
    "botha",
    "dup",
    "ont",
    "ström",
    "gård",
    "øy",
    "ß",
]


def surname(rng: random.Random) -> str:
    parts = rng.choices(SYLLABLES, k=rng.choice((2, 2, 3)))
    return "".join(parts).capitalize()


def typo(word: str, rng: random.Random) -> str:
    if len(word) < 4:
        return word + word[-1]
    at = rng.randrange(1, len(word) - 1)
    kind = rng.choice(("swap", "drop", "double"))
    if kind == "swap":
        return word[:at] + word[at + 1] + word[at] + word[at + 2 :]
    if kind == "drop":
        return word[:at] + word[at + 1 :]
    return word[:at] + word[at] + word[at:]


def transliterate(name: str) -> str:
    for letter, written in (("ü", "ue"), ("ö", "oe"), ("ä", "ae"), ("ß", "ss"), ("é", "e"), ("ë", "e")):
        name = name.replace(letter, written).replace(letter.upper(), written.capitalize())
    return name


KINDS = ("given name", "surname", "family name first", "a typo", "prefixes", "transliterated")


def queries(names: list[str], count: int, rng: random.Random) -> list[tuple[str, str, str]]:
    """(kind, typed, the name it was drawn from), the kinds of the docstring in turn."""
    made = []
    for n, name in enumerate(rng.sample(names, count)):
        given, family = name.split(" ", 1)
        typed = (
            given,
            family,
            f"{family} {given}",
            f"{given} {typo(family, rng)}",
            f"{given[:3]} {family[:3]}",
            transliterate(name),
        )[n % len(KINDS)]
        made.append((KINDS[n % len(KINDS)], typed, name))
    return made


def build(count: int, rng: random.Random) -> tuple[Any, Any, list[str]]:
    """A fresh list, its club and ``count`` players of generated names."""
    from django.db import connection

    from ratings.models import Player, RatingList
    from ratings.places import create_club, create_list

    if RatingList.objects.filter(name="Bench list").exists():
        raise SystemExit("the database holds a bench list of another size: leave out --database")
    rating_list = create_list("Bench list")
    club = create_club(rating_list, "Bench club")
    seen: set[str] = set()
    names: list[str] = []
    while len(names) < count:
        name = f"{rng.choice(GIVEN)} {surname(rng)}"
        if name.casefold() not in seen:
            seen.add(name.casefold())
            names.append(name)
    Player.objects.bulk_create(
        (
            Player(
                rating_list=rating_list, home_club=club if n % 3 == 0 else None, name=name, slug=f"p{n}",
                start_rank=-10, rank=-10,
            )
            for n, name in enumerate(names)
        ),
        batch_size=5000,
    )  # fmt: skip
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE ratings_player")
    return rating_list, club, names


def list_options(doc: str | None, players: int) -> argparse.ArgumentParser:
    """The options of a benchmark on a generated list: --players, --seed, --database."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=players)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", help="a DATABASE_URL to use as it is (default: a fresh one)")
    return parser


def migrated(database: str | None) -> None:
    """Django on the benchmark database (:func:`setup_django`), migrated."""
    setup_django(database)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def main() -> None:
    parser = list_options(__doc__, 100_000)
    parser.add_argument("--queries", type=int, default=300)
    args = parser.parse_args()
    migrated(args.database)

    from django.db import connection

    from ratings.models import Club, Player, RatingList
    from ratings.names import find

    rng = random.Random(args.seed)
    started = time.perf_counter()
    existing = RatingList.objects.filter(name="Bench list").first()
    if existing is not None and Player.objects.filter(rating_list=existing).count() == args.players:
        # --database given, built before with these options: the same players.
        rating_list, club = existing, Club.objects.get(rating_list=existing)
        names = list(
            Player.objects.filter(rating_list=existing).order_by("pk").values_list("name", flat=True)
        )
        print(f"reusing the {len(names)} players of {connection.settings_dict['NAME']}", flush=True)
    else:
        rating_list, club, names = build(args.players, rng)
        print(
            f"generated {len(names)} players on {connection.vendor} in {time.perf_counter() - started:.1f} s"
        )
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average (1 min) before timing: {load:.1f} on {os.cpu_count()} CPUs", flush=True)
    players = Player.objects.filter(rating_list=rating_list)
    asked = queries(names, args.queries, random.Random(args.seed + 1))
    runs: dict[str, Callable[[str], list[str]]] = {
        "typing (search, log filter)": lambda q: [m.player.name for m in find(players, q)],
        "whole name (entry, import)": lambda q: [
            m.player.name for m in find(players, q, whole=True, club=club)
        ],
    }
    for label, run in runs.items():
        for _, typed, _ in asked[:20]:
            run(typed)  # warm-up: the connection, the index's pages
        times: list[float] = []
        by_kind: dict[str, list[int]] = {kind: [0, 0, 0] for kind in KINDS}  # asked, first, found
        for kind, typed, name in asked:
            t0 = time.perf_counter()
            result = run(typed)
            times.append((time.perf_counter() - t0) * 1000)
            by_kind[kind][0] += 1
            by_kind[kind][1] += bool(result) and result[0] == name
            by_kind[kind][2] += name in result
        print(f"{label}, the player a query was drawn from, first / among those found:")
        for kind, (count, first, found) in by_kind.items():
            print(f"    {kind}: {first}/{count} first, {found}/{count} found")
        times.sort()
        p95 = times[min(len(times) - 1, round(0.95 * len(times)) - 1)]
        print(
            f"{label}: {len(times)} queries among {len(names)} players: "
            f"median {statistics.median(times):.1f} ms, p95 {p95:.1f} ms",
            flush=True,
        )


if __name__ == "__main__":
    main()
