"""Rename a player (the log keeps the old name, old addresses
redirect), merge two records of one person (one recompute from the earliest
moved date; the stored history then equals a full replay), and undo a merge."""

from __future__ import annotations

from datetime import date

import pytest
from django.test import Client
from django.urls import reverse

from ratings import services
from ratings.models import Club, EventEntry, Game, HistoryEntry, LogEntry, Player, RankAdjustment, RatingList
from ratings.recompute import recompute_list
from ratings.services import GameRow
from ratings.services.player_changes import PlayerChangeError, merge_players, rename_player, unmerge
from tests.support import ClientFor, MakePlayer


@pytest.fixture
def people(club: Club, make_player: MakePlayer) -> dict[str, Player]:
    """François (5k) with games since 2024; 'Francois Dupont' (a typo, 12k)
    made on a later night; Bob and Chen their opponents."""
    francois = make_player("François Dupont", rank=-5, since=date(2024, 1, 1), slug="francois-dupont")
    typo = make_player("Francois Dupont", rank=-12, since=date(2024, 5, 1), slug="francois-dupont-2")
    bob, chen = make_player("Bob Smit", rank=-8), make_player("Chen Wei", rank=-10)
    save = services.save_sheet
    save(club=club, date=date(2024, 2, 6), rows=[GameRow(white=francois, black=bob, winner="white")])
    save(club=club, date=date(2024, 5, 7), rows=[GameRow(white=chen, black=typo, winner="black", handicap=2)])
    save(club=club, date=date(2024, 6, 4), rows=[GameRow(white=francois, black=chen, winner="black")])
    save(club=club, date=date(2024, 7, 2), rows=[GameRow(white=typo, black=bob, winner="white")])
    services.add_adjustment(player=typo, date=date(2024, 8, 1), rank=-4, reason="promoted by the committee")
    recompute_list(club.rating_list_id, full=True)
    return {"francois": francois, "typo": typo, "bob": bob, "chen": chen}


def stored_history() -> list[tuple[object, ...]]:
    return list(
        HistoryEntry.objects.order_by("system", "player_id", "seq").values_list(
            "system", "player_id", "seq", "game_id", "adjustment_id", "rank_before", "rank_after",
            "rating_before", "rating_after", "change",
        )
    )  # fmt: skip


def player_values() -> list[tuple[object, ...]]:
    return sorted(Player.objects.values_list("pk", "rank", "rating", "games_count"))


@pytest.mark.django_db
def test_a_merge_moves_games_and_adjustments_and_equals_a_full_replay(
    club: Club, people: dict[str, Player]
) -> None:
    francois, typo = people["francois"], people["typo"]
    before = RatingList.objects.get()
    entry = merge_players(typo, francois)
    after = RatingList.objects.get()
    assert after.dirty_from == date(2024, 5, 7), "from the earliest moved game"
    assert after.dirty_generation == before.dirty_generation + 1, "one recompute"
    assert not Player.objects.filter(pk=typo.pk).exists()
    assert Game.objects.filter(white=francois).count() + Game.objects.filter(black=francois).count() == 4
    assert RankAdjustment.objects.get().player_id == francois.pk
    recompute_list(club.rating_list_id)  # incremental, from the dirty date
    incremental, values = stored_history(), player_values()
    recompute_list(club.rating_list_id, full=True)
    assert stored_history() == incremental and player_values() == values
    assert "Merged Francois Dupont into François Dupont" in entry.summary


@pytest.mark.django_db
def test_undoing_a_merge_gives_back_the_history_before_it(
    client: Client, club: Club, people: dict[str, Player]
) -> None:
    francois, typo = people["francois"], people["typo"]
    history, values = stored_history(), player_values()
    entry = merge_players(typo, francois)
    recompute_list(club.rating_list_id)
    back = unmerge(entry)
    assert (back.pk, back.name, back.slug, back.start_rank) == (typo.pk, typo.name, typo.slug, -12)
    recompute_list(club.rating_list_id)
    assert stored_history() == history and player_values() == values
    assert Player.objects.get(pk=francois.pk).since == date(2024, 1, 1)
    with pytest.raises(PlayerChangeError, match="undone already"):
        unmerge(entry)
    assert client.get(f"/players/{typo.slug}/").status_code == 200


@pytest.mark.django_db
def test_a_merge_keeps_the_duplicates_account_rank_sync_lines_link_requests_and_ripple_notes(
    club: Club, people: dict[str, Player]
) -> None:
    """Nothing of the duplicate is deleted with its record; undoing the merge gives each back."""
    from django.contrib.auth.models import User

    from accounts.models import LinkRequest
    from ratings.models import RankSync, RankSyncLine, ResultChange

    francois, typo = people["francois"], people["typo"]
    account = User.objects.create_user("francois")
    Player.objects.filter(pk=typo.pk).update(user=account)
    sync = RankSync.objects.create(rating_list=club.rating_list, format="csv")
    line = RankSyncLine.objects.create(sync=sync, player=typo, match="name", list_rank=-12, list_rating=0)
    asked = LinkRequest.objects.create(user=User.objects.create_user("claimant"), player=typo)
    # A game of typo's entered late changes the rating after typo's later game.
    services.save_sheet(
        club=club, date=date(2024, 6, 10), rows=[GameRow(white=typo, black=people["bob"], winner="white")]
    )
    recompute_list(club.rating_list_id)
    ripple = set(ResultChange.objects.filter(player=typo).values_list("pk", flat=True))
    assert ripple, "the late game changed typo's later result"

    entry = merge_players(typo, francois)
    assert Player.objects.get(pk=francois.pk).user == account
    assert RankSyncLine.objects.get(pk=line.pk).player_id == francois.pk
    assert LinkRequest.objects.get(pk=asked.pk).player_id == francois.pk
    assert set(ResultChange.objects.filter(player=francois).values_list("pk", flat=True)) >= ripple

    recompute_list(club.rating_list_id)
    back = unmerge(entry)
    assert back.user == account and Player.objects.get(pk=francois.pk).user is None
    assert RankSyncLine.objects.get(pk=line.pk).player_id == typo.pk
    assert LinkRequest.objects.get(pk=asked.pk).player_id == typo.pk
    assert ripple <= set(ResultChange.objects.filter(player=typo).values_list("pk", flat=True))


@pytest.mark.django_db
def test_two_records_that_each_have_an_account_are_not_merged(people: dict[str, Player]) -> None:
    from django.contrib.auth.models import User

    Player.objects.filter(pk=people["typo"].pk).update(user=User.objects.create_user("one"))
    Player.objects.filter(pk=people["francois"].pk).update(user=User.objects.create_user("two"))
    with pytest.raises(PlayerChangeError, match=r"each have an account .*unlink one of them first"):
        merge_players(people["typo"], people["francois"])
    assert Player.objects.filter(pk=people["typo"].pk).exists()


@pytest.mark.django_db
def test_undoing_a_merge_leaves_an_account_linked_elsewhere_since_where_it_is(
    club: Club, people: dict[str, Player], make_player: MakePlayer
) -> None:
    from django.contrib.auth.models import User

    francois, typo = people["francois"], people["typo"]
    account = User.objects.create_user("francois")
    Player.objects.filter(pk=typo.pk).update(user=account)
    entry = merge_players(typo, francois)
    Player.objects.filter(pk=francois.pk).update(user=None)  # the committee unlinked it...
    other = make_player("Someone Else", rank=-3)
    Player.objects.filter(pk=other.pk).update(user=account)  # ...and linked it to another player
    back = unmerge(entry)
    assert back.user is None and Player.objects.get(pk=other.pk).user == account


@pytest.mark.django_db
def test_two_players_who_met_cannot_be_merged(people: dict[str, Player]) -> None:
    with pytest.raises(PlayerChangeError, match="played each other"):
        merge_players(people["francois"], people["bob"])


@pytest.mark.django_db
def test_a_merged_players_address_redirects_to_the_kept_player(
    client: Client, people: dict[str, Player]
) -> None:
    merge_players(people["typo"], people["francois"])
    response = client.get(f"/players/{people['typo'].slug}/?system=sagc")
    assert response.status_code == 301
    assert response["Location"] == f"/players/{people['francois'].slug}/?system=sagc"


@pytest.mark.django_db
def test_a_rename_keeps_the_old_name_in_the_log_and_the_old_address_redirects(
    client: Client, people: dict[str, Player]
) -> None:
    typo = people["typo"]
    history = stored_history()
    renamed = rename_player(typo, name="Françoise Dupont")
    assert renamed.slug == "francoise-dupont" and Player.objects.named(
        typo.rating_list_id, "françoise dupont"
    )
    response = client.get(f"/players/{typo.slug}/")
    assert response.status_code == 301 and response["Location"] == "/players/francoise-dupont/"
    entry = LogEntry.objects.get(summary__startswith="Renamed")
    assert entry.summary == "Renamed Francois Dupont to Françoise Dupont"
    assert entry.changes == {"name": ["Francois Dupont", "Françoise Dupont"]}
    assert stored_history() == history, "a rename changes no rating"
    log = client.get(reverse("log"), {"player": renamed.slug}).content.decode()
    assert "Renamed Francois Dupont to Françoise Dupont" in log
    # Renamed back: the first address is the player's own again.
    rename_player(renamed, name="Francois Dupont")
    assert client.get(f"/players/{typo.slug}/").status_code == 200


@pytest.mark.django_db
def test_a_rename_onto_another_players_name_is_refused(people: dict[str, Player]) -> None:
    with pytest.raises(PlayerChangeError, match="already a player"):
        rename_player(people["typo"], name="françois  DUPONT")


@pytest.mark.django_db
def test_the_committee_renames_and_merges_from_the_pages(
    client_for: ClientFor, people: dict[str, Player]
) -> None:
    client = client_for("committee")
    typo, francois = people["typo"], people["francois"]
    page = client.get(francois.get_absolute_url()).content.decode()
    assert reverse("player_rename", args=[francois.slug]) in page
    assert (
        reverse("player_rename", args=[francois.slug])
        not in client_for("volunteer").get(francois.get_absolute_url()).content.decode()
    )
    response = client.post(reverse("player_merge", args=[typo.slug]), {"kept": francois.pk})
    assert response.status_code == 302 and response["Location"] == francois.get_absolute_url()
    entry = LogEntry.objects.get(summary__startswith="Merged")
    assert reverse("player_unmerge", args=[entry.pk]) in client.get(reverse("log")).content.decode()
    response = client.post(reverse("player_unmerge", args=[entry.pk]))
    assert response["Location"] == f"/players/{typo.slug}/"
    assert Player.objects.filter(pk=typo.pk).exists()


@pytest.mark.django_db
def test_a_new_player_does_not_take_a_renamed_players_old_address(
    club: Club, people: dict[str, Player]
) -> None:
    rename_player(people["bob"], name="Robert Smit")
    assert services.unique_slug("Bob Smit", club) != "bob-smit"


def test_a_merge_moves_the_duplicates_event_entries_and_its_undoing_gives_them_back(
    people: dict[str, Player],
) -> None:
    francois, typo = people["francois"], people["typo"]
    sheet = Game.objects.filter(black=typo).first().sheet  # type: ignore[union-attr]
    entry_of_typo = EventEntry.objects.create(
        sheet=sheet, player=typo, position=2, place="2", tiebreaks=["3"]
    )
    entry_of_francois = EventEntry.objects.create(sheet=sheet, player=francois, position=1, place="1")
    log = merge_players(typo, francois)
    assert set(EventEntry.objects.filter(player=francois).values_list("pk", flat=True)) == {
        entry_of_typo.pk,
        entry_of_francois.pk,
    }
    unmerge(log)
    assert EventEntry.objects.get(pk=entry_of_typo.pk).player_id == typo.pk
    assert EventEntry.objects.get(pk=entry_of_francois.pk).player_id == francois.pk
