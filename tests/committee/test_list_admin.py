"""List administration in the browser: the site admin creates
lists; a list's committee creates its clubs, gives and takes roles (keeping
one committee member), and links users to players."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from accounts.models import CommitteeMember, LinkRequest, Volunteer
from ratings.models import Club, Player, RatingList
from tests.support import PASSWORD, ClientFor, MakePlayer, Personas, committee_of


def test_the_site_admin_creates_a_list_with_its_system(outsiders: dict[str, User]) -> None:
    client = Client()
    client.force_login(outsiders["site_admin"])
    response = client.post(reverse("list_new"), {"name": "Gauteng  Ladder", "primary_system": "egf"})
    created = RatingList.objects.get(name="Gauteng Ladder")
    assert response.status_code == 302 and response["Location"] == created.get_absolute_url()
    assert (created.slug, created.primary_system) == ("gauteng-ladder", "egf")


def test_a_list_name_is_unique_whatever_its_case(outsiders: dict[str, User]) -> None:
    client = Client()
    client.force_login(outsiders["site_admin"])
    response = client.post(reverse("list_new"), {"name": "south african go clubs", "primary_system": "sagc"})
    assert response.status_code == 200 and "already a list named" in response.content.decode()
    assert RatingList.objects.count() == 2


def test_the_word_new_is_never_a_slug_so_the_new_list_page_stays_reachable(
    outsiders: dict[str, User],
) -> None:
    client = Client()
    client.force_login(outsiders["site_admin"])
    client.post(reverse("list_new"), {"name": "New", "primary_system": "sagc"})
    assert RatingList.objects.get(name="New").slug == "new-2"
    assert client.get("/lists/new/").status_code == 200


def test_the_committee_creates_a_club_whose_slug_comes_from_its_name(
    client_for: ClientFor, rating_list: RatingList, other_list: RatingList
) -> None:
    client = client_for("committee")
    response = client.post(reverse("club_new", args=["sagc"]), {"name": "Johannesburg Go Club"})
    assert response.status_code == 302
    club = Club.objects.get(name="Johannesburg Go Club")
    assert (club.rating_list, club.slug) == (rating_list, "johannesburg-go-club")


def test_a_club_name_is_unique_in_its_list_and_a_taken_slug_gets_a_number(
    client_for: ClientFor, other_list: RatingList
) -> None:
    client = client_for("committee")
    again = client.post(reverse("club_new", args=["sagc"]), {"name": "stellenbosch go club"})
    assert again.status_code == 200 and "already has a club named" in again.content.decode()
    client.post(reverse("club_new", args=["sagc"]), {"name": "Guildford Club"})
    assert Club.objects.get(rating_list__slug="sagc", name="Guildford Club").slug == "guildford-club-2"


def test_the_committee_gives_and_takes_a_volunteer_seat(
    client_for: ClientFor, personas: Personas, other_club: Club
) -> None:
    client = client_for("committee")
    response = client.post(
        reverse("list_members", args=["sagc"]), {"username": "player", "place": f"club:{other_club.pk}"}
    )
    assert response.status_code == 302
    seat = Volunteer.objects.get(user=personas["player"], club=other_club)
    assert seat.granted_by == personas["committee"]
    client.post(reverse("volunteer_remove", args=[seat.pk]))
    assert not Volunteer.objects.filter(pk=seat.pk).exists()


def test_giving_a_role_to_an_unknown_user_says_to_invite_them(client_for: ClientFor, club: Club) -> None:
    response = client_for("committee").post(
        reverse("list_members", args=["sagc"]), {"username": "nobody", "place": "committee"}
    )
    assert response.status_code == 400 and "invitation" in response.content.decode()


def test_a_list_keeps_its_last_committee_member(
    client_for: ClientFor, personas: Personas, rating_list: RatingList
) -> None:
    client = client_for("committee")
    seat = CommitteeMember.objects.get(user=personas["committee"], rating_list=rating_list)
    response = client.post(reverse("committee_remove", args=[seat.pk]), follow=True)
    assert "last committee member" in response.content.decode()
    assert CommitteeMember.objects.filter(pk=seat.pk).exists()


def test_a_committee_member_may_leave_once_another_sits(
    client_for: ClientFor, personas: Personas, rating_list: RatingList
) -> None:
    client = client_for("committee")
    client.post(reverse("list_members", args=["sagc"]), {"username": "volunteer", "place": "committee"})
    seat = CommitteeMember.objects.get(user=personas["committee"], rating_list=rating_list)
    client.post(reverse("committee_remove", args=[seat.pk]))
    assert list(rating_list.committee.values_list("user__username", flat=True)) == ["volunteer"]
    assert client.get(reverse("list_members", args=["sagc"])).status_code == 403, "the role is gone at once"


def test_the_members_page_shows_every_role_of_the_list_and_no_other(
    client_for: ClientFor, outsiders: dict[str, User]
) -> None:
    page = client_for("committee").get(reverse("list_members", args=["sagc"])).content.decode()
    assert "volunteer-b" in page and "Cape Town Go Club" in page and ">volunteer<" in page.replace(" ", "")
    assert "committee-2" not in page, "another list's committee is not this list's business"


def test_the_committee_links_a_user_to_a_player_and_unlinks_them(
    client_for: ClientFor, make_player: MakePlayer, club: Club
) -> None:
    newcomer = User.objects.create_user("sipho", "s@example.org", PASSWORD)
    sipho = make_player("Sipho Dlamini")
    client = client_for("committee")
    assert (
        client.post(
            reverse("link_player", args=["sagc"]), {"player": sipho.pk, "username": "sipho"}
        ).status_code
        == 302
    )
    sipho.refresh_from_db()
    assert sipho.user == newcomer
    client.post(reverse("unlink_player", args=[sipho.slug]))
    sipho.refresh_from_db()
    assert sipho.user is None


def test_a_user_is_linked_to_one_player_only(
    client_for: ClientFor, make_player: MakePlayer, personas: Personas
) -> None:
    sipho = make_player("Sipho Dlamini")
    response = client_for("committee").post(
        reverse("link_player", args=["sagc"]), {"player": sipho.pk, "username": "player"}
    )
    assert response.status_code == 400 and "already linked" in response.content.decode()
    assert Player.objects.get(pk=sipho.pk).user is None


def test_a_user_who_plays_in_two_lists_has_a_record_sheet_in_each(
    client_for: ClientFor, make_player: MakePlayer, personas: Personas, other_list: RatingList
) -> None:
    """One player per list and account; "My record sheet" offers both."""
    from django.db import IntegrityError, transaction

    player_user = personas["player"]
    own = Player.objects.get(user=player_user)
    ladder = make_player("Player One", club=other_list.clubs.get(), slug="player-one-guildford")
    me = client_for("player")
    assert "This is me" in me.get(ladder.get_absolute_url()).content.decode(), "not linked in that list yet"
    assert "This is me" not in me.get(make_player("Sipho Dlamini").get_absolute_url()).content.decode()
    assert me.post(reverse("claim_player", args=[ladder.slug])).status_code == 302
    committee_2 = Client()
    committee_2.force_login(committee_of(User.objects.create_user("committee-2"), other_list))
    committee_2.post(reverse("link_request_approve", args=[LinkRequest.objects.get(player=ladder).pk]))
    assert (
        Player.objects.get(pk=ladder.pk).user == player_user
        and Player.objects.get(pk=own.pk).user == player_user
    )

    choice = me.get(reverse("my_sheet"))
    assert choice.status_code == 200
    page = choice.content.decode()
    assert own.get_absolute_url() in page and ladder.get_absolute_url() in page
    assert "Guildford Ladder" in page
    places = me.get(reverse("my_places")).content.decode()
    assert own.get_absolute_url() in places and ladder.get_absolute_url() in places

    # Still one per list: the database says so too.
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.filter(pk=make_player("Sipho Dlamini 2", slug="sipho-2").pk).update(user=player_user)


def test_this_is_me_asks_the_committee_which_approves(
    client_for: ClientFor, make_player: MakePlayer, personas: Personas
) -> None:
    sipho = make_player("Sipho Dlamini")
    user = User.objects.create_user("sipho", "s@example.org", PASSWORD)
    me = Client()
    me.force_login(user)
    assert "This is me" in me.get(sipho.get_absolute_url()).content.decode()
    assert me.post(reverse("claim_player", args=[sipho.slug])).status_code == 302
    asked = LinkRequest.objects.get(user=user, player=sipho)
    committee = client_for("committee")
    waiting = committee.get(reverse("link_requests", args=["sagc"])).content.decode()
    assert "sipho" in waiting and "Sipho Dlamini" in waiting
    committee.post(reverse("link_request_approve", args=[asked.pk]))
    asked.refresh_from_db()
    assert asked.status == "approved" and asked.decided_by == personas["committee"]
    assert Player.objects.get(pk=sipho.pk).user == user
    assert me.get(reverse("my_sheet")).status_code in (200, 302)
    assert "This is me" not in me.get(sipho.get_absolute_url()).content.decode()


def test_a_refused_request_links_nobody_and_the_user_may_ask_again(
    client_for: ClientFor, make_player: MakePlayer
) -> None:
    sipho = make_player("Sipho Dlamini")
    user = User.objects.create_user("sipho", "s@example.org", PASSWORD)
    me = Client()
    me.force_login(user)
    me.post(reverse("claim_player", args=[sipho.slug]))
    asked = LinkRequest.objects.get()
    client_for("committee").post(reverse("link_request_refuse", args=[asked.pk]))
    assert LinkRequest.objects.get().status == "refused" and Player.objects.get(pk=sipho.pk).user is None
    me.post(reverse("claim_player", args=[sipho.slug]))
    assert LinkRequest.objects.filter(status="pending").count() == 1


def test_one_open_request_at_a_time(make_player: MakePlayer, club: Club) -> None:
    first, second = make_player("Sipho Dlamini"), make_player("Sipho Other")
    user = User.objects.create_user("sipho", "s@example.org", PASSWORD)
    me = Client()
    me.force_login(user)
    me.post(reverse("claim_player", args=[first.slug]))
    response = me.post(reverse("claim_player", args=[second.slug]), follow=True)
    assert "already asked" in response.content.decode()
    assert LinkRequest.objects.count() == 1


def test_a_request_is_answered_once(client_for: ClientFor, make_player: MakePlayer) -> None:
    sipho = make_player("Sipho Dlamini")
    user = User.objects.create_user("sipho", "s@example.org", PASSWORD)
    asked = LinkRequest.objects.create(user=user, player=sipho)
    client = client_for("committee")
    client.post(reverse("link_request_refuse", args=[asked.pk]))
    response = client.post(reverse("link_request_approve", args=[asked.pk]), follow=True)
    assert "already answered" in response.content.decode()
    assert Player.objects.get(pk=sipho.pk).user is None


def test_the_list_and_club_pages_show_the_committee_its_management_links(
    client_for: ClientFor, club: Club
) -> None:
    committee, volunteer = client_for("committee"), client_for("volunteer")
    links = [
        reverse(name, args=["sagc"]) for name in ("list_members", "invitations", "link_requests", "club_new")
    ]
    list_page = committee.get(reverse("rating_list", args=["sagc"])).content.decode()
    assert all(link in list_page for link in links)
    assert not any(
        link in volunteer.get(reverse("rating_list", args=["sagc"])).content.decode() for link in links
    )
    club_page = committee.get(reverse("club", args=[club.slug])).content.decode()
    assert f"{reverse('invitations', args=['sagc'])}?place=club:{club.pk}" in club_page


def test_my_places_is_in_the_menu_of_users_with_roles_and_lists_them(
    client_for: ClientFor, club: Club
) -> None:
    page = client_for("volunteer").get(reverse("my_places")).content.decode()
    assert 'href="/accounts/places/"' in page and "Stellenbosch Go Club" in page
    assert 'href="/accounts/places/"' not in client_for("player").get(reverse("home")).content.decode()


def test_a_committee_cannot_link_a_player_of_another_list_through_its_own(
    outsiders: dict[str, User], make_player: MakePlayer
) -> None:
    sipho = make_player("Sipho Dlamini")
    client = Client()
    client.force_login(outsiders["committee_2"])
    response = client.post(
        reverse("link_player", args=["guildford"]), {"player": sipho.pk, "username": "volunteer"}
    )
    assert response.status_code == 403
    assert Player.objects.get(pk=sipho.pk).user is None


def test_a_committee_cannot_give_a_seat_at_another_lists_club_through_its_own(
    outsiders: dict[str, User], club: Club
) -> None:
    client = Client()
    client.force_login(outsiders["committee_2"])
    response = client.post(
        reverse("list_members", args=["guildford"]), {"username": "player", "place": f"club:{club.pk}"}
    )
    assert response.status_code == 400
    assert not Volunteer.objects.filter(club=club, user__username="player").exists()
