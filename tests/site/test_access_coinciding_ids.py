"""Access checks from both sides, with ids made to coincide (issue 29).

A check that compares the wrong id (a list's id where a club's is meant, a
player's id where its list's is meant) still lets the rightful persona in
whenever the two ids happen to be equal, and it lets a stranger in whenever
the stranger's place has the id it wrongly compares.  Small test databases
number everything 1, 2, 3..., so such a bug can pass the persona tests.

Here every guarded object has its own id (list 700, club 701, player 702,
sheet 703, game 704, rank sync 705, the seats and invitation 706-708), and the
stranger volunteers at clubs and sits on the committees of lists numbered
like every one of them (but the target club and list themselves).  Every
access helper must let the rightful persona in and refuse the stranger."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.core.management.color import no_style
from django.db import connection
from django.db.models import Model

from accounts import access as account_access
from accounts.models import CommitteeMember, Invitation, Volunteer
from ratings import access
from ratings.models import Club, Game, Player, RankSync, RatingList, RecordSheet
from tests.support import NO_ENTRY_CHECKS, PASSWORD

pytestmark = pytest.mark.django_db

LIST, CLUB, PLAYER, SHEET, GAME, SYNC, SEAT, COMMITTEE_SEAT, INVITATION = range(700, 709)
ALL = (LIST, CLUB, PLAYER, SHEET, GAME, SYNC, SEAT, COMMITTEE_SEAT, INVITATION)


def _user(name: str) -> User:
    return User.objects.create_user(name, f"{name}@example.org", PASSWORD)


def _past_the_chosen_ids(*models: type[Model]) -> None:
    """Move the tables' id sequences past the rows made with chosen ids (as
    loaddata does), so that a row made afterwards never draws one of them:
    PostgreSQL's sequences do not see ids given by hand (SQLite needs nothing)."""
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), list(models)):
            cursor.execute(sql)


@pytest.fixture
def place() -> dict[str, Any]:
    """The guarded objects (ids above), their rightful volunteer and
    committee member, and the stranger whose places are numbered like them.
    Every row with a chosen id is made first, the rows numbered by the
    database after them."""
    target = RatingList.objects.create(pk=LIST, name="Target list", slug="target", **NO_ENTRY_CHECKS)
    club = Club.objects.create(pk=CLUB, rating_list=target, name="Target club", slug="target-club")
    white = Player.objects.create(
        pk=PLAYER,
        name="Ann White",
        slug="ann-white",
        rating_list=target,
        home_club=club,
        start_rank=-10,
        rank=-10,
    )
    sheet = RecordSheet.objects.create(pk=SHEET, club=club, date=date(2025, 3, 1))
    RankSync.objects.create(pk=SYNC, rating_list=target, format="egd")
    volunteer, committee, stranger = (
        _user("rightful-volunteer"),
        _user("rightful-committee"),
        _user("stranger"),
    )
    Volunteer.objects.create(pk=SEAT, user=volunteer, club=club)
    CommitteeMember.objects.create(pk=COMMITTEE_SEAT, user=committee, rating_list=target)
    Invitation.objects.create(
        pk=INVITATION,
        email="new@example.org",
        role="volunteer",
        rating_list=target,
        club=club,
        token_hash="x" * 64,
    )
    # The stranger's places: a list of every id but the target list's, a club of every id but the target club's.
    elsewhere = [
        RatingList.objects.create(pk=pk, name=f"List {pk}", slug=f"list-{pk}", **NO_ENTRY_CHECKS)
        for pk in ALL
        if pk != LIST
    ]
    home = RatingList.objects.get(pk=CLUB)
    decoys = [
        Club.objects.create(pk=pk, rating_list=home, name=f"Club {pk}", slug=f"club-{pk}")
        for pk in ALL
        if pk != CLUB
    ]
    _past_the_chosen_ids(
        RatingList, Club, Player, RecordSheet, RankSync, Volunteer, CommitteeMember, Invitation
    )
    black = Player.objects.create(
        name="Bob Black", slug="bob-black", rating_list=target, home_club=club, start_rank=-10, rank=-10
    )
    Game.objects.create(
        pk=GAME, club=club, sheet=sheet, date=date(2025, 3, 1), white=white, black=black, winner="white"
    )
    _past_the_chosen_ids(Game)
    CommitteeMember.objects.bulk_create(
        CommitteeMember(user=stranger, rating_list=place) for place in elsewhere
    )
    Volunteer.objects.bulk_create(Volunteer(user=stranger, club=decoy) for decoy in decoys)
    return {"club": club, "volunteer": volunteer, "committee": committee, "stranger": stranger}


#: Each access helper with what it guards: (name, who may, the call).
HELPERS: list[tuple[str, tuple[str, ...], Callable[[Any, dict[str, Any]], object]]] = [
    ("club_for_entry", ("volunteer", "committee"), lambda user, p: access.club_for_entry(user, p["club"])),
    ("sheet_for_editing", ("volunteer", "committee"), lambda user, p: access.sheet_for_editing(user, SHEET)),
    ("game_for_editing", ("volunteer", "committee"), lambda user, p: access.game_for_editing(user, GAME)),
    (
        "rating_list_for_committee",
        ("committee",),
        lambda user, p: access.rating_list_for_committee(user, "target"),
    ),
    ("player_for_committee", ("committee",), lambda user, p: access.player_for_committee(user, "ann-white")),
    ("rank_sync_for_committee", ("committee",), lambda user, p: access.rank_sync_for_committee(user, SYNC)),
    (
        "volunteer_seat_for_committee",
        ("committee",),
        lambda user, p: account_access.volunteer_seat_for_committee(user, SEAT),
    ),
    (
        "committee_seat_for_committee",
        ("committee",),
        lambda user, p: account_access.committee_seat_for_committee(user, COMMITTEE_SEAT),
    ),
    (
        "invitation_for_committee",
        ("committee",),
        lambda user, p: account_access.invitation_for_committee(user, INVITATION),
    ),
]


@pytest.mark.parametrize(("name", "allowed", "call"), HELPERS, ids=[h[0] for h in HELPERS])
def test_the_rightful_persona_is_let_in_and_a_stranger_with_coinciding_ids_is_not(
    place: dict[str, Any], name: str, allowed: tuple[str, ...], call: Callable[[Any, dict[str, Any]], object]
) -> None:
    for persona in allowed:
        assert call(place[persona], place) is not None, f"{name}: the rightful {persona} was refused"
    with pytest.raises(PermissionDenied):
        call(place["stranger"], place)
    for persona in {"volunteer", "committee"} - set(allowed):
        with pytest.raises(PermissionDenied):
            call(place[persona], place)
