"""Speed of what players come to see, at federation scale (issue 24).

    DATABASE_URL=postgres://USER@HOST:5432/NAME python bench/players.py [--games 1000000]
        [--players 5000] [--clubs 5] [--seed 1] [--database URL]

Builds a fresh benchmark database beside the configured one, as
bench/recompute.py does (PostgreSQL: NAME_bench, dropped and created;
SQLite: a temporary file), or reuses ``--database URL`` (generating into
it only if it has no games), then, untimed:

- ``manage.py generate`` and a full recompute (``recompute_all``);
- on the biggest list, on its last day: a 500-player tournament of five
  rounds (1,250 games, with each player's place and tie-breaks, as an
  import keeps them); games between its busiest player and a second
  player until the two have met 300 times; games of the busiest player
  against others until they have 5,000; then the incremental recompute.
  A second run on a reused database finds them there and adds nothing
  (some seconds: the busiest player's count and an empty recompute).

Then times, through the Django test client, the median of 20 requests
(after one warm-up) of each page, with the median CPU time of this process
over the same requests (Python and templates, not the database server's)
beside it, the fairer figure on a shared machine:

- the record sheet of the player with 5,000 games (its first page);
- the event page of the 500-player tournament;
- the head-to-head of the two players with 300 games;
- the list's home (active players), and everyone (``?all=1``).

The last line is

    record sheet: A ms; event: B ms; head-to-head: C ms; list home: D ms (target 50 ms each)
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from recompute import _generate, history_parser, setup_django  # noqa: E402  (bench/recompute.py)

TOURNAMENT_PLAYERS = 500
ROUNDS = 5
MEETINGS = 300
BUSY = 5000


def main() -> None:
    parser = history_parser(__doc__)
    parser.add_argument("--database", metavar="URL", help="reuse this database (generated into once)")
    args = parser.parse_args()
    setup_django(args.database)
    from django.core.management import call_command
    from django.db import connection

    from ratings import recompute
    from ratings.models import Game, HistoryEntry

    print(f"database: {connection.vendor} {connection.settings_dict['NAME']}", flush=True)
    call_command("migrate", verbosity=0)
    if not Game.objects.exists():
        _generate(args, call_command)
    if not HistoryEntry.objects.exists():
        began = time.perf_counter()
        recompute.recompute_all(trigger="bench")
        print(f"full recompute (not a target): {time.perf_counter() - began:.1f} s", flush=True)
    began = time.perf_counter()
    pages = prepare(args.seed)
    print(f"bench games added and rated (not a target): {time.perf_counter() - began:.1f} s", flush=True)
    if connection.vendor == "postgresql":
        # What autovacuum does on a production server after the bulk load
        # (its statistics, and the visibility map that lets index-only scans
        # skip the table); some machines run PostgreSQL with it off.
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    measure(pages)


def prepare(seed: int) -> dict[str, str]:
    """The pages to time, adding (once) the games that make them."""
    from django.db.models import Count, Q
    from django.urls import reverse

    from ratings import services
    from ratings.models import Club, EventEntry, Game, Player, RecordSheet
    from ratings.recompute import recompute_list

    rng = random.Random(seed)
    club = max(Club.objects.select_related("rating_list"), key=lambda c: c.games.count())
    rating_list = club.rating_list
    last = Game.objects.filter(rating_list=rating_list).order_by("-date").values_list("date", flat=True)[0]
    players = list(Player.objects.filter(rating_list=rating_list).order_by("pk"))
    event = RecordSheet.objects.filter(club=club, event="Bench Open").first()
    if event is None:
        chosen = rng.sample(players, TOURNAMENT_PLAYERS)
        rows = []
        for round_ in range(1, ROUNDS + 1):
            rng.shuffle(chosen)
            for white, black in zip(chosen[::2], chosen[1::2], strict=True):
                winner = "white" if rng.random() < 0.5 else "black"
                rows.append(
                    services.GameRow(white=white, black=black, winner=winner, round=round_, kind="tournament")
                )
        event = services.save_sheet(
            club=club, date=last, rows=rows, event="Bench Open", kind="tournament", today=last
        )
        EventEntry.objects.bulk_create(
            EventEntry(
                sheet=event,
                player=p,
                position=n,
                place=str(n),
                tiebreaks=[str(rng.randint(0, 5)), str(rng.randint(50, 150))],
            )
            for n, p in enumerate(chosen, start=1)
        )
    # Each player's games, counted per colour in two grouped scans of the
    # list's games (one query joining both colours took 10 s at 1M games).
    listed = Game.objects.filter(rating_list=rating_list).order_by()
    counts: Counter[int] = Counter()
    for colour in ("white", "black"):
        counts.update(dict(listed.values_list(colour).annotate(n=Count("pk"))))
    busy = max(players, key=lambda p: (counts[p.pk], -p.pk))
    other = next(p for p in players if p.pk != busy.pk)
    met = Game.objects.filter(Q(white=busy, black=other) | Q(white=other, black=busy)).count()
    extra = [
        services.GameRow(white=busy, black=other, winner=rng.choice(["white", "black"]))
        for _ in range(MEETINGS - met)
    ]
    total = counts[busy.pk] + len(extra)
    opponents = [p for p in players if p.pk not in (busy.pk, other.pk)]
    while total < BUSY:
        opponent = rng.choice(opponents)
        pair = (busy, opponent) if rng.random() < 0.5 else (opponent, busy)
        extra.append(services.GameRow(white=pair[0], black=pair[1], winner=rng.choice(["white", "black"])))
        total += 1
    for start in range(0, len(extra), 500):
        services.save_sheet(club=club, date=last, rows=extra[start : start + 500], today=last)
    recompute_list(rating_list.pk)  # nothing to rate on a second run: 0.2 s
    games = Game.objects.filter(Q(white=busy) | Q(black=busy)).count()
    print(
        f"list {rating_list.slug}: {len(players)} players; {busy} has {games} games, "
        f"{MEETINGS} against {other}; event {event.pk} of {event.games.count()} games",
        flush=True,
    )
    return {
        "record sheet": reverse("player", args=[busy.slug]),
        "event": reverse("event", args=[event.pk]),
        "head-to-head": reverse("head_to_head", args=[busy.slug, other.slug]),
        "list home": reverse("rating_list", args=[rating_list.slug]),
        "list home, everyone": reverse("rating_list", args=[rating_list.slug]) + "?all=1",
    }


def measure(pages: dict[str, str]) -> None:
    from django.test import Client

    client = Client()
    print("load average: {:.2f} {:.2f} {:.2f} (1, 5, 15 min)".format(*os.getloadavg()), flush=True)
    figures: dict[str, float] = {}
    for name, url in pages.items():
        client.get(url)  # warm caches and templates
        walls, cpus = [], []
        for _ in range(20):
            wall, cpu = time.perf_counter(), time.process_time()
            response = client.get(url)
            walls.append((time.perf_counter() - wall) * 1000)
            cpus.append((time.process_time() - cpu) * 1000)
            assert response.status_code == 200, (url, response.status_code)
        figures[name] = statistics.median(walls)
        print(
            f"{name} {url}: median {figures[name]:.1f} ms of 20 "
            f"(client CPU median {statistics.median(cpus):.1f} ms)",
            flush=True,
        )
    print("load average: {:.2f} {:.2f} {:.2f} (1, 5, 15 min)".format(*os.getloadavg()), flush=True)
    print(
        "record sheet: {:.0f} ms; event: {:.0f} ms; head-to-head: {:.0f} ms; list home: {:.0f} ms "
        "(target 50 ms each)".format(
            figures["record sheet"], figures["event"], figures["head-to-head"], figures["list home"]
        )
    )


if __name__ == "__main__":
    main()
