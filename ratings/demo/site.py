"""The demo site: its two lists, their clubs and players, the record sheets,
and the demo users, one per role and place (a volunteer of each club, the
committee of each list, a player linked to a player, a site admin)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta

from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.utils import timezone

from accounts.models import CommitteeMember, Volunteer
from ratings.demo import store
from ratings.demo.people import (
    DAYS,
    FIRST_SA,
    FIRST_UK,
    LAST_SA,
    LAST_UK,
    DemoPlayer,
    club_ranks,
    make_players,
    names,
)
from ratings.demo.sheets import Plan, club_nights, first_weekday, internet_league, tournament_weekend
from ratings.models import Club, Game, Player, RatingList

MakeUser = Callable[..., User]


@dataclass(frozen=True)
class ClubSpec:
    name: str
    slug: str
    weekday: int  # of its club night (Monday = 0)
    region: str  # players visit the clubs of their own region most


SAGC_CLUBS = (
    ClubSpec("Stellenbosch Go Club", "stellenbosch", 1, "Western Cape"),
    ClubSpec("Cape Town Go Club", "cape-town", 2, "Western Cape"),
    ClubSpec("Johannesburg Go Club", "johannesburg", 3, "Gauteng"),
    ClubSpec("Pretoria Go Club", "pretoria", 0, "Gauteng"),
)
LADDER_CLUB = ClubSpec("Guildford Go Club", "guildford-club", 3, "Surrey")
PLAYERS_PER_CLUB = 20
LADDER_PLAYERS = 12
#: The chance that a player comes to another club's night: a town nearby, or far away.
VISIT_NEAR, VISIT_FAR = 0.03, 0.004
#: The South African Open: days after the start, and the host club.
OPENS = ((200, "johannesburg"), (560, "cape-town"))

ADMIN, PLAYER = "admin", "player"


SAGC_SLUG, LADDER_SLUG = "sagc", "guildford"


def volunteer_name(club_slug: str) -> str:
    return f"volunteer-{club_slug.removesuffix('-club')}"


def committee_name(list_slug: str) -> str:
    return f"committee-{list_slug}"


def demo_usernames() -> list[str]:
    """Every user the demo makes (the names do not depend on the data)."""
    volunteers = [volunteer_name(club.slug) for club in (*SAGC_CLUBS, LADDER_CLUB)]
    return [ADMIN, committee_name(SAGC_SLUG), committee_name(LADDER_SLUG), *volunteers, PLAYER]


@dataclass
class Demo:
    """What was made, for the command's summary."""

    lists: list[RatingList]
    roles: list[tuple[str, str]]  # username, what they may do


def build(rng: random.Random, password: str) -> Demo:
    today = timezone.localdate()
    start = today - timedelta(days=DAYS)
    hashed = make_password(password)  # hashed once: a hash takes ~0.5 s
    roles: list[tuple[str, str]] = []

    def user(username: str, role: str, **extra: bool) -> User:
        roles.append((username, role))
        return User.objects.create(
            username=username, email=f"{username}@example.org", password=hashed, **extra
        )

    user(ADMIN, "site administrator (superuser): creates lists", is_superuser=True, is_staff=True)

    sagc, sagc_players, sagc_games = _south_africa(rng, start, today, user)
    ladder = _ladder(rng, start, today, user)

    # The player: one who visits other clubs, so their one record sheet holds games of several.
    clubs_of: dict[int, set[int]] = {}
    for game in sagc_games:
        for pid in (game.white_id, game.black_id):
            clubs_of.setdefault(pid, set()).add(game.club_id)
    linked = min(
        sagc_players,
        key=lambda p: (-len(clubs_of.get(p.model.pk, ())), abs(p.model.start_rank + 12), p.model.name),
    ).model
    linked.user = user(PLAYER, f"linked to the player {linked} ({linked.home_club})")
    linked.save(update_fields=["user"])
    return Demo([sagc, ladder], roles)


def _memberships(rating_list: RatingList, clubs: list[Club], user: MakeUser) -> tuple[User, dict[int, User]]:
    committee = user(committee_name(rating_list.slug), f"committee of {rating_list}")
    CommitteeMember.objects.create(user=committee, rating_list=rating_list)
    volunteers = {}
    for club in clubs:
        volunteers[club.pk] = user(volunteer_name(club.slug), f"volunteer at {club}")
        Volunteer.objects.create(user=volunteers[club.pk], club=club, granted_by=committee)
    return committee, volunteers


def _enterer(committee: User, volunteers: dict[int, User]) -> Callable[[Plan], User]:
    def enterer(plan: Plan) -> User:
        return committee if plan.by_committee else volunteers[plan.club.pk]

    return enterer


def _south_africa(
    rng: random.Random, start: date, today: date, user: MakeUser
) -> tuple[RatingList, list[DemoPlayer], list[Game]]:
    rating_list = RatingList.objects.create(
        name="South African Go Clubs", slug=SAGC_SLUG, primary_system="sagc", compared_systems=["egf"]
    )
    clubs = [Club.objects.create(rating_list=rating_list, name=s.name, slug=s.slug) for s in SAGC_CLUBS]
    committee, volunteers = _memberships(rating_list, clubs, user)

    everyone = names(rng, FIRST_SA, LAST_SA, PLAYERS_PER_CLUB * len(clubs))
    # Two real people of one name, told apart by a suffix.
    twin = everyone[0]
    members: dict[str, list[DemoPlayer]] = {}
    for n, (spec, club) in enumerate(zip(SAGC_CLUBS, clubs, strict=True)):
        people = everyone[n * PLAYERS_PER_CLUB : (n + 1) * PLAYERS_PER_CLUB]
        suffixes = {}
        if n == 3:
            people[-1], suffixes = twin, {twin: "Pretoria"}
        ranks = club_ranks(rng, PLAYERS_PER_CLUB, -25, 3)
        members[spec.slug] = make_players(
            rng, club, people, ranks, start, founders=15, id_base=1000 + 200 * n, suffixes=suffixes
        )
    players = [p for group in members.values() for p in group]
    Player.objects.bulk_create([p.model for p in players])

    plans: list[Plan] = []
    for spec, club in zip(SAGC_CLUBS, clubs, strict=True):
        visitors = [
            (p, VISIT_NEAR if other.region == spec.region else VISIT_FAR)
            for other in SAGC_CLUBS
            if other != spec
            for p in members[other.slug]
        ]
        plans += club_nights(rng, club, spec.weekday, members[spec.slug], visitors, start, today)
    by_slug = {club.slug: club for club in clubs}
    for offset, host in OPENS:
        saturday = first_weekday(start + timedelta(days=offset), 5)
        if saturday + timedelta(days=1) >= today:
            continue
        entrants = [p for p in players if p.model.since <= saturday and rng.random() < 0.6]
        plans.append(
            tournament_weekend(rng, by_slug[host], f"South African Open {saturday.year}", saturday, entrants)
        )
    plans += internet_league(rng, clubs[0], players, start, today)

    enterer = _enterer(committee, volunteers)
    games = store.write_sheets(rng, plans, start, enterer)
    store.correct_komi(rng, games, lambda game: volunteers[game.club_id])
    store.promote_improvers(rng, rating_list, players, start, today, committee)
    store.set_last_updated(players, games)
    return rating_list, players, games


def _ladder(rng: random.Random, start: date, today: date, user: MakeUser) -> RatingList:
    """A town ladder on the West Surrey system: one club, fortnightly nights."""
    rating_list = RatingList.objects.create(
        name="Guildford Ladder", slug=LADDER_SLUG, primary_system="west-surrey"
    )
    club = Club.objects.create(rating_list=rating_list, name=LADDER_CLUB.name, slug=LADDER_CLUB.slug)
    committee, volunteers = _memberships(rating_list, [club], user)
    people = names(rng, FIRST_UK, LAST_UK, LADDER_PLAYERS)
    players = make_players(
        rng, club, people, club_ranks(rng, LADDER_PLAYERS, -20, 1), start, founders=10, id_base=None
    )
    Player.objects.bulk_create([p.model for p in players])
    plans = club_nights(
        rng,
        club,
        LADDER_CLUB.weekday,
        players,
        [],
        start,
        today,
        every=14,
        attendance=0.5,
        name="ladder night",
    )
    games = store.write_sheets(rng, plans, start, _enterer(committee, volunteers))
    store.set_last_updated(players, games)
    return rating_list
