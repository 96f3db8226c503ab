"""Fill an empty database with a demo club: players, two years of games, users.

    python manage.py demo [--password P] [--reset] [--if-empty] [--seed N]

One club, about 40 players from 25k to 4d with national ranks (some with
SAGA ids or EGD PINs), two years of weekly club nights plus tournaments,
internet and free games, a few committee rank adjustments, the log-file of
all of it, then the ratings computed.  Handicaps follow the rank difference;
results follow a hidden playing strength that drifts (kyu players improve),
so ranks move.  About one sheet in six is entered late, days or weeks after
it was played and after later sheets: the timeline (game date, then entry
order) differs from the entry order, as at a real club.

Everything comes from one seeded random generator: the same seed gives the
same club, relative to today's date.  The users ``volunteer``, ``committee``
and ``player`` (linked to a player) are created in their groups.
"""

from __future__ import annotations

import math
import random
import secrets
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from accounts.models import CommitteeMember, Volunteer
from ratings.models import (
    Club,
    Game,
    HistoryEntry,
    Kind,
    LogEntry,
    Player,
    RankAdjustment,
    RatingList,
    RecordSheet,
    Winner,
)
from ratings.systems.ranks import format_rank

DEMO_USERS = ("volunteer", "committee", "player")
DAYS = 730  # two years

FIRST = [
    "Thabo",
    "Anna",
    "Pieter",
    "Lerato",
    "Sipho",
    "Johan",
    "Naledi",
    "Willem",
    "Zanele",
    "Kobus",
    "Ayanda",
    "Marike",
    "Themba",
    "Elsa",
    "Bongani",
    "Riaan",
    "Nomsa",
    "Hennie",
    "Palesa",
    "Gert",
    "Lindiwe",
    "Andre",
    "Karabo",
    "Sanet",
    "Mpho",
    "Francois",
    "Refilwe",
    "Jaco",
    "Nandi",
    "Louis",
    "Precious",
    "Deon",
    "Busisiwe",
    "Stefan",
    "Ntombi",
    "Werner",
    "Kagiso",
    "Ilse",
    "Tumelo",
    "Chen",
]
LAST = (
    "Mokoena Botha Nkosi van der Merwe Dlamini Pretorius Khumalo Venter Ndlovu Joubert Mahlangu du Plessis "
    "Zulu Steyn Sithole Coetzee Mthembu Fourie Ngcobo Nel Radebe Kruger Molefe Smit Tshabalala Marais Shabalala "
    "Viljoen Mkhize Swanepoel Cele le Roux Maseko Olivier Zwane Erasmus Mabuza Hattingh Baloyi Wang"
)


@dataclass
class DemoPlayer:
    model: Player
    strength: float  # hidden playing strength on the rank scale at the start
    growth: float  # rank units gained over the two years


def _last_names() -> list[str]:
    """LAST as names, keeping the two-word Afrikaans ones together."""
    words, names = LAST.split(), []
    i = 0
    while i < len(words):
        if words[i] in {"van", "du", "le"}:
            span = 3 if words[i] == "van" else 2
            names.append(" ".join(words[i : i + span]))
            i += span
        else:
            names.append(words[i])
            i += 1
    return names


class Command(BaseCommand):
    help = "Fill an EMPTY database with a demo club, players, two years of games and the demo users."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--password", help="password of the demo users (default: a random one, printed)")
        parser.add_argument(
            "--reset", action="store_true", help="delete all club data and the demo users first"
        )
        parser.add_argument("--if-empty", action="store_true", help="do nothing (no error) when data exists")
        parser.add_argument("--seed", type=int, default=2005, help="random seed (default 2005)")

    def handle(self, *args: Any, **options: Any) -> None:
        if self._has_data():
            if options["reset"]:
                self._wipe()
            elif options["if_empty"]:
                self.stdout.write("The database already has data; demo data not added.")
                return
            else:
                raise CommandError(
                    "The database already has data (clubs, players or the demo users). "
                    "Run `manage.py demo --reset` to delete it all and start again, "
                    "or `--if-empty` to leave it alone."
                )
        password = options["password"] or secrets.token_urlsafe(9)
        rng = random.Random(options["seed"])
        with transaction.atomic():
            users = self._users(password)
            club = self._fill(rng, users)
        self._recompute(club.rating_list)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo club {club.name!r}: {Player.objects.filter(rating_list=club.rating_list).count()} players, "
                f"{Game.objects.filter(club=club).count()} games, "
                f"{RankAdjustment.objects.filter(rating_list=club.rating_list).count()} rank adjustments."
            )
        )
        self.stdout.write(f"Users volunteer, committee and player; password: {password}")

    # --- guards -----------------------------------------------------------------

    def _has_data(self) -> bool:
        return (
            Club.objects.exists()
            or Player.objects.exists()
            or User.objects.filter(username__in=DEMO_USERS).exists()
        )

    def _wipe(self) -> None:
        """Every club's data (children before parents: games and players are
        PROTECTed), then the demo users."""
        with transaction.atomic():
            LogEntry.objects.all().delete()
            HistoryEntry.objects.all().delete()
            Game.objects.all().delete()
            RecordSheet.objects.all().delete()
            RankAdjustment.objects.all().delete()
            Player.objects.all().delete()
            Club.objects.all().delete()
            RatingList.objects.all().delete()
            User.objects.filter(username__in=DEMO_USERS).delete()
        self.stdout.write("Deleted the existing club data and demo users.")

    # --- users ------------------------------------------------------------------

    def _users(self, password: str) -> dict[str, User]:
        users = {}
        hashed = make_password(password)  # hashed once: a hash takes ~0.5 s
        for name in ("volunteer", "committee", "player"):
            users[name] = User.objects.create(username=name, email=f"{name}@example.org", password=hashed)
        return users

    # --- the club ---------------------------------------------------------------

    def _fill(self, rng: random.Random, users: dict[str, User]) -> Club:
        today = timezone.localdate()
        start = today - timedelta(days=DAYS)
        rating_list = RatingList.objects.create(
            name="South African Go Clubs", slug="sagc", primary_system="sagc", compared_systems=["egf"]
        )
        club = Club.objects.create(rating_list=rating_list, name="Stellenbosch Go Club", slug="stellenbosch")
        Volunteer.objects.create(user=users["volunteer"], club=club)
        CommitteeMember.objects.create(user=users["committee"], rating_list=rating_list)
        players = self._players(rng, club, start, today)
        player_user = users["player"]
        linked = sorted(players, key=lambda p: abs(p.model.start_rank + 12))[0].model
        linked.user = player_user
        linked.save(update_fields=["user"])

        sheets = self._sheets(rng, club, players, start, today, users)
        self._adjustments(rng, club, players, start, today, users["committee"])
        # Player.last_updated: the date of the most recently *added* game (seed 001).
        latest: dict[int, tuple[datetime, date]] = {}
        for game in Game.objects.filter(club=club).only("white_id", "black_id", "entered_at", "date"):
            for pid in (game.white_id, game.black_id):
                if pid not in latest or game.entered_at > latest[pid][0]:
                    latest[pid] = (game.entered_at, game.date)
        for p in players:
            if p.model.pk in latest:
                p.model.last_updated = latest[p.model.pk][1]
        Player.objects.bulk_update([p.model for p in players], ["last_updated"])
        self.stdout.write(f"Created {len(players)} players and {sheets} record sheets.")
        return club

    def _players(self, rng: random.Random, club: Club, start: date, today: date) -> list[DemoPlayer]:
        firsts, lasts = FIRST[:], _last_names()
        rng.shuffle(lasts)
        # Ranks from 25k to 4d, more kyu than dan players, as at a club.
        ranks = [round(-25 + 28 * (i / 39) ** 1.3) for i in range(40)]
        rng.shuffle(ranks)
        made: list[DemoPlayer] = []
        taken: set[str] = set()
        for i, (first, rank) in enumerate(zip(firsts, ranks, strict=False)):
            name = f"{first} {lasts[i % len(lasts)]}"
            slug = slugify(name)
            while slug in taken:
                slug += "-2"
            taken.add(slug)
            # 30 founders; the others join during the two years.
            since = start if i < 30 else start + timedelta(days=rng.randrange(60, DAYS - 60))
            model = Player(
                rating_list=club.rating_list,
                name=name,
                slug=slug,
                home_club=club,
                start_rank=rank,
                rank=rank,
                since=since,
                saga_id=str(1000 + i * 7) if rng.random() < 0.6 else "",
                egd_pin=str(rng.randrange(10_000_000, 29_999_999))
                if rank >= -10 and rng.random() < 0.5
                else "",
            )
            # Weak players improve fastest; a few are over- or under-ranked.
            growth = max(0.0, rng.gauss(-rank / 6, 1.0)) if rank < 0 else rng.gauss(0.2, 0.3)
            made.append(DemoPlayer(model, rank + rng.gauss(0, 0.8), growth))
        Player.objects.bulk_create([p.model for p in made])
        return made

    def _sheets(
        self,
        rng: random.Random,
        club: Club,
        players: list[DemoPlayer],
        start: date,
        today: date,
        users: dict[str, User],
    ) -> int:
        now = timezone.now()
        tz = timezone.get_current_timezone()
        volunteer, committee = users["volunteer"], users["committee"]
        plans: list[tuple[date, str, str, list[tuple[DemoPlayer, DemoPlayer, str]]]] = []
        day = start + timedelta(days=(1 - start.weekday()) % 7)  # Tuesdays: club night
        while day < today:
            present = self._by_strength(
                rng, [p for p in players if p.model.since <= day and rng.random() < 0.35]
            )
            games = []
            for a, b in zip(present[::2], present[1::2], strict=False):
                for _ in range(rng.choice((1, 1, 1, 2))):
                    games.append((a, b, Kind.FREE if rng.random() < 0.08 else Kind.CLUB))
            if len(games) >= 2:
                plans.append((day, "", Kind.CLUB, games))
            day += timedelta(days=7)
        # Two tournaments a year: four rounds on a Saturday, most players.
        for offset in (120, 300, 485, 665):
            day = start + timedelta(days=offset)
            day += timedelta(days=(5 - day.weekday()) % 7)
            if day >= today:
                continue
            entrants = [p for p in players if p.model.since <= day and rng.random() < 0.7]
            games = []
            for _round in range(4):
                entrants = self._by_strength(rng, entrants)
                games += [
                    (a, b, Kind.TOURNAMENT) for a, b in zip(entrants[::2], entrants[1::2], strict=False)
                ]
            plans.append((day, f"Stellenbosch Open {day.year}", Kind.TOURNAMENT, games))
        # Monthly internet league: a few games on the last day of each month.
        day = start
        while day < today:
            month_end = (day.replace(day=28) + timedelta(days=4)).replace(day=1) - timedelta(days=1)
            if month_end < today:
                online = self._by_strength(rng, [p for p in players if p.model.since <= month_end])
                pairs = [
                    (online[i], online[i + 1])
                    for i in rng.sample(range(len(online) - 1), rng.randrange(2, 6))
                ]
                plans.append(
                    (month_end, "Internet league", Kind.INTERNET, [(a, b, Kind.INTERNET) for a, b in pairs])
                )
            day = month_end + timedelta(days=1)

        sheets: list[RecordSheet] = []
        games: list[Game] = []
        for day, event, kind, pairs in sorted(plans, key=lambda plan: plan[0]):
            # Entered a day or two later; one sheet in six weeks late, after later ones.
            delay = (
                timedelta(days=rng.randrange(7, 45))
                if rng.random() < 1 / 6
                else timedelta(days=rng.randrange(1, 3))
            )
            entered_at = datetime.combine(day, time(20, rng.randrange(60)), tz) + delay
            entered_at = min(entered_at, now - timedelta(minutes=rng.randrange(5, 600)))
            entered_at = max(entered_at, datetime.combine(day, time(23, 0), tz))
            actor = committee if rng.random() < 0.2 else volunteer
            sheet = RecordSheet(
                club=club, event=event, date=day, kind=kind, entered_by=actor, entered_at=entered_at
            )
            sheets.append(sheet)
            games += [self._game(rng, club, sheet, day, a, b, game_kind, start) for a, b, game_kind in pairs]
        # Bulk inserts (primary keys come back on SQLite and PostgreSQL).
        RecordSheet.objects.bulk_create(sheets)
        for game in games:
            game.sheet = game.sheet  # pick up the sheet's new primary key
        Game.objects.bulk_create(games, batch_size=500)
        self._log_games(club, games)
        self._edits(rng, club, volunteer)
        return len(sheets)

    @staticmethod
    def _by_strength(rng: random.Random, players: list[DemoPlayer]) -> list[DemoPlayer]:
        """Players in rank order with some noise: neighbours pair up, as at a
        club where people mostly play those a few stones away."""
        return sorted(players, key=lambda p: p.model.start_rank + rng.gauss(0, 2.5))

    def _game(
        self,
        rng: random.Random,
        club: Club,
        sheet: RecordSheet,
        day: date,
        a: DemoPlayer,
        b: DemoPlayer,
        kind: str,
        start: date,
    ) -> Game:
        """One game: the weaker takes Black with handicap ≈ rank difference
        (the ranks people know, i.e. the start rank plus what they gained);
        the result follows the hidden strengths."""
        years = (day - start).days / DAYS

        def known(p: DemoPlayer) -> float:
            return p.model.start_rank + round(p.growth * years * 0.8)

        def strength(p: DemoPlayer) -> float:
            return p.strength + p.growth * years

        white, black = (a, b) if known(a) >= known(b) else (b, a)
        gap = known(white) - known(black)
        handicap = int(min(9, max(0, round(gap + rng.choice((0, 0, 0, -1, 1))))))
        if kind == Kind.FREE and rng.random() < 0.5:
            handicap = min(9, int(gap) + 2)  # teaching game with extra stones
        if handicap == 0:
            komi = Decimal(rng.choice(("6.5", "6.5", "7.5", "5.5")))
            if gap == 0 and rng.random() < 0.5:
                white, black = black, white
        else:
            komi = Decimal("0.5") if rng.random() < 0.85 else Decimal("0")
        # Black's edge: stones received minus the real strength gap (a stone ~ a rank).
        edge = handicap - (0.5 if handicap == 0 else 0) - (strength(white) - strength(black))
        p_black = 1 / (1 + math.exp(-1.1 * edge))
        if komi == 0 and rng.random() < 0.03:
            winner = Winner.JIGO
        else:
            winner = Winner.BLACK if rng.random() < p_black else Winner.WHITE
        board = 19 if kind != Kind.FREE or rng.random() < 0.5 else rng.choice((9, 13))
        return Game(
            rating_list=club.rating_list,
            club=club,
            sheet=sheet,
            date=day,
            white=white.model,
            black=black.model,
            handicap=handicap,
            komi=komi,
            winner=winner,
            kind=kind,
            board=board,
            minutes=rng.choice((None, 30, 45, 60)),
            comments="resigned" if rng.random() < 0.05 else "",
            entered_by=sheet.entered_by,
            entered_at=sheet.entered_at,
        )

    def _log_games(self, club: Club, games: list[Game]) -> None:
        from ratings.services import describe_game

        entries = LogEntry.objects.bulk_create(
            [
                LogEntry(
                    rating_list=club.rating_list,
                    club=club,
                    at=game.entered_at,
                    actor=game.entered_by,
                    action=LogEntry.Action.ADD,
                    sheet=game.sheet,
                    game=game,
                    event_date=game.date,
                    summary=describe_game(game)[:300],
                )
                for game in games
            ],
            batch_size=500,
        )
        through = LogEntry.players.through
        through.objects.bulk_create(
            [
                through(logentry_id=entry.pk, player_id=pid)
                for entry, game in zip(entries, games, strict=True)
                for pid in (game.white_id, game.black_id)
            ],
            batch_size=500,
        )

    def _edits(self, rng: random.Random, club: Club, actor: User) -> None:
        """Two corrections, logged as the edit service logs them."""
        from ratings.services import describe_game

        games = list(Game.objects.filter(club=club, kind=Kind.CLUB).select_related("white", "black"))
        for game in rng.sample(games, 2):
            old, new = game.komi, Decimal("6.5") if game.komi != Decimal("6.5") else Decimal("7.5")
            Game.objects.filter(pk=game.pk).update(komi=new)
            game.komi = new
            entry = LogEntry.objects.create(
                rating_list=club.rating_list,
                club=club,
                at=game.entered_at + timedelta(days=rng.randrange(1, 5)),
                actor=actor,
                action=LogEntry.Action.EDIT,
                game=game,
                sheet_id=game.sheet_id,
                event_date=game.date,
                summary=("Corrected komi: " + describe_game(game))[:300],
                changes={"komi": [str(old), str(new)]},
            )
            entry.players.set([game.white, game.black])

    def _adjustments(
        self, rng: random.Random, club: Club, players: list[DemoPlayer], start: date, today: date, actor: User
    ) -> None:
        """The committee promotes three fast improvers (a national rank sync)."""
        improvers = sorted(players, key=lambda p: -p.growth)[:3]
        for p in improvers:
            day = start + timedelta(days=rng.randrange(250, DAYS - 30))
            day = max(day, p.model.since + timedelta(days=30))
            if day >= today:
                continue
            rank = float(min(8, p.model.start_rank + max(1, round(p.growth / 2))))
            at = datetime.combine(day, time(19, 0), timezone.get_current_timezone()) + timedelta(days=1)
            reason = "SAGA rank list sync"
            adjustment = RankAdjustment.objects.create(
                rating_list=club.rating_list,
                player=p.model,
                date=day,
                rank=rank,
                reason=reason,
                entered_by=actor,
                entered_at=at,
            )
            entry = LogEntry.objects.create(
                rating_list=club.rating_list,
                club=None,
                at=at,
                actor=actor,
                action=LogEntry.Action.ADD,
                adjustment=adjustment,
                event_date=day,
                summary=f"{day:%Y-%m-%d} {p.model.name} set to {format_rank(rank)}: {reason}",
            )
            entry.players.set([p.model])

    def _recompute(self, rating_list: RatingList) -> None:
        from ratings.recompute import recompute_list

        recompute_list(rating_list.pk, full=True, trigger="demo")
