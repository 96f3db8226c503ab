"""Notice of changes: a record sheet's Atom feed (new results, results a
late game changed, with the reason) and the e-mail a player's user can ask
for: off by default, at most one a recompute, with the explanations'
links, none after a one-click unsubscribe; turned on and off by the
player's own account only."""

from __future__ import annotations

import re
from datetime import date, timedelta
from xml.etree import ElementTree

import pytest
from django.contrib.auth.models import User
from django.core import mail as outbox
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from ratings import services
from ratings.engine import SYSTEM_LABELS
from ratings.models import ChangeNotice, Club, Player, RecomputeRun, ResultChange
from ratings.notices import mail
from ratings.recompute import recompute_list
from tests.support import PASSWORD, ClientFor, MakePlayer, refused_as

ATOM = "{http://www.w3.org/2005/Atom}"


def play(club: Club, day: date, *pairs: tuple[Player, Player]) -> None:
    rows = [services.GameRow(white=white, black=black, winner="white") for white, black in pairs]
    services.save_sheet(club=club, date=day, rows=rows)
    recompute_list(club.rating_list_id)


@pytest.fixture
def ann(club: Club, make_player: MakePlayer) -> Player:
    """Ann (linked to a user with an e-mail address) has played Bob twice."""
    user = User.objects.create_user("ann", "ann@example.org", PASSWORD)
    start = timezone.localdate() - timedelta(days=60)
    ann = make_player("Ann", rank=-5, since=start, user=user)
    bob = make_player("Bob", rank=-5, since=start)
    make_player("Cat", rank=-5, since=start)
    play(club, start + timedelta(days=20), (ann, bob))
    play(club, start + timedelta(days=30), (bob, ann))
    return ann


def late_game(club: Club, days_after_start: int = 5) -> None:
    """Ann beats Cat on a day before her games with Bob: a late entry that
    changes her later results."""
    ann, cat = Player.objects.get(name="Ann"), Player.objects.get(name="Cat")
    play(club, ann.since + timedelta(days=days_after_start), (ann, cat))


def feed_entries(client: Client, player: Player) -> list[dict[str, str]]:
    response = client.get(reverse("player_feed", args=[player.slug]))
    assert response.status_code == 200 and response["Content-Type"].startswith("application/atom+xml")
    root = ElementTree.fromstring(response.content)
    return [
        {
            "title": entry.findtext(f"{ATOM}title") or "",
            "summary": entry.findtext(f"{ATOM}summary") or "",
            "link": entry.find(f"{ATOM}link").get("href", ""),  # type: ignore[union-attr]
            "id": entry.findtext(f"{ATOM}id") or "",
        }
        for entry in root.iter(f"{ATOM}entry")
    ]


def test_the_feed_has_each_new_result_and_each_changed_one_with_the_reason(
    client: Client, club: Club, ann: Player
) -> None:
    entries = feed_entries(client, ann)
    assert len(entries) == 2 and all("against Bob" in e["title"] for e in entries)
    assert len({e["id"] for e in entries}) == 2
    late_game(club)
    changed = ResultChange.objects.filter(player=ann)
    assert changed.exists()
    entries = feed_entries(client, ann)
    about_changes = [e for e in entries if " changed" in e["title"]]
    assert len(about_changes) == changed.count()
    assert len(entries) == 3 + changed.count()  # three results, and each change
    for entry in about_changes:
        assert "was entered late" in entry["summary"] and "→" in entry["summary"]
        assert re.search(r"/games/\d+/$", entry["link"])
    game_ids = {int(re.search(r"/games/(\d+)/", e["link"]).group(1)) for e in about_changes}  # type: ignore[union-attr]
    assert game_ids == set(changed.values_list("game_id", flat=True))
    page = client.get(reverse("player", args=[ann.slug])).content.decode()
    assert f'href="{reverse("player_feed", args=[ann.slug])}"' in page


def test_a_changed_rank_adjustment_is_told_in_its_own_words(client: Client, club: Club, ann: Player) -> None:
    # The committee set Ann's rank after her games with Bob; a game entered
    # late before them changes what the adjustment did (the index it reset).
    adjustment = services.add_adjustment(player=ann, date=ann.since + timedelta(days=40), rank=-4)
    recompute_list(club.rating_list_id)
    late_game(club)
    changed = ResultChange.objects.filter(player=ann, adjustment=adjustment)
    assert changed.exists(), "the late game changed the adjustment's result"
    entries = [e for e in feed_entries(client, ann) if "rank adjustment" in e["title"]]
    day = f"{adjustment.date:%Y-%m-%d}"
    sagc = SYSTEM_LABELS["sagc"]
    assert [e["title"] for e in entries] == [
        f"{sagc}: your rank adjustment of {day} changed"
    ] * changed.count()
    for entry in entries:
        assert entry["link"].endswith(reverse("adjustment", args=[adjustment.pk]))
        assert "was entered late" in entry["summary"], entry["summary"]
        assert f"so your rank adjustment of {day} was rated again in {sagc}" in entry["summary"]
        assert "against" not in entry["title"], "an adjustment has no opponent"


def test_no_e_mail_unless_asked(club: Club, ann: Player) -> None:
    late_game(club)
    assert ResultChange.objects.filter(player=ann).exists()
    assert outbox.outbox == [] and not ChangeNotice.objects.exists()


def test_one_e_mail_a_recompute_with_the_explanations_and_a_one_click_unsubscribe(
    club: Club, ann: Player
) -> None:
    mail.subscribe(ann)
    late_game(club)
    assert len(outbox.outbox) == 1
    message = outbox.outbox[0]
    assert message.to == ["ann@example.org"] and "late game changed your rating" in message.subject
    changed = ResultChange.objects.filter(player=ann)
    for game_id in set(changed.values_list("game_id", flat=True)):
        assert f"/games/{game_id}/" in message.body
    assert "was entered late" in message.body
    unsubscribe = reverse("notice_unsubscribe", args=[mail.unsubscribe_token(ann)])
    assert message.extra_headers["List-Unsubscribe"].endswith(f"{unsubscribe}>")
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # The same recompute told again (a retried task): nothing more.
    run = RecomputeRun.objects.filter(rating_list=club.rating_list).latest("pk")
    assert mail.tell(club.rating_list_id, run.pk) == 0
    # A recompute that changes nothing of Ann's: no e-mail.
    recompute_list(club.rating_list_id, full=True)
    assert len(outbox.outbox) == 1
    # The next late game: one more.
    late_game(club, days_after_start=3)
    assert len(outbox.outbox) == 2


def test_none_after_unsubscribing_in_one_click(client: Client, club: Club, ann: Player) -> None:
    mail.subscribe(ann)
    url = reverse("notice_unsubscribe", args=[mail.unsubscribe_token(ann)])
    assert "Unsubscribe</button>" in client.get(url).content.decode()
    assert ChangeNotice.objects.get(player=ann).active  # a GET (a link preview) changes nothing
    csrf_client = Client(enforce_csrf_checks=True)  # an e-mail program posts without a token
    assert "no more e-mails" in csrf_client.post(url).content.decode()
    assert not ChangeNotice.objects.get(player=ann).active
    late_game(club)
    assert outbox.outbox == []
    assert client.get(reverse("notice_unsubscribe", args=["forged:token"])).status_code == 404


def test_the_player_turns_them_on_and_off_on_the_record_sheet(
    client: Client, club: Club, ann: Player
) -> None:
    client.force_login(User.objects.get(username="ann"))
    page = client.get(reverse("player", args=[ann.slug])).content.decode()
    assert "E-mail me when a late game changes my rating" in page
    client.post(reverse("player_notices", args=[ann.slug]), {"notices": "on"})
    assert ChangeNotice.objects.get(player=ann).active
    assert (
        "Stop e-mails about late changes" in client.get(reverse("player", args=[ann.slug])).content.decode()
    )
    late_game(club)
    assert len(outbox.outbox) == 1
    client.post(reverse("player_notices", args=[ann.slug]), {"notices": "off"})
    assert not ChangeNotice.objects.get(player=ann).active


@pytest.mark.parametrize(
    ("role", "expected"),
    [
        ("anonymous", "login"),
        ("player", 200),
        ("volunteer", 403),
        ("committee", 403),
        ("volunteer_b", 403),
        ("committee_2", 403),
        ("site_admin", 403),
    ],
)
def test_only_the_players_own_account_turns_the_e_mails_on(
    client_for: ClientFor, outsiders: dict[str, User], role: str, expected: str | int
) -> None:
    player = Player.objects.get(name="Player One")
    if role in outsiders:
        client = Client()
        client.force_login(outsiders[role])
    else:
        client = client_for(role)
    response = client.post(reverse("player_notices", args=[player.slug]), {"notices": "on"})
    if refused_as(response, expected):
        assert not ChangeNotice.objects.exists()
        return
    assert response.status_code == 302 and ChangeNotice.objects.get(player=player).active
