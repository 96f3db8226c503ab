"""Invitations by e-mail: the committee invites to a role; the
link works once, for 14 days; a newcomer sets a password, someone already
on the site accepts while logged in."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import CommitteeMember, Invitation, Volunteer
from ratings.models import Club, RatingList
from tests.support import PASSWORD, ClientFor, Personas


def invite(client: Client, email: str, place: str, slug: str = "sagc") -> str:
    """Send an invitation; return the link from the e-mail."""
    before = len(mail.outbox)
    response = client.post(reverse("invitations", args=[slug]), {"email": email, "place": place})
    assert response.status_code == 302, response.content.decode()[:2000]
    assert len(mail.outbox) == before + 1
    message = mail.outbox[-1]
    assert message.to == [email]
    found = re.search(r"http://testserver(/accounts/invitations/[^/\s]+/)", str(message.body))
    assert found, message.body
    return found.group(1)


@pytest.fixture
def committee(client_for: ClientFor) -> Client:
    return client_for("committee")


def test_a_newcomer_sets_a_password_and_becomes_a_volunteer_of_the_club(
    committee: Client, club: Club
) -> None:
    link = invite(committee, "thandi@example.org", f"club:{club.pk}")
    newcomer = Client()
    page = newcomer.get(link)
    assert page.status_code == 200 and "volunteer at Stellenbosch Go Club" in page.content.decode()
    response = newcomer.post(link, {"username": "thandi", "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("my_places")
    user = User.objects.get(username="thandi")
    assert user.email == "thandi@example.org" and user.check_password(PASSWORD)
    assert Volunteer.objects.filter(user=user, club=club).exists()
    assert newcomer.get(reverse("my_places")).status_code == 200, "logged in at once"
    assert b"Stellenbosch Go Club" in newcomer.get(reverse("my_places")).content


def test_the_link_works_once(committee: Client, club: Club) -> None:
    link = invite(committee, "thandi@example.org", f"club:{club.pk}")
    Client().post(link, {"username": "thandi", "password1": PASSWORD, "password2": PASSWORD})
    again = Client().post(link, {"username": "mallory", "password1": PASSWORD, "password2": PASSWORD})
    assert again.status_code == 410 and "already used" in again.content.decode()
    assert not User.objects.filter(username="mallory").exists()


def test_the_link_expires_after_fourteen_days(committee: Client, club: Club) -> None:
    link = invite(committee, "thandi@example.org", f"club:{club.pk}")
    with time_machine.travel(timezone.now() + timedelta(days=14, minutes=1)):
        response = Client().post(link, {"username": "thandi", "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 410 and "expired" in response.content.decode()
    assert not User.objects.filter(username="thandi").exists()
    with time_machine.travel(timezone.now() + timedelta(days=13)):
        assert Client().get(link).status_code == 200


def test_only_a_hash_of_the_token_is_stored(committee: Client, club: Club) -> None:
    link = invite(committee, "thandi@example.org", f"club:{club.pk}")
    token = link.rstrip("/").rsplit("/", 1)[1]
    stored = Invitation.objects.get().token_hash
    assert token not in stored and len(stored) == 64


def test_an_unknown_token_is_not_found(db: None) -> None:
    assert Client().get(reverse("invitation_accept", args=["not-a-token"])).status_code == 404


def test_a_bad_password_keeps_the_link_usable(committee: Client, club: Club) -> None:
    link = invite(committee, "thandi@example.org", f"club:{club.pk}")
    response = Client().post(link, {"username": "thandi", "password1": "123", "password2": "123"})
    assert response.status_code == 400
    assert not User.objects.filter(username="thandi").exists()
    assert Invitation.objects.get().accepted_at is None


def test_someone_on_the_site_accepts_while_logged_in(
    committee: Client, personas: Personas, rating_list: RatingList
) -> None:
    link = invite(committee, "volunteer@example.org", "committee")
    client = Client()
    anonymous_page = client.get(link).content.decode()
    assert "already exists" in anonymous_page, "an address already known is told to log in"
    client.force_login(personas["volunteer"])
    assert "Accept" in client.get(link).content.decode()
    assert client.post(link).status_code == 302
    assert CommitteeMember.objects.filter(user=personas["volunteer"], rating_list=rating_list).exists()
    invitation = Invitation.objects.get()
    assert invitation.accepted_by == personas["volunteer"] and invitation.accepted_at is not None


def test_the_committee_invites_only_to_places_of_its_list(committee: Client, other_list: RatingList) -> None:
    guildford = other_list.clubs.get()
    response = committee.post(
        reverse("invitations", args=["sagc"]), {"email": "x@example.org", "place": f"club:{guildford.pk}"}
    )
    assert response.status_code == 400 and not Invitation.objects.exists() and not mail.outbox


def test_a_bad_address_is_named(committee: Client, club: Club) -> None:
    response = committee.post(reverse("invitations", args=["sagc"]), {"email": "nope", "place": "committee"})
    assert response.status_code == 400 and "valid email" in response.content.decode()


def test_a_withdrawn_invitation_no_longer_works(committee: Client, club: Club) -> None:
    link = invite(committee, "thandi@example.org", f"club:{club.pk}")
    committee.post(reverse("invitation_withdraw", args=[Invitation.objects.get().pk]))
    assert Client().get(link).status_code == 404


def test_the_invitations_page_lists_waiting_and_accepted_ones(committee: Client, club: Club) -> None:
    link = invite(committee, "thandi@example.org", f"club:{club.pk}")
    invite(committee, "sipho@example.org", "committee")
    Client().post(link, {"username": "thandi", "password1": PASSWORD, "password2": PASSWORD})
    page = committee.get(reverse("invitations", args=["sagc"])).content.decode()
    waiting, _, past = page.split("<h2>Waiting</h2>")[1].partition("Accepted or expired")
    assert "sipho@example.org" in waiting and "thandi@example.org" not in waiting
    assert "accepted by thandi" in past
