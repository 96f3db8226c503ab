"""Matching a list's players to the EGD's list of every country (rank sync at
national scale, ratings/committee/rank_matching.py): seconds to read, and
to match with and without a country.

    CLUBRATING_SHARED=../shared python bench/rank_sync.py [--players 300] [--file egf_db-2018-12.txt] [--country ZA]

Reads the real list from the shared real-data folder (45,085 players in
egf_db of December 2018), then builds ``--players`` players in memory (no
database: matching is plain Python over the list): a third with a name
drawn from the list as written, a third with it reversed and one letter
swapped (a typo), a third with names the list does not hold (seed 1).
Each step is timed once with ``time.perf_counter``; the last lines print the
seconds and how many players matched by name, were ambiguous (close names
offered) and were missing.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--file", default="egf_db-2018-12.txt")
    parser.add_argument("--country", default="ZA")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubrating.settings")
    import django

    django.setup()
    from ratings import exchange
    from ratings.committee.rank_matching import EntrySelection, match_players
    from ratings.models import Player

    shared = Path(os.environ.get("CLUBRATING_SHARED") or REPO.parent / "shared")
    path = shared / "realdata" / args.file
    if not path.exists():
        sys.exit(f"{path} is absent: set CLUBRATING_SHARED to the shared folder")
    data = path.read_bytes()
    started = time.perf_counter()
    ranks = exchange.read_rank_list(data, filename=path.name)
    read_s = time.perf_counter() - started
    rng = random.Random(1)
    drawn = rng.sample(ranks.entries, args.players)
    players = []
    for i, entry in enumerate(drawn):
        words = entry.name.replace("_", " ").split()
        if i % 3 == 1 and words and len(words[0]) > 3:
            w = words[0]
            words[0] = w[0] + w[2] + w[1] + w[3:]  # a swapped pair of letters
            words.reverse()
        elif i % 3 == 2:
            words = [f"Nobody{i}", "Absent"]
        players.append(Player(pk=i + 1, name=" ".join(words), rank=-10, start_rank=-10))
    print(f"{path.name}: {len(ranks.entries)} entries read in {read_s:.2f} s; {len(players)} players")
    for label, selection in (
        ("every country", EntrySelection()),
        (args.country, EntrySelection(args.country)),
    ):
        started = time.perf_counter()
        matches = match_players(players, ranks.entries, "egd_pin", selection)
        seconds = time.perf_counter() - started
        counts = Counter(m.how for m in matches)
        print(
            f"match, {label}: {seconds:.2f} s ({seconds / len(players) * 1000:.1f} ms a player): "
            f"name {counts['name']}, ambiguous {counts['ambiguous']}, missing {counts['missing']}"
        )


if __name__ == "__main__":
    main()
