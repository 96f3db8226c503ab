"""Many volunteers saving at once the first night of the
same new member, typed with different case and spacing.  The database keeps
one player (a unique normalised name within the list); every other save is
answered with a normal page naming the row, never a 500, and no game is
half-saved.

PostgreSQL only: there writers really run side by side (SQLite serialises
them, and its in-memory test database cannot show real concurrency).
"""

from __future__ import annotations

import threading
from datetime import date, timedelta

import pytest
from django.db import close_old_connections, connection
from django.test import Client
from pytest_django import Settings

from ratings.models import Club, Game, Player, RecordSheet
from tests.support import MakePlayer, Personas

pytestmark = pytest.mark.postgresql

CLIENTS = 20
SAVES_EACH = 5
SPELLINGS = ["Thandi Mokoena", "thandi mokoena", "THANDI  MOKOENA", " Thandi Mokoena ", "thandi MOKOENA"]


@pytest.mark.django_db(transaction=True)
def test_a_hundred_simultaneous_saves_of_one_new_player_make_one_player_and_no_500(
    personas: Personas, club: Club, make_player: MakePlayer, settings: Settings
) -> None:
    settings.CELERY_BROKER_URL = ""
    settings.DEBUG_PROPAGATE_EXCEPTIONS = False
    regulars = [make_player(f"Regular {i}", rank=-10) for i in range(CLIENTS)]
    volunteer = personas["volunteer"]
    start = threading.Barrier(CLIENTS)
    answers: list[int] = []
    lock = threading.Lock()
    day = (date.today() - timedelta(days=1)).isoformat()

    def volunteer_at_the_table(number: int) -> None:
        try:
            client = Client(raise_request_exception=False)
            client.force_login(volunteer)
            start.wait()
            for save in range(SAVES_EACH):
                response = client.post(
                    "/sheets/new/",
                    {
                        "club": str(club.pk), "event": "", "date": day, "kind": "club", "comments": "",
                        "row-0-white": SPELLINGS[(number + save) % len(SPELLINGS)], "row-0-white_rank": "20k",
                        "row-0-black": regulars[number].name, "row-0-handicap": "0", "row-0-komi": "",
                        "row-0-winner": "white", "row-0-date": "", "save_anyway": "1",
                    },
                )  # fmt: skip
                with lock:
                    answers.append(response.status_code)
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=volunteer_at_the_table, args=(n,)) for n in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert len(answers) == CLIENTS * SAVES_EACH
    assert not [code for code in answers if code >= 500], f"5xx answers: {sorted(answers)}"
    assert set(answers) <= {302, 400}
    assert Player.objects.filter(name_key="thandi mokoena").count() == 1
    saved = answers.count(302)
    assert saved >= 1, "the first save made the player"
    # Every save that was answered 302 kept its sheet and game; the others kept nothing.
    assert RecordSheet.objects.count() == saved and Game.objects.count() == saved
