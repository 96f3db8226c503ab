"""Property (hypothesis): for random small histories (games and rank
adjustments, club nights and a tournament) and a random late game, the ripple the incremental recompute records is exactly the
difference of two full replays, without the late game and with it, in
every system of the list."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings import recompute, services
from ratings.engine import SYSTEM_NAMES
from ratings.models import (
    Club,
    Game,
    HistoryEntry,
    LogEntry,
    Player,
    RankAdjustment,
    RatingCheckpoint,
    RecomputeRun,
    RecordSheet,
    ResultChange,
)
from tests.recompute.ripple_helpers import difference, recorded, results
from tests.support import MakePlayer, examples

pytestmark = pytest.mark.django_db

DAY0 = date(2025, 3, 1)
ENTERED = datetime(2025, 4, 1, 12, 0, tzinfo=UTC)
EVENT = "Spring Open"

game = st.fixed_dictionaries(
    {
        "day": st.integers(0, 20),
        "white": st.integers(0, 5),
        "step": st.integers(1, 5),
        "winner": st.sampled_from(["white", "black"]),
        "handicap": st.sampled_from([0, 0, 0, 2]),
        "tournament": st.booleans(),
    }
)
adjustment = st.fixed_dictionaries(
    {"day": st.integers(0, 20), "player": st.integers(0, 5), "rank": st.integers(-20, 2)}
)


@settings(
    max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    games=st.lists(st.one_of(game, game, game, adjustment), min_size=1, max_size=20),
    late=game,
    every=st.integers(1, 6),
)
def test_the_ripple_is_the_difference_of_two_full_replays(
    club: Club, make_player: MakePlayer, games: list[dict[str, Any]], late: dict[str, Any], every: int
) -> None:
    for model in (
        ResultChange, RecomputeRun, LogEntry, HistoryEntry, RatingCheckpoint, Game, RankAdjustment, RecordSheet,
    ):  # fmt: skip
        model.objects.all().delete()
    Player.objects.all().delete()
    rating_list = club.rating_list
    rating_list.compared_systems = [n for n in SYSTEM_NAMES if n != rating_list.primary_system]
    rating_list.dirty_from, rating_list.dirty_generation, rating_list.clean_generation = None, 0, 0
    rating_list.save()
    players = [make_player(f"P{i}", rank=-18 + 3 * i, since=DAY0) for i in range(6)]
    for n, item in enumerate(games):  # the history, as stored before the late game
        day = DAY0 + timedelta(days=item["day"])
        if "rank" in item:
            RankAdjustment.objects.create(
                rating_list=rating_list, player=players[item["player"]], date=day, rank=item["rank"],
                entered_at=ENTERED + timedelta(minutes=n),
            )  # fmt: skip
            continue
        sheet = RecordSheet.objects.create(
            club=club, date=day, kind="tournament" if item["tournament"] else "club",
            event=EVENT if item["tournament"] else "",
        )  # fmt: skip
        Game.objects.create(
            club=club, sheet=sheet, date=day, white=players[item["white"]],
            black=players[(item["white"] + item["step"]) % 6], winner=item["winner"],
            handicap=item["handicap"], komi=6.5 if item["handicap"] == 0 else 0.5,
            kind="tournament" if item["tournament"] else "club", entered_at=ENTERED + timedelta(minutes=n),
        )  # fmt: skip
    options = recompute.Options(checkpoint_every=every)
    recompute.recompute_list(rating_list.pk, full=True, options=options)
    without = results(rating_list)

    sheet = services.save_sheet(
        club=club,
        date=DAY0 + timedelta(days=late["day"]),
        kind="tournament" if late["tournament"] else "club",
        event=EVENT if late["tournament"] else "",
        rows=[
            services.GameRow(
                white=players[late["white"]],
                black=players[(late["white"] + late["step"]) % 6],
                winner=late["winner"],
                handicap=late["handicap"],
            )
        ],
    )
    late_game = sheet.games.get()
    run = recompute.recompute_list(rating_list.pk, options=options)
    assert run is not None

    recompute.recompute_list(rating_list.pk, full=True, options=options)
    assert recorded(rating_list, run=run) == difference(without, results(rating_list), {late_game.pk})
    assert ResultChange.objects.exclude(run=run).count() == 0
