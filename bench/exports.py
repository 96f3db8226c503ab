"""Time and peak memory of a big game export and of API pages.

    python bench/exports.py [--games 200000] [--players 2000] [--seed 1] [--database URL]

Builds a fresh one-club benchmark database beside the configured one (as
bench/recompute.py does; ``--database URL`` reuses one, generating into it
only when it has no games), fills it with ``manage.py generate`` and rates
it with a full recompute (neither timed: the ranks of an export come from
the history).  Then, each through the Django test client as a member of
the list's committee (exports and the API are the committee's), with wall
and CPU seconds and the peak resident memory of the process *during that
step* (the kernel's VmHWM, reset before each step, as
bench/engine.py measures it):

- export json / csv: the whole period's file downloaded from
  /committee/export/, the response consumed piece by piece as a web
  server would send it (ratings/committee/exports.py);
- whole-file json (before): the same file built in memory by the writer
  the export used before streaming (committee.list_games_tournament +
  exchange.write_tournament), for comparison;
- API first page / API last page: median of 20 requests of 1000 games
  (page_size=1000), the last page reached with a cursor at the period's
  end;
- players list during the export: /players/ requested while a JSON export
  is half sent (same process, so it shows the export holds no lock and no
  memory the page must wait for).

Every request's HTTP status is checked: anything but 200 stops the run
with the status and the start of the page, so no figure is ever the time
of a refusal.  The last line is

    export json: S s, peak M MB; API page: P ms (first) / Q ms (last)
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from engine import current_rss_mib, peak_rss_mib, reset_peak_rss  # noqa: E402
from recompute import setup_django  # noqa: E402


def _step(label: str, work: Callable[[], Any]) -> tuple[float, float, Any]:
    """Run ``work``; print and return its wall seconds and peak RSS (MiB)."""
    reset = reset_peak_rss()
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    peak = peak_rss_mib()
    where = "during the step" if reset else "of the whole process (could not reset VmHWM)"
    print(f"{label}: {wall:.2f} s wall, {cpu:.2f} s CPU, peak RSS {peak:.0f} MB {where}", flush=True)
    return wall, peak, result


def migrate_and_generate(args: argparse.Namespace) -> None:
    """The benchmark database migrated, and filled by ``manage.py generate``
    (one club, not timed) when it has no games."""
    from django.core.management import call_command
    from django.db import connection

    from ratings.models import Game

    print(f"database: {connection.vendor} {connection.settings_dict['NAME']}", flush=True)
    call_command("migrate", verbosity=0)
    if not Game.objects.exists():
        with open(os.devnull, "w") as quiet:
            start = time.perf_counter()
            call_command(
                "generate", games=args.games, players=args.players, clubs=1, seed=args.seed, stdout=quiet
            )
            print(f"generate {args.games} games (not timed): {time.perf_counter() - start:.1f} s", flush=True)


def _get(client: Any, url: str, query: dict[str, Any] | None = None) -> Any:
    """The response to a GET; stops the run unless it is a 200."""
    response = client.get(url, query or {})
    if response.status_code != 200:
        body = b"(streamed)" if response.streaming else response.content[:300]
        raise SystemExit(f"GET {url} {query}: HTTP {response.status_code}, not 200: {body!r}")
    return response


def _streamed_export(client: Any, query: dict[str, Any]) -> Any:
    """The export's response, checked to be a 200 sent as a stream."""
    response = _get(client, "/committee/export/", query)
    if not response.streaming:
        raise SystemExit(
            f"GET /committee/export/ {query}: a 200 but not streamed: {response.content[:300]!r}"
        )
    return response


def _download(client: Any, query: dict[str, Any]) -> int:
    """Bytes of a streamed export, consumed piece by piece and dropped."""
    return sum(len(piece) for piece in _streamed_export(client, query).streaming_content)


def _median_ms(client: Any, url: str, query: dict[str, Any], times: int = 20) -> float:
    spent = []
    for _ in range(times):
        start = time.perf_counter()
        _get(client, url, query)
        spent.append((time.perf_counter() - start) * 1000)
    return statistics.median(spent)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", metavar="URL", help="reuse this database (generated into once)")
    args = parser.parse_args()

    setup_django(args.database)
    from django.contrib.auth.models import User
    from django.test import Client

    from accounts.models import CommitteeMember
    from ratings import committee, exchange
    from ratings.committee import exports
    from ratings.models import Club, Game, HistoryEntry
    from ratings.recompute import recompute_all

    migrate_and_generate(args)
    if not HistoryEntry.objects.exists():
        start = time.perf_counter()
        recompute_all()
        print(f"full recompute (not timed): {time.perf_counter() - start:.1f} s", flush=True)
    club = Club.objects.get()
    games = Game.objects.filter(club=club, forfeit=False).count()
    # Exports and the API are the committee's, granted per rating list.
    user, _ = User.objects.get_or_create(username="bench-committee")
    CommitteeMember.objects.get_or_create(user=user, rating_list=club.rating_list)
    client = Client()
    client.force_login(user)
    export_query = {"rating_list": club.rating_list.pk, "club": club.pk}
    print(f"{games} games to export; RSS before the steps {current_rss_mib():.0f} MB", flush=True)

    json_wall, json_peak, size = _step(
        "export json (streamed)", lambda: _download(client, {**export_query, "format": "json"})
    )
    print(f"  {size / 2**20:.0f} MB sent", flush=True)
    _, _, size = _step("export csv (streamed)", lambda: _download(client, {**export_query, "format": "csv"}))
    print(f"  {size / 2**20:.0f} MB sent", flush=True)
    _step(
        "whole-file json (before, for comparison)",
        lambda: len(
            exchange.write_tournament(committee.list_games_tournament(club.rating_list, club=club), "json")
        ),
    )

    query = {"list": club.rating_list.slug, "club": club.slug, "page_size": 1000}
    first_ms = _median_ms(client, "/api/games/", query)
    last = Game.objects.filter(club=club, forfeit=False).timeline()
    cursor = exports.encode_cursor(exports.key_of(last[games - 1000]))
    last_ms = _median_ms(client, "/api/games/", {**query, "cursor": cursor})
    print(f"API page of 1000: first {first_ms:.0f} ms, last {last_ms:.0f} ms (median of 20)", flush=True)

    def players_list_during_export() -> float:
        response = _streamed_export(client, {**export_query, "format": "json"})
        pieces = iter(response.streaming_content)
        for _ in range(200):  # about 13 MB of the file sent
            next(pieces)
        start = time.perf_counter()
        _get(client, "/players/")
        waited = (time.perf_counter() - start) * 1000
        for _ in pieces:
            pass
        return waited

    _, _, waited = _step("players list during a json export", players_list_during_export)
    print(f"  /players/ answered in {waited:.0f} ms while the export was half sent", flush=True)
    print(
        f"export json: {json_wall:.2f} s, peak {json_peak:.0f} MB; "
        f"API page: {first_ms:.0f} ms (first) / {last_ms:.0f} ms (last)"
    )


if __name__ == "__main__":
    main()
