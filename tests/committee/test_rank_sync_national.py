"""Rank sync at national scale: the documented SAGA id header, a country and
club filter for a list of every country (the EGD's), what became of each id
once applied, why a match is ambiguous, suffixes and titles (issues 23, 26)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

import pytest
import time_machine
from django.core.management import CommandError, call_command

from ratings import committee
from ratings.committee import Choice, CommitteeError, EntrySelection
from ratings.models import Club, Player, RankSync, RankSyncLine
from tests.support import DATA, ClientFor, MakePlayer, realdata

EGD_SAMPLE = (DATA / "allworld_lp_sample.html").read_bytes()


@pytest.fixture(autouse=True)
def _today() -> Iterator[None]:
    with time_machine.travel(date(2024, 6, 15), tick=False):
        yield


def csv_list(header: str, *rows: str) -> bytes:
    return ("\n".join([header, *rows]) + "\n").encode()


def line_of(sync: RankSync, player: Player) -> RankSyncLine:
    return sync.lines.get(player=player)


def page_of(client_for: ClientFor, sync: RankSync) -> str:
    return client_for("committee").get(sync.get_absolute_url()).content.decode()


# --- issue 23: the documented header, truthful outcomes, reasons, suffixes, titles ---


@pytest.mark.parametrize("header", ["Name,SAGA ID,Rank", "name;saga_id;rank", "Name\tSAGA id\tGrade"])
def test_the_documented_saga_id_header_is_accepted(club: Club, make_player: MakePlayer, header: str) -> None:
    ann = make_player("Ann Bee", rank=-10)
    separator = header[4]
    sync = committee.preview_rank_sync(
        club.rating_list, csv_list(header, separator.join(["Ann Bee", "S-1", "8k"])), filename="saga.csv"
    )
    line = line_of(sync, ann)
    assert (line.match, line.national_id, line.national_rank) == ("name", "S-1", -8.0)


def test_a_header_without_an_id_column_still_names_the_accepted_ones(club: Club) -> None:
    from ratings.exchange import ExchangeError

    with pytest.raises(ExchangeError, match=r"no 'national id' column .*saga id"):
        committee.preview_rank_sync(club.rating_list, csv_list("name,member,rank", "Ann Bee,S-1,8k"))


def test_after_applying_the_page_says_which_id_was_kept_stored_or_replaced(
    client_for: ClientFor, club: Club, make_player: MakePlayer
) -> None:
    kept = make_player("Kay Kept", rank=-10, saga_id="S-1")
    stored = make_player("Sam Stored", rank=-10)
    replaced = make_player("Rita Replaced", rank=-10, saga_id="S-OLD")
    data = csv_list("name,saga id,rank", "Kay Kept,S-1,8k", "Sam Stored,S-2,10k", "Rita Replaced,S-3,8k")
    sync = committee.preview_rank_sync(club.rating_list, data)
    assert line_of(sync, replaced).match == "ambiguous"  # another id is stored: never guessed
    choices = [
        Choice(line_of(sync, kept).pk),
        Choice(line_of(sync, stored).pk),
        Choice(line_of(sync, replaced).pk, candidate_line=4),
    ]
    committee.apply_rank_sync(sync, choices, effective=date(2024, 6, 1))
    outcomes = {
        line.player.name: (line.id_outcome, line.previous_id) for line in sync.lines.filter(applied=True)
    }
    assert outcomes == {
        "Kay Kept": ("kept", "S-1"),
        "Sam Stored": ("stored", ""),
        "Rita Replaced": ("replaced", "S-OLD"),
    }
    replaced.refresh_from_db()
    assert replaced.saga_id == "S-3"
    page = page_of(client_for, sync)
    assert "id kept" in page and "id S-2 stored" in page and "id S-OLD replaced by S-3" in page
    # Sam's rank was already right: the id is stored, no rank set.
    sam_row = page[page.index(">Sam Stored</a>") - 400 : page.index(">Sam Stored</a>")]
    assert "rank set" not in sam_row and "id S-2 stored" in sam_row


def test_each_ambiguous_line_says_why(client_for: ClientFor, club: Club, make_player: MakePlayer) -> None:
    twice = make_player("Jean Dupont", rank=-10)
    other_id = make_player("Léa Martin", rank=-10, saga_id="S-5", slug="lea-martin")
    first = make_player("Li Wei", rank=-10)
    second = make_player("Wei Li", rank=-12)
    data = csv_list(
        "name,saga id,rank",
        '"Dupont, Jean",S-1,8k',
        "Jean Dupont,S-2,3k",
        "Lea Martin,S-3,8k",
        "Li Wei,S-4,8k",
    )
    sync = committee.preview_rank_sync(club.rating_list, data)
    assert line_of(sync, twice).reason == "2 entries of the list carry this name"
    assert "the entry's id S-3 is not the id S-5 stored on the player" in line_of(sync, other_id).reason
    assert line_of(sync, first).reason == "Wei Li also has this name: Li Wei (line 5) may be either"
    assert line_of(sync, second).reason == "Li Wei also has this name: Li Wei (line 5) may be either"
    page = page_of(client_for, sync)
    assert "Why: 2 entries of the list carry this name." in page
    assert "Why: Wei Li also has this name" in page


def test_two_players_of_one_name_show_with_their_suffix(
    client_for: ClientFor, club: Club, make_player: MakePlayer
) -> None:
    make_player("Jean Dupont", rank=-10, suffix="Cape Town")
    make_player("Jean Dupont", rank=-12, suffix="junior", slug="jean-dupont-junior")
    sync = committee.preview_rank_sync(club.rating_list, csv_list("name,saga id,rank", "Jean Dupont,S-1,8k"))
    page = page_of(client_for, sync)
    assert ">Jean Dupont (Cape Town)</a>" in page and ">Jean Dupont (junior)</a>" in page
    assert "Jean Dupont (Cape Town) also has this name" in page


def test_refusals_name_players_of_one_name_with_their_suffix(club: Club, make_player: MakePlayer) -> None:
    paris = make_player("Jean Dupont", rank=-10, suffix="Paris")
    junior = make_player("Jean Dupont", rank=-14, suffix="junior", slug="jean-dupont-junior")
    sync = committee.preview_rank_sync(club.rating_list, csv_list("name,saga id,rank", "Jean Dupont,S-1,8k"))
    both = [Choice(line_of(sync, p).pk, candidate_line=2) for p in (paris, junior)]
    with pytest.raises(
        CommitteeError, match=r"^Jean Dupont \(junior\) and Jean Dupont \(Paris\) cannot both be entry S-1"
    ):
        committee.apply_rank_sync(sync, both, effective=date(2024, 6, 1))
    with pytest.raises(
        CommitteeError, match=r"^Jean Dupont \(Paris\): choose which of the 1 entries is theirs"
    ):
        committee.apply_rank_sync(sync, [Choice(line_of(sync, paris).pk)], effective=date(2024, 6, 1))


@pytest.mark.parametrize(
    ("data", "title"),
    [
        (EGD_SAMPLE, "EGD rating list for South African Go Clubs"),
        (csv_list("name,saga id,rank", "Ann Bee,S-1,8k"), "CSV rank list for South African Go Clubs"),
    ],
)
def test_titles_name_the_list_once(
    client_for: ClientFor, club: Club, make_player: MakePlayer, data: bytes, title: str
) -> None:
    make_player("Ann Bee", rank=-10)
    page = page_of(client_for, committee.preview_rank_sync(club.rating_list, data))
    assert f"<h1>{title}</h1>" in page and f"<title>{title}" in page
    assert "list list" not in page


def test_names_match_through_the_sites_one_matching(club: Club, make_player: MakePlayer) -> None:
    zoe = make_player("Zoë Müller", rank=-10, slug="zoe-muller")
    strauss = make_player("Hans Strauß", rank=-10, slug="hans-strauss")
    data = csv_list("name,saga id,rank", "MUELLER Zoe,S-1,8k", "Strauss Hans,S-2,8k")
    sync = committee.preview_rank_sync(club.rating_list, data)
    assert (line_of(sync, zoe).match, line_of(sync, zoe).national_id) == ("name", "S-1")
    assert (line_of(sync, strauss).match, line_of(sync, strauss).national_id) == ("name", "S-2")


def test_a_close_name_is_offered_never_taken(
    client_for: ClientFor, club: Club, make_player: MakePlayer
) -> None:
    riaan = make_player("Riaan Wnag", rank=-10)
    make_player("Andre Marais", rank=-10)
    data = csv_list("name,saga id,rank", "WANG Riaan,S-1,3k", "Wong Riaan,S-2,5k", "Marais Andrea,S-3,5k")
    sync = committee.preview_rank_sync(club.rating_list, data)
    line = line_of(sync, riaan)
    assert (line.match, line.national_rank) == ("ambiguous", None)
    assert [c["national_id"] for c in line.candidates] == ["S-1"]
    assert line.reason == "no entry has this name exactly; the closest: WANG Riaan (line 2)"
    assert (sync.matched, sync.changes) == (0, 0)
    assert "Why: no entry has this name exactly" in page_of(client_for, sync)


# --- issue 26: a country and clubs -------------------------------------------------


def test_a_country_keeps_its_entries_for_names(club: Club, make_player: MakePlayer) -> None:
    # The sample: Dupont Jean FR 75Pa, Testeur Alice UK Lndn.
    jean = make_player("Jean Dupont", rank=-10)
    alice = make_player("Alice Testeur", rank=-10)
    sync = committee.preview_rank_sync(club.rating_list, EGD_SAMPLE, selection=EntrySelection(country="fr"))
    assert (line_of(sync, jean).match, line_of(sync, jean).national_id) == ("name", "10000005")
    assert line_of(sync, alice).match == "missing"  # in the list, but of the UK
    assert (sync.country, sync.read, sync.selected) == ("FR", 6, 3)


def test_clubs_keep_their_entries_for_names(club: Club, make_player: MakePlayer) -> None:
    jean = make_player("Jean Dupont", rank=-10)
    alice = make_player("Alice Testeur", rank=-10)
    sync = committee.preview_rank_sync(
        club.rating_list, EGD_SAMPLE, selection=EntrySelection(clubs=" lndn ; 38GJ")
    )
    assert line_of(sync, alice).match == "name" and line_of(sync, jean).match == "missing"
    assert (sync.clubs, sync.selected) == ("lndn, 38GJ", 2)


def test_a_stored_id_is_found_outside_the_country(club: Club, make_player: MakePlayer) -> None:
    alice = make_player("Alice Testeur", rank=-10, egd_pin="10000001")  # moved to the UK
    sync = committee.preview_rank_sync(club.rating_list, EGD_SAMPLE, selection=EntrySelection(country="FR"))
    assert (line_of(sync, alice).match, line_of(sync, alice).national_rank) == ("id", 1.0)


def test_a_filter_the_list_cannot_apply_is_refused_naming_it(club: Club, make_player: MakePlayer) -> None:
    make_player("Ann Bee", rank=-10)
    data = csv_list("name,saga id,rank", "Ann Bee,S-1,8k")
    with pytest.raises(CommitteeError, match="country: this list gives no country"):
        committee.preview_rank_sync(club.rating_list, data, selection=EntrySelection(country="ZA"))
    with pytest.raises(CommitteeError, match="no player of the list is of country ZA"):
        committee.preview_rank_sync(club.rating_list, EGD_SAMPLE, selection=EntrySelection(country="ZA"))
    assert not RankSync.objects.exists()


def test_the_upload_page_takes_a_country_and_clubs(
    client_for: ClientFor, club: Club, make_player: MakePlayer
) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    jean = make_player("Jean Dupont", rank=-10)
    client = client_for("committee")

    def upload(**fields: str) -> object:
        body = {
            "rating_list": club.rating_list.pk,
            "file": SimpleUploadedFile("allworld_lp.html", EGD_SAMPLE),
        }
        return client.post(reverse("rank_sync_new"), body | fields)

    refused = upload(country="France")
    assert refused.status_code == 400  # type: ignore[attr-defined]
    assert "a country is two letters" in refused.content.decode()  # type: ignore[attr-defined]
    assert not RankSync.objects.exists()
    assert upload(country="FR", clubs="75Pa").status_code == 302  # type: ignore[attr-defined]
    sync = RankSync.objects.get()
    assert (sync.country, sync.clubs, line_of(sync, jean).match) == ("FR", "75Pa", "name")
    page = page_of(client_for, sync)
    assert "Names were matched among the 2 entries of country FR, club 75Pa" in page
    listed = client.get(reverse("rank_syncs")).content.decode()
    assert "names among 2: country FR, clubs 75Pa" in listed


def test_the_upload_page_tells_the_codes_the_list_knows(
    client_for: ClientFor, club: Club, other_club: Club
) -> None:
    from django.urls import reverse

    client = client_for("committee")
    assert "Known codes" not in client.get(reverse("rank_sync_new")).content.decode()
    club.rating_list.country = "ZA"
    club.rating_list.save()
    Club.objects.filter(pk=club.pk).update(egd_code="Stel")
    Club.objects.filter(pk=other_club.pk).update(egd_code="Cape")
    page = client.get(reverse("rank_sync_new")).content.decode()
    assert "Known codes: South African Go Clubs: country ZA, clubs Cape, Stel." in page


def test_import_ranks_takes_a_country(
    club: Club, make_player: MakePlayer, capsys: pytest.CaptureFixture[str]
) -> None:
    make_player("Alice Testeur", rank=-10)
    path = DATA / "allworld_lp_sample.html"
    call_command("import_ranks", str(path), "--country", "FR", "--dry-run")
    out = capsys.readouterr().out
    assert "read 6 (names among the 3 of country FR)" in out and "missing   Alice Testeur" in out
    with pytest.raises(CommandError, match="no player of the list is of country ZA; nothing was changed"):
        call_command("import_ranks", str(path), "--country", "ZA", "--dry-run")


@pytest.mark.realfiles
def test_the_real_egd_list_of_every_country_is_narrowed_to_south_africa(
    club: Club, make_player: MakePlayer
) -> None:
    data = realdata("egf_db-2018-12.txt")
    # Lines of the file, counted with grep: 22 players of ZA among 45,085;
    # " 10449549  Chow Victor  ZA xxxx 7d", " 10986107  Scheffler Konrad  ZA CTo 2d",
    # " 15301792  Davies Andrew_Lewis  ZA xxxx 3d".
    chow = make_player("Victor Chow", rank=-5)
    konrad = make_player("Konrad Scheffler", rank=-5)
    andrew = make_player("Andrew Lewis Davies", rank=-5)
    sync = committee.preview_rank_sync(club.rating_list, data, selection=EntrySelection(country="ZA"))
    assert (sync.read, sync.selected) == (45085, 22)
    assert (line_of(sync, andrew).match, line_of(sync, andrew).national_rank) == ("name", 2.0)
    assert (line_of(sync, chow).match, line_of(sync, chow).national_rank) == ("name", 6.0)
    assert (line_of(sync, konrad).match, line_of(sync, konrad).national_id) == ("name", "10986107")
    by_club = committee.preview_rank_sync(
        club.rating_list, data, selection=EntrySelection(country="ZA", clubs="CTo")
    )
    assert by_club.selected == 1 and line_of(by_club, chow).match == "missing"
