"""``manage.py evaluate``: which rating system predicts the results best.

    python manage.py evaluate GAMES.csv [--systems a,b] [--predictions OUT.csv]
    python manage.py evaluate RESULTS.h9 [MORE.tou ...] [--systems a,b] [--predictions OUT.csv]
    python manage.py evaluate --list SLUG [--systems a,b] [--predictions OUT.csv]

Before every game, each system's probability that White wins it, and two
baselines' (always 50 %; declared ranks only); then log-loss, Brier score,
accuracy and number of games, overall, by handicap band and by rank band
(ratings/evaluation, docs/evaluation.md).  A CSV of games (the columns of
``manage.py rate``, ratings/whatif.py) needs no database, nor do
tournament results files (EGD h9, FFG .tou, AGA; read by ratings.exchange,
taken in the order of their start dates, each its own players:
ratings/evaluation/sources.py); ``--list`` reads the rating list's games.  ``--predictions`` writes one row per game and predictor,
enough to recompute every figure.  Any error stops the run before anything
is written.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from datetime import date
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.engine import SYSTEM_NAMES
from ratings.engine.base import Event, InvalidEvent, PlayerId, Start, UnknownPlayer
from ratings.evaluation.predict import evaluate
from ratings.evaluation.report import predictions_csv, summary, summary_text
from ratings.evaluation.sources import tournament_games
from ratings.exchange import ExchangeError, read_tournament
from ratings.management.commands.import_ranks import read_bytes
from ratings.management.output import write_atomically
from ratings.whatif import WhatIfError, read_games


class Command(BaseCommand):
    help = "Score every rating system's predictions of the results (CSV of games, or a rating list's games)."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "games",
            nargs="*",
            help="a CSV of games as for `manage.py rate`, or tournament results files (no database)",
        )
        parser.add_argument(
            "--list",
            dest="list_slug",
            metavar="SLUG",
            help="evaluate this rating list's games from the database instead",
        )
        parser.add_argument(
            "--systems",
            help=f"comma-separated systems (default: all for a CSV, the list's for --list): {', '.join(SYSTEM_NAMES)}",
        )
        parser.add_argument("--predictions", help="write one row per game and predictor to this CSV file")

    def handle(self, *args: Any, **options: Any) -> None:
        files = [Path(name) for name in options["games"]]
        if bool(files) == (options["list_slug"] is not None):
            raise CommandError("give either a CSV of games (or results files) or --list SLUG (not both)")
        systems = _systems(options["systems"])
        label: Callable[[PlayerId], str] = str
        lines: list[int] = []
        starts: Mapping[PlayerId, Start]
        if len(files) == 1 and files[0].suffix.lower() == ".csv":
            events, starts, lines = _read_csv(files[0])
            where = str(files[0])
        elif files:
            events, starts, label = _read_results(files)
            where = ", ".join(str(f) for f in files)
        else:
            events, starts, list_systems, label = list_games(options["list_slug"])
            systems = systems or list_systems
            where = f"list {options['list_slug']}"
        try:
            evaluation = evaluate(events, starts, systems or SYSTEM_NAMES)
        except (InvalidEvent, UnknownPlayer) as error:
            line = lines[error.index] if 0 <= error.index < len(lines) else None
            at = f"line {line}: " if line is not None else ""
            raise CommandError(f"{where}: {at}{error}") from None
        text = summary_text(summary(evaluation))
        if options["predictions"]:
            write_atomically(Path(options["predictions"]), predictions_csv(evaluation, label))
        self.stdout.write(f"{where}: {len(evaluation.games)} games predicted\n\n{text}")


def _systems(text: str | None) -> list[str]:
    if not text:
        return []
    names = [name.strip() for name in text.split(",") if name.strip()]
    for name in names:
        if name not in SYSTEM_NAMES:
            raise CommandError(f"--systems: unknown system {name!r} (choose among {', '.join(SYSTEM_NAMES)})")
    return names


def _read_csv(path: Path) -> tuple[list[Event], dict[PlayerId, Start], list[int]]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as error:
        raise CommandError(f"{path}: cannot read: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise CommandError(f"{path}: not UTF-8 text ({error.reason} at byte {error.start})") from None
    try:
        data = read_games(io.StringIO(text, newline=""))
    except WhatIfError as error:
        raise CommandError(f"{path}: {error}") from None
    return list(data.games), data.starts, data.lines


def _read_results(
    files: list[Path],
) -> tuple[list[Event], dict[PlayerId, Start], Callable[[PlayerId], str]]:
    """Tournament results files as one timeline, earliest start first."""
    read = []
    for path in files:
        try:
            tournament = read_tournament(read_bytes(path), filename=path.name)
        except ExchangeError as error:
            raise CommandError(f"{path}: {error}") from None
        read.append((tournament.start or date.min, path, tournament))
    events: list[Event] = []
    starts: dict[PlayerId, Start] = {}
    names: dict[PlayerId, str] = {}
    for _, path, tournament in sorted(read, key=lambda item: item[0]):
        found = tournament_games(tournament, path.name)
        events.extend(found.games)
        starts.update(found.starts)
        names.update(found.names)
    return events, starts, lambda player: names.get(player, str(player))


def list_games(
    slug: str,
) -> tuple[list[Event], Mapping[PlayerId, Start], list[str], Callable[[PlayerId], str]]:
    """A rating list's events, starts, systems and player names, from the
    database: the only part of this command that reads it."""
    from ratings import committee, models
    from ratings.recompute import load_timeline

    try:
        rating_list = committee.find_list(slug)
    except committee.CommitteeError as error:
        raise CommandError(str(error)) from None
    timeline = load_timeline(rating_list)
    players = models.Player.objects.filter(rating_list=rating_list).only("name", "suffix")
    names: dict[Any, str] = {p.pk: p.display_name for p in players}
    return (
        timeline.events,
        timeline.starts,
        rating_list.systems,
        lambda player: names.get(player, str(player)),
    )
