"""Exports in constant memory: CSV and JSON are written a
chunk of games at a time, and give exactly the file the whole-period writer
gives (rounds and ranks included); table formats are bounded."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.urls import reverse

from ratings import committee, exchange, services
from ratings.committee import exports
from ratings.exchange import GameFormat
from ratings.models import Club, Player
from ratings.recompute import recompute_list
from ratings.services import GameRow
from tests.support import ClientFor, MakePlayer


@pytest.fixture
def ladder(club: Club, make_player: MakePlayer) -> list[Player]:
    """23 games among five players over 23 days, entered out of order, rated."""
    players = [make_player(f"Player {i}", rank=-5 - 2 * i) for i in range(5)]
    for n in [*range(12, 23), *range(12)]:
        white, black = players[n % 5], players[(n * 3 + 1) % 5]
        if white == black:
            black = players[(n + 1) % 5]
        services.save_sheet(
            club=club,
            date=date(2024, 1, 1) + timedelta(days=n),
            rows=[GameRow(white=white, black=black, winner="white" if n % 3 else "black", handicap=n % 3)],
        )
    recompute_list(club.rating_list_id, full=True)
    return players


@pytest.mark.parametrize("fmt", ["csv", "json"])
@pytest.mark.parametrize("period", [(None, None), (date(2024, 1, 5), date(2024, 1, 20))])
def test_the_stream_in_chunks_is_the_whole_period_file(
    club: Club,
    ladder: list[Player],
    monkeypatch: pytest.MonkeyPatch,
    fmt: GameFormat,
    period: tuple[date | None, date | None],
) -> None:
    monkeypatch.setattr(exports, "CHUNK", 4)  # 23 games: six chunks, players first seen in several
    monkeypatch.setattr(exports, "PIECE", 100)
    start, end = period
    whole = exchange.write_tournament(committee.list_games_tournament(club.rating_list, start, end), fmt)
    _, _, stream = exports.export_stream(club.rating_list, start, end, fmt)
    pieces = list(stream)
    assert len(pieces) > 3 and "".join(pieces) == whole


def test_the_chunks_follow_the_timeline_with_equal_dates(club: Club, ladder: list[Player]) -> None:
    games = club.games.all()
    chunks = list(exports.in_chunks(games, size=3))
    assert [g.pk for chunk in chunks for g in chunk] == list(games.timeline().values_list("pk", flat=True))
    assert [len(c) for c in chunks] == [3] * 7 + [2]


def test_a_table_format_over_its_limit_is_refused_with_a_reason(
    club: Club, ladder: list[Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(exports, "MAX_TABLE_GAMES", 20)
    with pytest.raises(committee.CommitteeError, match=r"23 games: an h9 file .* takes at most 20 games"):
        exports.export_stream(club.rating_list, None, None, "h9")
    _, _, pieces = exports.export_stream(club.rating_list, None, None, "csv")  # CSV has no limit
    assert "".join(pieces).count("\n") == 24


def test_the_download_is_streamed(client_for: ClientFor, club: Club, ladder: list[Player]) -> None:
    response = client_for("committee").get(
        reverse("export"), {"rating_list": str(club.rating_list_id), "format": "json"}
    )
    assert response.status_code == 200 and response.streaming
    assert response["Content-Disposition"].startswith('attachment; filename="sagc-games-start-')
    assert b'"fields"' in response.getvalue()


def test_a_cursor_reads_back_as_its_key(club: Club, ladder: list[Player]) -> None:
    game = club.games.timeline().last()
    assert exports.decode_cursor(exports.encode_cursor(exports.key_of(game))) == exports.key_of(game)
