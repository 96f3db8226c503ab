"""Integration: the e-mail about a late change is sent by a real Celery
worker (real Redis, real PostgreSQL) after the recompute it ran, once."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from pytest_django import Settings

from ratings import services
from ratings.models import ChangeNotice, Club, RatingList, ResultChange
from ratings.notices import mail
from tests.recompute.test_celery_worker import running_worker
from tests.support import PASSWORD, MakePlayer, wait_until

pytestmark = pytest.mark.postgresql


@pytest.mark.django_db(transaction=True)
def test_the_worker_sends_one_e_mail_after_the_recompute_a_late_game_caused(
    settings: Settings, make_player: MakePlayer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.contrib.auth.models import Group

    for name in ("volunteer", "committee"):
        Group.objects.get_or_create(name=name)
    monkeypatch.setenv("EMAIL_BACKEND", "django.core.mail.backends.filebased.EmailBackend")
    monkeypatch.setenv("EMAIL_FILE_PATH", str(tmp_path))
    club = Club.objects.get(slug="stellenbosch")
    user = User.objects.create_user("ann", "ann@example.org", PASSWORD)
    start = date.today() - timedelta(days=30)
    ann = make_player("Ann Botha", rank=-12, since=start, user=user)
    ben = make_player("Ben Nel", rank=-12, since=start)
    cas = make_player("Cas Venter", rank=-12, since=start)
    with running_worker(settings):
        services.save_sheet(
            club=club,
            date=start + timedelta(days=10),
            rows=[services.GameRow(white=ann, black=ben, winner="white")],
        )
        wait_until(
            lambda: (
                RatingList.objects.get(pk=club.rating_list_id).dirty_from is None
                and RatingList.objects.get(pk=club.rating_list_id)
                .recompute_runs.filter(status="done")
                .exists()
            ),
            90,
            "the first recompute",
        )
        mail.subscribe(ann)
        services.save_sheet(  # late: before Ann's game with Ben
            club=club,
            date=start + timedelta(days=2),
            rows=[services.GameRow(white=cas, black=ann, winner="white")],
        )
        wait_until(lambda: list(tmp_path.iterdir()), 90, "the worker's e-mail")
        wait_until(
            lambda: (
                ChangeNotice.objects.get(player=ann).last_run > 0
                and RatingList.objects.get(pk=club.rating_list_id).dirty_from is None
            ),
            30,
            "the notice marked sent",
        )
    files = list(tmp_path.iterdir())
    text = "".join(f.read_text() for f in files)
    assert text.count("Subject: ") == 1, text
    assert "To: ann@example.org" in text and "was entered late" in text
    assert ResultChange.objects.filter(player=ann).exists()
    assert "List-Unsubscribe-Post: List-Unsubscribe=One-Click" in text
