"""Tournament imports: h9 and .tou as one record sheet, all or nothing.

The tournament of most tests is ours, in both formats: tests/data/club-open-2024.h9
and .tou (7 players, 3 rounds, one bye a round, 9 games, two of them even).
The tests marked ``realfiles`` run the importer on files written by other
software, from the shared folder beside the repository."""

from __future__ import annotations

from collections import Counter
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings import committee
from ratings.committee import CommitteeError
from ratings.exchange import ExchangeError, name_key
from ratings.models import Club, Game, LogEntry, Player, RatingList, RecordSheet
from tests.support import DATA, ROLES, ClientFor, MakePlayer, make_pool, shared_bytes, shared_data

if TYPE_CHECKING:
    from tests.support import TestResponse


def club_open(ext: str) -> bytes:
    return (DATA / f"club-open-2024.{ext}").read_bytes()


def new_club(slug: str) -> Club:
    return make_pool(name=slug.title(), slug=slug)


def games_of(club: Club) -> Counter[tuple[str, str, int, str, str]]:
    """Every game of a club by the players' name keys, handicap, komi and winner."""
    return Counter(
        (name_key(g.white.name), name_key(g.black.name), g.handicap, str(g.komi), g.winner)
        for g in Game.objects.filter(club=club).select_related("white", "black")
    )


def state() -> tuple[int, int, int, int]:
    return (
        RecordSheet.objects.count(),
        Game.objects.count(),
        Player.objects.count(),
        LogEntry.objects.count(),
    )


# --- our tournament in both formats ----------------------------------------------------


def test_it_imports_an_h9_file_as_one_sheet_of_tournament_games(club: Club) -> None:
    report = committee.import_tournament(club, club_open("h9"), filename="club-open-2024.h9")
    sheet = report.sheet
    assert sheet is not None and (sheet.event, sheet.date, sheet.event_class) == (
        "Stellenbosch Autumn Open",
        date(2024, 4, 13),
        "B",
    )
    games = list(sheet.games.select_related("white", "black"))
    # 7 players, 3 rounds, one bye a round: 3 games a round.
    assert len(games) == report.games == 9
    assert {g.kind for g in games} == {"tournament"}
    first = next(g for g in games if {g.white.name, g.black.name} == {"Naidoo Priya", "Botha Johan"})
    # Line 10 "1 Naidoo Priya ... 2+/w0": Naidoo had White, even game, and won; KM[6.5].
    assert (first.white.name, first.winner, first.handicap, first.komi) == (
        "Naidoo Priya",
        "white",
        0,
        Decimal("6.5"),
    )
    assert sorted(g.handicap for g in games) == [0, 0, 1, 1, 2, 3, 4, 8, 9]
    assert {g.komi for g in games if g.handicap > 0} == {0.5}  # handicap games: 0.5 (formats.md)
    assert len(report.created) == Player.objects.filter(rating_list=club.rating_list).count() == 7
    # Byes are reported with their lines: line 16 is Smit Elsa, "0=" in round 1.
    assert "line 16, round 1: no game this round (bye: '0=')" in report.skipped
    # ... and kept with the event, on its record sheet: no game, so nothing rated.
    assert sheet.comments == (
        "Imported from club-open-2024.h9 (h9). No game (byes, not paired): round 3: Mokoena Thabo "
        "(bye: '0='); round 2: Pillay Kiran (bye: '0='); round 1: Smit Elsa (bye: '0=')."
    )


def test_the_same_tournament_in_h9_and_tou_gives_the_same_games(db: None) -> None:
    from_h9, from_tou = new_club("from-h9"), new_club("from-tou")
    committee.import_tournament(from_h9, club_open("h9"), filename="club-open-2024.h9")
    committee.import_tournament(from_tou, club_open("tou"), filename="club-open-2024.tou")
    assert games_of(from_h9) == games_of(from_tou)
    assert sum(games_of(from_h9).values()) == 9
    # The .tou gives licences, which new players keep (the next import matches them by id).
    assert Player.objects.get(rating_list=from_tou.rating_list, name="Naidoo Priya").ffg_licence == "2400011"
    assert Player.objects.get(rating_list=from_tou.rating_list, name="Pillay Kiran").ffg_licence in ("", None)


def test_the_same_tournament_twice_is_refused_even_in_the_other_format(club: Club) -> None:
    committee.import_tournament(club, club_open("h9"), filename="club-open-2024.h9")
    before = state()
    for ext in ("h9", "tou"):
        with pytest.raises(
            CommitteeError, match="Stellenbosch Autumn Open of 2024-04-13 was already imported"
        ):
            committee.import_tournament(club, club_open(ext), filename=f"club-open-2024.{ext}")
    assert state() == before


def test_the_same_tournament_at_another_club_of_the_list_is_refused_but_another_list_takes_it(
    club: Club, other_club: Club
) -> None:
    """The games of every club of a list are one pool: the same
    tournament entered at club B would count its games twice."""
    committee.import_tournament(club, club_open("h9"), filename="club-open-2024.h9")
    before = state()
    with pytest.raises(CommitteeError, match="already imported into Stellenbosch Go Club"):
        committee.import_tournament(other_club, club_open("tou"), filename="club-open-2024.tou")
    assert state() == before
    elsewhere = new_club("elsewhere")
    report = committee.import_tournament(elsewhere, club_open("tou"), filename="club-open-2024.tou")
    assert report.games == 9 and len(report.created) == 7  # no player of the SAGC list is reused


def test_it_matches_the_lists_players_by_licence_then_by_name_whatever_their_home_club(
    club: Club, other_club: Club, other_list: RatingList, make_player: MakePlayer
) -> None:
    """A tournament at one club meets players of the whole list,
    never those of another list."""
    by_id = make_player("Priya N.", rank=1, ffg_licence="2400011", since=date(2024, 1, 1))
    by_name = make_player("Sípho DLAMINI", rank=-1, since=date(2024, 1, 1), club=other_club)
    stranger = make_player("Johan Botha", rank=0, since=date(2024, 1, 1), club=other_list.clubs.get())
    report = committee.import_tournament(club, club_open("tou"), filename="club-open-2024.tou")
    assert "Naidoo Priya → Priya N." in report.matched and "Dlamini Sipho → Sípho DLAMINI" in report.matched
    # Rounds 1 to 3: Naidoo met players 2, 3 and 7; Dlamini 4, 1 and 2.
    assert Game.objects.of_player(by_id).count() == 3 and Game.objects.of_player(by_name).count() == 3
    assert not Player.objects.filter(name="Naidoo Priya").exists()
    assert not Game.objects.of_player(stranger).exists()
    # The other list's Johan Botha is not matched: a new player of this list, whose home is the club.
    new = Player.objects.get(rating_list=club.rating_list, name="Botha Johan")
    assert new.home_club == club and Game.objects.of_player(new).exists()


def test_two_club_players_with_the_files_name_stop_the_import(club: Club, make_player: MakePlayer) -> None:
    make_player("Sipho Dlamini", rank=-1)
    make_player("DLAMINI Sipho", rank=-1, slug="other")
    before = state()
    with pytest.raises(CommitteeError, match="line 12: Dlamini Sipho matches several club players"):
        committee.import_tournament(club, club_open("h9"), filename="club-open-2024.h9")
    assert state() == before


def test_a_dry_run_reports_and_saves_nothing(club: Club) -> None:
    before = state()
    report = committee.import_tournament(club, club_open("h9"), filename="club-open-2024.h9", dry_run=True)
    assert report.dry_run and report.games == 9 and len(report.created) == 7
    assert state() == before


def test_a_file_with_only_byes_and_anonymous_players_is_refused_with_its_first_line(club: Club) -> None:
    before = state()
    with pytest.raises(
        CommitteeError,
        match=r"has no game to import \(6 items skipped, the first: line 5: anonymous player \('\? \?'\)",
    ):
        name = "byes-and-anonymous.h9"  # its one game has an anonymous player ('? ?'); all else are byes
        committee.import_tournament(club, (DATA / name).read_bytes(), filename=name)
    assert state() == before


@pytest.mark.realfiles
@pytest.mark.parametrize(
    "name", ["juvisy-2019.h9", "juvisy-2019.tou", "istanbul-online-2020.h9", "cdfa-2020.tou"]
)
def test_the_real_tournaments_import(club: Club, name: str) -> None:
    report = committee.import_tournament(club, shared_bytes(name), filename=name)
    assert report.sheet is not None and report.sheet.games.count() == report.games > 0


@pytest.mark.parametrize("name", ["dialect-ech_ffg_V3.txt", "dialect-tdlista-short.txt"])
def test_rank_lists_are_refused_as_tournaments_naming_a_line(club: Club, name: str) -> None:
    before = state()
    with pytest.raises((ExchangeError, CommitteeError), match=r"line \d+"):
        committee.import_tournament(club, (DATA / name).read_bytes(), filename=name)
    assert state() == before


@pytest.mark.realfiles
def test_every_shared_file_is_imported_or_refused_naming_a_line(db: None) -> None:
    """Every file of the shared data folder (README.md excepted), each into a fresh club."""
    files = sorted(p for p in shared_data("").iterdir() if p.name != "README.md")
    for number, path in enumerate(files):
        target = new_club(f"club-{number}")
        try:
            report = committee.import_tournament(target, path.read_bytes(), filename=path.name)
        except (ExchangeError, CommitteeError) as error:
            assert "line " in str(error), f"{path.name}: {error}"
            assert not Game.objects.filter(club=target).exists()
        else:
            assert report.sheet is not None and Game.objects.filter(club=target).count() == report.games


# --- bad input ----------------------------------------------------------------------


def test_a_truncated_file_is_refused_naming_the_line(club: Club) -> None:
    data = club_open("h9")
    cut = data[: data.index(b"Mokoena") + 24]  # inside line 14, after its first result
    before = state()
    with pytest.raises(ExchangeError, match="line 14"):
        committee.import_tournament(club, cut, filename="club-open-2024.h9")
    assert state() == before


def test_contradictory_lines_are_refused_naming_both(club: Club) -> None:
    # Line 10 says Naidoo beat player 2 with White in round 1; make line 11 say Botha had White too.
    data = club_open("h9").replace(b"1-/b0   5+/w4", b"1-/w0   5+/w4", 1)
    before = state()
    with pytest.raises(
        ExchangeError, match=r"line 10, column \d+ \(and line 11\): round 1: the two lines disagree"
    ):
        committee.import_tournament(club, data, filename="club-open-2024.h9")
    assert state() == before


def test_a_wrong_encoding_is_refused_naming_the_line(club: Club) -> None:
    data = club_open("h9").decode("ascii").encode("utf-16-le")  # no byte-order mark
    with pytest.raises(ExchangeError, match="line 1"):
        committee.import_tournament(club, data, filename="club-open-2024.h9")
    assert state()[0] == 0


def test_a_wrong_format_is_refused_naming_the_line(club: Club) -> None:
    with pytest.raises(ExchangeError, match="line"):
        committee.import_tournament(club, club_open("h9"), filename="club-open-2024.h9", format="tou")
    assert state()[0] == 0


def test_a_board_size_the_site_does_not_record_is_refused(club: Club) -> None:
    data = club_open("tou").replace(b";size=19", b";size=11")
    with pytest.raises(CommitteeError, match="board size 11"):
        committee.import_tournament(club, data, filename="club-open-2024.tou")
    assert state()[0] == 0


def test_a_game_before_a_matched_players_joining_date_names_the_lines(
    club: Club, make_player: MakePlayer
) -> None:
    make_player("Priya Naidoo", rank=1, since=date(2025, 1, 1))
    with pytest.raises(
        CommitteeError,
        match=r"^line 10 \(and line 11\): Priya Naidoo joined on 2025-01-01; a game dated 2024-04-13 is before that; line 10 \(and line 12\)",
    ):
        committee.import_tournament(club, club_open("h9"), filename="club-open-2024.h9")
    assert state()[0] == 0


_MUTATIONS = st.sampled_from(["delete", "duplicate", "swap", "cut", "replace"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    ext=st.sampled_from(["h9", "tou"]),
    how=_MUTATIONS,
    where=st.integers(min_value=0, max_value=10_000),
    junk=st.binary(min_size=0, max_size=12),
)
def test_mangled_files_give_a_clear_error_or_a_whole_import_never_half(
    club: Club, ext: str, how: str, where: int, junk: bytes
) -> None:
    data = club_open(ext)
    lines = data.split(b"\n")
    i = where % len(lines)
    if how == "delete":
        lines.pop(i)
    elif how == "duplicate":
        lines.insert(i, lines[i])
    elif how == "swap":
        lines[i], lines[-1 - i] = lines[-1 - i], lines[i]
    mangled = b"\n".join(lines)
    if how == "cut":
        mangled = data[: where % len(data)]
    elif how == "replace":
        at = where % len(data)
        mangled = data[:at] + junk + data[at + len(junk) :]
    _import_or_clear_error(club, mangled)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.one_of(st.binary(max_size=300), st.text(max_size=300).map(str.encode)))
def test_garbage_gives_a_clear_error_and_changes_nothing(club: Club, data: bytes) -> None:
    _import_or_clear_error(club, data)


def _import_or_clear_error(club: Club, data: bytes) -> None:
    with transaction.atomic():
        before = state()
        try:
            report = committee.import_tournament(club, data, filename="upload")
        except (ExchangeError, CommitteeError) as error:
            assert str(error)
            assert state() == before
        else:
            assert report.sheet is not None
            assert Game.objects.filter(sheet=report.sheet).count() == report.games
        transaction.set_rollback(True)


# --- the page ----------------------------------------------------------------------


def _post(
    client: Client, data: bytes, club: Club, name: str = "club-open-2024.h9", **extra: Any
) -> TestResponse:
    """Upload the file: the answer is the preview (a redirect) or the refusal."""
    return client.post(
        reverse("tournament_import"),
        {"file": SimpleUploadedFile(name, data), "club": club.pk, "format": "", **extra},
    )


def _import(client: Client, data: bytes, club: Club, name: str = "club-open-2024.h9") -> TestResponse:
    """Upload, then "Save these N games" on the preview; the answer to the save."""
    preview = _post(client, data, club, name)
    assert preview.status_code == 302, preview.content.decode()[:2000]
    return client.post(preview["Location"])


@pytest.mark.parametrize("role", ROLES)
def test_only_the_committee_imports_a_tournament(role: str, client_for: ClientFor, club: Club) -> None:
    data = club_open("h9")
    before = state()
    if role == "committee":
        response = _import(client_for(role), data, club)
        assert response.status_code == 302
        assert RecordSheet.objects.get(club=club).games.count() == 9
        return
    response = _post(client_for(role), data, club)
    assert response.status_code == (302 if role == "anonymous" else 403)
    assert state() == before


@pytest.mark.parametrize("who", ["volunteer_b", "committee_2"])
def test_no_one_outside_the_lists_committee_imports_into_its_clubs(
    who: str, outsiders: dict[str, User], club: Club, other_club: Club
) -> None:

    client = Client()
    client.force_login(outsiders[who])
    before = state()
    for target in (club, other_club):
        assert _post(client, club_open("h9"), target).status_code == 403
    assert state() == before


def test_the_committee_imports_at_any_club_of_its_list(client_for: ClientFor, other_club: Club) -> None:
    response = _import(client_for("committee"), club_open("h9"), other_club)
    assert response.status_code == 302
    assert RecordSheet.objects.get(club=other_club).games.count() == 9


@pytest.mark.parametrize("role", ROLES)
def test_only_the_committee_sees_the_import_page(role: str, client_for: ClientFor) -> None:
    response = client_for(role).get(reverse("tournament_import"))
    assert response.status_code == {"anonymous": 302, "player": 403, "volunteer": 403, "committee": 200}[role]


def test_the_preview_reports_created_matched_and_skipped_with_lines(
    client_for: ClientFor, club: Club
) -> None:
    client = client_for("committee")
    page = client.get(_post(client, club_open("h9"), club)["Location"]).content.decode()
    assert "New players (7)" in page and "<td>Naidoo Priya</td><td>2d</td>" in page
    assert "line 16, round 1: no game this round" in page
    response = client.post(_post(client, club_open("h9"), club)["Location"], follow=True)
    sheet = RecordSheet.objects.get(club=club)
    assert response.redirect_chain[-1][0] == sheet.get_absolute_url()
    assert "9 games saved; ratings will update shortly." in response.content.decode()


def test_the_page_asks_for_a_file_when_none_was_chosen(client_for: ClientFor, club: Club) -> None:
    response = client_for("committee").post(reverse("tournament_import"), {"club": club.pk, "format": ""})
    assert response.status_code == 400
    assert "choose the file to upload" in response.content.decode()


def test_the_page_shows_a_bad_file_s_line_next_to_the_file(client_for: ClientFor, club: Club) -> None:
    data = club_open("h9").replace(b"1-/b0   5+/w4", b"1-/w0   5+/w4", 1)
    response = _post(client_for("committee"), data, club)
    assert response.status_code == 400
    assert "club-open-2024.h9: line 10" in response.content.decode()
    assert state()[0] == 0


def test_the_upload_alone_saves_nothing(client_for: ClientFor, club: Club) -> None:
    # The preview replaced the "Check only" box (tests/committee/test_tournament_preview.py).
    before = state()
    response = _post(client_for("committee"), club_open("h9"), club)
    assert response.status_code == 302 and state() == before


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.one_of(st.binary(min_size=1, max_size=200), st.text(min_size=1, max_size=200).map(str.encode)))
def test_garbage_uploads_get_a_clear_error_next_to_the_file_and_change_nothing(
    client_for: ClientFor, club: Club, data: bytes
) -> None:
    before = state()
    response = _post(client_for("committee"), data, club, name="results.h9")
    assert response.status_code == 400
    assert "results.h9: " in response.content.decode()
    assert state() == before
