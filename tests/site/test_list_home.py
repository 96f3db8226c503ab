"""A list's home /lists/<slug>/ and the site's home /: standings in the
list's primary system (active players by default, everyone on demand), the
latest sheets, the biggest movers of 30 days, a pending recompute; the
choice of lists on a site with several."""

from __future__ import annotations

import re
from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries

from ratings import services
from ratings.engine.ranks import format_rank
from ratings.models import Club, Game, HistoryEntry, Player, RatingList
from ratings.presentation.tables import signed, unit_of
from ratings.recompute import recompute_list
from tests.support import MakePlayer, make_pool


def standings_on(html: str) -> list[list[str]]:
    table = html[html.index('<table class="data standings">') :].split("</table>")[0]
    rows = re.findall(r"<tr>(.*?)</tr>", table.split("<tbody>")[1], re.S)
    return [
        [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)] for r in rows
    ]


@pytest.fixture
def played(club: Club, other_club: Club, make_player: MakePlayer) -> dict[str, Player]:
    """Four players who played lately, one who last played two years ago,
    one who never played."""
    today = timezone.localdate()
    long_ago = today - timedelta(days=800)
    people = {
        "ann": make_player("Ann Botha", rank=-3, since=long_ago),
        "bob": make_player("Bob Nel", rank=-3, since=long_ago),
        "cat": make_player("Cat Smit", rank=1, since=long_ago, club=other_club),
        "dan": make_player("Dan Venter", rank=-8, since=long_ago),
        "old": make_player("Old Timer", rank=2, since=long_ago),
        "new": make_player("Nobody Yet", rank=-20, since=long_ago),
    }
    p = people
    services.save_sheet(
        club=club, date=long_ago, rows=[services.GameRow(white=p["old"], black=p["cat"], winner="white")]
    )
    services.save_sheet(
        club=club,
        date=today - timedelta(days=60),
        rows=[
            services.GameRow(white=p["ann"], black=p["bob"], winner="white"),
            services.GameRow(white=p["cat"], black=p["dan"], winner="white", handicap=9, komi=Decimal("0.5")),
        ],
    )
    services.save_sheet(
        club=other_club,
        date=today - timedelta(days=3),
        event="Club night",
        rows=[
            services.GameRow(white=p["ann"], black=p["bob"], winner="white"),
            services.GameRow(white=p["ann"], black=p["dan"], winner="white", handicap=5, komi=Decimal("0.5")),
            services.GameRow(white=p["bob"], black=p["dan"], winner="black", handicap=5, komi=Decimal("0.5")),
        ],
    )
    recompute_list(club.rating_list_id, full=True)
    for player in people.values():
        player.refresh_from_db()
    return people


def last_played(player: Player) -> date | None:
    """Counted apart from the page: the latest date among the player's games."""
    dates = [g.date for g in Game.objects.all() if player.pk in (g.white_id, g.black_id)]
    return max(dates) if dates else None


def test_the_standings_list_the_active_players_strongest_first(
    client: Client, club: Club, played: dict[str, Player]
) -> None:
    html = client.get(reverse("rating_list", args=[club.rating_list.slug])).content.decode()
    rows = standings_on(html)
    active = [p for p in played.values() if p.name not in ("Old Timer", "Nobody Yet")]
    expected = sorted(active, key=lambda p: (-p.rank, -p.rating, p.name))
    assert [row[1] for row in rows] == [p.name for p in expected]
    assert [row[0] for row in rows] == ["1", "2", "3", "4"]
    for row, player in zip(rows, expected, strict=True):
        assert row[3:7] == [
            player.rank_label,
            f"{player.rating:.1f}".removesuffix(".0"),
            str(player.games_count),
            str(last_played(player)),
        ]
    assert "Old Timer" not in html.split('<table class="data standings">')[1].split("</table>")[0]


def test_everyone_is_shown_on_demand(client: Client, club: Club, played: dict[str, Player]) -> None:
    html = client.get(reverse("rating_list", args=[club.rating_list.slug]), {"all": "1"}).content.decode()
    rows = standings_on(html)
    assert [row[1] for row in rows] == [
        p.name for p in sorted(played.values(), key=lambda p: (-p.rank, -p.rating, p.name))
    ]
    assert {row[1]: row[6] for row in rows}["Nobody Yet"] == "—"
    assert {row[1]: row[6] for row in rows}["Old Timer"] == str(last_played(played["old"]))


def test_the_rating_column_is_the_primary_systems_alone(client: Client, club: Club) -> None:
    ladder = make_pool(name="Guildford Ladder", slug="guildford", primary_system="west-surrey")
    html = client.get(reverse("rating_list", args=["guildford"])).content.decode()
    assert re.search(r'<th class="num">Strength</th>', html)
    html = client.get(reverse("rating_list", args=[club.rating_list.slug])).content.decode()
    assert re.search(r'<th class="num">Index</th>', html) and "Strength" not in html
    assert ladder.rating_list.slug == "guildford"


def test_the_latest_sheets_newest_first(client: Client, club: Club, played: dict[str, Player]) -> None:
    html = client.get(reverse("rating_list", args=[club.rating_list.slug])).content.decode()
    part = html[html.index('<ul class="places latest-sheets">') :].split("</ul>")[0]
    found = re.findall(r'<a href="/events/(\d+)/">([^<]+)</a> <span class="hint">(\d+) game', part)
    sheets = club.rating_list.games.values_list("sheet_id", flat=True).distinct()
    assert len(found) == len(set(sheets)) == 3
    assert [int(pk) for pk, _, _ in found] == sorted({int(s) for s in sheets}, reverse=True)
    assert "Club night" in found[0][1] and found[0][2] == "3"


def test_the_movers_of_30_days_against_the_history(
    client: Client, club: Club, played: dict[str, Player]
) -> None:
    today = timezone.localdate()
    rows = HistoryEntry.objects.filter(
        system="sagc", rating_list=club.rating_list, date__gt=today - timedelta(days=30)
    ).order_by("seq")
    first: dict[int, float] = {}
    last: dict[int, float] = {}
    for row in rows:
        first.setdefault(row.player_id, row.rank_before + row.rating_before / 2000)
        last[row.player_id] = row.rank_after + row.rating_after / 2000
    rises = sorted((last[p] - first[p], p) for p in first)
    html = client.get(reverse("rating_list", args=[club.rating_list.slug])).content.decode()
    part = html[html.index("Biggest movers") :]
    up = re.findall(r'<a href="/players/[^"]+/">([^<]+)</a>', part.split("<h3>Down</h3>")[0])
    down = re.findall(
        r'<a href="/players/[^"]+/">([^<]+)</a>', part.split("<h3>Down</h3>")[1].split("</section>")[0]
    )
    names = {p.pk: p.name for p in played.values()}
    assert up == [names[p] for rise, p in reversed(rises) if rise > 0]
    assert down == [names[p] for rise, p in rises if rise < 0]
    assert up and down
    assert "Cat Smit" not in up + down  # her only recent game is 60 days old


def test_a_pending_recompute_is_said(client: Client, club: Club, played: dict[str, Player]) -> None:
    RatingList.objects.filter(pk=club.rating_list_id).update(dirty_from=date(2024, 5, 1))
    html = client.get(reverse("rating_list", args=[club.rating_list.slug])).content.decode()
    assert "Ratings are being updated from 2024-05-01" in html
    RatingList.objects.filter(pk=club.rating_list_id).update(dirty_from=None)
    html = client.get(reverse("rating_list", args=[club.rating_list.slug])).content.decode()
    assert "Ratings are being updated" not in html


def test_the_home_takes_a_lone_list_to_its_home_and_offers_a_choice_of_several(
    client: Client, club: Club
) -> None:
    response = client.get("/")
    assert response.status_code == 302 and response["Location"] == f"/lists/{club.rating_list.slug}/"
    make_pool(name="Guildford Ladder", slug="guildford", primary_system="west-surrey")
    html = client.get("/").content.decode()
    assert f'href="/lists/{club.rating_list.slug}/"' in html and 'href="/lists/guildford/"' in html


def test_the_home_of_a_site_without_lists(client: Client, db: None) -> None:
    assert "No rating lists yet" in client.get("/").content.decode()


def test_the_list_home_makes_a_fixed_number_of_queries(
    client: Client,
    club: Club,
    played: dict[str, Player],
    make_player: MakePlayer,
    django_assert_max_num_queries: DjangoAssertNumQueries,
) -> None:
    url = reverse("rating_list", args=[club.rating_list.slug])
    with django_assert_max_num_queries(14) as few:
        client.get(url)
    for n in range(20):
        make_player(f"Extra {n}")
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get(url, {"all": "1"})


def test_each_mover_shows_the_ranks_the_sum_of_changes_and_the_results_of_the_window(
    client: Client, club: Club, played: dict[str, Player]
) -> None:
    # The movers' first and last rows, sums and counts come from the database's
    # window functions (ratings/presentation/standings.py); counted apart here.
    html = client.get(reverse("rating_list", args=[club.rating_list.slug])).content.decode()
    part = html[html.index("Biggest movers") :].split("<h2>Latest sheets</h2>")[0]
    shown = re.findall(r'<a href="/players/[^"]+/">([^<]+)</a> <span class="hint">([^<]+)</span>', part)
    assert len(shown) == 3  # Ann, Bob and Dan played in the window
    since = timezone.localdate() - timedelta(days=30)
    for name, hint in shown:
        results = list(
            played[name.split()[0].lower()].history.filter(system="sagc", date__gt=since).order_by("seq")
        )
        total = signed(round(sum(r.change for r in results), 1))
        ranks = f"{format_rank(results[0].rank_before)} → {format_rank(results[-1].rank_after)}"
        plural = "s" if len(results) > 1 else ""
        assert hint == f"{ranks} · {total} {unit_of('sagc').lower()} · {len(results)} result{plural}", name
