"""Time and peak memory of a big list's archive: export, then import.

    python bench/archive.py [--games 1000000] [--players 5000] [--seed 1] [--database URL] [--recompute]

Builds a fresh benchmark database beside the configured one (as
bench/recompute.py does; ``--database URL`` reuses one, generating into it
only when it has no games) and fills it with ``manage.py generate`` (not
timed). Then, with wall and CPU seconds and the peak resident memory of
the process *during that step* (the kernel's VmHWM, reset before each
step, as bench/engine.py measures it), and on PostgreSQL the database
server's CPU seconds (its backend for this session), with the load average:

- export: ``write_archive`` of the list into a zip file on disk
  (ratings/archive/export.py: every file streamed from a chunked cursor);
- import: ``restore_archive`` of that zip as a new list beside the first
  (every file checked, then written in one transaction); its commit only
  enqueues the recompute (to ``--broker``, a Redis no worker reads), as on
  a production site; with ``--recompute``, the full recompute of the
  imported list is a third step (bench/recompute.py measures recomputes on
  their own).

The imported list is checked to hold as many games, players and sheets as
the original. The last line is

    archive of N games: export S s (peak M MB), import T s (peak P MB)
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from exports import _step, migrate_and_generate  # noqa: E402  (a step's time and peak memory)
from recompute import setup_django  # noqa: E402


def _backend_cpu(connection: Any) -> Callable[[], float] | None:
    """PostgreSQL on this machine: a function giving the CPU seconds this
    session's backend has spent so far (only its own: on a shared machine
    the server's other processes work for others too).  None elsewhere."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        stat = Path(f"/proc/{cursor.fetchone()[0]}/stat")
    if not stat.exists():
        return None

    def used() -> float:
        text = stat.read_text()
        fields = text[text.rindex(")") + 2 :].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    return used


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=5_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", metavar="URL", help="reuse this database (generated into once)")
    parser.add_argument("--recompute", action="store_true", help="also time the imported list's recompute")
    parser.add_argument("--broker", default="redis://127.0.0.1:6379/15", help="a Redis no worker reads")
    args = parser.parse_args()
    # A broker that no worker reads: the import's commit only enqueues the
    # recompute, as on a production site, so the import's figure is the
    # import's; --recompute times the recompute as its own step.
    setup_django(args.database, broker=args.broker)

    from ratings.archive import restore_archive, write_archive
    from ratings.models import Game, Player, RatingList, RecordSheet
    from ratings.recompute import recompute_list

    migrate_and_generate(args)
    from django.db import connection

    server_cpu = _backend_cpu(connection)

    def step(label: str, work: Any) -> tuple[float, float, Any]:
        """_step, with the database server's CPU seconds and the load."""
        before = server_cpu() if server_cpu else 0.0
        done = _step(label, work)
        if server_cpu:
            print(
                f"  database server (this session's backend): {server_cpu() - before:.2f} s CPU", flush=True
            )
        print(f"  load average: {' '.join(f'{n:.1f}' for n in os.getloadavg())}", flush=True)
        return done

    original = RatingList.objects.exclude(slug="bench-import").get()
    games = Game.objects.filter(rating_list=original).count()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "archive.zip"

        def export() -> dict[str, int]:
            with path.open("wb") as out:
                return write_archive(original, out)

        export_s, export_mb, counts = step(f"export {games} games", export)
        print(f"archive: {path.stat().st_size / 1e6:.1f} MB, {sum(counts.values())} rows", flush=True)
        if RatingList.objects.filter(slug="bench-import").exists():
            raise SystemExit("a list bench-import exists already: use a fresh database")
        import_s, import_mb, restored = step(
            "import (one transaction, no recompute)",
            lambda: restore_archive(str(path), "bench-import", recompute_now=False),
        )
    copy = restored.rating_list
    for model, scope, of in ((Game, "rating_list", "games"), (Player, "rating_list", "players"),
                             (RecordSheet, "club__rating_list", "sheets")):  # fmt: skip
        there, here = (
            model.objects.filter(**{scope: original}).count(),
            model.objects.filter(**{scope: copy}).count(),
        )
        if there != here:
            raise SystemExit(f"the import holds {here} {of}, the original {there}")
    if args.recompute:
        step(
            "recompute of the imported list (full)",
            lambda: recompute_list(copy.pk, full=True, trigger="bench"),
        )
    print(
        f"archive of {games} games: export {export_s:.1f} s (peak {export_mb:.0f} MB), "
        f"import {import_s:.1f} s (peak {import_mb:.0f} MB)",
        flush=True,
    )


if __name__ == "__main__":
    main()
