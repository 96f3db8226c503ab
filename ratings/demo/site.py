"""The demo site: its two lists, their clubs and players, the record sheets,
and the demo users, one per role and place (a volunteer of each club, the
committee of each list, a player linked to a player, a site admin).

What the lists hold is planned first, without a database
(ratings/demo/history.py); this module makes the users and writes the plan.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime

from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User

from accounts.models import CommitteeMember, Volunteer
from ratings.demo import store
from ratings.demo.history import LADDER_CLUB, LADDER_SLUG, SAGC_CLUBS, SAGC_SLUG, ListPlan, plan_demo
from ratings.demo.sheets import Plan
from ratings.models import Club, Game, RatingList

MakeUser = Callable[..., User]

ADMIN, PLAYER = "admin", "player"


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


def build(rng: random.Random, password: str, today: date | None = None, now: datetime | None = None) -> Demo:
    """The demo of :func:`history.plan_demo` (two years up to ``today``), written."""
    history = plan_demo(rng, today, now)
    hashed = make_password(password)  # hashed once: a hash takes ~0.5 s
    roles: list[tuple[str, str]] = []

    def user(username: str, role: str, **extra: bool) -> User:
        roles.append((username, role))
        return User.objects.create(
            username=username, email=f"{username}@example.org", password=hashed, **extra
        )

    user(ADMIN, "site administrator (superuser): creates lists", is_superuser=True, is_staff=True)
    for plan in history.lists():
        _write(plan, user)

    # The player: one who visits other clubs, so their one record sheet holds games of several.
    sagc = history.sagc
    clubs_of: dict[int, set[int]] = {}
    for game in sagc.games:
        for pid in (game.white_id, game.black_id):
            clubs_of.setdefault(pid, set()).add(game.club_id)
    linked = min(
        sagc.players,
        key=lambda p: (-len(clubs_of.get(p.model.pk, ())), abs(p.model.start_rank + 12), p.model.name),
    ).model
    linked.user = user(PLAYER, f"linked to the player {linked} ({linked.home_club})")
    linked.save(update_fields=["user"])
    return Demo([plan.rating_list for plan in history.lists()], roles)


def _write(plan: ListPlan, user: MakeUser) -> None:
    """One list: saved with its clubs, its committee and volunteers, then its games."""
    plan.rating_list.save()
    for club in plan.clubs:
        club.save()
    committee, volunteers = _memberships(plan.rating_list, plan.clubs, user)

    def enterer(sheet_plan: Plan) -> User:
        return committee if sheet_plan.by_committee else volunteers[sheet_plan.club.pk]

    def fixer(game: Game) -> User:
        return volunteers[game.club_id]

    store.write_list(plan, enterer, fixer, committee)


def _memberships(rating_list: RatingList, clubs: list[Club], user: MakeUser) -> tuple[User, dict[int, User]]:
    committee = user(committee_name(rating_list.slug), f"committee of {rating_list}")
    CommitteeMember.objects.create(user=committee, rating_list=rating_list)
    volunteers = {}
    for club in clubs:
        volunteers[club.pk] = user(volunteer_name(club.slug), f"volunteer at {club}")
        Volunteer.objects.create(user=volunteers[club.pk], club=club, granted_by=committee)
    return committee, volunteers
