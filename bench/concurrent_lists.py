"""Two rating lists recompute at the same time, and neither waits for the other.

    python bench/concurrent_lists.py [--games 200000] [--players 2000] [--lists 2]

Builds a fresh benchmark database beside the configured one (as
bench/recompute.py does: SQLite in a temporary file, PostgreSQL as
NAME_bench), generates two independent lists of ``--games`` games each
(``manage.py generate --clubs 2``: one club per list), then starts two
processes at the same moment, each running the full recompute of one list
(``manage.py recompute --list SLUG --full``), and prints each run's start
and end on one clock: the timeline of the note.  A list's recompute holds
that list's lock only (a PostgreSQL advisory lock, or a file lock beside a
SQLite database), so the two runs overlap; on SQLite their write
transactions still take turns (one writer at a time), on PostgreSQL they run
side by side.  For comparison it then runs the two one after the other.

``--lists N`` (N > 2) generates N lists and gives every one its history
first (``manage.py recompute --full``, one transaction for all), then times
the first two as above: a federation where a list's full rewrite is a small
share of the history, so it keeps the history's indexes (docs/recompute.md,
"Bulk writes") and never locks the other lists out.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from recompute import bench_database  # noqa: E402  (bench/recompute.py)


def _manage(env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "manage.py", *args], cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True,
    )  # fmt: skip


def _run_both(env: dict[str, str], slugs: list[str], together: bool) -> None:
    t0 = time.monotonic()
    spans: dict[str, tuple[float, float]] = {}
    if together:
        started = {slug: (time.monotonic(), _manage(env, "recompute", "--list", slug, "--full", "--no-progress"))
                   for slug in slugs}  # fmt: skip
        for slug, (start, process) in started.items():
            out, _ = process.communicate()
            assert process.returncode == 0, out
            spans[slug] = (start - t0, time.monotonic() - t0)
            print(f"    {slug}: {out.strip()}")
    else:
        for slug in slugs:
            start = time.monotonic()
            process = _manage(env, "recompute", "--list", slug, "--full", "--no-progress")
            out, _ = process.communicate()
            assert process.returncode == 0, out
            spans[slug] = (start - t0, time.monotonic() - t0)
            print(f"    {slug}: {out.strip()}")
    for slug, (start, end) in spans.items():
        print(f"  {slug}: started at {start:6.2f} s, finished at {end:6.2f} s ({end - start:.2f} s)")
    print(f"  both done after {max(end for _, end in spans.values()):.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200_000, help="games per list")
    parser.add_argument("--players", type=int, default=2_000, help="players per list")
    parser.add_argument("--lists", type=int, default=2, help="lists generated (the first two are timed)")
    args = parser.parse_args()
    lists = max(2, args.lists)
    url = bench_database()
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "clubrating.settings"}
    # A broker nothing consumes: what a recompute enqueues after it (the
    # list's prediction figures, due after a list's first recompute: about
    # 30 s for 200,000 games) is a worker's job, not the recompute's;
    # without a broker it ran in-process and only in the first pass.
    env["CELERY_BROKER_URL"] = "memory://"
    for command in (
        ["migrate", "--noinput"],
        [
            "generate",
            "--games",
            str(lists * args.games),
            "--players",
            str(lists * args.players),
            "--clubs",
            str(lists),
        ],
        *([["recompute", "--full", "--no-progress"]] if lists > 2 else []),
    ):
        process = _manage(env, *command)
        out, _ = process.communicate()
        assert process.returncode == 0, out
    print(f"database: {url}; {lists} lists of about {args.games} games each, the first two timed")
    slugs = ["generated-1", "generated-2"]
    print("at the same time:")
    _run_both(env, slugs, together=True)
    print("one after the other:")
    _run_both(env, slugs, together=False)


if __name__ == "__main__":
    main()
