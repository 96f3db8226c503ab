"""import_ranks, export_games and import_tournament from the command line."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
import time_machine
from django.core.management import CommandError, call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings import services
from ratings.models import Club, Game, Player, RankAdjustment, RankSync, RecordSheet
from ratings.services import GameRow
from tests.support import DATA, REPO, MakePlayer, make_pool, shared_data


@pytest.fixture(autouse=True)
def _today() -> Iterator[None]:
    with time_machine.travel(date(2024, 6, 15), tick=False):
        yield


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def write(tmp_path: Path, name: str, data: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


RANKS = b'name,national id,rank\n"Ann Bee",S-1,8k\n"Dupont, Jean",S-2,3k\n"Jean Dupont",S-3,4k\n"Cat Dee",S-4,12k\n'


@pytest.fixture
def members(club: Club, make_player: MakePlayer) -> list[Player]:
    return [
        make_player("Ann Bee", rank=-10),
        make_player("Jean Dupont", rank=-5),
        make_player("Cat Dee", rank=-12),
        make_player("Nobody Here", rank=-12),
    ]


# --- import_ranks ----------------------------------------------------------------


def test_import_ranks_prints_the_summary_and_applies_the_changes(
    tmp_path: Path, club: Club, members: list[Player]
) -> None:
    out = run("import_ranks", write(tmp_path, "saga.csv", RANKS), "--date", "2024-06-01")
    assert "read 4, matched 2, ambiguous 1, unmatched 1, changes 1" in out
    assert "change    Ann Bee: 10k -> 8k" in out
    assert (
        "ambiguous Jean Dupont: 2 entries of the list carry this name: "
        "Dupont, Jean (line 3, id S-2); Jean Dupont (line 4, id S-3)"
    ) in out
    assert "missing   Nobody Here" in out
    assert "Applied 1 rank adjustments dated 2024-06-01" in out
    [adjustment] = RankAdjustment.objects.all()
    assert (adjustment.player.name, adjustment.rank, adjustment.date) == ("Ann Bee", -8.0, date(2024, 6, 1))
    # What the preview ticks is applied (committee.default_choices): the changed player keeps
    # the national id; Cat Dee (matched, no change) and the ambiguous Jean Dupont are left alone.
    assert dict(Player.objects.values_list("name", "saga_id")) == {
        "Ann Bee": "S-1", "Cat Dee": "", "Jean Dupont": "", "Nobody Here": "",
    }  # fmt: skip


def test_a_dry_run_writes_nothing_at_all(tmp_path: Path, club: Club, members: list[Player]) -> None:
    out = run("import_ranks", write(tmp_path, "saga.csv", RANKS), "--dry-run")
    assert "changes 1" in out and "Dry run: nothing was written." in out
    assert not RankSync.objects.exists() and not RankAdjustment.objects.exists()
    assert set(Player.objects.values_list("saga_id", flat=True)) == {""}


def test_without_a_date_the_changes_take_effect_today_for_a_list_without_one(
    tmp_path: Path, club: Club, members: list[Player]
) -> None:
    run("import_ranks", write(tmp_path, "saga.csv", RANKS), "--list", club.rating_list.slug)
    assert RankAdjustment.objects.get().date == date(2024, 6, 15)


def test_a_bad_line_is_listed_with_its_number_and_the_rest_imported(
    tmp_path: Path, club: Club, members: list[Player]
) -> None:
    bad = RANKS + b'"Eve Fox",S-5,seven kyu\n'
    out = run("import_ranks", write(tmp_path, "saga.csv", bad), "--dry-run")
    assert "read 4, rejected 1, matched 2, ambiguous 1, unmatched 1, changes 1" in out
    assert "  rejected  line 6: rank: " in out and out.rstrip().endswith("Dry run: nothing was written.")
    assert '"Eve Fox",S-5,seven kyu' in out


def test_a_list_broken_as_a_whole_stops_naming_the_line_and_changes_nothing(
    tmp_path: Path, club: Club, members: list[Player]
) -> None:
    bad = (
        RANKS + b'"Eve Fox",S-5,seven kyu\n"Al Gore",S-6,?\n"Bo Hu",S-7,??\n"Cy Io",S-8,???\n"Di Jo",S-9,!\n'
    )
    with pytest.raises(
        CommandError, match=r"saga.csv: line 6, column \d+: 5 lines do not read .*nothing was changed"
    ):
        run("import_ranks", write(tmp_path, "saga.csv", bad))
    truncated = (
        (REPO / "tests" / "data" / "allworld_lp_sample.html").read_bytes().split(b"Number of players")[0]
    )
    with pytest.raises(
        CommandError, match=r"without its closing line 'Number of players: N'.*nothing was changed"
    ):
        run("import_ranks", write(tmp_path, "allworld_lp.html", truncated))
    assert not RankSync.objects.exists() and not RankAdjustment.objects.exists()


def test_an_unknown_list_or_date_is_a_clear_error(tmp_path: Path, club: Club, members: list[Player]) -> None:
    path = write(tmp_path, "saga.csv", RANKS)
    with pytest.raises(CommandError, match="--list: no list 'nowhere' \\(lists: sagc\\)"):
        run("import_ranks", path, "--list", "nowhere")
    with pytest.raises(CommandError, match="--date: '2024-02-30' is not a date"):
        run("import_ranks", path, "--date", "2024-02-30")
    with pytest.raises(CommandError, match="cannot read"):
        run("import_ranks", str(tmp_path / "missing.csv"))
    assert not RankSync.objects.exists()


def test_several_lists_need_list(tmp_path: Path, club: Club, members: list[Player]) -> None:
    """Ranks belong to a list's players: a second list makes the choice ambiguous."""
    make_pool(name="Other", slug="other")
    with pytest.raises(CommandError, match="give --list \\(one of: other, sagc\\)"):
        run("import_ranks", write(tmp_path, "saga.csv", RANKS))
    assert not RankSync.objects.exists()
    run("import_ranks", write(tmp_path, "saga.csv", RANKS), "--list", "sagc")
    assert RankSync.objects.get().rating_list == club.rating_list


def test_several_clubs_of_one_list_need_club_for_a_tournament(
    tmp_path: Path, club: Club, other_club: Club
) -> None:
    """A tournament is entered at a club: with two clubs in the list, import_tournament asks which."""
    path = str(DATA / "club-open-2024.h9")
    with pytest.raises(CommandError, match="give --club \\(one of: cape-town, stellenbosch\\)"):
        run("import_tournament", path)
    make_pool(name="Autumn Open", slug="autumn-open")
    with pytest.raises(
        CommandError, match="--club: no club 'autumn-open' \\(clubs: cape-town, stellenbosch\\)"
    ):
        run("import_tournament", path, "--list", "sagc", "--club", "autumn-open")
    assert not RecordSheet.objects.exists()
    out = run("import_tournament", path, "--club", "cape-town", "--dry-run")
    assert "would be saved into Cape Town Go Club" in out


def test_an_applied_sync_that_fails_for_one_player_changes_nothing(
    tmp_path: Path, club: Club, members: list[Player], make_player: MakePlayer
) -> None:
    make_player("Late Joiner", rank=-10, since=date(2024, 5, 1))
    data = RANKS + b'"Late Joiner",S-9,2k\n'
    with pytest.raises(CommandError, match="Late Joiner: Late Joiner joined on 2024-05-01"):
        run("import_ranks", write(tmp_path, "saga.csv", data), "--date", "2024-01-01")
    assert not RankSync.objects.exists() and not RankAdjustment.objects.exists()


@pytest.mark.realfiles
def test_the_real_aga_list_is_read_and_summarised(club: Club, make_player: MakePlayer) -> None:
    path = shared_data("tdlista.txt")
    make_player("Zachary Aal", rank=-10)  # "Aal, Zachary  15648  ...  -20.05711": 20k (formats.md)
    out = run("import_ranks", str(path), "--format", "aga", "--dry-run")
    assert "AGA TD list for South African Go Clubs: read 22410, matched 1" in out
    assert "change    Zachary Aal: 10k -> 20k" in out


@pytest.mark.parametrize(
    "name",
    [
        "club-open-2024.h9",
        "club-open-2024.tou",
        "dialect-opengotha351.tou",
        "dialect-egd-download.h9",
        "byes-and-anonymous.h9",
    ],
)
def test_tournament_files_are_refused_as_rank_lists_naming_a_line(
    club: Club, members: list[Player], name: str
) -> None:
    with pytest.raises(CommandError, match=r"line \d+"):
        run("import_ranks", str(DATA / name))
    assert not RankSync.objects.exists()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.one_of(st.binary(max_size=200), st.text(max_size=200).map(str.encode)), dry=st.booleans())
def test_garbage_lists_never_crash_and_change_nothing(
    tmp_path: Path, club: Club, members: list[Player], data: bytes, dry: bool
) -> None:
    path = write(tmp_path, "garbage.csv", data)
    before = (RankSync.objects.count(), RankAdjustment.objects.count())
    try:
        run("import_ranks", path, *(["--dry-run"] if dry else []))
    except CommandError as error:
        assert "nothing was changed" in str(error)
        assert (RankSync.objects.count(), RankAdjustment.objects.count()) == before


# --- export_games and import_tournament -------------------------------------------------


@pytest.fixture
def played(club: Club, members: list[Player]) -> Club:
    ann, jean, cat, _ = members
    services.save_sheet(club=club, date=date(2024, 3, 5), rows=[
        GameRow(white=ann, black=jean, winner="white"), GameRow(white=cat, black=ann, winner="black", handicap=2),
    ])  # fmt: skip
    services.save_sheet(
        club=club, date=date(2024, 5, 5), rows=[GameRow(white=jean, black=cat, winner="jigo")]
    )
    return club


def test_export_games_writes_the_period_to_standard_output(played: Club) -> None:
    out = run("export_games", "--format", "json", "--from", "2024-03-01", "--to", "2024-03-31")
    assert [(g["white"], g["black"]) for g in json.loads(out)["games"]] == [
        ("Ann Bee", "Jean Dupont"),
        ("Cat Dee", "Ann Bee"),
    ]


def test_export_games_writes_a_file(tmp_path: Path, played: Club) -> None:
    target = tmp_path / "club.h9"
    run("export_games", "--format", "h9", "--out", str(target))
    assert "CL[C]" in target.read_text()


def test_export_games_takes_the_list_or_one_of_its_clubs(played: Club, other_club: Club) -> None:
    """A list's export has the games of all its clubs; --club only those played there."""
    ann, jean = Player.objects.get(name="Ann Bee"), Player.objects.get(name="Jean Dupont")
    services.save_sheet(
        club=other_club, date=date(2024, 3, 9), rows=[GameRow(white=jean, black=ann, winner="white")]
    )
    whole = run("export_games", "--format", "json", "--list", "sagc", "--to", "2024-03-31")
    assert [g["date"] for g in json.loads(whole)["games"]] == ["2024-03-05", "2024-03-05", "2024-03-09"]
    away = run("export_games", "--format", "json", "--club", "cape-town")
    assert [(g["white"], g["black"]) for g in json.loads(away)["games"]] == [("Jean Dupont", "Ann Bee")]
    make_pool(name="Other", slug="other")
    with pytest.raises(CommandError, match="give --list \\(one of: other, sagc\\)"):
        run("export_games", "--format", "csv")
    with pytest.raises(CommandError, match="--club: cape-town is a club of the list sagc, not other"):
        run("export_games", "--format", "csv", "--list", "other", "--club", "cape-town")


def test_export_games_refuses_an_empty_period_or_backwards_dates(played: Club) -> None:
    with pytest.raises(CommandError, match="no game between 2020-01-01 and 2020-12-31"):
        run("export_games", "--format", "csv", "--from", "2020-01-01", "--to", "2020-12-31")
    with pytest.raises(CommandError, match="--to 2024-01-01 is before --from 2024-02-01"):
        run("export_games", "--format", "csv", "--from", "2024-02-01", "--to", "2024-01-01")


def test_import_tournament_reports_created_matched_and_skipped(db: None) -> None:
    make_pool(name="Autumn Open", slug="autumn-open")
    out = run("import_tournament", str(DATA / "club-open-2024.h9"))
    # 7 players, 3 rounds, a bye each round (lines 14, 15 and 16): 9 games.
    assert "Saved 9 games (h9) into Autumn Open as record sheet #" in out
    assert "Created: 7" in out and "Matched: 0" in out and "Skipped: 3" in out
    assert "  line 16, round 1: no game this round (bye: '0=')" in out
    # The same tournament again, in the other format: a duplicate, nothing changed.
    with pytest.raises(CommandError, match=r"already imported into Autumn Open .*nothing was changed"):
        run("import_tournament", str(DATA / "club-open-2024.tou"), "--format", "tou")
    assert RecordSheet.objects.count() == 1 and Game.objects.count() == 9


def test_import_tournament_dry_run_saves_nothing(db: None) -> None:
    make_pool(name="Autumn Open", slug="autumn-open")
    out = run("import_tournament", str(DATA / "club-open-2024.tou"), "--dry-run", "--club", "autumn-open")
    assert "Dry run: 9 games (tou) would be saved into Autumn Open; nothing was written." in out
    assert not Game.objects.exists() and not Player.objects.exists()


def test_import_tournament_keeps_games_won_by_default_as_forfeits(db: None) -> None:
    make_pool(name="Dialects", slug="dialects")
    out = run("import_tournament", str(REPO / "tests" / "data" / "dialect-egd-download.h9"))
    assert "Saved 5 games (h9)" in out
    # '4+!' / '1-!' in round 3: kept with the event, marked as a forfeit (never rated).
    forfeits = list(Game.objects.filter(forfeit=True).values_list("white__name", "black__name", "winner"))
    assert forfeits == [("Smith John", "Green Tom", "white")]
    assert Game.objects.filter(forfeit=False).count() == 4


def test_import_tournament_needs_a_date_for_a_file_without_one(db: None) -> None:
    make_pool(name="Dialects", slug="dialects")
    path = str(REPO / "tests" / "data" / "dialect-no-date.h9")
    with pytest.raises(CommandError, match=r"gives no date \(no DT\[start,end\] line\).*nothing was changed"):
        run("import_tournament", path)
    assert not Game.objects.exists()
    with pytest.raises(CommandError, match="--date: '2009-02-30' is not a date"):
        run("import_tournament", path, "--date", "2009-02-30")
    run("import_tournament", path, "--date", "2009-07-26")
    assert list(Game.objects.values_list("date", flat=True)) == [date(2009, 7, 26)]


def test_export_then_import_into_a_fresh_club_gives_the_same_games(tmp_path: Path, played: Club) -> None:
    target = tmp_path / "club.csv"
    run("export_games", "--format", "csv", "--club", played.slug, "--out", str(target))
    make_pool(name="Fresh", slug="fresh")
    run("import_tournament", str(target), "--club", "fresh")

    def games(slug: str) -> list[tuple[object, ...]]:
        rows = Game.objects.filter(club__slug=slug).timeline()
        return list(
            rows.values_list("date", "white__name", "black__name", "handicap", "komi", "winner", "kind")
        )

    assert games("fresh") == games(played.slug)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.one_of(st.binary(max_size=200), st.text(max_size=200).map(str.encode)))
def test_garbage_tournaments_never_crash_and_change_nothing(tmp_path: Path, club: Club, data: bytes) -> None:
    path = write(tmp_path, "garbage.h9", data)
    before = (RecordSheet.objects.count(), Player.objects.count())
    try:
        run("import_tournament", path)
    except CommandError as error:
        assert "nothing was changed" in str(error)
        assert (RecordSheet.objects.count(), Player.objects.count()) == before


def test_a_future_date_is_refused_before_anything_is_read(
    tmp_path: Path, club: Club, members: list[Player]
) -> None:
    with pytest.raises(CommandError, match="--date: 2024-07-01 is in the future"):
        run("import_ranks", write(tmp_path, "saga.csv", RANKS), "--date", "2024-07-01")
    assert not RankSync.objects.exists()


def test_a_file_a_command_writes_is_whole_or_not_written(tmp_path: Path) -> None:
    """A stream that fails half-way (say the database goes away during an
    export) leaves the file as it was and no temporary file beside it."""
    from django.core.management.base import CommandError

    from ratings.management.output import write_atomically

    target = tmp_path / "games.h9"
    target.write_text("the file of last week\n")

    def failing() -> Iterator[str]:
        yield "first half\n"
        raise ConnectionError("server closed the connection")

    with pytest.raises(ConnectionError):
        write_atomically(target, failing())
    assert target.read_text() == "the file of last week\n"
    assert list(tmp_path.iterdir()) == [target]
    write_atomically(target, iter(["new ", "file\n"]))
    assert target.read_text() == "new file\n"
    with pytest.raises(CommandError, match=r"nowhere/games\.h9: cannot write"):
        write_atomically(tmp_path / "nowhere" / "games.h9", "text")
