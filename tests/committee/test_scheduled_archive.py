"""Every list's archive on a schedule (ratings/archive/scheduled.py, the
Celery beat task ratings.tasks.archive_lists_task): written whole into the
site admin's folder, the newest N of each list kept, importable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ratings.archive import restore_archive
from ratings.archive.scheduled import archives_of
from ratings.models import Club, RatingList
from ratings.tasks import archive_lists_task
from tests.support import REPO


def test_each_run_archives_every_list_and_keeps_the_newest(
    settings: Any, tmp_path: Path, club: Club, other_list: RatingList
) -> None:
    folder = tmp_path / "archives"
    settings.LIST_ARCHIVE_DIR = str(folder)
    settings.LIST_ARCHIVE_KEEP = 2
    runs = [archive_lists_task.apply().get() for _ in range(3)]
    assert [len(run) for run in runs] == [2, 2, 2], "both lists each run"
    for i, slug in enumerate(("guildford", "sagc")):  # each run writes them in this order
        kept = [path.name for path in archives_of(folder, slug)]
        assert kept == [Path(run[i]).name for run in runs[1:]], "the first run's archive was removed"
    assert len(list(folder.iterdir())) == 4
    assert not [p for p in folder.iterdir() if p.name.startswith(".")], "no partial file left"
    restored = restore_archive(str(archives_of(folder, "guildford")[-1]), "guildford-copy")
    assert restored.rating_list.clubs.count() == 1


def test_the_beat_schedule_has_it_only_when_a_folder_is_named(tmp_path: Path) -> None:
    code = "from clubrating import settings; print(sorted(settings.CELERY_BEAT_SCHEDULE))"

    def schedule(**env: str) -> str:
        environment = {k: v for k, v in os.environ.items() if not k.startswith("LIST_ARCHIVE")}
        done = subprocess.run(
            [sys.executable, "-c", code], cwd=REPO, env={**environment, **env}, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert "archive-lists" not in schedule()
    assert "archive-lists" in schedule(LIST_ARCHIVE_DIR=str(tmp_path))


def test_keeping_none_is_refused(tmp_path: Path, club: Club) -> None:
    from ratings.archive.scheduled import archive_lists

    with pytest.raises(ValueError, match="at least the newest one"):
        archive_lists(tmp_path, 0)
