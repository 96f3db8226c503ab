"""Speed of the recompute pipeline and of the pages at federation scale.

    python bench/recompute.py --games 1000000 [--players 5000] [--clubs 5] [--seed 1] [--profile]
        [--database URL]

Builds a fresh benchmark database next to the configured one (SQLite: a
temporary file; PostgreSQL: the database NAME_bench, dropped and created),
migrates it, fills it with ``manage.py generate`` (not timed), then times
the parts below.  ``--database URL`` reuses a database instead (generating
into it only if it has no games yet): its history and checkpoints are
emptied first, so every run starts from the state ``generate`` leaves, and
the games the bench adds are deleted again at the end.

- full: every club's history replayed and written from scratch, all
  systems of each club: ``recompute_all()``, one write transaction for the
  federation (``--per-list``: ``recompute_list(full=True)`` for each list);
- late game at 99% (``--late 50,99``: at each of these shares): one game
  entered at the date that share of the way through the biggest club's
  history, then its incremental recompute (with the later results it
  changed, recorded as its ripple); then more late games on the same day
  (``--late-repeats``, 5 in all by default), each saved and recomputed,
  and the median of the five (the last line's figure);
- a 10-game sheet saved (services.save_sheet, the recompute left to the
  worker: what a volunteer waits for when a broker is configured);
- sheet page / player list: median of 20 requests through the Django test
  client (a busy player's record sheet; /players/);
- game page: 21 games spread over the biggest club's history, each
  requested once, median and worst (``--game-systems all``: with all six
  systems, the list recomputed with them first, its systems put back after);
  on PostgreSQL then 20 other games after a ``VACUUM ANALYZE`` of the
  history, as autovacuum leaves the table a full recompute swapped in (the
  last line gives the first figure, right after the swap).

On PostgreSQL it also measures the full recompute's **write floor**
(bench/write_floor.py): the same rows COPYed in binary into a bare table of
the history's columns and the history's indexes built on it, in the same
run, and prints the full recompute's time over it (the ratio).

Wall and CPU seconds are printed for each part (the CPU figure shows the
cost when the machine is shared).  The last line is

    full: S s; floor ratio: R; late game at 99%: L s (median); sheet page: M ms; player list: Q ms; game page: ...
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from write_floor import write_floor  # noqa: E402  (bench/write_floor.py)


def bench_database() -> str:
    """A DATABASE_URL for a fresh benchmark database beside the configured one."""
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith(("postgres://", "postgresql://")):
        import psycopg

        base, _, name = url.rpartition("/")
        bench = f"{name.split('?')[0]}_bench"
        with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{bench}"')
            conn.execute(f'CREATE DATABASE "{bench}"')
        return f"{base}/{bench}"
    path = Path(tempfile.mkdtemp(prefix="clubrating-bench-")) / "bench.sqlite3"
    return f"sqlite:///{path}"


def setup_django(database: str | None, broker: str = "") -> None:
    """Django on ``database`` (a URL), else on a fresh benchmark database;
    tasks in-process unless ``broker`` is given."""
    os.environ["DATABASE_URL"] = database or bench_database()
    os.environ["CELERY_BROKER_URL"] = broker
    os.environ.setdefault("DEBUG", "0")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubrating.settings")
    import django

    django.setup()


def _timed(label: str, work: Callable[[], Any]) -> tuple[float, Any]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"{label}: {wall:.3f} s wall, {cpu:.3f} s CPU", flush=True)
    return wall, result


def _server_cpu(connection: Any) -> Callable[[], float] | None:
    """PostgreSQL on this machine: a function giving the CPU seconds the
    server has spent so far for this benchmark: this session's backend,
    the processes it started and that have exited (parallel index builds'
    workers, counted in the postmaster's children time), and the WAL
    writer, checkpointer and background writer, which write what the
    session logged.  None when the server is not local (no /proc entry)."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    tick = os.sysconf("SC_CLK_TCK")

    def fields(pid: int) -> list[str]:
        text = Path(f"/proc/{pid}/stat").read_text()
        return text[text.rindex(")") + 2 :].split()  # from the state field on

    try:
        postmaster = int(fields(backend)[1])
        helpers = [
            int(pid)
            for pid in os.listdir("/proc")
            if pid.isdigit()
            and Path(f"/proc/{pid}/cmdline").exists()
            and any(
                name in Path(f"/proc/{pid}/cmdline").read_bytes()
                for name in (b"walwriter", b"checkpointer", b"background writer")
            )
        ]
    except (OSError, ValueError, IndexError):
        return None

    def used() -> float:
        ticks = sum(int(fields(pid)[11]) + int(fields(pid)[12]) for pid in [backend, *helpers])
        ticks += int(fields(postmaster)[13]) + int(fields(postmaster)[14])  # exited children
        return ticks / tick

    try:
        used()
    except (OSError, ValueError, IndexError):
        return None
    return used


def _median_ms(client: Any, url: str, times: int = 20) -> float:
    client.get(url)  # warm caches and templates
    samples = []
    for _ in range(times):
        start = time.perf_counter()
        response = client.get(url)
        samples.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, (url, response.status_code)
    return statistics.median(samples)


def history_parser(description: str | None) -> argparse.ArgumentParser:
    """The options of the generated history (``manage.py generate``) at federation scale."""
    parser = argparse.ArgumentParser(
        description=description, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=5_000)
    parser.add_argument("--clubs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    return parser


def main() -> None:
    parser = history_parser(__doc__)
    parser.add_argument("--profile", action="store_true", help="cProfile the full recompute")
    parser.add_argument(
        "--late",
        default="99",
        help="where the late games go, in percent of the biggest club's history (default 99; e.g. 50,99)",
    )
    parser.add_argument(
        "--late-repeats",
        type=int,
        default=5,
        help="late games at each share (default 5): the first printed in detail, then their median",
    )
    parser.add_argument(
        "--per-list",
        action="store_true",
        help="full: one recompute_list(full=True) per list instead of recompute_all",
    )
    parser.add_argument(
        "--game-systems",
        choices=["list", "all"],
        default="list",
        help="the game page with the list's own systems, or with all six (the list recomputed with them)",
    )
    parser.add_argument(
        "--database",
        metavar="URL",
        help="reuse this database (generated into once; history emptied before each run)",
    )
    args = parser.parse_args()

    # A broker nothing consumes: a save enqueues its recompute after commit,
    # as on the site, and the bench times that recompute on its own.
    setup_django(args.database, broker="memory://")
    from django.core.management import call_command
    from django.db import connection

    from ratings import recompute
    from ratings.engine import ENGINE
    from ratings.models import Game, HistoryEntry, LogEntry, RatingCheckpoint, RatingList, RecordSheet

    print(f"database: {connection.vendor} {connection.settings_dict['NAME']}; {ENGINE} engine", flush=True)
    call_command("migrate", verbosity=0)
    if args.database and Game.objects.exists():
        # The state generate leaves: no history, every list dirty from its start.
        with connection.cursor() as cursor:
            cursor.execute(f"DELETE FROM {connection.ops.quote_name(HistoryEntry._meta.db_table)}")
        RatingCheckpoint.objects.all().delete()
        for rating_list in RatingList.objects.all():
            first = recompute.first_event_date(rating_list)
            RatingList.objects.filter(pk=rating_list.pk).update(
                dirty_from=first, dirty_generation=1, clean_generation=0
            )
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(f"VACUUM ANALYZE {HistoryEntry._meta.db_table}")
    else:
        _generate(args, call_command)
    last_sheet = RecordSheet.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    last_log = LogEntry.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    try:
        _measure(args, connection)
    finally:
        if args.database:  # leave the reused database as generate made it
            Game.objects.filter(sheet__pk__gt=last_sheet).delete()
            RecordSheet.objects.filter(pk__gt=last_sheet).delete()
            LogEntry.objects.filter(pk__gt=last_log).delete()


def _generate(args: argparse.Namespace, call_command: Callable[..., Any]) -> None:
    with open(os.devnull, "w") as quiet:
        _timed(
            f"generate {args.games} games, {args.players} players, {args.clubs} clubs (not a target)",
            lambda: call_command(
                "generate",
                games=args.games,
                players=args.players,
                clubs=args.clubs,
                seed=args.seed,
                stdout=quiet,
            ),
        )


def _measure(args: argparse.Namespace, connection: Any) -> None:
    from django.test import Client
    from django.urls import reverse

    from ratings import recompute, services
    from ratings.models import Club, Game, Player

    clubs = list(Club.objects.select_related("rating_list").order_by("pk"))

    def full() -> None:
        if args.per_list:
            for club in clubs:
                recompute.recompute_list(club.rating_list_id, full=True, trigger="bench")
        else:
            recompute.recompute_all(trigger="bench")

    server_cpu = _server_cpu(connection)
    server_before = server_cpu() if server_cpu else 0.0
    if args.profile:
        import cProfile
        import pstats

        profiler = cProfile.Profile()
        full_wall, _ = _timed("full recompute (profiled)", lambda: profiler.runcall(full))
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
    else:
        full_wall, _ = _timed("full recompute", full)
    print("  of which " + ", ".join(f"{k} {v:.2f} s" for k, v in recompute.timings.items()) + " (wall)")
    if server_cpu:
        print(
            f"  server CPU {server_cpu() - server_before:.3f} s (backend, its workers, WAL and checkpoints)"
        )
    print(f"  peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    ratio = "n/a"
    if connection.vendor == "postgresql" and not args.per_list:
        floor = write_floor(connection, server_cpu)
        server = f"; server CPU {floor.server:.3f} s" if floor.server is not None else ""
        print(
            f"write floor: {floor.wall:.3f} s wall ({floor.rows} rows: binary COPY into a bare table"
            f" {floor.copy:.3f} s, its indexes {floor.indexes:.3f} s), {floor.cpu:.3f} s CPU{server}"
        )
        ratio = f"{full_wall / floor.wall:.2f}x"
        print(f"  full recompute / write floor: {ratio}")

    biggest = max(clubs, key=lambda c: Game.objects.filter(club=c).count())
    dates = list(Game.objects.filter(club=biggest).order_by("date").values_list("date", flat=True))
    pair = list(Player.objects.filter(rating_list=biggest.rating_list_id).order_by("pk")[:2])
    late_wall = 0.0
    for share in [int(text) for text in args.late.split(",")]:
        late_day = dates[min(len(dates) - 1, len(dates) * share // 100)]

        # The save alone: the recompute a save enqueues after commit goes to
        # the broker, which nothing consumes, and is timed on its own below
        # (a worker runs it in production).
        def save_late(day: date = late_day) -> object:
            return services.save_sheet(
                club=biggest, date=day, rows=[services.GameRow(white=pair[0], black=pair[1], winner="white")]
            )

        _timed(f"late game at {share}% saved (recompute left to the worker)", save_late)
        for key in recompute.timings:
            recompute.timings[key] = 0.0
        server_before = server_cpu() if server_cpu else 0.0
        wall, run = _timed(
            f"late game at {share}%: incremental recompute",
            lambda: recompute.recompute_list(biggest.rating_list_id),
        )
        server = f"; server CPU {server_cpu() - server_before:.3f} s" if server_cpu else ""
        print(
            f"  from {run.from_date}, {run.games_replayed} games replayed, {run.rows_written} rows written{server}"
        )
        print("  of which " + ", ".join(f"{k} {v:.2f} s" for k, v in recompute.timings.items()) + " (wall)")
        if hasattr(run, "result_changes"):
            print(f"  ripple: {run.result_changes.count()} later results changed")
        walls = [wall, *_more_late_games(args.late_repeats - 1, save_late, recompute, biggest.rating_list_id)]
        if len(walls) > 1:
            print(
                f"  {len(walls)} late games at {share}%, each saved then recomputed:"
                f" median {statistics.median(walls):.3f} s, best {min(walls):.3f} s, worst {max(walls):.3f} s"
            )
        if share == 99:
            late_wall = statistics.median(walls)
    players = list(Player.objects.filter(rating_list=biggest.rating_list_id).order_by("pk")[:20])
    rows = [
        services.GameRow(white=players[i], black=players[i + 10], winner="black" if i % 2 else "white")
        for i in range(10)
    ]
    _timed(
        "10-game sheet saved (recompute left to the worker)",
        lambda: services.save_sheet(club=biggest, date=dates[-1], rows=rows),
    )
    recompute.recompute_list(biggest.rating_list_id)

    busy = Player.objects.filter(rating_list=biggest.rating_list_id).order_by("-games_count").first()
    assert busy is not None
    client = Client()
    try:
        sheet_ms = f"{_median_ms(client, reverse('player', args=[busy.slug])):.0f} ms"
        players_ms = f"{_median_ms(client, reverse('players')):.0f} ms"
    except ImportError as error:  # the pages' code half-written in a shared tree
        print(f"  pages not measured: {error}")
        sheet_ms = players_ms = "n/a"
    print(f"  sheet page of {busy.name} ({busy.games_count} games)")
    game_pages = _game_pages(client, biggest, args.game_systems)
    print(
        f"full: {full_wall:.1f} s; floor ratio: {ratio}; late game at 99%: {late_wall:.3f} s (median);"
        f" sheet page: {sheet_ms}; player list: {players_ms}; game page: {game_pages}"
    )


def _more_late_games(count: int, save: Callable[[], object], recompute: Any, list_id: int) -> list[float]:
    """The wall time of ``count`` more late games on the same day, each
    saved then recomputed on its own (one run of a few tens of
    milliseconds is at the mercy of a scheduler's tick)."""
    walls = []
    for _ in range(count):
        save()
        began = time.perf_counter()
        recompute.recompute_list(list_id)
        walls.append(time.perf_counter() - began)
    return walls


def _game_pages(client: Any, club: Any, systems: str, count: int = 21) -> str:
    """The game page (its explanation replays from the last checkpoint) of
    ``count`` games spread evenly over ``club``'s history, each requested
    once: median and worst.  ``systems`` "all": with every system computed
    by the club's list (set, the list recomputed, and the list's own
    systems put back afterwards), else the list's own."""
    from django.db import connection
    from django.urls import reverse

    from ratings import recompute
    from ratings.engine import SYSTEM_NAMES
    from ratings.models import Game, HistoryEntry, RatingList

    rating_list = RatingList.objects.get(pk=club.rating_list_id)
    compared = rating_list.compared_systems
    ids = list(Game.objects.filter(club=club).order_by("date", "pk").values_list("pk", flat=True))
    picks = [ids[i * (len(ids) - 1) // (count - 1)] for i in range(count)]
    try:
        if systems == "all":
            rating_list.compared_systems = [s for s in SYSTEM_NAMES if s != rating_list.primary_system]
            rating_list.save(update_fields=["compared_systems"])
            _timed(
                f"list recomputed with {len(rating_list.systems)} systems (not a target)",
                lambda: recompute.recompute_list(rating_list.pk, full=True, trigger="bench"),
            )
        computed = len(rating_list.systems)
        client.get(reverse("game", args=[picks[0]]))  # warm caches and templates
        figure = _page_samples(
            client, picks, f"game page ({computed} systems, {count} games spread over the list)"
        )
        if connection.vendor == "postgresql":
            # A full recompute swaps a new history table in: no visibility
            # map yet, so its index-only scans read the heap until
            # autovacuum has been (a minute or so later).  The pages again,
            # as they are from then on.
            with connection.cursor() as cursor:
                cursor.execute(f"VACUUM ANALYZE {connection.ops.quote_name(HistoryEntry._meta.db_table)}")
            # Other games (half way between the first ones, other periods):
            # not pages whose rows the first pass has just read.
            others = [ids[(2 * i + 1) * (len(ids) - 1) // (2 * (count - 1))] for i in range(count - 1)]
            _page_samples(
                client,
                others,
                f"  after VACUUM ANALYZE, as autovacuum leaves the new history ({count - 1} other games)",
            )
    finally:
        if systems == "all":
            rating_list.compared_systems = compared
            rating_list.save(update_fields=["compared_systems"])
    return figure


def _page_samples(client: Any, picks: list[int], label: str) -> str:
    """Each game page of ``picks`` requested once: its median and worst
    (printed with their CPU after ``label``)."""
    from django.urls import reverse

    samples = []
    for pk in picks:
        cpu, start = time.process_time(), time.perf_counter()
        response = client.get(reverse("game", args=[pk]))
        samples.append(((time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000))
        assert response.status_code == 200, (pk, response.status_code)
    walls = [wall for wall, _ in samples]
    cpus = [cpu for _, cpu in samples]
    figure = f"{statistics.median(walls):.0f} ms median, {max(walls):.0f} ms worst"
    print(f"{label}: {figure} ({statistics.median(cpus):.0f} / {max(cpus):.0f} ms CPU)")
    return figure


if __name__ == "__main__":
    main()
