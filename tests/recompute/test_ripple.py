"""The ripple of a late game (ResultChange): the later results a game
entered late, corrected or deleted changed, recorded by the recompute that
rates it, equal the difference of two full replays, one without the change
and one with it, in every system of the list."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

from ratings import recompute, services
from ratings.engine import SYSTEM_NAMES
from ratings.models import Club, Game, LogEntry, Player, RatingList, RecomputeRun, ResultChange
from ratings.presentation.result_changes import changes_of, ripple_caused_by, ripple_context
from tests.recompute.ripple_helpers import difference, recorded, results
from tests.support import MakePlayer

pytestmark = pytest.mark.django_db

DAY0 = date(2025, 3, 1)
#: Checkpoints every few events: the incremental recompute resumes from one.
OPTIONS = recompute.Options(checkpoint_every=5)


@pytest.fixture
def players(club: Club, make_player: MakePlayer) -> list[Player]:
    rating_list = club.rating_list
    rating_list.primary_system = "sagc"
    rating_list.compared_systems = [n for n in SYSTEM_NAMES if n != "sagc"]
    rating_list.save()
    return [make_player(f"Player {i}", rank=-15 + 2 * i, since=DAY0) for i in range(6)]


def play(club: Club, players: list[Player], day: int, white: int, black: int, winner: str = "white") -> Game:
    sheet = services.save_sheet(
        club=club,
        date=DAY0 + timedelta(days=day),
        rows=[services.GameRow(white=players[white], black=players[black], winner=winner)],
    )
    return sheet.games.get()


@pytest.fixture
def history(club: Club, players: list[Player]) -> RatingList:
    """Thirty days of games among six players, and a rank adjustment,
    rated from scratch."""
    for day in range(30):
        play(club, players, day, day % 6, (day * 5 + 1) % 6, "white" if day % 3 else "black")
        play(club, players, day, (day + 2) % 6, (day + 5) % 6, "black" if day % 4 else "white")
    services.add_adjustment(player=players[0], date=DAY0 + timedelta(days=20), rank=-9)
    recompute.recompute_list(club.rating_list_id, full=True, options=OPTIONS)
    return club.rating_list


def test_the_ripple_of_a_late_game_is_the_difference_of_two_full_replays(
    club: Club, players: list[Player], history: RatingList
) -> None:
    without = results(history)
    late = play(club, players, 4, 0, 1, "black")
    run = recompute.recompute_list(history.pk, options=OPTIONS)
    assert run is not None and run.from_date is not None, "an incremental run"
    assert list(run.causes.values_list("game", flat=True)) == [late.pk]

    full = recompute.recompute_list(history.pk, full=True, options=OPTIONS)
    assert full is not None and not full.causes.exists(), "a log entry is rated once"
    expected = difference(without, results(history), {late.pk})
    assert expected, "the late game changes later results"
    assert {key[0] for key in expected} == set(history.systems), "in every system of the list"
    assert any(key[3] is not None for key in expected), "a later adjustment's row too"
    assert recorded(history, run=run) == expected
    assert ResultChange.objects.count() == len(expected), "the full replay with no new cause records none"
    assert set(ripple_caused_by(late)) == set(ResultChange.objects.all())
    assert not ResultChange.objects.filter(game=late).exists(), "the late game itself is no ripple"


def test_a_correction_and_a_deletion_ripple_too(
    club: Club, players: list[Player], history: RatingList
) -> None:
    old = Game.objects.filter(date=DAY0 + timedelta(days=3)).order_by("pk").first()
    assert old is not None
    before = results(history)
    services.edit_game(old, winner="black" if old.winner == "white" else "white")
    edited = recompute.recompute_list(history.pk, options=OPTIONS)
    recompute.recompute_list(history.pk, full=True, options=OPTIONS)
    after_edit = results(history)
    expected = difference(before, after_edit, {old.pk})
    assert expected
    assert recorded(history, run=edited) == expected
    entry = LogEntry.objects.get(game=old, action=LogEntry.Action.EDIT)
    assert ripple_caused_by(entry).count() == len(expected)

    gone = Game.objects.filter(date=DAY0 + timedelta(days=2)).order_by("pk").first()
    assert gone is not None
    services.delete_game(gone)
    deleted = recompute.recompute_list(history.pk, options=OPTIONS)
    recompute.recompute_list(history.pk, full=True, options=OPTIONS)
    expected = difference(after_edit, results(history), set())
    assert expected
    assert recorded(history, run=deleted) == expected
    deletion = LogEntry.objects.get(action=LogEntry.Action.DELETE)
    assert ripple_caused_by(deletion).count() == len(expected)


def test_a_game_moved_later_ripples_from_its_old_date(
    club: Club, players: list[Player], history: RatingList
) -> None:
    moved = Game.objects.filter(date=DAY0 + timedelta(days=2)).order_by("pk").first()
    assert moved is not None
    before = results(history)
    services.edit_game(moved, date=DAY0 + timedelta(days=25))
    run = recompute.recompute_list(history.pk, options=OPTIONS)
    recompute.recompute_list(history.pk, full=True, options=OPTIONS)
    expected = difference(before, results(history), {moved.pk})
    assert expected
    assert recorded(history, run=run) == expected
    assert min(change.date for change in ResultChange.objects.all()) < DAY0 + timedelta(days=25)


def test_a_failed_run_records_nothing_and_the_next_run_rates_the_late_game(
    club: Club, players: list[Player], history: RatingList
) -> None:
    without = results(history)
    late = play(club, players, 6, 2, 3)

    def failing(rows: Any, table: str | None = None) -> int:
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        recompute.recompute_list(
            history.pk, options=recompute.Options(checkpoint_every=5, write_history=failing)
        )
    assert not ResultChange.objects.exists()
    assert results(history) == without, "all or nothing"
    failed = RecomputeRun.objects.get(status=RecomputeRun.Status.FAILED)
    assert list(failed.causes.values_list("game", flat=True)) == [late.pk]

    run = recompute.recompute_list(history.pk, options=OPTIONS)
    assert run is not None and list(run.causes.values_list("game", flat=True)) == [late.pk]
    recompute.recompute_list(history.pk, full=True, options=OPTIONS)
    expected = difference(without, results(history), {late.pk})
    assert expected and recorded(history, run=run) == expected


def test_the_record_sheet_marks_the_changed_rows(
    client: Client, club: Club, players: list[Player], history: RatingList
) -> None:
    play(club, players, 4, 0, 1, "black")
    recompute.recompute_list(history.pk, options=OPTIONS)
    changed = ResultChange.objects.filter(system="sagc").select_related("player").first()
    assert changed is not None
    page = client.get(reverse("player", args=[changed.player.slug])).content.decode()
    assert 'class="changed"' in page or 'class="adjustment changed"' in page
    assert "ripple-note" in page and 'class="ripple-changed"' in page
    assert "was entered late" in page and "changed on" in page
    assert f"a game of {DAY0.day + 4} March 2025 was entered late" in page
    notes = [c for c in changes_of(changed.player, "sagc")]
    assert len(page.split('class="ripple-note"')) - 1 == len({(c.game_id, c.adjustment_id) for c in notes})

    untouched = Player.objects.exclude(pk__in=ResultChange.objects.values("player")).first()
    if untouched is not None:
        assert "ripple-note" not in client.get(reverse("player", args=[untouched.slug])).content.decode()


def test_the_include_lists_the_ripple_of_a_game(
    client: Client, club: Club, players: list[Player], history: RatingList
) -> None:
    late = play(club, players, 4, 0, 1, "black")
    recompute.recompute_list(history.pk, options=OPTIONS)
    context = ripple_context(late)
    assert context["ripple_count"] == ResultChange.objects.count() > 0
    html = render_to_string("ratings/includes/ripple_caused.html", context)
    change = ResultChange.objects.select_related("player", "game").first()
    assert change is not None and change.player.display_name in html
    assert "→" in html and "Later results changed" in html
    assert html.count("<tr>") == 1 + min(100, ResultChange.objects.count())
    sheet_page = client.get(reverse("sheet", args=[late.sheet_id])).content.decode()
    assert "Later results changed" in sheet_page

    empty = render_to_string("ratings/includes/ripple_caused.html", {"ripple": [], "ripple_count": 0})
    assert "No later result changed" in empty


@pytest.mark.parametrize(
    ("old", "new", "sign", "written"),
    [
        (-80.0, -75.0, True, "-80 → -75"),  # as the sheet writes them
        (447.0, 452.5, False, "447 → 452.5"),
        (30.71, 30.74, True, "+30.71 → +30.74"),  # one decimal writes both +30.7
        (2411.5843, 2411.5871, False, "2411.58 → 2411.59"),
        (1520.00012, 1520.00031, False, "1520.0001 → 1520.0003"),
        (-0.04, 0.04, True, "-0.04 → +0.04"),  # not "-0.0 → +0.0"
        (5.0, 5.0, False, "5 → 5"),  # the rating did not move (the change did)
    ],
)
def test_a_note_writes_old_and_new_apart_when_the_sheets_precision_writes_them_alike(
    old: float, new: float, sign: bool, written: str
) -> None:
    from ratings.presentation.result_changes import before_after

    assert before_after(old, new, sign=sign) == written
