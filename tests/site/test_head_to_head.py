"""Won and lost: the record sheet's totals (all, by kind, the last 12
months) and the head-to-head page of two players, against counts taken
apart from the page's queries."""

from __future__ import annotations

import re
from collections import Counter
from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries

from ratings import services
from ratings.models import Club, Game, Player
from ratings.presentation.results import year_before
from ratings.recompute import recompute_list
from tests.support import MakePlayer, make_pool

#: (days ago, Ann's colour, handicap, result for Ann, kind, forfeit)
MEETINGS = [
    (500, "w", 0, "won", "club", False),
    (400, "b", 2, "lost", "tournament", False),
    (300, "b", 2, "won", "club", False),
    (200, "w", 0, "jigo", "club", False),
    (100, "w", 3, "lost", "free", False),
    (50, "b", 0, "won", "club", True),
    (10, "b", 2, "won", "tournament", False),
    (10, "w", 0, "lost", "club", False),
]


@pytest.fixture
def meetings(club: Club, make_player: MakePlayer) -> dict[str, Player]:
    today = timezone.localdate()
    since = today - timedelta(days=900)
    ann, bob, cy = (make_player(n, rank=-5, since=since) for n in ("Ann Botha", "Bob Nel", "Cy Other"))
    for days, colour, handicap, result, kind, forfeit in MEETINGS:
        white, black = (ann, bob) if colour == "w" else (bob, ann)
        ann_white = colour == "w"
        winner = "jigo" if result == "jigo" else ("white" if (result == "won") == ann_white else "black")
        services.save_sheet(
            club=club,
            date=today - timedelta(days=days),
            kind=kind,
            rows=[
                services.GameRow(
                    white=white,
                    black=black,
                    winner=winner,
                    handicap=handicap,
                    komi=Decimal("0.5") if handicap else Decimal("6.5"),
                    forfeit=forfeit,
                    kind=kind,
                )
            ],
        )
    # Games against someone else count on the sheet, not in the head-to-head.
    services.save_sheet(
        club=club,
        date=today - timedelta(days=5),
        rows=[
            services.GameRow(white=ann, black=cy, winner="white"),
            services.GameRow(white=cy, black=ann, winner="white"),
        ],
    )
    recompute_list(club.rating_list_id, full=True)
    return {"ann": ann, "bob": bob, "cy": cy}


def table_rows(html: str, css: str) -> list[list[str]]:
    table = html[html.index(f'<table class="data {css}">') :].split("</table>")[0]
    rows = re.findall(r"<tr>(.*?)</tr>", table.split("<tbody>")[1], re.S)
    return [
        [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)] for r in rows
    ]


def result_for(game: Game, player: Player) -> str:
    if game.winner == "jigo":
        return "jigo"
    return "won" if (game.winner == "white") == (game.white_id == player.pk) else "lost"


def test_the_head_to_head_score_by_colour_and_handicap(client: Client, meetings: dict[str, Player]) -> None:
    ann, bob = meetings["ann"], meetings["bob"]
    html = client.get(reverse("head_to_head", args=[ann.slug, bob.slug])).content.decode()
    results = Counter(m[3] for m in MEETINGS)
    assert (
        f"<strong>{results['won']} won</strong>, <strong>{results['lost']} lost</strong>, {results['jigo']} jigo"
        in html
    )
    by_colour = Counter(
        ("White" if colour == "w" else "Black", handicap, result)
        for _, colour, handicap, result, *_ in MEETINGS
    )
    groups = sorted({(c, h) for c, h, _ in by_colour}, key=lambda g: (g[0] != "White", g[1]))
    expected = [
        [
            f"{c}, {'handicap ' + str(h) if h else 'even'}",
            str(sum(by_colour[(c, h, r)] for r in ("won", "lost", "jigo"))),
        ]
        + [str(by_colour[(c, h, r)]) for r in ("won", "lost", "jigo")]
        for c, h in groups
    ]
    assert table_rows(html, "totals") == expected
    games = table_rows(html, "meetings")
    assert len(games) == len(MEETINGS)
    stored = Game.objects.filter(white__in=[ann, bob], black__in=[ann, bob]).order_by(
        "-date", "-entered_at", "-id"
    )
    assert [g[0] for g in games] == [g.date.isoformat() for g in stored]
    assert [g[4] for g in games] == [
        result_for(g, ann).capitalize() + (" (forfeit)" if g.forfeit else "") for g in stored
    ]
    links = re.findall(r'href="/games/(\d+)/">explained', html)
    assert [int(pk) for pk in links] == [g.pk for g in stored]


def test_seen_from_the_other_side_the_score_turns_round(client: Client, meetings: dict[str, Player]) -> None:
    ann, bob = meetings["ann"], meetings["bob"]
    html = client.get(reverse("head_to_head", args=[bob.slug, ann.slug])).content.decode()
    results = Counter(m[3] for m in MEETINGS)
    assert f"<strong>{results['lost']} won</strong>, <strong>{results['won']} lost</strong>" in html


def test_no_head_to_head_across_lists_or_with_oneself(client: Client, meetings: dict[str, Player]) -> None:
    other = Player.objects.create(
        rating_list=make_pool(name="Guildford", slug="guildford").rating_list,
        name="Far Away",
        slug="far-away",
        start_rank=-5,
        rank=-5,
    )
    ann = meetings["ann"]
    assert client.get(reverse("head_to_head", args=[ann.slug, other.slug])).status_code == 404
    assert client.get(reverse("head_to_head", args=[ann.slug, ann.slug])).status_code == 404
    assert client.get(reverse("head_to_head", args=[ann.slug, "nobody"])).status_code == 404


def test_two_who_never_met(client: Client, meetings: dict[str, Player]) -> None:
    html = client.get(
        reverse("head_to_head", args=[meetings["bob"].slug, meetings["cy"].slug])
    ).content.decode()
    assert "have not played each other yet" in html


def test_the_record_sheet_links_each_opponent_to_the_head_to_head(
    client: Client, meetings: dict[str, Player]
) -> None:
    ann, bob, cy = meetings["ann"], meetings["bob"], meetings["cy"]
    html = client.get(reverse("player", args=[ann.slug])).content.decode()
    assert html.count(f'href="{reverse("head_to_head", args=[ann.slug, bob.slug])}"') == len(MEETINGS)
    assert html.count(f'href="{reverse("head_to_head", args=[ann.slug, cy.slug])}"') == 2


def test_the_record_sheet_totals_all_by_kind_and_the_last_12_months(
    client: Client, meetings: dict[str, Player]
) -> None:
    ann = meetings["ann"]
    html = client.get(reverse("player", args=[ann.slug])).content.decode()
    games = list(Game.objects.filter(white=ann) | Game.objects.filter(black=ann))
    today = timezone.localdate()
    start = year_before(today) + timedelta(days=1)

    def line(label: str, chosen: list[Game]) -> list[str]:
        counted = Counter(result_for(g, ann) for g in chosen)
        return [label, str(len(chosen)), *(str(counted[r]) for r in ("won", "lost", "jigo"))]

    kinds = [("club", "Club"), ("tournament", "Tournament"), ("free", "Free / teaching")]
    expected = [
        line("All games", games),
        *(
            line(label, [g for g in games if g.kind == kind])
            for kind, label in sorted(
                kinds, key=lambda k: ["free", "internet", "club", "tournament"].index(k[0])
            )
        ),
        line("Last 12 months", [g for g in games if g.date >= start]),
    ]
    assert table_rows(html, "totals") == expected
    assert expected[0][1] == str(len(MEETINGS) + 2)


def test_a_year_before_a_leap_day() -> None:
    assert year_before(date(2024, 2, 29)) == date(2023, 2, 28)
    assert year_before(date(2025, 3, 1)) == date(2024, 3, 1)


def test_the_head_to_head_makes_a_fixed_number_of_queries(
    client: Client, meetings: dict[str, Player], django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    with django_assert_max_num_queries(8):
        client.get(reverse("head_to_head", args=[meetings["ann"].slug, meetings["bob"].slug]))
