"""A list's whole archive out and back in (ratings/archive/): the round trip
into a fresh list (history, record sheets and log identical after the
import's recompute), on this database and across SQLite and PostgreSQL;
importing twice; damaged archives refused with the problem named and
nothing written."""

from __future__ import annotations

import hashlib
import io
import json
import os
import subprocess
import sys
import zipfile
from collections.abc import Callable
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError

from accounts.models import CommitteeMember, Volunteer
from ratings import services
from ratings.archive import FORMAT_VERSION, ArchiveError, restore_archive, write_archive
from ratings.archive.kinds import KINDS, LEFT_OUT
from ratings.models import (
    DifferentPeople,
    EventEntry,
    FormerSlug,
    Game,
    LogEntry,
    Player,
    RatingList,
    RecordSheet,
    ResultChange,
)
from ratings.recompute import recompute_list
from ratings.services import GameRow
from ratings.services.player_changes import mark_different_people, merge_players
from ratings.services.sheet_changes import delete_sheet
from tests.site.archive_snapshot import snapshot
from tests.site.conftest import History
from tests.support import PASSWORD, REPO


@pytest.fixture
def full_list(history: History) -> History:
    """The rich history, plus what only a list with a past has: accounts who
    entered sheets, roles, a merge, a deleted sheet, a late game and its
    ripple notes, a former address."""
    rating_list = history.rating_list
    club = rating_list.clubs.order_by("name").first()
    assert club is not None
    volunteer = User.objects.create_user("vol", "vol@example.org", PASSWORD)
    Volunteer.objects.create(user=volunteer, club=club)
    chair = User.objects.create_user("chair", "Chair@Example.org", PASSWORD)
    CommitteeMember.objects.create(user=chair, rating_list=rating_list)
    a, b, c, d = history.players[:4]
    services.save_sheet(
        club=club, date=date(2024, 2, 3), actor=volunteer, event="late night",
        rows=[GameRow(white=d, black=a, handicap=6, komi=Decimal("0.5"), winner="black")],
    )  # fmt: skip
    twin = Player.objects.create(
        rating_list=rating_list, name="Player A twin", slug="player-a-twin", start_rank=-25, rank=-25,
        since=date(2024, 1, 1),
    )  # fmt: skip
    services.save_sheet(
        club=club, date=date(2024, 4, 2), actor=chair,
        rows=[GameRow(white=c, black=twin, handicap=9, komi=Decimal("0.5"), winner="white")],
    )  # fmt: skip
    merge_players(twin, a, actor=chair)
    mark_different_people(c, b, actor=chair)
    doomed = services.save_sheet(
        club=club, date=date(2024, 4, 3), actor=volunteer,
        rows=[GameRow(white=d, black=b, handicap=2, komi=Decimal("0.5"), winner="white")],
    )  # fmt: skip
    delete_sheet(doomed, actor=chair, reason="entered twice")
    spring_open = RecordSheet.objects.get(club__rating_list=rating_list, event="Spring Open")
    EventEntry.objects.create(
        sheet=spring_open, player=b, position=1, place="1", tiebreaks=["3", "12"], byes=[]
    )
    EventEntry.objects.create(sheet=spring_open, player=c, position=2, place="", byes=[[2, "0=", "a bye"]])
    DifferentPeople.objects.update_or_create(
        rating_list=rating_list, first=b, second=c, defaults={"marked_by": chair}
    )
    recompute_list(rating_list.pk)
    assert ResultChange.objects.filter(rating_list=rating_list).exists(), "the late game left ripple notes"
    assert FormerSlug.objects.filter(player=a).exists()
    return history


def archive_of(rating_list: RatingList) -> bytes:
    out = io.BytesIO()
    write_archive(rating_list, out)
    return out.getvalue()


def test_every_model_is_archived_or_left_out_with_a_reason() -> None:
    archived = {kind.model for kind in KINDS}
    models = [*apps.get_app_config("ratings").get_models(), *apps.get_app_config("accounts").get_models()]
    missing = [m.__name__ for m in models if m not in archived and m not in LEFT_OUT]
    assert missing == [], f"add these to ratings/archive/kinds.py (KINDS or LEFT_OUT): {missing}"


def test_the_manifest_names_version_counts_and_checksums(full_list: History) -> None:
    data = archive_of(full_list.rating_list)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        manifest = json.loads(z.read("manifest.json"))
        assert manifest["version"] == FORMAT_VERSION
        games = Game.objects.filter(rating_list=full_list.rating_list).count()
        assert manifest["files"]["games.jsonl"]["rows"] == games == len(z.read("games.jsonl").splitlines())
        for name, about in manifest["files"].items():
            assert hashlib.sha256(z.read(name)).hexdigest() == about["sha256"], name
        text = b"".join(z.read(name) for name in z.namelist()).decode()
    assert "pbkdf2" not in text and "password" not in text, "no password in an archive"
    assert "vol@example.org" in text and "Chair@example.org" in text, "people by e-mail address"


def test_round_trip_into_a_fresh_list_is_identical(full_list: History) -> None:
    rating_list = full_list.rating_list
    before = snapshot(rating_list.slug)
    users = User.objects.count()
    restored = restore_archive(io.BytesIO(archive_of(rating_list)), "sagc-copy")
    after = snapshot("sagc-copy")
    assert restored.rating_list.slug == "sagc-copy"
    assert restored.rating_list.systems == rating_list.systems
    assert len(before["history"]) > 500 and len(before["log"]) > 20
    for part in ("history", "sheets", "log", "entries"):
        assert after[part] == before[part], part
    assert len(after["entries"]) == 2
    assert User.objects.count() == users, "the accounts were found by e-mail address, none made"
    copy = restored.rating_list
    assert set(Volunteer.objects.filter(club__rating_list=copy).values_list("user__username", flat=True)) == {
        "vol"
    }
    assert list(
        CommitteeMember.objects.filter(rating_list=copy).values_list("user__username", flat=True)
    ) == ["chair"]
    b, c = full_list.players[1:3]  # marked as different people
    marks = DifferentPeople.objects.filter(rating_list=copy).select_related("first", "second", "marked_by")
    assert [({m.first.name, m.second.name}, m.marked_by and m.marked_by.username) for m in marks] == [
        ({b.name, c.name}, "chair")
    ]
    marks = DifferentPeople.objects.filter(rating_list=copy)
    assert ("Player B", "Player C", "chair") in [
        (m.first.name, m.second.name, m.marked_by and m.marked_by.username) for m in marks
    ]
    assert marks.count() == DifferentPeople.objects.filter(rating_list=rating_list).count()
    twin_a = Player.objects.get(rating_list=copy, name="Player A")
    assert twin_a.slug == "player-a-2", "the address taken by the original list gets a number"
    merge = LogEntry.objects.get(rating_list=copy, summary__startswith="Merged")
    moved = merge.changes["merged"]
    assert moved["kept"] == twin_a.pk and moved["duplicate"] is None
    assert set(moved["white"] + moved["black"]) <= set(
        Game.objects.filter(rating_list=copy).values_list("pk", flat=True)
    )


def test_the_merge_of_an_imported_list_can_be_undone(full_list: History) -> None:
    from ratings.services.player_changes import unmerge

    copy = restore_archive(io.BytesIO(archive_of(full_list.rating_list)), "sagc-copy").rating_list
    merge = LogEntry.objects.get(rating_list=copy, summary__startswith="Merged")
    back = unmerge(merge)
    assert back.name == "Player A twin" and back.rating_list_id == copy.pk
    assert Game.objects.filter(black=back).count() == 1


def test_importing_twice_creates_nothing_twice(full_list: History, tmp_path: Path) -> None:
    path = tmp_path / "sagc.zip"
    call_command("export_list", "--list", "sagc", "--out", str(path))
    call_command("import_list", str(path), "--as", "sagc-copy")
    counts = _counts()
    with pytest.raises(CommandError, match="'sagc-copy' exists already"):
        call_command("import_list", str(path), "--as", "sagc-copy")
    with pytest.raises(CommandError, match="'sagc' exists already"):
        call_command("import_list", str(path))
    assert _counts() == counts


def test_people_unknown_here_get_inactive_accounts(full_list: History) -> None:
    data = archive_of(full_list.rating_list)
    User.objects.filter(username="vol").delete()
    restored = restore_archive(io.BytesIO(data), "sagc-copy")
    assert restored.accounts_created == ["vol@example.org"]
    made = User.objects.get(email="vol@example.org")
    assert not made.is_active and made.has_usable_password()
    assert (
        RecordSheet.objects.filter(club__rating_list=restored.rating_list, entered_by=made).count() == 1
    )  # the other was deleted


def _counts() -> dict[str, int]:
    return {
        m.__name__: m._default_manager.count()
        for m in (RatingList, Player, Game, RecordSheet, LogEntry, User, FormerSlug, Volunteer, ResultChange)
    }


def _damaged(data: bytes, edit: Callable[[dict[str, bytes], dict[str, Any]], None], *, reseal: bool) -> bytes:
    """The archive ``data`` with ``edit`` applied to its files and manifest;
    ``reseal``: the manifest's counts and checksums made to match again."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        files = {name: z.read(name) for name in z.namelist() if name != "manifest.json"}
        manifest = json.loads(z.read("manifest.json"))
    edit(files, manifest)
    if reseal:
        for name, content in files.items():
            manifest["files"][name] = {
                "rows": len(content.splitlines()),
                "sha256": hashlib.sha256(content).hexdigest(),
            }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name, content in files.items():
            z.writestr(name, content)
        z.writestr("manifest.json", json.dumps(manifest))
    return out.getvalue()


def _edit_game(field: str, value: Callable[[dict[str, Any]], Any]) -> Callable[[dict[str, bytes], Any], None]:
    def edit(files: dict[str, bytes], manifest: Any) -> None:
        lines = files["games.jsonl"].splitlines()
        row = json.loads(lines[5])
        row[field] = value(row)
        lines[5] = json.dumps(row).encode()
        files["games.jsonl"] = b"\n".join(lines) + b"\n"

    return edit


def _replace(name: str, old: bytes, new: bytes) -> Callable[[dict[str, bytes], Any], None]:
    def edit(files: dict[str, bytes], manifest: Any) -> None:
        assert old in files[name]
        files[name] = files[name].replace(old, new, 1)

    return edit


def _drop(name: str) -> Callable[[dict[str, bytes], Any], None]:
    def edit(files: dict[str, bytes], manifest: Any) -> None:
        del files[name]

    return edit


def _version(files: dict[str, bytes], manifest: Any) -> None:
    manifest["version"] = FORMAT_VERSION + 1


DAMAGES = [
    ("a changed byte", _replace("games.jsonl", b'"winner":"white"', b'"winner":"black"'), False,
     "games.jsonl: wrong checksum"),
    ("a missing file", _drop("players.jsonl"), False, "players.jsonl is missing from the archive"),
    ("a newer version", _version, False, f"format version {FORMAT_VERSION + 1}, newer than this site reads"),
    ("a player against himself", _edit_game("black", lambda row: row["white"]), True,
     "games.jsonl line 6: refused by the database"),
    ("a handicap of twelve", _edit_game("handicap", lambda row: 12), True, "games.jsonl line 6: handicap:"),
    ("an unknown winner", _edit_game("winner", lambda row: "nobody"), True, "games.jsonl line 6: winner:"),
    ("a game of a player not in the archive", _edit_game("white", lambda row: 999999), True,
     "games.jsonl line 6: white: 999999 is not a row of players.jsonl"),
    ("a date that is no date", _edit_game("date", lambda row: "2024-02-30"), True, "games.jsonl line 6: date:"),
    ("two players of one name", _replace("players.jsonl", b'"name":"Player C"', b'"name":"Player B"'), True,
     "players.jsonl line 3: refused by the database"),
]  # fmt: skip


@pytest.mark.parametrize(("damage", "edit", "reseal", "named"), DAMAGES, ids=[d[0] for d in DAMAGES])
def test_a_damaged_archive_is_refused_with_the_problem_named_and_nothing_written(
    full_list: History, damage: str, edit: Any, reseal: bool, named: str
) -> None:
    data = _damaged(archive_of(full_list.rating_list), edit, reseal=reseal)
    User.objects.filter(username="vol").delete()  # an account the import would make
    counts = _counts()
    with pytest.raises(ArchiveError) as refused:
        restore_archive(io.BytesIO(data), "sagc-copy")
    assert named in str(refused.value)
    assert _counts() == counts, "nothing written"


def test_the_command_names_the_problem(full_list: History, tmp_path: Path) -> None:
    path = tmp_path / "bad.zip"
    path.write_bytes(_damaged(archive_of(full_list.rating_list), _drop("log.jsonl"), reseal=False))
    with pytest.raises(CommandError, match=r"log\.jsonl is missing from the archive; nothing imported"):
        call_command("import_list", str(path), "--as", "other")
    path.write_bytes(b"not a zip")
    with pytest.raises(CommandError, match="not a zip archive"):
        call_command("import_list", str(path), "--as", "other")


def _other_database(tmp_path: Path) -> dict[str, str]:
    """The environment of a subprocess on a fresh SQLite file."""
    return {**os.environ, "PYTHONPATH": str(REPO), "DATABASE_URL": f"sqlite:///{tmp_path / 'other.sqlite3'}"}


def _manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=REPO, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.postgresql
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_across_postgresql_and_sqlite_both_ways(full_list: History, tmp_path: Path) -> None:
    """Made on PostgreSQL, imported into SQLite (compared there); made again
    on SQLite from that copy, imported back into PostgreSQL (compared here)."""
    before = snapshot("sagc")
    there = tmp_path / "from-postgresql.zip"
    there.write_bytes(archive_of(full_list.rating_list))
    env = _other_database(tmp_path)
    _manage(env, "migrate", "-v0")
    _manage(env, "import_list", str(there))
    done = subprocess.run(
        [sys.executable, "-m", "tests.site.archive_snapshot", "sagc"],
        cwd=REPO, env={**env, "DJANGO_SETTINGS_MODULE": "clubrating.settings"},
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    on_sqlite = json.loads(done.stdout)
    for part in ("history", "sheets", "log"):
        assert on_sqlite[part] == json.loads(json.dumps(before[part])), part
    back = tmp_path / "from-sqlite.zip"
    _manage(env, "export_list", "--list", "sagc", "--out", str(back))
    restore_archive(str(back), "sagc-back")
    after = snapshot("sagc-back")
    for part in ("history", "sheets", "log"):
        assert after[part] == before[part], part


def test_the_recompute_after_import_dates_from_the_first_game(full_list: History) -> None:
    restored = restore_archive(io.BytesIO(archive_of(full_list.rating_list)), "sagc-copy")
    first = Game.objects.filter(rating_list=restored.rating_list).order_by("date").first()
    assert first is not None and first.date == date(2024, 2, 1)
    restored.rating_list.refresh_from_db()
    assert restored.rating_list.dirty_from is None
    assert restored.run is not None and restored.run.status == "done"
    assert date(2024, 2, 1) - timedelta(days=1) < first.date
