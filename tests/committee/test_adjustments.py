"""Committee pages: rank adjustments (/adjustments/, /adjustments/new/) and list settings."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from ratings import services
from ratings.models import Club, LogEntry, Player, RankAdjustment, RatingList
from ratings.services import GameRow
from tests.support import ClientFor, MakePlayer, Personas, committee_of, make_pool, refused_as


@pytest.fixture
def alice(make_player: MakePlayer) -> Player:
    return make_player("Alice", rank=-5)


def adjustment_data(player: Player, **extra: object) -> dict[str, str]:
    data = {"player": player.pk, "date": "2024-03-01", "rank": "3k", "rating": "", "reason": "SAGA list"}
    data.update(extra)
    return {k: str(v) for k, v in data.items()}


def test_the_committee_sets_a_rank_from_a_date_and_it_is_logged(
    client_for: ClientFor, club: Club, alice: Player, personas: Personas
) -> None:
    response = client_for("committee").post("/adjustments/new/", adjustment_data(alice, rating="250"))
    assert response.status_code == 302 and response["Location"] == "/adjustments/"
    adjustment = RankAdjustment.objects.get()
    assert (adjustment.player, adjustment.date, adjustment.rank, adjustment.rating) == (
        alice,
        date(2024, 3, 1),
        -3,
        250,
    )
    assert adjustment.entered_by == personas["committee"]
    entry = LogEntry.objects.get(adjustment=adjustment)
    assert entry.actor == personas["committee"] and "Alice set to 3k" in entry.summary
    club.rating_list.refresh_from_db()
    assert club.rating_list.dirty_from == date(2024, 3, 1)


def test_the_list_shows_adjustments_newest_first(client_for: ClientFor, club: Club, alice: Player) -> None:
    services.add_adjustment(player=alice, date=date(2024, 1, 1), rank=-4, reason="first")
    services.add_adjustment(player=alice, date=date(2024, 2, 1), rank=0, reason="second")
    html = client_for("committee").get("/adjustments/").content.decode()
    assert html.index("second") < html.index("first")
    assert "1d" in html and "4k" in html


@pytest.mark.parametrize(("system", "header"), [("sagc", "Index"), ("ffg", "Level")])
def test_the_list_names_the_rating_column_after_the_primary_system(
    client_for: ClientFor, club: Club, system: str, header: str
) -> None:
    RatingList.objects.filter(pk=club.rating_list_id).update(primary_system=system)
    html = client_for("committee").get("/adjustments/").content.decode()
    assert f'<th scope="col">{header}</th>' in html


@pytest.mark.parametrize(
    ("system", "label"), [("sagc", "New index (optional)"), ("egf", "New GoR (optional)")]
)
def test_the_form_names_the_rating_in_the_primary_systems_unit(
    client_for: ClientFor, club: Club, system: str, label: str
) -> None:
    RatingList.objects.filter(pk=club.rating_list_id).update(primary_system=system)
    html = client_for("committee").get("/adjustments/new/").content.decode()
    assert f">{label}</label>" in html and "Choose a player" in html


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"rank": "11x"}, "rank", "not a rank"),
        ({"rank": "35k"}, "rank", "off the scale"),
        ({"date": "2019-06-01"}, "date", "joined on 2020-01-01"),
        ({"date": "2099-01-01"}, "date", "in the future"),
        ({"rating": "1500"}, "rating", "-999 to 999"),
        ({"rating": "12.5"}, "rating", "whole number"),
    ],
)
def test_a_bad_adjustment_is_refused_next_to_its_field(
    client_for: ClientFor, club: Club, alice: Player, changes: dict[str, Any], field: str, message: str
) -> None:
    response = client_for("committee").post("/adjustments/new/", adjustment_data(alice, **changes))
    assert response.status_code == 400
    assert message in str(response.context["form"].errors[field])
    assert not RankAdjustment.objects.exists() and not LogEntry.objects.exists()


def test_an_adjustment_shows_on_the_record_sheet_with_the_players_own_name(
    client_for: ClientFor, club: Club, alice: Player, make_player: MakePlayer
) -> None:
    from ratings.models import HistoryEntry
    from ratings.recompute import recompute_list

    bob = make_player("Bob", rank=-8)
    services.save_sheet(
        club=club, date=date(2024, 2, 1), rows=[GameRow(white=alice, black=bob, winner="white")]
    )
    client_for("committee").post("/adjustments/new/", adjustment_data(alice))
    recompute_list(club.rating_list_id, full=True)
    row = HistoryEntry.objects.get(player=alice, adjustment__isnull=False, system="sagc")
    assert row.rank_after == -3
    html = client_for("anonymous").get(f"/players/{alice.slug}/").content.decode()
    assert 'class="adjustment"' in html and "SAGA list" in html


def test_the_list_settings_change_the_systems_and_recompute_from_the_first_game(
    client_for: ClientFor, club: Club, alice: Player, make_player: MakePlayer
) -> None:
    bob = make_player("Bob", rank=-8)
    services.save_sheet(
        club=club, date=date(2023, 7, 1), rows=[GameRow(white=alice, black=bob, winner="white")]
    )
    services.save_sheet(
        club=club, date=date(2024, 7, 1), rows=[GameRow(white=alice, black=bob, winner="white")]
    )
    RatingList.objects.filter(pk=club.rating_list_id).update(dirty_from=None)
    response = client_for("committee").post(
        f"/lists/{club.rating_list.slug}/settings/",
        {"primary_system": "egf", "compared_systems": ["sagc", "ffg"]},
    )
    assert response.status_code == 302
    club.rating_list.refresh_from_db()
    assert (club.rating_list.primary_system, club.rating_list.compared_systems) == ("egf", ["sagc", "ffg"])
    assert club.rating_list.dirty_from == date(2023, 7, 1)


def test_the_list_settings_page_offers_every_system(client_for: ClientFor, club: Club) -> None:
    from ratings.engine import SYSTEM_NAMES

    html = client_for("committee").get(f"/lists/{club.rating_list.slug}/settings/").content.decode()
    for name in SYSTEM_NAMES:
        assert f'value="{name}"' in html
    assert (
        client_for("committee")
        .post(f"/lists/{club.rating_list.slug}/settings/", {"primary_system": "nope"})
        .status_code
        == 400
    )


# --- every role against every committee view -------------------------------------

EXPECTED: dict[str, str | int] = {"anonymous": "login", "player": 403, "volunteer": 403, "committee": "ok"}


@pytest.mark.parametrize("role", EXPECTED)
def test_only_the_committee_may_add_an_adjustment(
    client_for: ClientFor, club: Club, alice: Player, role: str
) -> None:
    response = client_for(role).post("/adjustments/new/", adjustment_data(alice))
    refused = refused_as(response, EXPECTED[role])
    assert RankAdjustment.objects.exists() == (not refused)
    club.rating_list.refresh_from_db()
    assert (club.rating_list.dirty_from is None) == refused
    assert LogEntry.objects.exists() == (not refused)


@pytest.mark.parametrize("role", EXPECTED)
def test_only_the_committee_may_change_the_list_systems(client_for: ClientFor, club: Club, role: str) -> None:
    response = client_for(role).post(f"/lists/{club.rating_list.slug}/settings/", {"primary_system": "ffg"})
    refused = refused_as(response, EXPECTED[role])
    club.rating_list.refresh_from_db()
    assert (club.rating_list.primary_system == "sagc") == refused


@pytest.mark.parametrize("role", EXPECTED)
def test_only_the_committee_sees_the_committee_pages(client_for: ClientFor, club: Club, role: str) -> None:
    for url in ("/adjustments/", "/adjustments/new/", f"/lists/{club.rating_list.slug}/settings/"):
        response = client_for(role).get(url)
        if not refused_as(response, EXPECTED[role]):
            assert response.status_code == 200


def test_the_adjustment_date_defaults_to_today(client_for: ClientFor, club: Club) -> None:
    html = client_for("committee").get("/adjustments/new/").content.decode()
    assert f'value="{timezone.localdate().isoformat()}"' in html
    assert (timezone.localdate() - timedelta(days=1)).isoformat() not in html


@pytest.mark.parametrize("role", ["anonymous", "player", "volunteer", "committee"])
def test_only_the_committee_sees_the_list_settings_link(client_for: ClientFor, club: Club, role: str) -> None:
    html = client_for(role).get("/players/").content.decode()
    nav = html[html.index("<nav") : html.index("</nav>")]
    assert (f'href="/lists/{club.rating_list.slug}/settings/"' in nav) is (role == "committee")


def test_the_list_settings_page_switches_between_the_committees_lists(
    client_for: ClientFor, club: Club, personas: Personas
) -> None:
    other = make_pool(name="Cape Town Ladder", slug="cape-town").rating_list
    unrelated = make_pool(name="Guildford Ladder", slug="guildford").rating_list
    committee_of(personas["committee"], other)
    html = client_for("committee").get(f"/lists/{club.rating_list.slug}/settings/").content.decode()
    assert f'href="/lists/{other.slug}/settings/"' in html
    assert f'href="/lists/{club.rating_list.slug}/settings/" aria-current="true"' in html
    assert f"/lists/{unrelated.slug}/settings/" not in html


def test_the_committee_of_another_list_changes_nothing_here(
    client: Client, club: Club, alice: Player, outsiders: dict[str, User]
) -> None:
    client.force_login(outsiders["committee_2"])
    response = client.post(f"/lists/{club.rating_list.slug}/settings/", {"primary_system": "ffg"})
    assert response.status_code == 403
    assert client.post("/adjustments/new/", adjustment_data(alice)).status_code == 403
    club.rating_list.refresh_from_db()
    assert club.rating_list.primary_system == "sagc" and club.rating_list.dirty_from is None
    assert not RankAdjustment.objects.exists() and not LogEntry.objects.exists()
