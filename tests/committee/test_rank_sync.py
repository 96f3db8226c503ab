"""National rank sync: match by id then name, preview, apply as adjustments, history."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import TYPE_CHECKING, Any

import pytest
import time_machine
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings import committee
from ratings.committee import Choice, CommitteeError
from ratings.exchange import ExchangeError
from ratings.models import Club, HistoryEntry, Player, RankAdjustment, RankSync, RankSyncLine, RatingList
from tests.support import ROLES, ClientFor, MakePlayer, Personas, shared_data

if TYPE_CHECKING:
    from tests.support import TestResponse

TODAY = date(2024, 6, 15)


@pytest.fixture(autouse=True)
def _today() -> Iterator[None]:
    with time_machine.travel(date(2024, 6, 15), tick=False):
        yield


def ranks_csv(*rows: tuple[str, str, str]) -> bytes:
    """A plain CSV rank list (name, national id, rank)."""
    lines = ["name,national id,rank"] + [f'"{n}",{i},{r}' for n, i, r in rows]
    return ("\n".join(lines) + "\n").encode()


def lines_by_name(sync: RankSync) -> dict[str, RankSyncLine]:
    return {line.player.name: line for line in sync.lines.select_related("player")}


# --- matching -------------------------------------------------------------------


def test_it_matches_by_name_whatever_the_order_case_and_accents(club: Club, make_player: MakePlayer) -> None:
    make_player("Léa Dupont", rank=-10)
    sync = committee.preview_rank_sync(
        club.rating_list, ranks_csv(("DUPONT Lea", "S-1", "8k")), filename="saga.csv"
    )
    line = lines_by_name(sync)["Léa Dupont"]
    assert (line.match, line.national_id, line.national_rank) == ("name", "S-1", -8.0)
    assert (sync.read, sync.matched, sync.changes) == (1, 1, 1)


def test_it_matches_a_stored_national_id_before_the_name(club: Club, make_player: MakePlayer) -> None:
    make_player("Jan de Wet", rank=-10, saga_id="S-7")
    data = ranks_csv(("Jan de Wet", "S-99", "2k"), ("Johannes de Wet", "S-7", "5k"))
    line = lines_by_name(committee.preview_rank_sync(club.rating_list, data))["Jan de Wet"]
    assert (line.match, line.national_id, line.national_rank) == ("id", "S-7", -5.0)


def test_it_shows_two_entries_with_the_players_name_as_ambiguous_never_guessing(
    club: Club, make_player: MakePlayer
) -> None:
    make_player("Jean Dupont", rank=-10)
    sync = committee.preview_rank_sync(
        club.rating_list, ranks_csv(("Dupont, Jean", "S-1", "8k"), ("Jean Dupont", "S-2", "3k"))
    )
    line = lines_by_name(sync)["Jean Dupont"]
    assert line.match == "ambiguous" and line.national_rank is None
    assert sorted(c["national_id"] for c in line.candidates) == ["S-1", "S-2"]
    assert (sync.ambiguous, sync.matched, sync.changes) == (1, 0, 0)


def test_it_shows_a_player_absent_from_the_list_as_missing(club: Club, make_player: MakePlayer) -> None:
    make_player("Nobody Here", rank=-10)
    sync = committee.preview_rank_sync(club.rating_list, ranks_csv(("Someone Else", "S-1", "8k")))
    assert lines_by_name(sync)["Nobody Here"].match == "missing"
    assert sync.unmatched == 1


def test_a_name_match_contradicting_the_stored_id_is_ambiguous(club: Club, make_player: MakePlayer) -> None:
    make_player("Jean Dupont", rank=-10, saga_id="S-5")
    line = lines_by_name(
        committee.preview_rank_sync(club.rating_list, ranks_csv(("Jean Dupont", "S-1", "8k")))
    )["Jean Dupont"]
    assert line.match == "ambiguous"


def test_two_club_players_claiming_one_entry_are_both_ambiguous(club: Club, make_player: MakePlayer) -> None:
    make_player("Jean Dupont", rank=-10)
    make_player("DUPONT Jean", rank=-12, slug="dupont-jean-2")
    lines = lines_by_name(
        committee.preview_rank_sync(club.rating_list, ranks_csv(("Jean Dupont", "S-1", "8k")))
    )
    assert {line.match for line in lines.values()} == {"ambiguous"}


def test_an_entry_whose_id_is_another_players_is_not_matched_by_name(
    club: Club, make_player: MakePlayer
) -> None:
    make_player("Jean Dupont", rank=-10, saga_id="S-1")
    make_player("Dupont Jean", rank=-12, slug="other")
    lines = lines_by_name(
        committee.preview_rank_sync(club.rating_list, ranks_csv(("Jean Dupont", "S-1", "8k")))
    )
    assert lines["Jean Dupont"].match == "id"
    assert lines["Dupont Jean"].match == "missing"


def test_a_fractional_club_rank_in_the_national_grade_is_no_change(
    club: Club, make_player: MakePlayer
) -> None:
    # Decision (committee.proposes_change): 1.3d (the West Surrey ladder page) is in grade 1d.
    player = make_player("Fred Smith", rank=0)
    Player.objects.filter(pk=player.pk).update(rank=0.3)
    sync = committee.preview_rank_sync(
        club.rating_list,
        ranks_csv(
            ("Fred Smith", "S-1", "1d"),
        ),
    )
    assert sync.changes == 0
    assert committee.proposes_change(lines_by_name(sync)["Fred Smith"]) is False


def test_a_bad_list_is_refused_naming_the_line_and_nothing_is_stored(
    club: Club, make_player: MakePlayer
) -> None:
    make_player("Jean Dupont", rank=-10)
    with pytest.raises(ExchangeError, match="line 3"):
        committee.preview_rank_sync(
            club.rating_list,
            ranks_csv(("Jean Dupont", "S-1", "8k"), ("Ann Bee", "S-2", "banana"), ("Cy Dee", "S-3", "pear")),
        )
    assert not RankSync.objects.exists()


def test_one_bad_row_is_listed_and_the_others_are_proposed(club: Club, make_player: MakePlayer) -> None:
    make_player("Jean Dupont", rank=-10)
    sync = committee.preview_rank_sync(
        club.rating_list,
        ranks_csv(("Jean Dupont", "S-1", "8k"), ("Ann Bee", "S-2", "banana"), ("Cy Dee", "S-3", "2d")),
    )
    assert (sync.read, sync.changes) == (2, 1)
    assert [(r.line, r.text) for r in sync.rejected_lines] == [(3, '"Ann Bee",S-2,banana')]


@pytest.mark.realfiles
def test_the_real_ffg_ladder_is_read_and_matched(club: Club, make_player: MakePlayer) -> None:
    data = shared_data("ech_ffg_V3.txt").read_bytes()
    make_player("Adrien Dupont", rank=-10)  # "DUPONT Adrien  -300 ... 1200125": 3k
    make_player("Émeric Dupont", rank=-2)  # "DUPONT Emeric  -150": floor(-1.5) = 2k, no change
    sync = committee.preview_rank_sync(club.rating_list, data, filename="ech_ffg_V3.txt")
    assert (sync.format, sync.read, sync.as_of, sync.encoding.lower()) == (
        "ffg",
        12511 - 12,  # the FFG's 12 obsolete records are listed as rejected lines
        date(2021, 1, 11),
        "iso-8859-1",
    )
    lines = lines_by_name(sync)
    assert (lines["Adrien Dupont"].national_id, lines["Adrien Dupont"].national_rank) == ("1200125", -3.0)
    assert committee.proposes_change(lines["Émeric Dupont"]) is False
    assert sync.changes == 1


# --- applying ---------------------------------------------------------------------


def test_applying_creates_dated_adjustments_and_remembers_the_national_id(
    club: Club, make_player: MakePlayer, personas: Personas
) -> None:
    jean = make_player("Jean Dupont", rank=-10)
    sync = committee.preview_rank_sync(club.rating_list, ranks_csv(("Jean Dupont", "S-1", "8k")))
    adjustments = committee.apply_rank_sync(
        sync, committee.default_choices(sync), effective=date(2024, 6, 1), user=personas["committee"]
    )
    assert [(a.player, a.date, a.rank) for a in adjustments] == [(jean, date(2024, 6, 1), -8.0)]
    jean.refresh_from_db()
    assert jean.saga_id == "S-1"
    sync.refresh_from_db()
    assert (sync.applied, sync.effective, sync.applied_by) == (1, date(2024, 6, 1), personas["committee"])


def test_the_second_sync_matches_a_confirmed_player_by_id(club: Club, make_player: MakePlayer) -> None:
    make_player("Jean Dupont", rank=-10)
    data = ranks_csv(("Dupont, Jean", "S-1", "8k"), ("Jean Dupont", "S-2", "3k"))
    first = committee.preview_rank_sync(club.rating_list, data)
    line = lines_by_name(first)["Jean Dupont"]
    committee.apply_rank_sync(first, [Choice(line.pk, candidate_line=3)], effective=date(2024, 6, 1))
    assert Player.objects.get(name="Jean Dupont").saga_id == "S-2"
    second = lines_by_name(committee.preview_rank_sync(club.rating_list, data))["Jean Dupont"]
    assert (second.match, second.national_id, second.national_rank) == ("id", "S-2", -3.0)


def test_an_ambiguous_line_needs_a_candidate(club: Club, make_player: MakePlayer) -> None:
    make_player("Jean Dupont", rank=-10)
    sync = committee.preview_rank_sync(
        club.rating_list, ranks_csv(("Dupont, Jean", "S-1", "8k"), ("Jean Dupont", "S-2", "3k"))
    )
    line = lines_by_name(sync)["Jean Dupont"]
    with pytest.raises(CommitteeError, match="Jean Dupont: choose"):
        committee.apply_rank_sync(sync, [Choice(line.pk)], effective=date(2024, 6, 1))


def test_apply_is_all_or_nothing_and_the_error_names_the_player(club: Club, make_player: MakePlayer) -> None:
    make_player("Ann Bee", rank=-10)
    make_player("Late Joiner", rank=-10, since=date(2024, 5, 1))
    sync = committee.preview_rank_sync(
        club.rating_list, ranks_csv(("Ann Bee", "S-1", "8k"), ("Late Joiner", "S-2", "6k"))
    )
    with pytest.raises(CommitteeError, match=r"Late Joiner: .*joined on 2024-05-01"):
        committee.apply_rank_sync(sync, committee.default_choices(sync), effective=date(2024, 1, 1))
    assert not RankAdjustment.objects.exists()
    assert set(Player.objects.values_list("saga_id", flat=True)) == {""}
    sync.refresh_from_db()
    assert sync.applied_at is None


def test_a_sync_is_applied_once(club: Club, make_player: MakePlayer) -> None:
    make_player("Ann Bee", rank=-10)
    sync = committee.preview_rank_sync(club.rating_list, ranks_csv(("Ann Bee", "S-1", "8k")))
    committee.apply_rank_sync(sync, committee.default_choices(sync), effective=date(2024, 6, 1))
    with pytest.raises(CommitteeError, match="already applied"):
        committee.apply_rank_sync(sync, committee.default_choices(sync), effective=date(2024, 6, 1))
    assert RankAdjustment.objects.count() == 1


def test_one_entry_cannot_be_chosen_for_two_players(club: Club, make_player: MakePlayer) -> None:
    make_player("Jean Dupont", rank=-10)
    make_player("DUPONT Jean", rank=-12, slug="dupont-jean-2")
    sync = committee.preview_rank_sync(club.rating_list, ranks_csv(("Jean Dupont", "S-1", "8k")))
    choices = [Choice(line.pk, candidate_line=2) for line in sync.lines.all()]
    with pytest.raises(CommitteeError, match="cannot both be entry S-1"):
        committee.apply_rank_sync(sync, choices, effective=date(2024, 6, 1))
    assert not RankAdjustment.objects.exists()


def test_two_records_merged_after_the_sync_was_read_apply_one_line_not_two(
    club: Club, make_player: MakePlayer
) -> None:
    """The merge moves the duplicate's line to the kept player: the sync then
    has two lines of one player; neither is ticked, and choosing both is refused."""
    from ratings.services.player_changes import merge_players

    ann = make_player("Ann Bee", rank=-10)
    typo = make_player("Ann Be", rank=-12)
    sync = committee.preview_rank_sync(
        club.rating_list, ranks_csv(("Ann Bee", "S-1", "8k"), ("Ann Be", "S-2", "9k"))
    )
    merge_players(typo, ann)
    assert sync.lines.filter(player=ann).count() == 2
    assert committee.default_choices(sync) == [], "neither is ticked: the committee picks one"
    both = [Choice(line.pk) for line in sync.lines.all()]
    with pytest.raises(
        CommitteeError, match="Ann Bee has two lines chosen in this synchronisation; choose one"
    ):
        committee.apply_rank_sync(sync, both, effective=date(2024, 6, 1))
    assert not RankAdjustment.objects.exists()
    own = sync.lines.get(player=ann, national_id="S-1")
    committee.apply_rank_sync(sync, [Choice(own.pk)], effective=date(2024, 6, 1))
    assert RankAdjustment.objects.get().rank == -8


@pytest.mark.django_db(transaction=True)  # the recompute tunes SQLite outside a transaction
def test_applied_adjustments_show_on_the_record_sheet_with_the_players_own_name(
    club: Club, make_player: MakePlayer, client: Client
) -> None:
    from ratings.recompute import recompute_list

    jean = make_player("Jean Dupont", rank=-10)
    sync = committee.preview_rank_sync(club.rating_list, ranks_csv(("Jean Dupont", "S-1", "8k")))
    [adjustment] = committee.apply_rank_sync(
        sync, committee.default_choices(sync), effective=date(2024, 6, 1)
    )
    recompute_list(club.rating_list_id, full=True)
    row = HistoryEntry.objects.get(adjustment=adjustment, system=club.rating_list.primary_system)
    assert (row.player, row.date, row.rank_after) == (jean, date(2024, 6, 1), -8.0)
    page = client.get(reverse("player", args=[jean.slug])).content.decode()
    row_html = page.split('<tr class="adjustment">', 1)[1].split("</tr>", 1)[0]
    # the name cell opens with the player's own name (then the phone's "More" button)
    assert '<td class="name">Jean Dupont<' in row_html


# --- pages ----------------------------------------------------------------------


def _upload(client: Client, data: bytes, name: str = "saga.csv", **extra: Any) -> TestResponse:
    from django.core.files.uploadedfile import SimpleUploadedFile

    return client.post(
        reverse("rank_sync_new"), {"file": SimpleUploadedFile(name, data), "format": "", **extra}
    )


@pytest.mark.parametrize("role", ROLES)
def test_only_the_committee_uploads_a_list(
    role: str, client_for: ClientFor, club: Club, make_player: MakePlayer
) -> None:
    make_player("Ann Bee", rank=-10)
    response = _upload(client_for(role), ranks_csv(("Ann Bee", "S-1", "8k")), rating_list=club.rating_list.pk)
    if role == "committee":
        sync = RankSync.objects.get()
        assert response.status_code == 302 and response["Location"] == sync.get_absolute_url()
    else:
        assert response.status_code == (302 if role == "anonymous" else 403)
        assert not RankSync.objects.exists()


def test_it_matches_players_of_every_club_of_the_list_and_never_another_lists(
    club: Club, other_club: Club, other_list: RatingList, make_player: MakePlayer
) -> None:
    """Ranks belong to the list's players, whatever their home club."""
    make_player("Ann Bee", rank=-10, club=other_club)
    make_player("Cat Dee", rank=-10, club=other_list.clubs.get())
    sync = committee.preview_rank_sync(
        club.rating_list, ranks_csv(("Ann Bee", "S-1", "8k"), ("Cat Dee", "S-2", "8k"))
    )
    assert sync.rating_list == club.rating_list
    lines = lines_by_name(sync)
    assert lines["Ann Bee"].match == "name" and "Cat Dee" not in lines
    assert (sync.read, sync.matched, sync.changes) == (2, 1, 1)


@pytest.mark.parametrize("who", ["volunteer_b", "committee_2"])
def test_no_one_outside_the_lists_committee_uploads_for_it_or_applies_its_sync(
    who: str, outsiders: dict[str, User], club: Club, make_player: MakePlayer
) -> None:
    from django.test import Client

    ann = make_player("Ann Bee", rank=-10)
    client = Client()
    client.force_login(outsiders[who])
    response = _upload(client, ranks_csv(("Ann Bee", "S-1", "8k")), rating_list=club.rating_list.pk)
    assert response.status_code == 403 and not RankSync.objects.exists()
    sync = committee.preview_rank_sync(
        club.rating_list, ranks_csv(("Ann Bee", "S-1", "8k")), filename="sagc.csv"
    )
    line = sync.lines.get(player=ann)
    assert client.get(sync.get_absolute_url()).status_code == 403
    response = client.post(sync.get_absolute_url(), {f"apply_{line.pk}": "on", "effective": "2024-06-01"})
    assert response.status_code == 403 and not RankAdjustment.objects.exists()
    if who == "committee_2":  # their own syncs page lists only their own list's syncs
        page = client.get(reverse("rank_syncs"))
        assert page.status_code == 200 and "sagc.csv" not in page.content.decode()


@pytest.mark.parametrize("role", ROLES)
def test_only_the_committee_applies_a_sync(
    role: str, client_for: ClientFor, club: Club, make_player: MakePlayer
) -> None:
    ann = make_player("Ann Bee", rank=-10)
    sync = committee.preview_rank_sync(club.rating_list, ranks_csv(("Ann Bee", "S-1", "8k")))
    line = sync.lines.get(player=ann)
    response = client_for(role).post(
        sync.get_absolute_url(), {f"apply_{line.pk}": "on", "effective": "2024-06-01"}
    )
    if role == "committee":
        assert response.status_code == 302
        assert RankAdjustment.objects.get().rank == -8.0
    else:
        assert response.status_code == (302 if role == "anonymous" else 403)
        assert not RankAdjustment.objects.exists()
        sync.refresh_from_db()
        assert sync.applied_at is None


@pytest.mark.parametrize("role", ROLES)
def test_only_the_committee_sees_the_syncs(role: str, client_for: ClientFor, club: Club) -> None:
    response = client_for(role).get(reverse("rank_syncs"))
    assert response.status_code == {"anonymous": 302, "player": 403, "volunteer": 403, "committee": 200}[role]


def test_the_preview_lists_every_player_with_the_changes_ticked(
    client_for: ClientFor, club: Club, make_player: MakePlayer
) -> None:
    make_player("Ann Bee", rank=-10)
    make_player("Cee Dee", rank=-8)
    make_player("Jean Dupont", rank=-10)
    make_player("Nobody Here", rank=-10)
    data = ranks_csv(
        ("Ann Bee", "S-1", "8k"),
        ("Cee Dee", "S-3", "8k"),
        ("Dupont, Jean", "S-4", "8k"),
        ("Jean Dupont", "S-5", "3k"),
    )
    sync = committee.preview_rank_sync(club.rating_list, data, filename="saga.csv")
    page = client_for("committee").get(sync.get_absolute_url()).content.decode()
    lines = lines_by_name(sync)
    ann, cee = lines["Ann Bee"].pk, lines["Cee Dee"].pk
    assert f'name="apply_{ann}" aria-label="Apply Ann Bee" id="id_apply_{ann}" checked' in page
    assert f'name="apply_{cee}" aria-label="Apply Cee Dee" id="id_apply_{cee}">' in page  # no change
    assert f'name="pick_{lines["Jean Dupont"].pk}"' in page
    assert "not in the list" in page and "10k → 8k" in page
    assert 'value="2024-06-15"' in page  # the CSV has no date: today


def test_the_preview_groups_ambiguous_new_id_id_and_missing_lines_changes_first(
    client_for: ClientFor, club: Club, make_player: MakePlayer
) -> None:
    for name in ("Abe Absent", "Ann Same", "Zed Change", "Jean Dupont"):
        make_player(name, rank=-10)
    make_player("Kept Id", rank=-10, saga_id="S-9")
    data = ranks_csv(
        ("Ann Same", "S-1", "10k"),
        ("Zed Change", "S-2", "8k"),
        ("Dupont, Jean", "S-4", "8k"),
        ("Jean Dupont", "S-5", "3k"),
        ("Someone Else", "S-9", "10k"),
    )
    sync = committee.preview_rank_sync(club.rating_list, data, filename="saga.csv")
    page = client_for("committee").get(sync.get_absolute_url()).content.decode()
    headings = [
        "Ambiguous: choose the entry (1)",
        "Matched by name: a new national id (2)",
        "Matched by national id (1)",
        "Not in the list (2)",  # and the personas' Player One
    ]
    names = ["Jean Dupont", "Zed Change", "Ann Same", "Kept Id", "Abe Absent"]
    at = {text: page.index(text) for text in headings} | {n: page.index(f">{n}</a>") for n in names}
    assert sorted(at, key=at.__getitem__) == [
        headings[0],
        "Jean Dupont",
        headings[1],
        "Zed Change",  # a change first
        "Ann Same",
        headings[2],
        "Kept Id",
        headings[3],
        "Abe Absent",
    ]


def test_the_preview_is_titled_by_format_and_list_and_names_the_lists_unit(
    client_for: ClientFor, club: Club, make_player: MakePlayer
) -> None:
    club.rating_list.primary_system = "egf"
    club.rating_list.save()
    make_player("Ann Bee", rank=-10)
    sync = committee.preview_rank_sync(
        club.rating_list, ranks_csv(("Ann Bee", "S-1", "8k")), filename="saga.csv"
    )
    page = client_for("committee").get(sync.get_absolute_url()).content.decode()
    title = page[page.index("<title>") : page.index("</title>")]
    assert str(sync.pk) not in title and "CSV rank list for South African Go Clubs" in title
    assert '<th scope="col" class="num">GoR</th>' in page


def test_a_preview_with_nothing_to_apply_says_so_instead_of_offering_apply(
    client_for: ClientFor, club: Club, make_player: MakePlayer
) -> None:
    make_player("Ann Bee", rank=-10)
    sync = committee.preview_rank_sync(
        club.rating_list, ranks_csv(("Someone Else", "S-1", "8k")), filename="saga.csv"
    )
    page = client_for("committee").get(sync.get_absolute_url()).content.decode()
    assert "Nothing to apply" in page and "no player of South African Go Clubs was found" in page
    assert "Apply the ticked changes" not in page


def test_ticking_an_ambiguous_line_without_a_candidate_is_an_error_next_to_it(
    client_for: ClientFor, club: Club, make_player: MakePlayer
) -> None:
    make_player("Jean Dupont", rank=-10)
    sync = committee.preview_rank_sync(
        club.rating_list, ranks_csv(("Dupont, Jean", "S-1", "8k"), ("Jean Dupont", "S-2", "3k"))
    )
    line = sync.lines.get(player__name="Jean Dupont")
    response = client_for("committee").post(
        sync.get_absolute_url(), {f"apply_{line.pk}": "on", "effective": "2024-06-01"}
    )
    assert response.status_code == 400
    assert "choose which entry of the list is Jean Dupont" in response.content.decode()
    assert not RankAdjustment.objects.exists()


def test_choosing_a_candidate_on_the_page_applies_it(
    client_for: ClientFor, club: Club, make_player: MakePlayer
) -> None:
    make_player("Jean Dupont", rank=-10)
    sync = committee.preview_rank_sync(
        club.rating_list, ranks_csv(("Dupont, Jean", "S-1", "8k"), ("Jean Dupont", "S-2", "3k"))
    )
    line = sync.lines.get(player__name="Jean Dupont")
    response = client_for("committee").post(
        sync.get_absolute_url(), {f"apply_{line.pk}": "on", f"pick_{line.pk}": "2", "effective": "2024-06-01"}
    )
    assert response.status_code == 302
    assert RankAdjustment.objects.get().rank == -8.0
    assert Player.objects.get(name="Jean Dupont").saga_id == "S-1"


def test_a_failed_apply_on_the_page_names_the_player_and_changes_nothing(
    client_for: ClientFor, club: Club, make_player: MakePlayer
) -> None:
    make_player("Late Joiner", rank=-10, since=date(2024, 5, 1))
    sync = committee.preview_rank_sync(club.rating_list, ranks_csv(("Late Joiner", "S-2", "6k")))
    line = sync.lines.get(player__name="Late Joiner")
    response = client_for("committee").post(
        sync.get_absolute_url(), {f"apply_{line.pk}": "on", "effective": "2024-01-01"}
    )
    assert response.status_code == 400 and "Late Joiner" in response.content.decode()
    assert not RankAdjustment.objects.exists()


def test_a_future_effective_date_is_refused(
    client_for: ClientFor, club: Club, make_player: MakePlayer
) -> None:
    make_player("Ann Bee", rank=-10)
    sync = committee.preview_rank_sync(club.rating_list, ranks_csv(("Ann Bee", "S-1", "8k")))
    line = sync.lines.get(player__name="Ann Bee")
    response = client_for("committee").post(
        sync.get_absolute_url(), {f"apply_{line.pk}": "on", "effective": "2024-07-01"}
    )
    assert response.status_code == 400 and "2024-07-01 is in the future" in response.content.decode()
    assert not RankAdjustment.objects.exists()


def test_a_bad_upload_names_the_line_and_stores_nothing(
    client_for: ClientFor, club: Club, make_player: MakePlayer
) -> None:
    make_player("Ann Bee", rank=-10)
    response = _upload(
        client_for("committee"),
        ranks_csv(("Ann Bee", "S-1", "8k"), ("X", "S-2", "99z"), ("Y", "S-3", "0z")),
        rating_list=club.rating_list.pk,
    )
    assert response.status_code == 400 and "line 3" in response.content.decode()
    assert not RankSync.objects.exists()


def test_the_list_of_syncs_shows_who_when_file_and_counts(
    client_for: ClientFor, club: Club, make_player: MakePlayer, personas: Personas
) -> None:
    make_player("Ann Bee", rank=-10)
    sync = committee.preview_rank_sync(
        club.rating_list,
        ranks_csv(("Ann Bee", "S-1", "8k"), ("Zed", "S-9", "1d")),
        filename="saga-2024.csv",
        user=personas["committee"],
    )
    committee.apply_rank_sync(
        sync, committee.default_choices(sync), effective=date(2024, 6, 1), user=personas["committee"]
    )
    page = client_for("committee").get(reverse("rank_syncs")).content.decode()
    assert "saga-2024.csv" in page and "committee" in page and "1 from 2024-06-01" in page
    assert (
        '<td class="num">2</td><td class="num">0</td><td class="num">1</td><td class="num">0</td><td class="num">1</td><td class="num">1</td>'
        in page
    )  # "Player One" is missing


def test_an_applied_sync_shows_what_was_applied_and_refuses_a_second_apply(
    client_for: ClientFor, club: Club, make_player: MakePlayer
) -> None:
    ann = make_player("Ann Bee", rank=-10)
    sync = committee.preview_rank_sync(club.rating_list, ranks_csv(("Ann Bee", "S-1", "8k")))
    committee.apply_rank_sync(sync, committee.default_choices(sync), effective=date(2024, 6, 1))
    client = client_for("committee")
    page = client.get(sync.get_absolute_url()).content.decode()
    assert "✔ rank set" in page and "Apply the ticked changes" not in page
    line = sync.lines.get(player=ann)
    response = client.post(sync.get_absolute_url(), {f"apply_{line.pk}": "on", "effective": "2024-06-02"})
    assert response.status_code == 302
    assert RankAdjustment.objects.count() == 1


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.one_of(st.binary(min_size=1, max_size=200), st.text(min_size=1, max_size=200).map(str.encode)))
def test_garbage_uploads_get_a_clear_error_next_to_the_file_and_store_nothing(
    client_for: ClientFor, club: Club, data: bytes
) -> None:
    response = _upload(client_for("committee"), data, name="list.txt", rating_list=club.rating_list.pk)
    if response.status_code == 400:
        assert "list.txt: " in response.content.decode()
        assert not RankSync.objects.exists()
    else:  # a few bytes can happen to be a valid (tiny) CSV list
        assert response.status_code == 302
        RankSync.objects.all().delete()


def test_a_national_id_too_long_for_the_player_field_is_refused_naming_the_line(
    club: Club, make_player: MakePlayer
) -> None:
    make_player("Ann Bee", rank=-10)
    with pytest.raises(
        CommitteeError, match="line 2: national id 'S-123456789012345678901' is longer than the 20"
    ):
        committee.preview_rank_sync(club.rating_list, ranks_csv(("Ann Bee", "S-123456789012345678901", "8k")))
    assert not RankSync.objects.exists()


def test_the_egd_list_matches_by_pin_once_remembered(club: Club, make_player: MakePlayer) -> None:
    from tests.support import REPO

    data = (REPO / "tests" / "data" / "allworld_lp_sample.html").read_bytes()
    alice = make_player("Alice Testeur", rank=-1)  # " 10000001  Testeur Alice  UK Lndn  2d ... 2188"
    first = committee.preview_rank_sync(club.rating_list, data, filename="allworld_lp.html")
    line = lines_by_name(first)["Alice Testeur"]
    assert (first.format, first.as_of, line.match, line.national_rank) == (
        "egd",
        date(2020, 2, 2),
        "name",
        1.0,
    )
    committee.apply_rank_sync(first, committee.default_choices(first), effective=date(2024, 6, 1))
    alice.refresh_from_db()
    assert alice.egd_pin == "10000001"
    assert lines_by_name(committee.preview_rank_sync(club.rating_list, data))["Alice Testeur"].match == "id"
