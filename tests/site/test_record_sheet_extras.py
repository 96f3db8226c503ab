"""The record sheet's history charts, one a system of the list, switched
without JavaScript, each point titled with the game behind it; and its
links to the player's EGD, FFG and AGA pages."""

from __future__ import annotations

import re
from datetime import timedelta

from django.test import Client
from django.urls import reverse
from django.utils import timezone

from ratings import services
from ratings.engine import SYSTEM_LABELS
from ratings.models import Club, HistoryEntry, RatingList
from ratings.recompute import recompute_list
from tests.support import MakePlayer


def test_a_chart_a_system_switched_by_radio_buttons_each_point_titled(
    client: Client, club: Club, make_player: MakePlayer
) -> None:
    RatingList.objects.filter(pk=club.rating_list_id).update(compared_systems=["egf", "west-surrey"])
    start = timezone.localdate() - timedelta(days=40)
    ann, bob = make_player("Ann", rank=-5, since=start), make_player("Bob", rank=-5, since=start)
    for n in range(4):
        white, black = (ann, bob) if n % 2 else (bob, ann)
        services.save_sheet(
            club=club,
            date=start + timedelta(days=7 * n),
            rows=[services.GameRow(white=white, black=black, winner="white")],
        )
    recompute_list(club.rating_list_id, full=True)
    html = client.get(reverse("player", args=[ann.slug])).content.decode()
    systems = ["sagc", "egf", "west-surrey"]
    assert re.findall(r'<input type="radio" name="chart" id="chart-([\w-]+)"', html) == systems
    assert 'id="chart-sagc" value="sagc" checked' in html
    figures = re.findall(r'<figure class="chart" id="chart-of-([\w-]+)">(.*?)</figure>', html, re.S)
    assert [name for name, _ in figures] == systems
    for name, figure in figures:
        assert f'aria-label="{SYSTEM_LABELS[name]} history' in figure
        titles = re.findall(r"<title>([^<]+)</title>", figure)
        rows = HistoryEntry.objects.filter(player=ann, system=name).select_related("game").order_by("seq")
        assert len(titles) == rows.count() == 4
        for title, row in zip(titles, rows, strict=True):
            won = row.game is not None and (row.game.winner == "white") == (row.colour == "w")
            assert title.startswith(f"{row.date:%Y-%m-%d}: {'won' if won else 'lost'} against Bob"), title
    # ?system= checks that system's button.
    html = client.get(reverse("player", args=[ann.slug]), {"system": "egf"}).content.decode()
    assert 'id="chart-egf" value="egf" checked' in html


def test_one_system_one_chart_without_a_switch(client: Client, club: Club, make_player: MakePlayer) -> None:
    start = timezone.localdate() - timedelta(days=40)
    ann, bob = make_player("Ann", rank=-5, since=start), make_player("Bob", rank=-5, since=start)
    for n in range(2):
        services.save_sheet(
            club=club,
            date=start + timedelta(days=n),
            rows=[services.GameRow(white=ann, black=bob, winner="white")],
        )
    recompute_list(club.rating_list_id, full=True)
    html = client.get(reverse("player", args=[ann.slug])).content.decode()
    assert html.count('<figure class="chart"') == 1 and 'name="chart"' not in html


def test_links_to_the_national_pages_of_the_ids_known(client: Client, make_player: MakePlayer) -> None:
    known = make_player("Known Player", egd_pin="12345678", ffg_licence="1800014", aga_id="4321")
    html = client.get(reverse("player", args=[known.slug])).content.decode()
    assert 'href="https://www.europeangodatabase.eu/EGD/Player_Card.php?&amp;key=12345678"' in html
    # The FFG's person page takes its own number, not the licence: shown, not linked.
    assert "FFG licence 1800014" in html and "jeudego" not in html
    assert 'href="https://agagd.usgo.org/player/4321/"' in html
    unknown = make_player("Unknown Player")
    html = client.get(reverse("player", args=[unknown.slug])).content.decode()
    assert "europeangodatabase" not in html and "ffg.jeudego.org/php" not in html and "agagd" not in html
