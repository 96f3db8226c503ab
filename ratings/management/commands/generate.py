"""``manage.py generate --games N --players P [--clubs C] [--seed S]``:
fill the database with a reproducible federation-scale history.

Several rating lists of one club each (the list is the rating pool), players from 25k to 4d (most around
10k), club nights of about thirty games, two-day tournaments, some internet
and free games; handicaps from the rank difference (the SAGC FAQ's komi
convention: 6.5 even, 0.5 with handicap stones), results that favour the
stronger player.  Rows are written in bulk (COPY on PostgreSQL, batched
inserts on SQLite).  The lists are left dirty from their first date, so the
next recompute (``manage.py recompute``) computes them in full.
"""

from __future__ import annotations

import random
from datetime import date, datetime, time, timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone

from ratings.models import Club, Game, Player, RatingList, RecordSheet
from ratings.recompute import copy_rows

FIRST = ("Thabo", "Anna", "Pieter", "Lerato", "Johan", "Naledi", "Sipho", "Marie", "Kenji", "Chen",
         "Eva", "Tomás", "Aiko", "Ruan", "Zanele", "Lars", "Ines", "Yuki", "Musa", "Sofia")  # fmt: skip
LAST = ("Nkosi", "van der Merwe", "Botha", "Dlamini", "Smith", "Naidoo", "Mokoena", "Pretorius",
        "Tanaka", "Wang", "Müller", "Dubois", "Kim", "Jacobs", "Khumalo", "Fischer")  # fmt: skip
GAMES_PER_SHEET = 30


class Command(BaseCommand):
    help = "Fill the database with a reproducible federation-scale game history."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, required=True)
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--clubs", type=int, default=5)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--end", type=date.fromisoformat, default=None, help="last game date (default yesterday)"
        )
        parser.add_argument("--force", action="store_true", help="add to a database that already has games")

    def handle(self, *args: Any, **options: Any) -> None:
        games, players, clubs = options["games"], options["players"], options["clubs"]
        if games < 0 or players < 2 * clubs or clubs < 1:
            raise CommandError("need --games >= 0, --clubs >= 1 and at least two --players per club")
        if Game.objects.exists() and not options["force"]:
            raise CommandError("the database already has games; use --force to add more")
        rng = random.Random(options["seed"])
        end = options["end"] or (timezone.localdate() - timedelta(days=1))
        with transaction.atomic():
            made = generate(rng, games=games, players=players, clubs=clubs, end=end)
        self.stdout.write(f"generated {made[0]} clubs, {made[1]} players, {made[2]} sheets, {made[3]} games")


def _rank(rng: random.Random) -> int:
    """25k..4d (engine scale -25..3), most players around 10k."""
    return max(-25, min(3, round(rng.triangular(-25, 3, -10))))


def generate(
    rng: random.Random, *, games: int, players: int, clubs: int, end: date
) -> tuple[int, int, int, int]:
    existing = Club.objects.count()
    club_objs = []
    for i in range(clubs):
        name, slug = f"Generated Go Club {existing + i + 1}", f"generated-{existing + i + 1}"
        club = Club.objects.create(
            rating_list=RatingList.objects.create(name=name, slug=slug), name=name, slug=slug
        )
        club_objs.append(club)
    # Club sizes vary (a big city club, small town clubs).
    weights = [rng.uniform(0.5, 2.0) for _ in club_objs]
    total = sum(weights)
    sizes = [max(2, int(players * w / total)) for w in weights]
    sizes[0] += players - sum(sizes)
    nights = max(1, games // GAMES_PER_SHEET)
    days = max(730, nights // clubs + 1)
    first_day = end - timedelta(days=days)
    roster: dict[int, list[tuple[int, int]]] = {}
    now = timezone.now()
    n_players = 0
    for club, size in zip(club_objs, sizes, strict=True):
        objs = []
        for i in range(size):
            rank = _rank(rng)
            objs.append(
                Player(
                    rating_list_id=club.rating_list_id,
                    name=f"{rng.choice(FIRST)} {rng.choice(LAST)} {i + 1}",
                    slug=f"{club.slug}-{i + 1}",
                    home_club=club,
                    start_rank=rank,
                    rank=rank,
                    since=first_day,
                    created_at=now,
                )
            )
        created = Player.objects.bulk_create(objs, batch_size=1000)
        roster[club.pk] = sorted((p.start_rank, p.pk) for p in created)
        n_players += len(created)
    # Sheets: club nights and, one in twenty, two-day tournaments.
    sheet_specs: list[tuple[Club, date, str, str]] = []
    for n in range(nights):
        club = club_objs[n % clubs]
        day = first_day + timedelta(days=rng.randrange(days))
        if n % 20 == 7 and day < end:
            sheet_specs.append((club, day, f"{club.name} Open {n}", "tournament"))
        else:
            sheet_specs.append((club, day, "", rng.choices(["club", "internet", "free"], [90, 7, 3])[0]))
    sheets = RecordSheet.objects.bulk_create(
        [RecordSheet(club=c, date=d, event=e, kind=k, entered_at=now) for c, d, e, k in sheet_specs],
        batch_size=2000,
    )
    tz = timezone.get_current_timezone()
    list_of = {club.pk: club.rating_list_id for club in club_objs}

    def rows() -> Any:
        left = games
        for index, sheet in enumerate(sheets):
            count = left if index == len(sheets) - 1 else min(left, GAMES_PER_SHEET)
            left -= count
            members = roster[sheet.club_id]
            rating_list_id = list_of[sheet.club_id]
            entered = datetime.combine(sheet.date + timedelta(days=1), time(21, 0), tz)
            if rng.random() < 0.1:  # entered late, out of date order
                entered += timedelta(days=rng.randrange(2, 60))
            for g in range(count):
                day = (
                    sheet.date + timedelta(days=1)
                    if sheet.kind == "tournament" and g >= count // 2
                    else sheet.date
                )
                day = min(day, end)
                a = rng.randrange(len(members))
                b = max(0, min(len(members) - 1, a + rng.randint(-8, 8)))
                if a == b:
                    b = a - 1 if a else a + 1
                (rank_a, id_a), (rank_b, id_b) = members[a], members[b]
                if rank_a > rank_b or (rank_a == rank_b and rng.random() < 0.5):
                    (rank_a, id_a), (rank_b, id_b) = (rank_b, id_b), (rank_a, id_a)
                # id_b is the stronger: White; handicap from the rank difference.
                handicap = min(9, rank_b - rank_a)
                if handicap == 1:
                    handicap = 0
                komi = "6.5" if handicap == 0 else "0.5"
                p_white = 0.5 + 0.04 * (rank_b - rank_a - handicap)
                roll = rng.random()
                winner = "jigo" if roll > 0.995 else ("white" if roll < p_white else "black")
                yield (
                    rating_list_id, sheet.club_id, sheet.pk, day, id_b, id_a, handicap, komi, winner, sheet.kind, 19,
                    None, rng.random() < 0.002, "", None, entered + timedelta(seconds=g), entered,
                )  # fmt: skip

    columns = (
        "rating_list_id", "club_id", "sheet_id", "date", "white_id", "black_id", "handicap", "komi", "winner", "kind", "board",
        "minutes", "forfeit", "comments", "entered_by_id", "entered_at", "updated_at",
    )  # fmt: skip
    conn = transaction.get_connection()
    if conn.vendor == "postgresql":
        written = copy_rows(Game._meta.db_table, columns, rows())
    else:
        # SQLite stores dates and datetimes as text in Django's own format.
        when = conn.ops.adapt_datetimefield_value
        written = copy_rows(
            Game._meta.db_table,
            columns,
            ((*row[:3], row[3].isoformat(), *row[4:15], when(row[15]), when(row[16])) for row in rows()),
        )
    for club in club_objs:
        first = Game.objects.filter(club=club).order_by("date").values_list("date", flat=True).first()
        RatingList.objects.filter(pk=club.rating_list_id).update(dirty_from=first, dirty_generation=1)
    if conn.vendor == "postgresql":
        # What autovacuum does some time after a bulk load: without
        # statistics the planner takes a million games for a thousand.
        with conn.cursor() as cursor:
            for model in (Game, RecordSheet, Player):
                cursor.execute(f"ANALYZE {conn.ops.quote_name(model._meta.db_table)}")
    return len(club_objs), n_players, len(sheets), written
