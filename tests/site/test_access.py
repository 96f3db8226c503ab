"""Every mutating view (list administration included: lists, clubs, roles,
invitations, player links), every export and the API, against every persona:
anonymous, player, volunteer of club A, volunteer of club B (same
list), committee of list 1, committee of list 2, site admin.

Where a persona does not belong the answer is 403 or 404 (anonymous visitors
are sent to log in), and nothing changed; where it belongs the action works.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from accounts.models import CommitteeMember, Invitation, LinkRequest, Role, Volunteer
from accounts.services import invitations
from ratings import services
from ratings.archive import write_archive
from ratings.committee import import_preview, past_games
from ratings.models import (
    Club,
    Game,
    ImportPreview,
    ListEvaluation,
    LogEntry,
    Player,
    RankAdjustment,
    RankSync,
    RatingList,
    RecordSheet,
)
from ratings.services import player_changes, sheet_changes
from tests.support import PASSWORD, MakePlayer, Personas

PERSONAS = ("anonymous", "player", "volunteer_a", "volunteer_b", "committee_1", "committee_2", "site_admin")
ENTRY = {"volunteer_a", "committee_1", "site_admin"}
COMMITTEE = {"committee_1", "site_admin"}
SITE_ADMIN = {"site_admin"}
#: Logged in and not linked to a player yet (the player persona is).
UNLINKED = {"volunteer_a", "volunteer_b", "committee_1", "committee_2", "site_admin"}


@pytest.fixture
def world(
    personas: Personas, outsiders: dict[str, User], club: Club, make_player: MakePlayer
) -> dict[str, Any]:
    """Club A's list with two players and one saved sheet; the users by persona."""
    alice, bob = make_player("Alice Mokoena", rank=-5), make_player("Bob Smit", rank=-8)
    sheet = services.save_sheet(
        club=club,
        date=date.today() - timedelta(days=3),
        rows=[services.GameRow(white=alice, black=bob, winner="white")],
    )
    # List administration: a second committee member of list 1, an
    # invitation waiting, and a user asking to be Bob.
    treasurer = User.objects.create_user("treasurer", "t@example.org", PASSWORD)
    CommitteeMember.objects.create(user=treasurer, rating_list=club.rating_list)
    invitation, _ = invitations.invite("new@example.org", Role.VOLUNTEER, club.rating_list, club, None)
    claimant = User.objects.create_user("claimant", "c@example.org", PASSWORD)
    link_request = LinkRequest.objects.create(user=claimant, player=bob)
    gone = services.save_sheet(
        club=club,
        date=date.today() - timedelta(days=5),
        rows=[services.GameRow(white=bob, black=alice, winner="black")],
    )
    deleted = sheet_changes.delete_sheet(gone)  # for "restore a deleted sheet"
    merged = player_changes.merge_players(make_player("Eve Extra", rank=-8), bob)  # for "undo a merge"
    users = {
        "anonymous": None,
        "player": personas["player"],
        "volunteer_a": personas["volunteer"],
        "volunteer_b": outsiders["volunteer_b"],
        "committee_1": personas["committee"],
        "committee_2": outsiders["committee_2"],
        "site_admin": outsiders["site_admin"],
    }
    return {
        "club": club,
        "alice": alice,
        "bob": bob,
        "sheet": sheet,
        "game": sheet.games.get(),
        "deleted": deleted,
        "merged": merged,
        "dan": make_player("Dan Duplicate", rank=-5),
        "users": users,
        "treasurer_seat": CommitteeMember.objects.get(user=treasurer),
        "volunteer_seat": Volunteer.objects.get(user=personas["volunteer"]),
        "invitation": invitation,
        "link_request": link_request,
        # A tournament file uploaded and previewed, waiting for "Save".
        "preview": import_preview.preview_import(club, TOURNAMENT_CSV, filename="games.csv"),
        # Past games from another system, previewed, waiting for "Save".
        "past_preview": past_games.preview_past_games(club.rating_list, PAST_CSV, filename="past.csv"),
    }


def client_as(world: dict[str, Any], persona: str) -> Client:
    client = Client()
    user = world["users"][persona]
    if user is not None:
        client.force_login(user)
    return client


def snapshot() -> tuple[Any, ...]:
    """What any of the actions would change."""
    return (
        sorted(Game.objects.values_list("id", "date", "winner", "komi", "handicap")),
        RecordSheet.objects.count(),
        RankAdjustment.objects.count(),
        sorted(Player.objects.values_list("id", "name", "rank", "user_id")),
        RankSync.objects.count(),
        ImportPreview.objects.count(),
        LogEntry.objects.count(),
        sorted(
            RatingList.objects.values_list(
                "id",
                "primary_system",
                "compared_systems",
                "api_token_hash",
                "dirty_from",
                "improbable_below",
                "check_handicap",
            )
        ),
        # List administration.
        sorted(Club.objects.values_list("id", "rating_list_id", "name")),
        sorted(Volunteer.objects.values_list("user_id", "club_id")),
        sorted(CommitteeMember.objects.values_list("user_id", "rating_list_id")),
        sorted(Invitation.objects.values_list("id", "accepted_at")),
        sorted(LinkRequest.objects.values_list("id", "user_id", "player_id", "status")),
        sorted(ListEvaluation.objects.values_list("rating_list", "computed_at")),
    )


@dataclass(frozen=True)
class Action:
    name: str
    allowed: set[str]
    #: (client, world) -> response
    call: Callable[[Client, dict[str, Any]], Any]
    #: A success answers with one of these.
    ok: tuple[int, ...] = (200, 302)
    #: Whether a success changes the stored data (a read, or a recompute of
    #: a list already up to date, does not).
    changes: bool = True


def _sheet(client: Client, w: dict[str, Any]) -> Any:
    return client.post(
        reverse("sheet_new"),
        {
            "club": str(w["club"].pk), "event": "", "date": (date.today() - timedelta(days=1)).isoformat(),
            "kind": "club", "comments": "", "row-0-white": "Bob Smit", "row-0-black": "Alice Mokoena",
            "row-0-handicap": "0", "row-0-komi": "", "row-0-winner": "black", "row-0-date": "",
        },
    )  # fmt: skip


def _edit(client: Client, w: dict[str, Any]) -> Any:
    game = w["game"]
    return client.post(
        reverse("game_edit", args=[game.pk]),
        {
            "date": game.date.isoformat(), "white": game.white.name, "black": game.black.name, "handicap": 0,
            "komi": "7.5", "winner": "white", "kind": "club", "board": 19, "minutes": "", "comments": "",
        },
    )  # fmt: skip


def _add_game(client: Client, w: dict[str, Any]) -> Any:
    row = {"white": "Bob Smit", "black": "Alice Mokoena", "handicap": "0", "komi": "", "winner": "white"}
    return client.post(
        reverse("sheet_add_game", args=[w["sheet"].pk]), {f"row-0-{k}": v for k, v in row.items()}
    )


def _adjust(client: Client, w: dict[str, Any]) -> Any:
    data = {
        "player": w["alice"].pk,
        "date": (date.today() - timedelta(days=1)).isoformat(),
        "rank": "3k",
        "reason": "",
    }
    return client.post(reverse("adjustment_new"), data)


RANKS_CSV = b"name,id,rank\nAlice Mokoena,1001,2k\nBob Smit,1002,8k\n"
TOURNAMENT_CSV = (
    b"date,round,kind,board,white,black,white_rank,black_rank,handicap,komi,winner\n"
    b"2024-05-04,1,tournament,19,Alice Mokoena,Carl Venter,5k,9k,0,6.5,white\n"
)


def _rank_sync(client: Client, w: dict[str, Any]) -> Any:
    upload = SimpleUploadedFile("ranks.csv", RANKS_CSV, content_type="text/csv")
    return client.post(
        reverse("rank_sync_new"), {"rating_list": w["club"].rating_list_id, "file": upload, "format": "csv"}
    )


def _import(client: Client, w: dict[str, Any]) -> Any:
    upload = SimpleUploadedFile("games.csv", TOURNAMENT_CSV, content_type="text/csv")
    return client.post(reverse("tournament_import"), {"club": w["club"].pk, "file": upload, "format": ""})


PAST_CSV = (
    b"date,white,white_rank,black,black_rank,handicap,komi,result,kind,club\n"
    b"2024-05-04,Carl Venter,5k,Dora Nel,9k,4,0.5,white,club,Stellenbosch Go Club\n"
)


def _past_games(client: Client, w: dict[str, Any]) -> Any:
    upload = SimpleUploadedFile("past.csv", PAST_CSV, content_type="text/csv")
    return client.post(reverse("past_games"), {"rating_list": w["club"].rating_list_id, "file": upload})


def _import_list(client: Client, w: dict[str, Any]) -> Any:
    archive = io.BytesIO()
    write_archive(w["club"].rating_list, archive)
    upload = SimpleUploadedFile("sagc.zip", archive.getvalue(), content_type="application/zip")
    return client.post(reverse("list_import"), {"archive": upload, "slug": "sagc-copy"})


def _get(name: str, *args: Any) -> Callable[[Client, dict[str, Any]], Any]:
    return lambda c, w: c.get(reverse(name, args=args))


def _post(
    name: str, *args: Any, data: dict[str, Any] | None = None
) -> Callable[[Client, dict[str, Any]], Any]:
    return lambda c, w: c.post(
        reverse(name, args=[arg(w) if callable(arg) else arg for arg in args]), data or {}
    )


ADMINISTRATION = [
    Action("create a rating list", SITE_ADMIN, _post("list_new", data={"name": "Ladder", "primary_system": "sagc"})),
    Action("create a club of list 1", COMMITTEE, _post("club_new", "sagc", data={"name": "Pretoria Go Club"})),
    Action(
        "invite a volunteer to club A",
        COMMITTEE,
        lambda c, w: c.post(
            reverse("invitations", args=["sagc"]), {"email": "x@example.org", "place": f"club:{w['club'].pk}"}
        ),
    ),
    Action("withdraw an invitation of list 1", COMMITTEE, _post("invitation_withdraw", lambda w: w["invitation"].pk)),
    Action(
        "give a volunteer seat at club A",
        COMMITTEE,
        lambda c, w: c.post(
            reverse("list_members", args=["sagc"]), {"username": "claimant", "place": f"club:{w['club'].pk}"}
        ),
    ),
    Action("take a volunteer seat at club A", COMMITTEE, _post("volunteer_remove", lambda w: w["volunteer_seat"].pk)),
    Action("take a committee seat of list 1", COMMITTEE, _post("committee_remove", lambda w: w["treasurer_seat"].pk)),
    Action(
        "link a user to a player of list 1",
        COMMITTEE,
        lambda c, w: c.post(reverse("link_player", args=["sagc"]), {"player": w["bob"].pk, "username": "claimant"}),
    ),
    Action("unlink a player of list 1", COMMITTEE, _post("unlink_player", "player-one")),
    Action("approve a link request", COMMITTEE, _post("link_request_approve", lambda w: w["link_request"].pk)),
    Action("refuse a link request", COMMITTEE, _post("link_request_refuse", lambda w: w["link_request"].pk)),
    Action("say this is me", UNLINKED, _post("claim_player", lambda w: w["alice"].slug)),
    *(
        Action(f"read the {name} page of list 1", COMMITTEE, _get(name, "sagc"), ok=(200,), changes=False)
        for name in ("list_members", "invitations", "link_requests", "club_new", "list_archive", "list_duplicates")
    ),
    Action(
        "mark two players of list 1 as different people",
        COMMITTEE,
        lambda c, w: c.post(
            reverse("list_duplicates_different", args=["sagc"]), {"first": w["alice"].pk, "second": w["dan"].pk}
        ),
    ),
    Action("download list 1's archive", COMMITTEE, _get("list_archive_download", "sagc"), ok=(200,), changes=False),
    Action("import a list from its archive", SITE_ADMIN, lambda c, w: _import_list(c, w)),
    Action("upload past games for their preview", COMMITTEE, _past_games),
    Action("save a preview of past games", COMMITTEE, _post("past_games_preview", lambda w: w["past_preview"].pk)),
]  # fmt: skip

ACTIONS = [
    *ADMINISTRATION,
    Action("enter a sheet at club A", ENTRY, _sheet),
    Action("correct a game of club A", ENTRY, _edit),
    Action(
        "delete a game of club A", ENTRY, lambda c, w: c.post(reverse("game_delete", args=[w["game"].pk]))
    ),
    Action("add a game to a sheet of club A", ENTRY, _add_game),
    Action(
        "delete a sheet of club A", ENTRY, lambda c, w: c.post(reverse("sheet_delete", args=[w["sheet"].pk]))
    ),
    Action(
        "restore a deleted sheet of club A",
        ENTRY,
        lambda c, w: c.post(reverse("sheet_restore", args=[w["deleted"].pk])),
    ),
    Action(
        "rename a player",
        COMMITTEE,
        lambda c, w: c.post(reverse("player_rename", args=[w["dan"].slug]), {"name": "Dan Du Plessis"}),
    ),
    Action(
        "merge two players",
        COMMITTEE,
        lambda c, w: c.post(reverse("player_merge", args=[w["dan"].slug]), {"kept": w["alice"].pk}),
    ),
    Action("undo a merge", COMMITTEE, lambda c, w: c.post(reverse("player_unmerge", args=[w["merged"].pk]))),
    Action("set a rank adjustment", COMMITTEE, _adjust),
    Action(
        "change the list's systems",
        COMMITTEE,
        lambda c, w: c.post(reverse("list_settings", args=["sagc"]), {"primary_system": "egf"}),
    ),
    Action(
        "recompute the list",
        COMMITTEE,
        lambda c, w: c.post(reverse("recompute_now", args=["sagc"])),
        changes=False,
    ),
    Action(
        "change the checks at entry",
        COMMITTEE,
        lambda c, w: c.post(
            reverse("list_settings", args=["sagc"]),
            {"primary_system": "sagc", "improbable_below": "12", "check_handicap": "on"},
        ),
    ),
    Action(
        "compute which system predicts best",
        COMMITTEE,
        lambda c, w: c.post(reverse("list_predictions_compute", args=["sagc"])),
    ),
    Action(
        "read which system predicts best",
        COMMITTEE,
        lambda c, w: c.get(reverse("list_predictions", args=["sagc"])),
        ok=(200,),
        changes=False,
    ),
    Action("upload a rank list", COMMITTEE, _rank_sync),
    Action("upload a tournament for its preview", COMMITTEE, _import),
    Action(
        "read a tournament's preview",
        COMMITTEE,
        lambda c, w: c.get(reverse("tournament_import_preview", args=[w["preview"].pk])),
        ok=(200,),
        changes=False,
    ),
    Action(
        "save a previewed tournament",
        COMMITTEE,
        lambda c, w: c.post(reverse("tournament_import_preview", args=[w["preview"].pk])),
    ),
    Action("make an API token", COMMITTEE, lambda c, w: c.post(reverse("export_token"), {"list": "sagc"})),
    Action(
        "export the list's games",
        COMMITTEE,
        lambda c, w: c.get(reverse("export"), {"rating_list": w["club"].rating_list_id, "format": "csv"}),
        ok=(200,),
        changes=False,
    ),
    Action(
        "read the API",
        COMMITTEE,
        lambda c, w: c.get(reverse("api_games"), {"list": "sagc"}),
        ok=(200,),
        changes=False,
    ),
]


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize("action", ACTIONS, ids=[a.name for a in ACTIONS])
def test_each_persona_may_do_only_what_its_role_allows_where_it_holds_it(
    world: dict[str, Any], action: Action, persona: str
) -> None:
    before = snapshot()
    response = action.call(client_as(world, persona), world)
    if persona in action.allowed:
        assert response.status_code in action.ok, response.content.decode()[:3000]
        if action.changes:
            assert snapshot() != before, (
                f"{persona}: {action.name} answered {response.status_code} but changed nothing"
            )
        return
    if persona == "anonymous":
        assert response.status_code in (302, 401), response.status_code
        if response.status_code == 302:
            assert response["Location"].startswith(reverse("login"))
    else:
        assert response.status_code in (403, 404), (persona, response.status_code)
    assert snapshot() == before, f"{persona} changed something with: {action.name}"


def test_a_committee_member_of_another_list_cannot_adjust_this_lists_players(world: dict[str, Any]) -> None:
    response = _adjust(client_as(world, "committee_2"), world)
    assert response.status_code == 403
    assert not RankAdjustment.objects.exists()


def test_the_api_token_is_stored_as_its_hash_and_reads_only_its_list(
    world: dict[str, Any], other_list: RatingList
) -> None:
    client = client_as(world, "committee_1")
    client.post(reverse("export_token"), {"list": "sagc"})
    page = client.get(reverse("export")).content.decode()
    token = page.split('<code class="token">')[1].split("</code>")[0]
    stored = RatingList.objects.get(slug="sagc").api_token_hash
    assert stored == hashlib.sha256(token.encode()).hexdigest() and token not in stored
    anonymous = Client()
    assert anonymous.get(reverse("api_games"), HTTP_AUTHORIZATION=f"Token {token}").status_code == 200
    other = anonymous.get(reverse("api_games"), {"list": "guildford"}, HTTP_AUTHORIZATION=f"Token {token}")
    assert other.status_code == 403
    assert "copy it now" not in client.get(reverse("export")).content.decode(), "the token is shown once"


def test_roles_are_per_place_and_one_user_may_hold_several(
    world: dict[str, Any], other_club: Club, other_list: RatingList
) -> None:
    user = world["users"]["volunteer_b"]
    assert _sheet(client_as(world, "volunteer_b"), world).status_code == 403
    Volunteer.objects.create(user=user, club=world["club"])
    assert _sheet(client_as(world, "volunteer_b"), world).status_code == 302
    assert _adjust(client_as(world, "volunteer_b"), world).status_code == 403
    CommitteeMember.objects.create(user=user, rating_list=world["club"].rating_list)
    assert _adjust(client_as(world, "volunteer_b"), world).status_code == 302
