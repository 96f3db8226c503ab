"""Replay speed and memory of the rating systems on a synthetic history.

    python bench/engine.py --system sagc --games 1000000 [--players 5000] [--seed 1] [--clubs 1]
    python bench/engine.py --all --games 1000000

Generates a reproducible history with ratings.synthetic.synthetic_history
(not timed), replays it once with ``get_system(NAME).rate(events,
starts=starts)`` (one thread: one core; ``--cpu N`` pins it), and prints as its
last line

    NAME: N games in S s (G games/s), peak M MB

``peak`` is the peak resident set size of the process during the replay,
with the events already in memory (see bench/README.md for how it is
measured).  ``--all`` runs every registered system, each in a fresh
subprocess so that peaks do not mix, and ends with one such line per system.
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from ratings.engine import ENGINE, SYSTEM_NAMES, get_system  # noqa: E402
from ratings.engine.base import Game  # noqa: E402
from ratings.synthetic import synthetic_history  # noqa: E402

MIB = 1024 * 1024


def reset_peak_rss() -> bool:
    """Reset the kernel's peak-RSS mark (VmHWM) of this process.

    Linux (4.0+) resets it when "5" is written to /proc/self/clear_refs.
    Returns False where that is not possible; the peak then covers the whole
    process, generation included.
    """
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        return False
    return True


def peak_rss_mib() -> float:
    """The peak RSS of this process since start (or since the last reset)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024 / MIB
    except OSError:
        pass
    # ru_maxrss is in KiB on Linux, bytes on macOS.
    scale = 1 if sys.platform == "darwin" else 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale / MIB


def current_rss_mib() -> float:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024 / MIB
    except OSError:
        pass
    return float("nan")


def pin_to_cpu(cpu: int | None) -> str:
    """Pin the process to ``cpu`` when asked (the replay uses one core anyway)."""
    if cpu is None:
        return "one thread, not pinned"
    if not hasattr(os, "sched_setaffinity"):
        return "cannot pin on this OS"
    os.sched_setaffinity(0, {cpu})
    return f"pinned to CPU {cpu}"


def run_one(name: str, games: int, players: int, seed: int, clubs: int, cpu: int | None = None) -> str:
    pinned = pin_to_cpu(cpu)
    system = get_system(name)
    t0 = time.perf_counter()
    events, starts = synthetic_history(games, players=players, seed=seed, clubs=clubs)
    generated = time.perf_counter() - t0
    adjustments = sum(1 for e in events if not isinstance(e, Game))
    gc.collect()
    reset = reset_peak_rss()
    before = current_rss_mib()
    print(
        f"generated {games} games + {adjustments} adjustments among {players} players "
        f"(seed {seed}, {clubs} club(s)) in {generated:.2f} s; RSS {before:.0f} MB; {pinned}; "
        f"{ENGINE} engine",
        flush=True,
    )

    t0 = time.perf_counter()
    c0 = time.process_time()
    result = system.rate(events, starts=starts)
    cpu_time = time.process_time() - c0
    elapsed = time.perf_counter() - t0

    peak = peak_rss_mib()
    if len(result.ledger) != len(events):
        raise SystemExit(f"{name}: the ledger has {len(result.ledger)} events, expected {len(events)}")
    print(
        f"replay: {len(result.state)} players in the final state; CPU time {cpu_time:.2f} s "
        f"(wall {elapsed:.2f} s); peak RSS "
        f"{'during the replay' if reset else 'of the whole process (could not reset VmHWM)'}",
        flush=True,
    )
    rate = games / elapsed if elapsed > 0 else float("inf")
    return f"{name}: {games} games in {elapsed:.2f} s ({rate:.0f} games/s), peak {peak:.0f} MB"


def run_all(args: argparse.Namespace) -> int:
    lines: list[str] = []
    failed = 0
    for name in SYSTEM_NAMES:
        command = [
            sys.executable,
            str(Path(__file__).resolve()),
            "--system",
            name,
            "--games",
            str(args.games),
            "--players",
            str(args.players),
            "--seed",
            str(args.seed),
            "--clubs",
            str(args.clubs),
        ]
        if args.cpu is not None:
            command += ["--cpu", str(args.cpu)]
        print(f"== {name}", flush=True)
        proc = subprocess.run(command, capture_output=True, text=True)
        sys.stdout.write(proc.stdout)
        if proc.returncode != 0:
            failed += 1
            error = (proc.stderr.strip().splitlines() or [f"exit status {proc.returncode}"])[-1]
            print(proc.stderr, file=sys.stderr, end="")
            lines.append(f"{name}: failed: {error}")
        else:
            lines.append(proc.stdout.strip().splitlines()[-1])
    print("== summary")
    for line in lines:
        print(line)
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--system", choices=SYSTEM_NAMES, help="the system to replay")
    which.add_argument("--all", action="store_true", help="every system, each in a fresh subprocess")
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--clubs", type=int, default=1)
    parser.add_argument(
        "--cpu", type=int, default=None, help="pin the process to this CPU (default: not pinned)"
    )
    args = parser.parse_args(argv)
    if args.all:
        return run_all(args)
    print(run_one(args.system, args.games, args.players, args.seed, args.clubs, args.cpu), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
