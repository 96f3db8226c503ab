"""The site's history equals ``manage.py rate`` on the same games:
games entered in random order with incremental recomputes in
between give, row for row, what the what-if command gives on the games
written out in timeline order."""

from __future__ import annotations

import csv
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings import recompute
from ratings.engine.ranks import format_rank
from ratings.models import Club, Game, HistoryEntry, Player, RatingCheckpoint, RecordSheet
from tests.support import MakePlayer, examples

pytestmark = pytest.mark.django_db

DAY0 = date(2025, 3, 1)
ENTERED = datetime(2025, 4, 1, 12, 0, tzinfo=UTC)

games = st.lists(
    st.tuples(
        st.integers(0, 15), st.integers(0, 4), st.integers(1, 4), st.sampled_from(["white", "black", "jigo"]),
        st.sampled_from([0, 0, 2]), st.booleans(),
    ),
    min_size=1, max_size=20,
)  # fmt: skip


def _rate(tmp: Path, club: Club, players: list[Player]) -> list[list[str]]:
    """``manage.py rate`` on the club's games in timeline order."""
    source, out = tmp / "games.csv", tmp / "rated.csv"
    with source.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(
            [
                "date",
                "white",
                "black",
                "winner",
                "handicap",
                "komi",
                "event",
                "kind",
                "white_start",
                "black_start",
            ]
        )
        for g in Game.objects.filter(club=club).timeline().select_related("sheet"):
            event = (
                f"{g.sheet.event} ({g.date.year})" if g.sheet.kind == "tournament" and g.sheet.event else ""
            )
            writer.writerow(
                [g.date.isoformat(), g.white_id, g.black_id, g.winner, g.handicap, g.komi, event, g.kind,
                 format_rank(g.white.start_rank), format_rank(g.black.start_rank)]
            )  # fmt: skip
    call_command("rate", str(source), system="sagc", out=str(out))
    with out.open(newline="") as handle:
        rows = list(csv.reader(handle))[1:]
    return [[r[0], r[2], r[3], r[7], r[8]] for r in rows]


def _site(club: Club) -> list[list[str]]:
    out = []
    for h in HistoryEntry.objects.filter(rating_list=club.rating_list, system="sagc").order_by(
        "seq", "-colour"
    ):
        out.append(
            [
                h.date.isoformat(),
                str(h.player_id),
                str(h.opponent_id),
                format_rank(h.rank_after),
                f"{h.rating_after:.0f}",
            ]
        )
    return out


@settings(
    max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(entries=games, every=st.integers(1, 4), data=st.data())
def test_the_history_equals_manage_py_rate_on_the_same_games(
    club: Club,
    make_player: MakePlayer,
    tmp_path: Path,
    entries: list[tuple[int, int, int, str, int, bool]],
    every: int,
    data: st.DataObject,
) -> None:
    for model in (HistoryEntry, RatingCheckpoint, Game, RecordSheet):
        model.objects.all().delete()
    Player.objects.all().delete()
    club.rating_list.compared_systems = []
    club.save()
    players = [make_player(f"P{i}", rank=-16 + 4 * i, since=DAY0) for i in range(5)]
    options = recompute.Options(checkpoint_every=every)
    for n, (day, white, step, winner, handicap, tournament) in enumerate(entries):
        sheet = RecordSheet.objects.create(
            club=club, date=DAY0 + timedelta(days=day), kind="tournament" if tournament else "club",
            event="Open" if tournament else "",
        )  # fmt: skip
        Game.objects.create(
            club=club, sheet=sheet, date=sheet.date, white=players[white], black=players[(white + step) % 5],
            winner=winner, handicap=handicap, komi=6.5 if handicap == 0 else 0.5, kind=sheet.kind,
            entered_at=ENTERED + timedelta(minutes=n),
        )  # fmt: skip
        recompute.mark_dirty(club.rating_list, sheet.date)
        if data.draw(st.booleans(), label="recompute now"):
            recompute.recompute_list(club.rating_list_id, options=options)
    recompute.recompute_list(club.rating_list_id, options=options)
    assert _site(club) == _rate(tmp_path, club, players)
